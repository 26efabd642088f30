"""The toy game, registered by the tests alone, through every front: simulation, records and
their replay, and the web table. Nothing outside ``toy_game.py`` knows it: if these pass,
adding a game is local to its own files."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import toy_game
from typer.testing import CliRunner

from cardroom import agents, games
from cardroom.cli.main import app
from cardroom.record import make_record, save, verify

sys.path.insert(0, str(Path(__file__).parents[1] / "web"))

from web_support import LiveServer, card_texts, is_over, states_of  # noqa: E402

runner = CliRunner()
NAME = toy_game.SPEC.name


def test_the_registry_finds_the_toy_game() -> None:
    assert NAME in games.names() and games.get(NAME) is toy_game.SPEC
    rules = games.make_rules(NAME, {"players": "4", "hands": "1"})
    assert rules == toy_game.Rules(players=4, hands=1)


def test_the_toy_game_is_played_by_every_bot_that_needs_no_game_knowledge() -> None:
    for bot in (agents.make("random", seed=2), agents.make("ismcts", seed=1, iterations=30, rollout="random")):
        state = games.make_rules(NAME, {"players": 3}).new_game(5)
        moves = random.Random(3)
        while not state.is_over:
            seat = state.current_player
            action = bot.act(state.clone(), seat) if seat == 0 else moves.choice(state.legal_actions())
            state.apply(action)
        assert verify(json.loads(json.dumps(make_record(state)))).ok


def test_a_game_without_a_heuristic_is_refused_in_words() -> None:
    state = games.make_rules(NAME, {"players": 3}).new_game(5)
    with pytest.raises(agents.AgentError, match=NAME):
        agents.make("heuristic").act(state, state.current_player)


def test_simulate_without_agents_seats_random_bots_in_a_game_without_a_heuristic() -> None:
    result = runner.invoke(app, ["simulate", NAME, "--players", "3", "--games", "2", "--rule", "hands=2",
                                 "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert [s["agent"] for s in json.loads(result.stdout)["seats"]] == ["random"] * 3


def test_simulate_writes_records_that_replay(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    result = runner.invoke(app, ["simulate", NAME, "--players", "3", "--games", "4", "--seed", "9",
                                 "--agents", "random", "--rule", "hands=2", "--records", str(folder),
                                 "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 4
    files = sorted(folder.glob("*.json"))
    assert len(files) == 4
    for path in files:
        record = json.loads(path.read_text())
        assert record["game"] == NAME and record["result"]["over"]
        replayed = runner.invoke(app, ["replay", "--verify", str(path)])
        assert replayed.exit_code == 0, replayed.output
        assert "replays exactly" in replayed.output


def played_record(path: Path) -> object:
    """A finished toy game saved at ``path``; its state."""
    state = games.make_rules(NAME, {"players": 2, "hand_size": 4}).new_game(11)
    moves = random.Random(11)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    save(make_record(state, [{"name": "Ada", "agent": "random"}, {"name": "Bo", "agent": "random"}]), path)
    return state


def test_replay_verify_a_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "toy.json"
    played_record(path)
    verified = runner.invoke(app, ["replay", "--verify", str(path)])
    assert verified.exit_code == 0 and "replays exactly" in verified.output, verified.output
    record = json.loads(path.read_text())
    record["log"][1]["card"] = "H99"
    path.write_text(json.dumps(record))
    assert runner.invoke(app, ["replay", "--verify", str(path)]).exit_code != 0


def test_replay_narrates_a_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "toy.json"
    state = played_record(path)
    told = runner.invoke(app, ["replay", str(path), "--narrate", "--seat", "1"], catch_exceptions=False)
    assert told.exit_code == 0, told.output
    lines = told.stdout.splitlines()[1:]
    assert len(lines) == len(state.log) and lines[-1].startswith("Game over")
    assert "Bo holds" in lines[0] and "Ada holds" not in lines[0]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "data")
    try:
        yield live
    finally:
        live.stop()


def test_the_web_table_plays_the_toy_game_with_bots(server: LiveServer) -> None:
    catalog = server.http.get("/api/catalog").json()
    assert NAME in json.dumps(catalog)
    table = server.create(game=NAME, players=3, rules={"hands": 2}, seats=["random", "random", "random"])
    watcher = server.client(table["id"])
    last = watcher.wait(is_over, timeout=60)
    assert last["view"]["hand"] == []  # a spectator sees no hand
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert record["game"] == NAME and record["result"]["over"]
    verdict = verify(record)
    assert verdict.ok, verdict.message
    watcher.close()
    # The watcher was never sent a card that sat in a hand without having been played.
    cards = {toy_game.text(c) for c in range(toy_game.DECK)}
    states = states_of(record)
    updates = [m for m in watcher.messages if m["type"] == "update" and m["view"] is not None]
    assert updates and all(m["view"]["hand"] == [] for m in updates)
    for message in updates:
        state = states[message["seq"]]
        held = set().union(*(state.view(s)["hand"] for s in range(len(state.scores))))
        shown = {e["card"] for e in state.log if e["t"] == "play"}  # the toy shows a card only played
        assert not card_texts(message, cards) & (held - shown), message["seq"]


def test_the_terminal_says_the_toy_game_has_no_screen() -> None:
    result = runner.invoke(app, ["play", NAME], input="quit\n")
    assert result.exit_code == 2, result.output
    assert games.get(NAME).title in result.output and "baha" in result.output
