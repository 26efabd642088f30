"""Words people read: rule options without programmers' words, refusals without seat numbers."""

from __future__ import annotations

import re

from web_support import LiveServer


def test_rule_options_never_say_null(server: LiveServer) -> None:
    catalog = server.http.get("/api/catalog").json()
    texts = [o["text"] for game in catalog["games"].values() for o in game["options"]]
    assert texts and not [t for t in texts if re.search(r"\bnull\b|\bNone\b", t)]
    draw_pile = next(o for o in catalog["games"]["baha"]["options"] if o["name"] == "draw_pile")
    assert "by default on for 2 players" in draw_pile["text"]


def test_not_your_turn_names_no_seat_number(server: LiveServer) -> None:
    """The page calls a seat "You" or by its player's name; a refusal must not say "seat 0"."""
    t = server.create(game="baha", players=2, name="Ada", seats=["human", "human"])
    bo = server.join(t["id"], "Bo")
    ada = server.client(t["id"], t["token"])
    server.client(t["id"], bo["token"])
    u = ada.wait(lambda u: u["view"] is not None)
    assert u["view"]["current_player"] == 1   # Bo passes first
    ada.send({"type": "act", "action": 52, "seq": u["seq"]})
    refusal = next(m for m in iter(ada.recv, None) if m["type"] == "error")
    assert refusal["code"] == "not_your_turn"
    assert "not your turn" in refusal["message"] and not re.search(r"\bseat\b|\d", refusal["message"])
