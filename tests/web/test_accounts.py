"""Accounts: sign-up and sign-in rules in words, argon2 hashes (never a plain password), the
session cookie's flags, CSRF, rate limits, player pages, ratings and the leaderboard."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from web_support import LiveServer, play_out

from cardroom.web import accounts as accounts_module
from cardroom.web.accounts import (
    ATTEMPTS_PER_ADDRESS,
    FAILURES_PER_ACCOUNT,
    FAILURES_PER_ACCOUNT_ADDRESS,
    name_problem,
    password_problem,
)

PASSWORD = "correct horse battery"


def person(server: LiveServer) -> httpx.Client:
    """A browser of its own: its own cookie jar."""
    return httpx.Client(base_url=server.base, timeout=20.0)


def sign_up(client: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def csrf(client: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies["cardroom_csrf"]}


def db_rows(server: LiveServer, sql: str) -> list[Any]:
    with sqlite3.connect(server.data_dir / "cardroom.db") as c:
        return c.execute(sql).fetchall()


def test_sign_up_stores_an_argon2_hash_never_the_password(server: LiveServer) -> None:
    with person(server) as ada:
        r = sign_up(ada, "Ada")
        assert r.status_code == 200, r.text
        assert r.json() == {"name": "Ada", "signed_in": True}
        assert ada.get("/api/account").json() == {"signed_in": True, "name": "Ada", "sessions": 1}
    rows = db_rows(server, "SELECT name, password_hash FROM accounts")
    assert len(rows) == 1 and rows[0][0] == "Ada"
    digest = rows[0][1]
    assert digest.startswith("$argon2id$") and PASSWORD not in digest
    with open(server.data_dir / "cardroom.db", "rb") as f:
        assert PASSWORD.encode() not in f.read()
    tokens = db_rows(server, "SELECT token_hash FROM account_sessions")
    assert len(tokens) == 1 and len(tokens[0][0]) == 64  # the SHA-256 of the token, not the token


def test_session_cookie_flags(server: LiveServer) -> None:
    with person(server) as ada:
        r = sign_up(ada, "Ada")
        cookies = r.headers.get_list("set-cookie")
        session = next(c for c in cookies if c.startswith("cardroom_session="))
        assert "HttpOnly" in session and "samesite=lax" in session.lower() and "Path=/" in session
        assert "Secure" not in session  # plain http here; behind https the cookie is Secure
        token = next(c for c in cookies if c.startswith("cardroom_csrf="))
        assert "HttpOnly" not in token and "samesite=strict" in token.lower()


def test_cookies_are_secure_over_https(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", forwarded_allow_ips="127.0.0.1")
    try:
        r = live.http.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD},
                           headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 200, r.text
        for cookie in r.headers.get_list("set-cookie"):
            assert "Secure" in cookie, cookie
    finally:
        live.stop()


@pytest.mark.parametrize(("name", "words"), [
    ("Al", "a name has 3 to 20 characters, not 2"),
    ("A" * 21, "a name has 3 to 20 characters, not 21"),
    ("Ada Lovelace", "a name starts with a letter and has only letters"),
    ("1ada", "a name starts with a letter"),
    ("<script>", "a name starts with a letter"),
])
def test_names_refused_in_words(server: LiveServer, name: str, words: str) -> None:
    with person(server) as client:
        r = sign_up(client, name)
        assert r.status_code == 400 and words in r.json()["detail"]
        assert "cardroom_session" not in client.cookies
    assert db_rows(server, "SELECT count(*) FROM accounts") == [(0,)]


@pytest.mark.parametrize(("password", "words"), [
    ("short", "a password has at least 10 characters; this one has 5"),
    ("x" * 201, "a password has at most 200 characters; this one has 201"),
    ("ada-and-more-letters", "a password may not contain the account's name"),
    ("abababababab", "a password needs at least 4 different characters"),
])
def test_passwords_refused_in_words(server: LiveServer, password: str, words: str) -> None:
    with person(server) as client:
        r = sign_up(client, "Ada", password)
        assert r.status_code == 400 and r.json()["detail"] == words
    assert db_rows(server, "SELECT count(*) FROM accounts") == [(0,)]


def test_rules_functions() -> None:
    assert name_problem("Ada_99") is None and password_problem(PASSWORD, "Ada") is None


def test_a_taken_name_any_case(server: LiveServer) -> None:
    with person(server) as a, person(server) as b:
        assert sign_up(a, "Ada").status_code == 200
        r = sign_up(b, "ADA")
        assert r.status_code == 409 and r.json()["detail"] == "the name ADA is taken; choose another"


def test_sign_in_and_out(server: LiveServer) -> None:
    with person(server) as a:
        assert sign_up(a, "Ada").status_code == 200
    with person(server) as b:
        r = b.post("/api/account/signin", json={"name": "Ada", "password": "wrong password!"})
        assert r.status_code == 401 and r.json()["detail"] == "that name and password do not match an account"
        r = b.post("/api/account/signin", json={"name": "Nobody", "password": PASSWORD})
        assert r.status_code == 401 and r.json()["detail"] == "that name and password do not match an account"
        r = b.post("/api/account/signin", json={"name": "ada", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["name"] == "Ada"
        assert b.get("/api/account").json()["signed_in"] is True
        # signing out is a change: without the CSRF token it is refused
        r = b.post("/api/account/signout")
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
        old = b.cookies["cardroom_session"]
        r = b.post("/api/account/signout", headers=csrf(b))
        assert r.status_code == 200 and b.get("/api/account").json() == {"signed_in": False}
        # the old session token is dead on the server too
        with person(server) as c:
            c.cookies.set("cardroom_session", old)
            assert c.get("/api/account").json() == {"signed_in": False}


def test_sign_in_rate_limited_per_account_and_address(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    with person(server) as a:
        assert sign_up(a, "Ada").status_code == 200
    accounts = server.app.state.accounts
    for _ in range(FAILURES_PER_ACCOUNT_ADDRESS):
        r = server.http.post("/api/account/signin", json={"name": "Ada", "password": "wrong password!"})
        assert r.status_code == 401
    # From this address, even the right password waits out the window.
    accounts.by_address._times.clear()
    r = server.http.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 429, r.text
    assert "too many wrong passwords for this account from this address; try again in" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) > 0
    # Once the window has passed, the right password works again.
    real = accounts_module.time.time
    monkeypatch.setattr(accounts_module.time, "time", lambda: real() + accounts_module.ATTEMPT_WINDOW + 1)
    r = server.http.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 200, r.text


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[LiveServer]:
    """A server that believes 127.0.0.1's ``X-Forwarded-For``: a test's clients at many addresses."""
    live = LiveServer(tmp_path / "data", forwarded_allow_ips="127.0.0.1")
    try:
        yield live
    finally:
        live.stop()


def at(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


class CountingHasher:
    """The accounts' argon2 hasher, counting the password checks it makes."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.checked = 0

    def verify(self, digest: str, password: str) -> Any:
        self.checked += 1
        return self.real.verify(digest, password)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def wrong_at_once(server: LiveServer, name: str, addresses: list[str]) -> list[int]:
    """One wrong password for ``name`` from each of ``addresses``, all sent at once; the statuses."""
    async def run() -> list[int]:
        async with httpx.AsyncClient(base_url=server.base, timeout=60.0) as client:
            answers = await asyncio.gather(*(
                client.post("/api/account/signin", json={"name": name, "password": "wrong password!"},
                            headers=at(address)) for address in addresses))
        return [a.status_code for a in answers]

    return asyncio.run(run())


CHEAP = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)
"""An argon2 hasher that takes a millisecond, for tests whose hashes are many and not the point."""


def test_wrong_passwords_at_once_are_checked_no_more_than_the_limit(
    proxied: LiveServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The attempts are counted before the quarter-second hash check, not after it: forty wrong
    passwords sent at once get the limit checked, the rest 429."""
    with person(proxied) as ada:
        assert ada.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD},
                        headers=at("10.0.0.1")).status_code == 200
    accounts = proxied.app.state.accounts
    counting = CountingHasher(accounts.hasher)
    monkeypatch.setattr(accounts, "hasher", counting)
    statuses = wrong_at_once(proxied, "Ada", ["10.9.0.1"] * 40)
    assert counting.checked == FAILURES_PER_ACCOUNT_ADDRESS, statuses
    assert sorted(statuses) == [401] * FAILURES_PER_ACCOUNT_ADDRESS + [429] * (40 - FAILURES_PER_ACCOUNT_ADDRESS)
    # From many addresses at once: the account's shared back-off holds them all (an account
    # whose hash is quick to check: the count is what is looked at here).
    counting.real = CHEAP
    with person(proxied) as bea:
        assert bea.post("/api/account/signup", json={"name": "Bea", "password": PASSWORD},
                        headers=at("10.0.0.2")).status_code == 200
    counting.checked = 0
    many = [f"10.8.0.{k // FAILURES_PER_ACCOUNT_ADDRESS}" for k in range(2 * FAILURES_PER_ACCOUNT)]
    statuses = wrong_at_once(proxied, "Bea", many)
    assert counting.checked == FAILURES_PER_ACCOUNT, statuses
    assert statuses.count(401) == FAILURES_PER_ACCOUNT


def test_a_stranger_cannot_lock_the_owner_out(proxied: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proxied.app.state.accounts, "hasher", CHEAP)
    home, stranger = "10.0.0.1", "10.66.0.1"
    with person(proxied) as ada:
        assert ada.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD},
                        headers=at(home)).status_code == 200

    def sign_in(address: str, password: str) -> httpx.Response:
        return proxied.http.post("/api/account/signin", json={"name": "Ada", "password": password},
                                 headers=at(address))

    for _ in range(FAILURES_PER_ACCOUNT_ADDRESS):
        assert sign_in(stranger, "wrong password!").status_code == 401
    assert sign_in(stranger, "wrong password!").status_code == 429  # the stranger is held back
    r = sign_in(home, PASSWORD)  # the owner is not
    assert r.status_code == 200, r.text
    assert sign_in("10.1.0.1", PASSWORD).status_code == 200  # nor from a new address yet
    # Strangers on many addresses meet the account's shared back-off: a new address waits too,
    # but where the owner signed in before, the right password still works.
    guesses = 0
    for k in range(FAILURES_PER_ACCOUNT):
        status = sign_in(f"10.77.0.{k}", "wrong password!").status_code
        guesses += status == 401
    assert guesses == FAILURES_PER_ACCOUNT - FAILURES_PER_ACCOUNT_ADDRESS
    r = sign_in("10.2.0.1", PASSWORD)
    assert r.status_code == 429 and "from addresses it has not signed in from" in r.json()["detail"], r.text
    assert sign_in(home, PASSWORD).status_code == 200
    assert sign_in("10.1.0.1", PASSWORD).status_code == 200


def test_sign_in_rate_limited_per_address(server: LiveServer) -> None:
    for i in range(ATTEMPTS_PER_ADDRESS):
        r = server.http.post("/api/account/signin", json={"name": f"Someone{i}", "password": PASSWORD})
        assert r.status_code == 401
    r = server.http.post("/api/account/signin", json={"name": "Other", "password": PASSWORD})
    assert r.status_code == 429 and "too many sign-in attempts" in r.json()["detail"]


def test_csrf_on_table_requests_with_a_session(server: LiveServer) -> None:
    with person(server) as ada:
        assert sign_up(ada, "Ada").status_code == 200
        body = {"game": "baha", "players": 3, "name": "Whoever", "seats": ["human", "human", "heuristic"]}
        r = ada.post("/api/tables", json=body)
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
        r = ada.post("/api/tables", json=body, headers={"X-CSRF-Token": "forged"})
        assert r.status_code == 403
        r = ada.post("/api/tables", json=body, headers={**csrf(ada), "Origin": "http://evil.example"})
        assert r.status_code == 403 and "is not from this server" in r.json()["detail"]
        assert server.manager.tables == {}
        r = ada.post("/api/tables", json=body, headers={**csrf(ada), "Origin": server.base})
        assert r.status_code == 200, r.text
        table = r.json()
        assert table["seats"][0]["name"] == "Ada"  # an account sits as itself
    # A guest (no session) needs no token: today's seat tokens work as they did.
    joined = server.join(table["id"], "Guest")
    assert joined["seat"] == 1


def test_sign_up_from_another_site_is_refused(server: LiveServer) -> None:
    r = server.http.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD},
                         headers={"Origin": "http://evil.example"})
    assert r.status_code == 403


def play_rated_game(server: LiveServer, first: httpx.Client, second: httpx.Client) -> dict[str, Any]:
    r = first.post("/api/tables", headers=csrf(first), json={
        "game": "baha", "players": 3, "rules": {"target": 1}, "name": "x",
        "seats": ["human", "human", "heuristic"]})
    assert r.status_code == 200, r.text
    table = r.json()
    r = second.post(f"/api/tables/{table['id']}/join", headers=csrf(second), json={"name": "x"})
    assert r.status_code == 200, r.text
    clients = [server.client(table["id"], table["token"]), server.client(table["id"], r.json()["token"])]
    try:
        play_out(clients)
    finally:
        for c in clients:
            c.close()
    return table


def test_a_rated_game_changes_both_ratings_and_orders_the_leaderboard(server: LiveServer) -> None:
    with person(server) as ada, person(server) as bea:
        assert sign_up(ada, "Ada").status_code == 200
        assert sign_up(bea, "Bea").status_code == 200
        board = server.http.get("/api/leaderboard/baha").json()
        assert board["game"] == "baha" and board["players"] == []
        assert board["bots"] and board["source"]  # the bots, rated apart on the agents' ladder
        table = play_rated_game(server, ada, bea)
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    totals = record["result"]["totals"]
    board = server.http.get("/api/leaderboard/baha").json()["players"]
    assert [p["name"] for p in board] == sorted(["Ada", "Bea"], key=lambda n: totals[["Ada", "Bea"].index(n)]) \
        or totals[0] == totals[1]
    assert [p["place"] for p in board] == [1, 2]
    assert board[0]["ordinal"] >= board[1]["ordinal"]
    for p in board:
        assert p["games"] == 1 and p["sigma"] < 25 / 3  # both changed from the starting rating
    if totals[0] != totals[1]:
        assert board[0]["mu"] > 25 > board[1]["mu"]
    ada_page = server.http.get("/api/players/ada").json()
    assert ada_page["name"] == "Ada" and ada_page["games_played"] == 1
    assert ada_page["recent"][0]["replay"] == f"/replay/{table['id']}"
    assert ada_page["ratings"][0]["game"] == "baha" and ada_page["ratings"][0]["games"] == 1
    assert server.http.get("/api/leaderboard/baebae").json()["players"] == []
    assert server.http.get("/api/leaderboard/chess").status_code == 404
    assert server.http.get("/api/players/nobody").status_code == 404
    assert server.http.get("/player/Ada").status_code == 200
    assert server.http.get("/player/nobody").status_code == 404


def test_a_game_with_one_account_is_not_rated(server: LiveServer) -> None:
    with person(server) as ada:
        assert sign_up(ada, "Ada").status_code == 200
        r = ada.post("/api/tables", headers=csrf(ada), json={
            "game": "baha", "players": 3, "rules": {"target": 1}, "name": "x",
            "seats": ["human", "heuristic", "heuristic"]})
        table = r.json()
    c = server.client(table["id"], table["token"])
    play_out([c])
    c.close()
    assert server.http.get("/api/leaderboard/baha").json()["players"] == []
    assert server.http.get("/api/players/Ada").json()["games_played"] == 1


def test_leaderboard_order_by_ordinal(server: LiveServer) -> None:
    accounts = server.app.state.accounts
    with person(server) as a, person(server) as b, person(server) as c:
        for client, name in ((a, "Ada"), (b, "Bea"), (c, "Cyd")):
            assert sign_up(client, name).status_code == 200
    ids = {row[1]: row[0] for row in db_rows(server, "SELECT id, name FROM accounts")}
    table = server.create(game="baha", players=3, seats=["human", "human", "human"], name="Host")
    for seat, name in enumerate(("Ada", "Bea", "Cyd")):
        accounts.sat(table["id"], seat, ids[name])
        server.manager.store.add_action(table["id"], seat + 1, seat, 0, "x", "human", 0.0)  # their own move
    assert accounts.finished(table["id"], "baha", [40, 5, 20], set())  # lower totals place better
    assert not accounts.finished(table["id"], "baha", [40, 5, 20], set())  # once only
    board = server.http.get("/api/leaderboard/baha").json()["players"]
    assert [p["name"] for p in board] == ["Bea", "Cyd", "Ada"]
    assert board[0]["ordinal"] > board[1]["ordinal"] > board[2]["ordinal"]


def test_a_name_taken_at_the_same_moment(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sign-ups for one name that both pass the first check: the second is told in words."""
    accounts = server.app.state.accounts
    real = accounts.hasher

    class Racing:
        def hash(self, password: str) -> str:
            monkeypatch.setattr(accounts, "hasher", real)
            with person(server) as other:
                assert sign_up(other, "Ada").status_code == 200  # got in while this one hashed
            return str(real.hash(password))

    monkeypatch.setattr(accounts, "hasher", Racing())
    with person(server) as ada:
        r = sign_up(ada, "ada")
        assert r.status_code == 409 and r.json()["detail"] == "the name ada is taken; choose another"
    assert db_rows(server, "SELECT name FROM accounts") == [("Ada",)]


def test_each_seat_says_whether_an_account_or_a_guest_holds_it(server: LiveServer) -> None:
    ada = person(server)
    assert sign_up(ada, "Ada").status_code == 200
    table = ada.post("/api/tables", json={"game": "baha", "players": 3, "name": "Ada",
                                          "seats": ["human", "human", "heuristic"]}, headers=csrf(ada))
    assert table.status_code == 200, table.text
    table_id = table.json()["id"]
    server.join(table_id, "Gus")   # a guest: no session
    seats = server.http.get(f"/api/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [("Ada", True), ("Gus", False), (None, False)]
    watcher = server.client(table_id)  # every connection's summary says it too
    assert [s["account"] for s in watcher.last["table"]["seats"]] == [True, False, False]  # type: ignore[index]


# -- what a person does with their account --------------------------------------------------

NEW_PASSWORD = "a brand new secret"


def test_changing_the_password_ends_the_other_sessions(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.app.state.accounts, "hasher", CHEAP)
    with person(server) as here, person(server) as there, person(server) as guest:
        assert sign_up(here, "Ada").status_code == 200
        assert there.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD}).status_code == 200
        assert here.get("/api/account").json()["sessions"] == 2
        change = {"password": PASSWORD, "new_password": NEW_PASSWORD}
        # guarded as every change of a signed-in browser is; a guest has no password to change
        r = here.post("/api/account/password", json=change)
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
        r = guest.post("/api/account/password", json=change)
        assert r.status_code == 401 and r.json()["detail"].startswith("sign in first")
        # the current password must be right, the new one must keep the rules
        r = here.post("/api/account/password", headers=csrf(here),
                      json={"password": "not the password", "new_password": NEW_PASSWORD})
        assert r.status_code == 403 and r.json()["detail"] == "that is not this account's password; nothing changed"
        r = here.post("/api/account/password", headers=csrf(here), json={"password": PASSWORD, "new_password": "short"})
        assert r.status_code == 400
        assert r.json()["detail"] == "the new password: a password has at least 10 characters; this one has 5"
        r = here.post("/api/account/password", headers=csrf(here), json={"password": PASSWORD})
        assert r.status_code == 400 and "new_password" in r.json()["detail"]
        assert there.get("/api/account").json()["signed_in"] is True  # nothing changed so far
        before = dict(here.cookies)
        r = here.post("/api/account/password", headers=csrf(here), json=change)
        assert r.status_code == 200, r.text
        assert r.json() == {"changed": True, "signed_out": 1}
        # this browser's session goes on under a new token and CSRF token: the old ones are spent
        assert here.cookies["cardroom_session"] != before["cardroom_session"]
        assert here.cookies["cardroom_csrf"] != before["cardroom_csrf"]
        assert here.get("/api/account").json() == {"signed_in": True, "name": "Ada", "sessions": 1}
        assert here.post("/api/account/signout-others", headers=csrf(here)).status_code == 200
        with person(server) as thief:
            thief.cookies.set("cardroom_session", before["cardroom_session"])
            assert thief.get("/api/account").json() == {"signed_in": False}
        assert there.get("/api/account").json() == {"signed_in": False}
    r = server.http.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD})
    assert r.status_code == 401
    r = server.http.post("/api/account/signin", json={"name": "Ada", "password": NEW_PASSWORD})
    assert r.status_code == 200


def test_signing_out_every_other_session(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.app.state.accounts, "hasher", CHEAP)
    with person(server) as here, person(server) as phone, person(server) as laptop:
        assert sign_up(here, "Ada").status_code == 200
        for other in (phone, laptop):
            assert other.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD}).status_code == 200
        assert here.post("/api/account/signout-others").status_code == 403  # no CSRF token
        r = here.post("/api/account/signout-others", headers=csrf(here))
        assert r.status_code == 200 and r.json() == {"signed_out": 2}
        assert here.get("/api/account").json()["signed_in"] is True
        assert phone.get("/api/account").json() == {"signed_in": False}
        assert laptop.get("/api/account").json() == {"signed_in": False}
    assert db_rows(server, "SELECT count(*) FROM account_sessions") == [(1,)]


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(server: LiveServer) -> None:
    with person(server) as ada, person(server) as bea, person(server) as other:
        assert sign_up(ada, "Ada").status_code == 200
        assert sign_up(bea, "Bea").status_code == 200
        assert other.post("/api/account/signin", json={"name": "Ada", "password": PASSWORD}).status_code == 200
        table = play_rated_game(server, ada, bea)
        assert len(server.http.get("/api/leaderboard/baha").json()["players"]) == 2
        server.manager.chat.say(table["id"], 0, "Ada", "good game", 0.0)  # what Ada said at the table
        # a password to confirm, and the CSRF guard
        r = ada.post("/api/account/delete", json={"password": PASSWORD})
        assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
        r = ada.post("/api/account/delete", headers=csrf(ada), json={"password": "not the password"})
        assert r.status_code == 403 and r.json()["detail"] == "that is not this account's password; nothing changed"
        assert server.http.get("/api/players/Ada").status_code == 200
        r = ada.post("/api/account/delete", headers=csrf(ada), json={"password": PASSWORD})
        assert r.status_code == 200, r.text
        assert r.json() == {"deleted": True, "name": "Ada", "seats_renamed": 1}
        assert "cardroom_session" not in ada.cookies
        assert other.get("/api/account").json() == {"signed_in": False}  # every session went
        assert bea.get("/api/account").json()["signed_in"] is True
    # its ratings and player page are gone; Bea's stay
    assert [p["name"] for p in server.http.get("/api/leaderboard/baha").json()["players"]] == ["Bea"]
    assert server.http.get("/api/players/Ada").status_code == 404
    assert server.http.get("/api/players/Bea").json()["games_played"] == 1
    # the game stays replayable, Ada's seat under a neutral name, now and after a restart
    summary = server.http.get(f"/api/tables/{table['id']}").json()
    assert [(s["name"], s["account"]) for s in summary["seats"][:2]] == [("Former player 0", False), ("Bea", True)]
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert [s["name"] for s in record["seats"][:2]] == ["Former player 0", "Bea"]
    assert server.http.get(f"/api/tables/{table['id']}/replay").status_code == 200
    assert [(c["name"], c["text"]) for c in server.manager.chat.recent(table["id"])] == [
        ("Former player 0", "good game")]
    assert server.http.get(f"/replay/{table['id']}").status_code == 200
    assert db_rows(server, "SELECT name FROM seats WHERE seat = 0") == [("Former player 0",)]
    assert "Ada" not in str(db_rows(server, "SELECT record FROM tables"))
    for kind in ("account_sessions", "ratings", "account_seats", "account_addresses", "rated_players"):
        assert db_rows(server, f"SELECT count(*) FROM {kind} WHERE account_id NOT IN "
                               "(SELECT id FROM accounts)") == [(0,)], kind
    assert db_rows(server, "SELECT name FROM accounts") == [("Bea",)]
    # the name may be taken again: a new account, with nothing of the old one
    with person(server) as newcomer:
        assert sign_up(newcomer, "ada").status_code == 200
    fresh = server.http.get("/api/players/ada").json()
    assert fresh["games_played"] == 0 and fresh["ratings"] == [] and fresh["recent"] == []
    server.stop()
    again = LiveServer(server.data_dir)
    try:
        seats = again.http.get(f"/api/tables/{table['id']}").json()["seats"]
        assert [s["name"] for s in seats[:2]] == ["Former player 0", "Bea"]
    finally:
        again.stop()
