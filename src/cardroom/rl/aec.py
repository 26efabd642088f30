"""PettingZoo's AEC environment over any registered game: one agent per seat."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import logger, spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # pettingzoo ships no type hints

from cardroom.engine import State, check_whole
from cardroom.rl.table import RENDER_MODES, DealRewards, EnvError, Seeds, Table

__all__ = ["CardroomEnv", "env"]

Observation = dict[str, npt.NDArray[Any]]


def check_deals(deals: object) -> int | None:
    if deals is None:
        return None
    return check_whole(deals, "deals", 1, error=EnvError, note=" (or None for the whole game)")


def check_max_steps(max_steps: object) -> int | None:
    if max_steps is None:
        return None
    return check_whole(max_steps, "max_steps", 1, error=EnvError, note=" (or None for no limit)")


def check_render_mode(mode: object) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise EnvError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, not {mode!r}")
    return mode if mode is None else str(mode)


class CardroomEnv(AECEnv):  # type: ignore[misc]  # AECEnv is untyped (Any) to mypy
    """A game of Cardroom as a PettingZoo AEC environment.

    Agents are ``seat_0``, ``seat_1``... Each observation is a dict: ``observation``, the
    float32 array of what that seat may know (docs/research.md lists every slice), and
    ``action_mask``, an int8 array over the game's action space (all 0 for a seat not to
    act). When a deal ends, every seat is rewarded with its change of score negated (higher
    is better), less the mean over seats if ``zero_sum``. An episode is the whole game, or
    ``deals`` deals; with ``max_steps``, the ``max_steps``-th step truncates it (every agent's
    ``truncations`` entry is set, and each steps out with ``None``). ``reset(seed=s)`` deals
    game ``s``: the same deals as ``cardroom play --seed s``. :meth:`state` is the global
    state for a centralised critic: every seat's observation, in seat order (``state_space``).

    An action outside the mask raises :class:`~cardroom.engine.IllegalAction`, naming the
    legal actions, and changes nothing.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "cardroom_v0",
                                "is_parallelizable": False}

    def __init__(self, game: str, players: int | None = None, render_mode: str | None = None,
                 deals: int | None = None, zero_sum: bool = False, max_steps: int | None = None,
                 **rules: Any) -> None:
        super().__init__()
        self.table = Table.of(game, players, rules)
        self.render_mode = check_render_mode(render_mode)
        self.deals = check_deals(deals)
        self.max_steps = check_max_steps(max_steps)
        if not isinstance(zero_sum, bool):
            raise EnvError(f"zero_sum must be True or False, not {zero_sum!r}")
        self.zero_sum = zero_sum
        self.metadata = {**self.metadata, "name": f"cardroom_{self.table.spec.name}_v0"}
        self.possible_agents = [f"seat_{seat}" for seat in range(self.table.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        action_space = spaces.Discrete(self.table.num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self.table.observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.state_space = self.table.state_space
        self._seeds = Seeds()
        self._steps = 0
        self._game: State | None = None
        self._rewarded = False
        self._told = 0

    @property
    def game(self) -> State:
        """The game being played (read only: step the environment to change it)."""
        if self._game is None:
            raise EnvError("no game yet: call reset() first")
        return self._game

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        game = self.table.rules.new_game(self._seeds.game_seed(seed))
        self._game = game
        self._deal_rewards = DealRewards(game, self.zero_sum)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = False
        self._told = 0
        self._steps = 0
        turn = game.current_player
        assert turn is not None
        self.agent_selection = self.possible_agents[turn]

    def state(self) -> npt.NDArray[np.float32]:
        """The global state, for a centralised critic: every seat's observation, in seat order
        (``state_space``). It holds every hand: a critic may read it in training; a policy must
        not (its input is its agent's observation)."""
        return self.table.global_state(self.game)

    def observe(self, agent: str) -> Observation:
        game = self.game
        seat = self._seats[agent]
        table = self.table
        out = np.empty(table.size, np.float32)
        table.encoder.encode(game, seat, out)
        live = not (self.terminations.get(agent, True) or self.truncations.get(agent, True))
        return {"observation": out, "action_mask": table.action_mask(game, seat if live else -1)}

    def step(self, action: int | None) -> None:
        game = self.game
        if not self.agents:
            raise EnvError("the episode is over and every agent has stepped out: call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise EnvError(f"{agent}'s episode is over: step it with None, not {action!r}")
            self._was_dead_step(action)
            return
        game.apply(action)  # type: ignore[arg-type]  # None and the like are refused in words
        # Only the acting agent's rewards so far are consumed; others keep accumulating.
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        deal_rewards = self._deal_rewards
        # Most steps end no deal: the cheap test first.
        rewards = (deal_rewards.after(game) if game.deal_number != deal_rewards.deal or game.is_over
                   else None)
        over = False
        if rewards is not None:
            for seat, reward in enumerate(rewards):
                self.rewards[self.possible_agents[seat]] = reward
            self._accumulate_rewards()
            self._rewarded = True
            over = game.is_over or (self.deals is not None and deal_rewards.deals >= self.deals)
        self._steps += 1
        if over:
            # Every agent is done; the acting one stays selected and steps out first, with None.
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)  # they step out as above
        else:
            turn = game.current_player
            assert turn is not None
            self.agent_selection = self.possible_agents[turn]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the events since the last call told in words as anyone watching saw
        them, then the totals and who is to act; ``human`` prints that."""
        if self.render_mode is None:
            logger.warn("render() was called without a render_mode: give render_mode='ansi' or 'human'")
            return None
        game = self.game
        log = game.log
        text = self.table.text(game, log[self._told:], self.possible_agents)
        self._told = len(log)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


def env(game: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> CardroomEnv:
    """A PettingZoo AEC environment of ``game`` (a registered name): see :class:`CardroomEnv`.

    ``options`` are ``deals``, ``zero_sum``, ``max_steps`` and the game's rule options (``target=50``,
    ``deck="mydeck.toml"``); an unknown one is refused with the game's list.
    """
    return CardroomEnv(game, players=players, render_mode=render_mode, **options)
