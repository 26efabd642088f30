"""Baha on the native engine: :class:`NativeBahaState`, the State protocol over the C++ core.

The core (``native/cardroom/baha.hpp``) holds the game and takes the actions, writing the same
events as the Python engine; this class is its face for every front, with the fields of
:class:`~cardroom.games.baha.state.BahaState` read from the core, so the observation encoder
and the heuristic read either engine alike. What a seat may know (views, the filtered log,
determinization) and the words of a refusal come from the Python reference itself, run on a
copy of the position (:meth:`NativeBahaState.reference`): one source of truth for them. A
determinized world comes back on the native engine.

>>> from cardroom.games import baha
>>> from cardroom import native
>>> if native.available():
...     state = NativeBahaState.start(baha.Rules(players=4), 7)
...     python = BahaState.start(baha.Rules(players=4), 7)
...     assert state.log == python.log and state.legal_actions() == python.legal_actions()
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex

from cardroom.cards import parse_baha_card
from cardroom.engine import Action, ActionInfo, Event, IllegalAction, RulesError, check_seed, check_totals
from cardroom.games.baha.actions import CARD_TEXT, NUM_ACTIONS, Phase, card_texts
from cardroom.games.baha.deal import check_deal
from cardroom.games.baha.rules import Deal, Rules
from cardroom.games.baha.state import FIELDS, BahaState, unpickle
from cardroom.games.baha.views import Observation, horns_shown, visible_event
from cardroom.native import core

__all__ = [
    "NativeBahaState", "LIMIT", "POLICIES", "BatchGames", "agent_games", "heuristic_games", "random_games",
]

LIMIT = 1 << 62
"""The native engine keeps totals and hand numbers in 64 bits: starting values below this."""

_PHASES = (Phase.PASS, Phase.PLAY, Phase.OVER)
_PHASE_CODE = {phase: code for code, phase in enumerate(_PHASES)}


class NativeBahaState:
    """A game of Baha on the native engine. Made by ``Rules(...).new_game(seed)`` when the
    native engine is chosen (``CARDROOM_ENGINE=native``), or by :meth:`start`."""

    __slots__ = ("rules", "seed", "n", "origin", "_core", "_ref")

    rules: Rules
    seed: int
    n: int
    origin: dict[str, Any] | None

    def __init__(self, rules: Rules, seed: int, origin: dict[str, Any] | None, native: Any) -> None:
        self.rules = rules
        self.seed = seed
        self.n = rules.players
        self.origin = origin
        self._core = native
        self._ref: BahaState | None = None

    @classmethod
    def start(
        cls,
        rules: Rules,
        seed: object,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
        hand: object = 1,
    ) -> NativeBahaState:
        """A new game, checked as :meth:`BahaState.start <cardroom.games.baha.state.BahaState.start>`
        checks it (the same refusals, in the same order)."""
        seed = check_seed(seed)
        n = rules.players
        if isinstance(hand, bool) or not isinstance(hand, int) or hand < 1:
            raise RulesError(f"hand must be a whole number from 1, not {hand!r}")
        start_totals = check_totals(totals, n, least=0) if totals is not None else [0] * n
        dealt = check_deal(rules, deal) if deal is not None else None
        if hand >= LIMIT or max(start_totals) >= LIMIT:
            raise RulesError(
                f"the native engine takes hand numbers and totals below 2**62; "
                f"use CARDROOM_ENGINE=python for hand {hand} and totals {start_totals}"
            )
        origin: dict[str, Any] | None = None
        if deal is not None or totals is not None or hand != 1:
            origin = {"hand": hand, "totals": list(start_totals)}
            if dealt is not None:
                origin["deal"] = {
                    "hands": [card_texts(h) for h in dealt[0]],
                    "leftover": card_texts(dealt[1]),
                    "draw_pile": [CARD_TEXT[c] for c in dealt[2]],
                    "dealer": dealt[3],
                }
        native = core().BahaCore(
            n, rules.scoring == "face", rules.passing, rules.moon, rules.target, bool(rules.draw_pile),
            rules.random_dealer, str(seed), hand, start_totals, dealt,
        )
        return cls(rules, seed, origin, native)

    # -- the protocol ------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        turn: int | None = self._core.turn
        return turn

    @property
    def turn(self) -> int | None:
        turn: int | None = self._core.turn
        return turn

    @property
    def is_over(self) -> bool:
        return bool(self._core.phase == 2)

    @property
    def scores(self) -> list[int]:
        totals: list[int] = self._core.totals
        return totals

    @property
    def deal_number(self) -> int:
        hand: int = self._core.hand_no
        return hand

    @property
    def winner(self) -> int | None:
        winner: int | None = self._core.winner
        return winner

    @property
    def log(self) -> list[Event]:
        log: list[Event] = self._core.log
        return log

    @property
    def history(self) -> list[tuple[int, Action]]:
        history: list[tuple[int, Action]] = self._core.history
        return history

    def legal_actions(self) -> list[Action]:
        actions: list[Action] = self._core.legal_actions()
        return actions

    def apply(self, action: object) -> list[Event]:
        """Take ``action`` for the current seat and return the events it caused; an illegal
        action raises :class:`IllegalAction` with the Python engine's words and changes nothing."""
        act = action if type(action) is int else self._whole_action(action)
        events: list[Event] | None = self._core.apply(act) if 0 <= act < NUM_ACTIONS else None
        if events is None:
            raise IllegalAction(self.reference().illegal_reason(act) or f"{act} may not be taken now")
        self._ref = None
        return events

    def _whole_action(self, action: object) -> Action:
        try:
            if isinstance(action, bool) or not isinstance(action, SupportsIndex):
                raise TypeError  # True is not action 1
            return operator.index(action)
        except TypeError:
            reason = self.reference().illegal_reason(action)
            raise IllegalAction(reason or f"{action!r} is not an action") from None

    def clone(self) -> NativeBahaState:
        """An independent copy (the core's fields copied, events shared)."""
        return NativeBahaState(self.rules, self.seed, self.origin, self._core.clone())

    def returns(self) -> list[float]:
        """As :meth:`BahaState.returns`: each seat's total below the table's mean, in moons."""
        totals = self.scores
        mean = sum(totals) / self.n
        unit = self.rules.points_per_hand
        return [(mean - t) / unit for t in totals]

    def public_action(self, action: Action, seat: int) -> Action:
        """``action`` as ``seat`` sees it: itself, or -1 for another seat's pass pick."""
        if action >= NUM_ACTIONS // 2 and self.turn != seat:
            return -1
        return action

    def random_playout(self, random: Callable[[], float]) -> None:
        """As :meth:`BahaState.random_playout`: the same moves for the same ``random``, the card
        play quiet, the hand scored and the next one not dealt."""
        self._core.random_playout(random)
        self._ref = None

    # -- the Python reference, for what a seat may know and the words of refusals ------

    def reference(self) -> BahaState:
        """This position on the Python engine (a copy: changing it changes nothing here)."""
        ref = self._ref
        if ref is None:
            c = self._core
            values = {
                "rules": self.rules, "seed": self.seed, "n": self.n, "hand_no": c.hand_no, "dealer": c.dealer,
                "phase": _PHASES[c.phase], "turn": c.turn, "hands": c.hands, "taken": c.taken,
                "face_down": c.face_down, "pass_offset": c.pass_offset, "picks": c.picks, "passed": c.passed,
                "received": c.received, "leftover": c.leftover, "draw_pile": c.draw_pile, "trick": c.trick,
                "leader": c.leader, "tricks_done": c.tricks_done, "played": c.played, "voids": c.voids,
                "totals": c.totals, "winner": c.winner, "log": c.log[:], "last_trick": c.last_trick,
                "hand_start": c.hand_start, "origin": self.origin, "history": c.history[:],
                "_det_cache": {}, "_shown": None,
            }
            ref = self._ref = unpickle(self.rules, self.seed, [values[name] for name in FIELDS])
        return ref

    def _from_reference(self, ref: BahaState) -> NativeBahaState:
        native = self._core.clone()
        trick = ref.last_trick
        native.load(
            ref.hand_no, ref.dealer, _PHASE_CODE[ref.phase], ref.turn, ref.hands, ref.taken, ref.face_down,
            ref.pass_offset, ref.picks, ref.passed, ref.received, ref.leftover, ref.draw_pile, ref.trick,
            ref.leader, ref.tricks_done, ref.played, ref.voids, ref.totals, ref.winner,
            None if trick is None else (trick["leader"], [parse_baha_card(c) for c in trick["cards"]],
                                        trick["winner"]),
            ref.hand_start, ref.log, ref.history, str(ref.seed),
        )
        return NativeBahaState(self.rules, ref.seed, ref.origin, native)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the Python position (a search bot's worker makes it native again).
        return _unpickle_native, (self.reference(),)

    def determinize(self, seat: int, rng: random.Random) -> NativeBahaState:
        """As :meth:`BahaState.determinize` (the reference's, so the same world for the same
        ``rng``), the world on the native engine."""
        return self._from_reference(self.reference().determinize(seat, rng))

    def view(self, seat: int) -> dict[str, Any]:
        return self.reference().view(seat)

    def view_log(self, seat: int) -> list[Event]:
        return [visible_event(e, seat) for e in self.log]

    def visible_event(self, event: Event, seat: int) -> Event:
        return visible_event(event, seat)

    def public_view(self) -> dict[str, Any]:
        return self.reference().public_view()

    def observation(self, seat: int) -> Observation:
        return self.reference().observation(seat)

    def horns_shown(self) -> tuple[int, ...]:
        """The points each seat took face up this hand (``views.horns_shown`` of the reference)."""
        return horns_shown(self.reference())

    def illegal_reason(self, action: object) -> str | None:
        return self.reference().illegal_reason(action)

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    def action_to_string(self, action: Action) -> str:
        return self.reference().action_to_string(action)

    def parse_action(self, text: str) -> Action:
        return self.reference().parse_action(text)

    def decode(self, action: Action) -> ActionInfo:
        return self.reference().decode(action)

    # -- BahaState's fields, read from the core (the encoder and heuristic read these) --

    @property
    def hand_no(self) -> int:
        return self.deal_number

    @property
    def dealer(self) -> int:
        dealer: int = self._core.dealer
        return dealer

    @property
    def phase(self) -> Phase:
        return _PHASES[self._core.phase]

    @property
    def hands(self) -> list[int]:
        hands: list[int] = self._core.hands
        return hands

    @property
    def taken(self) -> list[int]:
        taken: list[int] = self._core.taken
        return taken

    @property
    def face_down(self) -> list[int]:
        face_down: list[int] = self._core.face_down
        return face_down

    @property
    def pass_offset(self) -> int:
        offset: int = self._core.pass_offset
        return offset

    @property
    def picks(self) -> list[int]:
        picks: list[int] = self._core.picks
        return picks

    @property
    def passed(self) -> list[int]:
        passed: list[int] = self._core.passed
        return passed

    @property
    def received(self) -> list[int]:
        received: list[int] = self._core.received
        return received

    @property
    def leftover(self) -> int:
        leftover: int = self._core.leftover
        return leftover

    @property
    def draw_pile(self) -> list[int]:
        pile: list[int] = self._core.draw_pile
        return pile

    @property
    def trick(self) -> list[int]:
        trick: list[int] = self._core.trick
        return trick

    @property
    def leader(self) -> int:
        leader: int = self._core.leader
        return leader

    @property
    def tricks_done(self) -> int:
        done: int = self._core.tricks_done
        return done

    @property
    def played(self) -> int:
        played: int = self._core.played
        return played

    @property
    def voids(self) -> list[int]:
        voids: list[int] = self._core.voids
        return voids

    @property
    def totals(self) -> list[int]:
        return self.scores

    @property
    def last_trick(self) -> dict[str, Any] | None:
        trick: dict[str, Any] | None = self._core.last_trick
        return trick

    @property
    def hand_start(self) -> int:
        start: int = self._core.hand_start
        return start

    def __repr__(self) -> str:
        return (
            f"<NativeBahaState players={self.n} hand={self.hand_no} phase={self.phase.value} "
            f"turn={self.turn} totals={self.totals}>"
        )


def _unpickle_native(ref: BahaState) -> NativeBahaState:
    state = NativeBahaState.start(ref.rules, ref.seed)
    return state._from_reference(ref)


POLICIES = ("random", "heuristic")
"""The agents a native batch plays: simulate's ``random`` and ``heuristic``, seeded as it seeds them."""


class BatchGames:
    """Whole games played by the native engine in one call (no Python in the loop): per game
    its totals, winner (-1 when the action guard stopped it), hands dealt, actions, moons and
    the points of every scored hand (``deal_points``, one list a seat). Game ``i`` has seed
    ``first_seed + i`` and seat ``s`` the agent that ``cardroom simulate`` gives it (seeded
    ``seed * 1000 + s``), so these are the very games
    :func:`cardroom.sim.tournament.run_games` plays with that lineup."""

    __slots__ = ("players", "totals", "winners", "hands", "actions", "moons", "deal_points")

    def __init__(self, players: int, found: dict[str, list[int]]) -> None:
        self.players = players
        flat = found["totals"]
        self.totals = [flat[i:i + players] for i in range(0, len(flat), players)]
        self.winners = found["winners"]
        self.hands = found["hands"]
        self.actions = found["actions"]
        self.moons = found["moons"]
        points = found["points"]
        rows = [points[i:i + players] for i in range(0, len(points), players)]
        self.deal_points: list[list[list[int]]] = []
        start = 0
        for deals in found["deals"]:
            self.deal_points.append(rows[start:start + deals])
            start += deals


def agent_games(
    rules: Rules, games: int, first_seed: int = 0, agents: Sequence[str] = ("random",),
    max_actions: int = 200_000, *, exact: bool = True,
) -> BatchGames:
    """Play ``games`` games of ``rules`` natively (the GIL released) between ``agents``: one of
    :data:`POLICIES` for every seat, or one for all.

    ``exact=False`` (random agents only) keeps the deals but lets every seat choose from one
    fast stream per game (SplitMix64) instead of simulate's agents (a Mersenne Twister seeded
    per seat): uniform play-outs at a fraction of the cost, no longer the games ``run_games``
    plays."""
    if not -(2**62) <= first_seed <= 2**62 - games:
        raise RulesError(f"first_seed must be within 2**62 of zero for the native engine, not {first_seed}")
    if games < 0 or max_actions < 1:
        raise RulesError(
            f"games must be a whole number from 0 and max_actions from 1, not {games}, {max_actions}"
        )
    seats = list(agents) * rules.players if len(agents) == 1 else list(agents)
    if len(seats) != rules.players or any(a not in POLICIES for a in seats):
        raise RulesError(
            f"a native batch plays {' or '.join(POLICIES)} at each of the {rules.players} seats "
            f"(one name for all, or one a seat), not {list(agents)}"
        )
    heuristic = [a == "heuristic" for a in seats]
    if not exact and any(heuristic):
        raise RulesError("exact=False plays the fast uniform stream: random agents only")
    found = core().baha_games(
        rules.players, rules.scoring == "face", rules.passing, rules.moon, rules.target,
        bool(rules.draw_pile), rules.random_dealer, first_seed, games, max_actions, exact, heuristic,
    )
    return BatchGames(rules.players, found)


def random_games(
    rules: Rules, games: int, first_seed: int = 0, max_actions: int = 200_000, *, exact: bool = True
) -> BatchGames:
    """:func:`agent_games` between random agents (``exact=False``: the fast uniform stream)."""
    return agent_games(rules, games, first_seed, ("random",), max_actions, exact=exact)


def heuristic_games(rules: Rules, games: int, first_seed: int = 0, max_actions: int = 200_000) -> BatchGames:
    """:func:`agent_games` between heuristic agents: the games ``run_games`` plays with a lineup
    of ``heuristic``."""
    return agent_games(rules, games, first_seed, ("heuristic",), max_actions)
