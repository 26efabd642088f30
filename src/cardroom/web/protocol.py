"""The web table's messages: HTTP bodies and WebSocket messages, checked before use.

Every check says what was wrong and what is allowed; nothing here touches a game.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cardroom.engine import CardroomInputError, is_whole
from cardroom.text import MAX_NAME, clean_name, unsafe_character
from cardroom.web.refusal import Refusal

__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_DECK_BYTES",
    "MAX_NAME",
    "MAX_TIMER",
    "MAX_PLAYERS",
    "ProtocolError",
    "Hello",
    "MAX_SPECTATOR_DELAY",
    "Act",
    "Ping",
    "Chat",
    "Hint",
    "MAX_CHAT",
    "Message",
    "parse_message",
    "CreateBody",
    "JoinBody",
    "QuickBody",
    "TokenBody",
    "clean_name",
    "error",
]

MAX_MESSAGE_BYTES = 4096
MAX_DECK_BYTES = 256 * 1024
MAX_TIMER = 3600.0
MAX_PLAYERS = 100
"""The most seats a table may have (a game's own rules usually allow far fewer)."""
MAX_SEAT_SPEC = 200
MAX_RULES = 20
"""Rule options one create request may set (each game has fewer)."""
MAX_RULE_TEXT = 40
"""The longest game name, rule option name or text value a create request may give."""


class ProtocolError(Refusal, CardroomInputError):
    """A message that cannot be taken: ``code`` is the error code sent back (in an ``error``
    message). A refusal like every other of the web table (a request's would be answered 400)
    and an input error like every other of Cardroom."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(400, message)
        self.code = code


@dataclass(frozen=True)
class Hello:
    token: str | None
    delay: int = 0
    """Actions a spectator's view lags behind the game (0: live)."""


MAX_SPECTATOR_DELAY = 20
"""The most actions a spectator may ask to watch behind the game."""


@dataclass(frozen=True)
class Act:
    action: int
    seq: int


@dataclass(frozen=True)
class Ping:
    pass


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Hint:
    seq: int


MAX_CHAT = 200
"""The longest chat message, in characters."""

Message = Hello | Act | Ping | Chat | Hint

_FIELDS = {"hello": {"type", "token", "delay"}, "act": {"type", "action", "seq"}, "ping": {"type"},
           "chat": {"type", "text"}, "hint": {"type", "seq"}}


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_message", message)


def parse_message(data: str | bytes) -> Message:
    """One client message from a WebSocket frame; raises :class:`ProtocolError`."""
    size = len(data.encode("utf-8")) if isinstance(data, str) else len(data)
    if size > MAX_MESSAGE_BYTES:
        raise _bad(f"a message may be at most {MAX_MESSAGE_BYTES} bytes, not {size}")
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):  # JSONDecodeError, bad UTF-8, huge numbers
        raise _bad('a message is one JSON object, e.g. {"type": "ping"}') from None
    if not isinstance(obj, dict):
        raise _bad(f'a message is a JSON object with a "type", not a JSON {type(obj).__name__}')
    kind = obj.get("type")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise _bad(f"unknown message type {kind!r:.40}; the types are {', '.join(_FIELDS)}")
    unknown = sorted(set(obj) - _FIELDS[kind])
    if unknown:
        raise _bad(f"a {kind} message has no field {unknown[0]!r:.40}; its fields are "
                   f"{', '.join(sorted(_FIELDS[kind]))}")
    if kind == "ping":
        return Ping()
    if kind == "chat":
        return Chat(_chat_text(obj.get("text")))
    if kind == "hello":
        token = obj.get("token")
        if token is not None and (
            not isinstance(token, str) or not 0 < len(token) <= 200 or not token.isascii()
        ):
            raise _bad("hello's token is the text /join answered, or null to watch")
        delay: Any = obj.get("delay", 0)
        if not is_whole(delay) or not 0 <= delay <= MAX_SPECTATOR_DELAY:
            raise _bad(f"hello's delay is the actions a spectator watches behind the game, a whole number "
                       f"from 0 to {MAX_SPECTATOR_DELAY}, not {delay!r:.40}")
        if delay and token is not None:
            raise _bad("a delay is for spectators (token null): a seat sees its game as it is")
        return Hello(token, delay)
    if kind == "hint":
        seq: Any = obj.get("seq")
        if not is_whole(seq) or not 0 <= seq < 2**31:
            raise _bad(f'a hint message is {{"type": "hint", "seq": int}}: seq a whole number from 0 to '
                       f'{2**31 - 1}, not {seq!r:.40}')
        return Hint(seq)
    for name in ("action", "seq"):
        if name not in obj:
            raise _bad(f'an act message needs "{name}": {{"type": "act", "action": int, "seq": int}}')
        if not is_whole(obj[name]) or not 0 <= obj[name] < 2**31:
            raise _bad(f"{name} must be a whole number from 0 to {2**31 - 1}, not {obj[name]!r:.40}")
    return Act(obj["action"], obj["seq"])


def _chat_text(value: Any) -> str:
    """A chat message's text: one line, 1 to ``MAX_CHAT`` characters, no control characters."""
    if not isinstance(value, str):
        raise ProtocolError("bad_chat", 'a chat message is {"type": "chat", "text": "..."}: '
                                        'its text a string')
    text = " ".join(value.split())
    if not text:
        raise ProtocolError("bad_chat", "a chat message needs at least one visible character")
    if len(text) > MAX_CHAT:
        raise ProtocolError("bad_chat", f"a chat message is at most {MAX_CHAT} characters, not {len(text)}")
    bad = unsafe_character(text, lines=False)
    if bad is not None:
        raise ProtocolError("bad_chat", f"a chat message may not hold control characters (nor "
                                        f"bidirectional overrides); this one holds U+{ord(bad):04X}")
    return text


def error(code: str, message: str) -> dict[str, Any]:
    """The ``error`` message."""
    return {"type": "error", "code": code, "message": message}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class CreateBody(_Body):
    """``POST /api/tables``."""

    game: str = Field(max_length=MAX_RULE_TEXT)
    players: int | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    deck: str | None = Field(default=None, max_length=100)
    deck_toml: str | None = Field(default=None, max_length=MAX_DECK_BYTES)
    deck_file: str | None = Field(default=None, max_length=100)
    """The uploaded deck file's name, which its problems are told by."""
    seats: list[str] | None = Field(default=None, max_length=MAX_PLAYERS)
    timer: float | None = None
    name: str | None = None
    private: bool = False
    """Keep the table out of the lobby's list: those its creator sends the link to find it."""

    @field_validator("players", mode="before")
    @classmethod
    def _players(cls, value: Any) -> Any:
        # Said in Cardroom's words (a game's own rules may allow fewer: they say so next).
        if value is not None and (not is_whole(value) or not 2 <= value <= MAX_PLAYERS):
            raise ValueError(f"a table seats 2 to {MAX_PLAYERS} players (a whole number), not {value!r:.40}")
        return value

    @field_validator("timer", mode="before")
    @classmethod
    def _timer(cls, value: Any) -> Any:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
                or not 1 <= value <= MAX_TIMER:
            raise ValueError(f"a turn lasts 1 to {MAX_TIMER:g} seconds (leave it empty for no timer), "
                             f"not {value!r:.40}")
        return float(value)

    @field_validator("rules")
    @classmethod
    def _rules(cls, value: dict[str, Any]) -> dict[str, Any]:
        if len(value) > MAX_RULES:
            raise ValueError(f"at most {MAX_RULES} rule options, not {len(value)}")
        for name, option in value.items():
            if len(name) > MAX_RULE_TEXT:
                raise ValueError(f"a rule option's name is at most {MAX_RULE_TEXT} characters")
            if isinstance(option, str) and len(option) > MAX_RULE_TEXT:
                raise ValueError(
                    f"{name[:MAX_RULE_TEXT]}: a text value is at most {MAX_RULE_TEXT} characters"
                )
            if isinstance(option, list | dict):
                raise ValueError(f"{name[:MAX_RULE_TEXT]}: a rule value is a number, true, false, a text "
                                 "or null, not a list or an object")
        return value

    @field_validator("seats")
    @classmethod
    def _seats(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and any(len(s) > MAX_SEAT_SPEC for s in value):
            raise ValueError(f"a seat is \"human\" or a bot spec of at most {MAX_SEAT_SPEC} characters")
        return value

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class JoinBody(_Body):
    """``POST /api/tables/{id}/join``: a guest gives ``name``; a signed-in person sits as the
    account and gives none."""

    name: str | None = None
    seat: int | None = Field(default=None, ge=0, le=100)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class QuickBody(_Body):
    """``POST /api/quick``: Play now, at a table of ``game`` for ``players`` (bots of level
    ``bot`` take the seats nobody takes in the wait)."""

    game: str = Field(max_length=MAX_RULE_TEXT)
    players: int = Field(ge=2, le=MAX_PLAYERS)
    bot: str = Field(default="heuristic", max_length=MAX_SEAT_SPEC)
    name: str | None = None
    """A guest's name (a signed-in person sits as the account)."""
    skip: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list, max_length=200)
    """Tables not to be seated at: those this browser holds a seat at already."""

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class TokenBody(_Body):
    """``POST /api/tables/{id}/leave``, ``/close`` and ``/rematch``: who asks, by their token."""

    token: str = Field(min_length=1, max_length=200)
