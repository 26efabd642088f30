"""A self-play league: a learner against a pool of its own past policies, opponents drawn by rating.

One seat learns (``cardroom.rl.gym_env``: its seat's observation and the legal-action mask);
the other seats are members of the pool. The pool starts with the bots given (``heuristic``
by default) and, every ``--snapshot-every`` episodes, takes a frozen copy of the learner,
written as a weights file the ``learned`` agent plays (``cardroom.agents.learned``: NumPy
only). Each member and the learner have an openskill rating (Plackett-Luce, every seat its own
team, ranked by the game's totals); the opponents of an episode are drawn with chances that
favour members rated close to the learner (a softmax of minus the rating gap over
``--spread``), so the learner meets the opponents it learns most from, and the pool stays
bounded (``--pool``: the oldest snapshot goes first; the bots given stay).

The learner is a policy-and-value network of the learned agent's shape, started from the
weights shipped for the game (``--start shipped``, the network distilled from ISMCTS) or at
random (``--start random``), trained by REINFORCE with the value as baseline (one update per
episode, the return of the episode: the learner's rewards, each deal's change of score negated).

    pip install -e '.[train,web]'     # torch for the learner, openskill for the ratings
    python examples/league.py baha --episodes 400 --out runs/league-baha

It prints each snapshot's rating and writes ``league.json`` (the pool and its ratings) and the
snapshots (``snapshot-K.safetensors``) into ``--out``; play one as any bot:
``--agents learned:path=runs/league-baha/snapshot-3.safetensors,heuristic,heuristic,heuristic``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
from openskill.models import PlackettLuce

from cardroom import games, rl
from cardroom.agents import make
from cardroom.agents.learned import load_network, shipped_path
from cardroom.agents.torch_network import PolicyValueNet
from cardroom.agents.training import save_network


@dataclass
class Member:
    """One policy of the pool: a bot spec, its rating and the games it played."""

    spec: str
    rating: Any
    games: int = 0
    snapshot: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


def draw(pool: list[Member], learner: Any, count: int, spread: float, rng: random.Random) -> list[Member]:
    """``count`` opponents (with repeats), each drawn with a chance that falls with its rating's
    distance from the learner's (a softmax of minus the gap over ``spread``)."""
    weights = [math.exp(-abs(m.rating.mu - learner.mu) / spread) for m in pool]
    return rng.choices(pool, weights=weights, k=count)


def run(game: str, episodes: int, out: Path, *, seed: int = 0, snapshot_every: int = 50, pool_size: int = 6,
        bots: tuple[str, ...] = ("heuristic",), spread: float = 5.0, lr: float = 1e-4, start: str = "shipped",
        log: Any = print) -> dict[str, Any]:
    """Play ``episodes`` episodes of the league; its pool, ratings and figures (also ``league.json``)."""
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = random.Random(seed)
    rules_options = dict(games.get(game).trained_options)
    players = 4
    model = PlackettLuce()
    probe = rl.gym_env(game, opponents="random", players=players, seed=seed, **rules_options)
    inputs = int(probe.observation_space["observation"].shape[0])
    actions = int(probe.action_space.n)
    if start == "shipped":
        learner_net = PolicyValueNet.from_network(load_network(shipped_path(game)), inputs, actions)
    else:
        learner_net = PolicyValueNet(inputs, actions, (256, 256))
    optimizer = torch.optim.Adam(learner_net.parameters(), lr=lr)
    learner = model.rating(name="learner")
    pool = [Member(spec, model.rating(name=spec)) for spec in bots]
    out.mkdir(parents=True, exist_ok=True)
    rules = games.make_rules(game, {"players": players, **rules_options})
    snapshots = 0
    returns: list[float] = []
    started = time.monotonic()
    for episode in range(1, episodes + 1):
        opponents = draw(pool, learner, players - 1, spread, rng)
        bots_now = [_bot(m.spec, rng.randrange(2**31)) for m in opponents]
        env = rl.gym_env(game, opponents=bots_now, players=players, seed=seed * 1_000_003 + episode,
                         **rules_options)
        obs, _ = env.reset()
        logps, values, total, done = [], [], 0.0, False
        while not done:
            x = torch.from_numpy(obs["observation"][None, :])
            mask = torch.from_numpy(obs["action_mask"][None, :].astype(bool))
            logits, value = learner_net(x, mask)
            dist = torch.distributions.Categorical(logits=logits)
            action = dist.sample()
            logps.append(dist.log_prob(action))
            values.append(value)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        # REINFORCE with the value as baseline: every move's credit is the episode's return
        # (in hands or rounds of points: a Baha hand's points are up to 26, over 26).
        scale = 26.0 if game == "baha" else 10.0
        target = torch.tensor(total / scale)
        value_t = torch.cat(values)
        advantage = (target - value_t).detach()
        loss = -(torch.cat(logps) * advantage).mean() + 0.5 * ((value_t - target) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        returns.append(total)
        # The ratings: the table's final order (lower totals rank first), every seat a team.
        totals = list(env.game.scores)
        seats = [learner] + [m.rating for m in opponents]
        ranks = _ranks(totals, games.get(game).lower_wins)
        rated = model.rate([[r] for r in seats], ranks=ranks)
        learner = rated[0][0]
        for m, [r] in zip(opponents, rated[1:], strict=True):
            m.rating, m.games = r, m.games + 1
        if episode % snapshot_every == 0 or episode == episodes:
            snapshots += 1
            path = out / f"snapshot-{snapshots}.safetensors"
            save_network(path, learner_net.tensors(), game, rules,
                         {"league_episode": episode, "seed": seed, "start": start})
            member = Member(f"learned:path={path}", model.rating(mu=learner.mu, sigma=learner.sigma,
                                                                 name=path.name), snapshot=True,
                            meta={"episode": episode})
            pool.append(member)
            snapshot_members = [m for m in pool if m.snapshot]
            if len(snapshot_members) > pool_size:
                pool.remove(snapshot_members[0])
            recent = returns[-snapshot_every:]
            rated_pool = [(m.spec.split("/")[-1], round(m.rating.mu, 1)) for m in pool]
            log(f"episode {episode}: snapshot {snapshots}; learner rated {learner.mu:.2f} "
                f"(sigma {learner.sigma:.2f}); mean return of the last {len(recent)} episodes "
                f"{sum(recent) / len(recent):.2f}; pool {rated_pool}; {time.monotonic() - started:.0f} s")
    summary = {
        "game": game, "episodes": episodes, "seed": seed,
        "learner": {"mu": learner.mu, "sigma": learner.sigma},
        "pool": [{"spec": m.spec, "mu": m.rating.mu, "sigma": m.rating.sigma, "games": m.games, **m.meta}
                 for m in pool],
        "mean_return": sum(returns) / len(returns),
    }
    (out / "league.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def _bot(spec: str, seed: int) -> Any:
    """The agent of a member's spec, seeded for one episode."""
    from cardroom.agents import parse_spec

    name, options = parse_spec(spec)
    return make(name, seed, **options)


def _ranks(totals: list[int], lower_wins: bool) -> list[int]:
    """Each seat's place (1 first; equal totals share a place)."""
    key = [t if lower_wins else -t for t in totals]
    return [1 + sum(other < mine for other in key) for mine in key]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=games.names())
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--snapshot-every", type=int, default=50)
    parser.add_argument("--pool", type=int, default=6, help="snapshots kept in the pool")
    parser.add_argument("--bots", default="heuristic", help="the pool's fixed members, comma-separated")
    parser.add_argument("--spread", type=float, default=5.0)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--start", choices=["shipped", "random"], default="shipped")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/league"))
    args = parser.parse_args()
    run(args.game, args.episodes, args.out, seed=args.seed, snapshot_every=args.snapshot_every,
        pool_size=args.pool, bots=tuple(args.bots.split(",")), spread=args.spread, lr=args.lr,
        start=args.start)


if __name__ == "__main__":
    main()
