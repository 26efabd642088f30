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


@pytest.mark.parametrize("name", ["twister-baha.json", "twister-baebae.json"])
@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_record_from_before_the_split_stream_replays_on_the_twister_on_either_engine(name: str, engine: str) -> None:
    from cardroom import native

    if engine == "native" and not native.available():
        pytest.skip(f"native core {native.unavailable_reason()}")
    native.use_engine(engine)
    record = load(OLD / name)
    assert "stream" not in record["rules"]  # written before the option existed
    state = replay(record)
    assert type(state).__name__.startswith("Native") == (engine == "native")
    assert state.rules.to_dict()["stream"] == "twister"
    assert json.loads(json.dumps(state.log)) == record["log"] and verify(record).ok
    # Written again, it names its stream and replays on it alone; on the split stream the same
    # actions are another game (here: not even a legal one, or another log).
    again = make_record(state, record["seats"])
    assert again["rules"]["stream"] == "twister" and verify(again).ok
    again["rules"]["stream"] = "splitmix"
    assert not verify(again).ok
    # Without its log, a record that names no stream replays on the Twister too.
    bare = {key: value for key, value in record.items() if key not in ("log", "result")}
    assert replay(bare).log == state.log


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_new_record_names_the_split_stream_and_replays_on_it(game: str) -> None:
    rules = make_rules(game, {"players": 3})
    assert rules.to_dict()["stream"] == "splitmix"  # new games' default
    state = rules.new_game(11)
    for _ in range(40):
        if state.is_over:
            break
        state.apply(state.legal_actions()[-1])
    record = make_record(state)
    assert record["rules"]["stream"] == "splitmix" and verify(record).ok
    assert replay(record).log == state.log
    old = {**record, "rules": {k: v for k, v in record["rules"].items() if k != "stream"}}
    assert not verify(old).ok  # read as a record of before the option: the Twister, another deal
