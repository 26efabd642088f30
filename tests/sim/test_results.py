"""Results as tables (``simulate --out``): schema, rows that agree with the games, streaming,
temporary names, refusals, CSV, and the same tables whatever the backend."""

from __future__ import annotations

import json
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.main import app
from cardroom.sim.results import (
    MANIFEST,
    SCHEMA_VERSION,
    Backend,
    ResultsError,
    read_manifest,
    schemas,
    simulate_to,
)
from cardroom.sim.tournament import Lineup, play_state

runner = CliRunner()

GAMES = {"baha": {"target": 40}, "baebae": {}}
"""Short games keep the tests quick (Baha to 40 points: two or three hands)."""


def _run(folder: Path, game: str, count: int = 6, **kwargs: Any) -> list[Any]:
    rules = games.make_rules(game, GAMES[game])
    lineup = Lineup.parse("heuristic", rules.players)
    kwargs.setdefault("backend", Backend(workers=1))
    return simulate_to(folder, rules, count, 11, lineup, **kwargs)


def _tables(folder: Path) -> dict[str, pa.Table]:
    return {path.stem: pq.read_table(path) for path in sorted(folder.glob("*.parquet"))}


@pytest.fixture(scope="module", params=sorted(GAMES))
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    folder = tmp_path_factory.mktemp(request.param) / "out"
    _run(folder, request.param)
    return request.param, folder


def test_every_table_has_its_schema(written: tuple[str, Path]) -> None:
    game, folder = written
    tables = _tables(folder)
    expected = schemas(games.get(game))
    assert set(tables) == set(expected) == {"games", "deals", "cards", "hands"} | ({"tricks"} if game == "baha" else set())
    for name, table in tables.items():
        assert table.schema.equals(expected[name]), name
        assert table.schema.field("game_index").type == pa.int64() and table.schema.field("seed").type == pa.int64()
        assert table.num_rows > 0, name
    assert tables["games"].column("game_index").to_pylist() == list(range(6))
    assert tables["games"].column("seed").to_pylist() == list(range(11, 17))
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["schema_version"] == SCHEMA_VERSION and manifest["game"] == game and manifest["games"] == 6
    assert manifest["agents"] == ["heuristic"] * 4
    assert {name: entry["rows"] for name, entry in manifest["tables"].items()} == {
        name: table.num_rows for name, table in tables.items()}


def test_rows_agree_with_the_games(written: tuple[str, Path]) -> None:
    """Replaying each game from its seed: deal points add up to the totals, every card played
    is a row, every card dealt is a row, decisions add up."""
    game, folder = written
    tables = {name: table.to_pylist() for name, table in _tables(folder).items()}
    rules = games.make_rules(game, GAMES[game])
    lineup = Lineup.parse("heuristic", rules.players)
    start = "hand" if game == "baha" else "round"
    for row in tables["games"]:
        index = row["game_index"]
        state, result = play_state(rules, row["seed"], lineup, index=index)
        assert row["totals"] == state.scores == result.totals
        assert row["winners"] == result.winners and row["decisions"] == result.actions
        deals = [d for d in tables["deals"] if d["game_index"] == index]
        assert [d["deal"] for d in deals] == list(range(1, row["deals"] + 1))
        assert [sum(d["points"][s] for d in deals) for s in range(4)] == row["totals"]
        assert deals[-1]["totals"] == row["totals"]
        assert sum(d["decisions"] for d in deals) == row["decisions"]
        assert sorted(s for s in range(4) if row["places"][s] == 1) == sorted(
            s for s in range(4) if row["totals"][s] == min(row["totals"]))
        played = [(e["p"], e["card"]) for e in state.log if e["t"] == "play"]
        cards = [c for c in tables["cards"] if c["game_index"] == index]
        assert sorted((c["seat"], c["card"]) for c in cards) == sorted(played)
        dealt = Counter((e["n"], seat, card) for e in state.log if e["t"] == start
                        for seat, hand in enumerate(e["hands"]) for card in hand)
        hands = [h for h in tables["hands"] if h["game_index"] == index and not h.get("received")]
        assert Counter((h["deal"], h["seat"], h["card"]) for h in hands) == dealt
        turns = [(c["deal"], c["turn"]) for c in cards]
        assert all(turn >= 1 for _, turn in turns)
        assert all(turn <= next(d["decisions"] for d in deals if d["deal"] == deal) for deal, turn in turns)


def test_baha_cards_tricks_and_passes(tmp_path: Path) -> None:
    _run(tmp_path / "out", "baha", count=3)
    tables = {name: table.to_pylist() for name, table in _tables(tmp_path / "out").items()}
    for trick in tables["tricks"]:
        rows = [c for c in tables["cards"] if (c["game_index"], c["deal"], c["trick"]) ==
                (trick["game_index"], trick["deal"], trick["trick"])]
        assert [c["card"] for c in rows] == trick["cards"]
        assert [c["led"] for c in rows] == [True] + [False] * 3
        assert sum(c["horns"] for c in rows) == trick["horns"]
        assert {c["horns_taken_by"] for c in rows} == {trick["winner"]}
        assert [c["seat"] for c in rows if c["won_trick"]] == [trick["winner"]]
    for deal in tables["deals"]:
        hand = [h for h in tables["hands"] if (h["game_index"], h["deal"]) == (deal["game_index"], deal["deal"])]
        passed = sum(h["passed"] for h in hand)
        assert passed == sum(h["received"] for h in hand) == (0 if deal["pass"] == "none" else 12)
        # the hand played from: 13 cards a seat, whatever was passed
        assert Counter(h["seat"] for h in hand if not h["passed"]) == dict.fromkeys(range(4), 13)


def test_baebae_cards_credit_their_effects(tmp_path: Path) -> None:
    _run(tmp_path / "out", "baebae", count=8)
    rules = games.make_rules("baebae", {})
    designs = {c.name: c for c in rules.cards}  # type: ignore[attr-defined]
    cards = _tables(tmp_path / "out")["cards"].to_pylist()
    for row in cards:
        design = designs[row["design"]]
        if not design.has_action:
            assert not row["action_ran"] and row["draws_forced"] == row["penalties"] == row["moves"] == 0
        if row["suit_named"] is not None:
            assert row["suit_named"] in "CDHS"
    ran = [row for row in cards if row["action_ran"]]
    assert ran and any(row["draws_forced"] for row in ran) and any(row["reversals"] for row in cards)
    assert all(row["design"] in designs for row in cards)


def test_batches_are_row_groups(tmp_path: Path) -> None:
    """Rows are written as games come in: twelve games in batches of three are four row groups."""
    _run(tmp_path / "out", "baebae", count=12, batch_games=3)
    for path in (tmp_path / "out").glob("*.parquet"):
        assert pq.ParquetFile(path).metadata.num_row_groups == 4, path.name


class Stopped(Exception):
    """A run stopped part-way (as by Ctrl-C, or a full disk)."""


def test_a_failed_run_leaves_nothing_that_looks_complete(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    seen: list[int] = []

    def stop_after_two(count: int) -> None:
        seen.append(count)
        if len(seen) == 2:
            raise Stopped

    with pytest.raises(Stopped):
        _run(folder, "baha", count=12, batch_games=1, progress=stop_after_two)
    assert len(seen) == 2
    assert not folder.exists()  # no manifest, no table, no temporary file: not even the empty folder
    folder.mkdir()  # a folder that was there before the run stays, empty as it was
    seen.clear()
    with pytest.raises(Stopped):
        _run(folder, "baha", count=12, batch_games=1, progress=stop_after_two)
    assert list(folder.iterdir()) == []


def test_ctrl_c_says_what_was_kept_and_leaves_no_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C (KeyboardInterrupt) during simulate --out after the first chunk of games."""
    import cardroom.sim.results as results

    real = results.run_chunks

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        chunks = real(*args, **kwargs)
        yield next(chunks)
        chunks.close()
        raise KeyboardInterrupt

    monkeypatch.setattr(results, "run_chunks", interrupted)
    folder, records = tmp_path / "runs" / "out", tmp_path / "records"
    result = runner.invoke(app, ["simulate", "baha", "--games", "120", "--workers", "1", "--out", str(folder),
                                 "--records", str(records), "--agents", "random"])
    assert result.exit_code == 130, result.output
    kept = len(list(records.glob("*.json")))
    assert 0 < kept < 120
    said = " ".join(result.output.split())
    assert f"interrupted after {kept} of 120 games" in said
    assert "no tables written, and no folder left at" in said
    assert f"{kept} records of the games played kept in" in said
    assert not (tmp_path / "runs").exists()

    def at_once(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt
        yield  # a generator, as run_chunks is

    monkeypatch.setattr(results, "run_chunks", at_once)
    empty = tmp_path / "nothing" / "here"
    result = runner.invoke(app, ["simulate", "baha", "--games", "120", "--workers", "1", "--out", str(folder),
                                 "--records", str(empty), "--agents", "random"])
    assert result.exit_code == 130, result.output
    assert "interrupted after 0 of 120 games" in result.output and "no record written" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records"]


def test_a_folder_with_results_is_refused_unless_forced(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    _run(folder, "baebae", count=2)
    with pytest.raises(ResultsError, match="already holds files.*--force"):
        _run(folder, "baha", count=2)
    assert json.loads((folder / MANIFEST).read_text())["game"] == "baebae"
    _run(folder, "baha", count=2, force=True)
    assert json.loads((folder / MANIFEST).read_text())["game"] == "baha"
    assert (folder / "tricks.parquet").exists()
    _run(folder, "baebae", count=2, force=True)
    assert not (folder / "tricks.parquet").exists()  # the last run's tables only
    (tmp_path / "file").write_text("x")
    with pytest.raises(ResultsError, match="is a file"):
        _run(tmp_path / "file", "baebae", count=1)


def test_csv_holds_the_same_rows(tmp_path: Path) -> None:
    _run(tmp_path / "pq", "baha", count=2)
    _run(tmp_path / "csv", "baha", count=2, csv=True)
    for name, table in _tables(tmp_path / "pq").items():
        read = pa_csv.read_csv(tmp_path / "csv" / f"{name}.csv")
        assert read.column_names == table.column_names
        assert read.num_rows == table.num_rows
        for column in table.column_names:
            if pa.types.is_list(table.schema.field(column).type):
                assert [json.loads(v) for v in read.column(column).to_pylist()] == table.column(column).to_pylist()
    assert json.loads((tmp_path / "csv" / MANIFEST).read_text())["format"] == "csv"


def test_same_tables_from_one_process_two_processes_and_ray(tmp_path: Path) -> None:
    """Per-game seeds: one process, two processes and Ray's local cluster write the same rows."""
    _run(tmp_path / "one", "baebae", count=24, batch_games=5)
    _run(tmp_path / "two", "baebae", count=24, batch_games=5, backend=Backend(workers=2))
    done: list[int] = []  # the progress bar's steps, chunk by chunk, from Ray's tasks too
    _run(tmp_path / "ray", "baebae", count=24, batch_games=5, backend=Backend(workers=2, ray=True),
         progress=done.append)
    assert sum(done) == 24 and len(done) > 1
    one = _tables(tmp_path / "one")
    for other in ("two", "ray"):
        tables = _tables(tmp_path / other)
        assert set(tables) == set(one)
        for name, table in one.items():
            assert tables[name].equals(table), (other, name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_ray_address_that_does_not_answer(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    started = time.monotonic()
    result = runner.invoke(app, ["simulate", "baebae", "--games", "4", "--out", str(folder),
                                 "--ray-address", f"127.0.0.1:{_free_port()}"])
    assert time.monotonic() - started < 15
    assert result.exit_code == 2
    assert "no Ray cluster answers at 127.0.0.1:" in result.output and "ray start --head" in result.output
    assert not folder.exists()
    bad = runner.invoke(app, ["simulate", "baebae", "--games", "4", "--out", str(folder), "--ray-address", "nowhere"])
    assert bad.exit_code == 2 and "HOST:PORT" in bad.output


def test_cli_out_defaults_to_heuristic_and_prints_the_summary(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = runner.invoke(app, ["simulate", "baebae", "--games", "3", "--workers", "1", "--out", str(folder),
                                 "--variant", "sample"])
    assert result.exit_code == 0, result.output
    assert "Per seat" in result.output and "heuristic" in result.output and "tables written to" in result.output
    row = pq.read_table(folder / "games.parquet").to_pylist()[0]
    assert row["agents"] == ["heuristic"] * 4 and row["variant"] == "sample"
    again = runner.invoke(app, ["simulate", "baebae", "--games", "3", "--out", str(folder)])
    assert again.exit_code == 2 and "--force" in again.output


@pytest.mark.parametrize("flag", [["--csv"], ["--variant", "x"], ["--force"], ["--ray"]])
def test_cli_table_options_need_out(flag: list[str]) -> None:
    result = runner.invoke(app, ["simulate", "baebae", "--games", "2", *flag])
    assert result.exit_code == 2 and "go with --out" in result.output


def test_read_manifest_refuses_what_it_cannot_trust(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    _run(folder, "baebae", count=2)
    assert read_manifest(folder, "baebae")["games"] == 2
    with pytest.raises(ResultsError, match="holds results of 'baebae', not 'baha'"):
        read_manifest(folder, "baha")
    manifest = json.loads((folder / MANIFEST).read_text())
    (folder / MANIFEST).write_text(json.dumps({**manifest, "schema_version": 99}))
    with pytest.raises(ResultsError, match="schema version 99"):
        read_manifest(folder)
    (folder / MANIFEST).write_text(json.dumps(manifest))
    (folder / "cards.parquet").unlink()
    with pytest.raises(ResultsError, match="lacks its cards table"):
        read_manifest(folder)
    (folder / MANIFEST).unlink()
    with pytest.raises(ResultsError, match="did not complete"):
        read_manifest(folder)
    with pytest.raises(ResultsError, match="not a folder"):
        read_manifest(tmp_path / "none")


def test_a_variant_label_is_bounded(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="--variant takes a label"):
        _run(tmp_path / "out", "baebae", count=1, variant="x" * 101)
    assert not (tmp_path / "out").exists()


def test_kept_summaries_give_back_every_game(tmp_path: Path) -> None:
    """The parent keeps the games' summaries packed: each comes back as it was played."""
    kept = _run(tmp_path / "out", "baebae", count=5)
    rules = games.make_rules("baebae", {})
    lineup = Lineup.parse("heuristic", 4)
    played = [play_state(rules, 11 + i, lineup, index=i)[1] for i in range(5)]
    assert len(kept) == 5 and list(kept) == played and kept[-1] == played[-1] and kept[1:3] == played[1:3]
    with pytest.raises(IndexError):
        kept[5]
