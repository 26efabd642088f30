"""The contract every game of Cardroom keeps: the State protocol, errors, events, chance.

A game is a frozen ``Rules`` object (every option named and validated) that makes ``State``
objects. A state is driven only through its small method set, the same for every front:

>>> from cardroom.games import baha
>>> state = baha.Rules(players=4).new_game(seed=7)
>>> state.current_player
1
>>> events = state.apply(state.legal_actions()[0])
>>> events[0]["t"]
'pass_pick'

Actions are small ints in a fixed space per game; text forms (``"play 9P"``) are for people
and records. Chance is never an action: it comes from the state's seed and is written to the
log. An illegal action raises :class:`IllegalAction` and changes nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Protocol,
    Self,
    SupportsIndex,
    TypeAlias,
    TypeGuard,
    runtime_checkable,
)

if TYPE_CHECKING:
    from cardroom.games import GameSpec

__all__ = [
    "NamedOptions",
    "Action",
    "ActionInfo",
    "DeckRules",
    "Event",
    "QuietPlayout",
    "NativeSearch",
    "NativeSearchRoot",
    "WinReturns",
    "CardroomInputError",
    "IllegalAction",
    "RulesError",
    "Rules",
    "State",
    "chance_rng",
    "SplitMix",
    "STREAMS",
    "SPLITMIX",
    "TWISTER",
    "key_hash",
    "seeded_rng",
    "stream_of",
    "check_stream",
    "check_seed",
    "check_whole",
    "is_whole",
    "whole_index",
    "check_totals",
    "parse_option_value",
]

Action: TypeAlias = int
"""An action: a small int in the game's fixed action space."""

Event: TypeAlias = dict[str, Any]
"""An event: a JSON-ready dict whose ``t`` names its type. Events are never mutated."""


class CardroomInputError(ValueError):
    """Input Cardroom refuses: bad rules, a deck's mistake, a record, an agent's spec, an option,
    an illegal action... The message says what was wrong and what is allowed. Every refusal is
    one (each keeps its own name beneath), so a front catches this one class and tells it in
    words, never a traceback.

    >>> from cardroom.games import make_rules
    >>> try:
    ...     make_rules("baha", {"target": "many"})
    ... except CardroomInputError as err:
    ...     print(type(err).__name__, "-", err)
    RulesError - option target takes a whole number, not 'many'
    """


class IllegalAction(CardroomInputError):
    """An action that may not be taken now. The message says what was wrong and what is allowed.

    The state is unchanged when this is raised.
    """


class RulesError(CardroomInputError):
    """A rules option is unknown or out of range; the message names it and what is allowed."""


@dataclass(frozen=True, slots=True)
class ActionInfo:
    """An action decoded, so that no front or bot reads action text: its ``kind`` (a verb of
    the game: ``"play"``, ``"pass"``, ``"draw"``, ``"declare"``, ``"target"``...) and the
    arguments that kind takes. ``str(info)`` is the action's text form.

    >>> from cardroom.games import baha
    >>> state = baha.Rules().new_game(seed=7)
    >>> info = state.decode(state.legal_actions()[0])
    >>> info.kind, info.card, str(info)
    ('pass', '6P', 'pass 6P')
    """

    kind: str
    card: str | None = None
    """The card the action names (text form), for plays, passes and selections."""
    suit: str | None = None
    """The suit a declaration names (its letter)."""
    seat: int | None = None
    """The player an action chooses (a target)."""
    option: int | None = None
    """Which of a card's options is chosen, from 1."""

    def __str__(self) -> str:
        arg = next((a for a in (self.card, self.suit, self.seat, self.option) if a is not None), None)
        return self.kind if arg is None else f"{self.kind} {arg}"


@runtime_checkable
class State(Protocol):
    """What every game state offers to bots, fronts, records and learning environments."""

    @property
    def rules(self) -> Rules:
        """The rules the game is played by."""

    @property
    def seed(self) -> int:
        """The seed every chance outcome of the game comes from."""

    @property
    def winner(self) -> int | None:
        """The seat that won, once the game is over and if one seat alone did."""

    @property
    def current_player(self) -> int | None:
        """Seat to act, or ``None`` when the game is over."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def scores(self) -> list[int]:
        """Running totals per seat."""

    @property
    def log(self) -> list[Event]:
        """Every event so far, omniscient."""

    @property
    def history(self) -> list[tuple[int, Action]]:
        """``(seat, action)`` of every action taken so far, in order: what a record keeps."""

    @property
    def origin(self) -> dict[str, Any] | None:
        """How a hand-made game began (a record's ``start``), or ``None`` for one dealt from
        its seed."""

    def legal_actions(self) -> list[Action]:
        """The only actions the current seat may take now (empty when the game is over)."""

    def apply(self, action: Action) -> list[Event]:
        """Take ``action`` for the current seat; returns the events it caused."""

    def clone(self) -> State:
        """An independent copy."""

    def view(self, seat: int) -> dict[str, Any]:
        """A JSON-ready dict of exactly what ``seat`` may know now."""

    def view_log(self, seat: int) -> list[Event]:
        """The log as ``seat`` saw it: other seats' secrets removed."""

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state agreeing with all ``seat`` knows, the hidden cards dealt again."""

    def action_to_string(self, action: Action) -> str:
        """Text form of an action, e.g. ``"play 9P"``."""

    def parse_action(self, text: str) -> Action:
        """The action a text form names; raises :class:`IllegalAction` if there is none."""

    def returns(self) -> list[float]:
        """Per-seat result for learning (zero-sum)."""

    @property
    def deal_number(self) -> int:
        """Which deal (a Baha hand, a BAEBAE round) is being played, from 1."""

    def public_action(self, action: Action, seat: int) -> Action:
        """``action`` as ``seat`` would see it taken: the action, or -1 if ``seat`` cannot
        tell which of the legal actions it was (another seat's pass pick, say)."""

    def public_view(self) -> dict[str, Any]:
        """What anyone watching may know now: a seat's view without anything of a seat's own
        (``seat`` null, no hand, no legal actions)."""

    def visible_event(self, event: Event, seat: int) -> Event:
        """``event`` as ``seat`` saw it (``seat`` < 0: a spectator, who sees no hand)."""

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` may not be taken now, in the engine's own words (what
        :meth:`apply` would raise), or ``None`` if it may."""

    def decode(self, action: Action) -> ActionInfo:
        """``action`` as a value: its kind and arguments; raises :class:`IllegalAction` for
        a number outside the game's action space."""


@runtime_checkable
class QuietPlayout(Protocol):
    """A state that can finish its deal quietly (no events), for a search's throwaway worlds:
    the same moves as a loop of ``legal_actions()`` and ``apply()`` with the same numbers."""

    def random_playout(self, random: Callable[[], float]) -> None:
        """Finish the current deal with random legal moves; the next deal is not dealt."""


@runtime_checkable
class NativeSearch(Protocol):
    """A state whose game runs the ``ismcts`` agent's search natively (``agents/ismcts.py``):
    the move for ``seat`` and the iterations run, for the agent's options (``seed``: the
    search's own stream; ``threads``: root-parallel trees sharing ``iterations``)."""

    def native_ismcts(
        self, seat: int, *, iterations: int, seconds: float | None, exploration: float, rollout: str,
        epsilon: float, max_depth: int, seed: int, threads: int, root_prior: list[float] | None = None,
    ) -> tuple[Action, int]:
        """Search from this position for ``seat`` (``root_prior``: a prior over the seat's moves,
        by action, that the root's choice follows by PUCT)."""


@runtime_checkable
class NativeSearchRoot(Protocol):
    """A :class:`NativeSearch` that also gives the search's root: per action, its visits and
    the summed returns of the searching seat (the ``ismcts`` agent's :meth:`action_values`)."""

    def native_ismcts_root(
        self, seat: int, *, iterations: int, seconds: float | None, exploration: float, rollout: str,
        epsilon: float, max_depth: int, seed: int, threads: int, root_prior: list[float] | None = None,
    ) -> tuple[Action, int, list[tuple[int, int, float]]]:
        """Search from this position for ``seat`` (``root_prior`` as :class:`NativeSearch`'s); the
        move, the iterations, the root."""


@runtime_checkable
class WinReturns(Protocol):
    """A state that can score a position by each seat's share of the game's win (the ``ismcts``
    agent's ``reward=win``): zero-sum like ``returns()``, exact once the game is over, a smoothed
    stand-in for the chance of winning before (``temperature``, in the game's points)."""

    def win_returns(self, temperature: float) -> list[float]:
        """Each seat's share of the win, less 1/n."""


@runtime_checkable
class NativeInference(Protocol):
    """A :class:`NativeSearch` whose search can weigh its worlds by the other seats' observed
    play (the ``ismcts`` agent's ``infer`` option): ``native_ismcts`` and ``native_ismcts_root``
    take ``infer`` (worlds per tree) and ``infer_epsilon`` (the opponent model's noise), and
    this gives the model's chance of each observed play on one world."""

    def native_infer_chances(self, seat: int, world: Any, epsilon: float) -> list[tuple[int, int, float]]:
        """Per other seat's play judged, ``(player, card, chance)`` on ``world``."""


@runtime_checkable
class DeckRules(Protocol):
    """Rules played with a deck of designed cards, which records and reports name."""

    def deck_record(self) -> dict[str, Any]:
        """``{"name", "digest", "spec"}``: the deck's name, its content hash, the deck option."""

    @property
    def cards(self) -> Sequence[Any]:
        """The deck's card designs (what a front shows of each card)."""


class Rules(Protocol):
    """A game's frozen, validated options; a factory of states."""

    game: ClassVar[str]
    """The game's name, e.g. ``"baha"``."""

    @property
    def spec(self) -> GameSpec:
        """The game's spec in the registry (:class:`cardroom.games.GameRules` gives it): what
        code holding the rules knows of their game, without looking it up by name."""

    @property
    def players(self) -> int:
        """How many seats the game has."""

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, JSON-ready."""

    def new_game(self, seed: int) -> State:
        """A new game whose every chance outcome comes from ``seed``."""


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number as a person means one: an ``int`` that is not a
    ``bool`` (``True`` is an ``int`` to Python, and is refused in words rather than read as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole_index(value: object) -> int | None:
    """``value`` as a whole number if it stands for one: an ``int`` or anything with
    ``__index__`` (a numpy integer), never a ``bool``; else ``None``."""
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_whole(
    value: object,
    name: str,
    low: int | None = None,
    high: int | None = None,
    *,
    error: type[ValueError] = RulesError,
    note: str = "",
    shown: Callable[[object], str] = repr,
) -> int:
    """``value`` if it is a whole number (:func:`is_whole`) from ``low`` to ``high`` (either end
    may be open), else ``error`` saying so in the one wording every refusal of a number uses:
    ``NAME must be a whole number from LOW to HIGH, not VALUE``, with ``note`` after the bounds
    and the value as ``shown`` quotes it.

    >>> check_whole(4, "players", 2, 6)
    4
    >>> check_whole(True, "players", 2, 6)
    Traceback (most recent call last):
    ...
    cardroom.engine.RulesError: players must be a whole number from 2 to 6, not True
    """
    if is_whole(value) and (low is None or value >= low) and (high is None or value <= high):
        return value
    bounds = ("" if low is None else f" from {low}") + ("" if high is None else f" to {high}")
    raise error(f"{name} must be a whole number{bounds}{note}, not {shown(value)}")


def check_seed(seed: object) -> int:
    """A game's seed is a whole number (returned); anything else is a :class:`RulesError`."""
    return check_whole(seed, "seed")


def check_totals(totals: Sequence[int], players: int, least: int | None = None) -> list[int]:
    """Running totals to start a game from: one whole number per seat (at least ``least``)."""
    values = list(totals)
    if len(values) != players or not all(
        is_whole(t) and (least is None or t >= least) for t in values
    ):
        bound = "" if least is None else f" of at least {least}"
        raise RulesError(f"totals must be {players} whole numbers{bound}, not {values!r}")
    return values


TWISTER = "twister"
"""The first chance stream: BLAKE2b of the event's key seeds Python's Mersenne Twister."""
SPLITMIX = "splitmix"
"""The portable chance stream: a cheap hash of the event's key starts a SplitMix64 sequence."""
STREAMS = (SPLITMIX, TWISTER)
"""The chance streams a game can be played on, the default (new games') first
(docs/records.md, "Chance streams")."""

_MASK64 = (1 << 64) - 1
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3


def key_hash(text: str) -> int:
    """FNV-1a (64 bits) of ``text``'s UTF-8 bytes: the split stream's starting word."""
    h = _FNV_OFFSET
    for byte in text.encode():
        h = ((h ^ byte) * _FNV_PRIME) & _MASK64
    return h


class SplitMix(random.Random):
    """The portable stream (:data:`SPLITMIX`): SplitMix64 words from a 64-bit start, read as
    ``random.Random``'s methods read bits, every method spelt out here so that another
    implementation (native/cardroom/chance.hpp) draws the same numbers:

    - a word: ``state += 0x9E3779B97F4A7C15`` (mod 2**64), then the SplitMix64 finalizer of it;
    - ``getrandbits(k)``, k <= 64: the top k bits of one word; a longer k takes words least
      significant first, the last one's top bits;
    - ``randbelow(n)`` (``randrange(n)``): ``getrandbits(n.bit_length())`` until below n;
    - ``random()``: the top 53 bits of a word times 2**-53;
    - ``shuffle(x)``: for i from len(x) - 1 down to 1, swap x[i] and x[randbelow(i + 1)];
    - ``sample(pool, k)``: k times, j = randbelow(n - i) picks pool[j], and the pool's last
      unpicked item (place n - i - 1) takes place j;
    - ``choice(seq)``: ``seq[randbelow(len(seq))]``.
    """

    def __init__(self, start: int = 0) -> None:
        self._word = start & _MASK64
        super().__init__(start)

    def seed(self, a: object = None, version: int = 2) -> None:  # random.Random's __init__ calls it
        if isinstance(a, int):
            self._word = a & _MASK64

    def getstate(self) -> Any:
        return self._word

    def setstate(self, state: Any) -> None:
        self._word = int(state) & _MASK64

    def _next(self) -> int:
        self._word = word = (self._word + 0x9E3779B97F4A7C15) & _MASK64
        word = ((word ^ (word >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        word = ((word ^ (word >> 27)) * 0x94D049BB133111EB) & _MASK64
        return word ^ (word >> 31)

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 64:
            return self._next() >> (64 - k) if k else 0
        out, shift = 0, 0
        while k > 64:
            out |= self._next() << shift
            shift += 64
            k -= 64
        return out | (self._next() >> (64 - k)) << shift

    def _randbelow(self, n: int) -> int:
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle(self, x: Any) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def choice(self, seq: Any) -> Any:
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def sample(self, population: Any, k: int, *, counts: Any = None) -> list[Any]:
        if counts is not None:
            raise TypeError("the split stream's sample takes no counts")
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        out = []
        for i in range(k):
            j = self._randbelow(n - i)
            out.append(pool[j])
            pool[j] = pool[n - i - 1]
        return out


def chance_rng(seed: int, *keys: object, stream: str = TWISTER) -> random.Random:
    """A generator for one chance event, derived from the game's seed and the event's keys.

    Deriving each shuffle from ``(seed, keys)`` rather than one running generator keeps a
    state's chance in a single int, so ``clone()`` copies no generator state. The event's key
    is the text ``"seed:key:..."``; ``stream`` (the rules' ``stream``) says how it becomes
    numbers: :data:`TWISTER` seeds ``random.Random`` with the first 8 bytes of its BLAKE2b
    digest (big-endian), :data:`SPLITMIX` starts :class:`SplitMix` at its :func:`key_hash`.
    Every game's chance goes through here (and native/cardroom/chance.hpp's ``chance_rng``).
    """
    text = ":".join(str(k) for k in (seed, *keys))
    if stream == SPLITMIX:
        return SplitMix(key_hash(text))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def seeded_rng(seed: int | None, stream: str = TWISTER) -> random.Random:
    """An agent's own generator for ``seed`` on a game of ``stream``: ``random.Random(seed)``
    on the Twister stream, :class:`SplitMix` at ``key_hash(str(seed))`` on the split one (a
    seed of ``None`` is unrepeatable either way)."""
    if seed is None or stream != SPLITMIX:
        return random.Random(seed)
    return SplitMix(key_hash(str(seed)))


def stream_of(state: object) -> str:
    """The chance stream a state's rules name (:data:`TWISTER` for rules without one)."""
    return str(getattr(getattr(state, "rules", None), "stream", TWISTER))


def check_stream(stream: object) -> None:
    """Refuse a ``stream`` option that names no stream."""
    if stream not in STREAMS:
        raise RulesError(f"stream must be one of {', '.join(STREAMS)}, not {stream!r}")


_OPTION_NAMES: dict[type, tuple[str, ...]] = {}
"""Each rules class's option names, read once from its dataclass fields."""


class NamedOptions:
    """Options as data, for a game's frozen dataclass of rules: their names, a JSON-ready
    dict, and reading them back from a mapping whose values may be text (a command line)."""

    title: ClassVar[str] = "game"
    text_kinds: ClassVar[Mapping[str, Any]] = {}
    """How to read text for options whose default is ``None``: a value of the option's kind."""
    readings: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    """Options that name a reading of the rules which changed while records were kept: for each,
    the values a record written before the option existed may have been played under (in the
    order tried; ``stream``'s one value is the Twister, on which every such record was played).
    :func:`cardroom.record.replay` replays such a record under the reading its log shows."""

    @classmethod
    def option_names(cls) -> list[str]:
        """The names of every option."""
        names = _OPTION_NAMES.get(cls)
        if names is None:
            names = _OPTION_NAMES[cls] = tuple(
                f.name for f in dataclasses.fields(cls) if f.init  # type: ignore[arg-type]
            )
        return list(names)

    def to_dict(self) -> dict[str, Any]:
        """Every option with its (resolved) value, JSON-ready."""
        return {name: getattr(self, name) for name in _OPTION_NAMES.get(type(self)) or self.option_names()}

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> Self:
        """Rules from a mapping of option names to values; values may be text (``"true"``)."""
        names = cls.option_names()
        unknown = sorted(set(options) - set(names))
        if unknown:
            raise RulesError(
                f"unknown {cls.title} option {unknown[0]!r}; the options are {', '.join(names)}"
            )
        kinds = {f.name: f.default for f in dataclasses.fields(cls) if f.init}  # type: ignore[arg-type]
        kinds.update(cls.text_kinds)
        values = {
            name: parse_option_value(name, value, kinds[name]) if isinstance(value, str) else value
            for name, value in options.items()
        }
        return cls(**values)


def parse_option_value(name: str, text: str, default: Any) -> Any:
    """Read a ``KEY=VALUE`` option value as the type of its default (bool, int or str)."""
    if isinstance(default, bool) or default is None and text.strip().lower() in _BOOLS:
        value = _BOOLS.get(text.strip().lower())
        if value is None:
            raise RulesError(f"option {name} takes true or false, not {text!r}")
        return value
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise RulesError(f"option {name} takes a whole number, not {text!r}") from None
    return text


_BOOLS: Mapping[str, bool] = {
    "true": True, "yes": True, "on": True, "1": True,
    "false": False, "no": False, "off": False, "0": False,
}
