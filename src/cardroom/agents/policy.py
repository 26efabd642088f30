"""The policy agent: a trained MaskablePPO policy (``sb3-contrib``) playing a seat.

It reads only what the game's observation encoder (its spec's ``observation``, the one the
learning environments train on) builds from its seat's view, and the legal actions marked
over the game's action space (``GameSpec.info.num_actions``), so it sees exactly what a person
in that seat may know. A policy is saved by ``MaskablePPO.save`` (``examples/train_baha_ppo.py``
makes one) on the observations of one game and table size; another game's observations are
refused with the sizes that differ. Loading a policy file runs the code it pickles, as any
``stable-baselines3`` file does: load only policies you trust.

On the command line: ``--agents policy:path=baha-ppo.zip`` (the ``train`` extra installs what
it needs); ``policy:path=...:sample=true`` draws each action from the policy's probabilities
with the bot's seed instead of taking the likeliest.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardroom.agents.base import AgentError
from cardroom.engine import Action, State
from cardroom.text import shorten

__all__ = ["PolicyAgent", "load_policy"]

OBSERVATION = "observation"
ACTION_MASK = "action_mask"
Mask = npt.NDArray[np.bool_]
ASK = "give path= a policy's .zip, as MaskablePPO.save writes it"


class PolicyAgent:
    """Plays the likeliest legal action of a saved policy (or samples one, seeded)."""

    name = "policy"

    def __init__(self, path: str | Path | None = None, sample: bool = False, seed: int | None = None) -> None:
        if path is None or (isinstance(path, str) and not path.strip()):
            raise AgentError("policy needs path=FILE: a policy saved by MaskablePPO (a .zip file)")
        if not isinstance(path, str | Path):
            raise AgentError(f"policy: path must be a file name, not {shorten(repr(path), 40)}")
        if not isinstance(sample, bool):
            raise AgentError(f"policy: sample must be true or false, not {shorten(repr(sample), 40)}")
        self.path = Path(path)
        self.model = load_policy(self.path)
        self.sample = sample
        self.rng = np.random.default_rng(seed)

    def act(self, state: State, seat: int) -> Action:
        observation, mask = seen_by(state, seat)
        self._check_sizes(state, observation, mask)
        probabilities = self._probabilities(observation, mask)
        if self.sample:
            return int(self.rng.choice(len(probabilities), p=probabilities))
        return int(np.argmax(probabilities))

    def _probabilities(self, observation: npt.NDArray[np.float32], mask: Mask) -> npt.NDArray[np.float64]:
        """The policy's probability of each action, illegal ones 0 (the mask applied)."""
        import torch

        policy = self.model.policy
        seen: Any = observation
        if _takes_dict(self.model):
            # A policy trained on the environment's whole observation also reads the mask.
            seen = {OBSERVATION: observation, ACTION_MASK: mask.astype(np.int8)}
        tensor, _ = policy.obs_to_tensor(seen)
        with torch.no_grad():
            distribution = policy.get_distribution(tensor, action_masks=mask)
            chances = distribution.distribution.probs[0].cpu().numpy()
        probabilities: npt.NDArray[np.float64] = chances.astype(np.float64)
        probabilities[~mask] = 0.0
        # Renormalized in float64: rng.choice wants a sum of 1 closer than float32 gives it.
        normalized: npt.NDArray[np.float64] = probabilities / probabilities.sum()
        return normalized

    def _check_sizes(self, state: State, observation: npt.NDArray[np.float32], mask: Mask) -> None:
        """Refuse a policy trained on another game's (or table size's) observations."""
        wanted = _observation_size(self.model)
        actions = int(self.model.action_space.n)
        if observation.size == wanted and mask.size == actions:
            return
        title = state.rules.spec.title
        players = len(state.scores)
        raise AgentError(
            f"policy {shorten(str(self.path), 60)!r} was trained on observations of {wanted} numbers and "
            f"{actions} actions; {title} with {players} players gives {observation.size} numbers and "
            f"{mask.size} actions: it was trained for another game or table size"
        )


def seen_by(state: State, seat: int) -> tuple[npt.NDArray[np.float32], Mask]:
    """What ``seat`` observes of ``state`` (the game's encoder, through its spec) and the mask
    of the legal actions of the seat to act, over the game's action space: what
    ``cardroom.rl``'s environments give a policy they train."""
    spec = state.rules.spec
    if spec.observation is None:
        raise AgentError(f"policy: {spec.title} has no observation encoder, so no policy can play it")
    encoder = spec.load("observation")
    observation = np.empty(encoder.size(state.rules), np.float32)
    encoder.encode(state, seat, observation)
    mask = np.zeros(spec.info.num_actions(state.rules), bool)
    mask[state.legal_actions()] = True
    return observation, mask


def _takes_dict(model: Any) -> bool:
    from gymnasium import spaces

    return isinstance(model.observation_space, spaces.Dict)


def _observation_size(model: Any) -> int:
    space = model.observation_space[OBSERVATION] if _takes_dict(model) else model.observation_space
    return int(np.prod(space.shape))


def load_policy(path: Path) -> Any:
    """The MaskablePPO saved at ``path``, loaded once per file (and again if the file changes)."""
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise AgentError(f"policy: no file {shorten(str(path), 60)!r} ({ASK})") from None
    except OSError as err:
        raise AgentError(f"policy: cannot read {shorten(str(path), 60)!r}: {err.strerror or err}") from None
    if not path.is_file():
        raise AgentError(f"policy: {shorten(str(path), 60)!r} is not a file ({ASK})")
    return _load(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> Any:
    """Load once per path and version of the file (its time and size are part of the key)."""
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise AgentError("the policy agent needs the train extra: pip install 'cardroom[train]'") from None
    import torch
    from gymnasium import spaces

    # One observation at a time through a small network: a second thread only waits on the
    # first (on a busy machine, many times slower), and simulations run one process per core.
    torch.set_num_threads(1)
    try:
        model = MaskablePPO.load(path, device="cpu")
    # A file from outside may fail in any of the many ways unzipping and unpickling can.
    except Exception as err:
        raise AgentError(
            f"policy: {shorten(path, 60)!r} is not a saved MaskablePPO policy "
            f"({type(err).__name__}: {shorten(str(err), 80)})"
        ) from None
    space = model.observation_space
    shaped = isinstance(space, spaces.Box) or (
        isinstance(space, spaces.Dict) and isinstance(space.spaces.get(OBSERVATION), spaces.Box)
    )
    if not shaped or not isinstance(model.action_space, spaces.Discrete):
        raise AgentError(
            f"policy: {shorten(path, 60)!r} was not trained on a Cardroom environment: it observes "
            f"{shorten(str(space), 60)} and acts in {shorten(str(model.action_space), 40)}"
        )
    return model
