"""The chat at a table: players' messages reach everyone as data, bounded in length and rate,
control characters refused; spectators read; a newcomer gets the recent ones."""

from __future__ import annotations

from typing import Any

from web_support import Client, LiveServer

from cardroom.web.chat import CHAT_BURST
from cardroom.web.protocol import MAX_CHAT


def next_of(client: Client, kind: str) -> dict[str, Any]:
    while True:
        message = client.recv()
        if message["type"] == kind:
            return message


def two_players(server: LiveServer) -> tuple[dict[str, Any], Client, Client]:
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    bea = server.join(table["id"], "Bea")
    return table, server.client(table["id"], table["token"]), server.client(table["id"], bea["token"])


def test_a_message_reaches_everyone_as_text(server: LiveServer) -> None:
    table, ada, bea = two_players(server)
    watcher = server.client(table["id"])
    text = '<img src=x onerror="alert(1)"> <script>alert(2)</script>  good   luck'
    ada.send({"type": "chat", "text": text})
    for c in (ada, bea, watcher):
        said = next_of(c, "chat")
        assert said["seat"] == 0 and said["name"] == "Ada"
        assert said["text"] == '<img src=x onerror="alert(1)"> <script>alert(2)</script> good luck'
    # spectators read, but may not speak
    watcher.send({"type": "chat", "text": "hello"})
    refused = next_of(watcher, "error")
    assert refused["code"] == "spectator" and "spectators read" in refused["message"]
    # a newcomer gets the recent messages after its welcome
    late = server.client(table["id"])
    assert next_of(late, "chat")["text"].endswith("good luck")
    for c in (ada, bea, watcher, late):
        c.close()


def test_bounds_in_words(server: LiveServer) -> None:
    _table, ada, bea = two_players(server)
    cases = [
        ({"type": "chat", "text": "x" * (MAX_CHAT + 1)}, f"a chat message is at most {MAX_CHAT} characters, not {MAX_CHAT + 1}"),
        ({"type": "chat", "text": "   "}, "a chat message needs at least one visible character"),
        ({"type": "chat", "text": "hi\x1b[31m"}, "a chat message may not hold control characters"),
        ({"type": "chat", "text": "abc\u202edef"}, "U+202E"),
        ({"type": "chat", "text": 5}, "its text a string"),
        ({"type": "chat"}, "its text a string"),
    ]
    for message, words in cases:
        ada.send(message)
        refused = next_of(ada, "error")
        assert refused["code"] == "bad_chat" and words in refused["message"], refused
    ada.send({"type": "chat", "text": "x" * MAX_CHAT})
    assert next_of(bea, "chat")["text"] == "x" * MAX_CHAT  # the longest allowed one passes
    assert not [m for m in bea.messages if m["type"] == "chat" and m["text"] != "x" * MAX_CHAT]
    ada.close()
    bea.close()


def test_rate_per_seat(server: LiveServer) -> None:
    _table, ada, bea = two_players(server)
    for i in range(CHAT_BURST):
        ada.send({"type": "chat", "text": f"message {i}"})
        assert next_of(ada, "chat")["text"] == f"message {i}"
    ada.send({"type": "chat", "text": "one too many"})
    refused = next_of(ada, "error")
    assert refused["code"] == "slow_down" and f"at most {CHAT_BURST} chat messages in 10 seconds" in refused["message"]
    # the other seat has its own count
    bea.send({"type": "chat", "text": "my turn"})
    said = next_of(bea, "chat")
    while said["seat"] != 1:
        said = next_of(bea, "chat")
    assert said["text"] == "my turn"
    assert "one too many" not in [m.get("text") for m in bea.messages]
    ada.close()
    bea.close()
