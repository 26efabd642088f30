"""BAEBAE's sections of ``cardroom analyze``: each design's impact on who held or played it, the
same per type and per mark, and how often each action step fires.

Designs' types and marks come from the deck the run played (:mod:`.baebae_designs`); the
comparison of variants, ``compare_sections``, is :mod:`.baebae_compare`'s.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from cardroom.analysis.folder import Folder, Results
from cardroom.analysis.games.baebae_compare import compare_sections
from cardroom.analysis.games.baebae_designs import STEPS, deck_of, design_map, unknown_deck
from cardroom.analysis.impact import impact_rows_of, impact_sums, seat_units, unit_sums
from cardroom.analysis.report import Column, Plot, Section, Table
from cardroom.analysis.tally import Tally
from cardroom.games.baebae.deck import CardDef

__all__ = ["compare_sections", "deck_of", "sections", "tally"]

_IMPACT_ABOUT = (
    "A unit is one seat in one round: its round penalty and its share of the game's win (1/k for a "
    "first place shared by k). For each design, the units whose starting hand held it (hands table) "
    "are set against the units that did not; the same for the units that played it (cards table). "
    "Differences are held minus not held: a positive penalty difference means the card costs its "
    "holder points. Intervals are Welch's 95% t intervals; rounds of one game are not independent, "
    "so they are a little narrower than exact."
)
_WITHIN = (
    "Within value: the held difference less the mean held difference of the cards of the same penalty "
    "value (a 10 against the cards worth 10: 10, J, Q, K; a 3 against the 3s), its interval moved alike "
    "(the mean's own uncertainty left out), so that what a card costs while it stays in hand cancels out; "
    "the rows are ranked by it. Plays a game and Action ran (the share of its "
    "plays whose action ran) stand beside every figure; Note says where these agents never play a card or "
    "never carry out its action (its figures then measure the card without it)."
)
_MULTIPLE = (
    "Outlier: an interval excludes 0. With many designs, about 1 in 20 such flags appears by chance "
    "alone: the Holm column keeps only the differences that stay significant after Holm's adjustment "
    "over every design and both figures, penalty and win, within each family: held and played are "
    "two families of 5% each, so a row flagged for either has up to about 10% family-wise error."
)



def _flag_columns() -> list[Column]:
    return [Column("outlier", "Outlier"), Column("holm", "Holm")]


def _within_value(
    held: list[dict[str, Any]], designs: dict[str, CardDef], ace: int
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per design, its held differences (penalty and win) less the mean held difference of the
    designs of its penalty value (a 10 against 10, J, Q and K; a 3 against the other 3s), the
    interval moved alike: what the penalty a card costs while it stays in hand adds to every
    card of that value cancels out. A value of one design gives nothing."""

    def value(card: CardDef) -> int:
        return ace if card.rank == 1 else min(card.rank, 10)

    groups: dict[int, list[dict[str, Any]]] = {}
    for row in held:
        card = designs.get(row["design"])
        if card is not None and row["points"].get("value") is not None:
            groups.setdefault(value(card), []).append(row)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for rows in groups.values():
        if len({r["design"] for r in rows}) < 2:
            continue
        for figure in ("points", "win"):
            mean = sum(r[figure]["value"] for r in rows) / len(rows)
            for r in rows:
                shifted = {
                    k: (v - mean if isinstance(v, float) and k in ("value", "low", "high") else v)
                    for k, v in r[figure].items()
                }
                out.setdefault(r["design"], {})[figure] = shifted
    return out


RARELY = 0.01
"""An action run on fewer than this share of its card's plays is noted: the card's figures are
then the card's without it."""


def _note(card: CardDef | None, dealt: int, plays: int, ran: int | None) -> str:
    """What the figures of a card cannot say: it was never played, or its action never ran."""
    if card is None or not dealt:
        return ""
    if plays == 0:
        return "never played by these agents: its figures measure holding it only"
    if card.has_action and ran is not None and ran < RARELY * plays:
        how = "never" if ran == 0 else f"almost never ({ran} of {plays} plays)"
        what = f"optional action {how} carried out" if card.optional else f"action {how} ran"
        return f"{what} by these agents: its figures measure the card without its action"
    return ""


def _never_used(rows: list[dict[str, Any]]) -> list[str]:
    """The notes of the rows, one sentence (a terminal shows the table's note, not that column)."""
    noted = [
        f"{r['card'] or r['design']} ({r['note'].partition(' by these agents')[0]})"
        for r in rows
        if r["note"]
    ]
    return [f"Never used by these agents: {', '.join(noted)}."] if noted else []


def tally(part: Results, tally: Tally) -> None:
    """Add a part's sums: each unit's, the units that held or played each design, each type and
    mark held, and what each design's plays did."""
    units = seat_units(part)
    tally.add("baebae_units", unit_sums(units).with_columns(pl.lit(0).alias("all")), ["all"])
    hands = part.table("hands")
    cards = part.table("cards")
    for name, table in (("held", hands), ("played", cards)):
        if table is not None:
            tally.add(f"baebae_{name}", impact_sums(units, table, "design"), ["design"])
            tally.add(f"baebae_{name}_rows", table.group_by("design").len("rows"), ["design"])
    deck = deck_of(part)
    if hands is not None and deck is not None:
        designs = design_map(deck)
        for what in ("type", "mark"):
            members = _group_members(hands, designs, what)
            tally.add(f"baebae_{what}s", impact_sums(units, members, what), [what])
    if cards is not None:
        tally.add("baebae_steps", _step_sums(cards), ["design"])


def _sums(tally: Tally, name: str) -> pl.DataFrame | None:
    return tally.get(f"baebae_{name}")


def _impact(tally: Tally, name: str, key: str) -> list[dict[str, Any]]:
    per_key, units = _sums(tally, name), _sums(tally, "units")
    return impact_rows_of(per_key, units, key) if per_key is not None and units is not None else []


def _counts(tally: Tally, name: str) -> dict[str, int]:
    rows = _sums(tally, f"{name}_rows")
    return {str(d): int(n) for d, n in rows.iter_rows()} if rows is not None else {}


def _design_table(tally: Tally, designs: dict[str, CardDef], games: int, ace: int) -> Table:
    held = _impact(tally, "held", "design")
    played = _impact(tally, "played", "design")
    dealt = _counts(tally, "held")
    plays = _counts(tally, "played")
    steps = _sums(tally, "steps")
    ran: dict[str, int] = {}
    if steps is not None and "ran" in steps.columns:
        ran = {str(d): int(n or 0) for d, n in steps.select("design", "ran").iter_rows()}
    within = _within_value(held, designs, ace)
    by_design: dict[str, dict[str, Any]] = {}
    for row in held:
        by_design[row["design"]] = {
            "held_points": row["points"],
            "held_win": row["win"],
            "outlier": row["outlier"],
            "holm": row["holm"],
        }
    for row in played:
        entry = by_design.setdefault(row["design"], {"outlier": False, "holm": False})
        entry |= {"played_points": row["points"], "played_win": row["win"]}
        entry["outlier"] = entry["outlier"] or row["outlier"]
        entry["holm"] = entry["holm"] or row["holm"]
    rows = []
    for design, entry in by_design.items():
        card = designs.get(design)
        count = plays.get(design, 0)
        has_action = card is not None and card.has_action
        rows.append(
            {
                "card": card.key if card else "",
                "design": design,
                "dealt": dealt.get(design, 0),
                "played": count,
                "plays_game": count / games if games else None,
                "ran_share": ran.get(design, 0) / count if has_action and count else None,
                "within_points": within[design]["points"] if design in within else None,
                "within_win": within[design]["win"] if design in within else None,
                "note": _note(card, dealt.get(design, 0), count, ran.get(design) if has_action else None),
                **entry,
            }
        )
    # The costliest to hold among the cards of its penalty value first: the penalty a card
    # costs in hand no longer decides the order (every 10, J, Q, K would lead it).
    rows.sort(key=lambda r: -((r.get("within_points") or r.get("held_points") or {}).get("value") or 0.0))
    columns = [
        Column("card", "Card"),
        Column("design", "Design"),
        Column("dealt", "Dealt", terminal=False),
        Column("played", "Played", terminal=False),
        Column("plays_game", "Plays a game", 2),
        Column("ran_share", "Action ran", 2),
        Column("within_points", "Penalty diff, held, within value"),
        Column("within_win", "Win diff, held, within value", 3, terminal=False),
        Column("held_points", "Penalty diff, held", terminal=False),
        Column("held_win", "Win diff, held", 3, terminal=False),
        Column("played_points", "Penalty diff, played", terminal=False),
        Column("played_win", "Win diff, played", 3, terminal=False),
        Column("note", "Note", terminal=False),
        *_flag_columns(),
    ]
    return Table(
        "designs",
        "Per-card impact (held at the deal, among the cards of its penalty value; played; 95% Welch "
        "intervals)",
        columns,
        rows,
        note=" ".join([_WITHIN, *_never_used(rows), _MULTIPLE]),
        flag="outlier",
    )


def _group_members(hands: pl.DataFrame, designs: dict[str, CardDef], what: str) -> pl.DataFrame:
    """The hands' rows, one for each type (``what="type"``) or mark (``"mark"``) of their card."""
    groups = {key: sorted(card.types if what == "type" else card.marks) for key, card in designs.items()}
    return (
        hands.select("game_index", "deal", "seat", "design")
        .with_columns(
            pl.col("design").replace_strict(groups, default=[], return_dtype=pl.List(pl.String)).alias(what)
        )
        .explode(what)
        .drop_nulls(what)
    )


def _group_table(tally: Tally, what: str) -> Table:
    """Impact of holding a card of a type (``what="type"``) or a mark (``"mark"``) at the deal."""
    rows = _impact(tally, f"{what}s", what)
    columns = [
        Column(what, what.capitalize()),
        Column("units", "Seat-rounds holding one"),
        Column("points", "Penalty diff"),
        Column("win", "Win diff", 3),
        *_flag_columns(),
    ]
    return Table(
        f"{what}s",
        f"Per-{what} impact (held at the deal; 95% Welch intervals)",
        columns,
        rows,
        note=_MULTIPLE,
        flag="outlier",
    )


def _step_sums(cards: pl.DataFrame) -> pl.DataFrame:
    """Per design: its plays, the plays whose action ran, and what the actions did."""
    counts = [name for name, _ in STEPS if name in cards.columns]
    named = [name for name in ("suit_named", "coin") if name in cards.columns]
    aggregations = [pl.len().alias("plays")]
    if "action_ran" in cards.columns:
        aggregations.append(pl.col("action_ran").sum().alias("ran"))
    aggregations += [pl.col(name).sum().alias(name) for name in counts]
    aggregations += [pl.col(name).is_not_null().sum().alias(name) for name in named]
    return cards.group_by("design").agg(aggregations)


def _steps_table(per_design: pl.DataFrame, designs: dict[str, CardDef], games: int) -> tuple[Table, Table]:
    counts = [name for name, _ in STEPS if name in per_design.columns]
    named = [name for name in ("suit_named", "coin") if name in per_design.columns]
    rows = []
    for row in per_design.iter_rows(named=True):
        card = designs.get(row["design"])
        if card is not None and not card.has_action and not card.marks:
            continue
        ran = row.get("ran")
        rows.append(
            {
                **row,
                "card": card.key if card else "",
                "ran_share": ran / row["plays"] if ran is not None and row["plays"] else None,
            }
        )
    columns = [
        Column("card", "Card"),
        Column("design", "Design"),
        Column("plays", "Plays"),
        Column("ran_share", "Action ran", 2),
    ]
    columns += [Column(name, words.capitalize(), 0) for name, words in STEPS if name in counts]
    columns += [Column(name, {"suit_named": "Suits named", "coin": "Coins"}[name], 0) for name in named]
    per_card = Table("action_cards", "What each card with an action or a mark did", columns, rows)
    totals = per_design.select(pl.exclude("design").sum()).row(0, named=True)
    words = dict(STEPS) | {
        "ran": "actions run",
        "suit_named": "suits named",
        "coin": "coins tossed",
        "plays": "cards played",
    }
    summary = [
        {"step": words[name], "count": int(value or 0), "per_game": (value or 0) / games if games else None}
        for name, value in totals.items()
    ]
    steps = Table(
        "action_steps",
        "How often each action step fires",
        [Column("step", "Step"), Column("count", "Count"), Column("per_game", "A game", 2)],
        summary,
    )
    return steps, per_card


def sections(results: Folder | Results, tally: Tally) -> list[Section]:
    """Per-card, per-type and per-mark impact, and the action steps that fired (from the sums
    of :func:`tally`)."""
    deck = deck_of(results)
    designs = design_map(deck)
    out = []
    rules = results.rules_record
    ace = int(rules.get("ace_penalty", 1)) if isinstance(rules, dict) else 1
    design_table = _design_table(tally, designs, results.played, ace)
    if deck is None:
        design_table.note = f"The Card column is empty: {unknown_deck(results)} {design_table.note}"
    held = [r for r in design_table.rows if "held_points" in r]
    plot = Plot(
        "design_penalty",
        "Round penalty difference for holding each design (95% intervals)",
        "bar",
        {
            "labels": [r["design"] for r in held],
            "values": [r["held_points"]["value"] for r in held],
            "low": [r["held_points"]["low"] for r in held],
            "high": [r["held_points"]["high"] for r in held],
            "reference": 0.0,
        },
        xlabel="design",
        ylabel="penalty difference",
    )
    out.append(
        Section(
            "cards",
            "Per-card impact",
            [_IMPACT_ABOUT],
            [design_table],
            [plot],
            {
                "outliers": [r["design"] for r in design_table.rows if r["outlier"]],
                "holm_outliers": [r["design"] for r in design_table.rows if r["holm"]],
            },
        )
    )
    if results.has("hands") and deck is not None:
        tables = [_group_table(tally, "type"), _group_table(tally, "mark")]
        out.append(
            Section(
                "groups",
                "Per-type and per-mark impact",
                [
                    "The same comparison as per card, for holding at the deal at least one card of a type "
                    "(from the "
                    "deck's designs) or with a mark (skip, wild, reverse)."
                ],
                tables,
            )
        )
    elif results.has("hands"):
        out.append(
            Section(
                "groups",
                "Per-type and per-mark impact",
                [unknown_deck(results)],
            )
        )
    per_design = _sums(tally, "steps")
    if per_design is not None:
        steps, per_card = _steps_table(per_design, designs, results.played)
        out.append(
            Section(
                "actions",
                "Action steps",
                [
                    "From the cards table: for each card played, whether its action ran and what it did "
                    "(cards drawn by force, turns skipped, penalty points, reversals, cards given or taken, "
                    "suits named, coins)."
                ],
                [steps, per_card],
            )
        )
    return out

