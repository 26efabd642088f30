"""The verdicts reports open with (cardroom.analysis.verdict), on hand-made report figures."""

from __future__ import annotations

from typing import Any

from cardroom.analysis.verdict import skill_verdict


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
