"""Hints: the heuristic bot's move for a player's turn, to that player's connection alone,
worked out on a world determinized from what the seat knows; refused in words to spectators,
out of turn and on a stale position."""

from __future__ import annotations

from typing import Any

import pytest
from web_support import Client, LiveServer, check_messages, is_over, states_of

from cardroom.agents import make
from cardroom.web.bounded import Pace


def next_of(client: Client, kind: str) -> dict[str, Any]:
    while True:
        message = client.recv()
        if message["type"] == kind:
            return message


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_a_game_played_on_hints_is_the_heuristic_s_and_tells_no_one_else(server: LiveServer, game: str) -> None:
    # a hint every turn, as fast as the test plays: faster than a person's pace (tested apart)
    server.manager.hint_pace = Pace("ask for a hint", 1000.0, 1000, 0.0)
    rules = {"target": 1} if game == "baha" else {"rounds": 3}  # three rounds: never as few as 3 decisions
    table = server.create(game=game, players=3, rules=rules, name="Ada", seats=["human", "heuristic", "random"],
                          **({"deck": "sample"} if game == "baebae" else {}))
    ada = server.client(table["id"], table["token"])
    watcher = server.client(table["id"])
    hinted: list[tuple[int, int]] = []
    while not is_over(ada.wait(lambda u: bool(u["moves"]) or is_over(u))):
        update = ada.last
        assert update is not None
        ada.send({"type": "hint", "seq": update["seq"]})
        hint = next_of(ada, "hint")
        assert hint["seq"] == update["seq"]
        move = hint["move"]
        assert move in update["moves"]  # one of the seat's legal moves, as data
        hinted.append((update["seq"], move["action"]))
        ada.send({"type": "act", "action": move["action"], "seq": update["seq"]})
        ada.wait(lambda u, s=update["seq"]: u["seq"] > s)
    watcher.wait(is_over)
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    states = states_of(record)
    assert len(hinted) > 3
    for seq, action in hinted:
        # the heuristic on the real position chooses the same: it reads only what the seat knows
        assert action == make("heuristic", seed=record["seed"] + seq).act(states[seq].clone(), 0), seq
    assert not [m for m in watcher.messages if m["type"] == "hint"]
    check_messages(ada.messages, 0, states)  # no hint named a card the seat may not know


def test_hints_are_refused_in_words_where_they_make_no_sense(server: LiveServer) -> None:
    table = server.create(game="baebae", players=2, rules={"rounds": 1}, deck="sample", name="Ada",
                          seats=["human", "human"])
    bea = server.join(table["id"], "Bea")
    ada_c, bea_c = server.client(table["id"], table["token"]), server.client(table["id"], bea["token"])
    watcher = server.client(table["id"])
    update = ada_c.wait(lambda u: u["view"] is not None)
    turn = update["view"]["current_player"]
    mover, other = (ada_c, bea_c) if turn == 0 else (bea_c, ada_c)
    seq = update["seq"]
    other.send({"type": "hint", "seq": seq})
    assert next_of(other, "error")["code"] == "not_your_turn"
    watcher.send({"type": "hint", "seq": seq})
    refused = next_of(watcher, "error")
    assert refused["code"] == "spectator" and "hints are for the players" in refused["message"]
    mover.send({"type": "hint", "seq": seq + 5})
    assert next_of(mover, "error")["code"] == "stale"
    mover.send({"type": "hint", "seq": "x"})
    assert next_of(mover, "error")["code"] == "bad_message"
    mover.send({"type": "hint", "seq": seq})
    hint = next_of(mover, "hint")
    legal = mover.wait(lambda u: u["seq"] == seq)["moves"]
    assert hint["move"] in legal
