"""The vector environment: N games of one table stepped in one call, as Gymnasium's ``VectorEnv``.

>>> import numpy as np
>>> from cardroom import rl
>>> envs = rl.vector_env("baha", num_envs=4, opponents="random", seed=7)
>>> obs, info = envs.reset()
>>> obs["observation"].shape, obs["action_mask"].shape
((4, 568), (4, 104))
>>> actions = np.array([np.flatnonzero(mask)[0] for mask in obs["action_mask"]])
>>> obs, rewards, terminated, truncated, info = envs.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))

Two modes. Single-agent (the default): one learner at ``seat``, the other seats bots inside
the batch, each row the episode :class:`~cardroom.rl.CardroomGymEnv` plays. Self-play
(``self_play=True``): every seat an agent; each row's observation and mask are those of the
seat to act (``info["to_act"]``), an action is that seat's, and the rewards are every seat's
(``num_envs x players``). Rows reset themselves on the step their episode ends (Gymnasium's
same-step auto-reset): the row then holds the next game's first position, and the ended
episode's last observation is in ``info["final_obs"]`` (rows where ``info["_final_obs"]``).

A game whose native core has a vector environment (its spec's ``vector``,
:func:`cardroom.native.vector_for`: Baha and BAEBAE) is
stepped in C++ when its bots are ones it plays (``random``, ``heuristic``); any other game or
bot is stepped in Python, row by row, with the same episodes. ``engine`` chooses: ``None``
(native where it can be), ``"native"`` (refused in words where it cannot) or ``"python"``.
"""

from __future__ import annotations

import copy as copying
import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardroom import native
from cardroom.engine import IllegalAction, State, check_whole
from cardroom.rl.aec import CardroomEnv
from cardroom.rl.single import CardroomGymEnv, Opponent
from cardroom.rl.table import MAX_ENV_SEED, DealRewards, EnvError, Seeds, check_env_seed, check_position

__all__ = ["CardroomVectorEnv", "ENGINES", "MAX_ENV_SEED", "vector_env"]

ENGINES = ("native", "python")
"""Where a vector environment's rows are stepped (``None``: native where it can be)."""

_ARRAYS = ("_obs", "_mask", "_rewards", "_terminated", "_truncated", "_to_act", "_final_obs", "_ended")
"""The environment's own arrays, which a saved state holds copies of."""


class _PythonBatch:
    """Rows stepped in Python, for any game and any bot: single-agent rows are
    :class:`CardroomGymEnv` episodes, self-play rows states with per-deal rewards (the AEC
    environment's rewards and episodes)."""

    def __init__(self, envs: CardroomVectorEnv, options: dict[str, Any]) -> None:
        self.envs = envs
        self.table = envs.table
        n = envs.num_envs
        if envs.self_play:
            self.games: list[State | None] = [None] * n
            self.seeds = [Seeds() for _ in range(n)]
            self.deal_rewards: list[DealRewards | None] = [None] * n
            self.steps = [0] * n
        else:
            self.rows = [CardroomGymEnv(**options) for _ in range(n)]

    def bind(self, obs: Any, mask: Any, rewards: Any, terminated: Any, truncated: Any, to_act: Any,
             final_obs: Any) -> None:
        self.obs, self.mask, self.rewards = obs, mask, rewards
        self.terminated, self.truncated = terminated, truncated
        self.to_act, self.final_obs = to_act, final_obs

    def game(self, row: int) -> State:
        if self.envs.self_play:
            game = self.games[row]
            assert game is not None
            return game
        return self.rows[row].game

    def reset(self, rows: Sequence[int], seeds: Sequence[int]) -> None:
        for row, seed in zip(rows, seeds, strict=True):
            given = None if seed < 0 else seed
            if self.envs.self_play:
                game = self.table.rules.new_game(self.seeds[row].game_seed(given))
                self.games[row] = game
                self.deal_rewards[row] = DealRewards(game, self.envs.zero_sum)
                self.steps[row] = 0
            else:
                self.rows[row].reset(seed=given)
            self._write(row)

    def step(self, actions: npt.NDArray[np.int64]) -> int:
        for row, action in enumerate(actions.tolist()):
            if action not in self.game(row).legal_actions():
                return row
        for row, action in enumerate(actions.tolist()):
            if self.envs.self_play:
                self._step_all(row, action)
            else:
                self._step_one(row, action)
        return -1

    def refusal(self, row: int, action: int) -> str:
        game = self.game(row)
        return game.illegal_reason(action) or f"action {action} may not be taken now"

    def global_state(self, out: npt.NDArray[np.float32]) -> None:
        for row in range(self.envs.num_envs):
            out[row] = self.table.global_state(self.game(row))

    def row_state(self, row: int) -> Any:
        if self.envs.self_play:
            row_state = (self.games[row], self.seeds[row], self.deal_rewards[row], self.steps[row])
            return copying.deepcopy(row_state)
        return copying.deepcopy(self.rows[row])

    def set_row_state(self, row: int, saved: Any) -> None:
        saved = copying.deepcopy(saved)
        if self.envs.self_play:
            self.games[row], self.seeds[row], self.deal_rewards[row], self.steps[row] = saved
        else:
            self.rows[row] = saved
        self._write(row)

    def load(self, row: int, state: State, seed: int) -> bool:
        if self.envs.self_play:
            game = state.clone()
            self.games[row] = game
            self.seeds[row].game_seed(seed)  # the games to come follow from the position's seed
            self.deal_rewards[row] = DealRewards(game, self.envs.zero_sum)
            self.steps[row] = 0
        else:
            try:
                self.rows[row].reset(options={"state": state})
            except EnvError:  # the bots end its episode first: the row is as it was
                return False
        self._write(row)
        return True

    def _step_one(self, row: int, action: int) -> None:
        env = self.rows[row]
        obs, reward, terminated, truncated, _ = env.step(action)
        self.rewards[row] = reward
        self.terminated[row], self.truncated[row] = terminated, truncated
        if terminated or truncated:
            self.final_obs[row] = obs["observation"]
            env.reset()
        self._write(row)

    def _step_all(self, row: int, action: int) -> None:
        game = self.game(row)
        deal_rewards = self.deal_rewards[row]
        assert deal_rewards is not None
        actor = game.current_player
        assert actor is not None
        self.steps[row] += 1
        max_steps = self.envs.max_steps
        truncated = max_steps is not None and self.steps[row] >= max_steps
        game.apply(action)
        rewards = deal_rewards.after(game)
        self.rewards[row] = 0.0 if rewards is None else rewards
        deals = self.envs.deals
        ended = game.is_over or (deals is not None and deal_rewards.deals >= deals)
        terminated = rewards is not None and ended
        truncated = truncated and not terminated
        self.terminated[row], self.truncated[row] = terminated, truncated
        if terminated or truncated:
            self.table.encoder.encode(game, actor, self.final_obs[row])
            self.reset([row], [-1])
            return
        self._write(row)

    def _write(self, row: int) -> None:
        game = self.game(row)
        seat = game.current_player if self.envs.self_play else self.envs.seat
        assert seat is not None
        self.table.encoder.encode(game, seat, self.obs[row])
        self.mask[row] = self.table.action_mask(game, seat)
        self.to_act[row] = seat


def _native_bots(opponents: object, seats: list[int], policies: Sequence[str]) -> list[str] | None:
    """Each other seat's bot by name if every one is a plain name the native batch plays."""
    given = [opponents] * len(seats) if isinstance(opponents, str) else opponents
    if not isinstance(given, Sequence) or len(given) != len(seats):
        return None
    if not all(isinstance(bot, str) and bot in policies for bot in given):
        return None
    return [str(bot) for bot in given]


class CardroomVectorEnv(gymnasium.vector.VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` games of one table, stepped together (see :mod:`cardroom.rl.vector`).

    The keywords are :func:`~cardroom.rl.gym_env`'s (``seat``, ``opponents``, ``players``,
    ``seed``, ``deals``, ``zero_sum``, ``max_steps`` and the rules), with ``self_play``,
    ``engine`` and ``copy``. Observations are ``{"observation": float32 (num_envs x size),
    "action_mask": int8 (num_envs x actions)}``; rewards float32, ``(num_envs,)`` or with
    ``self_play`` ``(num_envs, players)``. The arrays returned are the environment's own
    buffers, written in place by the next ``step`` or ``reset`` (nothing is allocated per
    step): copy what you keep, or pass ``copy=True``.

    Seeds: ``reset(seed=s)`` deals game ``s + i`` in row ``i`` (a list gives one seed a row);
    each row's later games follow from its seed as the Gymnasium env's do, so a row replays
    ``gym_env(...)``'s episodes for that seed. Seeds are whole numbers from 0 to
    :data:`MAX_ENV_SEED`. Bad input (actions of the wrong shape or type, out of the action
    space, or not legal for the seat to act) is refused in words before any row moves.

    :meth:`get_state` / :meth:`set_state` save and restore it mid-episode (it pickles and
    deep-copies too), :meth:`state` is every row's global state for a centralised critic, and
    :meth:`load_row` puts a chosen deal (a seed) or position (a State) into one row.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int = 1, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "heuristic", players: int | None = None,
                 seed: int | None = None, deals: int | None = None, zero_sum: bool = False,
                 max_steps: int | None = None, self_play: bool = False, engine: str | None = None,
                 copy: bool = False, **rules: Any) -> None:
        check_whole(num_envs, "num_envs", 1, error=EnvError)
        for name, flag in (("self_play", self_play), ("copy", copy), ("zero_sum", zero_sum)):
            if not isinstance(flag, bool):
                raise EnvError(f"{name} must be True or False, not {flag!r}")
        if engine is not None and engine not in ENGINES:
            raise EnvError(f"engine must be one of {', '.join(ENGINES)} or None, not {engine!r}")
        self._made = {"game": game, "num_envs": num_envs, "seat": seat, "opponents": opponents,
                      "players": players, "seed": seed, "deals": deals, "zero_sum": zero_sum,
                      "max_steps": max_steps, "self_play": self_play, "copy": copy, **rules}
        """The keywords it was made with: a pickle makes it again from them (and the engine)."""
        options = {"game": game, "players": players, "deals": deals, "zero_sum": zero_sum,
                   "max_steps": max_steps, **rules}
        if self_play:  # checks the game, the rules and the episode's options as the AEC env does
            self.table = CardroomEnv(**options).table
        else:  # ... and the seat and the opponents, as the Gymnasium env does
            options.update(seat=seat, opponents=opponents)
            self.table = CardroomGymEnv(**options).table
        self.num_envs = num_envs
        self.self_play, self.seat, self.copy = self_play, seat, copy
        self.deals, self.zero_sum, self.max_steps = deals, zero_sum, max_steps
        self._first_seed = None if seed is None else self._check_seed(seed)
        self.engine = self._choose_engine(game, engine, opponents, options)
        n, size, actions = num_envs, self.table.size, self.table.num_actions
        players_now = self.table.players
        self.single_observation_space = self.table.observation_space
        self.single_state_space = self.table.state_space
        self.state_space = batch_space(self.single_state_space, n)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._obs = np.zeros((n, size), np.float32)
        self._mask = np.zeros((n, actions), np.int8)
        self._rewards = np.zeros((n, players_now) if self_play else (n,), np.float32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._to_act = np.zeros(n, np.int64)
        self._final_obs = np.zeros((n, size), np.float32)
        self._ended = np.zeros(n, np.bool_)
        self._state = np.zeros((n, players_now * size), np.float32)
        self._batch.bind(self._obs, self._mask, self._rewards, self._terminated, self._truncated,
                         self._to_act, self._final_obs)
        self._started = False

    def _choose_engine(self, game: str, engine: str | None, opponents: object,
                       options: dict[str, Any]) -> str:
        module = native.vector_for(self.table.spec)
        seats = [] if self.self_play else [s for s in range(self.table.players) if s != self.seat]
        bots = None if module is None else _native_bots(opponents, seats, module.POLICIES)
        # The environment's one choice of engine: asked for, else the one chosen now.
        if (native.Engine(engine) if engine is not None else native.Engine.chosen()).name == "native":
            if module is not None and bots is not None:
                named: list[str | None] = [None] * self.table.players
                for s, bot in zip(seats, bots, strict=True):
                    named[s] = bot
                self._batch: Any = module.Batch(self.table.rules, self.num_envs, self.self_play, self.seat,
                                                named, self.deals, self.max_steps, self.zero_sum)
                return "native"
            if engine == "native":
                title = self.table.spec.title
                why = (f"{title} has no native vector environment" if module is None else
                       f"the native {title} batch plays only {', '.join(module.POLICIES)} opponents, "
                       f"not {opponents!r}")
                raise EnvError(f"engine='native' cannot be used: {why}; use engine='python' or None")
        self._batch = _PythonBatch(self, options)
        return "python"

    @staticmethod
    def _check_seed(seed: object) -> int:
        return check_env_seed(seed)

    def _seeds(self, seed: object) -> list[int]:
        n = self.num_envs
        if seed is None:
            if self._started:
                return [-1] * n  # each row's next game
            if self._first_seed is not None:
                seed = self._first_seed
            else:
                fresh = random.SystemRandom()
                return [fresh.randrange(MAX_ENV_SEED + 1) for _ in range(n)]
        if isinstance(seed, np.ndarray) and seed.ndim == 1:
            seed = seed.tolist()
        if isinstance(seed, Sequence) and not isinstance(seed, str | bytes):
            if len(seed) != n:
                raise EnvError(f"seed must be one whole number, or {n} of them (one a row), not {len(seed)}")
            return [self._check_seed(s) for s in seed]
        first = self._check_seed(seed)
        if first + n - 1 > MAX_ENV_SEED:
            raise EnvError(f"seed {first} gives rows seeds above {MAX_ENV_SEED}")
        return [first + i for i in range(n)]

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Every row deals a new game (see the class's seeds); its first observation and info."""
        seeds = self._seeds(seed)
        if seeds[0] >= 0:
            super().reset(seed=seeds[0])
        try:
            self._batch.reset(range(self.num_envs), seeds)
        except ValueError as err:  # a batch's refusal in words (e.g. the bots end every game dealt)
            raise EnvError(str(err)) from None
        self._started = True
        self._terminated[:] = self._truncated[:] = self._ended[:] = False
        return self._observation(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Each row takes its action (the seat to act's), then resets itself if its episode ended."""
        if not self._started:
            raise EnvError("no games yet: call reset() first")
        given = np.asarray(actions)
        n, count = self.num_envs, self.table.num_actions
        if given.shape != (n,):
            raise EnvError(f"actions must be one action a row: an array of shape ({n},), "
                           f"not of shape {given.shape}")
        if given.dtype.kind not in "iu":
            raise EnvError(f"actions must be whole numbers (an integer array), not {given.dtype} values")
        low, high = int(given.min()), int(given.max())
        if low < 0 or high >= count:
            row = int(np.flatnonzero((given < 0) | (given >= count))[0])
            raise EnvError(f"row {row}: action {int(given[row])} is outside the action space, "
                           f"0 to {count - 1}")
        chosen = np.ascontiguousarray(given, np.int64)
        try:
            bad = self._batch.step(chosen)
        except ValueError as err:
            raise EnvError(str(err)) from None
        if bad >= 0:
            raise IllegalAction(f"row {bad}: {self._batch.refusal(bad, int(chosen[bad]))}; no row has moved")
        np.logical_or(self._terminated, self._truncated, out=self._ended)
        if self.copy:
            return (self._observation(), self._rewards.copy(), self._terminated.copy(),
                    self._truncated.copy(), self._info(final=True))
        return self._observation(), self._rewards, self._terminated, self._truncated, self._info(final=True)

    def _observation(self) -> dict[str, Any]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def _info(self, final: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {}
        if self.self_play:
            info["to_act"] = self._to_act.copy() if self.copy else self._to_act
        if final:
            info["final_obs"] = self._final_obs.copy() if self.copy else self._final_obs
            info["_final_obs"] = self._ended.copy() if self.copy else self._ended
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Each row's legal actions now, as booleans (``num_envs x actions``)."""
        return self._mask.astype(np.bool_)

    # -- the global state, saved states and chosen deals or positions ----------------------

    def state(self) -> npt.NDArray[np.float32]:
        """The global state of every row, for a centralised critic: row ``i`` is every seat's
        observation of its game, in seat order (``num_envs x players * size``; ``state_space``),
        what ``rl.gym_env(...).state()`` gives for that game. It holds every hand: a critic may
        read it in training, a policy must not. The environment's own array, written again by
        the next call (``copy=True``: a copy)."""
        self._require_games()
        self._batch.global_state(self._state)
        return self._state.copy() if self.copy else self._state

    def get_state(self) -> dict[str, Any]:
        """Everything the environment is now, to :meth:`set_state` it (or another made with the
        same keywords) back to, mid-episode: every row's game, bots' and seeds' generators and
        episode counters, and the arrays it last returned. It pickles (so does the environment,
        as its keywords and this), and is the environment's own: later steps change nothing in it."""
        self._require_games()
        return {"made": self._key(), "engine": self.engine,
                "rows": [self._batch.row_state(row) for row in range(self.num_envs)],
                "arrays": {name: getattr(self, name).copy() for name in _ARRAYS},
                "np_random": copying.deepcopy(self._np_random)}

    def set_state(self, saved: dict[str, Any]) -> None:
        """Back to ``saved`` (what :meth:`get_state` gave, here or in an environment made with
        the same keywords): the next steps are those the environment took from there."""
        if not isinstance(saved, dict) or set(saved) != {"made", "engine", "rows", "arrays", "np_random"}:
            raise EnvError(f"set_state takes what get_state() gives, not {type(saved).__name__}")
        if saved["made"] != self._key() or saved["engine"] != self.engine:
            raise EnvError("that state is of another environment: its game, rules, rows, mode, engine or "
                           "episode options differ from this one's")
        rows = saved["rows"]
        if len(rows) != self.num_envs:
            raise EnvError(f"that state has {len(rows)} rows, this environment {self.num_envs}")
        for row, state in enumerate(rows):
            if self.engine == "native":
                self._batch.set_row_state(row, *state)
            else:
                self._batch.set_row_state(row, state)
        for name in _ARRAYS:
            getattr(self, name)[...] = saved["arrays"][name]
        self._np_random = copying.deepcopy(saved["np_random"])
        self._started = True

    def load_row(self, row: int, *, seed: int | None = None,
                 state: State | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Row ``row`` starts a new episode now, from game ``seed`` (a deal of your choosing: the
        row then plays what ``reset`` with that seed plays there) or from the position ``state``
        (a State of this environment's game and rules, on either engine; a copy is played, its
        bots are game ``state.seed``'s and the row's later games follow from that seed, as
        ``rl.gym_env``'s ``reset(options={"state": state})``). The other rows are untouched; the
        observations and infos of every row, as ``reset`` returns them."""
        self._require_games()
        check_whole(row, "row", 0, self.num_envs - 1, error=EnvError)
        if (seed is None) == (state is None):
            raise EnvError("load_row takes a seed (a deal) or a state (a position), one of them")
        if seed is not None:
            try:
                self._batch.reset([row], [self._check_seed(seed)])
            except ValueError as err:
                raise EnvError(str(err)) from None
        else:
            position = check_position(state, self.table)
            if not self._batch.load(row, position, position.seed):
                who = "it is nobody's turn" if self.self_play else (
                    f"the opponents end its episode before seat {self.seat} has a move")
                raise EnvError(f"row {row} cannot start from that position: {who}")
        self._rewards[row] = 0
        self._terminated[row] = self._truncated[row] = self._ended[row] = False
        return self._observation(), self._info()

    def _require_games(self) -> None:
        if not self._started:
            raise EnvError("no games yet: call reset() first")

    def _key(self) -> tuple[Any, ...]:
        return (self.table.rules, self.num_envs, self.self_play, self.seat, self.deals, self.zero_sum,
                self.max_steps)

    def __getstate__(self) -> dict[str, Any]:
        # Made again from its keywords where it is unpickled, then set to its state: the batch
        # (in C++ or Python) is the code's; its rows' states are data.
        return {"made": {**self._made, "engine": self.engine},
                "state": self.get_state() if self._started else None}

    def __setstate__(self, pickled: dict[str, Any]) -> None:
        made = dict(pickled["made"])
        self.__init__(made.pop("game"), **made)  # type: ignore[misc]  # made again, as pickled
        if pickled["state"] is not None:
            self.set_state(pickled["state"])


def vector_env(game: str, num_envs: int = 1, **options: Any) -> CardroomVectorEnv:
    """``num_envs`` games of ``game`` stepped in one call: see :class:`CardroomVectorEnv`.

    ``gymnasium.make_vec("cardroom/Baha-v0", num_envs=N)`` makes the same environment."""
    return CardroomVectorEnv(game, num_envs=num_envs, **options)
