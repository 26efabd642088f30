"""Hand-made results folders in the results schema, for figures whose answers are known by hand."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

LIST_INT = pl.List(pl.Int32)
LIST_SEAT = pl.List(pl.Int8)


def places_of(totals: Sequence[int]) -> list[int]:
    """Places by total, lowest first, tied seats sharing the best place."""
    return [1 + sum(t < mine for t in totals) for mine in totals]


def write_folder(
    folder: Path,
    game: str,
    deals: Sequence[Sequence[Sequence[int]]],
    *,
    seed: int = 0,
    agents: Sequence[str] | None = None,
    rules: dict[str, Any] | None = None,
    variant: str = "",
    hands: Sequence[dict[str, Any]] = (),
    cards: Sequence[dict[str, Any]] = (),
    deal_extras: Sequence[Sequence[dict[str, Any]]] | None = None,
    manifest: dict[str, Any] | None = None,
) -> Path:
    """A results folder: ``deals[g][d]`` is game g's deal d points by seat (lowest total wins)."""
    folder.mkdir(parents=True, exist_ok=True)
    players = len(deals[0][0])
    agents = list(agents or ["heuristic"] * players)
    rules = rules or {"players": players}
    game_rows, deal_rows = [], []
    for g, game_deals in enumerate(deals):
        running = [0] * players
        for d, points in enumerate(game_deals):
            running = [r + p for r, p in zip(running, points, strict=True)]
            row = {
                "game_index": g,
                "seed": seed + g,
                "deal": d + 1,
                "points": list(points),
                "totals": list(running),
                "decisions": 10,
            }
            if deal_extras is not None:
                row |= deal_extras[g][d]
            deal_rows.append(row)
        places = places_of(running)
        game_rows.append(
            {
                "game": game,
                "game_index": g,
                "seed": seed + g,
                "variant": variant,
                "rules": json.dumps(rules),
                "deck": None,
                "players": players,
                "agents": agents,
                "totals": running,
                "winners": [s for s in range(players) if places[s] == 1],
                "places": places,
                "deals": len(game_deals),
                "decisions": 10 * len(game_deals),
                "guard_stopped": False,
            }
        )
    pl.DataFrame(
        game_rows,
        schema_overrides={
            "totals": LIST_INT,
            "winners": LIST_SEAT,
            "places": LIST_SEAT,
            "players": pl.Int8,
            "deals": pl.Int32,
            "decisions": pl.Int32,
            "game_index": pl.Int64,
            "seed": pl.Int64,
            "deck": pl.String,
        },
    ).write_parquet(folder / "games.parquet")
    pl.DataFrame(
        deal_rows, schema_overrides={"points": LIST_INT, "totals": LIST_INT, "deal": pl.Int32}
    ).write_parquet(folder / "deals.parquet")
    tables = ["games", "deals"]
    for name, rows in (("hands", hands), ("cards", cards)):
        if rows:
            pl.DataFrame(list(rows)).write_parquet(folder / f"{name}.parquet")
            tables.append(name)
    info = {
        "schema_version": 1,
        "game": game,
        "rules": rules,
        "agents": agents,
        "games": len(deals),
        "seed": seed,
        "format": "parquet",
        "tables": {name: {"file": f"{name}.parquet"} for name in tables},
    }
    (folder / "manifest.json").write_text(json.dumps(info | (manifest or {})))
    return folder
