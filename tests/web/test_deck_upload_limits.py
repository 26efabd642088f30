"""An uploaded deck file is untrusted: a number too long to read or a text past its bound is
refused at upload with 400 and a JSON error in words, never a 500; and with the longest texts
a deck may have, what the table sends stays small (the figures are printed with ``-s``)."""

from __future__ import annotations

import json
import time

import pytest
from web_support import LiveServer, is_over

from cardroom.games.baebae.deck import (
    MAX_CARD_NAME,
    MAX_DECK_NAME,
    MAX_DESCRIPTION,
    MAX_TEXT,
    MAX_TYPE,
    MAX_TYPES,
)
from cardroom.games.baebae.effects import MAX_LABEL, RANKS, SUITS
from cardroom.web.protocol import MAX_DECK_BYTES

PLAIN = "".join(f'[[card]]\nrank = "{r}"\nsuit = "{s}"\n' for s in SUITS for r in RANKS)


def refusal(server: LiveServer, deck_toml: str) -> str:
    r = server.http.post("/api/tables", json={"game": "baebae", "players": 2, "deck_toml": deck_toml})
    assert r.status_code == 400, (r.status_code, r.text[:300])
    detail = r.json()["detail"]
    assert isinstance(detail, str)
    return detail


@pytest.mark.parametrize(("number", "words"), [
    ("1" + "0" * 5000, "deck_toml: not valid TOML (a number in it is too long; numbers have at most 4300 digits)"),
    ("0x" + "f" * 5000, "deck_toml: card 1 (AC).copies: a whole number from 1 to 8, not a number of about 6020 digits"),
])
def test_a_number_of_thousands_of_digits_is_refused_in_words(shared_server: LiveServer, number: str,
                                                             words: str) -> None:
    text = 'name = "Long numbers"\n' + PLAIN.replace('suit = "C"\n', f'suit = "C"\ncopies = {number}\n', 1)
    assert refusal(shared_server, text) == words
    assert shared_server.http.get("/api/tables").json() == []


def test_an_over_long_deck_name_is_refused_in_words(shared_server: LiveServer) -> None:
    text = f'name = "{"x" * 255_000}"\n' + PLAIN
    detail = refusal(shared_server, text)
    assert detail == ("deck_toml: the deck needs a name (name = \"...\"), text of 1 to 60 characters "
                      "(255000 characters)")
    assert shared_server.http.get("/api/tables").json() == []


def test_over_long_card_texts_are_refused_each_in_words(shared_server: LiveServer) -> None:
    text = ('name = "Long texts"\ntypes = ["' + "T" * (MAX_TYPE + 1) + '"]\n'
            + PLAIN.replace('suit = "C"\n', 'suit = "C"\nname = "' + "n" * 1000 + '"\n[card.action]\ntext = "'
                            + "t" * 10_000 + '"\n', 1))
    detail = refusal(shared_server, text)
    name = "'" + "n" * 58 + "…"  # quoted, cut short to 60 characters
    assert detail.splitlines() == [
        "deck_toml: types[0]: types must be a list of names, text of 1 to 24 characters (25 characters)",
        f"deck_toml: card 1 (AC {name}).name: a name is text of at most 40 characters (1000 characters)",
        f"deck_toml: card 1 (AC {name}).action.text: text of at most 300 characters (10000 characters)",
    ]


def test_the_cards_sent_carry_the_flags_their_text_does_not_say(shared_server: LiveServer) -> None:
    text = 'name = "Notes"\n' + PLAIN.replace('suit = "C"\n', 'suit = "C"\n[card.action]\ntext = "Reverse."\n'
                                               'optional = true\neffects = [{step = "reverse"}]\n', 1)
    table = shared_server.create(game="baebae", players=2, seats=["random", "random"], deck_toml=text)
    client = shared_server.client(table["id"])
    assert client.welcome is not None
    notes = {c["key"]: c["notes"] for c in client.welcome["cards"]}
    client.close()
    assert notes["AC"] == ["optional"] and notes["2C"] == []


def longest_deck(designs: int) -> str:
    """A deck whose every text is as long as allowed: name, description, types, and ``designs``
    cards, each with a full name, every type, a full action text and a choice with full labels."""
    types = [f"{i:02d}" + "t" * (MAX_TYPE - 2) for i in range(MAX_TYPES)]
    label = "l" * MAX_LABEL
    choice = ('[{step = "choose", options = [{label = "' + label + '", effects = [{step = "reverse"}]}, '
              '{label = "' + label + '", effects = [{step = "draw", who = "next"}]}]}]')
    out = [f'name = "{"N" * MAX_DECK_NAME}"', f'description = "{"d" * MAX_DESCRIPTION}"',
           f"types = {json.dumps(types)}"]
    for i in range(designs):
        out += ["[[card]]", f'rank = "{RANKS[i % 13]}"', f'suit = "{SUITS[i // 13 % 4]}"',
                f'name = "{"c" * MAX_CARD_NAME}"', f"types = {json.dumps(types)}",
                "[card.action]", f'text = "{"a" * MAX_TEXT}"', f"effects = {choice}"]
    return "\n".join(out) + "\n"


def test_what_the_table_sends_with_the_longest_texts_a_deck_may_have(server: LiveServer) -> None:
    """Figures for the notes: sizes of a table summary, a seat's welcome and view, and a replay."""
    designs = 1
    while len(longest_deck(designs + 1).encode()) <= MAX_DECK_BYTES:
        designs += 1
    largest = longest_deck(designs)
    table = server.create(game="baebae", players=2, name="Ada", seats=["human", "heuristic"], deck_toml=largest)
    summary = server.http.get(f"/api/tables/{table['id']}").content
    client = server.client(table["id"], table["token"])
    assert client.welcome is not None and client.last is not None
    welcome = json.dumps(client.welcome).encode()
    update = json.dumps(client.last).encode()
    client.close()
    print(f"\nlongest texts, {designs} designs ({len(largest.encode())} bytes of TOML): summary {len(summary)} B, "
          f"welcome {len(welcome)} B, first update (the seat's view) {len(update)} B")
    assert len(summary) < 2048
    assert len(update) < 16 * 1024
    assert len(welcome) < 2 * MAX_DECK_BYTES  # the card texts, once per connection

    # a whole game between bots with a 52-card deck of the longest texts, and its replay
    deck52 = longest_deck(52)
    bots = server.create(game="baebae", players=2, rules={"rounds": 1}, seats=["random", "random"],
                         deck_toml=deck52)
    watcher = server.client(bots["id"])
    watcher.wait(is_over, timeout=60)
    watcher.close()
    for _ in range(100):  # the record is stored a moment after the last update
        r = server.http.get(f"/api/tables/{bots['id']}/replay")
        if r.status_code == 200:
            break
        time.sleep(0.05)
    assert r.status_code == 200, r.text
    steps = len(r.json()["steps"])
    summary = server.http.get(f"/api/tables/{bots['id']}").content
    print(f"a 52-card deck of the longest texts, one round between random bots: summary {len(summary)} B, "
          f"replay of every seat {len(r.content)} B for {steps} steps ({len(r.content) // steps} B a step)")
    assert len(r.content) // steps < 16 * 1024
