"""People at a table besides playing: leaving, closing by the creator, rematches; and bots that
choose their pass cards at once."""

from __future__ import annotations

import time
from pathlib import Path

from web_support import Client, LiveServer, is_over, play_out

from cardroom.record import verify


def post(server: LiveServer, path: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    r = server.http.post(path, json=body)
    return r.status_code, r.json()


# -- the creator's token -----------------------------------------------------------------


def test_create_answers_the_creators_token(server: LiveServer) -> None:
    seated = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "heuristic"])
    assert seated["creator_token"] == seated["token"] and seated["seat"] == 0
    watching = server.create(game="baha", seats=["human", "human", "heuristic", "heuristic"])
    assert "token" not in watching and "seat" not in watching
    assert len(watching["creator_token"]) >= 20
    # The creator's own token holds no seat: hello with it is refused like any stranger's.
    c = Client(server.base.replace("http", "ws", 1), watching["id"], None, hello=False)
    c.send({"type": "hello", "token": watching["creator_token"]})
    assert c.expect("error")["code"] == "not_seated"
    c.close()


# -- leaving -------------------------------------------------------------------------------


def test_leaving_a_waiting_table_frees_the_seat(server: LiveServer) -> None:
    t = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "heuristic"])
    watcher = server.client(t["id"], None)
    status, answer = post(server, f"/api/tables/{t['id']}/leave", {"token": t["token"]})
    assert status == 200, answer
    assert answer["seat"] == 0
    seat0 = answer["table"]["seats"][0]  # type: ignore[index]
    assert seat0["name"] is None and seat0["kind"] == "human"
    assert watcher.wait(lambda u: u["table"]["seats"][0]["name"] is None)
    # The old token holds nothing now; the seat can be taken again.
    status, answer = post(server, f"/api/tables/{t['id']}/leave", {"token": t["token"]})
    assert status == 403 and "holds no seat" in str(answer["detail"])
    assert server.join(t["id"], "Cy", seat=0)["seat"] == 0
    assert server.http.get(f"/api/tables/{t['id']}").json()["status"] == "waiting"


def test_leaving_a_running_game_hands_the_seat_to_a_stand_in(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "human"])
    bo = server.join(t["id"], "Bo")
    ada = server.client(t["id"], t["token"])
    bo_client = server.client(t["id"], bo["token"])
    status, answer = post(server, f"/api/tables/{t['id']}/leave", {"token": t["token"]})
    assert status == 200, answer
    left = ada.wait(lambda u: u["table"]["seats"][0]["left"])
    assert left["moves"] == []
    assert any(m["type"] == "error" and m["code"] == "left" for m in ada.messages)
    # Ada's connection is a spectator's now: she may not act.
    ada.send({"type": "act", "action": 0, "seq": left["seq"]})
    assert ada.wait(lambda u: True) and any(
        m["type"] == "error" and m["code"] == "spectator" for m in ada.drain(0.3) + ada.messages)
    # Bo plays on against the stand-in to the end.
    play_out([bo_client])
    assert bo_client.last is not None and is_over(bo_client.last)
    record = server.http.get(f"/api/tables/{t['id']}/record").json()
    assert verify(record).ok
    assert record["seats"][0]["left_after"] == left["seq"]
    assert record["seats"][0]["stand_in"] == "heuristic"
    assert "left_after" not in record["seats"][1]
    # An unknown token, a bad body, an unknown table.
    assert post(server, f"/api/tables/{t['id']}/leave", {"token": "nope"})[0] == 403
    assert post(server, f"/api/tables/{t['id']}/leave", {"token": bo["token"]})[0] == 409
    assert post(server, f"/api/tables/{t['id']}/leave", {"tok": "x"})[0] == 400
    assert post(server, "/api/tables/nope/leave", {"token": "x"})[0] == 404


def test_who_left_is_still_gone_after_a_restart(tmp_path: Path) -> None:
    first = LiveServer(tmp_path / "data")
    try:
        t = first.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "human"])
        bo = first.join(t["id"], "Bo")
        assert post(first, f"/api/tables/{t['id']}/leave", {"token": t["token"]})[0] == 200
        first.client(t["id"], bo["token"]).close()
    finally:
        first.stop()
    again = LiveServer(tmp_path / "data")
    try:
        summary = again.http.get(f"/api/tables/{t['id']}").json()
        assert summary["seats"][0]["left"] and summary["seats"][0]["away"]
        assert summary["seats"][0]["name"] == "Ada"
        play_out([again.client(t["id"], bo["token"])])
        record = again.http.get(f"/api/tables/{t['id']}/record").json()
        assert record["seats"][0]["left_after"] == 0 and verify(record).ok
    finally:
        again.stop()


# -- closing -------------------------------------------------------------------------------


def test_the_creator_closes_a_waiting_table(server: LiveServer) -> None:
    t = server.create(game="baha", name="Ada", seats=["human", "human", "heuristic", "heuristic"])
    watcher = server.client(t["id"], None)
    other = server.create(game="baha", name="Cy", seats=["human", "human", "heuristic", "heuristic"])
    # Only the creator's token closes it.
    status, answer = post(server, f"/api/tables/{t['id']}/close", {"token": other["creator_token"]})
    assert status == 403 and "only the creator" in str(answer["detail"])
    status, answer = post(server, f"/api/tables/{t['id']}/close", {"token": t["creator_token"]})
    assert status == 200 and answer == {"closed": True, "table": None}
    closed = watcher.recv()
    assert closed["type"] == "error" and closed["code"] == "closed"
    assert server.http.get(f"/api/tables/{t['id']}").status_code == 404
    assert t["id"] not in [x["id"] for x in server.http.get("/api/tables").json()]


def test_the_creator_closes_a_running_game_which_ends_abandoned(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data")
    try:
        t = server.create(game="baha", players=2, name="Ada", seats=["human", "human"])
        bo = server.join(t["id"], "Bo")
        ada = server.client(t["id"], t["token"])
        ada.wait(lambda u: u["view"] is not None)
        # Bo is seated but is not the creator.
        assert post(server, f"/api/tables/{t['id']}/close", {"token": bo["token"]})[0] == 403
        bo_client = server.client(t["id"], bo["token"])  # seat 1 passes first
        play = bo_client.wait(lambda u: bool(u["moves"]))
        bo_client.send({"type": "act", "action": play["moves"][0]["action"], "seq": play["seq"]})
        ada.wait(lambda u: u["seq"] == play["seq"] + 1)
        status, answer = post(server, f"/api/tables/{t['id']}/close", {"token": t["creator_token"]})
        assert status == 200, answer
        summary = answer["table"]
        assert summary["status"] == "over" and summary["closed"] is True  # type: ignore[index]
        end = ada.wait(lambda u: u["table"]["status"] == "over")
        assert end["table"]["closed"] and end["moves"] == [] and end["deadline"] is None
        # No one may act in it; it is listed with the finished games; its record is kept.
        ada.send({"type": "act", "action": 0, "seq": end["seq"]})
        assert ada.expect("error")["code"] == "over"
        assert t["id"] in [x["id"] for x in server.http.get("/api/tables?status=over").json()]
        record = server.http.get(f"/api/tables/{t['id']}/record").json()
        assert record["abandoned"] == {"closed_after": 1} and record["result"]["over"] is False
        assert len(record["actions"]) == 1 and verify(record).ok
        replay = server.http.get(f"/api/tables/{t['id']}/replay?seat=0")
        assert replay.status_code == 200 and len(replay.json()["steps"]) == 2
        assert post(server, f"/api/tables/{t['id']}/close", {"token": t["creator_token"]})[0] == 409
    finally:
        server.stop()
    # A restart keeps it closed.
    again = LiveServer(tmp_path / "data")
    try:
        summary = again.http.get(f"/api/tables/{t['id']}").json()
        assert summary["status"] == "over" and summary["closed"] is True
    finally:
        again.stop()


# -- rematches -----------------------------------------------------------------------------


def test_a_rematch_seats_the_same_people_and_bots(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data")
    try:
        t = server.create(game="baebae", rules={"rounds": 1}, name="Ada", timer=30,
                          seats=["human", "human", "random", "ismcts:iterations=50"])
        bo = server.join(t["id"], "Bo")
        ada, bo_client = server.client(t["id"], t["token"]), server.client(t["id"], bo["token"])
        # Not before the game is over.
        assert post(server, f"/api/tables/{t['id']}/rematch", {"token": t["token"]})[0] == 409
        play_out([ada, bo_client], timeout=60)
        assert post(server, f"/api/tables/{t['id']}/rematch", {"token": "stranger"})[0] == 403
        status, new = post(server, f"/api/tables/{t['id']}/rematch", {"token": bo["token"]})
        assert status == 200, new
        assert new["id"] != t["id"] and new["seat"] == 1
        assert (new["game"], new["rules"], new["deck"], new["timer"]) == (t["game"], t["rules"], t["deck"], 30)
        assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == [  # type: ignore[union-attr]
            ("human", None, "Ada"), ("human", None, "Bo"), ("bot", "random", None),
            ("bot", "ismcts:iterations=50", None)]
        assert new["status"] == "running"  # both people hold their seats already
        # Everyone at the finished table hears of it; asking again gives the same table.
        assert ada.wait(lambda u: u["table"]["rematch"] == new["id"])
        status, same = post(server, f"/api/tables/{t['id']}/rematch", {"token": t["token"]})
        assert status == 200 and same["id"] == new["id"] and same["seat"] == 0
        # The old tokens hold the seats at the new table.
        again = server.client(str(new["id"]), t["token"])
        assert again.welcome is not None and again.welcome["seat"] == 0
        seeds = {x.data.seed for x in server.manager.tables.values()}
        assert len(seeds) == 2, "a fresh seed"
    finally:
        server.stop()
    restarted = LiveServer(tmp_path / "data")
    try:
        assert restarted.http.get(f"/api/tables/{t['id']}").json()["rematch"] == new["id"]
    finally:
        restarted.stop()


def test_a_rematch_frees_the_seat_of_a_player_who_left(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "human"])
    bo = server.join(t["id"], "Bo")
    assert post(server, f"/api/tables/{t['id']}/leave", {"token": bo["token"]})[0] == 200
    play_out([server.client(t["id"], t["token"])])
    status, new = post(server, f"/api/tables/{t['id']}/rematch", {"token": t["creator_token"]})
    assert status == 200, new
    assert new["status"] == "waiting"
    assert [s["name"] for s in new["seats"]] == ["Ada", None]  # type: ignore[union-attr]
    assert not any(s["left"] for s in new["seats"])  # type: ignore[union-attr]
    assert server.join(str(new["id"]), "Cy")["seat"] == 1


def test_a_rematch_closed_before_it_began_can_be_asked_for_again(server: LiveServer) -> None:
    t = server.create(game="baha", players=2, rules={"target": 1}, name="Ada", seats=["human", "human"])
    bo = server.join(t["id"], "Bo")
    assert post(server, f"/api/tables/{t['id']}/leave", {"token": bo["token"]})[0] == 200
    play_out([server.client(t["id"], t["token"])])
    first = post(server, f"/api/tables/{t['id']}/rematch", {"token": t["token"]})[1]
    assert first["status"] == "waiting"
    assert post(server, f"/api/tables/{first['id']}/close", {"token": t["creator_token"]})[0] == 200
    assert server.http.get(f"/api/tables/{t['id']}").json()["rematch"] is None
    status, second = post(server, f"/api/tables/{t['id']}/rematch", {"token": t["token"]})
    assert status == 200, second
    assert second["id"] != first["id"]
    assert server.http.get(f"/api/tables/{t['id']}").json()["rematch"] == second["id"]


# -- bots passing --------------------------------------------------------------------------


def test_bots_choose_their_pass_cards_at_once(tmp_path: Path) -> None:
    """Seats 1 to 3 (bots) pick before seat 0 (the dealer's seat passes last): nine picks. With
    a delay of 0.5 s before each bot move that was 4.5 s; now it is one delay in all."""
    delay = 0.5
    server = LiveServer(tmp_path / "data", bot_delay=delay)
    try:
        start = time.monotonic()
        t = server.create(game="baha", name="Ada", seats=["human", "heuristic", "heuristic", "heuristic"])
        ada = server.client(t["id"], t["token"])
        first = ada.wait(lambda u: bool(u["moves"]))
        waited = time.monotonic() - start
        assert first["seq"] == 9 and first["moves"][0]["text"].startswith("pass ")
        assert waited < 3 * delay, f"the bots took {waited:.2f} s to pass"
        picks = server.manager.store.actions(t["id"])
        assert len(picks) == 9
        # Plays still wait the delay, so people can follow them: seat 1 leads after Ada's picks.
        for _ in range(3):
            u = ada.wait(lambda u: bool(u["moves"]))
            ada.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
            ada.wait(lambda u, s=u["seq"]: u["seq"] > s)
        start = time.monotonic()
        assert ada.wait(lambda u: u["seq"] == 13)["view"]["trick"]
        assert time.monotonic() - start >= delay * 0.8
    finally:
        server.stop()


def test_after_the_bots_last_picks_the_first_card_still_waits_the_delay(tmp_path: Path) -> None:
    """Ada sits at seat 2: seat 1 picks, then Ada, then seats 3 and 0 together; then seat 1
    leads, a move people watch, after the delay."""
    delay = 0.5
    server = LiveServer(tmp_path / "data", bot_delay=delay)
    try:
        t = server.create(game="baha", name="Ada", seats=["heuristic", "heuristic", "human", "heuristic"])
        assert t["seat"] == 2
        ada = server.client(t["id"], t["token"])
        for _ in range(3):
            u = ada.wait(lambda u: bool(u["moves"]))
            ada.send({"type": "act", "action": u["moves"][0]["action"], "seq": u["seq"]})
            ada.wait(lambda u, s=u["seq"]: u["seq"] > s)
        sent = time.monotonic()
        ada.wait(lambda u: u["seq"] == 12)
        passed = time.monotonic()
        assert passed - sent < 2.5 * delay, f"seats 3 and 0 took {passed - sent:.2f} s to pick"
        assert ada.wait(lambda u: u["seq"] == 13)["view"]["trick"]
        assert time.monotonic() - passed >= delay * 0.8, "the lead came without the delay"
    finally:
        server.stop()
