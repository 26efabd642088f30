"""A bot seat's options on the web table: a seat seed is taken, a bad option is a 400 in words."""

from __future__ import annotations

from web_support import LiveServer


def test_a_bot_seat_may_carry_its_own_seed(shared_server: LiveServer) -> None:
    server = shared_server
    table = server.create(game="baha", players=4,
                          seats=["human", "random:seed=3", "heuristic:seed=1", "ismcts:seed=2:iterations=10"])
    assert [s["bot"] for s in table["seats"][1:]] == ["random:seed=3", "heuristic:seed=1",
                                                      "ismcts:seed=2:iterations=10"]
    server.join(table["id"], "Ada")  # the game starts: its bots are made from the specs
    assert server.http.get(f"/api/tables/{table['id']}").json()["status"] == "running"


def test_an_unknown_bot_option_names_the_options_the_bot_takes(shared_server: LiveServer) -> None:
    for spec, words in (("random:foo=1", "random has no option 'foo'; its options: seed"),
                        ("random:seed=-2", "seed must be a whole number from 0")):
        r = shared_server.http.post("/api/tables", json={"game": "baha", "players": 2, "seats": ["human", spec]})
        assert r.status_code == 400, r.text
        assert words in r.json()["detail"]
