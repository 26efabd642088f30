"""Training the learned agent: a small network distilled from the native ISMCTS (``cardroom train``).

Two steps, each bounded and repeatable from its seed:

1. **Targets** (:func:`generate`, NumPy and the native engine only). Games are played with
   every seat moved by the native ISMCTS (``iterations`` a move, heuristic roll-outs, the
   game's UCB constant and the points reward unless ``options`` say otherwise: ``cardroom
   train --search``). At each decision with a choice the acting seat's observation (the
   game's observation encoder: only what that seat may know), its legal actions, the search's
   root visit counts (the policy target) and its root value (the mean reward of its most
   visited move) are kept; when the deal ends, every kept decision of it gets the acting seat's
   ``returns()`` (the outcome target, the unit the search backs up).
2. **Distillation** (:func:`train`, torch, CPU, one thread). A multilayer perceptron learns
   the visit distribution (cross-entropy over the legal actions) and the value (squared error
   against the mean of the outcome and the search's value). Decisions of a share of the games
   are held out; after each epoch the held-out loss and the agreement with the search's choice
   are logged (the learning curve).

The result is written as a safetensors file that :mod:`cardroom.agents.learned` reads with
NumPy (no torch needed to play). ``examples/league.py`` and ``docs/research.md`` show the
rest of the research side.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from cardroom.agents.base import Agent
from cardroom.agents.ismcts_options import DEFAULT_WIN_TEMPERATURE
from cardroom.agents.learned import FORMAT, Network, observe
from cardroom.engine import NativeSearchRoot, Rules, State, WinReturns

__all__ = ["Targets", "generate", "policy_targets", "train", "save_network"]

Floats = npt.NDArray[np.float32]


@dataclass
class Targets:
    """Decisions and their targets, row by row."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    visits: npt.NDArray[np.float32]
    """The search's root visits over the action space (0 for actions it did not try)."""
    search_values: npt.NDArray[np.float32]
    outcomes: npt.NDArray[np.float32]
    action_values: npt.NDArray[np.float32]
    """The root's mean return of each action for the acting seat (NaN for actions it did not
    try; all NaN in files written before these were kept)."""
    games: npt.NDArray[np.int32]
    """Which game (0..) each row came from: held-out rows are whole games."""

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.__dict__)

    @classmethod
    def load(cls, paths: list[Path]) -> Targets:
        parts = [np.load(p) for p in paths]
        fields: dict[str, Any] = {}
        offset = 0
        for name in ("observations", "masks", "visits", "search_values", "outcomes"):
            fields[name] = np.concatenate([p[name] for p in parts])
        fields["action_values"] = np.concatenate([
            p["action_values"] if "action_values" in p.files
            else np.full(p["visits"].shape, np.nan, np.float32) for p in parts
        ])
        numbered = []
        for p in parts:
            numbered.append(p["games"] + offset)
            offset += int(p["games"].max()) + 1 if len(p["games"]) else 0
        fields["games"] = np.concatenate(numbered)
        return cls(**fields)


SEARCH_OPTIONS = ("exploration", "reward", "win_temperature")
"""The ``ismcts`` options the labelling search may be given (``cardroom train --search``)."""


def search(
    state: State, seat: int, iterations: int, seed: int, prior: list[float] | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[int, list[tuple[int, int, float]]]:
    """The native ISMCTS from ``state`` for ``seat``: its move and its root's (action, visits,
    reward); ``prior`` (by action) makes the root's choice PUCT over it (``ismcts:policy=``);
    ``options``: any of :data:`SEARCH_OPTIONS`, as the ``ismcts`` agent takes them (by default
    the game's UCB constant and the points reward)."""
    if not isinstance(state, NativeSearchRoot):
        raise ValueError(f"no native search for {state.rules.game}: training needs the native engine")
    options = options or {}
    c = options.get("exploration", state.rules.spec.exploration)
    reward = {} if options.get("reward", "points") == "points" else {
        "reward": options["reward"],
        "win_temperature": options.get("win_temperature", DEFAULT_WIN_TEMPERATURE),
    }
    action, _, root = state.native_ismcts_root(
        seat, iterations=iterations, seconds=None, exploration=c, rollout="heuristic", epsilon=0.1,
        max_depth=200, seed=seed, threads=1, **({} if prior is None else {"root_prior": prior}), **reward,
    )
    return int(action), root


def search_options(text: str | None) -> dict[str, Any]:
    """``cardroom train --search``'s text (``reward=win:exploration=2``) as checked options: the
    ``ismcts`` agent's words for a bad value, and only :data:`SEARCH_OPTIONS`."""
    from cardroom.agents import parse_spec
    from cardroom.agents.base import AgentError
    from cardroom.agents.ismcts import ISMCTSAgent

    if not text:
        return {}
    _, options = parse_spec("ismcts:" + text)
    other = [k for k in options if k not in SEARCH_OPTIONS]
    if other:
        raise AgentError(f"--search {text!r}: the labelling search takes only {', '.join(SEARCH_OPTIONS)}, "
                         f"not {', '.join(other)}")
    ISMCTSAgent(**options)  # refuses a bad value in words
    return options


def outcome(state: State, options: dict[str, Any]) -> list[float]:
    """The value target of a deal just ended: the returns the labelling search backs up."""
    if options.get("reward", "points") == "win":
        return cast(WinReturns, state).win_returns(options.get("win_temperature", DEFAULT_WIN_TEMPERATURE))
    return list(state.returns())


def network_prior(network: Network, state: State, seat: int, legal: list[int]) -> list[float]:
    """``network``'s policy over ``seat``'s legal moves, by action (0 for the others)."""
    prior = [0.0] * network.num_actions
    for action, p in zip(legal, network.probabilities(observe(state, seat), legal).tolist(), strict=True):
        prior[action] = p
    return prior


def generate(
    game: str, rules: Rules, games_count: int, iterations: int, seed: int, *,
    first_game: int = 0, deadline: float | None = None, log: Callable[[str], None] = print,
    play: Callable[[int, int], Agent] | None = None, prior: Network | None = None,
    options: dict[str, Any] | None = None,
) -> Targets:
    """Play ``games_count`` games of seeds ``seed + first_game ..`` with the search at every
    seat and keep each decision's targets (see the module); stops early at ``deadline``
    (``time.monotonic()``), keeping whole games.

    ``play``: makes the agents that choose the moves instead of the search (the search still
    labels every decision with a choice: the states come from their play, DAgger-style), called
    as ``play(spec, seed)`` like :meth:`cardroom.sim.tournament.Lineup.make` (a front passes a
    line-up's ``make``); the line-up turns one seat a game (game ``g`` seats spec ``(s - g) mod
    players`` at seat ``s``), each agent seeded from the game. ``prior``: the labelling search
    takes this network's policy as its root prior (PUCT, as ``ismcts:policy=`` does): expert
    iteration. ``options``: the labelling search's (:func:`search_options`); with ``reward=win``
    the outcome target is the share of the win too."""
    from cardroom.native import Engine

    engine = Engine("native")  # the search labels decisions on native states
    spec = rules.spec
    num_actions = spec.info.num_actions(rules)
    rng = random.Random(seed)
    action_values: list[npt.NDArray[np.float32]] = []
    obs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    visits: list[npt.NDArray[np.float32]] = []
    values: list[float] = []
    outcomes: list[float] = []
    game_of: list[int] = []
    started = time.monotonic()
    for g in range(first_game, first_game + games_count):
        if deadline is not None and time.monotonic() >= deadline:
            break
        state = engine.new_game(rules, seed + g)
        players = len(state.scores)
        agents = None if play is None else [
            play((s - g) % players, (seed + g) * 1000 + s) for s in range(players)
        ]
        pending: list[tuple[int, int]] = []  # (row, seat) awaiting the deal's returns
        rows_before = len(obs)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            deal = state.deal_number
            if len(legal) == 1:
                # the agents are asked even so, as a match asks them (their streams stay the game's)
                action = legal[0] if agents is None else agents[seat].act(state, seat)
            else:
                chances = None if prior is None else network_prior(prior, state, seat, legal)
                action, root = search(state, seat, iterations, rng.getrandbits(63), chances, options)
                if agents is not None:
                    action = agents[seat].act(state, seat)
                counts = np.zeros(num_actions, np.float32)
                means = np.full(num_actions, np.nan, np.float32)
                best_visits, best_reward = -1, 0.0
                for key, n, reward in root:
                    if 0 <= key < num_actions:
                        counts[key] = n
                        if n > 0:
                            means[key] = reward / n
                    if n > best_visits:
                        best_visits, best_reward = n, reward / max(n, 1)
                mask = np.zeros(num_actions, bool)
                mask[legal] = True
                counts[~mask] = 0
                means[~mask] = np.nan
                if counts.sum() <= 0:
                    counts[legal] = 1
                pending.append((len(obs), seat))
                obs.append(observe(state, seat))
                masks.append(mask)
                visits.append(counts / counts.sum())
                values.append(best_reward)
                action_values.append(means)
                outcomes.append(0.0)
                game_of.append(g)
            state.apply(action)
            if state.is_over or state.deal_number != deal:
                returns = outcome(state, options or {})
                for row, s in pending:
                    outcomes[row] = returns[s]
                pending.clear()
        done = g - first_game + 1
        if done % 5 == 0 or done == games_count:
            log(f"{game}: {done} games, {len(obs)} decisions ({len(obs) - rows_before} in the last), "
                f"{time.monotonic() - started:.0f} s")
    return Targets(
        observations=np.array(obs, np.float32).reshape(len(obs), -1),
        masks=np.array(masks, bool).reshape(len(masks), num_actions),
        visits=np.array(visits, np.float32).reshape(len(visits), num_actions),
        search_values=np.array(values, np.float32),
        outcomes=np.array(outcomes, np.float32),
        action_values=np.array(action_values, np.float32).reshape(len(action_values), num_actions),
        games=np.array(game_of, np.int32),
    )


@dataclass
class Curve:
    """The learning curve: per epoch, the samples seen and the held-out figures."""

    epochs: list[dict[str, float]]


def train(
    data: Targets, *, hidden: tuple[int, ...] = (256, 256), epochs: int = 30, batch: int = 256,
    lr: float = 1e-3, weight_decay: float = 0.01, held_out: float = 0.1, seed: int = 0,
    value_weight: float = 0.5, sharpen: float = 3.0, q_mix: float = 0.0, q_temperature: float = 0.05,
    deadline: float | None = None, log: Callable[[str], None] = print,
) -> tuple[dict[str, npt.NDArray[np.float32]], Curve]:
    """Fit the network to ``data`` (see the module); its tensors (by the names
    :mod:`cardroom.agents.learned` reads) and the learning curve. ``sharpen`` raises the visit
    shares to that power before they are normalized again (above 1: the target leans to the
    search's most visited moves, which is what the agent plays). ``q_mix`` mixes in, with that
    weight, a softmax of the root's action values (mean returns) at ``q_temperature`` over the
    moves the search tried (:func:`policy_targets`)."""
    import torch

    from cardroom.agents.torch_network import PolicyValueNet

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    game_ids = np.unique(data.games)
    rng = np.random.default_rng(seed)
    # whole games held out (none of one game: then the curve is measured on what it fits)
    count = max(1, int(len(game_ids) * held_out)) if len(game_ids) > 1 else 0
    held = set(rng.choice(game_ids, size=count, replace=False).tolist())
    test = np.isin(data.games, list(held))
    fit = ~test
    if not test.any():
        test = fit
    x = torch.from_numpy(data.observations)
    mask = torch.from_numpy(data.masks)
    target_p = torch.from_numpy(policy_targets(data, sharpen, q_mix, q_temperature))
    target_v = torch.from_numpy(0.5 * (data.outcomes + data.search_values))

    net = PolicyValueNet(x.shape[1], mask.shape[1], hidden)
    optimizer = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=weight_decay)
    fit_rows = np.flatnonzero(fit)
    test_rows = torch.from_numpy(np.flatnonzero(test))
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(1, epochs))

    def losses(rows: Any) -> tuple[Any, Any, Any]:
        logits, values = net(x[rows], mask[rows])
        logp = torch.log_softmax(logits, dim=1)
        p_loss = -(target_p[rows] * logp).sum(dim=1).mean()
        v_loss = ((values - target_v[rows]) ** 2).mean()
        agree = (logits.argmax(dim=1) == target_p[rows].argmax(dim=1)).float().mean()
        return p_loss, v_loss, agree

    curve = Curve(epochs=[])
    seen = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(fit_rows)
        for start in range(0, len(order), batch):
            rows = torch.from_numpy(order[start:start + batch])
            p_loss, v_loss, _ = losses(rows)
            optimizer.zero_grad()
            (p_loss + value_weight * v_loss).backward()
            optimizer.step()
            seen += len(rows)
        schedule.step()
        with torch.no_grad():
            p_test, v_test, agree = losses(test_rows)
        point = {"epoch": epoch, "samples": seen, "policy_loss": float(p_test), "value_loss": float(v_test),
                 "agreement": float(agree)}
        curve.epochs.append(point)
        log(f"epoch {epoch}: held-out policy loss {float(p_test):.4f}, value loss {float(v_test):.4f}, "
            f"agreement with the search {float(agree):.3f}")
        if deadline is not None and time.monotonic() >= deadline:
            log("the time for training is up: stopping after this epoch")
            break
    return net.tensors(), curve


def policy_targets(data: Targets, sharpen: float, q_mix: float = 0.0, q_temperature: float = 0.05) -> Floats:
    """The policy target of each row: the visit shares raised to ``sharpen`` and normalized,
    mixed with weight ``q_mix`` with ``softmax(action value / q_temperature)`` over the actions
    the search tried (rows without action values, from older files, keep the visits alone)."""
    if not 0 <= q_mix <= 1 or not q_temperature > 0:
        raise ValueError(f"q_mix must be 0 to 1 and q_temperature above 0, not {q_mix} and {q_temperature}")
    sharp = np.power(data.visits, sharpen, dtype=np.float32)
    target: Floats = sharp / sharp.sum(axis=1, keepdims=True)
    if q_mix == 0:
        return target
    tried = ~np.isnan(data.action_values) & (data.visits > 0)
    known: npt.NDArray[np.bool_] = np.asarray(tried.any(axis=1))
    scaled = np.where(tried, np.nan_to_num(data.action_values) / q_temperature, -np.inf)
    scaled[~known] = 0
    scaled -= scaled.max(axis=1, keepdims=True)
    weights = np.where(tried, np.exp(scaled), 0).astype(np.float32)
    q = weights / np.maximum(weights.sum(axis=1, keepdims=True), 1e-30)
    mixed: Floats = np.where(known[:, None], (1 - q_mix) * target + q_mix * q, target).astype(np.float32)
    return mixed


def save_network(
    path: Path, tensors: dict[str, npt.NDArray[np.float32]], game: str, rules: Rules, trained: dict[str, Any]
) -> None:
    """Write ``tensors`` as a weights file the learned agent reads (safetensors, with metadata)."""
    from safetensors.numpy import save_file

    spec = rules.spec
    metadata = {
        "format": FORMAT,
        "game": game,
        "players": str(len(rules.new_game(0).scores)),
        "observation_size": str(tensors["layers.0.weight"].shape[1]),
        "num_actions": str(spec.info.num_actions(rules)),
        "rules": json.dumps(rules.to_dict(), sort_keys=True),
        "trained": json.dumps(trained, sort_keys=True),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({k: np.ascontiguousarray(v) for k, v in tensors.items()}, str(path), metadata=metadata)


def entropy_bits(p: npt.NDArray[np.float32]) -> float:
    """Mean entropy of rows of distributions, in bits (a figure for the log)."""
    q = np.clip(p, 1e-12, 1)
    return float(-(p * np.log2(q)).sum(axis=1).mean()) if len(p) else math.nan
