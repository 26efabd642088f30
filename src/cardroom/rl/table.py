"""What both environments share: a game found in the registry with its encoder, seeds,
per-deal rewards and the text of a position."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardroom import games
from cardroom.engine import CardroomInputError, Rules, State, check_whole, whole_index
from cardroom.games.tensor import PerRules

__all__ = ["Table", "DealRewards", "EnvError", "MAX_ENV_SEED", "Seeds", "observe", "action_mask",
           "check_env_seed", "check_position"]

RENDER_MODES = ("ansi", "human")


class EnvError(CardroomInputError):
    """A learning environment used wrongly (a step after the end, a bad seed or argument); the
    message says what was wrong and what is allowed."""


class Table:
    """One game's rules as the environments need them: the encoder, the spaces, the text.

    Made from rules (:meth:`of` makes the rules from a game's name and options first).
    """

    def __init__(self, rules: Rules) -> None:
        spec = rules.spec
        if spec.observation is None:
            raise EnvError(f"{spec.title} has no observation encoder, so no learning environment")
        self.spec = spec
        self.rules = rules
        self.encoder: Any = spec.load("observation")
        self.players: int = rules.players
        self.size: int = self.encoder.size(rules)
        self.num_actions: int = self.encoder.num_actions(rules)
        low, high = self.encoder.bounds(rules)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, (self.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.state_space = spaces.Box(np.tile(low, self.players), np.tile(high, self.players),
                                      (self.players * self.size,), np.float32)
        """The global state's space: every seat's observation, in seat order."""

    def __reduce__(self) -> tuple[type[Table], tuple[Rules]]:
        # Pickled as its rules and made again where it is unpickled: the spec's functions and
        # the encoder are the code's, not data to copy (an environment pickles for
        # multiprocessing and vector environments).
        return Table, (self.rules,)

    @classmethod
    def of(cls, game: str, players: int | None, options: Mapping[str, Any]) -> Table:
        """``game`` (a registered name) with rule ``options`` (values may be text, as on a
        command line). A game that takes decks takes ``deck`` as the command line does: a
        project deck's name or a deck file's path (several by commas)."""
        spec = games.get(game)
        chosen = dict(options)
        if players is not None:
            chosen["players"] = players
        deck = chosen.get("deck")
        if spec.decks is not None and isinstance(deck, str) and "deck_files" not in chosen:
            chosen.update(spec.decks.read(deck, None))
        return cls(spec.make_rules(chosen))

    def observe(self, state: State, seat: int) -> npt.NDArray[np.float32]:
        out = np.empty(self.size, np.float32)
        self.encoder.encode(state, seat, out)
        return out

    def global_state(self, state: State) -> npt.NDArray[np.float32]:
        """Every seat's observation, in seat order, in one array: the global state a
        centralised critic reads (it holds every hand, so a policy must not)."""
        out = np.empty(self.players * self.size, np.float32)
        for seat in range(self.players):
            self.encoder.encode(state, seat, out[seat * self.size:(seat + 1) * self.size])
        return out

    def action_mask(self, state: State, seat: int | None = None) -> npt.NDArray[np.int8]:
        """1 for each action the seat to act may take (all 0 for another ``seat``)."""
        mask = bytearray(self.num_actions)
        if seat is None or state.current_player == seat:
            # Set in Python, wrapped once: a dozen legal actions cost less than numpy's
            # zeros and fancy assignment.
            for action in state.legal_actions():
                mask[action] = 1
        return np.frombuffer(mask, np.int8)

    def text(self, state: State, events: Sequence[dict[str, Any]], names: Sequence[str]) -> str:
        """The position in words, as anyone watching saw it: ``events`` told one a line (no
        seat's hidden cards), then the totals and who is to act."""
        spec = self.spec
        lines = []
        for event in events:
            line = spec.narrate(state.visible_event(event, -1), names, self.rules)
            if line:
                lines.append(line)
        totals = ", ".join(f"{name} {total}" for name, total in zip(names, state.scores, strict=True))
        turn = state.current_player
        status = "game over" if turn is None else f"{names[turn]} to act"
        lines.append(f"{spec.title}, {spec.deal_unit} {state.deal_number}: {status}. Totals: {totals}.")
        return "\n".join(lines)


MAX_ENV_SEED = 2**63 - 1
"""The largest seed an environment takes. Every environment (PettingZoo, Gymnasium, the vector
environment and its rows) takes the seeds from 0 to this, the bots' seeds
(``cardroom.agents.MAX_SEED``): the games that follow a seed are drawn below ``2**63`` too, and
the native batches keep a seed in 64 bits with -1 meaning "the row's next game". A negative
seed would also give the same later games as its absolute value (``random.Random`` seeds by
it), so none is taken."""


def check_env_seed(seed: object) -> int:
    """A seed given to an environment: a whole number (numpy's too) from 0 to
    :data:`MAX_ENV_SEED`, else an :class:`EnvError`."""
    value = whole_index(seed)
    if value is None:
        raise EnvError(f"seed must be a whole number from 0 to {MAX_ENV_SEED}, not {seed!r}")
    if not 0 <= value <= MAX_ENV_SEED:
        raise EnvError(f"seed must be a whole number from 0 to {MAX_ENV_SEED} (2**63 - 1), not {value}")
    return value


def check_position(position: object, table: Table) -> State:
    """A position to start an episode from: a State of ``table``'s game and rules, not over,
    whose seed follows the environments' seed rule (its bots and later games come from it)."""
    rules = getattr(position, "rules", None)
    if not callable(getattr(position, "legal_actions", None)) or rules is None:
        raise EnvError(f"a position to start from is a State of the game (rules.new_game(seed) and "
                       f"its moves), not {type(position).__name__}")
    if rules != table.rules:
        raise EnvError(f"the position is a game of other rules ({rules!r}) than the environment's "
                       f"({table.rules!r})")
    state: State = position  # type: ignore[assignment]  # a State: its rules are the table's
    if state.is_over:
        raise EnvError("the position's game is over: there is nothing to play from it")
    check_env_seed(state.seed)
    return state


class Seeds:
    """The engine seed of each game an environment plays: ``reset(seed=s)`` plays game ``s``
    (the same deals as ``cardroom play --seed s``), and later resets without a seed play
    games whose seeds follow from ``s``."""

    def __init__(self) -> None:
        self._next: random.Random | None = None

    def state(self) -> object:
        """Where the sequence stands, for :meth:`restore`."""
        return None if self._next is None else self._next.getstate()

    def restore(self, state: object) -> None:
        if state is None:
            self._next = None
        else:
            self._next = random.Random()
            self._next.setstate(state)  # type: ignore[arg-type]

    def game_seed(self, seed: object) -> int:
        if seed is not None:
            value = check_env_seed(seed)
            self._next = random.Random(value)
            return value
        if self._next is None:
            self._next = random.Random()
        return self._next.randrange(2**63)


class DealRewards:
    """Per-deal rewards: when a deal (a Baha hand, a BAEBAE round) ends, each seat's change of
    score, negated where points count against a player (the spec's ``lower_wins``) so that
    higher is better; with ``zero_sum`` less the mean over seats."""

    def __init__(self, state: State, zero_sum: bool) -> None:
        self.zero_sum = zero_sum
        self.sign = -1.0 if state.rules.spec.lower_wins else 1.0
        self.start = state.scores
        self.deal = self.first = state.deal_number
        self.deals = 0
        """Deals ended so far."""

    def after(self, state: State) -> list[float] | None:
        """Each seat's reward if a deal ended since the last call, else ``None``."""
        if state.deal_number == self.deal and not state.is_over:
            return None
        now = state.scores
        change = [self.sign * (b - a) for b, a in zip(now, self.start, strict=True)]
        if self.zero_sum:
            mean = sum(change) / len(change)
            change = [c - mean for c in change]
        self.deals = state.deal_number - self.first + state.is_over
        self.start = now
        self.deal = state.deal_number
        return change


_TABLES = PerRules(Table)


def _table_of(state: State) -> Table:
    return _TABLES.get(state.rules)


def observe(state: State, seat: int) -> npt.NDArray[np.float32]:
    """The observation of ``seat`` in ``state``: a float32 array built from what that seat
    may know (its layout: the game encoder's ``slices(rules)``, docs/research.md)."""
    players = len(state.scores)
    return _table_of(state).observe(state, check_whole(seat, "seat", 0, players - 1, error=EnvError))


def action_mask(state: State) -> npt.NDArray[np.int8]:
    """An int8 array over the game's action space: 1 for each legal action of the seat to act."""
    return _table_of(state).action_mask(state)
