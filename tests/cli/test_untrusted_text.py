"""Text that comes from users (options, records, decks) is shown as text, never as markup,
and bad inputs found in review end with a clear error rather than a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.agents import AgentError, make
from cardroom.cli.main import app
from cardroom.games.baebae.deck import DeckError, load_deck
from cardroom.record import RecordError, parse

runner = CliRunner()


def test_markup_in_an_option_name_is_printed_as_text() -> None:
    result = runner.invoke(app, ["simulate", "baha", "--games", "1", "--rule", "x[/]=1"])
    assert result.exit_code == 2 and "x[/]" in result.output and "Traceback" not in result.output


def test_markup_in_a_deck_is_printed_as_text(tmp_path: Path) -> None:
    deck = tmp_path / "odd.toml"
    deck.write_text('name = "Odd [/b]"\n[[card]]\nrank = "6"\nsuit = "C"\nname = "Sir [/b] Pim"\n')
    shown = runner.invoke(app, ["deck", "show", str(deck)])
    assert shown.exit_code == 0 and "Sir [/b] Pim" in shown.output
    deck.write_text('name = "Odd"\n[[card]]\nrank = "6"\nsuit = "C"\nmarks = ["[/]"]\n')
    checked = runner.invoke(app, ["deck", "validate", str(deck)])
    assert checked.exit_code == 1 and "'[/]'" in checked.output and "Traceback" not in checked.output


def test_markup_in_a_record_action_is_printed_as_text(tmp_path: Path) -> None:
    record = {"format": "cardroom-record/1", "game": "baha", "rules": {}, "seed": 1,
              "seats": [{"name": f"Seat {i}", "agent": "random"} for i in range(4)],
              "actions": [[1, "[/]"]], "log": []}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", "--verify", str(path)])
    assert result.exit_code == 1 and "'[/]'" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("options", [{"seconds": float("inf")}, {"seconds": float("nan")},
                                     {"exploration": float("nan")}, {"max_depth": "deep"}, {"max_depth": 0}])
def test_ismcts_refuses_endless_or_broken_budgets(options: dict[str, object]) -> None:
    with pytest.raises(AgentError, match="ismcts"):
        make("ismcts", seed=1, **options)


def test_records_folder_that_is_a_file(tmp_path: Path) -> None:
    taken = tmp_path / "file"
    taken.write_text("x")
    result = runner.invoke(app, ["simulate", "baha", "--games", "1", "--records", str(taken)])
    assert result.exit_code == 2 and "cannot write records" in result.output


def test_deeply_nested_record_and_device_deck_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="nested too deeply"):
        parse("[" * 100_000 + "]" * 100_000)
    with pytest.raises(DeckError, match="not a deck file"):
        load_deck("/dev/zero")
    with pytest.raises(DeckError, match="not a deck file"):
        load_deck(tmp_path)


def test_play_record_holds_nothing_until_the_game_stops(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    seen = []

    def ask(prompt: str) -> str:
        seen.append(record.read_text())
        return "quit"

    from rich.console import Console

    from cardroom.cli.play import run_play
    from cardroom.games.baha import Rules

    run_play(Rules(), seed=3, bots="random", name="Ada", record_path=record,
             console=Console(file=open(tmp_path / "out.txt", "w")), ask=ask)  # noqa: SIM115
    assert seen == [""]  # during play the file exists but holds no hands
    assert json.loads(record.read_text())["format"] == "cardroom-record/1"
