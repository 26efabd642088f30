"""An update that changes nothing in the hand (someone connects) must not swallow a click."""

from __future__ import annotations

import json

from browser_support import (
    MY_TURN_OR_OVER,
    WAIT_MS,
    ServeProcess,
    hand_cards,
    legal_cards,
    open_table,
    seq,
    wait_seq_above,
    wait_turn_or_over,
)
from playwright.sync_api import BrowserContext


def test_a_click_survives_an_update_under_the_mouse(server: ServeProcess, context: BrowserContext) -> None:
    from websockets.sync.client import connect

    t = server.create(game="baha", players=2, rules={"passing": False, "target": 1}, name="Ada",
                      seats=["human", "human"])
    bo = server.join(t["id"], "Bo")
    page = open_table(context, server, t["id"], t["token"])
    ws_url = server.base.replace("http", "ws", 1) + f"/ws/tables/{t['id']}"
    # Bo plays through a WebSocket of its own until Ada's turn.
    with connect(ws_url, open_timeout=WAIT_MS / 1000) as bo_ws:
        bo_ws.send(json.dumps({"type": "hello", "token": bo["token"]}))
        for _ in range(200):  # Bo plays its first legal move whenever it is Bo's turn
            if page.evaluate(MY_TURN_OR_OVER) == "turn":
                break
            try:
                message = json.loads(bo_ws.recv(timeout=0.1))
            except TimeoutError:
                continue
            if message["type"] == "update" and message["moves"]:
                bo_ws.send(json.dumps({"type": "act", "action": message["moves"][0]["action"],
                                       "seq": message["seq"]}))
        assert wait_turn_or_over(page) == "turn"
        card = legal_cards(page)[0]
        box = page.get_by_test_id(f"card-{card}").bounding_box()
        assert box is not None
        before = seq(page)
        n = len(page.ws_updates)  # type: ignore[attr-defined]
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        bo_ws.close()  # Bo leaves: Ada's page gets an update of the table, with the same seq
        for _ in range(100):
            if len(page.ws_updates) > n:  # type: ignore[attr-defined]
                break
            page.wait_for_timeout(20)
        assert len(page.ws_updates) > n and page.ws_updates[n]["seq"] == before  # type: ignore[attr-defined]
        page.mouse.up()
        assert wait_seq_above(page, before) > before  # the click was sent
        assert card not in hand_cards(page)
