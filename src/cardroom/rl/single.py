"""Gymnasium's single-agent environment: one seat learns, Cardroom's bots play the others."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from cardroom import agents
from cardroom.agents import Agent
from cardroom.engine import IllegalAction, State
from cardroom.rl.aec import Observation, check_deals, check_render_mode
from cardroom.rl.table import RENDER_MODES, DealRewards, EnvError, Seeds, Table, check_env_seed

__all__ = ["CardroomGymEnv", "gym_env", "ILLEGAL_ACTIONS"]

ILLEGAL_ACTIONS = ("raise", "refuse")
"""What an action outside the mask does: raise :class:`~cardroom.engine.IllegalAction`, or
be refused (nothing changes, the step's reward is ``illegal_reward``, ``info["illegal"]``
says why)."""


class CardroomGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """A game of Cardroom for one learner at ``seat``; the other seats are bots by name.

    ``opponents`` is one agent spec for every other seat (``"heuristic"``, ``"random"``,
    ``"ismcts:iterations=200"``) or one per other seat, in seat order. The observation and the
    action space are those of :class:`~cardroom.rl.CardroomEnv`; :meth:`action_masks` gives
    the mask as sb3-contrib's ``MaskablePPO`` asks for it. A step plays the learner's action,
    then the bots' until the learner is to act again or the episode ends; its reward is the sum
    of the learner's per-deal rewards of the deals that ended meanwhile. An episode is the
    whole game, or ``deals`` deals. ``seed`` is the game the first ``reset()`` without a seed
    deals; the bots are seeded from each game's seed, so a seed replays the same game.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(self, game: str, seat: int = 0, opponents: str | Sequence[str] = "heuristic",
                 players: int | None = None, seed: int | None = None, render_mode: str | None = None,
                 deals: int | None = None, zero_sum: bool = False, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, **rules: Any) -> None:
        self.table = Table.of(game, players, rules)
        n = self.table.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise EnvError(f"seat must be a whole number from 0 to {n - 1}, not {seat!r}")
        self.seat = seat
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1 or not all(isinstance(s, str) for s in specs):
            raise EnvError(f"opponents must be one agent name, or {n - 1} of them (one per other seat), "
                           f"not {opponents!r}")
        self._opponents = [agents.parse_spec(spec) for spec in specs]
        for (name, _), spec in zip(self._opponents, specs, strict=True):
            kind = agents.AGENTS.get(name)
            if kind is not None and not kind.seeded:
                raise EnvError(f"opponent {spec!r} is not a bot: the opponents are {', '.join(self._bots())}")
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
        self._first_seed = None if seed is None else check_env_seed(seed)
        self.observation_space = self.table.observation_space
        self.action_space = spaces.Discrete(self.table.num_actions)
        self._seeds = Seeds()
        self._game: State | None = None
        self._over = False
        self._told = 0

    @staticmethod
    def _bots() -> list[str]:
        return [name for name, kind in agents.AGENTS.items() if kind.seeded]

    def _make_opponents(self, seed: int) -> dict[int, Agent]:
        others = [s for s in range(self.table.players) if s != self.seat]
        return {
            seat: agents.make(name, seed=(seed + 1009 * seat) % agents.MAX_SEED, **options)
            for seat, (name, options) in zip(others, self._opponents, strict=True)
        }

    @property
    def game(self) -> State:
        """The game being played (read only: step the environment to change it)."""
        if self._game is None:
            raise EnvError("no game yet: call reset() first")
        return self._game

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        if seed is None and self._game is None:
            seed = self._first_seed
        super().reset(seed=None if seed is None else check_env_seed(seed) % 2**32)
        game_seed = self._seeds.game_seed(seed)
        self._game = self.table.rules.new_game(game_seed)
        self._bots_now = self._make_opponents(game_seed)
        self._deal_rewards = DealRewards(self._game, self.zero_sum)
        self._over = False
        self._told = 0
        self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        if self._over:
            raise EnvError("the episode is over: call reset() to play again")
        try:
            game.apply(action)
        except IllegalAction as refused:
            if self.illegal_action == "raise":
                raise
            return self._observation(), self.illegal_reward, False, False, {"illegal": str(refused)}
        reward = self._rewards() + self._play_bots()
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, {}

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
            game.apply(self._bots_now[turn].act(game, turn))
            total += self._rewards()
        return total

    def _observation(self) -> Observation:
        game = self.game
        mask = (np.zeros(self.table.num_actions, np.int8) if self._over
                else self.table.action_mask(game, self.seat))
        return {"observation": self.table.observe(game, self.seat), "action_mask": mask}

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


def gym_env(game: str, seat: int = 0, opponents: str | Sequence[str] = "heuristic",
            players: int | None = None, seed: int | None = None, **options: Any) -> CardroomGymEnv:
    """A Gymnasium environment of ``game`` for one learner: see :class:`CardroomGymEnv`."""
    return CardroomGymEnv(game, seat=seat, opponents=opponents, players=players, seed=seed, **options)
