"""Who sits where: a signed-in person sits as the account with no name to type, an account
holds one seat at a table (join, Play now, rematch), a guest may not sit, play now or chat
under an account's name, and a private table is found by its link only."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import httpx
from web_support import LiveServer, play_out

PASSWORD = "correct horse battery"


@contextlib.contextmanager
def signed_up(server: LiveServer, name: str) -> Iterator[httpx.Client]:
    """A browser of its own, signed up as ``name``; its requests carry the CSRF token."""
    with httpx.Client(base_url=server.base, timeout=20.0) as client:
        r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        client.headers["X-CSRF-Token"] = client.cookies["cardroom_csrf"]
        yield client


def sign_up(server: LiveServer, name: str) -> None:
    with signed_up(server, name):
        pass


def seats(server: LiveServer, table_id: str) -> list[tuple[str | None, bool]]:
    summary = server.http.get(f"/api/tables/{table_id}").json()
    return [(s["name"], s["account"]) for s in summary["seats"]]


def next_of(client: Any, kind: str) -> dict[str, Any]:
    while True:
        message = client.recv()
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]


# -- a signed-in person takes a free seat with no name (issue 33, item 3) -------------------


def test_a_signed_in_person_takes_a_free_seat_without_a_name(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    with signed_up(server, "Bea") as bea:
        r = bea.post(f"/api/tables/{table['id']}/join", json={})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == 1
    assert seats(server, table["id"]) == [("Ada", False), ("Bea", True), (None, False)]


def test_a_guest_without_a_name_is_told_to_give_one_or_sign_in(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    r = server.http.post(f"/api/tables/{table['id']}/join", json={})
    assert r.status_code == 400
    assert "a guest gives the name to sit under" in r.json()["detail"] and "sign in" in r.json()["detail"]
    r = server.http.post("/api/quick", json={"game": "baha", "players": 3})
    assert r.status_code == 400 and "a guest gives the name" in r.json()["detail"]
    assert seats(server, table["id"])[1] == (None, False)


def test_a_signed_in_person_plays_now_without_a_name(server: LiveServer) -> None:
    server.manager.quick_wait = 30.0
    with signed_up(server, "Bea") as bea:
        r = bea.post("/api/quick", json={"game": "baebae", "players": 2, "bot": "random"})
        assert r.status_code == 200, r.text
    assert seats(server, r.json()["id"]) == [("Bea", True), (None, False)]


# -- one account, one seat at a table (item 10) ------------------------------------------------


def test_an_account_joins_a_table_once(server: LiveServer) -> None:
    table = server.create(game="baha", players=4, name="Ada", seats=["human", "human", "human", "heuristic"])
    with signed_up(server, "Bea") as bea:
        assert bea.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200
        again = bea.post(f"/api/tables/{table['id']}/join", json={"seat": 2})
        assert again.status_code == 409
        assert again.json()["detail"] == (f"your account Bea holds seat 1 of table {table['id']} already: "
                                          "an account takes one seat at a table")
    assert seats(server, table["id"]) == [("Ada", False), ("Bea", True), (None, False), (None, False)]


def test_an_account_is_not_seated_twice_by_play_now_from_another_browser(server: LiveServer) -> None:
    server.manager.quick_wait = 30.0
    with signed_up(server, "Bea") as bea, httpx.Client(base_url=server.base, timeout=20.0) as other:
        first = bea.post("/api/quick", json={"game": "baha", "players": 3, "bot": "random"}).json()
        r = other.post("/api/account/signin", json={"name": "bea", "password": PASSWORD})
        assert r.status_code == 200
        # another browser signed in as Bea: its skip list does not know the first table
        body = {"game": "baha", "players": 3, "bot": "random", "skip": []}
        second = other.post("/api/quick", json=body, headers={"X-CSRF-Token": other.cookies["cardroom_csrf"]})
        assert second.status_code == 200, second.text
        assert second.json()["matched"] is False and second.json()["id"] != first["id"]
    assert seats(server, first["id"]) == [("Bea", True), (None, False), (None, False)]
    guest = server.http.post("/api/quick", json={"game": "baha", "players": 3, "bot": "random", "name": "Gus"})
    assert guest.json()["id"] == first["id"]   # others are still seated there


def test_an_account_holds_one_seat_of_a_rematch(server: LiveServer) -> None:
    with signed_up(server, "Ada") as ada:
        made = ada.post("/api/tables", json={"game": "baha", "players": 3, "rules": {"target": 1}, "name": "x",
                                             "seats": ["human", "human", "heuristic"]}).json()
        gus = server.join(made["id"], "Gus")
        r = server.http.post(f"/api/tables/{made['id']}/leave", json={"token": gus["token"]})
        assert r.status_code == 200, r.text   # a stand-in plays Gus's seat to the end
        client = server.client(made["id"], made["token"])
        try:
            play_out([client])
        finally:
            client.close()
        r = ada.post(f"/api/tables/{made['id']}/rematch", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        rematch = r.json()
        assert rematch["seat"] == 0 and rematch["status"] == "waiting"   # Gus's seat is free
        r = ada.post(f"/api/tables/{rematch['id']}/join", json={})
        assert r.status_code == 409 and "an account takes one seat at a table" in r.json()["detail"]
    assert seats(server, rematch["id"]) == [("Ada", True), (None, False), (None, False)]


# -- a guest under an account's name (item 13) ------------------------------------------------


def test_a_guest_may_not_sit_or_play_now_under_an_accounts_name(server: LiveServer) -> None:
    sign_up(server, "bobby")
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    for name in ("bobby", "BOBBY", " Bobby ", "\uff42\uff4f\uff42\uff42\uff59"):
        r = server.http.post(f"/api/tables/{table['id']}/join", json={"name": name})
        assert r.status_code == 409, (name, r.text)
        assert "is the account bobby's: sign in as bobby to sit under it, or choose another name" \
            in r.json()["detail"]
    r = server.http.post("/api/quick", json={"game": "baha", "players": 3, "name": "Bobby"})
    assert r.status_code == 409 and "the account bobby's" in r.json()["detail"]
    r = server.http.post("/api/tables", json={"game": "baha", "players": 3, "name": "bobby",
                                              "seats": ["human", "human", "heuristic"]})
    assert r.status_code == 409 and "the account bobby's" in r.json()["detail"]
    assert [t["id"] for t in server.http.get("/api/tables").json()] == [table["id"]]  # nothing made
    assert seats(server, table["id"])[1] == (None, False)
    assert server.join(table["id"], "Bobby Tables")["seat"] == 1   # another name is a guest's own


def test_a_guest_may_not_chat_under_a_name_an_account_took_since(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, name="carol", seats=["human", "human", "heuristic"])
    dee = server.join(table["id"], "Dee")
    sign_up(server, "Carol")   # after the guest sat down as "carol"
    guest, other = server.client(table["id"], table["token"]), server.client(table["id"], dee["token"])
    try:
        guest.send({"type": "chat", "text": "it's me, Carol"})
        refused = next_of(guest, "error")
        assert refused["code"] == "name_taken"
        assert refused["message"] == ("carol is the account Carol's name and your seat is a guest's: a guest "
                                      "may not chat under it")
        other.send({"type": "chat", "text": "hello"})   # a guest under a name of their own
        said = next_of(other, "chat")
        assert said["name"] == "Dee" and said["text"] == "hello"
        assert all(m.get("text") != "it's me, Carol" for m in other.messages)
    finally:
        guest.close()
        other.close()


def test_an_account_chats_under_its_name(server: LiveServer) -> None:
    with signed_up(server, "Carol") as carol:
        made = carol.post("/api/tables", json={"game": "baha", "players": 3, "name": "x",
                                               "seats": ["human", "human", "heuristic"]}).json()
    client = server.client(made["id"], made["token"])
    try:
        client.send({"type": "chat", "text": "hi"})
        assert next_of(client, "chat")["name"] == "Carol"
    finally:
        client.close()


def test_no_account_may_be_named_guest(server: LiveServer) -> None:
    for name in ("Guest", "guest"):
        r = server.http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert r.status_code == 400 and "the name of every player without an account" in r.json()["detail"]


def test_a_guest_sits_as_guest_beside_an_account_named_so_before_the_rule(server: LiveServer) -> None:
    """An account called "guest" from before names were refused must not lock every nameless
    guest out: "Guest" is the name of every player without an account, never an account's."""
    sign_up(server, "Gues")
    with sqlite3.connect(server.data_dir / "cardroom.db") as db:
        db.execute("UPDATE accounts SET name = 'guest', folded = 'guest' WHERE folded = 'gues'")
    table = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    assert server.join(table["id"], "Guest")["seat"] == 1


# -- private tables (item 8) --------------------------------------------------------------------


def listed(server: LiveServer, status: str = "") -> list[str]:
    return [t["id"] for t in server.http.get(f"/api/tables{status}").json()]


def wait_over(server: LiveServer, table_id: str) -> None:
    end = time.monotonic() + 30
    while server.http.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < end
        time.sleep(0.05)


def test_a_private_table_is_out_of_the_lobbys_list_and_found_by_its_link(server: LiveServer) -> None:
    public = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"])
    private = server.create(game="baha", players=3, name="Ada", seats=["human", "human", "heuristic"],
                            private=True)
    assert private["private"] is True and public["private"] is False
    assert listed(server) == [public["id"]]
    found = server.http.get(f"/api/tables/{private['id']}").json()   # its link
    assert found["private"] is True and found["status"] == "waiting"
    assert server.http.get(f"/table/{private['id']}").status_code == 200
    assert server.join(private["id"], "Bea")["seat"] == 1               # a friend sits by the link
    assert listed(server) == [public["id"]]                             # running, still unlisted
    assert server.manager.store.table(private["id"]).private is True    # kept in the database
    r = server.http.post("/api/tables", json={"game": "baha", "private": "yes"})
    assert r.status_code == 400 and "private" in r.json()["detail"]


def test_a_private_game_stays_unlisted_when_over_and_so_does_its_rematch(server: LiveServer) -> None:
    made = server.create(game="baha", players=3, rules={"target": 1}, private=True,
                         seats=["heuristic", "random", "random"])   # bots only: it plays at once
    wait_over(server, made["id"])
    assert made["id"] not in listed(server, "?status=over")
    r = server.http.post(f"/api/tables/{made['id']}/rematch", json={"token": made["creator_token"]})
    assert r.status_code == 200, r.text
    assert r.json()["private"] is True and r.json()["id"] not in listed(server) + listed(server, "?status=over")


def test_a_players_page_leaves_out_private_games(server: LiveServer) -> None:
    with signed_up(server, "Ada") as ada:
        for private in (True, False):
            made = ada.post("/api/tables", json={"game": "baha", "players": 3, "rules": {"target": 1},
                                                 "name": "x", "seats": ["human", "heuristic", "heuristic"],
                                                 "private": private}).json()
            client = server.client(made["id"], made["token"])
            try:
                play_out([client])
            finally:
                client.close()
    page = server.http.get("/api/players/Ada").json()
    assert [game["table"] for game in page["recent"]] == [made["id"]]   # the public one only
