"""Every reader of records checks them the same way: a malformed record is refused in words,
with the same message, by parse, load, replay, verify, report and the CLI, never a crash."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardroom.cli.main import app
from cardroom.games import baha
from cardroom.record import RecordError, check_record, load, make_record, parse, replay, verify
from cardroom.sim.records import report_records
from cardroom.text import MAX_NAME

runner = CliRunner()


def _good() -> dict[str, Any]:
    state = baha.Rules(players=3, target=10).new_game(4)
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return json.loads(json.dumps(make_record(state, [{"name": f"P{i}", "agent": "random"} for i in range(3)])))


GOOD = _good()

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=4,
)
KINDS = {"format": str, "game": str, "rules": dict, "seed": int, "seats": list, "actions": list}


def _wrong_kind(key: str) -> st.SearchStrategy[Any]:
    kind = KINDS[key]
    return json_values.filter(lambda v: not isinstance(v, kind) or (isinstance(v, bool) and kind is int))


def _set(key: str, value: Any) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    record[key] = value
    return record


def _seat(value: Any) -> dict[str, Any]:
    record = copy.deepcopy(GOOD)
    record["seats"][1] = value
    return record


bad_seat = st.one_of(
    json_values.filter(lambda v: not isinstance(v, dict)),
    st.builds(lambda name: {"name": name, "agent": "random"},
              json_values.filter(lambda v: not isinstance(v, str)) | st.just("") | st.just(" ")
              | st.text(min_size=MAX_NAME + 1, max_size=MAX_NAME + 5).filter(lambda t: len(t.strip()) > MAX_NAME)
              | st.just("Ada\x1b[2J")),
    st.builds(lambda agent: {"name": "Bo", "agent": agent},
              json_values.filter(lambda v: not isinstance(v, str)) | st.just("") | st.just("x" * 201)),
)

malformed = st.one_of(
    st.sampled_from(sorted(KINDS)).flatmap(lambda key: st.builds(_set, st.just(key), _wrong_kind(key))),
    st.sampled_from(sorted(KINDS)).map(lambda key: {k: v for k, v in GOOD.items() if k != key}),
    st.builds(_set, st.just("seats"), st.just([]) | st.text(max_size=8) | st.lists(json_values, max_size=2)
              .filter(lambda v: not all(isinstance(s, dict) for s in v) or not v)),
    st.builds(_seat, bad_seat),
    st.builds(_set, st.just("actions"), st.lists(st.just([3, "play 1P"]) | st.just([0, "x" * 65])
                                                | json_values.filter(lambda v: not isinstance(v, list)),
                                                min_size=1, max_size=2)),
    st.builds(_set, st.just("log"), st.lists(json_values.filter(lambda v: not isinstance(v, dict)), min_size=1,
                                             max_size=2) | st.text(max_size=3)),
    st.builds(_set, st.just("result"), st.just({"over": True, "totals": [1, 2]}) | st.just({"totals": [0, 0, 0]})
              | st.text(max_size=3)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                     HealthCheck.too_slow])
@given(record=malformed)
def test_every_reader_refuses_a_malformed_record_in_the_same_words(tmp_path: Path, record: Any) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    where = str(path)
    try:
        check_record(record, where)
    except RecordError as err:
        message = str(err)
    else:
        raise AssertionError(f"not refused: {record!r:.300}")
    assert message.startswith(where + ": ") and len(message) > len(where) + 10
    for read in (lambda: parse(path.read_text(), where), lambda: load(path), lambda: replay(record, where),
                 lambda: report_records([path])):
        try:
            read()
        except RecordError as err:
            assert str(err) == message
        else:
            raise AssertionError("a reader took a malformed record")
    assert verify(record, where).message == message and not verify(record, where).ok
    for args in (["replay", where], ["replay", "--verify", where], ["report", where]):
        result = runner.invoke(app, args)
        assert result.exit_code in (1, 2), (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert " ".join(message.split()) in " ".join(result.output.split())


def test_a_good_record_passes_every_reader(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(GOOD))
    check_record(GOOD)
    assert verify(load(path)).ok
    assert report_records([path])["games"] == 1
    assert runner.invoke(app, ["report", str(path)]).exit_code == 0


def _baebae(rules: dict[str, Any]) -> dict[str, Any]:
    return {"format": "cardroom-record/1", "game": "baebae", "rules": rules, "seed": 1,
            "seats": [{"name": f"P{i}", "agent": "random"} for i in range(4)], "actions": [], "log": []}


@pytest.mark.parametrize(("rules", "words"), [
    ({"deck": "x" * 5000}, "rules option 'deck' is too long"),
    ({"k" * 500: 1}, "is too long: an option's name is at most 40 characters"),
    ({"deck": "x" * 300}, "no deck 'xxx"),
    ({"deck": "x" * 300 + ".toml"}, "names the deck file 'xxx"),
])
def test_untrusted_rules_text_is_bounded(tmp_path: Path, rules: dict[str, Any], words: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_baebae(rules)))
    for read in (lambda: verify(json.loads(path.read_text()), str(path)).message,
                 lambda: _refusal(lambda: report_records([path]))):
        message = read()
        assert words in message and len(message) < 400, message
    for args in (["replay", str(path)], ["replay", "--verify", str(path)], ["report", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code in (1, 2) and words in result.output, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)


def _refusal(read: Any) -> str:
    try:
        read()
    except RecordError as err:
        return str(err)
    raise AssertionError("not refused")


def test_a_deck_name_the_system_refuses_is_an_error_not_a_traceback() -> None:
    result = runner.invoke(app, ["play", "baebae", "--deck", "y" * 300], input="quit\n")
    assert result.exit_code == 2 and "File name too long" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
