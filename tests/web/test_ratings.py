"""What a rated game rates: accounts that made their own decisions are placed by their totals,
one that left (or was gone for the rest of the game) is placed last, one the stand-in played
too much of is not rated; and two accounts count a few rated games together a day at most."""

from __future__ import annotations

import itertools
import secrets
import sqlite3
import time
from collections.abc import Iterable
from contextlib import closing
from typing import Any

import httpx
import pytest
from web_support import TIMEOUT, LiveServer, play_out

from cardroom.web.accounts import PAIR_GAMES, PAIR_WINDOW, STAND_IN_SHARE
from cardroom.web.store import SeatData, TableData

PASSWORD = "correct horse battery"
STAND_IN = "heuristic (stand-in)"


def person(server: LiveServer, name: str) -> httpx.Client:
    """A browser of its own, signed up as ``name``."""
    client = httpx.Client(base_url=server.base, timeout=TIMEOUT)
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return client


def csrf(client: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies["cardroom_csrf"]}


def board(server: LiveServer) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in server.http.get("/api/leaderboard/baha").json()["players"]}


# -- end to end: a player who leaves, accounts nobody played ------------------------------------


def test_a_player_who_leaves_after_two_actions_is_rated_last(server: LiveServer) -> None:
    with closing(person(server, "Ada")) as ada, closing(person(server, "Bea")) as bea:
        r = ada.post("/api/tables", headers=csrf(ada), json={
            "game": "baha", "players": 3, "rules": {"target": 1}, "seats": ["human", "human", "heuristic"],
            "name": "x"})
        assert r.status_code == 200, r.text
        t = r.json()
        r = bea.post(f"/api/tables/{t['id']}/join", headers=csrf(bea), json={"name": "x"})
        assert r.status_code == 200, r.text
        bea_token = r.json()["token"]
        a, b = server.client(t["id"], t["token"]), server.client(t["id"], bea_token)
        end = time.monotonic() + TIMEOUT
        while len(b.acted) < 2:  # both play; Bea leaves after her second decision
            assert time.monotonic() < end, "Bea was not asked twice"
            for c in (a, b):
                c.drain(0.01)
                u = c.last
                if u is not None and u["moves"] and u["seq"] not in c.acted:
                    c.acted.add(u["seq"])
                    c.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
        b.close()
        r = bea.post(f"/api/tables/{t['id']}/leave", headers=csrf(bea), json={"token": bea_token})
        assert r.status_code == 200, r.text
        play_out([a])
        a.close()
    totals = server.http.get(f"/api/tables/{t['id']}/record").json()["result"]["totals"]
    rated = board(server)
    assert set(rated) == {"Ada", "Bea"}, rated  # both rated: she did not get away unrated
    assert rated["Ada"]["place"] == 1 and rated["Bea"]["place"] == 2
    assert rated["Bea"]["mu"] < 25 < rated["Ada"]["mu"]  # last, whatever her total
    assert rated["Bea"]["games"] == rated["Ada"]["games"] == 1
    assert totals[1] <= max(totals)  # (her total is no part of it)


def test_a_game_two_accounts_never_touched_is_not_rated(server: LiveServer) -> None:
    """Two accounts sit and never come to the table; a guest plays, stand-ins play for them."""
    server.manager.away_after = 0.2
    with closing(person(server, "Ada")) as ada, closing(person(server, "Bea")) as bea:
        r = ada.post("/api/tables", headers=csrf(ada), json={
            "game": "baha", "players": 3, "rules": {"target": 1}, "seats": ["human", "human", "human"],
            "name": "x"})
        assert r.status_code == 200, r.text
        t = r.json()
        assert bea.post(f"/api/tables/{t['id']}/join", headers=csrf(bea), json={"name": "x"}).status_code == 200
    gus = server.client(t["id"], server.join(t["id"], "Gus")["token"])
    play_out([gus])
    assert gus.last is not None and gus.last["table"]["status"] == "over"
    gus.close()
    assert board(server) == {}
    names = {r["name"]: r for r in server.http.get("/api/players/Ada").json()["ratings"]}
    assert names == {}


# -- the rules one by one, on games written to the database -----------------------------------


class Games:
    """Finished games written straight to the database, rated by the server's accounts."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.accounts = server.app.state.accounts
        with sqlite3.connect(server.data_dir / "cardroom.db") as db:  # no password is asked here
            for name in ("Ada", "Bea", "Cyd", "Dee"):
                db.execute("INSERT INTO accounts (name, folded, password_hash, created) VALUES (?, ?, '-', 0)",
                           (name, name.lower()))
            self.ids: dict[str, int] = dict(db.execute("SELECT name, id FROM accounts").fetchall())
        self.count = itertools.count(1)

    def play(self, seats: list[str], decisions: dict[str, list[str]], totals: list[int],
             left: Iterable[int] = (), gone: Iterable[int] = ()) -> bool:
        """A finished game of the accounts ``seats`` (in seat order); ``decisions`` says who made
        each seat's decisions, in order (``human`` or the stand-in). Answers whether it was rated."""
        table_id = f"g{next(self.count)}-{secrets.token_hex(3)}"
        store = self.server.manager.store
        store.add_table(TableData(
            id=table_id, game="baha", players=len(seats), rules={}, deck=None, upload=None, deck_info=None,
            seed=1, timer=None, status="over", created=time.time(), finished=time.time(),
            seats=[SeatData(k, "human", name=name) for k, name in enumerate(seats)]))
        seq = itertools.count(1)
        for turn in range(max(len(d) for d in decisions.values())):
            for seat, name in enumerate(seats):
                if turn < len(decisions[name]):
                    store.add_action(table_id, next(seq), seat, 0, "x", decisions[name][turn], time.time())
        for seat, name in enumerate(seats):
            self.accounts.sat(table_id, seat, self.ids[name])
        return bool(self.accounts.finished(table_id, "baha", totals, set(left), set(gone)))

    def rated(self) -> dict[str, dict[str, Any]]:
        return board(self.server)


@pytest.fixture
def games(server: LiveServer) -> Games:
    return Games(server)


def test_own_decisions_place_by_totals_and_the_stand_in_bound(games: Games) -> None:
    own = ["human"] * 8
    mostly = ["human"] * 6 + [STAND_IN] * 2          # a quarter by the stand-in: within the bound
    too_much = ["human"] * 4 + [STAND_IN] * 3 + ["human"]  # back at the end, but over it
    assert 2 / 8 <= STAND_IN_SHARE < 3 / 8
    assert games.play(["Ada", "Bea", "Cyd"], {"Ada": own, "Bea": mostly, "Cyd": too_much}, [30, 10, 0])
    rated = games.rated()
    assert set(rated) == {"Ada", "Bea"}  # Cyd's seat was played too much by the stand-in
    assert rated["Bea"]["place"] == 1  # lower totals place better


def test_a_seat_gone_for_the_rest_of_the_game_is_placed_last(games: Games) -> None:
    own = ["human"] * 8
    gone = ["human"] * 7 + [STAND_IN]  # the person was gone at the end, the stand-in playing since
    assert games.play(["Ada", "Bea"], {"Ada": own, "Bea": gone}, [30, 0], gone={1})
    rated = games.rated()
    assert rated["Ada"]["place"] == 1 and rated["Bea"]["place"] == 2  # despite Bea's better total
    # Gone at the end after their own last decision (others finished the game): placed by totals.
    assert games.play(["Cyd", "Dee"], {"Cyd": own, "Dee": own}, [30, 0], gone={1})
    rated = games.rated()
    assert rated["Dee"]["mu"] > 25 > rated["Cyd"]["mu"]


def test_away_at_the_table_for_the_rest_is_last_a_slow_last_move_is_not(games: Games) -> None:
    """At the table (connected) to the end: the stand-in playing the seat's last stretch, over a
    quarter of its decisions, is being away for the rest; a last move or two is forgiven."""
    own = ["human"] * 8
    idle = ["human"] * 5 + [STAND_IN] * 3  # three of eight: over the bound
    slow = ["human"] * 7 + [STAND_IN]      # one of eight: within it
    assert games.play(["Ada", "Bea", "Cyd"], {"Ada": own, "Bea": idle, "Cyd": slow}, [30, 0, 10])
    rated = games.rated()
    assert [rated[n]["place"] for n in ("Cyd", "Ada", "Bea")] == [1, 2, 3]  # Bea last, despite her total


def test_nobody_who_played_their_own_game_no_rating(games: Games) -> None:
    stand_in = [STAND_IN] * 8
    assert not games.play(["Ada", "Bea"], {"Ada": stand_in, "Bea": stand_in}, [30, 0], gone={0, 1})
    assert not games.play(["Ada", "Bea"], {"Ada": stand_in, "Bea": stand_in}, [30, 0])  # connected, idle
    assert not games.play(["Ada", "Bea"], {"Ada": ["human"], "Bea": ["human"]}, [30, 0], left={0, 1})
    assert games.rated() == {}


def test_two_accounts_count_a_few_rated_games_together_a_day(games: Games) -> None:
    own = ["human"] * 4
    for _ in range(PAIR_GAMES):
        assert games.play(["Ada", "Bea"], {"Ada": own, "Bea": own}, [30, 0])
    assert not games.play(["Ada", "Bea"], {"Ada": own, "Bea": own}, [30, 0])
    assert games.rated()["Bea"]["games"] == PAIR_GAMES
    # At a table with others, the pair is left out and the others are rated among themselves.
    assert games.play(["Ada", "Bea", "Cyd", "Dee"], {n: own for n in ("Ada", "Bea", "Cyd", "Dee")},
                      [0, 5, 10, 20])
    rated = games.rated()
    assert rated["Ada"]["games"] == PAIR_GAMES and rated["Cyd"]["games"] == 1 and rated["Dee"]["games"] == 1
    assert rated["Cyd"]["mu"] > 25 > rated["Dee"]["mu"]
    # Each has games left with the others; once the day has passed, the pair counts again.
    assert games.play(["Ada", "Cyd"], {"Ada": own, "Cyd": own}, [0, 5])
    with sqlite3.connect(games.server.data_dir / "cardroom.db") as db:
        db.execute("UPDATE rated_games SET at = at - ?", (PAIR_WINDOW + 1,))
    assert games.play(["Ada", "Bea"], {"Ada": own, "Bea": own}, [30, 0])


def test_the_leaderboard_page_says_the_rules(server: LiveServer) -> None:
    page = server.http.get("/leaderboard").text
    rules = page[page.index('data-testid="rating-rules"'):]
    rules = " ".join(rules[:rules.index("</p>")].split())
    assert STAND_IN_SHARE == 0.25 and "a quarter of them at most" in rules
    assert "counts as finishing last" in rules
    assert PAIR_WINDOW == 24 * 3600 and f"{PAIR_GAMES} games together a day at most" in rules
