"""The HTTP API: catalog, creating, joining and listing tables, and every refusal."""

from __future__ import annotations

import pytest
from web_support import LiveServer


def test_catalog(server: LiveServer) -> None:
    cat = server.http.get("/api/catalog").json()
    assert set(cat["games"]) == {"baha", "baebae"}
    assert cat["games"]["baha"]["players"] == [2, 6]
    assert cat["games"]["baebae"]["players"][0] == 2
    baha = {o["name"]: o for o in cat["games"]["baha"]["options"]}
    assert baha["target"] == {"name": "target", "label": "Points that end the game", "kind": "int", "min": 1,
                              "max": 10_000, "default": 100, "text": baha["target"]["text"]}
    assert baha["scoring"]["choices"] == ["horns", "face"]
    assert baha["draw_pile"]["default"] is None
    baebae = {o["name"]: o for o in cat["games"]["baebae"]["options"]}
    assert "deck" not in baebae and "players" not in baebae
    assert baebae["rounds"]["default"] == 3 and baebae["hand_size"]["default"] is None
    # each option's line of help in the lobby: one line of the rules' own words
    assert all(o["text"] and "\n" not in o["text"] and len(o["text"]) <= 120
               for g in cat["games"].values() for o in g["options"])
    assert {"name": "sample", "game": "baebae", "title": "Cardroom Sample Deck", "cards": 52} in cat["decks"]
    assert all(d["game"] in cat["games"] and cat["games"][d["game"]]["decks"] for d in cat["decks"])
    assert cat["bots"] == ["random", "heuristic", "learned", "ismcts"]


def test_catalog_names_each_game_s_title_decks_and_renderer(server: LiveServer) -> None:
    """The pages draw a game with the module the catalog names; the server serves it."""
    from cardroom import games

    cat = server.http.get("/api/catalog").json()
    for name, described in cat["games"].items():
        spec = games.get(name)
        assert described["title"] == spec.title and described["decks"] is (spec.decks is not None)
        assert described["renderer"] == f"/static/{spec.web_renderer}"
        served = server.http.get(described["renderer"])
        assert served.status_code == 200 and "javascript" in served.headers["content-type"]
        assert "export default" in served.text
    assert [g["decks"] for g in cat["games"].values()] == [False, True]


def test_create_join_list(server: LiveServer) -> None:
    t = server.create(game="baha", players=3, rules={"target": 50, "scoring": "face"},
                      seats=["human", "human", "ismcts:iterations=20"], timer=30)
    assert t["status"] == "waiting" and t["timer"] == 30 and t["url"] == f"/table/{t['id']}"
    assert t["rules"]["target"] == 50 and t["rules"]["scoring"] == "face" and t["deck"] is None
    assert [s["kind"] for s in t["seats"]] == ["human", "human", "bot"]
    assert t["seats"][2]["bot"] == "ismcts:iterations=20"
    assert all(not s["connected"] and not s["away"] for s in t["seats"])
    first = server.join(t["id"], "Ada")
    assert first["seat"] == 0 and len(first["token"]) >= 32
    # the token is stored only as a hash
    stored = server.manager.tables[t["id"]].data.seats[0]
    assert stored.token_hash and first["token"] not in stored.token_hash
    r = server.http.post(f"/api/tables/{t['id']}/join", json={"name": "Bo", "seat": 0})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = server.http.post(f"/api/tables/{t['id']}/join", json={"name": "Bo", "seat": 2})
    assert r.status_code == 409 and "bot" in r.json()["detail"]
    second = server.join(t["id"], "Bo")
    assert second["seat"] == 1
    r = server.http.post(f"/api/tables/{t['id']}/join", json={"name": "Cy"})
    assert r.status_code == 409
    summary = server.http.get(f"/api/tables/{t['id']}").json()
    assert summary["status"] == "running" and [s["name"] for s in summary["seats"]] == ["Ada", "Bo", None]
    later = server.create(game="baebae", players=2, seats=["human", "random"])
    listed = server.http.get("/api/tables").json()
    assert [x["id"] for x in listed] == [later["id"], t["id"]]
    assert server.http.get("/api/tables", params={"status": "over"}).json() == []
    assert server.http.get("/api/tables", params={"status": "bogus"}).status_code == 400
    assert server.http.get("/api/tables/nope").status_code == 404
    assert server.http.post("/api/tables/nope/join", json={"name": "X"}).status_code == 404
    r = server.http.get(f"/api/tables/{t['id']}/record")
    assert r.status_code == 409 and "running" in r.json()["detail"]
    assert server.http.get(f"/api/tables/{t['id']}/replay").status_code == 409


def test_defaults_and_creator_seat(server: LiveServer) -> None:
    t = server.create(game="baebae", name="Ada")
    assert t["players"] == 4 and t["seat"] == 0 and t["token"]
    assert [s["kind"] for s in t["seats"]] == ["human", "bot", "bot", "bot"]
    assert t["status"] == "running" and t["deck"]["name"] == "Cardroom Sample Deck"
    t2 = server.create(game="baha", rules={"players": 2}, seats=["random", "human"], name="Bo")
    assert t2["players"] == 2 and t2["seat"] == 1 and t2["rules"]["draw_pile"] is True


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, ["unknown game", "baha"]),
        ({"game": "baha", "rules": {"tarjet": 5}}, ["tarjet", "target"]),
        ({"game": "baha", "rules": {"target": 0}}, ["target", "1 to"]),
        ({"game": "baha", "rules": {"target": "lots"}}, ["target"]),
        ({"game": "baha", "rules": {"scoring": "golf"}}, ["scoring", "horns"]),
        ({"game": "baha", "players": 9}, ["players", "6"]),
        ({"game": "baha", "players": 3, "rules": {"players": 4}}, ["players"]),
        # rules.players is bounded before a list of seats is built from it (no huge allocation)
        ({"game": "baha", "rules": {"players": 10**20}}, ["players", "2 to 100"]),
        ({"game": "baebae", "rules": {"players": 10**6}}, ["players", "2 to 100"]),
        ({"game": "baha", "rules": {"players": 1}}, ["players", "2 to 100"]),
        ({"game": "baha", "players": 3, "seats": ["human"]}, ["seats", "3"]),
        ({"game": "baha", "players": 2, "seats": ["human", "chess-engine"]}, ["seat 1", "heuristic"]),
        ({"game": "baha", "players": 2, "seats": ["human", "human:x=1"]}, ["seat 1"]),
        ({"game": "baha", "players": 2, "seats": ["human", "ismcts:iterations=999999"]}, ["iterations", "5000"]),
        ({"game": "baha", "players": 2, "seats": ["human", "ismcts:infer=100000"]}, ["infer", "1000"]),
        ({"game": "baha", "players": 2, "seats": ["human", "ismcts:speed=3"]}, ["seat 1", "speed"]),
        ({"game": "baha", "players": 2, "seats": ["random", "random"], "name": "Ada"}, ["bot"]),
        ({"game": "baha", "deck": "sample"}, ["deck"]),
        ({"game": "baebae", "deck": "../../etc/passwd"}, ["unknown deck", "sample"]),
        ({"game": "baebae", "rules": {"deck": "/etc/passwd"}}, ["deck_toml"]),
        ({"game": "baebae", "deck": "sample", "deck_toml": "name = 'x'"}, ["one deck"]),
        ({"game": "baebae", "deck_toml": "name = 'x'\n[[card]]\nrank = 'Z'\nsuit = 'C'\n"}, ["card 1", "rank"]),
        ({"game": "baebae", "deck_toml": "this is not toml"}, ["TOML"]),
        ({"game": "baebae", "deck_toml": "a = " + "[" * 5000 + "]" * 5000}, ["TOML", "deep"]),
        ({"game": "baebae", "deck_toml": "a = " + "{b = " * 3000 + "1" + "}" * 3000}, ["TOML", "deep"]),
        ({"game": "baebae", "players": 30}, ["players", "cards"]),
        ({"game": "baha", "timer": 0}, ["timer"]),
        ({"game": "baha", "timer": "soon"}, ["timer"]),
        ({"game": "baha", "name": ""}, ["name"]),
        ({"game": "baha", "name": "x" * 41}, ["name", "40"]),
        ({"game": "baha", "name": "bad\x00name"}, ["name"]),
        ({"game": "baha", "colour": "red"}, ["colour"]),
        ({"players": 2}, ["game"]),
        ({"game": 7}, ["game"]),
    ],
)
def test_bad_create_requests(shared_server: LiveServer, body: dict, words: list[str]) -> None:
    server = shared_server
    r = server.http.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str)
    for word in words:
        assert word.lower() in detail.lower(), detail
    assert server.http.get("/api/tables").json() == []


def test_bad_bodies(server: LiveServer) -> None:
    assert server.http.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}) \
        .status_code == 400
    assert server.http.post("/api/tables", json=[1, 2]).status_code == 400
    r = server.http.post("/api/tables", json={"game": "baebae", "deck_toml": "#" * (300 * 1024)})
    assert r.status_code == 400 and "deck_toml" in r.json()["detail"]
    r = server.http.post("/api/tables", content=b"x" * (400 * 1024), headers={"content-type": "application/json"})
    assert r.status_code == 413
    # a lone surrogate (a valid JSON escape, not valid UTF-8) echoed in a refusal is escaped, not a 500
    for raw in (b'{"game": "baha", "players": 2, "seats": ["human", "ismcts:\\ud800=1"]}',
                b'{"game": "baha", "rules": {"\\ud800": 1}}', b'{"game": "baha", "name": "\\udfff"}'):
        r = server.http.post("/api/tables", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400, (raw, r.text)
        assert r.json()["detail"]
    t = server.create(game="baha", players=2, seats=["human", "human"])
    for body in ({}, {"name": ""}, {"name": "Ada", "seat": -1}, {"name": "Ada", "seat": "one"}, {"name": 3}):
        r = server.http.post(f"/api/tables/{t['id']}/join", json=body)
        assert r.status_code == 400, (body, r.text)
    r = server.http.post(f"/api/tables/{t['id']}/join", json={"name": "Ada", "seat": 5})
    assert r.status_code == 400 and "0 to 1" in r.json()["detail"]


def test_pages_and_static(server: LiveServer) -> None:
    from cardroom.web.app import STATIC_DIR

    table = server.create(game="baha", seats=["random"] * 4)["id"]
    for path, page in (("/", "index.html"), (f"/table/{table}", "table.html"), (f"/replay/{table}", "replay.html")):
        r = server.http.get(path)
        if (STATIC_DIR / page).is_file():
            assert r.status_code == 200 and "html" in r.headers["content-type"]
        else:
            assert r.status_code == 404
    assert server.http.get("/static/../app.py").status_code == 404


def test_a_full_server_forgets_abandoned_waiting_tables(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.web import tables

    monkeypatch.setattr(tables, "MAX_OPEN_TABLES", 4)
    old = server.create(game="baha", seats=["human", "human", "random", "random"])
    watched = server.create(game="baha", seats=["human", "human", "random", "random"])
    sat = server.create(game="baha", seats=["human", "human", "random", "random"], name="Ada")
    running = server.create(game="baha", seats=["human", "random", "random", "random"], name="Bo")
    watcher = server.client(watched["id"])  # only a watcher is at this one: it does not keep it
    player = server.client(sat["id"], sat["token"])  # a player waits at this one
    assert watcher.welcome is not None and player.welcome is not None
    assert server.http.post("/api/tables", json={"game": "baha"}).status_code == 503  # nothing is old yet
    for table in (old, watched, sat, running):
        server.manager.tables[table["id"]].data.created -= tables.WAITING_TTL + 1
    fresh = server.create(game="baha")  # room made by forgetting the abandoned waiting tables
    for gone in (old, watched):
        assert server.http.get(f"/api/tables/{gone['id']}").status_code == 404
    assert watcher.expect("error")["code"] == "not_found"  # the watcher is told and let go
    kept = {t["id"] for t in server.http.get("/api/tables").json()}
    assert {sat["id"], running["id"], fresh["id"]} <= kept and not {old["id"], watched["id"]} & kept
    assert old["id"] not in {t.id for t in server.manager.store.tables()}  # gone from the database too
    watcher.close()
    player.close()
