"""Records and the decks they were played with: a record carries a deck that is not built in,
so it replays anywhere; an old record that names its deck file by path replays only with the
file given explicitly (a record never makes Cardroom read a file it names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games.baebae import Rules
from cardroom.games.baebae.deck import SAMPLE_DECK
from cardroom.games.baebae.rules import read_decks
from cardroom.record import load, make_record, replay, with_decks


def test_an_old_record_naming_a_deck_file_replays_only_with_the_file_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Beside"', 1)
    played = tmp_path / "server" / "decks" / "abc.toml"
    played.parent.mkdir(parents=True)
    played.write_text(text)
    state = Rules(players=3, rounds=1, **read_decks(str(played))).new_game(5)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = make_record(state, [{"name": f"P{i}", "agent": "random"} for i in range(3)])
    # A record as the web table wrote them before records carried their decks.
    del record["rules"]["deck_files"]
    record["rules"]["deck"] = record["deck"]["spec"] = "abc.toml"
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    (downloads / "game.json").write_text(json.dumps(record))
    (downloads / "abc.toml").write_text(text)
    monkeypatch.chdir(downloads)
    # Even with the file beside it (and in the working folder), the record alone reads no file.
    for command in (["replay", "--verify", "game.json"], ["replay", "--narrate", "game.json"]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code != 0 and "'abc.toml'" in result.output and "--deck FILE" in result.output
    assert "deck_files" not in load(downloads / "game.json")["rules"]
    # Given explicitly, it replays.
    result = CliRunner().invoke(app, ["replay", "--verify", "--deck", "abc.toml", "game.json"])
    assert result.exit_code == 0, result.output
    loaded = with_decks(load(downloads / "game.json"), [downloads / "abc.toml"])
    assert loaded["rules"]["deck"] == record["deck"]["digest"] and loaded["rules"]["deck_files"] == [text]
    assert replay(loaded).is_over
    # A changed deck under the same name is refused by its digest.
    (downloads / "other.toml").write_text(text.replace('name = "Beside"', 'name = "Other"', 1))
    result = CliRunner().invoke(app, ["replay", "--verify", "--deck", "other.toml", "game.json"])
    assert result.exit_code != 0


def test_a_record_never_makes_cardroom_read_a_file_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins
    import io

    state = Rules(players=2, rounds=1).new_game(3)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = make_record(state)
    secret = tmp_path / "secret.toml"
    secret.write_text("name = 'not for records'\n")
    opened: list[str] = []
    real_open = io.open

    def watch(file: object, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    for named in ("/etc/passwd", str(secret), "~/.ssh/id_rsa.toml", "../secret.toml"):
        record["rules"]["deck"] = named
        (tmp_path / "game.json").write_text(json.dumps(record))
        opened.clear()
        monkeypatch.setattr(builtins, "open", watch)
        monkeypatch.setattr(io, "open", watch)
        try:
            result = CliRunner().invoke(app, ["replay", "--narrate", str(tmp_path / "game.json")])
        finally:
            monkeypatch.undo()
        assert result.exit_code != 0 and "reads no file a record names" in result.output
        assert not any(named.lstrip("~./") in path for path in opened), opened


OLD = Path(__file__).parent / "data" / "old-records"


def test_an_old_record_file_naming_its_deck_file_still_replays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Written by the code before records carried their decks (see data/old-records/README.md).
    monkeypatch.chdir(tmp_path)
    old = json.loads((OLD / "baebae-uploaded-deck.json").read_text())
    assert "deck_files" not in old["rules"] and old["rules"]["deck"].endswith(".toml")
    deck = OLD / old["rules"]["deck"]
    result = CliRunner().invoke(app, ["replay", "--verify", str(OLD / "baebae-uploaded-deck.json")])
    assert result.exit_code != 0 and "--deck" in result.output  # the file beside it is not read
    result = CliRunner().invoke(app, ["replay", "--verify", "--deck", str(deck), str(OLD / "baebae-uploaded-deck.json")])
    assert result.exit_code == 0, result.output
    # Given its deck and written again, it carries its deck and needs no file.
    loaded = with_decks(load(OLD / "baebae-uploaded-deck.json"), [deck])
    assert loaded["rules"]["deck_files"] == [deck.read_text()]
    (tmp_path / "again.json").write_text(json.dumps(loaded))
    result = CliRunner().invoke(app, ["replay", "--verify", str(tmp_path / "again.json")])
    assert result.exit_code == 0, result.output


def test_a_record_with_a_deck_not_built_in_replays_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Travels"', 1)
    played = tmp_path / "mine.toml"
    played.write_text(text)
    state = Rules(players=2, rounds=1, **read_decks(str(played))).new_game(3)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    record = make_record(state)
    assert record["rules"]["deck_files"] == [text] and str(tmp_path) not in json.dumps(record)
    played.unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    (elsewhere / "game.json").write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["replay", "--verify", "game.json"])
    assert result.exit_code == 0, result.output
    assert replay(load(elsewhere / "game.json")).log == state.log
