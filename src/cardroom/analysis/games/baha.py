"""Baha's sections of ``cardroom analyze``: moons, where each horned card's horns end, passes."""

from __future__ import annotations

import polars as pl

from cardroom.analysis.folder import Results
from cardroom.analysis.report import Column, Plot, Section, Table
from cardroom.analysis.stats import wilson

__all__ = ["sections"]


def _moons(results: Results) -> Section | None:
    deals = results.deals
    if "moon" not in deals.columns:
        return None
    hands = deals.height
    shot = deals.filter(pl.col("moon").is_not_null())
    rate = wilson(shot.height, hands)
    per_seat = dict(shot.group_by("moon").len().iter_rows())
    rows = [{"seat": "any", "moons": shot.height, "per_hand": rate.to_dict()}]
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


def _horns(results: Results) -> Section | None:
    cards = results.table("cards")
    if cards is None or not {"horns", "horns_taken_by"} <= set(cards.columns):
        return None
    horned = cards.filter(pl.col("horns") > 0)
    players = results.players
    rows = []
    for (card,), group in sorted(
        horned.group_by("card"), key=lambda g: (-int(g[1]["horns"][0]), str(g[0][0]))
    ):
        plays = group.height
        own = int((group["horns_taken_by"] == group["seat"]).sum())
        taken = group.group_by("horns_taken_by").len()
        by_seat = dict(taken.iter_rows())
        rows.append(
            {
                "card": card,
                "horns": int(group["horns"][0]),
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


def _passes(results: Results) -> Section | None:
    hands = results.table("hands")
    if hands is None or "passed" not in hands.columns:
        return None
    dealt = hands.filter(~pl.col("received")) if "received" in hands.columns else hands
    passing = dealt.group_by("game_index", "deal").agg(pl.col("passed").any().alias("any")).filter("any")
    dealt = dealt.join(passing.drop("any"), on=["game_index", "deal"], how="semi")
    per_card = dealt.group_by("card").agg(pl.len().alias("dealt"), pl.col("passed").sum().alias("passed"))
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


def sections(results: Results) -> list[Section]:
    """Moons, horns by card, passes (each when the results hold its table)."""
    return [s for s in (_moons(results), _horns(results), _passes(results)) if s is not None]
