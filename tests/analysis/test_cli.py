"""``cardroom analyze``, ``compare`` and ``sweep`` end to end on small real simulations, and
their refusals of bad input."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games.baebae.deck import find_deck

runner = CliRunner()


def simulate(folder: Path, game: str, games: int, *extra: str) -> Path:
    result = runner.invoke(app, ["simulate", game, "--games", str(games), "--seed", "5", "--workers", "1",
                                 "--out", str(folder), *extra])
    assert result.exit_code == 0, result.output
    return folder


@pytest.fixture(scope="module")
def baebae_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "baebae", "baebae", 12)


@pytest.fixture(scope="module")
def baha_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "baha", "baha", 6)


def test_analyze_prints_writes_html_json_and_csv(baebae_run: Path, tmp_path: Path) -> None:
    html, figures, tables = tmp_path / "report.html", tmp_path / "figures.json", tmp_path / "tables"
    result = runner.invoke(app, ["analyze", str(baebae_run), "--html", str(html), "--json", str(figures),
                                 "--csv", str(tables)])
    assert result.exit_code == 0, result.output
    assert "Seat advantage" in result.output and "Per-card impact" in result.output
    assert "seat 0: heuristic" in result.output  # the designer's default agents, said
    data = json.loads(figures.read_text())
    assert data["facts"]["games"] == "12" and data["facts"]["seeds"] == "5..16"
    seats = data["sections"]["seat_advantage"]["tables"]["seats"]["rows"]
    assert sum(r["wins"] for r in seats) == pytest.approx(12)
    designs = data["sections"]["cards"]["tables"]["designs"]["rows"]
    assert sum(r["dealt"] for r in designs) == 12 * 3 * 4 * 5  # games x rounds x seats x hand
    assert {"types", "marks"} <= set(data["sections"]["groups"]["tables"])
    page = html.read_text()
    assert page.count("data:image/svg+xml;base64,") >= 5 and "Per-card impact" in page
    with (tables / "seat_advantage_seats.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and {"win_rate", "win_rate_low", "win_rate_high"} <= set(rows[0])
    assert not list(tmp_path.glob(".*"))  # no temporary left behind
    plain = tmp_path / "plain.txt"
    plain.write_text("x")  # the files get the permissions any file made here gets
    assert html.stat().st_mode == figures.stat().st_mode == plain.stat().st_mode
    (tmp_path / "plain").mkdir()
    assert tables.stat().st_mode == (tmp_path / "plain").stat().st_mode


def test_analyze_baha_has_its_own_sections(baha_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "f.json"
    result = runner.invoke(app, ["analyze", str(baha_run), "--json", str(out)])
    assert result.exit_code == 0, result.output
    sections = json.loads(out.read_text())["sections"]
    assert {"moons", "horns", "passes"} <= set(sections) and "cards" not in sections
    horned = sections["horns"]["tables"]["horns_by_card"]["rows"]
    assert len(horned) == 20 and all(r["horns"] > 0 for r in horned)  # 9..13 of four colours


def test_analyze_warns_about_random_agents(tmp_path: Path) -> None:
    folder = simulate(tmp_path / "r", "baha", 3, "--agents", "random")
    result = runner.invoke(app, ["analyze", str(folder)])
    assert result.exit_code == 0, result.output
    assert "Random agents played" in result.output


def test_compare_two_decks_on_the_same_seeds(tmp_path: Path) -> None:
    # the designer's loop: a copy of the sample deck with one card changed
    text = Path(find_deck("sample").source).read_text()
    changed = text.replace('name = "Constable Hobb"', 'name = "Constable Hobb"\nmarks = ["skip"]', 1)
    assert changed != text
    mine = tmp_path / "mydeck.toml"
    mine.write_text(changed)
    out, figures = tmp_path / "runs", tmp_path / "compare.json"
    result = runner.invoke(app, ["compare", "baebae", "--deck", "sample", "--deck", str(mine), "--games", "6",
                                 "--workers", "1", "--out", str(out), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    assert "minus deck=sample" in result.output
    table = next(iter(json.loads(figures.read_text())["sections"]["compare"]["tables"].values()))
    # the same seeds: paired differences (the seat advantage, a figure of each whole run, is not)
    assert all(r["paired"] for r in table["rows"] if r["key"] != "seat_advantage")
    assert len(list(out.iterdir())) == 2
    # the kept folders compare again (form b), and analyze of the changed deck knows its types
    again = runner.invoke(app, ["compare", *map(str, sorted(out.iterdir()))])
    assert again.exit_code == 0, again.output
    mine_run = next(p for p in out.iterdir() if "mydeck" in p.name)
    result = runner.invoke(app, ["analyze", str(mine_run), "--deck", str(mine)])
    assert result.exit_code == 0 and "Per-type impact" in result.output, result.output


def test_compare_rules_variants_from_text_and_toml(tmp_path: Path) -> None:
    short = tmp_path / "short.toml"
    short.write_text("target = 40\nmoon = false\n")
    html = tmp_path / "c.html"
    result = runner.invoke(app, ["compare", "baha", "--rule", "target=80", "--rule", str(short),
                                 "--games", "4", "--workers", "1", "--html", str(html)])
    assert result.exit_code == 0, result.output
    assert "target=80 vs short.toml" in result.output and "short.toml minus target=80" in result.output
    assert "Differences between variants" in html.read_text()


def test_sweep_along_one_option(tmp_path: Path) -> None:
    figures, html = tmp_path / "s.json", tmp_path / "s.html"
    result = runner.invoke(app, ["sweep", "baha", "--rule", "target=30,60", "--games", "4", "--workers", "1",
                                 "--json", str(figures), "--html", str(html)])
    assert result.exit_code == 0, result.output
    along = json.loads(figures.read_text())["sections"]["sweep"]["tables"]["along"]["rows"]
    hands = next(r for r in along if r["metric"] == "hands a game")
    assert hands["v0"]["value"] < hands["v1"]["value"]  # a lower target ends sooner
    assert html.read_text().count("data:image/svg+xml;base64,") >= 3


# -- refusals -------------------------------------------------------------------------------


def refused(args: list[str], *words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    for word in words:
        assert word in result.output, result.output
    assert "Traceback" not in result.output


def test_analyze_refuses_a_folder_that_is_not_results(tmp_path: Path) -> None:
    refused(["analyze", str(tmp_path)], "holds no manifest.json")
    refused(["analyze", str(tmp_path / "nowhere")], "is not a folder of results")


def test_analyze_refuses_an_incomplete_folder(baha_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "half"
    shutil.copytree(baha_run, copy)
    (copy / "manifest.json").unlink()
    refused(["analyze", str(copy)], "holds no manifest.json", "did not complete")


def test_analyze_refuses_another_schema_version_and_another_game(baha_run: Path, tmp_path: Path) -> None:
    copy = tmp_path / "v2"
    shutil.copytree(baha_run, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    (copy / "manifest.json").write_text(json.dumps(manifest | {"schema_version": 2}))
    refused(["analyze", str(copy)], "schema version 2", "reads version 1")
    (copy / "manifest.json").write_text(json.dumps(manifest | {"format": "csv"}))
    refused(["analyze", str(copy)], "csv tables", "without --csv")
    (copy / "manifest.json").write_text(json.dumps(manifest | {"game": "chess"}))
    refused(["analyze", str(copy)], "'chess'", "baha, baebae")


def test_analyze_refuses_a_deck_the_run_did_not_play(baebae_run: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text(Path(find_deck("sample").source).read_text().replace("Constable Hobb", "Constable Bob"))
    refused(["analyze", str(baebae_run), "--deck", str(other)], "not the one the run played")


def test_analyze_refuses_a_csv_folder_that_holds_files(baha_run: Path, tmp_path: Path) -> None:
    (tmp_path / "old.csv").write_text("x\n")
    result = runner.invoke(app, ["analyze", str(baha_run), "--csv", str(tmp_path)])
    assert result.exit_code == 2 and "already holds files" in result.output, result.output
    assert "Seat advantage" not in result.output  # refused before any figure was computed
    assert [p.name for p in tmp_path.iterdir()] == ["old.csv"]


def test_compare_refuses_two_games(baebae_run: Path, baha_run: Path) -> None:
    refused(["compare", str(baebae_run), str(baha_run)], "BAEBAE results", "Baha results", "one game")


def test_compare_refuses_one_variant_and_mixed_forms(baha_run: Path) -> None:
    refused(["compare", "baha", "--rule", "target=50"], "two or more variants", "--rule twice")
    refused(["compare", str(baha_run), str(baha_run), "--rule", "target=50"], "give a game")
    refused(["compare", "baha", "--rule", "target=50", "--rules", "target=60"], "not both")


def test_sweep_refuses_an_unknown_option_and_a_bad_value(tmp_path: Path) -> None:
    refused(["sweep", "baha", "--rule", "colour=1,2", "--out", str(tmp_path / "x")],
            "unknown Baha option 'colour'", "the options are")
    refused(["sweep", "baha", "--rule", "target=50,lots"], "target", "whole number")
    refused(["sweep", "baha", "--rule", "target=50"], "two or more values")
    refused(["sweep", "baha", "--rule", "players=2,9", "--out", str(tmp_path / "x")], "players")
    assert not (tmp_path / "x").exists()  # refused before anything was written


def test_analyze_leaves_out_games_the_action_guard_stopped(baebae_run: Path, tmp_path: Path) -> None:
    """A stopped game has no winner and no places (docs/results.md): the figures leave it out of
    every table and the report says how many, instead of failing or counting it as a loss."""
    import polars as pl

    folder = tmp_path / "stopped"
    shutil.copytree(baebae_run, folder)
    games = pl.read_parquet(folder / "games.parquet")
    stopped = pl.col("game_index") == games["game_index"][0]
    games = games.with_columns(
        pl.when(stopped).then(pl.lit([], dtype=games.schema["winners"])).otherwise(pl.col("winners")).alias("winners"),
        pl.when(stopped).then(None).otherwise(pl.col("places")).alias("places"),
        pl.when(stopped).then(True).otherwise(pl.col("guard_stopped")).alias("guard_stopped"),
    )
    games.write_parquet(folder / "games.parquet")
    out = tmp_path / "f.json"
    result = runner.invoke(app, ["analyze", str(folder), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "1 games stopped by the action guard" in " ".join(result.output.split())
    seats = json.loads(out.read_text())["sections"]["seat_advantage"]["tables"]["seats"]["rows"]
    assert sum(r["wins"] for r in seats) == pytest.approx(11)
    compared = runner.invoke(app, ["compare", str(folder), str(baebae_run)])
    assert compared.exit_code == 0, compared.output


def test_analyze_accepts_the_sample_decks_own_file_by_digest(baebae_run: Path, tmp_path: Path) -> None:
    sample = Path(find_deck("sample").source)
    figures = tmp_path / "figures.json"
    result = runner.invoke(app, ["analyze", str(baebae_run), "--deck", str(sample), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    assert "Per-type impact" in result.output
    designs = json.loads(figures.read_text())["sections"]["cards"]["tables"]["designs"]["rows"]
    assert all(r["card"] for r in designs)  # the Card column is filled
    other = tmp_path / "other.toml"
    other.write_text(sample.read_text().replace("Constable Hobb", "Constable Bob"))
    refused(["analyze", str(baebae_run), "--deck", str(other)], "their digests differ", "Cardroom Sample Deck")


@pytest.fixture(scope="module")
def file_deck_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("file-deck")
    text = Path(find_deck("sample").source).read_text()
    mine = folder / "mydeck.toml"
    mine.write_text(text.replace('name = "Cardroom Sample Deck"', 'name = "My Deck"', 1)
                    .replace('name = "Constable Hobb"', 'name = "Constable Hobb"\nmarks = ["skip"]', 1))
    return simulate(folder / "run", "baebae", 6, "--deck", str(mine)), mine


def _designs_and_groups(run: Path, tmp_path: Path, *extra: str) -> tuple[list[dict], dict, str]:
    figures = tmp_path / "f.json"
    figures.unlink(missing_ok=True)
    result = runner.invoke(app, ["analyze", str(run), "--json", str(figures), *extra])
    assert result.exit_code == 0, result.output
    data = json.loads(figures.read_text())["sections"]
    return data["cards"]["tables"]["designs"]["rows"], data["groups"], result.output


def test_a_run_of_a_deck_file_keeps_its_deck_beside_the_tables(file_deck_run: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    run, mine = file_deck_run
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["deck_files"] == ["deck-1.toml"] and (run / "deck-1.toml").read_text() == mine.read_text()
    mine_elsewhere = tmp_path / "moved.toml"
    mine_elsewhere.write_bytes(mine.read_bytes())
    # No --deck: the deck is read from beside the tables, its digest checked.
    designs, groups, _ = _designs_and_groups(run, tmp_path)
    assert designs and all(r["card"] for r in designs)
    assert {"types", "marks"} <= set(groups["tables"])
    # --deck with the file the run played is accepted too (by digest).
    designs, groups, _ = _designs_and_groups(run, tmp_path, "--deck", str(mine_elsewhere))
    assert all(r["card"] for r in designs) and {"types", "marks"} <= set(groups["tables"])


def test_a_changed_or_missing_deck_beside_the_tables_is_said(file_deck_run: tuple[Path, Path],
                                                             tmp_path: Path) -> None:
    run, mine = file_deck_run
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    (copy / "deck-1.toml").write_text(mine.read_text().replace("Constable Hobb", "Constable Bob"))
    designs, groups, output = _designs_and_groups(copy, tmp_path)
    assert not any(r["card"] for r in designs)
    assert "not the deck the run played" in groups["about"][0] and "--deck" in groups["about"][0]
    assert "The Card column is empty" in output
    (copy / "deck-1.toml").unlink()
    _, groups, _ = _designs_and_groups(copy, tmp_path)
    assert "cannot be read" in groups["about"][0]
    # given again, the deck fills what was missing
    designs, groups, _ = _designs_and_groups(copy, tmp_path, "--deck", str(mine))
    assert all(r["card"] for r in designs) and "tables" in groups


def test_compare_takes_rule_as_every_command_does_and_rules_as_its_hidden_old_name(tmp_path: Path) -> None:
    for flag in ("--rule", "-r", "--rules"):
        figures = tmp_path / f"{flag.strip('-')}.json"
        result = runner.invoke(app, ["compare", "baha", flag, "target=40", flag, "target=80", "--games", "2",
                                     "--workers", "1", "--json", str(figures)])
        assert result.exit_code == 0, (flag, result.output)
        assert "target=80 minus target=40" in result.output
    shown = runner.invoke(app, ["compare", "--help"], env={"COLUMNS": "200"}).output
    assert "--rule" in shown and "--rules" not in shown


def test_sweep_of_players_gives_length_and_decisiveness_by_player_count(tmp_path: Path) -> None:
    figures = tmp_path / "sweep.json"
    result = runner.invoke(app, ["sweep", "baha", "--rule", "players=2,4,6", "--games", "2", "--workers", "1",
                                 "--json", str(figures)])
    assert result.exit_code == 0, result.output
    sections = json.loads(figures.read_text())["sections"]
    rows = sections["sweep"]["tables"]["along"]["rows"]
    metrics = [r["metric"] for r in rows]
    assert "hands a game" in metrics and "margin first-second" in metrics
    assert not any("seat" in m for m in metrics)  # a seat of two players is not a seat of six
    assert "per-seat figures" in " ".join(sections["sweep"]["about"])
    assert {"v0", "v1", "v2"} <= set(rows[0])


@pytest.mark.parametrize("command", [
    ["analyze", "{run}"],
    ["compare", "baha", "--rule", "target=40", "--rule", "target=80", "--games", "2", "--workers", "1"],
    ["sweep", "baha", "--rule", "target=40,80", "--games", "2", "--workers", "1"],
], ids=["analyze", "compare", "sweep"])
@pytest.mark.parametrize("output", [["--html", "/proc/x/y.html"], ["--json", "/proc/x/y.json"],
                                    ["--csv", "/proc/x/tables"], ["--html", "{folder}"]],
                         ids=["html", "json", "csv", "html-folder"])
def test_outputs_that_cannot_be_written_are_refused_before_any_work(
    baha_run: Path, tmp_path: Path, command: list[str], output: list[str]
) -> None:
    args = [a.format(run=baha_run, folder=tmp_path) for a in [*command, *output]]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert output[0] in result.output and ("cannot write there" in result.output or "is a folder" in result.output)
    # refused before any figure was computed or any game played
    assert "Seat advantage" not in result.output and "minus" not in result.output
    assert list(tmp_path.iterdir()) == []
