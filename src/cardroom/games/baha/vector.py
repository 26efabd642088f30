"""Baha's native vector environment: N games stepped in C++ (``native/cardroom/baha_vector.hpp``).

The batch behind ``cardroom.rl.vector_env("baha", ...)`` when the native core is built: the
step loop, the bots and the observation encoder run in C++ with the GIL released, writing
straight into the arrays the environment hands over. Its observations are
:mod:`cardroom.games.baha.observation`'s, bit for bit, and its episodes those of the Python
vector env (tests/native/test_vector_native.py steps both side by side).

The contract of a native batch (what a spec's ``vector`` names,
:class:`cardroom.games.contracts.NativeVector`): ``POLICIES``, the bots it plays, and
``Batch(rules, num_envs, self_play, seat, bots, deals, max_steps, zero_sum)`` with
``bind(obs, mask, rewards, terminated, truncated, to_act, final_obs)``, ``reset(rows, seeds)``
(a seed of -1: the next game of the row's sequence), ``step(actions)`` (-1, or the first row
whose action is not legal, nothing changed) and ``refusal(row, action)``, the words for such an
action. For the environment's state: ``global_state(out)`` (every row's every seat's
observation, ``num_envs x players x size``), ``row_state(row)`` (the row's game as a native
state, its log empty since the batch keeps none, and the rest of the row as plain values),
``set_row_state(row, state, values)`` (the row as ``row_state`` gave it) and ``load(row, state,
seed)`` (the row's episode starts at ``state``, its bots and later games those of ``seed``;
False, nothing changed, if the bots end the episode before the learner moves).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.games.baha.actions import CARD_TEXT, PASS_BASE
from cardroom.games.baha.native import NativeBahaState, core_rules
from cardroom.games.baha.rules import Rules
from cardroom.native import core
from cardroom.native.face import POLICIES, NativeBatch, check_bots

__all__ = ["POLICIES", "Batch"]



class Batch(NativeBatch):
    """Baha's native batch (see the module's docstring for the contract)."""

    STATE = NativeBahaState

    def __init__(self, rules: Rules, num_envs: int, self_play: bool, seat: int, bots: Sequence[str | None],
                 deals: int | None, max_steps: int | None, zero_sum: bool) -> None:
        heuristic = check_bots("a native Baha batch", bots)
        self._rules = rules
        self._core = core().BahaVector(
            core_rules(rules), num_envs, self_play, seat, heuristic, deals or 0, max_steps or 0, zero_sum,
        )

    def _text(self, action: int) -> str:
        return f"play {CARD_TEXT[action]}" if action < PASS_BASE else f"pass {CARD_TEXT[action - PASS_BASE]}"
