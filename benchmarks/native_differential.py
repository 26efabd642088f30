"""The native engine against the Python reference on many random Baha games (default 100,000).

Every game is played on both engines side by side over every option set of
``tests/native/baha_native_support.option_sets`` in turn (targets 1, 25 and 100 turning), compared
at every action: the seat to act, the legal actions, the events; at the end the logs,
histories, scores, winners, every seat's view and filtered log, the public view and the
fields the encoder reads. A mismatch stops the run with the game's rules and seed.

Run with ``python benchmarks/native_differential.py [--games 100000] [--seed 0]``; the timed
suite plays a few thousand of these (tests/native/test_games_differential.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "native"))

from baha_native_support import option_sets, play_both  # noqa: E402

from cardroom import native  # noqa: E402
from cardroom.games.baha import Rules  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game and of the moves")
    parser.add_argument("--stream", choices=("both", "splitmix", "twister"), default="both",
                        help="the chance stream: each option set's own (both streams, half each; the "
                             "default) or one for every game")
    args = parser.parse_args(argv)
    if not native.available():
        print(f"The native engine is {native.unavailable_reason()}: nothing to compare.", file=sys.stderr)
        return 2
    options = [o if args.stream == "both" else {**o, "stream": args.stream} for o in option_sets()]
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for i in range(args.games):
        rules = Rules(**options[i % len(options)], target=(1, 25, 100)[i // len(options) % 3])
        seed = args.seed + i
        try:
            play_both(rules, seed, rng, check_views=0.0)
        except AssertionError:
            print(f"game {i}: the engines differ on {rules.to_dict()} seed {seed}", file=sys.stderr)
            raise
        if (i + 1) % 10_000 == 0:
            print(f"{i + 1} games agree ({time.perf_counter() - start:.0f} s)", flush=True)
    print(f"{args.games} games agree on both engines over {len(options)} option sets "
          f"in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
