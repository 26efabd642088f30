"""Whole games through WebSockets: people and bots, spectators, what each is sent, records."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from web_support import LiveServer, check_messages, decoded, is_over, play_out, states_of

from cardroom.games.baebae.deck import parse_deck
from cardroom.record import verify


def record_of(server: LiveServer, table_id: str) -> dict:
    r = server.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    assert "attachment" in r.headers["content-disposition"]
    return r.json()


def test_baha_against_bots_with_a_spectator(server: LiveServer) -> None:
    table = server.create(game="baha", players=4, rules={"target": 1}, name="Ada",
                          seats=["human", "heuristic", "random", "heuristic"])
    assert table["status"] == "running" and table["seat"] == 0
    watcher = server.client(table["id"])
    ada = server.client(table["id"], table["token"])
    assert ada.welcome is not None and ada.welcome["seat"] == 0 and ada.welcome["cards"] is None
    play_out([ada])
    watcher.wait(is_over)
    record = record_of(server, table["id"])
    assert verify(record).ok
    assert record["seats"][0] == {"name": "Ada", "agent": "human"}
    assert record["seats"][2]["agent"] == "random"
    states = states_of(record)
    assert states[-1].is_over
    assert check_messages(ada.messages, 0, states) > 10
    assert check_messages(watcher.messages, None, states) > 10
    summary = server.http.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "over"
    listed = server.http.get("/api/tables", params={"status": "over"}).json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert server.http.get("/api/tables").json() == []


def test_baebae_two_people_and_two_bots(server: LiveServer) -> None:
    table = server.create(game="baebae", players=4, rules={"rounds": 1}, deck="sample",
                          seats=["heuristic", "human", "human", "random"])
    assert table["status"] == "waiting" and "token" not in table
    assert table["deck"]["name"] == "Cardroom Sample Deck"
    bea = server.join(table["id"], "Bea")
    assert bea["seat"] == 1
    early = server.client(table["id"], bea["token"])  # sees the table wait, then start
    assert early.last is not None and early.last["view"] is None and early.last["table"]["status"] == "waiting"
    cy = server.join(table["id"], "Cy", seat=2)
    assert cy["seat"] == 2
    bea_c = early
    cy_c = server.client(table["id"], cy["token"])
    assert cy_c.welcome is not None and len(cy_c.welcome["cards"]) == 52
    watcher = server.client(table["id"])
    rng = random.Random(4)
    play_out([bea_c, cy_c], choose=lambda moves: rng.choice(moves)["action"])
    watcher.wait(is_over)
    record = record_of(server, table["id"])
    assert verify(record).ok
    assert record["deck"]["digest"] == table["deck"]["digest"]
    states = states_of(record)
    for client, seat in ((bea_c, 1), (cy_c, 2), (watcher, None)):
        assert check_messages(client.messages, seat, states) > 5
    summary = server.http.get(f"/api/tables/{table['id']}").json()
    assert [s["name"] for s in summary["seats"]] == [None, "Bea", "Cy", None]


def test_all_bot_table_runs_by_itself_and_replays(server: LiveServer) -> None:
    table = server.create(game="baha", players=3, rules={"target": 1},
                          seats=["heuristic", "random", "ismcts:iterations=5"])
    watcher = server.client(table["id"])
    watcher.wait(is_over)
    record = record_of(server, table["id"])
    assert verify(record).ok
    states = states_of(record)
    check_messages(watcher.messages, None, states)
    n = len(record["actions"])
    for seat in ("all", "0", "2"):
        r = server.http.get(f"/api/tables/{table['id']}/replay", params={"seat": seat})
        assert r.status_code == 200, r.text
        steps = r.json()["steps"]
        assert r.json()["cards"] is None  # Baha has no card designs to describe
        assert len(steps) == n + 1
        assert steps[0]["action"] is None
        if seat == "all":
            assert [s["action"] for s in steps[1:]] == [text for _, text in record["actions"]]
            assert steps[-1]["view"]["hands"] == [[], [], []]
            assert [e for s in steps for e in s["events"]] == record["log"]
        else:
            k = int(seat)
            assert steps[-1]["view"] == states[-1].view(k)
            hidden = [s for s in steps[1:] if s["action"] == "?"]
            assert all(s["seat"] != k for s in hidden)
            assert len(hidden) == sum(1 for p, text in record["actions"] if p != k and text.startswith("pass"))
            assert all(s["move"] is None and s["hidden"] for s in hidden)  # not even its kind
    assert server.http.get(f"/api/tables/{table['id']}/replay", params={"seat": "7"}).status_code == 400
    assert server.http.get(f"/api/tables/{table['id']}/replay", params={"seat": "x"}).status_code == 400


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_replay_steps_carry_each_action_decoded(server: LiveServer, game: str) -> None:
    """A replay step's move is the state's ``decode()`` of its action, as the live moves are:
    the replay page reads the fields, never the text; a move the seat could not tell is none."""
    rules = {"target": 1} if game == "baha" else {"rounds": 1}
    table = server.create(game=game, players=3, rules=rules, seats=["heuristic", "random", "heuristic"],
                          **({"deck": "sample"} if game == "baebae" else {}))
    server.client(table["id"]).wait(is_over)
    record = record_of(server, table["id"])
    states = states_of(record)
    for seat in ("all", "1"):
        steps = server.http.get(f"/api/tables/{table['id']}/replay", params={"seat": seat}).json()["steps"]
        assert steps[0]["move"] is None and not steps[0]["hidden"]
        kinds = set()
        for i, (step, (actor, text)) in enumerate(zip(steps[1:], record["actions"], strict=True)):
            if step["hidden"]:
                assert seat != "all" and actor != int(seat) and step["move"] is None
                continue
            action = states[i].parse_action(text)
            assert step["move"]["action"] == action and step["move"]["text"] == text == step["action"]
            assert decoded(step["move"]) == dataclasses.asdict(states[i].decode(action))
            kinds.add(step["move"]["kind"])
        assert "play" in kinds and len(kinds) >= 2  # Baha passes, BAEBAE declares, draws, selects...


def test_baebae_with_an_uploaded_deck(server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardroom.games.baebae.deck import SAMPLE_DECK

    text = SAMPLE_DECK.read_text().replace('name = "Cardroom Sample Deck"', 'name = "My Deck"', 1)
    deck = parse_deck(text)
    assert deck.name == "My Deck"
    table = server.create(game="baebae", players=2, rules={"rounds": 1}, deck_toml=text,
                          seats=["heuristic", "human"], name="Di")
    assert table["deck"] == {"name": "My Deck", "digest": deck.digest}
    di = server.client(table["id"], table["token"])
    play_out([di])
    record = record_of(server, table["id"])
    assert record["deck"]["digest"] == deck.digest
    # The record carries the deck's text; no client ever hears where the server keeps its data.
    assert record["rules"]["deck"] == record["deck"]["spec"] == deck.digest
    assert record["rules"]["deck_files"] == [text]
    assert str(server.data_dir) not in json.dumps(di.messages) + json.dumps(record)
    assert "deck_files" not in json.dumps(di.messages)  # views name the deck; its text is fetched
    # The deck file can be downloaded, by its digest's name.
    file_name = deck.digest.removeprefix("sha256:") + ".toml"
    answer = server.http.get(f"/api/tables/{table['id']}/deck")
    assert answer.status_code == 200 and file_name in answer.headers["content-disposition"]
    assert parse_deck(answer.text).digest == deck.digest
    # The record alone replays, in a folder with no deck file.
    monkeypatch.chdir(tmp_path)
    assert verify(record).ok
    check_messages(di.messages, 1, states_of(record))
    replay = server.http.get(f"/api/tables/{table['id']}/replay", params={"seat": "1"}).json()
    assert replay["cards"] == di.welcome["cards"]  # the replay describes the deck's designs too
    assert len(replay["cards"]) == len(deck.cards)


def test_replay_cache_is_kept_on_the_event_loop(server: LiveServer) -> None:
    """Replays are worked out in worker threads; their cache is changed on the event loop only
    (two threads evicting the same entry at once answered 500)."""
    import asyncio

    class Watched(dict):  # type: ignore[type-arg]
        off_loop: list[str] = []

        def _check(self, what: str) -> None:
            if asyncio._get_running_loop() is None:
                self.off_loop.append(what)

        def __setitem__(self, key: object, value: object) -> None:
            self._check("set")
            super().__setitem__(key, value)

        def pop(self, *args: object) -> object:
            self._check("pop")
            return super().pop(*args)

    cache = Watched()
    server.manager._replays = cache
    ids = []
    for _ in range(5):
        table = server.create(game="baha", players=4, rules={"target": 1}, seats=["random"] * 4)
        ids.append(table["id"])
    for table_id in ids:
        server.client(table_id).wait(is_over)
        for seat in ("all", "0", "1", "2"):
            r = server.http.get(f"/api/tables/{table_id}/replay", params={"seat": seat})
            assert r.status_code == 200, r.text
    assert len(cache) == 16 and cache.off_loop == []


def test_a_bot_retries_when_its_fallback_move_cannot_be_stored(server: LiveServer) -> None:
    """A bot's illegal choice is replaced by its first legal move; when storing that fails, the
    bot tries again (the table used to wait for ever)."""
    from cardroom.agents import make

    t = server.create(game="baha", players=3, rules={"target": 1}, name="Ada", seats=["human", "human", "random"])
    table = server.manager.tables[t["id"]]
    inner = make("random", seed=1)
    store = server.manager.store
    real = store.add_action
    failed: list[int] = []

    class Wrong:
        def act(self, state, seat):  # type: ignore[no-untyped-def]
            return 9999 if not failed else inner.act(state, seat)

    def flaky(table_id, seq, seat, *args, **kwargs):  # type: ignore[no-untyped-def]
        if seat == 2 and not failed:
            failed.append(seq)
            raise OSError("disk full")
        return real(table_id, seq, seat, *args, **kwargs)

    store.add_action = flaky
    table.agents[2] = Wrong()
    bo = server.join(t["id"], "Bo")  # every seat is taken: the game starts
    people = [server.client(t["id"], t["token"]), server.client(t["id"], bo["token"])]
    play_out(people)
    assert failed
