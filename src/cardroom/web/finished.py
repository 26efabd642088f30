"""Finished games at a live table: the record kept once a game is over, the deck file a table
was played with, and replays (a finished game step by step from a seat's point of view, worked
out in threads of their own, bounded per address and per server).

:class:`FinishedTables` is the base of :class:`cardroom.web.tables.TableManager`, on
:class:`cardroom.web.play.TablePlay`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from cardroom.engine import CardroomInputError, Rules
from cardroom.record import rebuild
from cardroom.web import views
from cardroom.web.live import LiveTable, TableError
from cardroom.web.play import TablePlay
from cardroom.web.updates import design_rows

__all__ = ["FinishedTables", "MAX_REPLAY_STEPS", "MAX_REPLAYS_PER_ADDRESS", "MAX_REPLAYS"]

MAX_REPLAY_STEPS = 2000
"""The most steps one replay answer carries (a long game is fetched a window at a time)."""
MAX_REPLAYS_PER_ADDRESS = 2
"""Replays one client address may have worked out at once; more answer 429."""
MAX_REPLAYS = 16
"""Replays worked out or waiting for a thread at once, in all; more answer 503."""


class FinishedTables(TablePlay):
    """The tables of one server, in memory: their finished games' records, decks and replays."""

    def record_text(self, table_id: str) -> str:
        table = self.get(table_id)
        if table.status != "over":
            raise TableError(
                409, f"table {table_id}'s game is {table.status}: its record is kept once it is over"
            )
        text = self.store.record(table_id)
        if text is None:
            raise TableError(404, f"table {table_id} has no record")
        return text

    def deck_text(self, table_id: str) -> tuple[str, str]:
        """The deck file of a table played with a deck, and a file name for it: an uploaded deck
        is ``<digest>.toml``, a project deck its own file's name. (A record carries its decks'
        content; the file is for people who want the deck itself.)"""
        table = self.get(table_id)
        data = table.data
        decks = table.spec.decks
        if decks is None:
            raise TableError(404, f"table {table_id} plays {data.game}, which has no deck file")
        if data.upload is not None:
            text = self.store.deck_text(data.upload)
            if text is None:
                raise TableError(404, f"the deck of table {table_id} is missing from the database")
            return text, data.upload.removeprefix("sha256:") + ".toml"
        path = decks.path(data.deck or "")
        if path is None:
            raise TableError(404, f"table {table_id}'s deck {data.deck!r:.40} is not a project deck here")
        return path.read_text(encoding="utf-8"), path.name

    async def replay(
        self, table_id: str, seat: int | None, start: int = 0, count: int = MAX_REPLAY_STEPS,
        address: str = "",
    ) -> tuple[list[dict[str, Any]], int]:
        """A finished game step by step from ``seat``'s point of view (``None``: every seat's):
        the steps ``start`` to ``start + count - 1`` (0 is the deal), and how many there are.

        The steps are worked out in the replays' own threads, at most
        ``MAX_REPLAYS_PER_ADDRESS`` at once for the client ``address`` and ``MAX_REPLAYS`` in
        all; the cache is kept on the event loop only.
        """
        table = self.get(table_id)
        if table.status != "over":
            raise TableError(
                409, f"table {table_id}'s game is {table.status}: it can be replayed once it is over"
            )
        if seat is not None and not 0 <= seat < table.data.players:
            raise TableError(400, f"seat must be 0 to {table.data.players - 1} or all, not {seat}")
        key = (table_id, seat, start, count)
        cached = self._replays.get(key)
        if cached is not None:
            return cached
        mine = self._replaying.get(address, 0)
        if mine >= MAX_REPLAYS_PER_ADDRESS:
            raise TableError(429, f"this address already has {MAX_REPLAYS_PER_ADDRESS} replays being worked "
                                  "out; wait for one to come back", retry_after=1.0)
        if sum(self._replaying.values()) >= MAX_REPLAYS:
            raise TableError(503, f"the server is working out {MAX_REPLAYS} replays; try again shortly",
                             retry_after=1.0)
        self._replaying[address] = mine + 1
        try:
            loop = asyncio.get_running_loop()
            rules, steps, total = await loop.run_in_executor(
                self.replay_pool, self._replay_steps, table, seat, start, count)
        finally:
            self._replaying[address] -= 1
            if not self._replaying[address]:
                del self._replaying[address]
        if table.cards is None:  # a finished game after a restart
            table.cards = design_rows(table.spec, rules)
        while len(self._replays) >= 16:
            self._replays.pop(next(iter(self._replays)))
        self._replays[key] = steps, total
        return steps, total

    def _replay_steps(
        self, table: LiveTable, seat: int | None, start: int, count: int
    ) -> tuple[Rules, list[dict[str, Any]], int]:
        data = table.data
        try:
            rules = table.rules or self._rules(data.game, data.rules, data.deck, data.upload, stored=True)
            actions = self.store.actions(data.id)
            # Step k is the game after its k-th action (0: the deal): rebuilt up to the window.
            before = max(start - 1, 0)
            state = rebuild(rules, data.seed, actions[:before], engine=self.engine)
            window = views.replay_steps(state, actions[before:start + count - 1], seat, deal=start == 0)
            return rules, window, len(actions) + 1
        except CardroomInputError as err:
            raise TableError(409, f"table {data.id}'s game cannot be replayed here: {err}") from None
