"""CPU time a move of the ``learned`` agent (the shipped weights), over 20 games of each game.

    python benchmarks/learned_move_seconds.py

Every seat is the learned agent; each move's process time is summed (the observation encoded,
the network run with NumPy, the likeliest legal action taken). Baha is played one hand a game
(``target=1``), BAEBAE with its defaults.
"""

from __future__ import annotations

import time

from cardroom import games
from cardroom.agents import make


def main() -> None:
    for game, options in (("baha", {"target": 1}), ("baebae", {})):
        rules = games.make_rules(game, options)
        bot = make("learned")
        moves, spent = 0, 0.0
        for seed in range(20):
            state = rules.new_game(seed)
            while not state.is_over:
                seat = state.current_player
                assert seat is not None
                started = time.process_time()
                action = bot.act(state, seat)
                spent += time.process_time() - started
                moves += 1
                state.apply(action)
        print(f"{game}: {moves} moves, {1000 * spent / moves:.3f} ms of CPU a move")


if __name__ == "__main__":
    main()
