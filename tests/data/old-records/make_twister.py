"""How twister-baha.json and twister-baebae.json were written (kept for the record; never rerun
over them): with the plain-Python code of commit 9651f82 (the last before the split chance
stream, so that every game was dealt on the Twister stream and no record named a stream) on
PYTHONPATH::

    git archive 9651f82 src | tar -x -C /tmp/old
    CARDROOM_ENGINE=python PYTHONPATH=/tmp/old/src python make_twister.py
"""

from cardroom.agents import make
from cardroom.games import make_rules
from cardroom.record import make_record, save

for game, options, seed in [
    ("baha", {"players": 4, "target": 40, "random_dealer": True}, 2024),
    ("baebae", {"players": 3, "rounds": 2}, 2025),
]:
    rules = make_rules(game, options)
    state = rules.new_game(seed)
    n = rules.players
    bots = [make("heuristic" if s % 2 else "random", seed=seed * 1000 + s) for s in range(n)]
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state, seat))
    seats = [{"name": f"Seat {s}", "agent": "heuristic" if s % 2 else "random"} for s in range(n)]
    save(make_record(state, seats), f"twister-{game}.json")
