"""``cardroom replay --narrate``: a game told one line an event, from a seat's view (never a
card that seat could not see) or with every card shown; each game's own narration."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardroom import games
from cardroom.cli.main import app
from cardroom.cli.replay import narration
from cardroom.games import baebae, baha
from cardroom.games.baebae.narrate import card_text as baebae_card
from cardroom.games.baha.narrate import card_text as baha_card
from cardroom.record import make_record

runner = CliRunner()

BAHA_CARD = re.compile(r"(?<![\w#])(1[0-3]|[1-9])[PRTO](?!\w)")
BAEBAE_CARD = re.compile(r"(?<![\w#])(10|[2-9AJQK])[♣♦♥♠](#\d+)?")


def played(rules: Any, seed: int) -> Any:
    state = rules.new_game(seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def shown_cards(text: str, pattern: re.Pattern[str]) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text)]


def event_cards(event: Any, game: str, rules: Any) -> set[str]:
    """Every card the event holds, written as narration writes it."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value != "?":
            text = baha_card(value) if game == "baha" else baebae_card(value, rules, named=False)
            found.update(shown_cards(text, BAHA_CARD if game == "baha" else BAEBAE_CARD))

    walk(event)
    return found


CASES = [("baha", baha.Rules(players=4, target=40), s) for s in (1, 2)] + [
    ("baha", baha.Rules(players=3, draw_pile=True, target=30), 3),
    ("baebae", baebae.Rules(players=3, rounds=2), 4), ("baebae", baebae.Rules(players=5, rounds=1), 5),
]


@pytest.mark.parametrize(("game", "rules", "seed"), CASES)
def test_a_seat_is_told_only_the_cards_it_saw(game: str, rules: Any, seed: int) -> None:
    state = played(rules, seed)
    names = [f"P{i}" for i in range(state.n)]
    tell = games.get(game).narrate
    pattern = BAHA_CARD if game == "baha" else BAEBAE_CARD
    for seat in range(state.n):
        for event in state.view_log(seat):
            line = tell(event, names, rules)
            assert line is not None, event  # every event is told
            assert "?" not in line and "\n" not in line
            assert set(shown_cards(line, pattern)) <= event_cards(event, game, rules), (line, event)
    everything = [tell(e, names, rules) for e in state.log]
    assert all(everything)


@pytest.mark.parametrize(("game", "rules", "seed"), CASES[:1] + CASES[-1:])
def test_replay_narrate_from_the_command_line(tmp_path: Path, game: str, rules: Any, seed: int) -> None:
    state = played(rules, seed)
    seats = [{"name": f"Ada{i}", "agent": "random"} for i in range(state.n)]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(make_record(state, seats)))
    result = runner.invoke(app, ["replay", str(path), "--narrate", "--seat", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "as Ada1 (seat 1) saw it" in lines[0]
    assert len(lines) == 1 + len(state.view_log(1)) and "?" not in result.stdout
    assert lines[1:] == narration(json.loads(path.read_text()), 1)
    assert lines[1].count(" holds ") == 1 and "Ada1 holds " in lines[1]  # the deal: its own hand only
    whole = runner.invoke(app, ["replay", str(path), "--narrate"])
    assert whole.exit_code == 0 and "every card shown" in whole.stdout.splitlines()[0]
    assert whole.stdout.splitlines()[1].count(" holds ") == state.n
    assert whole.stdout.splitlines()[-1].startswith("Game over: ")


def test_narrate_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = played(baha.Rules(players=3, target=20), 1)
    path.write_text(json.dumps(make_record(state)))
    out_of_range = runner.invoke(app, ["replay", str(path), "--narrate", "--seat", "3"])
    assert out_of_range.exit_code == 1 and "--seat 3: the seats are 0 to 2" in out_of_range.output
    alone = runner.invoke(app, ["replay", str(path), "--seat", "1"])
    assert alone.exit_code == 2 and "give --narrate too" in alone.output
    for bad in ("x", "-1", "1.5"):
        word = runner.invoke(app, ["replay", str(path), "--narrate", "--seat", bad])
        assert word.exit_code == 2 and "--seat takes a seat's number (from 0) or all" in word.output
    every = runner.invoke(app, ["replay", str(path), "--narrate", "--seat", "all"])
    assert every.exit_code == 0 and "every card shown" in every.output
    both = runner.invoke(app, ["replay", str(path), "--narrate", "--verify"])
    assert both.exit_code == 2 and "give one or the other" in both.output
