"""Search bots think in worker processes, people's tables first, and never on the event loop."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from web_support import LiveServer, is_over

from cardroom import agents
from cardroom.games import make_rules, start_game
from cardroom.web.thinking import BotPool


def test_search_bots_think_outside_the_server_process(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    searched_here: list[int] = []
    kind = agents.AGENTS["ismcts"]

    class Recording:
        """An ISMCTS agent that notes the process of every search it makes."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

        def act(self, state: object, seat: int) -> int:
            searched_here.append(os.getpid())
            return int(self.inner.act(state, seat))

    def factory(seed: int | None, **options: Any) -> Any:
        return Recording(kind.factory(seed, **options))

    # in this process only: the workers are new ones (the registry is patched, not the agent class)
    monkeypatch.setitem(agents.AGENTS, "ismcts", dataclasses.replace(kind, factory=factory))
    table = server.create(game="baha", players=3, rules={"target": 1},
                          seats=["ismcts:iterations=5", "ismcts:iterations=5", "random"])
    server.client(table["id"]).wait(is_over, timeout=120)
    record = server.http.get(f"/api/tables/{table['id']}/record").json()
    assert any(agent == "ismcts:iterations=5" for agent in (s["agent"] for s in record["seats"]))
    assert searched_here == []


def test_the_pool_serves_tables_with_people_first() -> None:
    state = start_game(make_rules("baha", {"players": 3}), 1)
    seat = state.current_player
    assert seat is not None

    async def run() -> list[str]:
        pool = BotPool(1)
        finished: list[str] = []

        async def turn(name: str, spec: str, people: bool) -> None:
            await pool.act(spec, 1, state, seat, people)
            finished.append(name)

        try:
            busy = asyncio.create_task(turn("first", "ismcts:iterations=300", False))
            await asyncio.sleep(0)  # the first turn takes the only worker
            later = [asyncio.create_task(turn(f"bots {k}", "random", False)) for k in range(3)]
            dropped = asyncio.create_task(turn("dropped", "random", False))
            people = asyncio.create_task(turn("people", "random", True))
            await asyncio.sleep(0)
            dropped.cancel()  # a turn given up (the position moved on) leaves the queue
            await asyncio.sleep(0)
            assert pool.waiting == 4
            await asyncio.gather(busy, *later, people)
            return finished
        finally:
            pool.close()

    # in a thread of its own: another test of this process may have left a loop running here
    with ThreadPoolExecutor(1) as thread:
        order = thread.submit(asyncio.run, run()).result(120)
    # The people's turn stops the bots-only search it found running; that turn is thought
    # again first of the rest.
    assert order == ["people", "first", "bots 0", "bots 1", "bots 2"]


def test_a_worker_takes_a_bots_turn_as_every_front_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a worker, a bot's choice is checked by match.choose: an illegal one is an AgentError
    naming the bot, its seat and the engine's reason (the table then plays its first legal move)."""
    from cardroom import agents
    from cardroom.web import thinking

    class Wrong:
        name = "wrong"

        def act(self, state: object, seat: int) -> int:
            return 9999

    state = start_game(make_rules("baha", {"players": 3}), 5)
    seat = state.current_player
    assert seat is not None
    assert thinking._think("ismcts:iterations=5", 1, state.clone(), seat) in state.legal_actions()
    monkeypatch.setitem(agents.AGENTS, "wrong", agents.AgentKind(lambda seed, **options: Wrong()))
    with pytest.raises(agents.AgentError, match=rf"the wrong bot at seat {seat} chose an illegal move: "):
        thinking._think("wrong", 1, state.clone(), seat)
