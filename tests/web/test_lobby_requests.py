"""What the lobby's create requests are told, in Cardroom's words: too few players, a deck
file's problems by the file's name, and the timer's bounds the page also uses."""

from __future__ import annotations

import re

import pytest
from web_support import LiveServer

from cardroom.web.app import STATIC_DIR
from cardroom.web.protocol import MAX_TIMER


@pytest.mark.parametrize("players", [1, 0, -3, 101, 2.5, "4", True])
def test_a_bad_number_of_players_is_refused_in_cardrooms_words(shared_server: LiveServer, players: object) -> None:
    r = shared_server.http.post("/api/tables", json={"game": "baha", "players": players})
    assert r.status_code == 400
    detail = r.json()["detail"]
    assert detail.startswith("players: a table seats 2 to 100 players (a whole number), not "), detail
    assert "Input should" not in detail and "greater_than" not in detail


def test_an_uploaded_decks_problems_are_told_by_the_files_name(shared_server: LiveServer) -> None:
    body = {"game": "baebae", "players": 2, "seats": ["random", "random"], "deck_toml": "name = 3\n"}
    r = shared_server.http.post("/api/tables", json={**body, "deck_file": "C:\\decks\\my deck.toml"})
    assert r.status_code == 400
    assert r.json()["detail"].startswith("my deck.toml: the deck needs a name"), r.json()
    # Without a file's name (an API client), the field that carried the text.
    r = shared_server.http.post("/api/tables", json=body)
    assert r.json()["detail"].startswith("deck_toml: the deck needs a name"), r.json()


def test_the_lobbys_timer_bounds_are_the_servers(shared_server: LiveServer) -> None:
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    field = re.search(r'<input data-testid="timer-input"[^>]*>', page)
    assert field is not None
    low, high = (float(re.search(rf'{k}="([^"]+)"', field.group()).group(1)) for k in ("min", "max"))  # type: ignore[union-attr]
    assert high == MAX_TIMER
    base = {"game": "baha", "seats": ["random"] * 4}
    assert shared_server.http.post("/api/tables", json={**base, "timer": low}).status_code == 200
    below = shared_server.http.post("/api/tables", json={**base, "timer": low - 0.5})
    assert below.status_code == 400
    assert below.json()["detail"] == "timer: a turn lasts 1 to 3600 seconds (leave it empty for no timer), not 0.5"


@pytest.mark.parametrize(("body", "words"), [
    ({"timer": 0}, "timer: a turn lasts 1 to 3600 seconds (leave it empty for no timer), not 0"),
    ({"deck": 7}, "deck must be a text, not 7"),
    ({"name": "x" * 2, "seat_count": 3}, "seat_count is not something this form takes"),
    ({"seats": "human"}, "seats must be a list, not 'human'"),
])
def test_a_refusal_says_the_field_and_what_it_must_be_in_words(shared_server: LiveServer, body: dict[str, object],
                                                             words: str) -> None:
    """No pydantic wording ("Input should be less than or equal to"), no JSON word ("null")."""
    r = shared_server.http.post("/api/tables", json={"game": "baha", "players": 2, **body})
    assert r.status_code == 400 and r.json()["detail"] == words, r.json()
