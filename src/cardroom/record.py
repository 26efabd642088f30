"""Game records: one JSON document per game that replays exactly.

A record holds what is needed to rebuild the game (game, every rules option, seed, how a
hand-made game began, the actions in text form with the seat that took each) and what came
of it (the omniscient log and the result). ``replay`` rebuilds the game from the first part;
``verify`` checks that it reproduces the second. See ``docs/records.md``. :func:`rebuild` is
the one way every front rebuilds a game from its seed and actions (records, and the web
table's restart, finished games and replays).

>>> from cardroom.games import baha
>>> state = baha.Rules(players=3).new_game(seed=5)
>>> while not state.is_over:
...     _ = state.apply(state.legal_actions()[0])
>>> record = make_record(state)
>>> verify(record).ok
True
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardroom import games
from cardroom.engine import (
    Action,
    CardroomInputError,
    DeckRules,
    IllegalAction,
    Rules,
    RulesError,
    State,
    is_whole,
)
from cardroom.games import GameSpec, make_rules, start_game
from cardroom.text import clean_name, plural, shorten

if TYPE_CHECKING:
    from cardroom.native import Engine

__all__ = [
    "FORMAT",
    "RecordError",
    "Verdict",
    "check_record",
    "record_game",
    "named_deck_files",
    "with_decks",
    "make_record",
    "result_of",
    "save",
    "load",
    "parse",
    "rebuild",
    "replay",
    "replay_checked",
    "verify",
]

FORMAT = "cardroom-record/1"
MAX_RECORD_BYTES = 64 * 1024 * 1024  # far above any real game; refuses absurd files early


class RecordError(CardroomInputError):
    """A record is malformed or does not replay; the message says where and why."""


@dataclass(frozen=True)
class Verdict:
    """Whether a record replays to the log and result it carries."""

    ok: bool
    message: str


def result_of(state: State) -> dict[str, Any]:
    """The result part of a record: totals, and the winner once the game is over."""
    result: dict[str, Any] = {"over": state.is_over, "totals": state.scores}
    if state.is_over:
        result["winner"] = state.winner
    return result


def make_record(state: State, seats: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game so far; ``seats`` names who sat where.

    ``seats`` defaults to anonymous seats ``{"name": "Seat N", "agent": "unknown"}``.
    """
    rules = state.rules
    players = len(state.scores)
    if seats is None:
        seats = [{"name": f"Seat {i}", "agent": "unknown"} for i in range(players)]
    if len(seats) != players:
        raise RecordError(f"a record of {players} players needs {players} seats, not {len(seats)}")
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": rules.game,
        "rules": rules.to_dict(),
        "seed": state.seed,
    }
    if isinstance(rules, DeckRules):
        record["deck"] = rules.deck_record()
    if state.origin is not None:
        record["start"] = state.origin
    record["seats"] = [dict(s) for s in seats]
    record["actions"] = [[seat, state.action_to_string(a)] for seat, a in state.history]
    record["log"] = state.log
    record["result"] = result_of(state)
    return record


def save(record: Mapping[str, Any], path: str | Path) -> None:
    """Write a record as JSON (one document, UTF-8)."""
    Path(path).write_text(json.dumps(record, separators=(",", ":")) + "\n", encoding="utf-8")


def load(path: str | Path) -> dict[str, Any]:
    """Read and check the shape of a record file; raises :class:`RecordError`."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{path}: {size} bytes is too large for a record")
        text = path.read_text(encoding="utf-8")
    except RecordError:
        raise
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"{path}: cannot read the file ({err})") from None
    return parse(text, where=str(path))


def named_deck_files(record: Mapping[str, Any]) -> list[str]:
    """The deck files a record names by path in its rules (a record written before records
    carried their decks: the web table wrote ``<digest>.toml``, the command line a path).

    A record never makes Cardroom read a file it names (it could name any file on the
    machine): such a record replays only with the files given explicitly (:func:`with_decks`).
    """
    rules = record.get("rules")
    if not isinstance(rules, Mapping) or rules.get("deck_files") or not isinstance(rules.get("deck"), str):
        return []
    spec = record_game(record)
    if spec is None or spec.decks is None:
        return []
    parts = [p.strip() for p in rules["deck"].split(",") if p.strip()]
    return [p for p in parts if _is_path(p)]


def _is_path(part: str) -> bool:
    """Whether a part of a ``deck`` option names a file (a project deck has a plain name, a
    deck carried in the record its digest). Only the message depends on it: rules never read
    a path, so a plain name that is no project deck is refused as an unknown deck."""
    return not part.startswith("sha256:") and (
        part.endswith(".toml") or "/" in part or "\\" in part or part.startswith("~"))


def with_decks(record: dict[str, Any], files: Sequence[str | Path], where: str = "record") -> dict[str, Any]:
    """``record`` with the deck files it names by path replaced by ``files``, given by the
    person replaying it (in the order the record names them): their texts go into the rules'
    ``deck_files``, and the record's deck digest is checked when it is replayed. A record that
    names no file is returned as it is."""
    named = named_deck_files(record)
    if not named or not files:
        return record  # it carries its decks (or plays without); or none given: replay says which
    if len(named) != len(files):
        wanted = ", ".join(repr(shorten(n, 60)) for n in named)
        raise RecordError(f"{where}: the record names {plural(len(named), 'deck file')} by path ({wanted}); "
                          f"give one --deck for each, in that order, not {len(files)}")
    game = record_game(record)
    support = None if game is None else game.decks
    assert support is not None  # named_deck_files found files: the game reads decks
    given = iter(str(f) for f in files)
    parts = [p.strip() for p in record["rules"]["deck"].split(",") if p.strip()]
    spec = ",".join(next(given) if p in named else p for p in parts)
    try:
        decks = support.read(spec, None)
    except (ValueError, OSError) as err:
        raise RecordError(f"{where}: --deck: {err}") from None
    return {**record, "rules": {**record["rules"], **decks}}


def parse(text: str, where: str = "record") -> dict[str, Any]:
    """Read a record from JSON text and check its shape; raises :class:`RecordError`."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{where}: not JSON ({err.msg} at line {err.lineno})") from None
    except RecursionError:
        raise RecordError(f"{where}: nested too deeply to be a record") from None
    except ValueError:  # Python refuses to read a number of thousands of digits
        raise RecordError(f"{where}: a number in it has thousands of digits; no record holds one") from None
    check_record(record, where)
    checked: dict[str, Any] = record
    return checked


KINDS = {str: "text", dict: "an object", int: "a whole number", list: "a list", bool: "true or false"}
"""Each JSON type in words, for messages."""
MAX_AGENT = 200  # an agent spec, as long as the web table allows a seat's
MAX_ACTION_TEXT = 64  # far above any action's text ("play 10H", "choose 3", "declare S")
MAX_RULE_KEY = 40
MAX_RULE_TEXT = 4096  # an option's text (deck_files is a list: a deck's text may be longer)


def check_record(record: Any, where: str = "record") -> None:
    """Check a record's shape once, the same way for every reader (load, parse, replay,
    verify, and through them report and the CLI): every field a reader uses is there, of its
    type, within its bounds. A
    malformed record raises :class:`RecordError` naming the field, what it holds and what
    is allowed. Whether the actions are legal and the log true is :func:`verify`'s part.
    """
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {_kind(record)}")
    if record.get("format") != FORMAT:
        raise RecordError(f"{where}: format must be {FORMAT!r}, not {shorten(repr(record.get('format')))}")
    for key, kind in (("game", str), ("rules", dict), ("seed", int), ("seats", list), ("actions", list)):
        if key not in record:
            raise RecordError(f"{where}: the field {key!r} is missing")
        _check_kind(record[key], kind, where, repr(key))
    for key, value in record["rules"].items():
        if len(key) > MAX_RULE_KEY or (isinstance(value, str) and len(value) > MAX_RULE_TEXT):
            raise RecordError(f"{where}: rules option {shorten(key, MAX_RULE_KEY)!r} is too long: an "
                              f"option's name is at most {MAX_RULE_KEY} characters, its text at most "
                              f"{MAX_RULE_TEXT}")
    if record["game"] not in games.names():
        game = shorten(record["game"], 40)
        raise RecordError(f"{where}: unknown game {game!r}; the games are {', '.join(games.names())}")
    _check_seats(record["seats"], where)
    players = len(record["seats"])
    for i, entry in enumerate(record["actions"]):
        if not (
            isinstance(entry, list) and len(entry) == 2 and is_whole(entry[0]) and isinstance(entry[1], str)
            and 0 <= entry[0] < players and len(entry[1]) <= MAX_ACTION_TEXT
        ):
            raise RecordError(
                f"{where}: action {i} must be [seat, text] with a seat from 0 to {players - 1} and "
                f"text of at most {MAX_ACTION_TEXT} characters, not {shorten(repr(entry))}"
            )
    if "log" in record:
        _check_kind(record["log"], list, where, "'log'")
        for i, event in enumerate(record["log"]):
            if not isinstance(event, dict) or not isinstance(event.get("t"), str):
                raise RecordError(f"{where}: event {i} of the log must be an object with a type 't', "
                                  f"not {shorten(repr(event))}")
    for key in ("start", "result", "deck"):
        if key in record:
            _check_kind(record[key], dict, where, repr(key))
    result = record.get("result")
    if result is not None:
        _check_kind(result.get("over"), bool, where, "'result' 'over'")
        totals = result.get("totals")
        if not isinstance(totals, list) or len(totals) != players or not all(
            is_whole(t) for t in totals
        ):
            raise RecordError(f"{where}: 'result' 'totals' must be a list of {players} whole numbers, "
                              f"one per seat, not {shorten(repr(totals))}")


def _check_seats(seats: list[Any], where: str) -> None:
    if not seats:
        raise RecordError(f"{where}: 'seats' must name every seat, and it is empty")
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise RecordError(f"{where}: seat {i} must be an object with a name and an agent, "
                              f"not {_kind(seat)} {shorten(repr(seat))}")
        try:
            name = seat.get("name")
            if not isinstance(name, str):
                raise ValueError(f"a name is text, not {_kind(name)}")
            clean_name(name)
        except ValueError as err:
            raise RecordError(f"{where}: seat {i}'s name: {err}") from None
        agent = seat.get("agent")
        if not isinstance(agent, str) or not 0 < len(agent) <= MAX_AGENT or not agent.isprintable():
            raise RecordError(f"{where}: seat {i}'s agent must be an agent's name or spec of 1 to "
                              f"{MAX_AGENT} printable characters, not {shorten(repr(agent))}")


def _check_kind(value: Any, kind: type, where: str, field: str) -> None:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        shown = "null" if value is None else f"{_kind(value)} {shorten(repr(value))}"
        raise RecordError(f"{where}: {field} must be {KINDS[kind]}, not {shown}")


def _kind(value: Any) -> str:
    """A JSON value's type in words."""
    if value is None:
        return "null"
    return KINDS.get(type(value), "a number" if isinstance(value, float) else type(value).__name__)


def rebuild(
    game: str | Rules,
    seed: int,
    actions: Sequence[Action | str],
    start: Mapping[str, Any] | None = None,
    *,
    seats: Sequence[int] | None = None,
    engine: Engine | None = None,
) -> State:
    """The game of ``game`` (a game's name, for its default rules, or the rules) dealt from
    ``seed`` (or begun as a record's ``start`` says), after ``actions``: ints, or the text
    forms a record keeps. ``seats``, if given, names the seat that took each action;
    ``engine``, the engine a front chose once (``None``: the choice read now); a record's
    hand-made ``start`` is begun by its game's spec, on the choice read now.

    A bad start, an action taken by a seat that was not to act, or one that is not legal is a
    :class:`RecordError` naming the action by its number, seat and text.

    >>> from cardroom.games import baha
    >>> state = rebuild(baha.Rules(), 7, ["pass 6P", "pass 7P"])
    >>> [(seat, state.action_to_string(action)) for seat, action in state.history]
    [(1, 'pass 6P'), (1, 'pass 7P')]
    >>> rebuild(baha.Rules(), 7, [action for _, action in state.history]).log == state.log
    True
    >>> rebuild(baha.Rules(), 7, ["pass 6P"], seats=[2])
    Traceback (most recent call last):
    ...
    cardroom.record.RecordError: action 0 ('pass 6P') is by seat 2, but seat 1 is to act
    """
    try:
        rules = make_rules(game) if isinstance(game, str) else game
        if engine is not None and not start:
            state = engine.new_game(rules, seed)
        else:
            state = start_game(rules, seed, start)
    except (RulesError, TypeError) as err:
        raise RecordError(str(err)) from None
    for i, action in enumerate(actions):
        seat = state.current_player if seats is None else seats[i]
        if state.current_player != seat:
            text = action if isinstance(action, str) else _text(state, action)
            raise RecordError(
                f"action {i} ({text!r}) is by seat {seat}, but seat {state.current_player} is to act"
            )
        try:
            state.apply(state.parse_action(action) if isinstance(action, str) else action)
        except IllegalAction as err:
            # the text is made only for the message (a long game is rebuilt often: a server's takeover)
            text = action if isinstance(action, str) else _text(state, action)
            raise RecordError(f"action {i} (seat {seat}: {text!r}) is illegal: {err}") from None
    return state


def _text(state: State, action: Action) -> str:
    """An action's text form for a message; the number itself if the game has no such action."""
    try:
        return state.action_to_string(action)
    except IllegalAction:
        return str(action)


def record_game(record: Mapping[str, Any]) -> GameSpec | None:
    """The spec of the game ``record`` names (its ``game``), or ``None`` when no registered game
    has that name: the one place a record's game is looked up by its name."""
    game = record.get("game")
    return games.get(game) if isinstance(game, str) and game in games.names() else None


def recorded_options(game: str | GameSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a game stored before some reading existed (a simulation's records, a
    web table in the database), each such reading missing given its first value: the one
    every game stored without it was played under (``stream``: the Twister). ``game``: its
    spec (or its name, looked up)."""
    spec = games.get(game) if isinstance(game, str) else game
    readings: Mapping[str, Sequence[Any]] = getattr(spec.rules, "readings", {})
    return {**{key: values[0] for key, values in readings.items() if key not in options}, **options}


def replay(record: Mapping[str, Any], where: str = "record") -> State:
    """Rebuild the game of ``record`` from its rules, seed, start and actions.

    A record written before an option that names a reading of the rules existed (the rules'
    ``readings``, e.g. BAEBAE's ``chosen_target``) is replayed under the reading its log shows:
    the default first, then each earlier one (docs/records.md, "Readings").
    """
    check_record(record, where)
    named = named_deck_files(record)
    if named:
        raise RecordError(
            f"{where}: the record names the deck file {shorten(named[0], 60)!r} by path (it was written "
            "before records carried their decks); Cardroom reads no file a record names: give the "
            "deck file itself (cardroom replay --deck FILE)")
    spec = record_game(record)
    assert spec is not None  # check_record refuses a game no one registered
    options = dict(record["rules"])
    readings: Mapping[str, Sequence[Any]] = getattr(spec.rules, "readings", {})
    missing = {key: values for key, values in readings.items() if key not in options}
    first: State | RecordError | None = None
    for values in itertools.product(*missing.values()):
        try:
            state = _replay_under(spec, record, {**options, **dict(zip(missing, values, strict=True))}, where)
        except RecordError as err:
            first = err if first is None else first
            continue
        if not missing or "log" not in record or _log_difference(state, record["log"], where) is None:
            return state
        first = state if first is None else first
    if isinstance(first, RecordError):
        raise first
    assert first is not None  # product() of the readings gives at least one reading
    return first


def _replay_under(spec: GameSpec, record: Mapping[str, Any], options: dict[str, Any], where: str) -> State:
    try:
        rules = spec.make_rules(options)
    except (ValueError, TypeError) as err:  # bad rules
        raise RecordError(f"{where}: {err}") from None
    if len(record["seats"]) != rules.players:
        raise RecordError(
            f"{where}: the rules seat {rules.players} players, but 'seats' names {len(record['seats'])}"
        )
    deck = record.get("deck")
    if deck is not None:
        if not isinstance(rules, DeckRules):
            raise RecordError(f"{where}: the record names a deck, but {rules.game} is played without one")
        have = rules.deck_record()
        if not isinstance(deck, Mapping) or deck.get("digest") != have["digest"]:
            raise RecordError(
                f"{where}: the record was played with the deck {deck!r:.120}, but {have['spec']!r} "
                f"is now {have['name']!r} ({have['digest'][:19]}...): the deck has changed"
            )
    actions = record["actions"]
    try:
        return rebuild(rules, record["seed"], [text for _, text in actions], record.get("start"),
                       seats=[seat for seat, _ in actions])
    except RecordError as err:
        raise RecordError(f"{where}: {err}") from None


def _log_difference(state: State, log: Sequence[Any], where: str) -> str | None:
    """How the replayed log differs from ``log`` (a record's), or ``None`` if it does not."""
    # A JSON round trip makes the replayed log comparable to one read from a file.
    replayed = json.loads(json.dumps(state.log))
    if replayed == log:
        return None
    for i, (mine, theirs) in enumerate(zip(replayed, log, strict=False)):
        if mine != theirs:
            return f"{where}: event {i} differs: replay gives {shorten(repr(mine), 300)}, record has " \
                   f"{shorten(repr(theirs), 300)}"
    return f"{where}: the replay has {plural(len(replayed), 'event')}, the record {len(log)}"


def _difference(state: State, record: Mapping[str, Any], where: str) -> str | None:
    """How the game replayed differs from the log and the result ``record`` carries (each only
    if it carries it), or ``None``."""
    log = record.get("log")
    if log is not None:
        found = _log_difference(state, log, where)
        if found is not None:
            return found
    expected = json.loads(json.dumps(result_of(state)))
    if "result" in record and record["result"] != expected:
        return f"{where}: result differs: replay gives {expected}, record has {record['result']}"
    return None


def replay_checked(record: Mapping[str, Any], where: str = "record") -> State:
    """:func:`replay`, then check the log and the result ``record`` carries against the game
    replayed: what a reader shows of a record (its winner, its events) is what its actions
    give, never what an edited or cut file says. A difference is a :class:`RecordError`."""
    state = replay(record, where)
    found = _difference(state, record, where)
    if found is not None:
        raise RecordError(f"{found}; the record does not replay to what it says (edited or cut?)")
    return state


def verify(record: Mapping[str, Any], where: str = "record") -> Verdict:
    """Whether ``record`` replays to exactly the log and result it carries (it must carry a log)."""
    try:
        state = replay(record, where)
    except RecordError as err:
        return Verdict(False, str(err))
    log = record.get("log")
    if log is None:
        return Verdict(False, f"{where}: the record has no log to compare")
    found = _difference(state, record, where)
    if found is not None:
        return Verdict(False, found)
    actions, events = plural(len(record["actions"]), "action"), plural(len(log), "event")
    return Verdict(True, f"{where}: replays exactly ({actions}, {events})")
