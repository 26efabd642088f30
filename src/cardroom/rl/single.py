"""Gymnasium's single-agent environment: one seat learns, Cardroom's bots play the others."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardroom import agents, games
from cardroom.agents import Agent
from cardroom.engine import Action, IllegalAction, State, check_whole
from cardroom.games import GameSpec
from cardroom.rl.aec import Observation, check_deals, check_max_steps, check_render_mode
from cardroom.rl.table import (
    RENDER_MODES,
    DealRewards,
    EnvError,
    Seeds,
    Table,
    check_env_seed,
    check_position,
)

__all__ = ["CardroomGymEnv", "GYMNASIUM_NAMESPACE", "gym_env", "gymnasium_id", "ILLEGAL_ACTIONS",
           "MAX_SKIPPED", "Opponent", "register_gymnasium"]

Opponent = str | Agent | Callable[[State, int], Action]
"""An opponent: a bot's name (``"heuristic"``, ``"ismcts:iterations=200"``), an agent (an
object with ``act(state, seat)``), or a function ``(state, seat) -> action``."""

MAX_SKIPPED = 100
"""Games in a row that ``reset`` may pass over because the episode ended before the learner
had a move (BAEBAE's bots can end a round before the learner's first turn)."""


class _Function:
    """A function ``(state, seat) -> action`` as an agent."""

    def __init__(self, function: Callable[[State, int], Action]) -> None:
        self.function = function
        self.name = getattr(function, "__name__", type(function).__name__)

    def act(self, state: State, seat: int) -> Action:
        return self.function(state, seat)


def _is_opponent(value: object) -> bool:
    return isinstance(value, str) or callable(getattr(value, "act", None)) or callable(value)

ILLEGAL_ACTIONS = ("raise", "refuse")
"""What an action outside the mask does: raise :class:`~cardroom.engine.IllegalAction`, or
be refused (nothing changes, the step's reward is ``illegal_reward``, ``info["illegal"]``
says why)."""


class CardroomGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """A game of Cardroom for one learner at ``seat``; the other seats are bots.

    ``opponents`` is one opponent for every other seat or one per other seat, in seat order:
    a bot's name (``"heuristic"``, ``"random"``, ``"ismcts:iterations=200"``), an agent object
    (anything with ``act(state, seat) -> action``, such as ``cardroom.agents.make(...)``), or a
    function ``(state, seat) -> action``. The observation and the action space are those of
    :class:`~cardroom.rl.CardroomEnv`; :meth:`action_masks` gives the mask as sb3-contrib's
    ``MaskablePPO`` asks for it, and :meth:`state` the global state (every seat's observation)
    for a centralised critic. A step plays the learner's action, then the bots' until the
    learner is to act again or the episode ends; its reward is the sum of the learner's
    per-deal rewards of the deals that ended since the last step (the first step's includes
    deals that ended before the learner's first move), so an episode's rewards add up to the
    learner's result. ``reset`` and ``step`` hand the learner a position with a legal move, or
    end the episode: a game whose episode ends before the learner has a move is passed over,
    and ``reset`` deals the next game of the seed's sequence (``info["skipped"]`` lists the
    seeds passed over). An episode is the whole game, or ``deals`` deals; with ``max_steps``,
    the step that is the learner's ``max_steps``-th truncates it. ``seed`` is the game the
    first ``reset()`` without a seed deals; bots made by name are seeded from each game's seed,
    so a seed replays the same game.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(self, game: str, seat: int = 0, opponents: Opponent | Sequence[Opponent] = "heuristic",
                 players: int | None = None, seed: int | None = None, render_mode: str | None = None,
                 deals: int | None = None, zero_sum: bool = False, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, max_steps: int | None = None, **rules: Any) -> None:
        self.table = Table.of(game, players, rules)
        n = self.table.players
        self.seat = check_whole(seat, "seat", 0, n - 1, error=EnvError)
        self._opponents = self._check_opponents(opponents, n - 1)
        self._make_opponents(0)  # an unknown name or option is refused now, not at reset
        if illegal_action not in ILLEGAL_ACTIONS:
            raise EnvError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, "
                           f"not {illegal_action!r}")
        self.illegal_action = illegal_action
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, int | float):
            raise EnvError(f"illegal_reward must be a number, not {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.render_mode = check_render_mode(render_mode)
        self.deals = check_deals(deals)
        if not isinstance(zero_sum, bool):
            raise EnvError(f"zero_sum must be True or False, not {zero_sum!r}")
        self.zero_sum = zero_sum
        self.max_steps = check_max_steps(max_steps)
        self._first_seed = None if seed is None else check_env_seed(seed)
        self.observation_space = self.table.observation_space
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.state_space = self.table.state_space
        self._seeds = Seeds()
        self._game: State | None = None
        self._over = False
        self._pending = 0.0
        self._steps = 0
        self._told = 0

    @staticmethod
    def _bots() -> list[str]:
        return [name for name, kind in agents.AGENTS.items() if kind.seeded]

    def _check_opponents(self, opponents: object, others: int) -> list[tuple[str, dict[str, Any]] | Agent]:
        """Each other seat's opponent: a bot's name parsed, or an agent object."""
        if _is_opponent(opponents):
            given = [opponents] * others
        elif (isinstance(opponents, Sequence) and len(opponents) == others
              and all(map(_is_opponent, opponents))):
            given = list(opponents)
        else:
            raise EnvError(
                f"opponents must be one opponent for every other seat, or {others} of them (one per "
                "other seat, in seat order); an opponent is a bot's name ('heuristic', "
                "'ismcts:iterations=200'), an agent (an object with act(state, seat)) or a function "
                f"(state, seat) -> action; not {opponents!r}"
            )
        chosen: list[tuple[str, dict[str, Any]] | Agent] = []
        for opponent in given:
            if not isinstance(opponent, str):
                chosen.append(opponent if callable(getattr(opponent, "act", None))
                              else _Function(opponent))  # type: ignore[arg-type]  # callable, checked
                continue
            name, options = agents.parse_spec(opponent)
            kind = agents.AGENTS.get(name)
            if kind is not None and not kind.seeded:
                raise EnvError(f"opponent {opponent!r} is not a bot: "
                               f"the opponents are {', '.join(self._bots())}")
            chosen.append((name, options))
        return chosen

    def _make_opponents(self, seed: int) -> dict[int, Agent]:
        """Each other seat's agent for the game of ``seed``: bots by name made afresh, seeded
        from it; agent objects and functions as given."""
        others = [s for s in range(self.table.players) if s != self.seat]
        made: dict[int, Agent] = {}
        for seat, opponent in zip(others, self._opponents, strict=True):
            if isinstance(opponent, tuple):
                name, options = opponent
                made[seat] = agents.make(name, seed=(seed + 1009 * seat) % agents.MAX_SEED, **options)
            else:
                made[seat] = opponent
        return made

    @property
    def game(self) -> State:
        """The game being played (read only: step the environment to change it)."""
        if self._game is None:
            raise EnvError("no game yet: call reset() first")
        return self._game

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """A new episode: game ``seed`` (see the class), or with ``options={"state": position}``
        one that starts at a position of this environment's game and rules (any State, on
        either engine; a copy is played): its bots are those of game ``position.seed`` and the
        games after it follow from that seed. A position whose episode the bots end before the
        learner has a move is refused, the environment unchanged."""
        if options:
            unknown = sorted(set(options) - {"state"})
            if unknown:
                raise EnvError(f"reset's options are 'state' (a position to start from), not {unknown}")
            if seed is not None:
                raise EnvError("reset takes a seed or a position to start from (options['state']), not both")
            return self._start_at(options["state"])
        if seed is None and self._game is None:
            seed = self._first_seed
        super().reset(seed=None if seed is None else check_env_seed(seed) % 2**32)
        game_seed = self._seeds.game_seed(seed)
        skipped: list[int] = []
        while True:
            self._game = self.table.rules.new_game(game_seed)
            self._bots_now = self._make_opponents(game_seed)
            self._deal_rewards = DealRewards(self._game, self.zero_sum)
            self._over = False
            self._told = 0
            self._steps = 0
            # The deals the bots end before the learner's first move are the first step's reward.
            self._pending = self._play_bots()
            if not self._over:
                break
            # The episode ended with no move for the learner: no episode. The seed's sequence
            # deals the next game, as a reset without a seed would.
            skipped.append(game_seed)
            if len(skipped) == MAX_SKIPPED:
                raise EnvError(f"{MAX_SKIPPED} games in a row ended before seat {self.seat} had a move "
                               f"(seeds {skipped[0]} to {skipped[-1]} of the sequence): the rules or "
                               "the opponents leave the learner nothing to play")
            game_seed = self._seeds.game_seed(None)
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"skipped": skipped} if skipped else {}

    def _start_at(self, position: object) -> tuple[Observation, dict[str, Any]]:
        state = check_position(position, self.table)
        saved, before = dict(vars(self)), self._seeds.state()  # put back if it is no episode
        self._game = state.clone()
        self._seeds.game_seed(state.seed)
        self._bots_now = self._make_opponents(state.seed)
        self._deal_rewards = DealRewards(self._game, self.zero_sum)
        self._over = False
        self._told = self._steps = 0
        self._pending = self._play_bots()
        if self._over:
            vars(self).clear()
            vars(self).update(saved)
            self._seeds.restore(before)
            raise EnvError(f"the opponents end the episode of this position before seat {self.seat} "
                           "has a move: it is no episode")
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if self._over:
            raise EnvError("the episode is over: call reset() to play again")
        self._steps += 1
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        try:
            game.apply(action)
        except IllegalAction as refused:
            if self.illegal_action == "raise":
                self._steps -= 1
                raise
            self._over = truncated
            return self._observation(), self.illegal_reward, False, truncated, {"illegal": str(refused)}
        reward = self._pending + self._rewards() + self._play_bots()
        self._pending = 0.0
        terminated = self._over
        truncated = truncated and not terminated
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, {}

    def _rewards(self) -> float:
        """The learner's reward for a deal that has just ended (0 if none), ending the episode
        when it should."""
        rewards = self._deal_rewards.after(self.game)
        if rewards is None:
            return 0.0
        if self.game.is_over or (self.deals is not None and self._deal_rewards.deals >= self.deals):
            self._over = True
        return rewards[self.seat]

    def _play_bots(self) -> float:
        """The bots play until the learner is to act or the episode ends; their deals' rewards."""
        game = self.game
        total = 0.0
        while not self._over:
            turn = game.current_player
            if turn is None or turn == self.seat:
                break
            bot = self._bots_now[turn]
            action = bot.act(game, turn)
            try:
                game.apply(action)
            except IllegalAction as refused:
                raise EnvError(f"the opponent at seat {turn} ({getattr(bot, 'name', bot)!r}) chose "
                               f"{action!r}, which is not legal: {refused}") from refused
            total += self._rewards()
        return total

    def _observation(self) -> Observation:
        game = self.game
        mask = (np.zeros(self.table.num_actions, np.int8) if self._over
                else self.table.action_mask(game, self.seat))
        return {"observation": self.table.observe(game, self.seat), "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """The global state, for a centralised critic: every seat's observation, in seat order
        (``state_space``). It holds every hand: a critic may read it in training; the policy must
        not (its input is the observation)."""
        return self.table.global_state(self.game)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (what ``MaskablePPO`` asks for)."""
        if self._over:
            return np.zeros(self.table.num_actions, np.bool_)
        return self.table.action_mask(self.game, self.seat).astype(np.bool_)

    def render(self) -> str | None:
        """``ansi``: the events since the last call told as anyone watching saw them, then
        the totals and who is to act; ``human`` prints that."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: "
                                  "give render_mode='ansi' or 'human'")
            return None
        game = self.game
        names = [f"seat_{s}" for s in range(self.table.players)]
        text = self.table.text(game, game.log[self._told:], names)
        self._told = len(game.log)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_env(game: str, seat: int = 0, opponents: Opponent | Sequence[Opponent] = "heuristic",
            players: int | None = None, seed: int | None = None, **options: Any) -> CardroomGymEnv:
    """A Gymnasium environment of ``game`` for one learner: see :class:`CardroomGymEnv`."""
    return CardroomGymEnv(game, seat=seat, opponents=opponents, players=players, seed=seed, **options)


GYMNASIUM_NAMESPACE = "cardroom"
"""The namespace of Cardroom's environments in Gymnasium's registry."""


def gymnasium_id(game: str | GameSpec) -> str:
    """Gymnasium's id of ``game``'s environment (its spec, or its name): ``cardroom/<title>-v0``
    (``cardroom/Baha-v0``, ``cardroom/BAEBAE-v0``), the title without its spaces and signs."""
    spec = games.get(game) if isinstance(game, str) else game
    title = re.sub(r"[^A-Za-z0-9]", "", spec.title)
    return f"{GYMNASIUM_NAMESPACE}/{title}-v0"


def register_gymnasium() -> list[str]:
    """Register the Gymnasium environment of every game of the registry that has an observation
    encoder, once (``import cardroom.rl`` does): ``gymnasium.make(id, **options)`` then makes
    :class:`CardroomGymEnv` with the options of :func:`gym_env`, and ``gymnasium.make_vec(id,
    num_envs, **options)`` the vector environment :class:`~cardroom.rl.vector.CardroomVectorEnv`
    (``vectorization_mode="sync"`` or ``"async"``: Gymnasium's own, over :class:`CardroomGymEnv`).
    Their ids."""
    ids = []
    for spec in games.specs():
        if spec.observation is None:
            continue
        env_id = gymnasium_id(spec)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:CardroomGymEnv", kwargs={"game": spec.name},
                               vector_entry_point="cardroom.rl.vector:CardroomVectorEnv")
        ids.append(env_id)
    return ids
