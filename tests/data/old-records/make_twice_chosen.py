"""How twice-chosen-1.json to twice-chosen-6.json were written (kept for the record; never rerun
over them): with the plain-Python code of commit 10daa06 on PYTHONPATH, from a folder holding
twice-chosen.toml (then /tmp/i17d-rec)::

    git archive 10daa06 src | tar -x -C /tmp/old
    CARDROOM_PURE=1 PYTHONPATH=/tmp/old/src python make_twice_chosen.py
"""

from cardroom.agents import make
from cardroom.games import make_rules
from cardroom.record import make_record, save

for game in range(6):
    rules = make_rules("baebae", {"players": 4, "rounds": 2, "deck": "twice-chosen.toml"})
    seed = 100 + game
    state = rules.new_game(seed)
    bots = [make("random", seed=seed * 10 + s) for s in range(4)]
    while not state.is_over:
        seat = state.current_player
        state.apply(bots[seat].act(state, seat))
    seats = [{"name": f"Seat {s}", "agent": "random"} for s in range(4)]
    save(make_record(state, seats), f"recs/twice-chosen-{game + 1}.json")
