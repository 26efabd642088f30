"""Files a new deck game touches: its own. The toy game (toy_game.py, a file of the tests) has
a DeckSupport of its own, and `cardroom deck` and the web table's catalog offer its decks with
no change of theirs; with two games taking decks, `cardroom deck` asks which."""

from __future__ import annotations

import json
from pathlib import Path

import toy_game
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.main import app
from cardroom.games.contracts import DeckSupport
from cardroom.web.app import create_app

runner = CliRunner()


def test_the_toy_takes_decks_through_the_contract() -> None:
    spec = games.get("highcard")
    assert isinstance(spec.decks, DeckSupport)
    assert spec.decks.names() == ["full", "odd"]
    rules = spec.make_rules({"deck": "odd", "players": 2, "hand_size": 4})
    state = rules.new_game(4)
    dealt = state.view(0)["hand"]
    assert all(int(card[1:]) % 2 == 1 for card in dealt)  # only the odd deck's cards are dealt
    assert rules.deck_record()["digest"] == spec.decks.find("odd").digest


def test_cardroom_deck_show_and_validate_take_the_toys_decks(tmp_path: Path) -> None:
    shown = runner.invoke(app, ["deck", "show", "odd", "--game", "highcard", "--json"])
    assert shown.exit_code == 0, shown.output
    out = json.loads(shown.stdout)
    assert out["name"] == "Odd cards" and [row["key"] for row in out["cards"]] == [f"H{k}" for k in range(1, 16, 2)]
    table = runner.invoke(app, ["deck", "show", "--game", "highcard"])
    assert table.exit_code == 0 and "All sixteen" in table.stdout and "H16" in table.stdout
    good = tmp_path / "mine.txt"
    good.write_text("# Mine\nH2 H4 H6 H8\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text("H2 H99\n", encoding="utf-8")
    checked = runner.invoke(app, ["deck", "validate", "--game", "highcard", str(good), str(bad), "--json"])
    assert checked.exit_code == 1
    verdicts = json.loads(checked.stdout)
    assert [v["ok"] for v in verdicts] == [True, False]
    assert verdicts[0]["name"] == "Mine" and verdicts[0]["cards"] == 4
    assert "H99" in verdicts[1]["problems"][0]


def test_with_two_deck_games_the_deck_command_asks_which() -> None:
    result = runner.invoke(app, ["deck", "show"])
    assert result.exit_code == 2
    assert "several games take decks (baebae, highcard)" in result.stderr and "--game" in result.stderr
    wrong = runner.invoke(app, ["deck", "show", "--game", "baha"])
    assert wrong.exit_code == 2 and "Baha takes no decks" in wrong.stderr
    missing = runner.invoke(app, ["deck", "show", "nothing", "--game", "highcard"])
    assert missing.exit_code == 2 and "neither a project deck" in missing.stderr


def test_the_web_catalog_offers_the_toys_decks(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path, bot_delay=0.0)) as client:
        catalog = client.get("/api/catalog").json()
    assert catalog["games"]["highcard"]["decks"] is True
    assert {"name": "full", "game": "highcard", "title": "All sixteen", "cards": 16} in catalog["decks"]
    assert {"name": "odd", "game": "highcard", "title": "Odd cards", "cards": 8} in catalog["decks"]
    assert toy_game.__file__  # everything of the game is in its own file
