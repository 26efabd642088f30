"""Play now (``POST /api/quick``): a seat at a waiting table of the game and size, else a new
table that waits ``quick_wait`` seconds for people before bots take its free seats; bounded,
refused in words, kept in the database."""

from __future__ import annotations

import time
from typing import Any

from web_support import LiveServer

WAIT = 0.6


def quick(server: LiveServer, **body: Any) -> dict[str, Any]:
    r = server.http.post("/api/quick", json={"bot": "random", **body})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def summary(server: LiveServer, table_id: str) -> dict[str, Any]:
    return server.http.get(f"/api/tables/{table_id}").json()  # type: ignore[no-any-return]


def wait_status(server: LiveServer, table_id: str, status: str, timeout: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while (s := summary(server, table_id))["status"] != status:
        assert time.monotonic() < end, s
        time.sleep(0.05)
    return s


def test_the_wait_ends_with_bots_in_the_free_seats_kept_in_the_database(server: LiveServer) -> None:
    server.manager.quick_wait = WAIT
    made = quick(server, game="baha", players=4, name="Ada", bot="heuristic")
    assert made["matched"] is False and made["status"] == "waiting" and made["seat"] == 0
    assert made["bots_at"] is not None and 0 < made["bots_at"] - time.time() <= WAIT
    started = wait_status(server, made["id"], "running")
    assert [(s["kind"], s["bot"]) for s in started["seats"]] == [("human", None)] + [("bot", "heuristic")] * 3
    assert started["bots_at"] is None
    stored = server.manager.store.table(made["id"])
    assert [s.kind for s in stored.seats] == ["human", "bot", "bot", "bot"] and stored.status == "running"


def test_a_second_person_in_the_wait_sits_at_the_first_ones_table(server: LiveServer) -> None:
    server.manager.quick_wait = WAIT
    first = quick(server, game="baha", players=3, name="Ada")
    assert first["matched"] is False
    older = server.create(game="baha", players=3, name="Old", seats=["human", "human", "human"])
    server.manager.tables[older["id"]].data.created -= 3600    # a table waiting for an hour
    second = quick(server, game="baha", players=3, name="Bea")   # Play now's table, never a created one
    assert second["matched"] is True and second["id"] == first["id"] and second["seat"] == 1
    started = wait_status(server, first["id"], "running")
    assert [(s["kind"], s["name"]) for s in started["seats"]] == [("human", "Ada"), ("human", "Bea"), ("bot", None)]
    assert summary(server, older["id"])["status"] == "waiting"
    third = quick(server, game="baha", players=3, name="Cy")     # a table of its own, not Old's
    assert third["matched"] is False and third["id"] not in (older["id"], first["id"])
    assert [s["name"] for s in summary(server, older["id"])["seats"]] == ["Old", None, None]


def test_play_now_never_takes_a_seat_a_created_table_keeps_for_a_friend(server: LiveServer) -> None:
    """A New table (3 players: the creator, a seat for a friend, a beginner bot) waits for the
    friend; Play now for the same game and size makes a table of its own."""
    server.manager.quick_wait = 30.0
    created = server.create(game="baebae", players=3, name="Ada", seats=["human", "human", "beginner"])
    made = quick(server, game="baebae", players=3, name="Bea", bot="expert")
    assert made["matched"] is False and made["id"] != created["id"]
    same_level = quick(server, game="baebae", players=3, name="Cy", bot="random")  # the beginner's agent
    assert same_level["id"] != created["id"]
    kept = summary(server, created["id"])
    assert kept["status"] == "waiting" and [s["name"] for s in kept["seats"]] == ["Ada", None, None]
    friend = server.join(created["id"], "Dee")   # the friend, by the table's link
    assert friend["seat"] == 1 and summary(server, created["id"])["status"] == "running"


def test_play_now_matches_tables_in_the_wait_of_the_same_game_size_and_level(server: LiveServer) -> None:
    server.manager.quick_wait = 30.0
    first = quick(server, game="baha", players=3, name="Ada", bot="casual")
    other_level = quick(server, game="baha", players=3, name="Bea", bot="expert")
    assert other_level["matched"] is False and other_level["id"] != first["id"]
    other_size = quick(server, game="baha", players=4, name="Cy", bot="casual")
    assert other_size["matched"] is False
    by_spec = quick(server, game="baha", players=3, name="Dee", bot="heuristic")  # casual's agent
    assert by_spec["matched"] is True and by_spec["id"] == first["id"]
    expert = quick(server, game="baha", players=3, name="Eve", bot="expert")
    assert expert["matched"] is True and expert["id"] == other_level["id"]


def test_play_now_leaves_out_the_tables_one_sits_at_already(server: LiveServer) -> None:
    server.manager.quick_wait = 30.0
    made = quick(server, game="baha", players=4, name="Ada")
    again = quick(server, game="baha", players=4, name="Ada", skip=[made["id"]])   # the same browser
    assert again["matched"] is False and again["id"] != made["id"]
    other = quick(server, game="baha", players=4, name="Bea", skip=["nope"])
    assert other["matched"] is True and other["id"] == made["id"]
    r = server.http.post("/api/quick", json={"game": "baha", "players": 4, "name": "Cy", "skip": ["x" * 41]})
    assert r.status_code == 400


def test_a_table_everybody_left_in_the_wait_stays_waiting(server: LiveServer) -> None:
    server.manager.quick_wait = WAIT
    made = quick(server, game="baebae", players=2, name="Ada")
    r = server.http.post(f"/api/tables/{made['id']}/leave", json={"token": made["token"]})
    assert r.status_code == 200, r.text
    time.sleep(WAIT + 0.4)
    after = summary(server, made["id"])
    assert after["status"] == "waiting" and [s["kind"] for s in after["seats"]] == ["human", "human"]
    assert after["bots_at"] is None


def test_people_who_fill_the_table_in_the_wait_play_without_bots(server: LiveServer) -> None:
    server.manager.quick_wait = WAIT
    made = quick(server, game="baebae", players=2, name="Ada")
    quick(server, game="baebae", players=2, name="Bea")
    assert summary(server, made["id"])["status"] == "running"
    time.sleep(WAIT + 0.3)
    assert [s["kind"] for s in summary(server, made["id"])["seats"]] == ["human", "human"]


def test_bad_play_now_requests_are_refused_in_words_and_make_nothing(server: LiveServer) -> None:
    for body, words in [({"game": "baha", "players": 4, "bot": "oracle", "name": "Ada"}, "unknown bot 'oracle'"),
                        ({"game": "chess", "players": 4, "name": "Ada"}, "unknown game 'chess'"),
                        ({"game": "baha", "players": 9, "name": "Ada"}, "players"),
                        ({"game": "baha", "players": 4, "name": ""}, "name")]:
        r = server.http.post("/api/quick", json=body)
        assert r.status_code == 400 and words in r.json()["detail"], (body, r.text)
    assert server.http.get("/api/tables").json() == []
