"""Train a masked PPO policy for Baha, plot its learning curve, and measure it on duplicate deals.

One seat learns; the other three are Cardroom bots. The policy first plays random
opponents, then heuristic ones (a curriculum). It sees only its own seat's observation
(``cardroom.rl``), and the environment's action mask keeps it to legal moves.

    pip install -e '.[train]'
    python examples/train_baha_ppo.py --timesteps 200000 --seed 0 --out runs/baha-ppo

It writes ``policy.zip`` (to train on from), ``player.zip`` (the same policy in a third of the
size, to play with), ``curve.png`` and ``curve.csv`` into the folder, then prints the policy's
mean horns per hand against random and heuristic bots, with 95% intervals, beside the bots' own
in the same seats (the same deals, the line-up turned round the table). Play the policy as any
bot: ``cardroom simulate baha --agents policy:path=runs/baha-ppo/player.zip,heuristic`` or
``cardroom play baha --bots policy:path=runs/baha-ppo/player.zip``.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import matplotlib
import torch

matplotlib.use("Agg")  # files only: no window
import matplotlib.pyplot as plt
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from cardroom import games, rl
from cardroom.sim.duplicate import run_duplicate, summarize_duplicate
from cardroom.sim.tournament import Lineup
from cardroom.text import plural

PLAYERS = 4


class Learner(gym.Wrapper[Any, Any, Any, Any]):
    """The environment's ``observation`` array as the policy's input (the mask goes to
    MaskablePPO through ``action_masks()``, as the ``policy`` agent gives it), and in each
    step's ``info`` the learner's horns of the hands that ended in it, for the curve."""

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self.spec_of_game = games.get("baha")
        self.seen = 0

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.seen = 0
        return observation["observation"], info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        log = self.env.unwrapped.game.log
        seat = self.env.unwrapped.seat
        ended = [self.spec_of_game.deal_points(event) for event in log[self.seen:]]
        self.seen = len(log)
        info["horns"] = [points[seat] for points in ended if points is not None]
        return observation["observation"], reward, terminated, truncated, info

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()


def make_env(opponents: str, seed: int) -> gym.Env[Any, Any]:
    return Learner(rl.gym_env("baha", seat=0, opponents=opponents, players=PLAYERS, seed=seed))


class Curve(BaseCallback):
    """The learner's horns in each hand, with the timestep and opponents it was played at."""

    def __init__(self) -> None:
        super().__init__()
        self.opponents = ""
        self.rows: list[tuple[int, str, int]] = []

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            self.rows.extend((self.num_timesteps, self.opponents, horns) for horns in info["horns"])
        return True


def train(timesteps: int, seed: int, out: Path, random_share: float, n_steps: int, save_every: int) -> Path:
    """Train, saving the policy and the curve every ``save_every`` moves (a long run stopped
    early keeps what it reached) and at the end."""
    # A small network on one observation at a time: more threads only wait on each other
    # (ten times slower here with two).
    torch.set_num_threads(1)
    curve = Curve()
    # PPO learns from rollouts of n_steps moves, so a stage runs to a whole number of them.
    model = MaskablePPO("MlpPolicy", make_env("random", seed), n_steps=n_steps, batch_size=min(64, n_steps),
                        seed=seed, verbose=0)
    path = out / "policy.zip"
    first = round(timesteps * random_share)
    stages = [("random", first), ("heuristic", timesteps - first)]
    for opponents, steps in stages:
        if steps <= 0:
            continue
        curve.opponents = opponents
        model.set_env(make_env(opponents, seed + 1))
        started, before = time.perf_counter(), model.num_timesteps
        while model.num_timesteps - before < steps:
            model.learn(min(save_every, steps - (model.num_timesteps - before)), callback=curve,
                        reset_num_timesteps=False)
            model.save(path)
            plot(curve.rows, out)
            print(f"{model.num_timesteps} steps, {model.num_timesteps - before} against {opponents} bots "
                  f"in {time.perf_counter() - started:.0f} s; saved", flush=True)
    save_for_play(model, out / "player.zip")
    return path


def save_for_play(model: MaskablePPO, path: Path) -> None:
    """A copy that plays the same but cannot resume training as it was: the optimizer's
    state (two thirds of the file) is left out, a fresh one saved in its place."""
    policy = model.policy
    kept = policy.optimizer
    policy.optimizer = policy.optimizer_class(policy.parameters(), **policy.optimizer_kwargs)
    model.save(path)
    policy.optimizer = kept


def plot(rows: list[tuple[int, str, int]], out: Path, window: int = 500) -> None:
    """``curve.csv`` (one row per hand) and ``curve.png`` (a moving mean over ``window`` hands)."""
    with (out / "curve.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["timestep", "opponents", "horns"])
        writer.writerows(rows)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for opponents in dict.fromkeys(row[1] for row in rows):
        part = [row for row in rows if row[1] == opponents]
        horns = [row[2] for row in part]
        means = [sum(horns[max(0, i - window + 1):i + 1]) / len(horns[max(0, i - window + 1):i + 1])
                 for i in range(len(horns))]
        ax.plot([row[0] for row in part], means, label=f"against {opponents} bots")
    ax.set_xlabel("timesteps (the learner's own moves)")
    ax.set_ylabel(f"horns per hand (mean of the last {window}; lower is better)")
    ax.set_title("Baha, MaskablePPO at seat 0: learning curve")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    plt.close(fig)


def evaluate(path: Path, deals: int, seed: int, workers: int) -> None:
    """The policy and one kind of bot on the same deals, the policy in each seat in turn."""
    rules = games.make_rules("baha", {"players": PLAYERS})
    for bot in ("random", "heuristic"):
        lineup = Lineup.parse(",".join([f"policy:path={path}"] + [bot] * (PLAYERS - 1)), PLAYERS)
        started = time.perf_counter()
        lineups, results = run_duplicate(rules, deals, seed, lineup, workers=workers)
        summary = summarize_duplicate(rules, lineup, lineups, results, seed, time.perf_counter() - started)
        means = {row["agent"]: row["mean_points"] for row in summary["agents"]}
        played = f"{plural(summary['games'], 'game')} on {plural(deals, 'deal')}"
        print(f"against {bot} bots, {played}, horns per hand (lower is better): "
              f"policy {ci(means[lineup.specs[0]])}, {bot} in the same seats {ci(means[bot])}, "
              f"difference {ci(summary['pairs'][0]['difference'])}")


def ci(estimate: dict[str, Any]) -> str:
    """A mean and its 95% interval (a single deal has no interval)."""
    if estimate["low"] is None:
        return f"{estimate['value']:.2f}"
    return f"{estimate['value']:.2f} [{estimate['low']:.2f}, {estimate['high']:.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=200_000, help="the learner's moves in all")
    parser.add_argument("--random-share", type=float, default=0.25,
                        help="the part of them against random bots, before heuristic ones")
    parser.add_argument("--seed", type=int, default=0, help="seed of the policy's start and of the deals")
    parser.add_argument("--out", type=Path, default=Path("runs/baha-ppo"), help="folder for what it writes")
    parser.add_argument("--n-steps", type=int, default=2048, help="moves per PPO rollout")
    parser.add_argument("--save-every", type=int, default=50_000, help="moves between saves")
    parser.add_argument("--eval-deals", type=int, default=200, help="duplicate deals per bot kind (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="evaluation processes (0: one per core)")
    args = parser.parse_args()
    if min(args.timesteps, args.save_every, args.n_steps - 1) < 1 or not 0 <= args.random_share <= 1 \
            or args.eval_deals < 0:
        parser.error("--timesteps and --save-every must be at least 1, --n-steps at least 2, --random-share "
                     "from 0 to 1, --eval-deals from 0")
    args.out.mkdir(parents=True, exist_ok=True)
    path = train(args.timesteps, args.seed, args.out, args.random_share, args.n_steps, args.save_every)
    print(f"saved {path}, learning curve {args.out / 'curve.png'}")
    if args.eval_deals:
        evaluate(path, args.eval_deals, 1_000_000 + args.seed, args.workers)


if __name__ == "__main__":
    main()
