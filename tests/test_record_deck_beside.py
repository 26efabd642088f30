"""A record that names its deck file by a relative name finds the file beside the record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games.baebae import Rules
from cardroom.games.baebae.deck import SAMPLE_DECK
from cardroom.record import load, make_record, replay


def test_a_downloaded_record_replays_with_its_deck_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "Beside"', 1)
    played = tmp_path / "server" / "decks" / "abc.toml"
    played.parent.mkdir(parents=True)
    played.write_text(text)
    state = Rules(players=3, rounds=1, deck=str(played)).new_game(5)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = make_record(state, [{"name": f"P{i}", "agent": "random"} for i in range(3)])
    record["rules"]["deck"] = record["deck"]["spec"] = "abc.toml"  # as the web table names it
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    (downloads / "game.json").write_text(json.dumps(record))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    # Without the deck file beside it, the record says which deck it wants.
    result = CliRunner().invoke(app, ["replay", "--verify", str(downloads / "game.json")])
    assert result.exit_code != 0 and "abc.toml" in result.output
    (downloads / "abc.toml").write_text(text)
    loaded = load(downloads / "game.json")
    assert Path(loaded["rules"]["deck"]) == (downloads / "abc.toml").resolve()
    assert replay(loaded).is_over
    result = CliRunner().invoke(app, ["replay", "--verify", str(downloads / "game.json")])
    assert result.exit_code == 0, result.output
    # A changed deck under the same name is refused by its digest.
    (downloads / "abc.toml").write_text(text.replace('name = "Beside"', 'name = "Other"', 1))
    result = CliRunner().invoke(app, ["replay", "--verify", str(downloads / "game.json")])
    assert result.exit_code != 0
