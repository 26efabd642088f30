"""BAEBAE's sections of ``cardroom analyze``: each design's impact on who held or played it, the
same per type and per mark, and how often each action step fires.

Designs' types and marks come from the deck the run played, rebuilt through the rules it
recorded (a deck file's text travels with the rules or the manifest), never from the table.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import polars as pl

from cardroom.analysis.folder import Folder, Results
from cardroom.analysis.impact import impact_rows, impact_rows_of, impact_sums, seat_units, unit_sums
from cardroom.analysis.report import Column, Plot, Section, Table
from cardroom.analysis.stats import Difference, holm, mean_moments, paired_moments, welch_moments
from cardroom.analysis.tally import Tally
from cardroom.engine import CardroomInputError
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.rules import Rules

__all__ = ["compare_sections", "deck_of", "sections", "tally"]

STEPS = (
    ("draws_forced", "cards drawn by force"),
    ("skips", "turns skipped"),
    ("penalties", "penalty points"),
    ("reversals", "reversals"),
    ("moves", "cards given or taken"),
)
"""The cards table's counting columns of what an action did, in words."""

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


def deck_of(results: Folder | Results) -> tuple[CardDef, ...] | None:
    """The designs of the deck the run played, from its recorded rules (``None`` if the deck's
    text is not in the results)."""
    rules: Any = results.rules_record
    if not isinstance(rules, dict):
        return None
    options = dict(rules)
    if results.deck_files and not options.get("deck_files"):
        options["deck_files"] = list(results.deck_files)
    try:
        return Rules.from_dict(options).cards
    except CardroomInputError:
        return None


def _unknown_deck(results: Folder | Results) -> str:
    """Why the deck's designs are unknown here, and what to do."""
    return results.deck_note or (
        "The deck's text is not in these results (their rules name a deck file by its digest "
        "only), so the designs' types and marks are unknown here: give the deck file to analyze "
        "with --deck."
    )


def _design_map(designs: tuple[CardDef, ...] | None) -> dict[str, CardDef]:
    """A design as the tables name it (its key, or its name) to its definition."""
    found: dict[str, CardDef] = {}
    for card in designs or ():
        found[card.key] = card
        if card.name:
            found.setdefault(card.name, card)
    return found


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
        designs = _design_map(deck)
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
    designs = _design_map(deck)
    out = []
    rules = results.rules_record
    ace = int(rules.get("ace_penalty", 1)) if isinstance(rules, dict) else 1
    design_table = _design_table(tally, designs, results.played, ace)
    if deck is None:
        design_table.note = f"The Card column is empty: {_unknown_deck(results)} {design_table.note}"
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
                [_unknown_deck(results)],
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


# -- compare: the variants card by card ---------------------------------------------------------

_COUNTS = (("plays", "cards played"), ("ran", "actions run"), *STEPS)
"""What the per-card comparison counts a game for each design: its plays, its actions run, and
what its actions did."""

_COMPARE_ABOUT = (
    "Per card: for each design, what it did a game (plays, actions run, cards drawn by force, turns "
    "skipped...) in the first run and in the variant, and the variant minus the first run, taken game by "
    "game on the same seeds (paired t 95% interval; Welch's when the seeds differ). Held: the card's "
    "per-card impact (round penalty of a seat whose starting hand held it, against one whose did not) in "
    "each run, and its change (the two impacts' intervals combined as independent: wider than paired). "
    "Rows that cannot differ (0 in every game of every variant) are left out. Significant: an interval "
    "excludes 0; Holm: still significant after Holm's adjustment over every figure of the table."
)


def _seed_sets(runs: Sequence[Results]) -> list[list[int]]:
    return [sorted(run.games["seed"].to_list()) for run in runs]


def _per_seed(run: Results) -> pl.DataFrame | None:
    """Per seed and design: plays, actions run, and each step count (zeros left out)."""
    cards = run.table("cards")
    if cards is None:
        return None
    columns = [pl.len().cast(pl.Int64).alias("plays")]
    if "action_ran" in cards.columns:
        columns.append(pl.col("action_ran").cast(pl.Int64).sum().alias("ran"))
    columns += [pl.col(name).cast(pl.Int64).sum().alias(name) for name, _ in STEPS if name in cards.columns]
    return cards.group_by("seed", "design").agg(columns)  # the cards table keeps each game's seed


def _per_game(frame: pl.DataFrame) -> pl.DataFrame:
    """Per seed, every design's counts summed (keyed ``all``)."""
    return (
        frame.group_by("seed")
        .agg(pl.exclude("seed", "design").sum())
        .with_columns(pl.lit("all").alias("all"))
    )


def _moments(frame: pl.DataFrame, keys: list[str], values: list[str]) -> dict[tuple[Any, ...], list[float]]:
    """Per key, each value's sum and sum of squares (in one pass): ``[s1, s2, s1, s2, ...]``."""
    aggregations = []
    for value in values:
        column = pl.col(value).cast(pl.Float64)
        aggregations += [column.sum().alias(f"{value}_s1"), (column**2).sum().alias(f"{value}_s2")]
    sums = frame.group_by(keys).agg(aggregations)
    width = len(keys)
    return {tuple(row[:width]): [float(x) for x in row[width:]] for row in sums.iter_rows()}


def _count_differences(
    base: pl.DataFrame, other: pl.DataFrame, keys: list[str], values: list[str], seeds: Sequence[list[int]]
) -> dict[tuple[tuple[Any, ...], str], tuple[Any, Any, Difference]]:
    """For every key and value: the first run's mean a game, the variant's, and their
    difference, paired on the seeds when both runs played the same ones (a missing row is 0)."""
    n1, n2 = len(seeds[0]), len(seeds[1])
    paired = seeds[0] == seeds[1]
    values = [v for v in values if v in base.columns or v in other.columns]
    base = base.with_columns(pl.lit(0).alias(v) for v in values if v not in base.columns)
    other = other.with_columns(pl.lit(0).alias(v) for v in values if v not in other.columns)
    b, v = _moments(base, keys, values), _moments(other, keys, values)
    d: dict[tuple[Any, ...], list[float]] = {}
    if paired:
        joined = base.join(other, on=["seed", *keys], how="full", coalesce=True, suffix="_v").fill_null(0)
        differences = joined.select(
            *keys, *((pl.col(f"{value}_v") - pl.col(value)).alias(value) for value in values)
        )
        d = _moments(differences, keys, values)
    out: dict[tuple[tuple[Any, ...], str], tuple[Any, Any, Difference]] = {}
    zeros = [0.0] * (2 * len(values))
    for key in dict.fromkeys([*b, *v]):
        for k, value in enumerate(values):
            s1, s2 = b.get(key, zeros)[2 * k : 2 * k + 2]
            t1, t2 = v.get(key, zeros)[2 * k : 2 * k + 2]
            if paired:
                difference = paired_moments(n1, *d.get(key, zeros)[2 * k : 2 * k + 2])
            else:
                m1, m2 = s1 / n1, t1 / n2
                difference = welch_moments(
                    n2,
                    m2,
                    max(t2 - n2 * m2 * m2, 0.0) / max(n2 - 1, 1),
                    n1,
                    m1,
                    max(s2 - n1 * m1 * m1, 0.0) / max(n1 - 1, 1),
                )
            out[(key, value)] = (
                mean_moments(n1, s1, s2).to_dict(),
                mean_moments(n2, t1, t2).to_dict(),
                difference,
            )
    return out


def _independent(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """``b - a`` for two estimates with 95% intervals, their errors combined as independent."""
    if not a or not b or None in (a.get("value"), b.get("value"), a.get("low"), b.get("low")):
        return None
    z = 1.959963984540054
    se = math.hypot((a["high"] - a["low"]) / (2 * z), (b["high"] - b["low"]) / (2 * z))
    value = b["value"] - a["value"]
    p = math.erfc(abs(value) / se / math.sqrt(2)) if se > 0 else (0.0 if value else 1.0)
    low, high = value - z * se, value + z * se
    return {"value": value, "low": low, "high": high, "p": p, "significant": low > 0 or high < 0}


def _held(run: Results) -> dict[str, dict[str, Any]]:
    hands = run.table("hands")
    if hands is None:
        return {}
    return {row["design"]: row["points"] for row in impact_rows(seat_units(run), hands, "design")}


def _deck_diff_table(runs: Sequence[Results], labels: Sequence[str]) -> Table | None:
    from cardroom.games.baebae.deck_diff import deck_diff

    decks = [deck_of(run) for run in runs]
    if decks[0] is None:
        return None
    rows = []
    for label, deck in zip(labels[1:], decks[1:], strict=True):
        if deck is None:
            rows.append(
                {
                    "variant": label,
                    "change": "the variant's deck is unknown here (" + _unknown_deck(runs[0]) + ")",
                }
            )
            continue
        changes = deck_diff(decks[0], deck)
        rows += [{"variant": label, "change": change} for change in changes] or [
            {"variant": label, "change": "the same cards as the first run"}
        ]
    return Table(
        "deck_diff",
        f"What changed in each deck from {labels[0]}'s",
        [Column("variant", "Variant", terminal=len(runs) > 2), Column("change", "Change")],
        rows,
    )


def _effect_words(
    label: str, difference: dict[str, Any], base: dict[str, Any], variant: dict[str, Any]
) -> str:
    d = difference

    def n(x: Any) -> str:
        return f"{x:.2f}" if x is not None else "-"

    return (
        f"{label} {d['value']:+.2f} a game [{n(d['low'])}, {n(d['high'])}] "
        f"({n(base['value'])} -> {n(variant['value'])})"
    )


def compare_sections(runs: Sequence[Results], labels: Sequence[str], *,
                     versions: bool = False) -> tuple[list[str], list[Section]]:
    """BAEBAE's part of ``cardroom compare``: the deck diff, the direct effects (what the
    actions did a game, overall and per card) first, then per card; and warnings (two variants'
    decks of one name, unless ``versions``: versions of one deck share its name)."""
    warnings = []
    decks = [run.manifest.get("deck") for run in runs]
    by_name: dict[str, set[str]] = {}
    for deck in decks:
        if isinstance(deck, dict):
            by_name.setdefault(str(deck.get("name")), set()).add(str(deck.get("digest")))
    for name, digests in by_name.items():
        if len(digests) > 1 and not versions:
            warnings.append(
                f"{len(digests)} variants' decks share the name {name!r} but not their cards (their digests "
                "differ): give each its own name (cardroom deck new NAME --from DECK writes a renamed copy)."
            )
    frames = [_per_seed(run) for run in runs]
    seeds = _seed_sets(runs)
    designs: dict[str, CardDef] = {}
    for run in reversed(runs):  # the first run's designs win where two runs name one alike
        designs |= _design_map(deck_of(run))
    effects_rows: list[dict[str, Any]] = []
    card_tables: list[Table] = []
    plots: list[Plot] = []
    words = dict(_COUNTS)
    base_frame = frames[0]
    held_base = _held(runs[0])
    for label, run, frame, run_seeds in zip(labels[1:], runs[1:], frames[1:], seeds[1:], strict=True):
        if base_frame is None or frame is None:
            continue
        pair = [seeds[0], run_seeds]
        totals = _count_differences(
            _per_game(base_frame), _per_game(frame), ["all"], [k for k, _ in _COUNTS], pair
        )
        per_card = _count_differences(base_frame, frame, ["design"], [k for k, _ in _COUNTS], pair)
        held_variant = _held(run)
        rows: list[dict[str, Any]] = []
        for (key, value), (b, v, d) in sorted(per_card.items(), key=lambda x: (x[0][0][0], _order(x[0][1]))):
            if b["value"] == 0 and v["value"] == 0:
                continue  # 0 in every game of both runs: it cannot differ
            design = str(key[0])
            card = designs.get(design)
            rows.append(
                {
                    "card": card.key if card else "",
                    "design": design,
                    "figure": words[value],
                    "key": value,
                    "base": b,
                    "variant": v,
                    "difference": d.to_dict(),
                    "significant": d.significant,
                }
            )
        for design in sorted({r["design"] for r in rows}):
            change = _independent(held_base.get(design), held_variant.get(design))
            if change is not None:
                card = designs.get(design)
                rows.append(
                    {
                        "card": card.key if card else "",
                        "design": design,
                        "figure": "penalty diff, held",
                        "key": "held",
                        "base": held_base.get(design),
                        "variant": held_variant.get(design),
                        "difference": change,
                        "significant": change["significant"],
                    }
                )
        adjusted = holm(
            [r["difference"]["p"] if r["difference"].get("p") is not None else math.nan for r in rows]
        )
        for row, p in zip(rows, adjusted, strict=True):
            row["holm"] = not math.isnan(p) and p < 0.05
        # The direct effects: what changed most surely, the game's totals first.
        kept = holm([bv[2].p for bv in totals.values()])
        ranked = sorted(
            (
                (k, bv)
                for (k, bv), p in zip(totals.items(), kept, strict=True)
                if not math.isnan(p) and p < 0.05
            ),
            key=lambda x: -_surety(x[1][2].to_dict()),
        )
        for (_, value), (b, v, d) in ranked:
            effects_rows.append(
                {
                    "variant": label,
                    "effect": _effect_words(words[value], d.to_dict(), b, v),
                    "difference": d.to_dict(),
                    "holm": True,
                }
            )
        surest = sorted(
            (r for r in rows if r["holm"] and r["key"] != "held"),
            key=lambda r: -_surety(r["difference"]),
        )
        for r in surest[:8]:
            effects_rows.append(
                {
                    "variant": label,
                    "effect": _effect_words(
                        f"{r['card']} {r['design']}: {r['figure']}".strip(),
                        r["difference"],
                        r["base"],
                        r["variant"],
                    ),
                    "difference": r["difference"],
                    "holm": True,
                }
            )
        rows.sort(key=lambda r: (not r["holm"], not r["significant"], -_surety(r["difference"])))
        card_tables.append(
            Table(
                f"cards_{len(card_tables) + 1}",
                f"{label} minus {labels[0]}, card by card",
                [
                    Column("card", "Card"),
                    Column("design", "Design", terminal=False),
                    Column("figure", "Figure"),
                    Column("base", labels[0], 2, terminal=False),
                    Column("variant", label, 2, terminal=False),
                    Column("difference", "Difference [95%]", 2),
                    Column("significant", "Significant"),
                    Column("holm", "Holm"),
                ],
                rows,
                note="Per game; held: the per-card impact on a round's penalty. Rows 0 in every game of both "
                "runs left out.",
                flag="holm",
            )
        )
        shown = [r for r in rows if r["holm"] and r["key"] != "held"][:30]
        if shown:
            plots.append(
                Plot(
                    f"cards_{len(card_tables)}",
                    f"{label} minus {labels[0]}: the surest per-card changes a game (95% intervals)",
                    "bar",
                    {
                        "labels": [f"{r['card']} {r['key']}" for r in shown],
                        "values": [r["difference"]["value"] for r in shown],
                        "low": [r["difference"]["low"] for r in shown],
                        "high": [r["difference"]["high"] for r in shown],
                        "reference": 0.0,
                    },
                    xlabel="card and figure",
                    ylabel="difference a game",
                )
            )
        steps = [(k, bv) for k, bv in totals.items() if not (bv[0]["value"] == 0 and bv[1]["value"] == 0)]
        if steps:
            plots.append(
                Plot(
                    f"steps_{len(card_tables)}",
                    f"{label} minus {labels[0]}: what the actions did a game (95% intervals)",
                    "bar",
                    {
                        "labels": [words[k[1]] for k, _ in steps],
                        "values": [bv[2].value for _, bv in steps],
                        "low": [bv[2].low for _, bv in steps],
                        "high": [bv[2].high for _, bv in steps],
                        "reference": 0.0,
                    },
                    xlabel="step",
                    ylabel="difference a game",
                )
            )
    sections = []
    diff = _deck_diff_table(runs, labels)
    effects = Table(
        "direct_effects",
        "Direct effects: what the variants' actions did differently a game",
        [
            Column("variant", "Variant", terminal=len(runs) > 2),
            Column("effect", "Effect [95%] (first run -> variant)"),
        ],
        effects_rows
        or [{"variant": "", "effect": "no difference in what the actions did survives Holm's adjustment"}],
    )
    sections.append(
        Section(
            "direct_effects",
            "Direct effects",
            [
                "What the cards' actions did a game, in all and per card, that differs between the first "
                "run and a variant beyond chance (paired on the seeds where the runs share them, Welch's "
                "otherwise; Holm's adjustment over the totals, and over every per-card figure), the surest "
                "first."
            ],
            [effects, *([diff] if diff is not None else [])],
            [],
            {"effects": [r["effect"] for r in effects_rows],
             "effects_by_variant": {label: [r["effect"] for r in effects_rows if r["variant"] == label]
                                    for label in labels[1:]}},
        )
    )
    if card_tables:
        sections.append(Section("cards_compare", "Card by card", [_COMPARE_ABOUT], card_tables, plots))
    return warnings, sections


def _surety(difference: dict[str, Any]) -> float:
    """How many interval widths a difference lies from 0: the surest first."""
    value, low, high = difference.get("value"), difference.get("low"), difference.get("high")
    if value is None or low is None or high is None:
        return 0.0
    return float(abs(value) / max(high - low, 1e-9))


def _order(value: str) -> int:
    keys = [k for k, _ in _COUNTS] + ["held"]
    return keys.index(value) if value in keys else len(keys)
