"""Draw the learned agents' learning curves (docs/images/learned-curve.png).

Left: strength against the games of ISMCTS distilled, one point per network trained on the
first N games of the decisions kept by ``cardroom train`` (each measured by ``cardroom
simulate --duplicate --json`` against three heuristic bots: the paired difference, learned
minus heuristic, with its 95% interval). Right: the held-out agreement with the search's
most visited move after each epoch of each game's shipped network (its ``.curve.json``).
A point named ``GAME/SERIES:GAMES=FILE`` joins its own series (say, networks trained on other
kinds of games: drawn unjoined, with another marker in the game's colour), e.g.
``baha/with-DAgger-or-prior-games:2126=FILE``.

    python examples/plot_learned.py --strength baha:690=runs/eval-sub-baha-690.json ... \
        --curve baha=runs/baha-final.curve.json --curve baebae=runs/baebae-final.curve.json \
        --out docs/images/learned-curve.png
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt

COLORS = {"baha": "C1", "baebae": "C0"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--strength", action="append", default=[], metavar="GAME:GAMES=RESULT.json")
    parser.add_argument("--curve", action="append", default=[], metavar="GAME=CURVE.json")
    parser.add_argument("--out", type=Path, default=Path("docs/images/learned-curve.png"))
    args = parser.parse_args()
    points: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    for item in args.strength:
        head, _, path = item.partition("=")
        game, _, count = head.partition(":")
        found = json.loads(Path(path).read_text())
        pair = next(p for p in found["pairs"] if p["versus"] == "heuristic")["difference"]
        points[game].append((int(count), pair["value"], pair["low"], pair["high"]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    markers = ["o", "s", "^", "D", "v"]
    series = sorted(points)
    for name, rows in sorted(points.items()):
        game, _, label = name.partition("/")
        rows.sort()
        x = [r[0] for r in rows]
        y = [r[1] for r in rows]
        err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
        mark = markers[sorted({n for n in series if n.partition("/")[0] == game}).index(name) % len(markers)]
        left.errorbar(x, y, yerr=err, marker=mark, capsize=3, color=COLORS.get(game),
                      linestyle="none" if label else "-",
                      label=f"{game}{' ' + label if label else ''}: learned minus heuristic")
    left.axhline(0, color="grey", lw=0.8)
    left.set_xscale("log")
    left.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    left.set_xlabel("games of ISMCTS distilled (log scale)")
    left.set_ylabel("horns a hand (Baha), penalty a round (BAEBAE)\nminus the heuristic's; lower: better",
                    fontsize=8)
    left.legend(fontsize=8)
    for item in args.curve:
        game, _, path = item.partition("=")
        epochs = json.loads(Path(path).read_text())["epochs"]
        right.plot([e["epoch"] for e in epochs], [e["agreement"] for e in epochs], marker=".",
                   color=COLORS.get(game), label=game)
    right.set_xlabel("epoch")
    right.set_ylabel("held-out agreement with ISMCTS's move")
    right.legend(fontsize=8)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
