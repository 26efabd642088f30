"""Records written by earlier Cardrooms replay exactly, forever (tests/data/old-records)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games import make_rules
from cardroom.record import load, make_record, named_deck_files, replay, verify, with_decks

OLD = Path(__file__).parent / "data" / "old-records"
RECORDS = sorted(OLD.glob("*.json"))


def decks_beside(path: Path) -> list[Path]:
    """The deck files an old record names by path, as they lie beside it: a record never makes
    Cardroom read a file it names, so a person replaying it gives them (``--deck``)."""
    return [OLD / Path(name).name for name in named_deck_files(load(path))]


def loaded(path: Path) -> dict:
    return with_decks(load(path), decks_beside(path), path.name)


def test_the_corpus_holds_the_records_of_each_reading() -> None:
    names = {path.name for path in RECORDS}
    assert "baebae-uploaded-deck.json" in names
    assert {f"twice-chosen-{i}.json" for i in range(1, 7)} <= names


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_every_old_record_replays_exactly(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # its deck is the one given, not one in the working folder
    verdict = verify(loaded(path), path.name)
    assert verdict.ok, verdict.message


def test_records_of_a_twice_chosen_action_replay_under_the_reading_they_were_played_with() -> None:
    path = OLD / "twice-chosen-1.json"
    record = json.loads(path.read_text())
    assert "chosen_target" not in record["rules"]  # written before the option existed
    state = replay(loaded(path))
    assert state.rules.to_dict()["chosen_target"] == "each_step"
    # A chosen step asked again: the actions hold two targets for one card played.
    texts = [text for _, text in record["actions"]]
    assert any(a.startswith("target") and b.startswith("target") for a, b in zip(texts, texts[1:], strict=False))
    # Written again, the record names its reading, and replays under it alone.
    again = make_record(state, record["seats"])
    assert again["rules"]["chosen_target"] == "each_step"
    assert verify(again).ok
    # Under today's reading, the same actions are not a game.
    again["rules"]["chosen_target"] = "once"
    assert not verify(again).ok


def test_a_record_of_today_names_its_reading() -> None:
    rules = make_rules("baebae", {"players": 3, "rounds": 1})
    state = rules.new_game(4)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    record = make_record(state)
    assert record["rules"]["chosen_target"] == "once" and verify(record).ok


def test_the_cli_replays_the_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for path in RECORDS:
        decks = [arg for deck in decks_beside(path) for arg in ("--deck", str(deck))]
        result = CliRunner().invoke(app, ["replay", "--verify", *decks, str(path)])
        assert result.exit_code == 0, result.output
        assert result.output.count("replays exactly") == 1
