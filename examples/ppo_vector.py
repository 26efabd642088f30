"""PPO on the batched environment: a learner at every seat of the table, its opponents inside the batch.

The learner is the learned agent's network (``cardroom.agents.torch_network.PolicyValueNet``:
two hidden ReLU layers of 256, a policy head and a value head, reading the seat's observation
only), started at random (``--start random``) or from the weights shipped with Cardroom
(``--start shipped``: the network distilled from ISMCTS). It learns by PPO (the clipped
surrogate, generalized advantage estimation, minibatch epochs) on ``cardroom.rl.vector_env``
rows: a quarter of the rows seat it at each seat of the table, and the other seats are the
bots given (``--bots``, the heuristic by default), stepped in C++ with the game, so no Python
runs between two of the learner's moves. The rules are those the shipped weights were trained
on (BAEBAE's defaults; Baha one hand a game).

Its reward is the game's outcome: when a game ends, its share of first place (1 alone, 1/k
tied with k - 1 others) less one in ``players``; and, as a denser signal, ``--shape`` times
each deal's change of its score against the table's mean (the environment's ``zero_sum``
reward, points counted against a player negated).

Every ``--eval-every`` updates the policy plays ``--eval-games`` games greedily (the likeliest
legal action, as the ``learned`` agent plays), a quarter at each seat, on deals that are the
same at every evaluation and never dealt in training, and the share of them it won is logged
with a 95% interval. Into ``--out`` it writes ``player.safetensors`` (the learned agent's
format: play it as ``learned:path=...``) at each evaluation and at the end, and ``curve.csv``
and ``curve.png`` (the learning curve); ``--plot A/curve.csv B/curve.csv --out FILE.png``
draws several runs' curves together.

    pip install -e '.[research]'
    python examples/ppo_vector.py baebae --minutes 40 --out runs/ppo-baebae
    cardroom simulate baebae --duplicate --games 100 --seed 5000 \\
        --agents learned:path=runs/ppo-baebae/player.safetensors,heuristic,heuristic,heuristic

On a 2-core machine it learns from about 9,000 of the learner's moves a second of CPU on one
core (docs/strength.md, "Learning by playing: PPO against the heuristic", has the curves and
what the policies reached).
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from cardroom import games, rl
from cardroom.agents.learned import load_network, shipped_path
from cardroom.agents.torch_network import PolicyValueNet
from cardroom.agents.training import save_network

PLAYERS = 4
ROWS_APART = 2**20
"""Seeds a part of the rows spans: part ``k`` of a run seeded ``s`` seeds its rows from
``(s * PLAYERS + k) * ROWS_APART`` on (each row's games follow from its first seed), so no
two rows of a run, or of two runs, play the same games."""
EVAL_SEED = 2**50
"""The evaluations' seed: deals that training never plays."""
LAST_SEED = EVAL_SEED // PLAYERS // ROWS_APART
"""Training seeds stay below it (``2**28``), so their rows' seeds stay below the evaluation's."""


class Outcome:
    """The learner's share of first place in a game that just ended, read from its last
    observation (the ``totals`` slice: every seat's total, the learner's first)."""

    def __init__(self, game: str) -> None:
        spec = games.get(game)
        rules = table_rules(game)
        totals = next(s for s in spec.load("observation").slices(rules) if s.name == "totals")
        self.totals = slice(totals.start, totals.stop)
        self.lower_wins = spec.lower_wins

    def shares(self, final: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Per row of ``final`` (last observations): 1/k if the learner is first with k - 1
        others, else 0."""
        totals = final[:, self.totals]
        best = totals.min(axis=1) if self.lower_wins else totals.max(axis=1)
        first = totals == best[:, None]
        shares: npt.NDArray[np.float64] = np.where(first[:, 0], 1.0 / first.sum(axis=1), 0.0)
        return shares


def table_rules(game: str) -> Any:
    """The rules the learner plays: the shipped weights' (``trained_options``) for four players."""
    spec = games.get(game)
    return games.make_rules(game, {"players": PLAYERS, **dict(spec.trained_options)})


class Rows:
    """``envs`` rows of the vector environment, a quarter with the learner at each seat."""

    def __init__(self, game: str, envs: int, seed: int, bots: str) -> None:
        if envs < PLAYERS or envs % PLAYERS or envs // PLAYERS > ROWS_APART:
            raise ValueError(f"--envs must be a multiple of {PLAYERS} up to {PLAYERS * ROWS_APART}, not {envs}")
        options = dict(games.get(game).trained_options)
        self.parts = [
            rl.vector_env(game, num_envs=envs // PLAYERS, seat=seat, opponents=bots, players=PLAYERS,
                          seed=(seed * PLAYERS + seat) * ROWS_APART, zero_sum=True, **options)
            for seat in range(PLAYERS)
        ]
        self.observed = [part.reset()[0] for part in self.parts]
        self.size = envs

    def observations(self) -> tuple[torch.Tensor, torch.Tensor]:
        """Every row's observation and legal-action mask, the parts one after the other."""
        x = np.concatenate([o["observation"] for o in self.observed])
        mask = np.concatenate([o["action_mask"] for o in self.observed]).astype(bool)
        return torch.from_numpy(x), torch.from_numpy(mask)

    def step(self, actions: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                                             dict[int, npt.NDArray[np.float32]]]:
        """Each row's reward and whether its game ended, and the last observations of the
        games that ended (by row)."""
        rewards = np.zeros(self.size, np.float32)
        ended = np.zeros(self.size, bool)
        finals: dict[int, npt.NDArray[np.float32]] = {}
        at = 0
        for k, part in enumerate(self.parts):
            n = part.num_envs
            observed, reward, terminated, truncated, info = part.step(actions[at:at + n])
            self.observed[k] = observed
            rewards[at:at + n] = reward
            done = terminated | truncated
            ended[at:at + n] = done
            for row in np.flatnonzero(done):
                finals[at + int(row)] = np.array(info["final_obs"][row])
            at += n
        return rewards, ended, finals


def evaluate(net: PolicyValueNet, game: str, count: int, bots: str, outcome: Outcome) -> tuple[float, float, int]:
    """The share of at least ``count`` games the greedy policy wins (each row plays the same
    number of games, so short games are not favoured: ``count`` rounded up to a multiple of the
    rows), its 95% half-interval and the number of games."""
    envs = min(256, max(PLAYERS, count // PLAYERS * PLAYERS))
    rows = Rows(game, envs, LAST_SEED, bots)
    quota = math.ceil(count / envs)
    played = np.zeros(envs, int)
    shares: list[float] = []
    while (played < quota).any():
        x, mask = rows.observations()
        with torch.no_grad():
            logits, _ = net(x, mask)
        _, _, finals = rows.step(logits.argmax(dim=1).numpy())
        for row, final in finals.items():
            if played[row] < quota:
                played[row] += 1
                shares.append(float(outcome.shares(final[None, :])[0]))
    won = np.array(shares)
    return float(won.mean()), float(1.96 * won.std() / math.sqrt(len(won))), len(won)


def run(game: str, out: Path, *, minutes: float | None = None, updates: int | None = None, envs: int = 512,
        steps: int = 64, lr: float = 3e-4, start: str = "random", bots: str = "heuristic", win: float = 1.0,
        shape: float = 0.02, entropy: float = 0.01, epochs: int = 4, minibatch: int = 4096, clip: float = 0.2,
        lam: float = 0.95, seed: int = 1, threads: int = 1, eval_every: int = 60, eval_games: int = 4000,
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train until ``minutes`` or ``updates`` (whichever comes first); the last evaluation and
    the run's figures (also in ``curve.csv``)."""
    if minutes is None and updates is None:
        raise ValueError("give minutes or updates (or both)")
    if not 0 <= seed < LAST_SEED:
        raise ValueError(f"--seed must be from 0 to {LAST_SEED - 1} (higher ones would deal the evaluation's "
                         f"games), not {seed}")
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rules = table_rules(game)
    outcome = Outcome(game)
    rows = Rows(game, envs, seed, bots)
    inputs = rows.parts[0].single_observation_space["observation"].shape[0]
    actions = rows.parts[0].single_action_space.n
    if start == "shipped":
        net = PolicyValueNet.from_network(load_network(shipped_path(game)), inputs, actions)
    else:
        net = PolicyValueNet(inputs, actions, (256, 256))
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    out.mkdir(parents=True, exist_ok=True)
    curve: list[dict[str, float]] = []
    started = time.monotonic()
    cpu = time.process_time()
    moves = games_played = update = 0

    def checkpoint() -> None:
        won, half, played = evaluate(net, game, eval_games, bots, outcome)
        point = {"update": update, "moves": moves, "games": games_played,
                 "seconds": round(time.monotonic() - started, 1), "cpu_seconds": round(time.process_time() - cpu, 1),
                 "won": won, "low": won - half, "high": won + half}
        curve.append(point)
        log(f"update {update}: {moves} moves, {games_played} games, {point['seconds']:.0f} s; "
            f"greedy policy won {won:.3f} [{won - half:.3f}, {won + half:.3f}] of {played} games")
        save_network(out / "player.safetensors", net.tensors(), game, rules,
                     {"method": "ppo", "start": start, "bots": bots, "moves": moves, "games": games_played,
                      "update": update, "seed": seed, "win": win, "shape": shape, "lr": lr})
        with (out / "curve.csv").open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(point))
            writer.writeheader()
            writer.writerows(curve)

    checkpoint()
    shape_of = (steps, envs)
    x_buf = torch.zeros(*shape_of, inputs)
    mask_buf = torch.zeros(*shape_of, actions, dtype=torch.bool)
    action_buf = torch.zeros(*shape_of, dtype=torch.long)
    logp_buf, value_buf = torch.zeros(*shape_of), torch.zeros(*shape_of)
    reward_buf, done_buf = torch.zeros(*shape_of), torch.zeros(*shape_of)
    while True:
        if updates is not None and update >= updates:
            break
        if minutes is not None and time.monotonic() - started >= minutes * 60:
            break
        update += 1
        for t in range(steps):  # the rollout: every row a move of the learner
            x, mask = rows.observations()
            with torch.no_grad():
                logits, value = net(x, mask)
            policy = torch.distributions.Categorical(logits=logits)
            action = policy.sample()
            rewards, ended, finals = rows.step(action.numpy())
            rewards *= shape
            for row, final in finals.items():
                rewards[row] += win * (outcome.shares(final[None, :])[0] - 1 / PLAYERS)
            games_played += len(finals)
            x_buf[t], mask_buf[t], action_buf[t] = x, mask, action
            logp_buf[t], value_buf[t] = policy.log_prob(action), value
            reward_buf[t], done_buf[t] = torch.from_numpy(rewards), torch.from_numpy(ended.astype(np.float32))
        moves += steps * envs
        with torch.no_grad():
            _, next_value = net(*rows.observations())
        advantages = torch.zeros(*shape_of)
        running = torch.zeros(envs)
        for t in reversed(range(steps)):  # generalized advantage estimation, episodes cut where they end
            going = 1.0 - done_buf[t]
            following = next_value if t == steps - 1 else value_buf[t + 1]
            delta = reward_buf[t] + following * going - value_buf[t]
            running = delta + lam * going * running
            advantages[t] = running
        returns = (advantages + value_buf).reshape(-1)
        flat = (x_buf.reshape(-1, inputs), mask_buf.reshape(-1, actions), action_buf.reshape(-1),
                logp_buf.reshape(-1), advantages.reshape(-1), returns)
        for _ in range(epochs):
            for rows_at in torch.randperm(steps * envs).split(minibatch):
                x, mask, action, old_logp, advantage, target = (part[rows_at] for part in flat)
                logits, value = net(x, mask)
                policy = torch.distributions.Categorical(logits=logits)
                ratio = (policy.log_prob(action) - old_logp).exp()
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                surrogate = torch.min(ratio * advantage, ratio.clamp(1 - clip, 1 + clip) * advantage)
                loss = -surrogate.mean() + 0.5 * ((value - target) ** 2).mean() - entropy * policy.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimizer.step()
        if update % eval_every == 0:
            checkpoint()
    if not curve or curve[-1]["update"] != update:
        checkpoint()
    draw({start: curve}, out / "curve.png", game)
    return {"game": game, "updates": update, "moves": moves, "games": games_played, "curve": curve}


def draw(curves: dict[str, list[dict[str, float]]], path: Path, game: str) -> None:
    """The share of evaluation games won by the number of training games, with its interval,
    one line a run (``curves``: by label)."""
    try:
        import matplotlib
    except ImportError:  # the plot is optional: curve.csv holds the same figures
        return
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.4))
    for label, curve in curves.items():
        x = [p["games"] / 1000 for p in curve]
        ax.plot(x, [p["won"] for p in curve], marker=".", label=label)
        ax.fill_between(x, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.2)
    ax.axhline(1 / PLAYERS, color="grey", linestyle=":", label="par (1 in 4)")
    ax.set_xlabel("training games (thousands)")
    ax.set_ylabel("games won, greedy policy")
    ax.set_title(f"PPO on {game} against the bots")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def read_curve(path: Path) -> list[dict[str, float]]:
    """A ``curve.csv`` written by a run."""
    with path.open(newline="") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=games.names())
    parser.add_argument("--minutes", type=float, default=None, help="stop after this many minutes")
    parser.add_argument("--updates", type=int, default=None, help="stop after this many updates")
    parser.add_argument("--envs", type=int, default=512, help="rows of the batch (a multiple of 4)")
    parser.add_argument("--steps", type=int, default=64, help="moves of each row per update")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--start", choices=["random", "shipped"], default="random")
    parser.add_argument("--bots", default="heuristic", help="the other seats (random or heuristic)")
    parser.add_argument("--win", type=float, default=1.0, help="weight of the share of first place")
    parser.add_argument("--shape", type=float, default=0.02, help="weight of each deal's zero-sum score")
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch's threads")
    parser.add_argument("--eval-every", type=int, default=60, help="updates between evaluations")
    parser.add_argument("--eval-games", type=int, default=4000)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    parser.add_argument("--plot", type=Path, nargs="+", metavar="CURVE_CSV",
                        help="train nothing: draw these runs' curve.csv files together into --out (a .png)")
    args = parser.parse_args()
    if args.plot:
        draw({p.parent.name: read_curve(p) for p in args.plot}, args.out, args.game)
        return
    if args.minutes is None and args.updates is None:
        args.minutes = 30.0
    if not 0 <= args.seed < LAST_SEED:
        parser.error(f"--seed must be from 0 to {LAST_SEED - 1}, not {args.seed}")
    run(args.game, args.out, minutes=args.minutes, updates=args.updates, envs=args.envs, steps=args.steps,
        lr=args.lr, start=args.start, bots=args.bots, win=args.win, shape=args.shape, entropy=args.entropy,
        seed=args.seed, threads=args.threads, eval_every=args.eval_every, eval_games=args.eval_games)


if __name__ == "__main__":
    main()
