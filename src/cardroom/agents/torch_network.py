"""The learned agent's network in torch, for the code that trains one (torch is the ``train`` extra).

:mod:`cardroom.agents.learned` plays a network with NumPy: hidden ReLU layers ``layers.0`` ..
``layers.K-1``, then a ``policy`` head (one logit per action) and a ``value`` head. This module
is the same network as a ``torch.nn.Module``: :func:`cardroom.agents.training.train` fits one,
``examples/league.py`` and ``examples/ppo_vector.py`` learn one by playing, and each writes it
back with :meth:`PolicyValueNet.tensors` (by the names the learned agent reads) through
:func:`cardroom.agents.training.save_network`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from cardroom.agents.learned import Network

__all__ = ["PolicyValueNet"]


class PolicyValueNet(nn.Module):
    """Hidden ReLU layers of the widths ``hidden``, then a policy head over ``actions`` and a
    value head, reading observations of ``inputs`` numbers."""

    def __init__(self, inputs: int, actions: int, hidden: tuple[int, ...]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = inputs
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.body = nn.Sequential(*layers)
        self.policy = nn.Linear(width, actions)
        self.value = nn.Linear(width, 1)

    @classmethod
    def from_network(cls, network: Network, inputs: int | None = None,
                     actions: int | None = None) -> PolicyValueNet:
        """A module holding a loaded network's weights (a shipped file or one of your own);
        ``inputs`` and ``actions``, where given, are the sizes the caller's environment has, and
        a network of other sizes is refused (ValueError) before any weight is read."""
        for what, wanted, has in (("observation", inputs, network.observation_size),
                                  ("action", actions, network.num_actions)):
            if wanted is not None and wanted != has:
                raise ValueError(f"the network reads {what}s of {has} numbers, the environment's have "
                                 f"{wanted}: it was trained on other rules or another encoder")
        hidden = tuple(weight.shape[0] for weight, _ in network.layers)
        module = cls(network.observation_size, network.num_actions, hidden)
        pairs = [*network.layers, network.policy, network.value]
        with torch.no_grad():
            for layer, (weight, bias) in zip(module.linear(), pairs, strict=True):
                layer.weight.copy_(torch.from_numpy(weight))
                layer.bias.copy_(torch.from_numpy(bias))
        return module

    def linear(self) -> list[nn.Linear]:
        """The linear layers in the order of the file: the hidden ones, the policy, the value."""
        return [*(m for m in self.body if isinstance(m, nn.Linear)), self.policy, self.value]

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (the actions outside ``mask``, where given, at -1e9) and values, for a batch."""
        h = self.body(x)
        logits = self.policy(h)
        if mask is not None:
            logits = logits.masked_fill(~mask, -1e9)
        return logits, self.value(h)[..., 0]

    def tensors(self) -> dict[str, npt.NDArray[np.float32]]:
        """The weights by the names the learned agent reads (copies, float32)."""
        layers = self.linear()
        names = [f"layers.{i}" for i in range(len(layers) - 2)] + ["policy", "value"]
        out: dict[str, npt.NDArray[np.float32]] = {}
        for name, layer in zip(names, layers, strict=True):
            out[f"{name}.weight"] = layer.weight.detach().numpy().astype(np.float32)
            out[f"{name}.bias"] = layer.bias.detach().numpy().astype(np.float32)
        return out
