"""The native face every game shares: the agents a native batch plays, the checks of a batch's
arguments, and :class:`NativeState`, the part of the State protocol a native state answers
alike whatever its game.

A game's native state (``games/<game>/native.py``) is its core type (the per-action calls, in
C++) with :class:`NativeState` beside it; the game gives what differs: ``reference()`` (the
position on the Python engine, the one source of truth for what a seat may know and the words
of a refusal), ``start(rules, seed)``, its phases (``PHASES``, in the core's order), its log
filter (``VISIBLE``), the prefix of its core's functions (``CORE``: ``<game>_load``, the load of
a whole position, and ``<game>_infer_chances``, the search's opponent model), and the Python
face's fields a position made native copies from the reference (``FACE``).

>>> POLICIES
('random', 'heuristic')
>>> heuristic_seats("a native batch", ("heuristic",), 2)
[True, True]
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypedDict, TypeVar

from cardroom.engine import Action, ActionInfo, Event, IllegalAction, RulesError, is_whole, whole_index
from cardroom.native import core

__all__ = [
    "POLICIES", "BatchFound", "BatchGames", "Batches", "NativeBatch", "NativeState", "check_bots",
    "check_seeds", "heuristic_seats", "lineup_seats", "per_rules", "search_options", "to_native",
    "unpickle_native",
]

POLICIES = ("random", "heuristic")
"""The agents a native batch plays, every game's: simulate's ``random`` and ``heuristic``, seeded
as it seeds them (and as the Gymnasium env seeds ``cardroom.agents.make``)."""

_Rules = TypeVar("_Rules")
_Made = TypeVar("_Made")

SEED_LIMIT = 2**62
"""A native batch's seeds are within this of zero (the core keeps them in 64 bits)."""


def check_seeds(what: str, first_seed: int, last_seed: int, games: int, max_actions: int) -> None:
    """Refuse seeds beyond the native engine's 64 bits (``what``: the argument, in words) and
    counts below their least."""
    if not -SEED_LIMIT <= first_seed <= last_seed <= SEED_LIMIT:
        raise RulesError(f"{what} must be within 2**62 of zero for the native engine, not {first_seed}")
    if games < 0 or max_actions < 1:
        raise RulesError(
            f"games must be a whole number from 0 and max_actions from 1, not {games}, {max_actions}"
        )


def heuristic_seats(batch: str, agents: Sequence[str], players: int) -> list[bool]:
    """``agents`` (one of :data:`POLICIES` for every seat, or one a seat) as one flag a seat:
    whether the seat plays the heuristic. ``batch`` names the batch in a refusal."""
    seats = list(agents) * players if len(agents) == 1 else list(agents)
    if len(seats) != players or any(a not in POLICIES for a in seats):
        raise RulesError(
            f"{batch} plays {' or '.join(POLICIES)} at each of the {players} seats "
            f"(one name for all, or one a seat), not {list(agents)}"
        )
    return [a == "heuristic" for a in seats]


def lineup_seats(batch: str, seeds: Sequence[int], lineups: Sequence[Sequence[str]], players: int,
                 max_actions: int) -> list[list[bool]]:
    """A table batch's arguments checked (one line-up a seed, one of :data:`POLICIES` a seat, the
    seeds within the core's bits): per game, whether each seat plays the heuristic."""
    if len(seeds) != len(lineups):
        raise RulesError(f"one line-up a game: {len(seeds)} seeds, {len(lineups)} line-ups")
    check_seeds("every seed", min(seeds, default=0), max(seeds, default=0), len(seeds), max_actions)
    for lineup in lineups:
        if len(lineup) != players or any(a not in POLICIES for a in lineup):
            raise RulesError(
                f"{batch} plays {' or '.join(POLICIES)} at each of the {players} seats, not {list(lineup)}"
            )
    return [[a == "heuristic" for a in lineup] for lineup in lineups]


def check_bots(batch: str, bots: Sequence[str | None]) -> list[bool]:
    """A vector batch's bots (one of :data:`POLICIES` a seat, ``None`` for a learner's seat) as one
    flag a seat: whether it plays the heuristic."""
    if any(bot is not None and bot not in POLICIES for bot in bots):
        raise ValueError(f"{batch} plays {' or '.join(POLICIES)} bots, not {list(bots)}")
    return [bot == "heuristic" for bot in bots]


def per_rules(make: Callable[[_Rules], _Made]) -> Callable[[_Rules], _Made]:
    """``make(rules)`` made once per rules object (a game's ``core_rules``: the rules as one object
    of the core), looked up by the object's identity: every new game asks, and a lookup by ``id``
    costs less than half of an ``lru_cache``'s, which hashes the rules. The rules are held with
    what was made of them, so that their ``id`` stays theirs; at most 64 are kept."""
    made: dict[int, tuple[_Rules, _Made]] = {}

    def once(rules: _Rules) -> _Made:
        found = made.get(id(rules))
        if found is None:
            if len(made) >= 64:
                made.clear()
            found = made[id(rules)] = (rules, make(rules))
        return found[1]

    return once


class BatchFound(TypedDict):
    """What a game's core batch returns (``native/cardroom/core_type.hpp``'s ``register_batch``,
    the lists the game's core makes), one entry a game: the keys every game's has (a game's own
    ``BatchFound`` adds its own); see :class:`BatchGames`."""

    totals: list[list[int]]
    winners: list[int]
    actions: list[int]
    extras: list[dict[str, int]]
    deal_points: list[list[list[int]]]


class BatchGames:
    """Whole games played by the native engine in one call (no Python in the loop), what every
    game's batch gives per game: its totals, its first winner (-1 when the action guard stopped
    it), its actions, the spec's ``result_extras`` and the points of every scored deal
    (``deal_points``, one list a seat). Game ``i`` has seed ``first_seed + i`` and seat ``s`` the
    agent ``cardroom simulate`` gives it (seeded ``seed * 1000 + s``), so these are the very
    games :func:`cardroom.sim.tournament.run_games` plays with that lineup. A game's own class
    adds its own lists."""

    __slots__ = ("players", "totals", "winners", "actions", "extras", "deal_points")

    def __init__(self, players: int, found: BatchFound) -> None:
        # the core made the lists, fresh ones, in one pass
        self.players = players
        self.totals: list[list[int]] = found["totals"]
        self.winners: list[int] = found["winners"]
        self.actions: list[int] = found["actions"]
        self.extras: list[dict[str, int]] = found["extras"]
        self.deal_points: list[list[list[int]]] = found["deal_points"]


class Batches:
    """A game's native batches (whole games with no Python in the loop), every game's alike,
    driven by a small descriptor of the game: ``title`` names its batch in a refusal;
    ``core_rules(rules)`` is the rules as one object of the core, which its functions take
    whole; ``games`` names the core's batch function (``core_rules, first_seed, games,
    max_actions, exact, heuristic``); ``result(rules, found)`` makes the game's
    ``BatchGames``; ``tables`` names the game's ``native_tables`` module, whose ``TABLES``
    (:class:`cardroom.native.tables.Tables`) plays a table batch (imported when called: it needs
    pyarrow); ``ready(rules)`` refuses rules
    the core cannot play, in words. Its methods are the game's ``agent_games``,
    ``table_games``, ``random_games`` and ``heuristic_games``."""

    def __init__(
        self, title: str, core_rules: Callable[[Any], Any], games: str,
        result: Callable[[Any, dict[str, Any]], Any],
        tables: str,
        ready: Callable[[Any], None] | None = None,
    ) -> None:
        self.title, self.core_rules, self.games = title, core_rules, games
        self.result, self.tables, self.ready = result, tables, ready

    def agent_games(
        self, rules: Any, games: int, first_seed: int = 0, agents: Sequence[str] = ("random",),
        max_actions: int = 200_000, *, exact: bool = True,
    ) -> Any:
        """Play ``games`` games of ``rules`` natively (the GIL released) between ``agents``: one
        of :data:`POLICIES` for every seat, or one a seat. Game ``i`` has seed ``first_seed + i``
        and seat ``s`` the agent ``cardroom simulate`` gives it (seeded ``seed * 1000 + s``): the
        very games :func:`cardroom.sim.tournament.run_games` plays with that lineup.

        ``exact=False`` (random agents only) keeps the deals but lets every seat choose from one
        fast stream per game (SplitMix64) instead of simulate's agents (a Mersenne Twister seeded
        per seat): uniform play-outs at a fraction of the cost, no longer the games ``run_games``
        plays."""
        check_seeds("first_seed", first_seed, first_seed + max(games, 0), games, max_actions)
        heuristic = heuristic_seats(self.title, agents, rules.players)
        if not exact and any(heuristic):
            raise RulesError("exact=False plays the fast uniform stream: random agents only")
        if self.ready is not None:
            self.ready(rules)
        found = getattr(core(), self.games)(
            self.core_rules(rules), first_seed=first_seed, games=games, max_actions=max_actions, exact=exact,
            heuristic=heuristic,
        )
        return self.result(rules, found)

    def table_games(
        self, rules: Any, seeds: Sequence[int], lineups: Sequence[Sequence[str]], max_actions: int = 200_000,
    ) -> Any:
        """Play game ``i`` of seed ``seeds[i]`` natively between ``lineups[i]`` (one of
        :data:`POLICIES` a seat, seeded as simulate seeds them), recording every fact of its
        results tables (the game's ``native_tables``; needs pyarrow): the games
        :func:`cardroom.sim.results.simulate_to` plays, and their rows."""
        seats = lineup_seats(self.title, seeds, lineups, rules.players, max_actions)
        if self.ready is not None:
            self.ready(rules)
        found: Any = importlib.import_module(self.tables).TABLES.table_games(
            rules, self.core_rules(rules), seeds, seats, max_actions)
        return found

    def random_games(
        self, rules: Any, games: int, first_seed: int = 0, max_actions: int = 200_000, *, exact: bool = True,
    ) -> Any:
        """:meth:`agent_games` between random agents (``exact=False``: the fast uniform stream)."""
        return self.agent_games(rules, games, first_seed, ("random",), max_actions, exact=exact)

    def heuristic_games(self, rules: Any, games: int, first_seed: int = 0, max_actions: int = 200_000) -> Any:
        """:meth:`agent_games` between heuristic agents: the games ``run_games`` plays with a
        lineup of ``heuristic``."""
        return self.agent_games(rules, games, first_seed, ("heuristic",), max_actions)


def search_options(
    *, iterations: int, seconds: float | None, exploration: float, rollout: str, epsilon: float,
    max_depth: int, seed: int, threads: int, root_prior: list[float] | None = None, reward: str = "points",
    win_temperature: float = 8.0, horizon: str = "round", infer: int = 0, infer_epsilon: float = 0.25,
    infer_pool: str = "search", sight: int = 0,
) -> Any:
    """The ``ismcts`` agent's options as the one object every game's native search takes (the
    core's ``SearchOptions``, ``native/cardroom/ismcts_options.hpp``, which refuses a value out
    of range in words): ``rollout`` ``heuristic`` or ``random``; ``reward`` ``points`` or ``win``
    (each seat's share of the win at ``win_temperature``); ``horizon`` ``round`` or ``game``;
    ``infer`` worlds per tree weighed by the other seats' plays, one pool a search
    (``infer_pool="search"``) or a new one each iteration (``"iteration"``)."""
    return core().SearchOptions(
        iterations=iterations, seconds=seconds or 0.0, exploration=exploration,
        heuristic=rollout == "heuristic", epsilon=epsilon, max_depth=max_depth, seed=seed % 2**64,
        threads=threads, root_prior=root_prior or [],
        infer=infer, infer_epsilon=infer_epsilon, infer_fresh=infer_pool == "iteration", win=reward == "win",
        win_temperature=win_temperature, whole_game=horizon == "game", sight=sight,
    )


class NativeState:
    """What a game's native state answers alike whatever its game (see the module's docstring):
    refusals and the views by its reference position, determinization through it, pickling as
    it, and the seat checks of the native search. No slots of its own: every field is the core
    type's."""

    __slots__ = ()

    PHASES: ClassVar[tuple[Any, ...]]
    """The game's phases, in the order of the core's ``phase_code``."""
    VISIBLE: ClassVar[Callable[[Event, int], Event]]
    """The game's log filter: an event as a seat may see it."""
    CORE: ClassVar[str]
    """The prefix of the core's functions of the game: ``CORE + "_load"`` loads every field the
    core holds from a reference position, each read by name; ``CORE + "_infer_chances"`` is the
    search's opponent model (:meth:`native_infer_chances`)."""
    FACE: ClassVar[tuple[str, ...]]
    """The Python face's fields of the core type (``rules``, ``seed``...), copied from the
    reference by :meth:`_from_reference`."""

    n: int
    log: list[Event]
    phase_code: int
    current_player: int | None  # the State protocol's names of the core type's fields
    is_over: bool
    scores: list[int]
    deal_number: int

    if TYPE_CHECKING:  # the core type's and the game's (not here: they would hide the core's)
        def clone(self) -> Self: ...
        def reference(self) -> Any: ...
        def legal_actions(self) -> list[Action]: ...
        def apply(self, action: Action) -> list[Event]: ...
        def _search(self, seat: int, options: Any) -> tuple[Action, int, list[tuple[int, int, float]]]: ...

    @property
    def phase(self) -> Any:
        return self.PHASES[self.phase_code]

    def _from_reference(self, ref: Any) -> Self:
        """The position ``ref`` (on the Python engine) made native, on a clone of this state."""
        world = self.clone()
        getattr(core(), self.CORE + "_load")(world, ref)  # every field the core holds, by name (the table's)
        for name in self.FACE:
            setattr(world, name, getattr(ref, name))
        return world

    def _apply_other(self, action: object) -> list[Event]:
        """What ``apply`` does with anything but a legal int: an int-like action (not a bool) is
        taken as that int; the rest is refused with the Python engine's words, nothing changed."""
        act = whole_index(action)  # True is not action 1
        if act is None:
            reason = self.reference().illegal_reason(action)
            raise IllegalAction(reason or f"{action!r} is not an action")
        if type(act) is int and act in self.legal_actions():
            return self.apply(act)
        raise IllegalAction(self.reference().illegal_reason(act) or f"{act} may not be taken now")

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the Python position (a search bot's worker makes it native again).
        return unpickle_native, (type(self), self.reference())

    def determinize(self, seat: int, rng: random.Random) -> Any:
        """As the Python state's ``determinize`` (the reference's, so the same world for the same
        ``rng``), the world on the native engine."""
        return self._from_reference(self.reference().determinize(seat, rng))

    def native_ismcts(
        self, seat: int, *, iterations: int, seconds: float | None, exploration: float, rollout: str,
        epsilon: float, max_depth: int, seed: int, threads: int, root_prior: list[float] | None = None,
        reward: str = "points", win_temperature: float = 8.0, horizon: str = "round",
        infer: int = 0, infer_epsilon: float = 0.25, infer_pool: str = "search",
    ) -> tuple[Action, int]:
        """ISMCTS for ``seat`` in C++ (``native/cardroom/ismcts.hpp``), the GIL released: the
        move and the iterations run. The options are :class:`~cardroom.agents.ismcts.ISMCTSAgent`'s
        (:func:`search_options`); ``threads`` trees search side by side (root parallel),
        ``iterations`` shared among them; ``root_prior`` (by action) makes the root's choice PUCT
        over it; ``infer`` draws each iteration's world from a pool weighed by the other seats'
        plays (:meth:`native_infer_chances`). A game refuses, in words, an option it does not play
        (Baha: the ``win`` reward and the ``game`` horizon)."""
        action, done, _ = self._search(seat, search_options(
            iterations=iterations, seconds=seconds, exploration=exploration, rollout=rollout, epsilon=epsilon,
            max_depth=max_depth, seed=seed, threads=threads, root_prior=root_prior, reward=reward,
            win_temperature=win_temperature, horizon=horizon, infer=infer, infer_epsilon=infer_epsilon,
            infer_pool=infer_pool))
        return action, done

    def native_ismcts_root(
        self, seat: int, *, iterations: int, seconds: float | None, exploration: float, rollout: str,
        epsilon: float, max_depth: int, seed: int, threads: int, root_prior: list[float] | None = None,
        reward: str = "points", win_temperature: float = 8.0, horizon: str = "round",
        infer: int = 0, infer_epsilon: float = 0.25, infer_pool: str = "search",
    ) -> tuple[Action, int, list[tuple[int, int, float]]]:
        """:meth:`native_ismcts`, and the search's root: per action, its visits and the sum of the
        returns backed up through it (the seat's own), for an oracle of each action's value."""
        action, done, root = self._search(seat, search_options(
            iterations=iterations, seconds=seconds, exploration=exploration, rollout=rollout, epsilon=epsilon,
            max_depth=max_depth, seed=seed, threads=threads, root_prior=root_prior, reward=reward,
            win_temperature=win_temperature, horizon=horizon, infer=infer, infer_epsilon=infer_epsilon,
            infer_pool=infer_pool))
        return action, done, [(int(k), int(v), float(r)) for k, v, r in root]

    def native_infer_chances(self, seat: int, world: Any, epsilon: float) -> list[tuple[int, int, float]]:
        """The opponent model of the search's ``infer`` option: per play of another seat this
        hand or round, as ``seat`` saw it, that the model judges, ``(player, card, chance)``: the
        chance of that card under the heuristic with noise ``epsilon``, the player's hand being
        its hand in ``world`` (a state with ``seat``'s view of this one) plus the cards it has
        played since."""
        self._check_seat(seat)
        found = getattr(core(), self.CORE + "_infer_chances")(self, seat, world, epsilon)
        return [(int(p), int(c), float(x)) for p, c, x in found]

    def _check_seat(self, seat: int) -> None:
        if not is_whole(seat) or not 0 <= seat < self.n:
            raise IllegalAction(f"seat must be 0 to {self.n - 1}, not {seat!r}")

    def view(self, seat: int) -> dict[str, Any]:
        found: dict[str, Any] = self.reference().view(seat)
        return found

    def view_log(self, seat: int) -> list[Event]:
        visible = type(self).VISIBLE
        return [visible(e, seat) for e in self.log]

    def visible_event(self, event: Event, seat: int) -> Event:
        return type(self).VISIBLE(event, seat)

    def public_view(self) -> dict[str, Any]:
        found: dict[str, Any] = self.reference().public_view()
        return found

    def illegal_reason(self, action: object) -> str | None:
        found: str | None = self.reference().illegal_reason(action)
        return found

    def action_to_string(self, action: Action) -> str:
        found: str = self.reference().action_to_string(action)
        return found

    def parse_action(self, text: str) -> Action:
        found: Action = self.reference().parse_action(text)
        return found

    def decode(self, action: Action) -> ActionInfo:
        found: ActionInfo = self.reference().decode(action)
        return found


class NativeBatch:
    """A game's native vector batch (``native/cardroom/vector.hpp``, generic over the game's
    traits, through the game's core class): the contract of
    :class:`~cardroom.games.contracts.NativeVector`'s ``Batch``, every game's alike. The game's
    ``Batch`` makes its core batch (``_core``, from its rules) and gives its native state type
    (``STATE``) and the words of an action (``_text``)."""

    STATE: ClassVar[Any]
    """The game's native state type (a row's game comes back as one)."""
    _core: Any
    _rules: Any

    def _text(self, action: int) -> str:
        raise NotImplementedError

    def bind(self, *arrays: Any) -> None:
        rewards = arrays[2]
        self._core.bind(*arrays, rewards.size // len(rewards))

    def reset(self, rows: Sequence[int], seeds: Sequence[int]) -> None:
        skipped: str = self._core.reset(list(rows), list(seeds))
        if skipped:
            raise ValueError(skipped)

    def step(self, actions: Any) -> int:
        bad: int | str = self._core.step(actions)
        if isinstance(bad, str):
            raise ValueError(bad)
        return bad

    def refusal(self, row: int, action: int) -> str:
        allowed = ", ".join(self._text(a) for a in self._core.legal_actions(row))
        return (f"action {action} ({self._text(action)}) is not one seat {self._core.turn(row)} "
                f"may take now; allowed: {allowed}")

    def global_state(self, out: Any) -> None:
        self._core.global_state(out)

    def row_state(self, row: int) -> tuple[Any, Any]:
        state = self.STATE.start(self._rules, int(self._core.row_seed(row)))
        words = self._core.row_state(row, state)
        return state, words

    def set_row_state(self, row: int, state: Any, words: Any) -> None:
        self._core.set_row_state(row, to_native(self.STATE, state), words)

    def load(self, row: int, state: Any, seed: int) -> bool:
        loaded: bool = self._core.load(row, to_native(self.STATE, state), seed)
        return loaded


def unpickle_native(cls: Any, ref: Any) -> Any:
    """The position ``ref`` (on the Python engine) as a native state of type ``cls``."""
    return cls.start(ref.rules, ref.seed)._from_reference(ref)


def to_native(cls: Any, state: Any) -> Any:
    """``state`` on the native engine: itself if it is a ``cls``, else the same position made
    native from its fields (as a pickled native state is)."""
    if isinstance(state, cls):
        return state
    return unpickle_native(cls, state)
