"""CPU time a move of the ``learned`` agent (the shipped weights), over 20 games of each game.

    python benchmarks/learned_move_seconds.py
    python benchmarks/learned_move_seconds.py --game baebae --agent ismcts:iterations=200:policy=learned

Every seat is the agent (``--agent``, an agent spec; the learned agent by default); each move's
process time is summed (for the learned agent: the observation encoded, the network run with
NumPy, the likeliest legal action taken). Baha is played one hand a game (``target=1``), BAEBAE
with its defaults. The time is given a move and a move with a choice (more than one legal
action: a search spends nothing on the others).
"""

from __future__ import annotations

import argparse
import time

from cardroom import games
from cardroom.agents import make, parse_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="learned", help="the agent spec timed at every seat")
    parser.add_argument("--game", choices=("baha", "baebae"), action="append",
                        help="the game timed (repeatable; default both)")
    parser.add_argument("--games", type=int, default=20, help="games of each game (default 20)")
    args = parser.parse_args()
    name, options = parse_spec(args.agent)
    for game, rule in (("baha", {"target": 1}), ("baebae", {})):
        if args.game and game not in args.game:
            continue
        rules = games.make_rules(game, rule)
        bot = make(name, seed=1, **options)
        moves = choices = 0
        spent = 0.0
        for seed in range(args.games):
            state = rules.new_game(seed)
            while not state.is_over:
                seat = state.current_player
                assert seat is not None
                choices += len(state.legal_actions()) > 1
                started = time.process_time()
                action = bot.act(state, seat)
                spent += time.process_time() - started
                moves += 1
                state.apply(action)
        print(f"{game}: {args.agent}: {moves} moves ({choices} with a choice), "
              f"{1000 * spent / moves:.3f} ms of CPU a move, {1000 * spent / max(choices, 1):.3f} ms "
              "a move with a choice")


if __name__ == "__main__":
    main()
