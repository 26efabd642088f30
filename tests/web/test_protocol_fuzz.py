"""Any message at all gets a parsed message or a ProtocolError that says what was wrong."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.text import unsafe_character
from cardroom.web.protocol import MAX_CHAT, Act, Chat, Hello, Ping, ProtocolError, parse_message

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["hello", "act", "ping", "chat", ""]) | st.text(max_size=6)},
    optional={"token": JSON, "action": JSON, "seq": JSON, "text": JSON, "extra": JSON},
)


def _parse(data: str | bytes) -> object:
    try:
        return parse_message(data)
    except ProtocolError as err:
        assert err.code in ("bad_message", "bad_chat"), err
        assert str(err), "a refusal says what was wrong"
        return err


@settings(max_examples=400, deadline=None)
@given(MESSAGES)
def test_any_object_parses_or_is_refused_in_words(message: dict) -> None:
    out = _parse(json.dumps(message))
    if isinstance(out, Act):
        assert type(out.action) is int and type(out.seq) is int
        assert message["type"] == "act"
    elif isinstance(out, Hello):
        assert out.token is None or isinstance(out.token, str)
    elif isinstance(out, Chat):
        assert message["type"] == "chat" and 0 < len(out.text) <= MAX_CHAT
        assert unsafe_character(out.text, lines=False) is None
    elif not isinstance(out, ProtocolError):
        assert isinstance(out, Ping)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON.map(json.dumps), st.text(max_size=60), st.binary(max_size=60)))
def test_any_text_or_bytes_parses_or_is_refused(data: str | bytes) -> None:
    _parse(data)


def test_a_protocol_error_is_a_refusal_and_an_input_error() -> None:
    """One base under every refusal: the web's (a status and words) and Cardroom's input error."""
    from cardroom.engine import CardroomInputError
    from cardroom.web.refusal import Refusal

    with pytest.raises(ProtocolError) as caught:
        parse_message("[1]")
    err = caught.value
    assert isinstance(err, Refusal) and isinstance(err, CardroomInputError) and isinstance(err, ValueError)
    assert (err.code, err.status) == ("bad_message", 400)
    assert str(err) == 'a message is a JSON object with a "type", not a JSON list'
