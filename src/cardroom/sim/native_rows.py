"""A chunk of ``simulate --out``'s games played natively: the same results and the same rows.

When a game's native batch module (its spec's ``native``, :func:`cardroom.native.batch_for`)
plays every seat's agent,
:func:`cardroom.sim.results.play_chunk` hands its chunk here: the batch plays the games with no
Python in the loop and records every fact of their tables into flat arrays, which become the
Arrow tables the Python path builds row by row from each game's log (the same columns, values
and order: ``tests/native/test_games_tables.py``). It runs wherever the chunk runs: here, on a
local process or as a Ray task.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from cardroom.engine import Rules
from cardroom.extras import needs_extra
from cardroom.sim.tournament import MAX_ACTIONS, GameResult, Lineup, batch_results

try:
    import pyarrow as pa
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, __name__) from None

__all__ = ["play_native"]


def play_native(
    module: str,
    rules: Rules,
    lineups: Sequence[Lineup],
    games: Sequence[tuple[int, int, int]],
    shapes: Mapping[str, pa.Schema],
    fixed: Mapping[str, Any],
) -> tuple[list[GameResult], dict[str, pa.Table]]:
    """Games ``(index, seed, line-up)`` played by the batch module ``module``'s ``table_games``:
    their results and their tables (``shapes``; ``fixed``: the ``games`` table's columns that
    are the same for every game)."""
    batch = importlib.import_module(module)
    indexes = [index for index, _, _ in games]
    seeds = [seed for _, seed, _ in games]
    found = batch.table_games(rules, seeds, [lineups[r].specs for _, _, r in games], MAX_ACTIONS)
    results = batch_results(found, indexes, seeds)
    count = len(games)
    extras = [f.name for f in shapes["games"]][len(_GAMES_COLUMNS):]
    columns: dict[str, Any] = {
        **{name: [value] * count for name, value in fixed.items()},
        "game_index": indexes, "seed": seeds, "players": [len(r.totals) for r in results],
        "agents": [lineups[r].names() for _, _, r in games], "totals": [r.totals for r in results],
        "winners": [r.winners for r in results], "places": found.places, "deals": [r.deals for r in results],
        "decisions": [r.actions for r in results], "guard_stopped": [r.guard_stopped for r in results],
        **{key: [r.extras[key] for r in results] for key in extras},
    }
    tables = {"games": pa.Table.from_pydict(columns, schema=shapes["games"])}
    index_column, seed_column = pa.array(indexes, pa.int64()), pa.array(seeds, pa.int64())
    positions, own = found.row_games(), found.columns()
    for name, schema in shapes.items():
        if name == "games":
            continue
        at = positions[name]
        arrays = [index_column.take(at), seed_column.take(at)]
        arrays += [own[name][f.name].cast(f.type) for f in list(schema)[2:]]  # after the key
        tables[name] = pa.Table.from_arrays(arrays, schema=schema)
    return results, tables


_GAMES_COLUMNS = ("game", "game_index", "seed", "variant", "rules", "deck", "players", "agents", "totals",
                  "winners", "places", "deals", "decisions", "guard_stopped")
"""The ``games`` table's columns every game has (:func:`cardroom.sim.results.schemas`); the
game's extras follow."""
