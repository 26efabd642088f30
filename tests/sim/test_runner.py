"""The one pool (sim/runner.py): tournaments, duplicate deals and results tables run their
chunks through it, so ``simulate --duplicate --out`` writes tables like any run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.main import app
from cardroom.sim import duplicate, results, tournament
from cardroom.sim.duplicate import rotations, run_duplicate, summarize_duplicate
from cardroom.sim.runner import chunk_size, run_chunks
from cardroom.sim.tournament import Lineup

runner = CliRunner()


def _square(x: int) -> int:
    return x * x


def test_chunks_come_back_in_order_here_on_processes_and_on_threads() -> None:
    assert list(run_chunks(_square, range(7), 1)) == [x * x for x in range(7)]
    assert list(run_chunks(_square, iter(range(9)), 2)) == [x * x for x in range(9)]
    assert list(run_chunks(_square, iter(range(9)), 2, threads=True)) == [x * x for x in range(9)]
    assert chunk_size(1000, 2) == 50 and chunk_size(3, 8) == 1


def test_few_chunks_are_in_flight_however_slowly_the_answers_are_taken() -> None:
    """Two chunks a worker at most are handed out ahead of the answer taken: a run whose
    chunks are played faster than they are written keeps only those in memory."""
    def jobs(handed: list[int]) -> Iterator[int]:
        for x in range(40):
            handed.append(x)
            yield x

    for threads in (False, True):
        handed: list[int] = []
        answers = run_chunks(_square, jobs(handed), 2, threads=threads)
        assert next(answers) == 0 and len(handed) == 4
        assert next(answers) == 1 and len(handed) == 5
        assert list(answers) == [x * x for x in range(2, 40)]
        answers.close()


def test_the_three_runs_share_the_pool() -> None:
    """No module of sim but the runner starts a process pool of its own."""
    for module in (tournament, duplicate, results):
        text = Path(module.__file__ or "").read_text()
        assert "ProcessPoolExecutor" not in text and "run_chunks" in text, module.__name__


def test_simulate_duplicate_out_writes_tables(tmp_path: Path) -> None:
    folder = tmp_path / "dup"
    agents = "heuristic,random,random,random"
    result = runner.invoke(app, ["simulate", "baha", "--rule", "target=30", "--games", "3", "--seed", "5",
                                 "--agents", agents, "--duplicate", "--workers", "1", "--out", str(folder),
                                 "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[:result.stdout.rindex("}") + 1])
    rules = games.make_rules("baha", {"target": 30})
    lineup = Lineup.parse(agents, 4)
    lineups, rows = run_duplicate(rules, 3, 5, lineup)
    expected = summarize_duplicate(rules, lineup, lineups, rows, 5, 0.0)
    assert {k: v for k, v in summary.items() if k != "seconds"} == {k: v for k, v in expected.items()
                                                                   if k != "seconds"}
    table = pq.read_table(folder / "games.parquet").to_pylist()
    assert len(table) == 3 * len(rotations(lineup)) == 12
    assert [(r["game_index"], r["seed"]) for r in table] == [(d * 4 + r, 5 + d) for d in range(3) for r in range(4)]
    assert [r["agents"] for r in table[:4]] == [list(x.specs) for x in lineups]
    assert [r["totals"] for r in table] == [g.totals for row in rows for g in row]
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["games"] == 12 and manifest["duplicate"]["deals"] == 3
    assert len(pq.read_table(folder / "deals.parquet")) == sum(g.deals for row in rows for g in row)
