"""Baha's sections of ``cardroom analyze``: moons, where each horned card's horns end, passes."""

from __future__ import annotations

import polars as pl

from cardroom.analysis.folder import Folder, Results
from cardroom.analysis.report import Column, Plot, Section, Table
from cardroom.analysis.stats import wilson
from cardroom.analysis.tally import Tally

__all__ = ["sections", "tally"]


def tally(part: Results, tally: Tally) -> None:
    """Add a part's sums: hands and moons by shooter; horned cards' plays and where their
    horns went; each card's times dealt in a passing hand and passed."""
    deals = part.deals
    if "moon" in deals.columns:
        tally.add("baha_hands", pl.DataFrame({"all": [0], "hands": [deals.height]}), ["all"])
        shot = deals.filter(pl.col("moon").is_not_null())
        tally.add("baha_moons", shot.group_by("moon").len("moons"), ["moon"])
    cards = part.table("cards")
    if cards is not None and {"horns", "horns_taken_by"} <= set(cards.columns):
        horned = cards.filter(pl.col("horns") > 0)
        tally.add("baha_horned", horned.group_by("card", "horns").agg(
            pl.len().alias("plays"), (pl.col("horns_taken_by") == pl.col("seat")).sum().alias("own")),
            ["card", "horns"])
        taken = horned.group_by("card", "horns_taken_by").len("taken")
        tally.add("baha_taken", taken, ["card", "horns_taken_by"])
    hands = part.table("hands")
    if hands is not None and "passed" in hands.columns:
        dealt = hands.filter(~pl.col("received")) if "received" in hands.columns else hands
        passing = dealt.group_by("game_index", "deal").agg(pl.col("passed").any().alias("any")).filter("any")
        dealt = dealt.join(passing.drop("any"), on=["game_index", "deal"], how="semi")
        tally.add("baha_passes", dealt.group_by("card").agg(
            pl.len().alias("dealt"), pl.col("passed").sum().alias("passed")), ["card"])


def _moons(results: Folder | Results, tally: Tally) -> Section | None:
    counted = tally.get("baha_hands")
    moons = tally.get("baha_moons")
    if counted is None or moons is None:
        return None
    hands = int(counted["hands"][0])
    shot = int(moons["moons"].sum())
    rate = wilson(shot, hands)
    per_seat = {int(seat): int(n) for seat, n in moons.iter_rows()}
    rows = [{"seat": "any", "moons": shot, "per_hand": rate.to_dict()}]
    rows += [
        {
            "seat": str(seat),
            "moons": per_seat.get(seat, 0),
            "per_hand": wilson(per_seat.get(seat, 0), hands).to_dict(),
        }
        for seat in range(results.players)
    ]
    table = Table(
        "moons",
        "Moons shot (per hand, 95% Wilson intervals)",
        [Column("seat", "Shooter"), Column("moons", "Moons"), Column("per_hand", "Per hand", 4)],
        rows,
    )
    return Section(
        "moons",
        "Shooting the moon",
        [
            "A moon is a hand in which one seat took every point; its frequency is moons per hand played, "
            "overall and by the seat that shot it, with Wilson intervals."
        ],
        [table],
        [],
        {"moons_per_hand": rate.value},
    )


def _horns(results: Folder | Results, tally: Tally) -> Section | None:
    horned = tally.get("baha_horned")
    taken = tally.get("baha_taken")
    if horned is None or taken is None:
        return None
    players = results.players
    rows = []
    by_card: dict[str, dict[int, int]] = {}
    for card, seat, n in taken.iter_rows():
        by_card.setdefault(str(card), {})[seat] = int(n)
    for card, horns, plays, own in sorted(horned.iter_rows(), key=lambda r: (-int(r[1]), str(r[0]))):
        by_seat = by_card.get(str(card), {})
        rows.append(
            {
                "card": card,
                "horns": int(horns),
                "plays": plays,
                "own": wilson(own, plays).to_dict(),
                **{f"seat{s}": by_seat.get(s, 0) / plays for s in range(players)},
            }
        )
    columns = [
        Column("card", "Card"),
        Column("horns", "Horns"),
        Column("plays", "Played"),
        Column("own", "Taken by its player", 3),
    ]
    columns += [Column(f"seat{s}", f"Taken by seat {s}", 3) for s in range(players)]
    table = Table("horns_by_card", "Where each horned card's horns end", columns, rows)
    plot = Plot(
        "own_horns",
        "Share of each horned card taken back by the seat that played it",
        "bar",
        {
            "labels": [r["card"] for r in rows],
            "values": [r["own"]["value"] for r in rows],
            "low": [r["own"]["low"] for r in rows],
            "high": [r["own"]["high"] for r in rows],
        },
        xlabel="card",
        ylabel="taken by its player",
    )
    return Section(
        "horns",
        "Horns taken by card",
        [
            "For each card that carries horns: how often it was played, the share of those plays whose trick "
            "its own player won (Wilson interval), and the share won by each seat."
        ],
        [table],
        [plot],
    )


def _passes(results: Folder | Results, tally: Tally) -> Section | None:
    per_card = tally.get("baha_passes")
    if per_card is None:
        return None
    rows = [
        {"card": card, "dealt": n, "passed": passed, "rate": wilson(passed, n).to_dict()}
        for card, n, passed in per_card.sort("passed", "card", descending=[True, False]).iter_rows()
    ]
    table = Table(
        "passes",
        "Cards passed (share of the times dealt; 95% Wilson intervals)",
        [
            Column("card", "Card"),
            Column("dealt", "Dealt"),
            Column("passed", "Passed"),
            Column("rate", "Pass rate", 3),
        ],
        rows,
    )
    return Section(
        "passes",
        "Passes",
        [
            "For each card: how often it was dealt in a hand that passed, how often it was passed on, "
            "and that "
            "share. Hands that keep their cards are not counted."
        ],
        [table],
        [],
        {"most_passed": [r["card"] for r in rows[:3]]},
    )


def sections(results: Folder | Results, tally: Tally) -> list[Section]:
    """Moons, horns by card, passes (each when the results hold its table), from the sums of
    :func:`tally`."""
    return [s for s in (_moons(results, tally), _horns(results, tally), _passes(results, tally))
            if s is not None]
