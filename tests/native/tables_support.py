"""What the native results-tables tests share, every game's: the batches a run played, the
tables of a results folder read back, and a run written on either engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow.parquet as pq
import pytest

from cardroom import native
from cardroom.sim.results import read_manifest, simulate_to
from cardroom.sim.tournament import Lineup


def counted_batches(monkeypatch: pytest.MonkeyPatch, module: ModuleType) -> Iterator[list[int]]:
    """The games each native table batch of a game's native ``module`` played (in this process),
    in order."""
    played: list[int] = []
    real = module.table_games

    def counted(rules: Any, seeds: list[int], *args: Any) -> Any:
        played.append(len(seeds))
        return real(rules, seeds, *args)

    monkeypatch.setattr(module, "table_games", counted)
    yield played
    native.use_engine(None)


def tables(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Every table of a results folder, row by row, as read back."""
    manifest = read_manifest(folder)
    return {name: pq.read_table(folder / entry["file"]).to_pylist() for name, entry in manifest["tables"].items()}


def written(folder: Path, engine: str, rules: Any, games: int, agents: str, batched: bool = True,
            seed: int = 11, **options: Any) -> dict[str, Any]:
    native.use_engine(engine)
    steps: list[int] = []
    simulate_to(folder, rules, games, seed, Lineup.parse(agents, rules.players), progress=steps.append,
                batch_games=7, **options)
    manifest = read_manifest(folder)
    assert sum(steps) == manifest["games"]  # the bar reaches the end
    assert manifest["native_batches"] == (engine == "native" and batched)
    return {} if options.get("csv") else tables(folder)
