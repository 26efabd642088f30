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


def test_a_learned_bot_is_refused_at_a_table_its_weights_cannot_play(shared_server: LiveServer) -> None:
    """The shipped networks play four players with the game's usual deck: another table is a 400
    in words when it is made (not an error at the bot's first move)."""
    http = shared_server.http
    for body in ({"game": "baha", "players": 3, "seats": ["human", "learned", "heuristic"]},
                 {"game": "baebae", "players": 3, "seats": ["human", "heuristic", "ismcts:policy=learned"]}):
        r = http.post("/api/tables", json=body)
        assert r.status_code == 400, r.text
        assert "the shipped weights" in r.json()["detail"] and "choose another bot" in r.json()["detail"]
    r = http.post("/api/quick", json={"game": "baebae", "players": 3, "bot": "learned", "name": "Ada"})
    assert r.status_code == 400 and "not this baebae table of 3" in r.json()["detail"], r.text
    made = shared_server.create(game="baha", players=4, seats=["human", "learned", "heuristic", "learned"])
    assert [s["bot"] for s in made["seats"][1:]] == ["learned", "heuristic", "learned"]
