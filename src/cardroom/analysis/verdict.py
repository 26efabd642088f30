"""The verdict a report opens with: in plain words, what changed most, for whom, and whether it
is more than noise; where a compare finds a target moved (length, seat advantage), the
``cardroom tune`` command that would bring it back.

"More than noise" is the reports' own test: a difference whose 95% interval excludes 0 after
Holm's adjustment over every figure of the comparison. A figure significant only before the
adjustment is called possible noise (about 1 in 20 figures is, by chance alone).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from cardroom import games as game_registry
from cardroom.engine import is_whole
from cardroom.games.contracts import DeckNumbers

__all__ = [
    "POOLED", "SEATS", "compare_verdict", "number", "restrict_verdict", "skill_verdict", "tune_hints",
    "with_effects",
]

POOLED = "points_all"
"""The per-game mean of every seat's total: a seat's change, pooled over the seats (each seat
alone is a noisy figure)."""
SEATS = "seat_advantage"
"""The largest distance of a seat's win rate from the fair share (``cardroom tune``'s ``seats``)."""


def number(x: float | None) -> str:
    """A figure as the verdict writes it: three significant digits.

    >>> number(2.0134), number(-0.00812), number(None)
    ('2.01', '-0.00812', '-')
    """
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{x:.3g}" if abs(x) >= 1e-4 or x == 0 else f"{x:.1e}"


def _interval(d: Mapping[str, Any]) -> str:
    value = d.get("value")
    sign = "+" if value is not None and value > 0 else ""
    return f"{sign}{number(value)} [{number(d.get('low'))}, {number(d.get('high'))}]"


def _surety(d: Mapping[str, Any]) -> float:
    value, low, high = d.get("value"), d.get("low"), d.get("high")
    if value is None or low is None or high is None:
        return 0.0
    return float(abs(value) / max(high - low, 1e-12))


def _whom(key: str) -> str:
    if key.startswith(("win_seat", "points_seat")):
        return f"for seat {key.rpartition('seat')[2]} alone"
    if key == POOLED:
        return "for every seat, pooled"
    if key == SEATS:
        return "between the seats"
    return "for the game as a whole (every seat)"


def compare_verdict(label: str, base: str, rows: Sequence[Mapping[str, Any]], points: str) -> list[str]:
    """The verdict on one variant against the first run, from its compare table's rows (each
    with ``key``, ``metric``, ``base``, ``variant``, ``difference``, ``significant``, ``holm``)."""
    lines = []
    ranked = sorted(rows, key=lambda r: -_surety(r["difference"]))
    sure = [r for r in ranked if r.get("holm")]
    maybe = [r for r in ranked if r["significant"] and not r.get("holm")]

    def told(row: Mapping[str, Any]) -> str:
        return (f"{row['metric']} {_interval(row['difference'])} ({number(row['base'].get('value'))} -> "
                f"{number(row['variant'].get('value'))}), {_whom(row['key'])}")

    if sure:
        more = f"; {len(sure) - 1} other figure{'s' if len(sure) > 2 else ''} too" if len(sure) > 1 else ""
        lines.append(f"{label} against {base}: the surest change is {told(sure[0])}: more than noise "
                     f"(it holds after Holm's adjustment over the {len(rows)} figures{more}).")
    elif maybe:
        lines.append(f"{label} against {base}: no result of the games moved beyond noise once Holm's "
                     "adjustment over the "
                     f"{len(rows)} figures is made; the likeliest change, {told(maybe[0])}, may be chance "
                     "(about 1 figure in 20 excludes 0 by chance alone).")
    else:
        lines.append(f"{label} against {base}: no result of the games moved beyond noise (every 95% interval "
                     "holds 0).")
    pooled = next((r for r in rows if r["key"] == POOLED), None)
    seats = [r for r in rows if r["key"].startswith("points_seat")]
    if pooled is not None:
        d = pooled["difference"]
        words = ("more than noise" if pooled.get("holm") else "possibly noise" if pooled["significant"]
                 else "within noise")
        alone: list[float] = [
            (r["difference"]["high"] - r["difference"]["low"]) / 2 for r in seats
            if r["difference"].get("low") is not None and r["difference"].get("high") is not None
        ]
        noise = f"; each seat alone is known only to +-{number(sum(alone) / len(alone))}" if alone else ""
        if sure and sure[0] is pooled:
            spread = number(sum(alone) / len(alone)) if alone else ""
            lines.append(f"Each seat alone is known only to +-{spread} {points} a game: read the pooled "
                         "figure, not a seat's." if alone else "")
        else:
            before, after = number(pooled["base"].get("value")), number(pooled["variant"].get("value"))
            lines.append(f"Pooled over all seats: {points} a game {_interval(d)} ({before} -> {after}): "
                         f"{words}{noise}.")
    return [line for line in lines if line]


def with_effects(
    verdict: list[str], labels: Sequence[str], effects: Mapping[str, Sequence[str]]
) -> list[str]:
    """The verdict with each variant's surest direct effect (what its cards' actions did
    differently), after that variant's first line."""
    out = []
    for line in verdict:
        out.append(line)
        for label in labels[1:]:
            if line.startswith(f"{label} against ") and effects.get(label):
                out.append(f"What the cards' actions did differently, beyond noise (the surest): "
                           f"{effects[label][0]}.")
    return out


def _deck_text(run: Any) -> str | None:
    """The deck file a results run played, when it is one file (beside its tables or the project's)."""
    files: tuple[str, ...] = tuple(getattr(run, "deck_files", ()))
    if len(files) == 1:
        return str(files[0])
    spec = run.spec
    name = str((run.manifest.get("rules") or {}).get("deck", ""))
    path = spec.decks.path(name) if spec.decks is not None and name and "," not in name else None
    return path.read_text(encoding="utf-8") if path is not None else None


def _numbers_moved(base: Any, run: Any) -> list[str]:
    """The numbers that differ between two runs, as ``--param NAME=LO..HI`` ranges (a deck's
    ``CARD.FIELD`` and numeric rules options)."""
    spec = run.spec
    params = []
    rules_a = {k: v for k, v in (base.manifest.get("rules") or {}).items() if k not in ("deck", "deck_files")}
    rules_b = {k: v for k, v in (run.manifest.get("rules") or {}).items() if k not in ("deck", "deck_files")}
    for key, value in rules_b.items():
        other = rules_a.get(key)
        whole = all(is_whole(x) for x in (value, other))
        if key != "players" and whole and other != value:
            params.append(f"{key}={min(value, other)}..{max(value, other)}")
    texts = (_deck_text(base), _deck_text(run))
    if isinstance(spec.decks, DeckNumbers) and texts[0] is not None and texts[1] is not None:
        try:
            before, after = spec.decks.numbers(texts[0]), spec.decks.numbers(texts[1])
        except ValueError:
            before, after = {}, {}
        for ref, value in after.items():
            if ref in before and before[ref] != value:
                params.append(f"{ref}={min(value, before[ref])}..{max(value, before[ref])}")
    return params


def tune_hints(base: Any, run: Any, rows: Sequence[Mapping[str, Any]], deck: str | None) -> list[str]:
    """Where the variant moved a target beyond noise (the game's length, its decisions, the
    seats' advantage), the ``cardroom tune`` command that searches the numbers that differ back
    toward the first run's figure. ``deck``: the variant's deck as ``--deck`` takes it."""
    moved = {r["key"]: r for r in rows if r.get("holm")}
    targets = []
    if "deals" in moved:
        targets.append(("length", moved["deals"]["base"]["value"], "the game's length"))
    if "decisions" in moved:
        targets.append(("decisions", moved["decisions"]["base"]["value"], "the decisions a game"))
    seat_rows = [r for r in rows if r["key"] == SEATS]
    if seat_rows and (seat_rows[0].get("holm") or any(k.startswith("win_seat") for k in moved)):
        bound = max(math.ceil(seat_rows[0]["base"]["value"] * 100) / 100, 0.01)
        targets.append(("seats", bound, "the seats' advantage"))
    if not targets:
        return []
    game = run.game
    spec = run.spec
    params = _numbers_moved(base, run)
    words = ["cardroom", "tune", game]
    rules = run.manifest.get("rules") or {}
    deck_spec = str(rules.get("deck", ""))
    if spec.decks is not None and deck_spec:
        words += ["--deck", deck or (deck_spec if not deck_spec.startswith("sha256:") else "DECK.toml")]
    defaults = spec.make_rules({}).to_dict()
    if rules.get("players") != defaults.get("players"):
        words += ["--players", str(rules.get("players"))]
    searched = {p.partition("=")[0] for p in params}
    for key, value in rules.items():
        fixed = key not in ("deck", "deck_files", "players") and key not in searched
        if fixed and defaults.get(key) != value:
            words += ["--rule", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    for param in params[:3] or ["NAME=LO..HI"]:
        words += ["--param", param]
    for name, goal, _ in targets:
        words += ["--target", f"{name}={float(goal):.3g}"]
    from cardroom.sim.tournament import default_agents

    agents = list(getattr(run, "agents", []))
    if agents and any(a != default_agents(spec) for a in agents):
        words += ["--agents", ",".join(agents)]
    what = " and ".join(w for _, _, w in targets)
    how = ("" if params else " (name the number to search: a rules option, or a deck's CARD.FIELD such as "
           "10C.count)")
    if "DECK.toml" in words:
        how += " (DECK.toml: the variant's deck file)"
    return [f"To bring {what} back to the first run's, search the numbers that changed: "
            f"{' '.join(shlex.quote(w) for w in words)}{how}."]


def restrict_verdict(rows: Sequence[Mapping[str, Any]], unit: str, players: int) -> list[str]:
    """The verdict of restricted play: which card is worth most (and least) to its player, and
    whether that is more than noise (its worth in points after Holm's adjustment, ``margin_holm``,
    not a row's ``holm``, which its win rate alone may make true); every row is already pooled
    over the seats."""
    if not rows:
        return ["No card was restricted."]
    sure = [r for r in rows if r.get("margin_holm")]
    top, bottom = rows[0], rows[-1]

    def told(row: Mapping[str, Any]) -> str:
        name = f"{row['card']} {row['design']}" if row["design"] != row["card"] else row["card"]
        return f"{name}, {_interval(row['margin'])} {unit} a game"

    pooled = (f"Every figure is pooled over all {players} seats (the restricted seat turns with the games); "
              "a single seat's would be far noisier.")
    if not sure:
        return [f"No card's worth to its player is more than noise after Holm's adjustment over the "
                f"{len(rows)} restrictions; the largest, {told(top)}, may be chance.", pooled]
    lines = [f"The card worth most to its player is {told(top)}: "
             f"{'more than noise' if top.get('margin_holm') else 'possibly noise'}; "
             f"{len(sure)} of {len(rows)} restrictions are worth more than noise (Holm's adjustment)."]
    if bottom is not top and bottom["margin"].get("value") is not None and bottom["margin"]["value"] < 0:
        lines.append(f"Playing {told(bottom)} costs its player: "
                     f"{'more than noise' if bottom.get('margin_holm') else 'possibly noise'}.")
    return [*lines, pooled]


def skill_verdict(report: Mapping[str, Any]) -> list[str]:
    """The verdict of a skill ladder: how many points skill is worth from the bottom rung to the
    top, whether more than noise, the largest step, and whether more search still pays."""
    span = report["range"]["difference"]
    low, high = span.get("low"), span.get("high")
    beyond = low is not None and high is not None and (low > 0 or high < 0)
    variant = f" ({report['variant']})" if report.get("variant") else ""
    unit = report["unit"]
    top, bottom = report["range"]["top"], report["range"]["bottom"]
    value = span.get("value")
    lower = game_registry.get(report["game"]).lower_wins
    better = value is not None and (value < 0) == lower and value != 0
    gap = f"{number(abs(value))} {unit}" if value is not None else "-"
    lines = [f"Skill{variant}: {top} does {'better' if better else 'worse'} than {bottom} by {gap} "
             f"(through the rungs: {_interval(span)}; {'lower' if lower else 'higher'} is better): "
             f"{'more than noise' if beyond else 'within noise'}."]
    steps = report["steps"]
    if steps:
        def off_even(step: Mapping[str, Any]) -> float:  # a rung that lost every deal is 0.0, not unknown
            value = step["score"].get("value")
            return 0.0 if value is None else abs(value - 0.5)

        best = max(steps, key=off_even)
        score = best["score"]
        sure = score.get("low") is not None and (score["low"] > 0.5 or score["high"] < 0.5)
        def percent(x: float | None) -> str:
            return "-" if x is None else f"{100 * x:.0f}%"

        lines.append(f"The largest step: {best['rung']} over {best['below']}, better on "
                     f"{percent(score.get('value'))} of the deals [{percent(score.get('low'))}, "
                     f"{percent(score.get('high'))}] (50%: no better): "
                     f"{'more than noise' if sure else 'within noise'}.")
    trend = report["trend"]
    if trend.get("steps"):
        lines.append("More search stops paying after about "
                     f"{number(trend['pays_until'])} doublings." if trend.get("pays_until") is not None
                     else "No sign yet that more search stops paying.")
    lines.append("Every figure is pooled over all seats: each rung plays every seat of each duplicate deal.")
    return lines
