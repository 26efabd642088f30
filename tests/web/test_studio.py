"""The designer's studio's API (cardroom.web.studio): decks opened from the project or uploaded,
checked by the deck checker with its problems placed at their fields, versions saved with their
changes in words, simulate and compare run off the event loop with their reports kept at a
stable address (through a restart too), cancelled, and bounded per address, per server and per
run. Bad input gets a clear 4xx in words, never a traceback."""

from __future__ import annotations

import copy
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from web_support import LiveServer

from cardroom import games
from cardroom.games.baebae.deck import SAMPLE_DECK, parse_deck
from cardroom.web import studio as studio_module
from cardroom.web.accounts import Attempts
from cardroom.web.app import MAX_BODY_BYTES
from cardroom.web.protocol import MAX_DECK_BYTES

GORSE = 9
"""The sample deck's 10C, Alderman Gorse: the next player draws two cards."""
TINY = """name = "Harbour Folk"
types = ["Rogue"]
""" + "".join(f'[[card]]\nrank = "{r}"\nsuit = "{s}"\n' for s in "CDHS" for r in ("A", "2", "3", "4", "5"))


@pytest.fixture(autouse=True)
def roomy(request: pytest.FixtureRequest) -> None:
    """The module's shared server opens, saves and starts as often as its tests ask: the bounds
    are tested on servers of their own."""
    if "shared_server" in request.fixturenames:
        studio = request.getfixturevalue("shared_server").app.state.studio
        studio.opened = studio.saved = studio.started = Attempts(100_000, 60.0)


def opened(server: LiveServer, **body: Any) -> dict[str, Any]:
    r = server.http.post("/api/studio/decks", json=body or {"project": "sample"})
    assert r.status_code == 200, r.text[:400]
    return r.json()  # type: ignore[no-any-return]


def refused(r: Any, status: int) -> str:
    assert r.status_code == status, (r.status_code, r.text[:400])
    detail = r.json()["detail"]
    assert isinstance(detail, str) and "Traceback" not in detail
    return detail


def four_cards(form: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(form)
    changed["cards"][GORSE]["action"]["steps"][0]["fields"] = 'who = "next", count = 4'
    changed["cards"][GORSE]["action"]["text"] = "The next player draws four cards."
    return changed


def saved(server: LiveServer, deck: dict[str, Any], form: dict[str, Any]) -> dict[str, Any]:
    r = server.http.post(f"/api/studio/decks/{deck['id']}/versions", json={"form": form, "base": deck["version"]})
    assert r.status_code == 200, r.text[:400]
    return r.json()  # type: ignore[no-any-return]


def start(server: LiveServer, deck: dict[str, Any], kind: str = "simulate", versions: list[int] | None = None,
          **settings: Any) -> Any:
    return server.http.post("/api/studio/runs", json={
        "kind": kind, "deck": deck["id"], "versions": versions or [deck["version"]],
        "settings": {"games": 10, "players": 4, **settings}})


def finished(server: LiveServer, run_id: str, timeout: float = 90.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        run = server.http.get(f"/api/studio/runs/{run_id}").json()
        if run["status"] not in ("waiting", "running"):
            return server.http.get(f"/api/studio/runs/{run_id}", params={"report": "true"}).json()  # type: ignore[no-any-return]
        assert time.monotonic() < end, run
        time.sleep(0.1)


# -- opening ----------------------------------------------------------------------------


def test_a_project_deck_opens_as_version_1_of_a_form(shared_server: LiveServer) -> None:
    deck = opened(shared_server)
    assert deck["version"] == 1 and [v["number"] for v in deck["versions"]] == [1]
    assert deck["url"] == f"/studio/decks/{deck['id']}"
    gorse = deck["form"]["cards"][GORSE]
    assert (gorse["rank"], gorse["suit"], gorse["name"]) == ("10", "C", "Alderman Gorse")
    assert gorse["action"]["steps"] == [{"step": "draw", "fields": 'who = "next", count = 2'}]
    assert deck["cards"][GORSE]["key"] == "10C"
    # the form writes back the same deck, by digest
    text = shared_server.http.get(f"/api/studio/decks/{deck['id']}/versions/1/toml").text
    assert parse_deck(text, "v1").digest == parse_deck(SAMPLE_DECK.read_text(), "sample").digest


def test_an_uploaded_deck_opens_and_a_bad_one_is_refused_in_the_checkers_words(shared_server: LiveServer) -> None:
    deck = opened(shared_server, deck_toml=TINY, deck_file="harbour.toml")
    assert deck["form"]["name"] == "Harbour Folk" and len(deck["form"]["cards"]) == 20
    detail = refused(shared_server.http.post("/api/studio/decks", json={"deck_toml": "name = ", "deck_file": "x.toml"}),
                     400)
    assert detail.startswith("x.toml: not valid TOML")
    bad = TINY.replace('rank = "A"\nsuit = "C"', 'rank = "A"\nsuit = "C"\ncopies = 12', 1)
    r = shared_server.http.post("/api/studio/decks", json={"deck_toml": bad, "deck_file": "/some/dir/h.toml"})
    assert refused(r, 400) == "h.toml: card 1 (AC).copies: a whole number from 1 to 8, not 12"
    assert r.json()["problems"] == [{"card": 0, "field": "copies", "step": None, "message": r.json()["detail"]}]


@pytest.mark.parametrize(("body", "words"), [
    ({}, 'give one deck: "project"'),
    ({"project": "sample", "deck_toml": TINY}, 'give one deck: "project"'),
    ({"project": "nonesuch"}, "unknown deck 'nonesuch'; the project's decks are sample"),
    ({"project": 7}, "project must be a text, not 7"),
    ({"deck_toml": "x" * (MAX_DECK_BYTES + 1)}, "deck_toml must be at most 262144 characters, not 'xxxxx"),
    ({"project": "sample", "colour": "red"}, "colour is not something this form takes"),
])
def test_a_bad_open_request_is_refused_in_words(shared_server: LiveServer, body: dict[str, Any], words: str) -> None:
    assert words in refused(shared_server.http.post("/api/studio/decks", json=body), 400)


def test_an_oversize_upload_is_refused_before_it_is_read(shared_server: LiveServer) -> None:
    body = '{"deck_toml": "' + "x" * MAX_BODY_BYTES + '"}'
    r = shared_server.http.post("/api/studio/decks", content=body, headers={"content-type": "application/json"})
    assert "the request body may be at most" in refused(r, 413)


# -- the games it edits ------------------------------------------------------------------


def test_the_studio_offers_each_game_whose_spec_has_deck_editing(shared_server: LiveServer) -> None:
    editable = [name for name in games.names() if games.get(name).deck_editing is not None]
    assert editable == ["baebae"]
    meta = shared_server.http.get("/api/studio").json()
    assert [g["name"] for g in meta["games"]] == editable
    (baebae,) = meta["games"]
    editing = games.get("baebae").load("deck_editing")
    assert baebae["title"] == "BAEBAE" and baebae["renderer"] == "/static/games/baebae.js"
    assert baebae["steps"] == list(editing.step_kinds) and "draw" in baebae["steps"]
    assert baebae["marks"] == ["skip", "wild", "reverse"] and baebae["decks"] == ["sample"]
    catalog = shared_server.http.get("/api/catalog").json()["games"]
    assert {name: game["studio"] for name, game in catalog.items()} == {"baha": False, "baebae": True}
    assert opened(shared_server)["game"] == "baebae"
    assert opened(shared_server, game="baebae", project="sample")["game"] == "baebae"


@pytest.mark.parametrize("game", ["baha", "chess"])
def test_a_game_the_studio_does_not_edit_is_refused_in_words(shared_server: LiveServer, game: str) -> None:
    words = f"the studio does not edit decks of {game!r}; it edits decks of baebae"
    r = shared_server.http.post("/api/studio/decks", json={"game": game, "project": "sample"})
    assert refused(r, 400) == words
    form = opened(shared_server)["form"]
    assert refused(shared_server.http.post(f"/api/studio/check?game={game}", json=form), 400) == words


def test_the_studio_reaches_a_game_through_its_deck_editing_alone(server: LiveServer) -> None:
    studio = server.app.state.studio
    editing = games.get("baebae").load("deck_editing")

    class Narrow:
        """BAEBAE's deck editing with fewer kinds of step and marks, and no project deck."""

        step_kinds = ("draw",)
        marks = ("skip",)

        def project_decks(self) -> list[str]:
            return []

        def __getattr__(self, name: str) -> Any:
            return getattr(editing, name)

    studio.editing = {"baebae": Narrow()}
    (game,) = server.http.get("/api/studio").json()["games"]
    assert (game["steps"], game["marks"], game["decks"]) == (["draw"], ["skip"], [])
    r = server.http.post("/api/studio/decks", json={"project": "sample"})
    assert refused(r, 400).startswith("unknown deck 'sample'; the project's decks are none (or upload")
    assert opened(server, deck_toml=TINY)["game"] == "baebae"
    studio.editing = {}
    assert server.http.get("/api/studio").json()["games"] == []
    r = server.http.post("/api/studio/decks", json={"project": "sample"})
    assert refused(r, 404) == "no game of this server has decks to edit"


# -- checking and saving ------------------------------------------------------------------


def test_the_checker_places_each_problem_at_its_field(shared_server: LiveServer) -> None:
    form = opened(shared_server)["form"]
    ok = shared_server.http.post("/api/studio/check", json=form).json()
    assert ok["ok"] and ok["problems"] == [] and len(ok["cards"]) == 52
    form["cards"][GORSE]["action"]["steps"][0]["fields"] = 'who = "next", count = 99'
    form["cards"][3]["name"] = "N" * 41
    form["cards"][4]["action"]["steps"] = [{"step": "draw", "fields": "who = "}]
    form["cards"][5]["marks"] = ["sparkly"]
    answer = shared_server.http.post("/api/studio/check", json=form).json()
    assert not answer["ok"] and answer["cards"] is None
    placed = {(p["card"], p["field"], p["step"]): p["message"] for p in answer["problems"]}
    assert placed[(GORSE, "steps", 0)].endswith(".action.effects[0].count: a count is a whole number from 1 to 20, not 99")
    assert placed[(3, "name", None)].endswith(".name: a name is text of at most 40 characters (41 characters)")
    assert "the fields are not TOML" in placed[(4, "steps", 0)]
    assert placed[(5, "marks", None)].endswith(".marks: unknown mark 'sparkly'; marks are skip, wild, reverse")
    form["name"] = ""
    answer = shared_server.http.post("/api/studio/check", json=form).json()
    assert any(p["card"] is None and p["field"] == "name" for p in answer["problems"])


@pytest.mark.parametrize(("change", "words"), [
    (lambda f: f["cards"][0].update(copies="two"), "card 1, copies must be a whole number, not 'two'"),
    (lambda f: f.update(cards="none"), "cards must be a list, not 'none'"),
    (lambda f: f["cards"][0]["action"]["steps"].append({"step": "draw", "fields": 3}),
     "card 1, action, step 2, fields must be a text, not 3"),
    (lambda f: f.pop("name"), "name is missing"),
])
def test_a_malformed_form_is_refused_in_words(shared_server: LiveServer, change: Any, words: str) -> None:
    form = opened(shared_server)["form"]
    change(form)
    assert words in refused(shared_server.http.post("/api/studio/check", json=form), 400)


def test_a_version_is_saved_with_its_changes_in_words(shared_server: LiveServer) -> None:
    deck = opened(shared_server)
    after = saved(shared_server, deck, four_cards(deck["form"]))
    assert after["version"] == 2
    assert [c["words"] for c in after["versions"][1]["changes"]] == [
        '10C Alderman Gorse: action text: "The next player draws two cards." -> "The next player draws four cards."',
        '10C Alderman Gorse: steps: draw (who = "next", count = 2) -> draw (who = "next", count = 4)',
    ]
    assert after["form"]["cards"][GORSE]["action"]["steps"][0]["fields"] == 'who = "next", count = 4'
    one = shared_server.http.get(f"/api/studio/decks/{deck['id']}/versions/1").json()
    assert one["form"]["cards"][GORSE]["action"]["steps"][0]["fields"] == 'who = "next", count = 2'
    assert one["digest"] != after["versions"][1]["digest"]
    # the same form again changes nothing; an edit of an older version is refused
    url = f"/api/studio/decks/{deck['id']}/versions"
    assert "nothing changed from version 2" in refused(
        shared_server.http.post(url, json={"form": after["form"], "base": 2}), 400)
    assert "version 2 was saved since version 1 was opened" in refused(
        shared_server.http.post(url, json={"form": deck["form"], "base": 1}), 409)
    bad = copy.deepcopy(after["form"])
    bad["cards"][GORSE]["action"]["steps"][0]["fields"] = 'who = "nobody"'
    r = shared_server.http.post(url, json={"form": bad, "base": 2})
    assert refused(r, 400).startswith("the deck is not valid: the deck: card 10 (10C 'Alderman Gorse')")
    assert r.json()["problems"][0]["field"] == "steps"
    assert shared_server.http.get(f"/api/studio/decks/{deck['id']}").json()["version"] == 2  # unchanged


def test_unknown_decks_versions_and_runs_are_404_in_words(shared_server: LiveServer) -> None:
    assert "no studio deck 'nope'" in refused(shared_server.http.get("/api/studio/decks/nope"), 404)
    assert "no studio deck" in refused(shared_server.http.get("/api/studio/decks/" + "x" * 200), 404)
    assert "no studio deck" in refused(shared_server.http.get("/api/studio/decks/a b%00"), 404)
    deck = opened(shared_server)
    assert "has no version 9" in refused(shared_server.http.get(f"/api/studio/decks/{deck['id']}/versions/9"), 404)
    assert "no studio run 'nope'" in refused(shared_server.http.get("/api/studio/runs/nope"), 404)
    for page in ("/studio/decks/nope", "/studio/runs/nope"):
        r = shared_server.http.get(page)
        assert r.status_code == 404 and "There is no studio" in r.text
    assert shared_server.http.get("/studio").status_code == 200
    assert shared_server.http.get(f"/studio/decks/{deck['id']}").status_code == 200


# -- runs -------------------------------------------------------------------------------


def test_simulate_and_compare_run_and_their_reports_are_kept(server: LiveServer) -> None:
    deck = opened(server)
    deck = saved(server, deck, four_cards(deck["form"]))
    r = start(server, deck, games=12)
    assert r.status_code == 200, r.text
    run = r.json()
    assert run["status"] in ("waiting", "running") and run["url"] == f"/studio/runs/{run['id']}" and run["token"]
    done = finished(server, run["id"])
    assert done["status"] == "done" and done["played"] == done["games"] == 12 and done["error"] is None
    assert '<section id="seat_advantage">' in done["report_html"] and "<script" not in done["report_html"]
    assert "<style" not in done["report_html"]
    assert done["report_text"].startswith("BAEBAE: 12 games") and "variant: v2 Cardroom Sample Deck" in done["report_text"]
    assert "report_html" not in server.http.get(f"/api/studio/runs/{run['id']}").json()  # only when asked for

    compared = finished(server, start(server, deck, kind="compare", versions=[1, 2], games=12).json()["id"])
    assert compared["status"] == "done", compared["error"]
    assert compared["games"] == 24
    assert "v2 Cardroom Sample Deck minus v1 Cardroom Sample Deck" in compared["report_text"]


def test_restricted_play_and_skill_run_as_studio_jobs(server: LiveServer) -> None:
    deck = opened(server)
    deck = saved(server, deck, four_cards(deck["form"]))
    restricted = finished(server, start(server, deck, kind="restrict", versions=[2], games=6).json()["id"])
    assert restricted["status"] == "done", restricted["error"]
    cards = len(deck["form"]["cards"])
    assert restricted["games"] >= (1 + cards) * 6 and restricted["played"] == restricted["games"]
    assert "restricted play" in restricted["report_text"] and "<table" in restricted["report_html"]
    skill = finished(server, start(server, deck, kind="skill", versions=[1, 2], games=2).json()["id"])
    assert skill["status"] == "done", skill["error"]
    assert skill["played"] == skill["games"] > 0
    assert "How much skill matters" in skill["report_text"] and "ismcts:iterations=100" in skill["report_text"]


def test_tune_runs_as_a_studio_job_and_says_the_change_to_make(server: LiveServer) -> None:
    deck = opened(server)
    run = start(server, deck, kind="tune", versions=[1], games=10, param="10C.count=1..3",
                target="decisions=125", trials=3)
    tuned = finished(server, run.json()["id"])
    assert tuned["status"] == "done", tuned["error"]
    assert tuned["games"] == (3 + 3) * 10 and tuned["played"] == tuned["games"]
    assert "10C.count" in tuned["report_text"] and "<table" in tuned["report_html"]
    for settings, words in [({}, "tune needs settings.param"),
                            ({"param": "rounds=1..3", "target": "decisions=125"}, "not the rules option"),
                            ({"param": "10C.count=1..x", "target": "decisions=125"}, "10C.count")]:
        failed = finished(server, start(server, deck, kind="tune", versions=[1], games=2, **settings).json()["id"])
        assert failed["status"] == "failed" and words in failed["error"], failed["error"]


@pytest.mark.parametrize(("kind", "versions", "settings", "words", "status"), [
    ("drama", [1], {}, "unknown job 'drama'; the jobs are simulate, compare, restrict, skill, tune", 400),
    ("simulate", [1, 2], {}, "simulate plays 1 versions of the deck, not 2", 400),
    ("compare", [1], {}, "compare plays 2 to 4 versions of the deck, not 1", 400),
    ("compare", [1, 1], {}, "compare: give different versions, not [1, 1]", 400),
    ("simulate", [7], {}, "has no version 7", 404),
    ("simulate", [1], {"games": 2001}, "games must be at most 2000, not 2001", 400),
    ("simulate", [1], {"games": 0}, "games must be at least 1, not 0", 400),
    ("simulate", [1], {"agents": "ismcts"}, "agents must be 'heuristic' or 'random', not 'ismcts'", 400),
    ("simulate", [1], {"players": 11}, "players must be at most 10, not 11", 400),
    ("simulate", [1], {"seed": "one"}, "seed must be a whole number, not 'one'", 400),
])
def test_a_bad_run_is_refused_in_words(shared_server: LiveServer, kind: str, versions: list[int],
                                       settings: dict[str, Any], words: str, status: int) -> None:
    deck = opened(shared_server)
    r = start(shared_server, deck, kind=kind, versions=versions, **settings)
    assert words in refused(r, status)


def test_a_deck_too_small_for_the_players_is_refused_before_playing(shared_server: LiveServer) -> None:
    deck = opened(shared_server, deck_toml=TINY)
    assert "version 1: " in refused(start(shared_server, deck, players=4), 400)


def test_a_run_is_cancelled_by_its_starter_only_and_the_loop_keeps_answering(server: LiveServer) -> None:
    deck = opened(server)
    run = start(server, deck, kind="skill", games=2000).json()  # ISMCTS rungs: minutes of games
    took = []
    for _ in range(5):
        began = time.perf_counter()
        assert server.http.get("/healthz").status_code == 200
        took.append(time.perf_counter() - began)
        time.sleep(0.05)
    assert max(took) < 1.0, took  # the games play off the event loop
    url = f"/api/studio/runs/{run['id']}/cancel"
    assert "only whoever started a run may cancel it" in refused(server.http.post(url, json={"token": "guess"}), 403)
    began = time.monotonic()
    answer = server.http.post(url, json={"token": run["token"]})
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled", answer.text
    done = finished(server, run["id"], timeout=15.0)  # its games stop, not only its status
    assert time.monotonic() - began < 15.0
    assert done["status"] == "cancelled" and done["error"] == "cancelled by whoever started it"
    assert done["played"] < done["games"] and done["report_html"] is None
    again = refused(server.http.post(url, json={"token": run["token"]}), 409)
    assert "had already ended (cancelled: it was cancelled); there is nothing to cancel" in again


def test_a_cancel_says_what_became_of_the_run_and_a_report_after_it_is_not_kept(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cancel that comes while the run's last step is under way (its report drawn, say) still
    cancels it: the answer says so, and so does the run once kept. A run that had ended is
    refused with what became of it."""
    release = threading.Event()
    drawing = threading.Event()

    def slow_report(work: studio_module.Work) -> studio_module.Report:
        work.progress(work.settings.games)  # every game played; then a long last step
        drawing.set()
        release.wait(30)
        return studio_module.Report(html="<p>kept?</p>", text="kept?")

    monkeypatch.setitem(studio_module.JOBS, "simulate", studio_module.Job(
        "simulate", "Simulate", "a job whose report takes its time", (1, 1), slow_report))
    monkeypatch.setattr(studio_module, "CANCEL_WAIT", 0.2)
    deck = opened(server)
    run = start(server, deck).json()
    assert drawing.wait(30)
    url = f"/api/studio/runs/{run['id']}/cancel"
    answer = server.http.post(url, json={"token": run["token"]})
    release.set()
    assert answer.status_code == 200 and answer.json()["status"] == "cancelled", answer.text
    done = finished(server, run["id"])
    assert done["status"] == "cancelled" and done["report_html"] is None and done["report_text"] is None

    release.clear()
    drawing.clear()
    ended = start(server, deck).json()
    assert drawing.wait(30)
    release.set()
    assert finished(server, ended["id"])["status"] == "done"
    words = refused(server.http.post(f"/api/studio/runs/{ended['id']}/cancel", json={"token": ended["token"]}), 409)
    assert f"the run {ended['id']} had already ended (done: its report is kept)" in words


def test_runs_are_bounded_per_address_per_server_and_in_time(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = opened(server)
    first, second = (start(server, deck, kind="skill", games=2000).json() for _ in range(2))
    r = start(server, deck)
    assert "this address has 2 runs waiting or running, the most it may have" in refused(r, 429)
    assert r.headers["retry-after"] == "30"
    monkeypatch.setattr(studio_module, "MAX_RUNS_PER_ADDRESS", 10)
    monkeypatch.setattr(studio_module, "MAX_SERVER_RUNS", 2)
    assert "the server is playing 2 runs, its most" in refused(start(server, deck), 503)
    for run in (first, second):
        server.http.post(f"/api/studio/runs/{run['id']}/cancel", json={"token": run["token"]})
        finished(server, run["id"])
    monkeypatch.setattr(studio_module, "MAX_RUN_SECONDS", 0.0)
    late = finished(server, start(server, deck, games=200).json()["id"])
    assert late["status"] == "stopped" and late["error"].startswith("stopped after 0 s, the most a run may take")
    server.app.state.studio.started = Attempts(1, 60.0)
    assert start(server, deck).status_code == 200
    assert "this address may start 10 runs a minute" in refused(start(server, deck), 429)


def test_opening_and_saving_are_bounded_per_address(server: LiveServer) -> None:
    server.app.state.studio.opened = Attempts(2, 60.0)
    deck = opened(server)
    opened(server)
    r = server.http.post("/api/studio/decks", json={"project": "sample"})
    assert "this address may open a deck 2 times a minute" in refused(r, 429)
    assert int(r.headers["retry-after"]) > 0
    server.app.state.studio.saved = Attempts(1, 60.0)
    deck = saved(server, deck, four_cards(deck["form"]))
    again = copy.deepcopy(deck["form"])
    again["cards"][0]["name"] = "Mayor Prue"
    r = server.http.post(f"/api/studio/decks/{deck['id']}/versions", json={"form": again, "base": 2})
    assert "this address may save a version 1 times a minute" in refused(r, 429)


def test_a_shared_run_survives_a_restart_and_a_running_one_is_stopped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = LiveServer(data)
    try:
        deck = opened(server)
        done = finished(server, start(server, deck, games=10).json()["id"])
        assert done["status"] == "done"
        running = start(server, deck, games=2000).json()
    finally:
        server.stop()
    again = LiveServer(data)
    try:
        kept = again.http.get(f"/api/studio/runs/{done['id']}", params={"report": "true"}).json()
        assert kept["status"] == "done" and kept["report_html"] == done["report_html"]
        assert kept["report_text"] == done["report_text"]
        stopped = again.http.get(f"/api/studio/runs/{running['id']}").json()
        assert stopped["status"] == "stopped"
        assert stopped["error"] == "the server stopped before the run finished; start it again"
        assert again.http.get(f"/api/studio/decks/{deck['id']}").json()["version"] == 1
        assert again.http.get(f"/studio/runs/{done['id']}").status_code == 200
    finally:
        again.stop()


def test_a_run_left_running_by_a_killed_server_is_stopped_when_it_starts_again(tmp_path: Path) -> None:
    from sqlalchemy import create_engine, text

    data = tmp_path / "data"
    server = LiveServer(data)
    try:
        deck = opened(server)
        run = finished(server, start(server, deck, games=5).json()["id"])
    finally:
        server.stop()
    # as a server killed mid-run leaves it: running, never finished
    engine = create_engine(f"sqlite:///{data / 'cardroom.db'}")
    with engine.begin() as c:
        c.execute(text("UPDATE studio_runs SET status = 'running', finished = NULL WHERE id = :id"), {"id": run["id"]})
    engine.dispose()
    again = LiveServer(data)
    try:
        stopped = again.http.get(f"/api/studio/runs/{run['id']}").json()
        assert stopped["status"] == "stopped" and stopped["finished"] is not None
        assert stopped["error"] == "the server stopped before the run finished; start it again"
    finally:
        again.stop()


def test_the_studio_keeps_its_decks_and_runs_in_either_database(db_url: str, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data", db_url=db_url)
    try:
        deck = opened(server)
        deck = saved(server, deck, four_cards(deck["form"]))
        run = finished(server, start(server, deck, kind="compare", versions=[1, 2], games=5).json()["id"])
        assert run["status"] == "done" and run["versions"] == [1, 2] and run["settings"]["games"] == 5
        kept = server.http.get(f"/api/studio/decks/{deck['id']}").json()
        assert kept["versions"][1]["changes"] == deck["versions"][1]["changes"]
    finally:
        server.stop()


# -- deck-sized work: off the server's process, paced and bounded per address and per server --


def big_form(form: dict[str, Any], steps: int = 3) -> dict[str, Any]:
    """``form`` with every card's action made long: a deck file of about 240 KiB, whose check
    takes a few hundred milliseconds."""
    big = copy.deepcopy(form)
    draw = '{step = "draw", who = "next", count = 1}'
    option = '{label = "' + "Option".ljust(50, "o") + '", effects = [' + ", ".join([draw] * 3) + "]}"
    for card in big["cards"]:
        card["action"]["text"] = "t" * 300
        card["action"]["steps"] = [{"step": "choose", "fields": "options = [" + ", ".join([option] * 6) + "]"}] * steps
    return big


def test_decks_are_parsed_and_checked_in_worker_processes_not_the_servers(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    editing = games.get("baebae").load("deck_editing")
    deck = opened(server)

    def not_here(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a deck was parsed in the server's process")

    for name in ("checked", "parse", "form_of", "deck_diff"):
        monkeypatch.setattr(type(editing), name, not_here)
    answer = server.http.post("/api/studio/check", json=deck["form"]).json()
    assert answer["ok"] and len(answer["cards"]) == 52
    assert server.http.get(f"/api/studio/decks/{deck['id']}").json()["form"] == deck["form"]
    assert server.http.get(f"/api/studio/decks/{deck['id']}/versions/1").json()["cards"] == deck["cards"]
    again = saved(server, deck, four_cards(deck["form"]))
    assert again["version"] == 2 and again["form"] == four_cards(deck["form"])
    assert opened(server, deck_toml=TINY)["cards"][0]["key"] == "AC"
    assert server.app.state.studio.work.jobs == 0


def test_deck_work_is_paced_and_bounded_per_address_and_per_server(server: LiveServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from cardroom.web import bounded
    from cardroom.web.bounded import Pace, WorkerPool

    monkeypatch.setattr(bounded, "REFUSAL_PAUSE", 0.05)
    studio = server.app.state.studio
    form = opened(server)["form"]
    studio.pace = Pace("check a deck or read its form", 1.0, 2, 0.0)
    assert [server.http.post("/api/studio/check", json=form).status_code for _ in range(2)] == [200, 200]
    r = server.http.post("/api/studio/check", json=form)
    assert "this address may check a deck or read its form 1 times a second (2 at once)" in refused(r, 429)
    assert int(r.headers["retry-after"]) >= 1
    studio.pace = Pace("check a deck or read its form", 1000.0, 1000, 0.0)
    big = big_form(form)

    def checks(per_address: int, waiting: int, sources: list[str]) -> list[Any]:
        studio.work.close()
        studio.work = WorkerPool("deck jobs", 1, waiting, per_address, 30.0)
        assert server.http.post("/api/studio/check", json=form).status_code == 200  # the worker started
        clients = [httpx.Client(base_url=server.base, timeout=60, transport=httpx.HTTPTransport(local_address=a))
                   for a in sources]
        try:
            with ThreadPoolExecutor(len(clients)) as threads:
                return list(threads.map(lambda c: c.post("/api/studio/check", json=big), clients))
        finally:
            for client in clients:
                client.close()

    answers = checks(1, 10, ["127.0.0.1"] * 3)
    assert sorted(r.status_code for r in answers) == [200, 429, 429]
    assert all("this address has 1 deck jobs under way, the most it may have" in refused(r, 429)
               for r in answers if r.status_code == 429)
    answers = checks(5, 0, ["127.0.0.2", "127.0.0.3", "127.0.0.4"])
    assert sorted(r.status_code for r in answers) == [200, 503, 503]
    assert all("deck jobs under way, its most; try again in a moment" in refused(r, 503)
               for r in answers if r.status_code == 503)


def test_the_decks_kept_are_bounded_per_address_and_per_account(server: LiveServer,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    size = len(games.get("baebae").load("deck_editing").project_text("sample").encode())
    monkeypatch.setattr(studio_module, "MAX_KEPT_PER_ADDRESS", 2 * size + 100)
    deck = opened(server)
    opened(server)
    r = server.http.post("/api/studio/decks", json={"project": "sample"})
    words = refused(r, 409)
    assert words.startswith(f"this address keeps {2 * size / 2**20:.1f} MiB of studio decks and may keep")
    assert f"this {size // 1024} KiB would go past it" in words
    r = server.http.post(f"/api/studio/decks/{deck['id']}/versions",
                         json={"form": four_cards(deck["form"]), "base": 1})
    assert refused(r, 409).startswith("this address keeps")  # a version counts as a deck does
    monkeypatch.setattr(studio_module, "MAX_KEPT_PER_ADDRESS", 100 * size)
    monkeypatch.setattr(studio_module, "MAX_KEPT_PER_ACCOUNT", size + 100)
    for address in ("127.0.0.5", "127.0.0.6"):
        with httpx.Client(base_url=server.base, timeout=20,
                          transport=httpx.HTTPTransport(local_address=address)) as ada:
            if address == "127.0.0.5":
                assert ada.post("/api/account/signup", json={"name": "Ada", "password": "a long enough pass"}
                                ).status_code == 200
            else:
                assert ada.post("/api/account/signin", json={"name": "Ada", "password": "a long enough pass"}
                                ).status_code == 200
            r = ada.post("/api/studio/decks", json={"project": "sample"},
                         headers={"X-CSRF-Token": ada.cookies["cardroom_csrf"]})
            if address == "127.0.0.5":
                assert r.status_code == 200, r.text
            else:  # another address, the same account
                assert refused(r, 409).startswith("this account keeps")
    assert server.http.post("/api/studio/decks", json={"project": "sample"}).status_code == 200
