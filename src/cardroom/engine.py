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
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeAlias, runtime_checkable

__all__ = [
    "NamedOptions",
    "Action",
    "ActionInfo",
    "DeckRules",
    "Event",
    "QuietPlayout",
    "NativeSearch",
    "IllegalAction",
    "RulesError",
    "Rules",
    "State",
    "chance_rng",
    "check_seed",
    "check_totals",
    "parse_option_value",
]

Action: TypeAlias = int
"""An action: a small int in the game's fixed action space."""

Event: TypeAlias = dict[str, Any]
"""An event: a JSON-ready dict whose ``t`` names its type. Events are never mutated."""


class IllegalAction(ValueError):
    """An action that may not be taken now. The message says what was wrong and what is allowed.

    The state is unchanged when this is raised.
    """


class RulesError(ValueError):
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
    ('pass', '10P', 'pass 10P')
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
    def players(self) -> int:
        """How many seats the game has."""

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, JSON-ready."""

    def new_game(self, seed: int) -> State:
        """A new game whose every chance outcome comes from ``seed``."""


def check_seed(seed: object) -> int:
    """A game's seed is a whole number (returned); anything else is a :class:`RulesError`."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"seed must be a whole number, not {seed!r}")
    return seed


def check_totals(totals: Sequence[int], players: int, least: int | None = None) -> list[int]:
    """Running totals to start a game from: one whole number per seat (at least ``least``)."""
    values = list(totals)
    if len(values) != players or not all(
        isinstance(t, int) and not isinstance(t, bool) and (least is None or t >= least) for t in values
    ):
        bound = "" if least is None else f" of at least {least}"
        raise RulesError(f"totals must be {players} whole numbers{bound}, not {values!r}")
    return values


def chance_rng(seed: int, *keys: object) -> random.Random:
    """A generator for one chance event, derived from the game's seed and the event's keys.

    Deriving each shuffle from ``(seed, keys)`` rather than one running generator keeps a
    state's chance in a single int, so ``clone()`` copies no generator state.
    """
    text = ":".join(str(k) for k in (seed, *keys))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


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
    the values a record written before the option existed may have been played under, the
    default first. :func:`cardroom.record.replay` replays such a record under the reading its
    log shows."""

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
