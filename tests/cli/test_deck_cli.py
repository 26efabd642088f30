"""``cardroom deck validate|show`` and BAEBAE through simulate and replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games.baebae.deck import SAMPLE_DECK

runner = CliRunner()

TINY = """
name = "Tiny"
types = ["Officer"]
[[card]]
rank = "6"
suit = "C"
name = "Sergeant Pim"
types = ["Officer"]
[card.action]
text = "The next player draws two cards."
effects = [{step = "draw", who = "next", count = 2}]
"""


def test_validate_good_and_bad_decks(tmp_path: Path) -> None:
    good = tmp_path / "tiny.toml"
    good.write_text(TINY)
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace('"draw"', '"steal"'))
    broken = tmp_path / "broken.toml"
    broken.write_text("name = [")
    result = runner.invoke(app, ["deck", "validate", str(SAMPLE_DECK), str(good), str(bad), str(broken), "sample",
                                 f"sample,{good}"])
    assert result.exit_code == 1
    assert result.output.count("ok ") == 3
    assert "unknown step 'steal'" in result.output and "card 1 (6C 'Sergeant Pim')" in result.output
    assert "not valid TOML" in result.output
    assert "Traceback" not in result.output
    as_json = json.loads(runner.invoke(app, ["deck", "validate", "--json", str(good), str(bad)]).stdout)
    assert [v["ok"] for v in as_json] == [False, False]
    assert as_json[0]["cards"] == 1 and as_json[0]["digest"].startswith("sha256:")


def test_validate_names_every_problem_each_on_its_own_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(TINY.replace('"draw"', '"steal"').replace('types = ["Officer"]\n[[card]]', '[[card]]')
                   + '[[card]]\nrank = "14"\nsuit = "X"\n')
    result = runner.invoke(app, ["deck", "validate", str(bad)], env={"COLUMNS": "1000"})
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"FAIL {bad}: 4 problems"
    assert [line.strip() for line in lines[1:]] == [
        f"{bad}: card 1 (6C 'Sergeant Pim').types: unknown type 'Officer'; the deck declares none declared",
        f"{bad}: card 1 (6C 'Sergeant Pim').action.effects[0]: unknown step 'steal'; steps are draw, discard, "
        "discard_under, give, take, swap_hands, skip, reverse, declare_suit, play_again, peek, penalty, coin, choose",
        f"{bad}: card 2.rank: unknown rank '14'; ranks are A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K",
        f"{bad}: card 2.suit: unknown suit 'X'; suits are C, D, H, S (or ♣ ♦ ♥ ♠)",
    ]
    verdict = json.loads(runner.invoke(app, ["deck", "validate", "--json", str(bad)]).stdout)[0]
    assert verdict["ok"] is False and verdict["problems"] == [line.strip() for line in lines[1:]]


def test_validate_says_for_how_many_players_a_deck_is_enough(tmp_path: Path) -> None:
    one = tmp_path / "one.toml"
    one.write_text(TINY)
    result = runner.invoke(app, ["deck", "validate", "sample", str(one)], env={"COLUMNS": "1000"})
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith("ok   sample: 'Cardroom Sample Deck', 52 cards, 27 with actions, types ")
    assert lines[0].endswith("; enough for 2 to 10 players with the default hand size")
    assert lines[1] == f"FAIL {one}: 'Tiny', 1 card, 1 with actions, types Officer"
    assert lines[2].strip() == (
        f"{one}: too few cards for any game (1 card; 2 players need 15 with the default hand size: every hand "
        f"and a starter card); to add these cards to another deck, check them together: base.toml,{one}")
    verdicts = json.loads(runner.invoke(app, ["deck", "validate", "--json", "sample", str(one), "sample,sample",
                                              f"sample,{one}"]).stdout)
    assert [v["players"] for v in verdicts] == [{"min": 2, "max": 10}, None, {"min": 2, "max": 20},
                                                {"min": 2, "max": 10}]
    assert [v["ok"] for v in verdicts] == [True, False, True, True]
    fifteen = tmp_path / "fifteen.toml"
    fifteen.write_text('name = "Fifteen"\n' + "".join(f'[[card]]\nrank = "{r}"\nsuit = "C"\n' for r in range(1, 14))
                       + '[[card]]\nrank = "A"\nsuit = "D"\n[[card]]\nrank = "2"\nsuit = "D"\n')
    result = runner.invoke(app, ["deck", "validate", str(fifteen)], env={"COLUMNS": "1000"})
    assert result.exit_code == 0 and result.output.rstrip().endswith("; enough for 2 players with the default hand size")


def test_validate_all_good_exits_zero() -> None:
    result = runner.invoke(app, ["deck", "validate", "sample"])
    assert result.exit_code == 0 and "52 cards" in result.output


def test_show_lists_every_card() -> None:
    result = runner.invoke(app, ["deck", "show", "sample", "--json"])
    assert result.exit_code == 0
    shown = json.loads(result.stdout)
    assert len(shown["cards"]) == 52
    assert {c["key"] for c in shown["cards"]} >= {"AC", "10H", "KS"}
    table = runner.invoke(app, ["deck", "show"], env={"COLUMNS": "160"})
    assert table.exit_code == 0 and "Cardroom Sample Deck" in table.output and "Flags" in table.output


def test_show_missing_deck_is_an_error() -> None:
    result = runner.invoke(app, ["deck", "show", "nosuch.toml"])
    assert result.exit_code == 2 and "no deck 'nosuch.toml'" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "2"],
        ["--players", "4", "--rule", "draw_when_able=true", "--rule", "ace_penalty=5"],
        ["--players", "6", "--rule", "decks=2", "--rule", "rounds=2"],
        ["--players", "8", "--deck", "sample", "--deck", "sample"],
        ["--players", "3", "--rule", "hand_size=3", "--rule", "turn_limit=50"],
    ],
)
def test_simulate_baebae_records_replay(tmp_path: Path, args: list[str]) -> None:
    records = tmp_path / "records"
    result = runner.invoke(
        app, ["simulate", "baebae", "--games", "3", "--seed", "5", "--records", str(records), "--json", *args]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["unit"] == "penalty per round"
    assert summary["deck"]["name"].startswith("Cardroom Sample Deck")
    assert abs(sum(s["wins"] for s in summary["seats"]) - 3) < 1e-9
    files = sorted(records.glob("*.json"))
    assert len(files) == 3
    verified = runner.invoke(app, ["replay", "--verify", *map(str, files)])
    assert verified.exit_code == 0, verified.output


def test_replay_refuses_a_record_whose_deck_changed(tmp_path: Path) -> None:
    deck = tmp_path / "mine.toml"
    deck.write_text(SAMPLE_DECK.read_text())
    records = tmp_path / "r"
    assert runner.invoke(app, ["simulate", "baebae", "--games", "1", "--deck", str(deck), "--records", str(records)]).exit_code == 0
    deck.write_text(SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Changed"', 1))
    # The record carries its deck's content: the file changing later does not matter to it.
    result = runner.invoke(app, ["replay", "--verify", str(records / "game-000000.json")])
    assert result.exit_code == 0, result.output
    # A record written before records carried their decks names the file (given explicitly,
    # since a record's own paths are never read), and its digest tells that the file has
    # changed since.
    old = json.loads((records / "game-000000.json").read_text())
    del old["rules"]["deck_files"]
    old["rules"]["deck"] = old["deck"]["spec"] = str(deck)
    (records / "old.json").write_text(json.dumps(old))
    result = runner.invoke(app, ["replay", "--verify", "--deck", str(deck), str(records / "old.json")])
    assert result.exit_code == 1 and "the deck has changed" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--deck", "nosuch"], "no deck 'nosuch'"),
        (["--rule", "rounds=0"], "rounds must be"),
        (["--players", "30"], "at most"),
        (["--players", "1"], "players must be"),
        (["--rule", "decks=9"], "decks must be"),
        (["--deck", "sample", "--rule", "deck=sample"], "give the deck once"),
    ],
)
def test_simulate_baebae_bad_arguments(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "baebae", "--games", "1", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_simulate_baebae_every_player_count_replays(tmp_path: Path, players: int, decks: int) -> None:
    records = tmp_path / "r"
    result = runner.invoke(app, ["simulate", "baebae", "--games", "1", "--players", str(players), "--rule",
                                 f"decks={decks}", "--rule", "rounds=2", "--records", str(records), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["deals"] == 2
    verified = runner.invoke(app, ["replay", "--verify", str(records / "game-000000.json")])
    assert verified.exit_code == 0, verified.output


def test_play_think_sets_the_search_budget(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "baha", "--bots", "ismcts", "--think", "0.01", "--seed", "4",
                                 "--record", str(record)], input="1\n1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    seats = json.loads(record.read_text())["seats"]
    assert seats[1]["agent"] == "ismcts:seconds=0.01"
    bad = runner.invoke(app, ["play", "baha", "--bots", "heuristic", "--think", "1"])
    assert bad.exit_code == 2 and "--think" in bad.output
