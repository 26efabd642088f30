"""The verdicts reports open with (cardroom.analysis.verdict), on hand-made report figures."""

from __future__ import annotations

from typing import Any

from cardroom.analysis.verdict import restrict_verdict, skill_verdict


def _step(rung: str, below: str, score: float) -> dict[str, Any]:
    return {"rung": rung, "below": below, "score": {"value": score, "low": score, "high": score}}


def _ladder(*steps: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "baha", "variant": None, "unit": "horns",
        "range": {"top": steps[-1]["rung"], "bottom": steps[0]["below"],
                  "difference": {"value": -3.0, "low": -4.0, "high": -2.0}},
        "steps": list(steps), "trend": {},
    }


def test_the_largest_step_of_a_ladder_may_be_a_rung_that_lost_every_deal() -> None:
    """A score of 0 (the rung worse on every deal) is the farthest from even, not a missing one."""
    report = _ladder(_step("heuristic", "random", 0.7), _step("ismcts 25", "heuristic", 0.0))
    largest = next(line for line in skill_verdict(report) if line.startswith("The largest step"))
    assert largest.startswith("The largest step: ismcts 25 over heuristic, better on 0% of the deals")
    assert largest.endswith("more than noise.")


def _restricted(card: str, value: float, low: float, high: float, *, holm: bool, margin_holm: bool) -> dict[str, Any]:
    return {"card": card, "design": card, "margin": {"value": value, "low": low, "high": high},
            "holm": holm, "margin_holm": margin_holm}


def test_a_cards_worth_is_called_more_than_noise_only_by_its_own_interval() -> None:
    """A row's Holm flag also holds when only its win rate is beyond noise: the verdict, which
    speaks of the worth in points, reads the worth's own flag."""
    rows = [_restricted("10C", 0.4, -0.2, 1.0, holm=True, margin_holm=False),
            _restricted("5D", -0.1, -0.5, 0.3, holm=False, margin_holm=False)]
    verdict = restrict_verdict(rows, "points", 4)
    assert verdict[0].startswith("No card's worth to its player is more than noise after Holm's adjustment over "
                                 "the 2 restrictions; the largest, 10C, +0.4 [-0.2, 1] points a game")
    rows[0] = _restricted("10C", 1.4, 0.8, 2.0, holm=True, margin_holm=True)
    verdict = restrict_verdict(rows, "points", 4)
    assert verdict[0] == ("The card worth most to its player is 10C, +1.4 [0.8, 2] points a game: more than "
                          "noise; 1 of 2 restrictions are worth more than noise (Holm's adjustment).")
    assert verdict[1] == "Playing 5D, -0.1 [-0.5, 0.3] points a game costs its player: possibly noise."
