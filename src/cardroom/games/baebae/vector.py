"""BAEBAE's native vector environment: N games stepped in C++ (``native/cardroom/baebae_vector.hpp``).

The batch behind ``cardroom.rl.vector_env("baebae", ...)`` when the native core is built: the
step loop, the bots (random and the heuristic, ``baebae_heuristic.hpp``) and the observation
encoder run in C++ on the native engine and the deck's compiled program, with the GIL
released, writing straight into the arrays the environment hands over. Its observations are
:mod:`cardroom.games.baebae.observation`'s, bit for bit, and its episodes those of the Python
vector env, games passed over included (tests/native/test_vector_native.py steps both side by
side). The contract is :mod:`cardroom.games.baha.vector`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.games.baebae.actions import ActionSpace, action_to_string
from cardroom.games.baebae.native import NativeBaebaeState, core_rules, loaded_rules, refuse_lacking
from cardroom.games.baebae.rules import Rules
from cardroom.native import core
from cardroom.native.face import POLICIES, NativeBatch, check_bots

__all__ = ["POLICIES", "Batch"]



class _Words:
    """What :func:`~cardroom.games.baebae.actions.action_to_string` reads of a state: the
    rules' cards and the action space."""

    def __init__(self, rules: Rules, space: ActionSpace) -> None:
        self.rules, self.space = rules, space


class Batch(NativeBatch):
    """BAEBAE's native batch (see :mod:`cardroom.games.baha.vector` for the contract)."""

    STATE = NativeBaebaeState

    def __init__(self, rules: Rules, num_envs: int, self_play: bool, seat: int, bots: Sequence[str | None],
                 deals: int | None, max_steps: int | None, zero_sum: bool) -> None:
        heuristic = check_bots("a native BAEBAE batch", bots)
        refuse_lacking(rules)
        self._rules = rules
        self._words = _Words(rules, loaded_rules(rules)[2])
        self._core = core().BaebaeVector(
            core_rules(rules), num_envs, self_play, seat, heuristic, deals or 0, max_steps or 0, zero_sum,
        )

    def _text(self, action: int) -> str:
        return action_to_string(self._words, action)  # type: ignore[arg-type]
