"""Difficulty levels on the web table: the catalog lists them with their ladder ratings, a seat or
Play now takes a level by name (kept as its agent's spec), and the budget limits still hold."""

from __future__ import annotations

from web_support import LiveServer

from cardroom.agents.levels import LEVELS, rating, shipped_ladder


def test_the_catalog_lists_every_level_with_its_agent_and_its_rating_on_each_ladder(
    shared_server: LiveServer,
) -> None:
    catalog = shared_server.http.get("/api/catalog").json()
    levels = catalog["levels"]
    assert [level["name"] for level in levels] == list(LEVELS)
    for level in levels:
        assert level["spec"] == LEVELS[level["name"]].spec
        for game in ("baha", "baebae"):
            shown = level["ratings"][game]
            assert shown == rating(game, level["spec"])
            # the shipped ladder rates every level of both games
            assert shown is not None and shown["agent"] == level["spec"], (game, level)
            assert 1 <= shown["place"] <= shown["places"]
    assert set(shipped_ladder()["games"]) >= {"baha", "baebae"}


def test_a_seat_takes_a_level_by_name_and_keeps_its_agent(shared_server: LiveServer) -> None:
    table = shared_server.create(game="baha", players=4, seats=["human", "beginner", "Casual", "expert"])
    assert [s["bot"] for s in table["seats"][1:]] == ["random", "heuristic", LEVELS["expert"].spec]


def test_an_unknown_level_is_refused_naming_the_levels(shared_server: LiveServer) -> None:
    r = shared_server.http.post(
        "/api/tables", json={"game": "baha", "players": 2, "seats": ["human", "grandmaster"]}
    )
    assert r.status_code == 400
    detail = r.json()["detail"]
    assert "grandmaster" in detail and all(name in detail for name in LEVELS)


def test_play_now_seats_a_level_as_its_agent_and_refuses_human(shared_server: LiveServer) -> None:
    manager = shared_server.manager
    assert manager.quick_check("baha", 4, "strong") == LEVELS["strong"].spec
    r = shared_server.http.post(
        "/api/quick", json={"game": "baha", "players": 4, "bot": "human", "name": "Ada"}
    )
    assert r.status_code == 400 and "Play now's free seats go to bots" in r.json()["detail"]


def test_every_level_fits_the_web_tables_budget() -> None:
    from cardroom.agents import parse_spec
    from cardroom.web.tables import BOT_LIMITS
    from cardroom.web.thinking import is_search_bot

    for level in LEVELS.values():
        name, options = parse_spec(level.spec)
        assert all(options.get(key, 0) <= most for key, most in BOT_LIMITS.items()), level
        # a searching level thinks in the server's bounded pool of bot workers, as any search bot
        assert is_search_bot(level.spec) == (name == "ismcts")
    assert is_search_bot(LEVELS["expert"].spec)


def test_the_leaderboard_and_a_player_page_show_the_bots_from_the_ladder_saying_what_they_are_from(
    server: LiveServer,
) -> None:
    import httpx

    board = server.http.get("/api/leaderboard/baebae").json()
    ladder = shipped_ladder()["games"]["baebae"]
    assert [b["agent"] for b in board["bots"]] == [r["agent"] for r in ladder["rungs"]]
    assert [b["place"] for b in board["bots"]] == list(range(1, len(ladder["rungs"]) + 1))
    levels = {b["level"]: b["agent"] for b in board["bots"] if b["level"]}
    assert levels == {name: level.spec for name, level in LEVELS.items()}
    assert board["source"]["deals"] == ladder["deals"] and board["source"]["command"].startswith(
        "cardroom ladder baebae"
    )
    assert board["players"] == []  # people are rated apart: no account played
    with httpx.Client(base_url=server.base, timeout=20.0) as ada:
        assert (
            ada.post(
                "/api/account/signup", json={"name": "Ada", "password": "correct horse battery"}
            ).status_code
            == 200
        )
    page = server.http.get("/api/players/Ada").json()
    assert (
        page["ratings"] == []
        and page["bots"]["baha"]["bots"][0]["agent"] == shipped_ladder()["games"]["baha"]["rungs"][0]["agent"]
    )
