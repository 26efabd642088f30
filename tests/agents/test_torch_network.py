"""The learned agent's network in torch: a shipped file in and out unchanged, the same forward pass."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from cardroom.agents.learned import load_network, shipped_path  # noqa: E402
from cardroom.agents.torch_network import PolicyValueNet  # noqa: E402


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_shipped_network_goes_through_torch_unchanged(game: str) -> None:
    network = load_network(shipped_path(game))
    module = PolicyValueNet.from_network(network)
    tensors = module.tensors()
    assert set(tensors) == {f"layers.{i}.{p}" for i in range(len(network.layers)) for p in ("weight", "bias")} | {
        "policy.weight", "policy.bias", "value.weight", "value.bias"}
    for i, (weight, bias) in enumerate(network.layers):
        assert np.array_equal(tensors[f"layers.{i}.weight"], weight) and np.array_equal(tensors[f"layers.{i}.bias"], bias)
    assert np.array_equal(tensors["policy.weight"], network.policy[0])
    assert np.array_equal(tensors["value.bias"], network.value[1])
    x = np.random.default_rng(1).random((5, network.observation_size)).astype(np.float32)
    mask = np.ones((5, network.num_actions), bool)
    mask[:, 0] = False
    with torch.no_grad():
        logits, values = module(torch.from_numpy(x), torch.from_numpy(mask))
    want_logits, want_values = network.forward(x)
    assert np.allclose(values.numpy(), want_values, atol=1e-4)
    assert np.allclose(logits.numpy()[:, 1:], want_logits[:, 1:], atol=1e-4)
    assert (logits.numpy()[:, 0] == -1e9).all()  # the masked action


def test_a_network_of_other_sizes_is_refused_in_words() -> None:
    network = load_network(shipped_path("baebae"))
    assert PolicyValueNet.from_network(network, network.observation_size, network.num_actions).linear()
    with pytest.raises(ValueError, match=f"observations of {network.observation_size} numbers, the environment's have 7"):
        PolicyValueNet.from_network(network, 7, network.num_actions)
    with pytest.raises(ValueError, match=f"actions of {network.num_actions} numbers, the environment's have 3"):
        PolicyValueNet.from_network(network, network.observation_size, 3)
