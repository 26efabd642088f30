"""Records: made from a game, saved, loaded, replayed exactly; bad or tampered ones refused."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from cardroom.games import baha
from cardroom.record import FORMAT, RecordError, load, make_record, parse, replay, save, verify

SEATS = [{"name": f"Seat {i}", "agent": "random"} for i in range(4)]


def played(rules: baha.Rules, seed: int, moves: int | None = None) -> baha.BahaState:
    state = rules.new_game(seed)
    rng = random.Random(seed)
    k = 0
    while not state.is_over and (moves is None or k < moves):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        k += 1
    return state


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3},
        {"players": 3, "draw_pile": True},
        {"players": 4, "scoring": "face"},
        {"players": 5, "passing": False},
        {"players": 6, "moon": False, "random_dealer": True, "target": 40},
    ],
)
def test_record_round_trip_replays_exactly(tmp_path: Path, options: dict[str, object]) -> None:
    state = played(baha.Rules(**options), seed=11)  # type: ignore[arg-type]
    seats = [{"name": f"P{i}", "agent": "random"} for i in range(state.n)]
    record = make_record(state, seats)
    assert record["format"] == FORMAT
    assert record["game"] == "baha"
    assert record["rules"] == state.rules.to_dict()
    assert record["seats"] == seats
    assert record["result"] == {"over": True, "totals": state.totals, "winner": state.winner}
    path = tmp_path / "game.json"
    save(record, path)
    loaded = load(path)
    assert verify(loaded).ok
    again = replay(loaded)
    assert again.log == state.log
    assert again.totals == state.totals


def test_actions_are_text_with_their_seat() -> None:
    state = played(baha.Rules(players=4), seed=3, moves=20)
    record = make_record(state)
    assert record["actions"][0][1].startswith("pass ")
    assert [seat for seat, _ in record["actions"][:3]] == [1, 1, 1]
    assert record["result"]["over"] is False
    assert verify(record).ok  # an unfinished game replays too


def test_hand_made_start_is_recorded_and_replays() -> None:
    deck = [baha.Rules().new_game(0).view(s)["hand"] for s in range(4)]
    rules = baha.Rules(players=4, target=30)
    state = rules.new_game(9, deal=baha.Deal(hands=deck, dealer=2), totals=[10, 20, 25, 5], hand=3)
    rng = random.Random(0)
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    record = json.loads(json.dumps(make_record(state)))
    assert record["start"]["totals"] == [10, 20, 25, 5]
    assert record["start"]["deal"]["dealer"] == 2
    assert verify(record).ok


def test_tampered_log_is_refused() -> None:
    record = json.loads(json.dumps(make_record(played(baha.Rules(players=4), seed=5))))
    bad = copy.deepcopy(record)
    play = next(e for e in bad["log"] if e["t"] == "play")
    play["card"] = "13O" if play["card"] != "13O" else "12O"
    verdict = verify(bad)
    assert not verdict.ok and "differs" in verdict.message


def test_tampered_actions_are_refused() -> None:
    record = json.loads(json.dumps(make_record(played(baha.Rules(players=4), seed=5))))
    bad = copy.deepcopy(record)
    bad["actions"][0][1] = "play 1P"  # a play during the passing time
    verdict = verify(bad)
    assert not verdict.ok and "action 0" in verdict.message and "illegal" in verdict.message
    assert "action 0 (seat 1: 'play 1P') is illegal: you must choose cards to pass" in verdict.message
    bad = copy.deepcopy(record)
    bad["actions"][0][0] = 3  # the wrong seat
    assert "seat 1" in verify(bad).message
    bad = copy.deepcopy(record)
    bad["result"]["winner"] = (bad["result"]["winner"] + 1) % 4
    assert "result differs" in verify(bad).message
    bad = copy.deepcopy(record)
    bad["seed"] = record["seed"] + 1
    assert not verify(bad).ok


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"format": "x"}', "format must be"),
        (json.dumps({"format": FORMAT}), "'game' is missing"),
        (json.dumps({"format": FORMAT, "game": "chess", "rules": {}, "seed": 1, "seats": SEATS, "actions": []}), "unknown game"),
        (json.dumps({"format": FORMAT, "game": "baha", "rules": [], "seed": 1, "seats": SEATS, "actions": []}), "'rules' must be"),
        (json.dumps({"format": FORMAT, "game": "baha", "rules": {}, "seed": "1", "seats": SEATS, "actions": []}),
         "'seed' must be a whole number, not text '1'"),
        (json.dumps({"format": FORMAT, "game": "baha", "rules": {}, "seed": 1, "seats": SEATS, "actions": [["a"]]}), "action 0"),
        (json.dumps({"format": FORMAT, "game": "baha", "rules": {}, "seed": 1, "seats": SEATS, "actions": {}}), "'actions' must be"),
    ],
)
def test_malformed_records_get_clear_errors(text: str, expected: str) -> None:
    with pytest.raises(RecordError, match=expected):
        parse(text)


def test_bad_rules_in_a_record_are_refused() -> None:
    record = {"format": FORMAT, "game": "baha", "rules": {"players": 9}, "seed": 1, "seats": SEATS, "actions": [],
              "log": []}
    with pytest.raises(RecordError, match="players"):
        replay(record)
    record["rules"] = {"bogus": 1}
    assert "unknown Baha option" in verify(record).message


def test_load_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError):
        load(tmp_path / "bin.json")


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_rebuild_from_ints_or_text_gives_the_same_game(game: str) -> None:
    from cardroom.games import make_rules
    from cardroom.record import rebuild

    rules = make_rules(game, {"players": 3})
    state = rules.new_game(5)
    rng = random.Random(5)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    numbers = [a for _, a in state.history]
    texts = [state.action_to_string(a) for a in numbers]
    mixed = [a if k % 2 else texts[k] for k, a in enumerate(numbers)]
    for actions in (numbers, texts, mixed):
        again = rebuild(rules, 5, actions, seats=[s for s, _ in state.history])
        assert again.log == state.log and again.history == state.history
    assert rebuild(game, 5, []).log == make_rules(game).new_game(5).log  # a name: its default rules


def test_rebuild_names_the_action_that_fails() -> None:
    from cardroom.record import rebuild

    state = played(baha.Rules(players=4), seed=3, moves=14)  # the pass is over: a card is led
    numbers = [a for _, a in state.history]
    seat = state.current_player
    with pytest.raises(RecordError, match=rf"^action 14 \(seat {seat}: 'pass 2P'\) is illegal: "):
        rebuild(state.rules, 3, [*numbers, "pass 2P"])
    with pytest.raises(RecordError, match=rf"^action 14 \(seat {seat}: '9999'\) is illegal: "):
        rebuild(state.rules, 3, [*numbers, 9999])
    with pytest.raises(RecordError, match=r"^action 1 \('pass 9R'\) is by seat 3, but seat 1 is to act"):
        rebuild(baha.Rules(players=4, stream="twister"), 7, ["pass 13P", "pass 9R"], seats=[1, 3])
    with pytest.raises(RecordError, match="unknown game 'chess'; the games are baha, baebae"):
        rebuild("chess", 1, [])
