"""What the command says: help that reads as words, unknown options, counted nouns, --version,
--bots per seat, --name bounded, the report's figures."""

from __future__ import annotations

import io
import json
import re
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom.agents import AgentError
from cardroom.cli.main import app
from cardroom.cli.play import run_play
from cardroom.cli.play.session import Refusal, pick_number
from cardroom.games import baebae, baha
from cardroom.native import describe as native_build
from cardroom.record import load

runner = CliRunner()

COMMANDS = [["play"], ["simulate"], ["replay"], ["report"], ["serve"], ["deck", "validate"], ["deck", "show"], []]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_shows_words_not_python_types(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert not re.search(r"<(bool|list\[\w+\]|str|int|float|path)>", result.output), result.output
    assert "{" not in result.output.split("\n", 3)[1]  # the usage line: FILE..., not {files}...


def test_usage_and_metavars_read_as_words() -> None:
    replay = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "120"}).output
    assert "cardroom replay [OPTIONS] FILE..." in replay
    play = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "120"}).output
    assert "[GAME]" in play and re.search(r"--seed\s+N\s", play) and re.search(r"--rule\s+-r\s+KEY=VALUE", play)


def test_an_unknown_option_says_what_it_is_and_lists_the_options() -> None:
    result = runner.invoke(app, ["play", "--bot", "random"])
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())
    assert "--bot is not an option of cardroom play. Did you mean --bots?" in said
    assert "Its options: --players, --seed, --rule, --deck, --bots, --think, --name, --record, --help." in said
    assert "Possible options" not in said


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output == f"cardroom {version('cardroom')} ({native_build()})\n"


def test_counted_nouns_are_singular_for_one(tmp_path: Path) -> None:
    one = runner.invoke(app, ["simulate", "baha", "--games", "1", "--seed", "2"])
    assert "baha: 1 game, " in one.output
    duplicate = runner.invoke(app, ["simulate", "baha", "--games", "1", "--duplicate", "--agents",
                                    "heuristic,random,random,random"])
    assert "duplicate: 1 deal x 4 rotations = 4 games" in duplicate.output
    with pytest.raises(Refusal, match="type 1, the only move"):
        pick_number("3", [7])
    with pytest.raises(Refusal, match="choose 1 to 2"):
        pick_number("3", [7, 8])


def test_the_report_shows_no_run_time_it_does_not_know(tmp_path: Path) -> None:
    assert runner.invoke(app, ["simulate", "baha", "--games", "2", "--records", str(tmp_path)]).exit_code == 0
    shown = runner.invoke(app, ["report", str(tmp_path)]).output.splitlines()[0]
    assert shown.startswith("baha: 2 games, ") and not re.search(r"\d s$", shown), shown
    assert "seconds" not in json.loads(runner.invoke(app, ["report", str(tmp_path), "--json"]).stdout)
    simulated = runner.invoke(app, ["simulate", "baha", "--games", "2"]).output.splitlines()[0]
    assert re.search(r", \d+\.\d s$", simulated), simulated


@pytest.mark.parametrize("rules", [baha.Rules(players=4), baebae.Rules(players=4, rounds=1)])
def test_bots_are_chosen_per_seat(tmp_path: Path, rules: object) -> None:
    path = tmp_path / "game.json"
    code = run_play(rules, seed=5, bots="heuristic,random,ismcts:iterations=5", name="Ada",  # type: ignore[arg-type]
                    record_path=path, console=Console(file=io.StringIO()), ask=lambda prompt: "quit")
    assert code == 0
    assert [seat["agent"] for seat in load(path)["seats"]] == ["human", "heuristic", "random",
                                                               "ismcts:iterations=5"]


def test_think_sets_every_searching_bot() -> None:
    result = runner.invoke(app, ["play", "baha", "--bots", "random,heuristic", "--think", "1"])
    assert result.exit_code == 2 and "--think sets how long an ismcts bot thinks" in result.output
    from cardroom.cli.play import with_think

    assert with_think("ismcts,random,ismcts", 0.5) == "ismcts:seconds=0.5,random,ismcts:seconds=0.5"


@pytest.mark.parametrize(("args", "words"), [
    (["--bots", "random,random"], "--bots needs one bot for every seat from seat 1 (3) or one for all, got 2"),
    (["--bots", "random,,random"], "--bots needs one bot for every seat from seat 1"),
    (["--bots", "random:seed=x"], "seed must be a whole number from 0"),
    (["--name", "x" * 41], "--name: a name is at most 40 characters, not 41"),
    (["--name", "  "], "--name: a name needs at least one visible character"),
    (["--name", "Ada\x07"], "--name: a name may not hold control characters"),
])
def test_bad_play_arguments_are_refused_in_words(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["play", "baha", "--seed", "1", *args], input="quit\n")
    assert result.exit_code == 2, result.output
    assert words in " ".join(result.output.split())


def test_a_seat_seed_plays_in_the_terminal() -> None:
    result = runner.invoke(app, ["play", "baha", "--seed", "1", "--bots", "ismcts:seed=3:iterations=5"],
                           input="quit\n")
    assert result.exit_code == 0, result.output


def test_make_bots_refuses_a_wrong_count() -> None:
    from cardroom.cli.play.session import make_bots

    with pytest.raises(AgentError, match="one for all"):
        make_bots("random,random", 1, 2)


def test_the_servers_start_line_is_one_line_when_piped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)  # start, do not serve
    data = tmp_path / ("a-data-folder-with-a-long-name-" * 3)
    result = runner.invoke(app, ["serve", "--port", "0", "--data", str(data)])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("Cardroom web table: open http://127.0.0.1:")
    assert first.endswith(f"(data in {data}; Ctrl-C stops)")


def test_one_of_a_thing_is_singular_in_game_and_deck_messages(tmp_path: Path) -> None:
    from cardroom.engine import RulesError

    rules = baha.Rules(players=4)
    with pytest.raises(RulesError, match="deal has 1 hand;"):
        rules.new_game(1, deal=baha.Deal(hands=[["1P"]]))
    with pytest.raises(RulesError, match="deal, hand 0 has 1 card;"):
        rules.new_game(1, deal=baha.Deal(hands=[["1P"], [], [], []]))
    with pytest.raises(RulesError, match="60 players with 1 card each need 61 cards"):
        baebae.Rules(players=60, hand_size=1)
    deck = tmp_path / "one.toml"
    deck.write_text('name = "One"\n[[card]]\nrank = "6"\nsuit = "C"\n')
    checked = runner.invoke(app, ["deck", "validate", str(deck)])
    assert "'One', 1 card," in checked.output, checked.output
    shown = runner.invoke(app, ["deck", "show", str(deck)])
    assert "One — 1 card" in shown.output
