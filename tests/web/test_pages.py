"""The pages the server makes: a real 404 page (status 404, a link to the lobby) for an unknown
table, replay or address, while the JSON API keeps its JSON errors; and each game's rules page,
whose text is the text of docs/rules-<game>.md and ships in the package."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest
from web_support import LiveServer

from cardroom import games

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", ["/table/nosuchtable", "/replay/nosuchtable", "/no/such/page", "/tables",
                                  "/static/nosuch.js", "/rules/chess"])
def test_an_unknown_address_answers_a_404_page_with_the_way_to_the_lobby(shared_server: LiveServer,
                                                                           path: str) -> None:
    r = shared_server.http.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert 'data-testid="not-found"' in r.text
    assert re.search(r'<a [^>]*href="/"', r.text), "no link to the lobby"
    assert "detail" not in r.text


def test_the_404_page_escapes_the_address(shared_server: LiveServer) -> None:
    r = shared_server.http.get("/table/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert r.status_code == 404
    assert "<script>" not in r.text and "&lt;script&gt;" in r.text


def test_a_table_that_exists_has_its_page_and_the_api_keeps_json(shared_server: LiveServer) -> None:
    table = shared_server.create(game="baha", seats=["random"] * 4)
    assert shared_server.http.get(f"/table/{table['id']}").status_code == 200
    assert shared_server.http.get(f"/replay/{table['id']}").status_code == 200
    r = shared_server.http.get("/api/tables/nosuchtable")
    assert r.status_code == 404 and r.json() == {"detail": "no table 'nosuchtable'"}
    r = shared_server.http.get("/api/nosuch")
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_the_rules_page_of_each_game_is_its_rules_text(shared_server: LiveServer, game: str) -> None:
    shipped = resources.files(f"cardroom.games.{game}").joinpath("rules.md").read_text(encoding="utf-8")
    assert shipped == (ROOT / "docs" / f"rules-{game}.md").read_text(encoding="utf-8"), \
        f"src/cardroom/games/{game}/rules.md is not docs/rules-{game}.md: copy it again"
    r = shared_server.http.get(f"/rules/{game}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    title = games.get(game).title
    assert "<h1 id=" in r.text and f"{title}: rules as Cardroom plays them" in r.text
    # Its tables are tables, its section links reach their sections, no link leads off the server.
    assert "<table>" in r.text
    ids = set(re.findall(r'<h\d id="([^"]+)"', r.text))
    anchors = set(re.findall(r'href="#([^"]+)"', r.text))
    assert anchors and anchors <= ids, f"links to missing sections: {anchors - ids}"
    assert not re.findall(r'href="(?!#|/|https?://)[^"]*"', r.text)
    assert 'href="/"' in r.text


def test_the_catalog_links_each_games_rules_and_labels_its_options(shared_server: LiveServer) -> None:
    described = shared_server.http.get("/api/catalog").json()["games"]
    for game, info in described.items():
        assert info["rules"] == f"/rules/{game}"
        for option in info["options"]:
            assert option["label"] and "_" not in option["label"], option
            assert option["text"], option
    labels = {o["name"]: o["label"] for o in described["baha"]["options"]}
    assert labels["draw_pile"] != "draw pile"


def test_every_page_has_an_icon_and_favicon_ico_answers(shared_server: LiveServer) -> None:
    """A browser asks /favicon.ico of a page that links no icon (the account and studio pages
    did, and got a 404): it answers, and every page links the icon too."""
    r = shared_server.http.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
    table = shared_server.http.post("/api/tables", json={"game": "baha", "players": 2, "seats": ["human", "human"]})
    pages = ["/", "/account", "/studio", "/leaderboard", f"/table/{table.json()['id']}", "/rules/baha", "/no/such/page"]
    for path in pages:
        page = shared_server.http.get(path).text
        assert re.search(r'<link rel="icon" href="[^"]+"', page), f"{path} links no icon"
