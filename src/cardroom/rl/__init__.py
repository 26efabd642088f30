"""Learning environments on Cardroom's games: PettingZoo (every seat an agent) and Gymnasium
(one learner against bots), over any game of the registry that names an observation encoder.

>>> from cardroom import rl
>>> env = rl.env("baha", players=4)
>>> env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('seat_1', (568,), 13)
>>> env.step(int(obs["action_mask"].argmax()))

The same observation outside an environment, for any state and seat:

>>> state = env.game
>>> rl.observe(state, 2).shape, rl.action_mask(state).shape
((568,), (104,))

- :func:`env` / :class:`CardroomEnv`: the PettingZoo AEC environment.
- :func:`gym_env` / :class:`CardroomGymEnv`: the Gymnasium environment, with ``action_masks()``;
  registered with Gymnasium on import as ``cardroom/Baha-v0`` and ``cardroom/BAEBAE-v0``
  (:func:`gymnasium_id`), so ``gymnasium.make`` and ``gymnasium.make_vec`` make it.
- :func:`vector_env` / :class:`CardroomVectorEnv`: N games stepped in one call (Gymnasium's
  ``VectorEnv``; ``gymnasium.make_vec`` makes it), single-agent or self-play, in C++ for Baha.
- All three: ``state()``, the global state for a centralised critic (every seat's observation;
  the vector env's, every row's). The vector env also saves and restores itself mid-episode
  (``get_state``/``set_state``, pickle) and takes a chosen deal or position into a row
  (``load_row``); every env takes seeds from 0 to :data:`MAX_ENV_SEED`.
- :func:`observe` (float32, what one seat may know) and :func:`action_mask` (int8, the legal
  actions of the seat to act); the layout of each game's array is its encoder's
  ``slices(rules)``, listed in docs/research.md (:func:`slices` here).

Rewards: when a deal ends (a Baha hand, a BAEBAE round), each seat's change of score, negated
so that higher is better (both games count points against a player: ``GameSpec.lower_wins``);
with ``zero_sum=True`` less the mean over seats. Bad input (an unknown game or option, an
action outside the mask, a step after the end, a bad seed) raises a :class:`ValueError` that
says what was wrong.
"""

from __future__ import annotations

import importlib.util

for _needed in ("numpy", "gymnasium", "pettingzoo"):
    if importlib.util.find_spec(_needed) is None:
        raise ImportError(f"cardroom.rl needs {_needed}, which comes with the rl extra: "
                          "pip install 'cardroom[rl]'")

from cardroom.games.tensor import Slice  # noqa: E402  (after the check that names the extra)
from cardroom.rl.aec import CardroomEnv, env  # noqa: E402
from cardroom.rl.single import (  # noqa: E402
    GYMNASIUM_NAMESPACE,
    ILLEGAL_ACTIONS,
    CardroomGymEnv,
    gym_env,
    gymnasium_id,
    register_gymnasium,
)
from cardroom.rl.table import MAX_ENV_SEED, EnvError, Table, action_mask, observe  # noqa: E402
from cardroom.rl.vector import CardroomVectorEnv, vector_env  # noqa: E402

__all__ = [
    "CardroomEnv", "CardroomGymEnv", "CardroomVectorEnv", "EnvError", "GYMNASIUM_NAMESPACE", "MAX_ENV_SEED",
    "ILLEGAL_ACTIONS", "Slice", "action_mask", "env", "gym_env", "gymnasium_id", "observe",
    "register_gymnasium", "slice_table", "slices", "vector_env",
]

register_gymnasium()


def slices(game: str, players: int | None = None, **options: object) -> list[Slice]:
    """The observation's slices for ``game`` with those rules: name, start, stop, bounds, meaning."""
    table = Table.of(game, players, options)
    result: list[Slice] = table.encoder.slices(table.rules)
    return result



def _bound(value: float) -> str:
    return {float("inf"): "inf", float("-inf"): "-inf"}.get(value, f"{value:g}")


def slice_table(game: str, players: int | None = None, **options: object) -> str:
    """The observation's slices as a Markdown table (what docs/research.md shows)."""
    rows = ["| entries | slice | values | meaning |", "| ---: | --- | --- | --- |"]
    for s in slices(game, players, **options):
        values = f"{_bound(s.low)} to {_bound(s.high)}"
        rows.append(f"| {s.start}-{s.stop - 1} | `{s.name}` | {values} | {s.meaning} |")
    return "\n".join(rows)
