"""The native engine against the Python reference on many random BAEBAE games (default 100,000).

Every game is played on both engines side by side, over the option sets of
``tests/native/baebae_native_support.option_sets`` (the sample deck and it with a deck of
awkward cards; 2 to 8 players; both ``draw_when_able``; both readings of ``chosen_target``)
with rounds, ace penalty, turn limit and hand size turning, and, every fourth game, a deck
generated at random (``tests/games/baebae/baebae_support.random_decks``, 40 decks drawn at the
start), compared at every action: the seat to act, the legal actions, the events; at the end
the logs, histories, scores, winners, every field of the position, every seat's view, filtered
log and observation. A mismatch stops the run with the game's rules and seed.

Run with ``python benchmarks/baebae_native_differential.py [--games 100000] [--seed 0]
[--part K/N]`` (``--part 0/2`` and ``--part 1/2`` share a run between two processes); the
timed suite plays a few hundred of these (tests/native/test_games_differential.py and
test_baebae_differential.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "native"))

from baebae_native_support import option_sets, play_both  # noqa: E402
from baebae_support import random_decks, write_deck  # noqa: E402

from cardroom import native  # noqa: E402
from cardroom.engine import RulesError  # noqa: E402
from cardroom.games.baebae import Rules  # noqa: E402
from cardroom.games.baebae.rules import read_decks  # noqa: E402


def generated_decks(count: int) -> list[dict[str, object]]:
    """``count`` decks drawn from the tests' strategy, as rule options."""
    from hypothesis.errors import NonInteractiveExampleWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonInteractiveExampleWarning)
        return [read_decks(str(write_deck(random_decks().example(), "bench"))) for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games to play (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game and of the moves")
    parser.add_argument("--stream", choices=("both", "splitmix", "twister"), default="both",
                        help="the chance stream: each option set's own (both streams, half each; the "
                             "default) or one for every game")
    parser.add_argument("--part", default="0/1",
                        help="K/N: play only the games i with i %% N == K (N processes share a run)")
    args = parser.parse_args(argv)
    part, parts = (int(x) for x in args.part.split("/"))
    if not native.available():
        print(f"The native engine is {native.unavailable_reason()}: nothing to compare.", file=sys.stderr)
        return 2
    options = [o if args.stream == "both" else {**o, "stream": args.stream} for o in option_sets()]
    decks = generated_decks(40)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    for i in range(args.games):
        if i % parts != part:
            continue
        turning = {"rounds": 1 + i % 3, "ace_penalty": (1, 0, 5)[i % 3],
                   "turn_limit": (2000, 2000, 25, 10)[i % 4]}
        if i % 4 == 3:
            option = {**decks[i // 4 % len(decks)], "players": 2 + i % 5, "turn_limit": 300,
                      **({} if args.stream == "both" else {"stream": args.stream})}
        else:
            option = {**options[i % len(options)], "hand_size": (None, None, 3, 1)[i // len(options) % 4]}
        try:
            rules = Rules(**{**turning, **option})
        except RulesError:  # a generated deck too small for so many players
            rules = Rules(**{**turning, **option, "players": 2})
        seed = args.seed + i
        try:
            play_both(rules, seed, rng, check_views=0.0)
        except AssertionError:
            print(f"game {i}: the engines differ on {rules.to_dict()} seed {seed}", file=sys.stderr)
            raise
        done = (i - part) // parts + 1
        if done % 1_000 == 0:
            print(f"{done} games of this part agree ({time.perf_counter() - start:.0f} s)", flush=True)
    played = len(range(part, args.games, parts))
    print(f"{played} games (part {args.part} of {args.games}) agree on both engines over {len(options)} "
          f"option sets and {len(decks)} generated decks in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
