"""``cardroom analyze`` reads a folder a part at a time (bounded memory): the report of a folder
read in small parts is the report of its tables read whole, figure for figure; no table is read
whole; and the figures made from sums are the figures of the samples written out."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from typer.testing import CliRunner

from cardroom.analysis import folder as folder_module
from cardroom.analysis.figures import build_report, seed_text
from cardroom.analysis.folder import Folder, open_folder, read_results
from cardroom.analysis.report import Report
from cardroom.analysis.stats import mean_t
from cardroom.cli.main import app

runner = CliRunner()


def simulate(folder: Path, game: str, games: int, seed: int) -> Path:
    result = runner.invoke(
        app,
        [
            "simulate",
            game,
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--workers",
            "1",
            "--out",
            str(folder),
        ],
    )
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module")
def baebae_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("parts") / "baebae", "baebae", 40, 3)


@pytest.fixture(scope="module")
def baha_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("parts") / "baha", "baha", 12, 3)


def same(a: Any, b: Any, where: str = "") -> None:
    """Equal, floats to 1e-9 (sums of parts add in another order)."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), where
        for key in a:
            same(a[key], b[key], f"{where}/{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (where, a, b)
    else:
        assert a == b, (where, a, b)


def plots(report: Report) -> dict[str, Any]:
    return {f"{s.key}/{p.key}": p.data for s in report.sections for p in s.plots}


@pytest.mark.parametrize("run", ["baebae_run", "baha_run"])
def test_a_folder_read_in_parts_gives_the_report_of_its_tables_read_whole(
    run: str, request: pytest.FixtureRequest
) -> None:
    path: Path = request.getfixturevalue(run)
    whole = build_report(read_results(path))
    folder = open_folder(path)
    assert isinstance(folder, Folder)
    parted = build_report(folder, part_games=7)
    same(whole.to_dict(), parted.to_dict())
    same(plots(whole), plots(parted))
    assert whole.facts == parted.facts


def test_parts_cover_every_game_once_and_hold_at_most_their_size(baebae_run: Path) -> None:
    folder = open_folder(baebae_run)
    seen: list[int] = []
    for part in folder.parts(7):
        assert part.games.height <= 7
        indices = set(part.games["game_index"].to_list())
        for name, table in part.tables.items():
            assert set(table["game_index"].to_list()) <= indices, name
        seen += sorted(indices)
    assert seen == sorted(read_results(baebae_run).games["game_index"].to_list())
    assert folder.played == len(seen)


def test_analyze_reads_no_table_whole(
    baebae_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command scans the tables and reads them a part at a time: reading a table whole
    (what took 29 KB a game) would fail here."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table read whole")

    monkeypatch.setattr(folder_module.pl, "read_parquet", refused)
    monkeypatch.setattr(pl, "read_parquet", refused)
    out = tmp_path / "figures.json"
    result = runner.invoke(app, ["analyze", str(baebae_run), "--json", str(out)])
    assert result.exit_code == 0, result.output
    monkeypatch.undo()
    same(json.loads(out.read_text()), build_report(read_results(baebae_run)).to_dict())


def test_figures_from_sums_are_the_samples_figures(baebae_run: Path) -> None:
    """Means, intervals, spread, median and seeds as the raw samples give them."""
    results = read_results(baebae_run)
    report = build_report(open_folder(baebae_run), part_games=5)
    rows = next(s for s in report.sections if s.key == "distributions").tables[0].rows
    samples = [
        [float(p) for points in results.deals["points"].to_list() for p in points],
        [float(t) for total in results.games["totals"].to_list() for t in total],
        [float(d) for d in results.games["deals"].to_list()],
        [float(d) for d in results.games["decisions"].to_list()],
    ]
    for row, values in zip(rows, samples, strict=True):
        column = pl.Series(values)
        same(row["mean"], mean_t(values).to_dict())
        same(
            [row["sd"], row["min"], row["median"], row["max"], row["n"]],
            [column.std(), column.min(), column.median(), column.max(), len(values)],
        )
    assert dict(report.facts)["seeds"] == seed_text(results.games["seed"].to_list())


def test_a_gap_in_the_game_indices_and_stopped_games_are_handled(baebae_run: Path, tmp_path: Path) -> None:
    folder = tmp_path / "gappy"
    shutil.copytree(baebae_run, folder)
    games = pl.read_parquet(folder / "games.parquet")
    stopped = pl.col("game_index") == 3
    games = games.with_columns(
        pl.when(stopped).then(True).otherwise(pl.col("guard_stopped")).alias("guard_stopped")
    )
    for name in ("games", "deals", "cards", "hands"):
        table = games if name == "games" else pl.read_parquet(folder / f"{name}.parquet")
        table.filter(~pl.col("game_index").is_between(10, 24)).write_parquet(folder / f"{name}.parquet")
    whole = build_report(read_results(folder))
    parted = build_report(open_folder(folder), part_games=4)
    same(whole.to_dict(), parted.to_dict())
    assert open_folder(folder).stopped == 1


def test_per_card_impact_from_parts_is_the_whole_tables_comparison(baebae_run: Path) -> None:
    """The held and played rows, summed over parts of 6 games, are the comparison of the whole
    tables made at once (impact_rows on every unit)."""
    from cardroom.analysis.impact import impact_rows, seat_units

    results = read_results(baebae_run)
    units = seat_units(results)
    report = build_report(open_folder(baebae_run), part_games=6)
    rows = {r["design"]: r for r in next(s for s in report.sections if s.key == "cards").tables[0].rows}
    for name, table in (("held", results.table("hands")), ("played", results.table("cards"))):
        assert table is not None
        for whole in impact_rows(units, table, "design"):
            row = rows[whole["design"]]
            same([row[f"{name}_points"], row[f"{name}_win"]], [whole["points"], whole["win"]], whole["design"])
    seats = next(s for s in report.sections if s.key == "seat_advantage").tables[0].rows
    for seat, row in enumerate(seats):
        same(row["points"], mean_t([float(t[seat]) for t in results.games["totals"].to_list()]).to_dict())


def test_within_value_plays_action_ran_and_notes_from_parts_are_the_whole_tables(baebae_run: Path) -> None:
    """The per-card table's within-value differences, plays a game, action-ran shares and
    notes, made from sums over parts of 6 games, are those made from the whole tables at once."""
    from cardroom.analysis.games import baebae, baebae_designs
    from cardroom.analysis.impact import impact_rows, seat_units

    results = read_results(baebae_run)
    hands, cards = results.table("hands"), results.table("cards")
    assert hands is not None and cards is not None
    designs = baebae_designs.design_map(baebae_designs.deck_of(results))
    held = impact_rows(seat_units(results), hands, "design")
    within = baebae._within_value(held, designs, int(results.rules_record.get("ace_penalty", 1)))
    assert within, "no penalty value with two designs: the test would prove nothing"
    dealt = dict(hands.group_by("design").len().iter_rows())
    plays = dict(cards.group_by("design").len().iter_rows())
    ran = dict(cards.group_by("design").agg(pl.col("action_ran").cast(pl.Int64).sum()).iter_rows())
    games = results.games.height
    report = build_report(open_folder(baebae_run), part_games=6)
    table = next(s for s in report.sections if s.key == "cards").tables[0]
    rows = {r["design"]: r for r in table.rows}
    assert rows.keys() == dealt.keys() | plays.keys()
    for design, row in rows.items():
        card = designs[design]
        count = plays.get(design, 0)
        same(row["plays_game"], count / games, design)
        same(row["ran_share"], ran.get(design, 0) / count if card.has_action and count else None, design)
        same(row["within_points"], within[design]["points"] if design in within else None, design)
        same(row["within_win"], within[design]["win"] if design in within else None, design)
        expected = baebae._note(card, dealt.get(design, 0), count, ran.get(design) if card.has_action else None)
        assert row["note"] == expected, design
    assert all(note in table.note for note in baebae._never_used(table.rows))
