"""Spectators may watch a few actions behind the game (hello's ``delay``): each update is the
public view and events of the game as it was that many actions earlier, never a hand; once the
game is over they see it whole. A seat cannot ask for a delay."""

from __future__ import annotations

from typing import Any

from web_support import Client, LiveServer, check_messages, is_over, play_out, states_of


def test_a_spectator_watches_three_actions_behind(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, rules={"target": 1}, name="Ada",
                          seats=["human", "random", "heuristic"])
    ada = server.client(table["id"], table["token"])  # the game waits for her first pick
    late = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)
    late.send({"type": "hello", "token": None, "delay": 3})
    assert late.expect("welcome")["seat"] is None
    play_out([ada])
    late.wait(is_over)
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    states = states_of(record)
    n = len(record["actions"])
    updates = [m for m in late.messages if m["type"] == "update" and m["view"] is not None]
    behind = [u for u in updates if "behind" in u]
    assert len(behind) > 5
    for u in behind:
        assert u["behind"] == 3 or (u["seq"] == 0 and u["behind"] < 3), u["behind"]
        assert u["view"] == states[u["seq"]].public_view(), u["seq"]   # the game as it was, seen by a watcher
        assert u["deadline"] is None and u["moves"] == []
    assert updates[-1]["seq"] == n and "behind" not in updates[-1]  # over: the whole game
    events: list[dict[str, Any]] = [e for u in updates for e in u["events"]]
    assert events == [states[-1].visible_event(e, -1) for e in states[-1].log]  # each event once, in order
    check_messages(late.messages, None, states)  # never a hand


def test_a_delay_is_for_spectators_and_bounded(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "heuristic", "heuristic"])
    seat = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)
    seat.send({"type": "hello", "token": table["token"], "delay": 2})
    refused = seat.expect("error")
    assert refused["code"] == "bad_message" and "a delay is for spectators" in refused["message"]
    watcher = Client(server.base.replace("http", "ws", 1), table["id"], None, hello=False)
    watcher.send({"type": "hello", "token": None, "delay": 99})
    refused = watcher.expect("error")
    assert refused["code"] == "bad_message" and "0 to 20" in refused["message"]
