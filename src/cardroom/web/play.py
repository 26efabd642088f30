"""The play of a live table: connections, the one way an action is taken, bots and timers.

Everything that changes a table runs on the event loop without awaiting in between: check
the action, apply it to a copy of the state, commit it to the database, then keep the copy
and queue each connection its own update. So two actions never interleave, a refused action
changes nothing, and nobody hears of an action the database could lose. Bots think in a
worker thread on a copy of the state and hand their choice back through the same path.
:class:`cardroom.web.tables.TableManager` builds the lobby (creating, joining, leaving,
rematches, finished games) on this class.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from cardroom.agents import Agent, AgentError, make, parse_spec
from cardroom.engine import CardroomInputError, IllegalAction, Rules, RulesError, State
from cardroom.games import make_rules
from cardroom.match import choose
from cardroom.record import make_record, rebuild, recorded_options
from cardroom.seats import seat_entries
from cardroom.web import views
from cardroom.web.bounded import REFUSAL_PAUSE, Pace, Refused
from cardroom.web.chat import TableChat
from cardroom.web.live import Connection, LiveTable, QueueBudget
from cardroom.web.ops import ServerMetrics
from cardroom.web.protocol import Act, Chat, Hello, Hint, Ping, ProtocolError, error, parse_message
from cardroom.web.store import Store, TableData
from cardroom.web.thinking import BotPool, SearchTimeout, is_search_bot
from cardroom.web.updates import TableViews, design_rows, seat_title

__all__ = ["TablePlay", "MAX_CONNECTIONS", "MAX_SEAT_CONNECTIONS", "QUICK_WAIT", "AWAY_AFTER", "design_rows"]

log = logging.getLogger("cardroom.web")

MAX_CONNECTIONS = 200
"""Connections without a seat one table holds (spectators, and those yet to say hello)."""
MAX_SEAT_CONNECTIONS = 4
"""Connections one seat holds (a few tabs); a newer one closes the seat's oldest."""
QUICK_BOT_THREADS = 4
"""Threads the quick bots (random, heuristic, stand-ins) of every table choose in: their own,
so nothing else (replays) can keep them waiting."""
QUICK_WAIT = 5.0
"""Seconds a table made by Play now waits for other people (who press Play now for the same
game, size and level) before bots of the chosen level take its free seats."""
HINT_PACE = (1.0, 5, 3.0)
"""Hints one address may ask for: one a second after five at once, each waiting its turn up
to 3 s (:class:`cardroom.web.bounded.Pace`); past that refused."""
HINTS_AT_ONCE = 8
"""Hints the server works out or holds waiting at once, for every table (one thread works them
out, its own: a hint never keeps a bot waiting)."""
REPLAY_THREADS = 2
"""Threads replays are worked out in (their own: they cannot keep the quick bots waiting)."""
AWAY_AFTER = 30.0
"""Seconds a person of a running game may be without a connection (a closed tab, a lost
network) before a stand-in plays their seat, while another person is at the table; coming back
takes the seat back. With nobody at the table the game waits (see ``ABANDON_AFTER``)."""


class TablePlay(TableViews):
    """Every table of one server, in memory, backed by the store: how each is played."""

    def __init__(self, store: Store, data_dir: Path, bot_delay: float, bot_workers: int = 1) -> None:
        super().__init__(store)
        self.data_dir = data_dir
        self.bot_delay = bot_delay
        self.bot_pool = BotPool(bot_workers)
        """Where search bots think: worker processes, off the event loop."""
        self.queue_budget = QueueBudget()
        """The bound on the bytes queued for all connections together."""
        self.quick_pool = ThreadPoolExecutor(QUICK_BOT_THREADS, thread_name_prefix="cardroom-bot")
        """Where quick bots choose: threads of their own."""
        self.replay_pool = ThreadPoolExecutor(REPLAY_THREADS, thread_name_prefix="cardroom-replay")
        self._replaying: dict[str, int] = {}
        """Replays being worked out (or waiting for a thread), by client address."""
        self._sweeper: asyncio.Task[None] | None = None
        self.refused_writes = 0
        """Actions the database refused to store since the server started (disk full, say)."""
        self.metrics = ServerMetrics(lambda: [t.status for t in self.tables.values()],
                                     lambda: sum(len(t.conns) for t in self.tables.values()))
        """What ``/metrics`` tells: counts over the whole server (cardroom.web.ops)."""
        self._replays: dict[tuple[str, int | None, int, int], tuple[list[dict[str, Any]], int]] = {}
        self.chat = TableChat()
        """What the players at each table said (in memory only)."""
        self.on_finish: Callable[[LiveTable], None] | None = None
        """Told of each game that ends by its last action (the accounts rate it)."""
        self.account_named: Callable[[str], str | None] = lambda _name: None
        """The account whose name a name is, if any: a guest may not chat under it."""
        self._hints: dict[tuple[str, int], asyncio.Task[None]] = {}
        """The hint being worked out for each seat (one at a time)."""
        self.hint_pool = ThreadPoolExecutor(1, thread_name_prefix="cardroom-hint")
        """Where hints are worked out: a thread of their own."""
        self.hint_pace = Pace("ask for a hint", *HINT_PACE)
        self.quick_wait = QUICK_WAIT
        """Seconds a table made by Play now waits for people before bots take its free seats."""
        self.away_after = AWAY_AFTER
        """Seconds a person may be without a connection before a stand-in plays their seat."""

    # -- connections -------------------------------------------------------------------

    def attach(self, table: LiveTable, conn: Connection) -> None:
        """Take a new connection (it holds no seat until its hello). A table holds
        ``MAX_CONNECTIONS`` connections without a seat: past that the oldest of them makes room.
        Seats are bounded apart (``MAX_SEAT_CONNECTIONS`` each, see :meth:`_hello`), so neither
        watchers nor another player's tabs can keep a player from their seat."""
        unseated = [c for c in table.conns if c.seat is None]
        if len(unseated) >= MAX_CONNECTIONS:
            oldest = unseated[0]
            oldest.push(error("full", f"table {table.id} has {MAX_CONNECTIONS} connections without a "
                                      "seat; this one made room for a newer one"))
            oldest.close()
            table.conns.remove(oldest)
        table.conns.append(conn)

    def detach(self, table: LiveTable, conn: Connection) -> None:
        conn.close()
        self._delays.pop(conn, None)
        if conn.seat is not None:
            table.seen = time.time()
        if conn in table.conns:
            table.conns.remove(conn)
            if conn.greeted and conn.seat is not None and not table.connected(conn.seat):
                self._gone(table, conn.seat)
                self._broadcast(table)

    def handle(self, table: LiveTable, conn: Connection, raw: str | bytes) -> None:
        """One message from a connection; every refusal goes to that connection only."""
        if conn.closed:
            return  # dropped (too slow, or made room at a full table): it no longer speaks
        try:
            message = parse_message(raw)
            if isinstance(message, Ping):
                conn.push({"type": "pong"})
            elif isinstance(message, Hello):
                self._hello(table, conn, message)
            elif isinstance(message, Act):
                self._act(table, conn, message)
            elif isinstance(message, Chat):
                self._chat(table, conn, message)
            elif isinstance(message, Hint):
                self._hint(table, conn, message)
        except ProtocolError as err:
            conn.push(error(err.code, str(err)))
        except Exception:  # a bug must cost one message, not the connection or the table
            log.exception("table %s: a message could not be handled", table.id)
            conn.push(error("server_error", "the server could not handle that message; nothing changed"))

    def _hello(self, table: LiveTable, conn: Connection, hello: Hello) -> None:
        if conn.greeted:
            where = f"seat {conn.seat}" if conn.seat is not None else "a spectator"
            raise ProtocolError("bad_message", f"hello is the first message only; you are already {where}")
        seat = None
        if hello.token is not None:
            seat = table.seat_of(hello.token)
            if seat is None:
                raise ProtocolError(
                    "not_seated",
                    f"that token holds no seat at table {table.id}; say hello with a seat's token, "
                    "or with token null to watch",
                )
        if table.state is None and table.status == "over":
            self._finished_state(table)
        # The others hear of a hello only when the table's summary changes: the seat's first
        # connection, or a player back from away (a second tab changes nothing they see).
        changed = seat is not None and (not table.connected(seat) or seat in table.away)
        if seat is not None:
            # A seat's owner always gets in: past a few tabs, the seat's oldest connection goes.
            tabs = [c for c in table.conns if c.greeted and c.seat == seat]
            for old in tabs[:max(0, len(tabs) - MAX_SEAT_CONNECTIONS + 1)]:
                old.push(error("full", f"seat {seat} has {MAX_SEAT_CONNECTIONS} connections; this one, "
                                       "its oldest, made room for a newer one"))
                old.close()
                table.conns.remove(old)
        conn.greeted = True
        conn.seat = seat
        conn.sent = 0
        if hello.delay:
            self._delays[conn] = hello.delay
        if seat is not None:
            table.gone.pop(seat, None)
        if seat is not None and seat in table.away:
            table.away.discard(seat)  # a player who comes back takes the seat back from the stand-in
            if table.state is not None and table.state.current_player == seat:
                self._kick(table)  # stop the stand-in's move; another seat's bot thinks on undisturbed
        if seat is not None and self._stand_in_for_gone(table):
            changed = True  # someone is here again: the seats gone past their grace get stand-ins
        if changed:
            self.bot_pool.reconsider()  # a person here now: this table's bot turn goes first
        conn.push({"type": "welcome", "seat": seat, "table": self.summary(table), "cards": table.cards})
        conn.push(self._update(table, conn, self.summary(table)))
        if changed:
            self._broadcast(table, skip=conn)
        for said in self.chat.recent(table.id):
            conn.push(said)

    def _chat(self, table: LiveTable, conn: Connection, chat: Chat) -> None:
        if not conn.greeted:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "token": ...}')
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching this table: the players chat, spectators read")
        name = table.data.seats[seat].name or f"Seat {seat}"
        if seat not in self.account_seats(table.id):
            owner = self.account_named(name)
            if owner is not None:  # a guest who sat under a name an account took since
                raise ProtocolError("name_taken", f"{name} is the account {owner}'s name and your seat is a "
                                                  "guest's: a guest may not chat under it")
        said = self.chat.say(table.id, seat, name, chat.text, time.time())
        for other in table.conns:
            if other.greeted:
                other.push(said)

    def _hint(self, table: LiveTable, conn: Connection, hint: Hint) -> None:
        """The heuristic bot's move for the asking seat, told to that connection alone. The bot
        thinks on a world determinized from the seat's knowledge (``determinize``: the hidden
        cards dealt again), so a hint can carry nothing the seat may not know."""
        if not conn.greeted:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "token": ...}')
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching this table: hints are for the players")
        state = table.state
        if table.status == "over" or (state is not None and state.is_over):
            raise ProtocolError("over", "the game is over: there is nothing to hint")
        if state is None or state.current_player != seat:
            raise ProtocolError("not_your_turn", "a hint is for your turn: wait until the game asks you")
        if hint.seq != table.seq:
            raise ProtocolError("stale", f"seq {hint.seq} is not the game's seq {table.seq}: ask on the "
                                         "latest update")
        if table.spec.heuristic is None:
            raise ProtocolError("no_hint", "this game has no heuristic bot to give hints")
        key = (table.id, seat)
        if key in self._hints:
            self._hold(conn)
            raise ProtocolError("slow_down", "a hint for this seat is being worked out: wait for it")
        if len(self._hints) >= HINTS_AT_ONCE:
            self._hold(conn)
            raise ProtocolError("slow_down", f"the server is working out {HINTS_AT_ONCE} hints, its most: "
                                             "ask again in a moment")
        task = asyncio.create_task(self._tell_hint(table, conn, seat, hint.seq, state))
        self._hints[key] = task
        task.add_done_callback(lambda _t: self._hints.pop(key, None))

    def _hold(self, conn: Connection) -> None:
        """A connection that asked faster than its bounds allow: its next message waits unread."""
        conn.held_until = asyncio.get_running_loop().time() + REFUSAL_PAUSE

    async def _tell_hint(self, table: LiveTable, conn: Connection, seat: int, seq: int, state: State) -> None:
        try:
            await self.hint_pace.take(conn.address)
        except Refused as err:
            conn.push(error("slow_down", str(err)))
            return
        if table.seq != seq:
            return  # the game moved on while the hint waited its turn
        bot = make("heuristic", seed=table.data.seed + seq)
        rng = random.Random(table.data.seed * 31 + seq)
        try:
            # the world determinized from the seat's knowledge, and the bot's choice in it, in the
            # hints' own thread (the table's state is never changed in place: a new one replaces it)
            action = await asyncio.get_running_loop().run_in_executor(
                self.hint_pool, lambda: choose(bot, state.determinize(seat, rng), seat))
        except Exception:
            log.exception("table %s: no hint could be worked out for seat %d", table.id, seat)
            conn.push(error("server_error", "no hint could be worked out; nothing changed"))
            return
        now = table.state
        if table.seq != seq or now is None or action not in now.legal_actions():
            return  # the game moved on while the bot thought: the hint is for a past position
        conn.push({"type": "hint", "seq": seq, "move": views.move_fields(now, action)})

    def _act(self, table: LiveTable, conn: Connection, act: Act) -> None:
        if not conn.greeted:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "token": ...}')
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", "you are watching this table: spectators may not act")
        state = table.state
        if table.status == "over" or (state is not None and state.is_over):
            raise ProtocolError("over", "the game is over: no action can be taken")
        if state is None:
            raise ProtocolError(
                "not_your_turn", "the game has not started: it waits for every seat to be taken"
            )
        if act.seq != table.seq:
            raise ProtocolError(
                "stale", f"seq {act.seq} is not the game's seq {table.seq}: the game has moved on since; "
                         "act on the latest update"
            )
        turn = state.current_player
        if turn != seat:
            # The page calls this seat "You" and the others by name: no seat numbers here.
            raise ProtocolError("not_your_turn", "it is not your turn: wait until the game asks you to play")
        away = seat in table.away
        table.away.discard(seat)
        try:
            self._take(table, seat, act.action, "human")
        except IllegalAction as err:  # the acting seat's own moves: told to that seat only
            if away:
                table.away.add(seat)
            raise ProtocolError("illegal", str(err)) from None
        except Exception as err:
            if away:
                table.away.add(seat)
            self._refused(table, "a player's action", err)
            raise ProtocolError(
                "server_error", "the action could not be stored; nothing changed, try again"
            ) from None

    def _refused(self, table: LiveTable, what: str, err: Exception) -> None:
        """Log an action that could not be stored. The database refusing it (disk full, read
        only) is one line and a running count, not a traceback each: a full disk refuses every
        action of every table. Anything else is a bug, logged whole."""
        if not isinstance(err, SQLAlchemyError):
            log.exception("table %s: storing %s failed", table.id, what)
            return
        self.refused_writes += 1
        self.metrics.refused.inc()
        log.error("table %s: the database refused %s: %s (%d refused since the server started)",
                  table.id, what, _first_line(err), self.refused_writes)

    def _finished_state(self, table: LiveTable) -> None:
        """A finished game loaded from the database, rebuilt when someone comes to look."""
        data = table.data
        try:
            rules = self._rules(data.game, data.rules, data.deck, data.upload, stored=True)
            actions = self.store.actions(data.id)
            state = rebuild(rules, data.seed, actions, engine=self.engine)
        except CardroomInputError as err:
            log.warning("table %s: the finished game cannot be rebuilt here: %s", data.id, err)
            return
        table.rules = rules
        table.state = state
        table.seq = len(actions)
        table.cards = design_rows(table.spec, rules)

    # -- the one path of an action ---------------------------------------------------------

    def _take(self, table: LiveTable, seat: int, action: int, by: str) -> None:
        """Apply ``action`` for ``seat`` (whose turn it is), commit it, then tell everyone."""
        started = time.perf_counter()
        state = table.state
        assert state is not None and state.current_player == seat
        # The delay lets people follow the bots' moves; a move nobody else can see (a pass pick)
        # has nothing to follow, so the next bot moves at once: one delay, then a bot's three
        # picks and the next bots' picks together (see _bot_turn).
        hidden = by != "human" and self._hidden(state, seat, action)
        after = state.clone()
        after.apply(action)  # IllegalAction here leaves the table untouched
        seq = table.seq + 1
        now = time.time()
        record = make_record(after, self._record_seats(table)) if after.is_over else None
        self.store.add_action(table.id, seq, seat, action, state.action_to_string(action), by, now, record)
        table.state = after
        table.seq = seq
        if record is not None:
            table.data.status = "over"
            table.data.finished = now
            table.away.clear()
            self._end_grace(table)
            if self.on_finish is not None:
                try:
                    self.on_finish(table)
                except Exception:  # a rating that fails never stops the table
                    log.exception("table %s: the finished game could not be rated", table.id)
        self._kick(table, hurry=hidden)
        self._broadcast(table)
        self.metrics.acted(by, started)

    @staticmethod
    def _hidden(state: State, seat: int, action: int) -> bool:
        """Whether no other seat can tell which action ``seat`` takes (a pass pick)."""
        others = (other for other in range(len(state.scores)) if other != seat)
        return all(state.public_action(action, other) == -1 for other in others)

    def _record_seats(self, table: LiveTable) -> list[dict[str, Any]]:
        # named as the table names them (a searching level's bot: "Expert 2")
        data = table.data.seats
        seats = seat_entries([seat_title(s.seat, s.name, s.bot) if s.kind == "bot" else s.name for s in data],
                             ["human" if s.kind == "human" else s.bot for s in data])
        for seat, after in table.data.left.items():
            # the player left: a heuristic stand-in took every action of the seat from then on
            seats[seat]["left_after"] = after
            seats[seat]["stand_in"] = "heuristic"
        return seats

    # -- bots and timers ------------------------------------------------------------------

    def _kick(self, table: LiveTable, hurry: bool = False) -> None:
        """Start what the position needs: a bot's move, a stand-in's move, or a turn timer.
        ``hurry``: the bot moves without the delay (see :meth:`_take`)."""
        old = table.task
        if old is not None and not old.done() and old is not asyncio.current_task():
            old.cancel()
        table.task = None
        table.deadline = None
        state = table.state
        if table.status != "running" or state is None or state.is_over:
            return
        seat = state.current_player
        if seat is None:
            return
        if seat in table.agents or seat in table.away:
            table.task = asyncio.create_task(self._bot_turn(table, seat, table.seq, hurry))
            return
        if not table.connected(seat):
            self._gone(table, seat)  # e.g. a game dealt, or taken up after a restart, without them
        if table.data.timer is not None:
            table.deadline = time.time() + table.data.timer  # for the pages' countdowns
            table.task = asyncio.create_task(self._timer(table, seat, table.seq, table.data.timer))

    async def _bot_turn(self, table: LiveTable, seat: int, seq: int, hurry: bool = False) -> None:
        if self.bot_delay > 0 and not hurry:
            await asyncio.sleep(self.bot_delay)
        state = table.state
        if table.seq != seq or state is None:
            return
        agent = table.agents.get(seat)
        by = table.data.seats[seat].bot or "heuristic"
        if agent is None:  # a stand-in for a person who ran out of time, is gone or left
            agent = make("heuristic", seed=table.data.seed + seq)
            by = "heuristic (stand-in)"
        try:
            action = await self._think(table, seat, seq, agent, by, state)
        except SearchTimeout as err:  # the move's wall-clock bound: a quick bot moves instead
            log.warning("table %s: the bot at seat %d: %s; a heuristic move is played", table.id, seat, err)
            stand_in = make("heuristic", seed=table.data.seed + seq)
            action = await self._quick(stand_in, state, seat)
        except AgentError as err:  # an illegal choice: match.choose says whose and why
            log.error("table %s: %s; it plays its first legal move", table.id, err)
            action = state.legal_actions()[0]
        except Exception:
            log.exception("table %s: the bot at seat %d failed; it plays its first legal move",
                          table.id, seat)
            action = state.legal_actions()[0]
        if hurry and self.bot_delay > 0 and not self._hidden(state, seat, action):
            # after hidden picks, a move people can see (the first card) still waits the delay
            await asyncio.sleep(self.bot_delay)
        if table.seq != seq or (seat not in table.agents and seat not in table.away):
            return  # the position changed (a person acted) while the bot thought
        try:
            self._take(table, seat, action, by)  # checked by choose on this very position
        except Exception as err:  # storing the move failed: try again, or the table would wait for ever
            self._refused(table, "a bot's action (retried in a second)", err)
            await asyncio.sleep(1.0)
            if table.seq == seq:
                self._kick(table)

    async def _think(self, table: LiveTable, seat: int, seq: int, agent: Agent, by: str, state: State) -> int:
        """A bot's choice, taken as every front takes an agent's turn (``match.choose``: an
        illegal choice is an ``AgentError``): a search bot's in the worker pool (tables where a
        person is connected first: a human seat nobody sits at does not count), a quick bot's
        in a thread (it holds the interpreter lock only for a moment)."""
        spec = table.data.seats[seat].bot
        if spec is not None and spec == by and is_search_bot(spec):
            seed = table.data.seed + 7919 * (seat + 1) + 104729 * seq
            return await self.bot_pool.act(spec, seed, state.clone(), seat, table.people)
        return await self._quick(agent, state, seat)

    async def _quick(self, agent: Agent, state: State, seat: int) -> int:
        """A quick bot's choice, in the quick bots' own threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.quick_pool, choose, agent, state.clone(), seat)

    async def _timer(self, table: LiveTable, seat: int, seq: int, seconds: float) -> None:
        # On the loop's monotonic clock: a step of the wall clock (the deadline the pages show)
        # neither stalls a table nor takes a turn early.
        await asyncio.sleep(seconds)
        if table.seq != seq:
            return
        table.away.add(seat)
        log.info("table %s: seat %d ran out of time; a heuristic bot plays for it", table.id, seat)
        self._kick(table)
        self._broadcast(table)

    # -- people gone from a running game -------------------------------------------------

    def _gone(self, table: LiveTable, seat: int) -> None:
        """``seat``'s person has no connection now: past ``away_after`` a stand-in plays it."""
        if table.status != "running" or seat in table.data.left or seat in table.agents:
            return
        table.gone.setdefault(seat, asyncio.get_running_loop().time())
        self._next_grace(table)

    def _next_grace(self, table: LiveTable) -> None:
        """Look again when the next grace period of a gone seat ends (at once for one ended
        already while a person is here; with nobody here, the next hello looks)."""
        if table.grace is not None:
            table.grace.cancel()
            table.grace = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        here = table.people()
        ends = [since + self.away_after for seat, since in table.gone.items()
                if seat not in table.away and (since + self.away_after > now or here)]
        if ends:
            table.grace = loop.call_at(max(min(ends), now), self._grace_ended, table)

    def _grace_ended(self, table: LiveTable) -> None:
        table.grace = None
        if self.tables.get(table.id) is not table or table.status != "running":
            table.gone.clear()  # over, closed, or moved to another server
            return
        if self._stand_in_for_gone(table):
            self._broadcast(table)
        self._next_grace(table)

    def _stand_in_for_gone(self, table: LiveTable) -> bool:
        """Mark ``away`` (a stand-in plays them) the seats gone past their grace period, while a
        person is at the table: with nobody here, the game waits for its people. Answers whether
        a seat was marked."""
        for seat in [s for s in table.gone if table.connected(s) or s in table.data.left]:
            del table.gone[seat]
        if not table.people() or table.status != "running":
            return False
        now = asyncio.get_running_loop().time()
        due = [seat for seat, since in table.gone.items()
               if seat not in table.away and now - since >= self.away_after]
        for seat in due:
            table.away.add(seat)
            log.info("table %s: seat %d has been gone %.0f s; a heuristic bot plays for it", table.id,
                     seat, now - table.gone[seat])
        state = table.state
        if state is not None and state.current_player in due:
            self._kick(table)
        return bool(due)

    @staticmethod
    def _end_grace(table: LiveTable) -> None:
        table.gone.clear()
        if table.grace is not None:
            table.grace.cancel()
            table.grace = None

    # -- helpers -----------------------------------------------------------------------

    def _begin(self, table: LiveTable) -> None:
        """Every seat is taken: deal."""
        assert table.rules is not None
        table.state = self.engine.new_game(table.rules, table.data.seed)
        table.seq = 0
        for seat in table.data.seats:
            if seat.kind == "human" and not table.connected(seat.seat):
                self._gone(table, seat.seat)  # their grace period starts with the deal
        self._kick(table)
        self._broadcast(table)

    def _live(self, data: TableData, rules: Rules) -> LiveTable:
        table = LiveTable(data, rules)
        for s in data.seats:
            if s.kind == "bot" and s.bot is not None:
                name, options = parse_spec(s.bot)
                table.agents[s.seat] = make(name, seed=data.seed + 7919 * (s.seat + 1), **options)
        table.cards = design_rows(table.spec, rules)
        return table

    def _rules(self, game: str, options: dict[str, Any], deck: str | None, upload: str | None,
               stored: bool = False) -> Rules:
        """The rules of a table: of a new one (``options`` a player's), or, ``stored``, of one in
        the database (whose options, all written, lack only those newer than the table, such as
        ``stream``: it is played on the reading it began on)."""
        options = recorded_options(game, options) if stored else dict(options)
        if upload is not None:  # the rules hold the deck's content, read from the database
            text = self.store.deck_text(upload)
            if text is None:
                raise RulesError(f"the uploaded deck {upload} is missing from the database")
            options["deck"], options["deck_files"] = upload, [text]
        elif deck is not None:
            options["deck"] = deck
        try:
            return make_rules(game, options)
        except (TypeError, ValueError) as err:
            if isinstance(err, CardroomInputError):
                raise
            raise RulesError(f"bad rules: {err}") from None

def _first_line(err: Exception) -> str:
    """The database's own words for a refusal (SQLAlchemy adds the statement and a link)."""
    cause = getattr(err, "orig", None)
    text = str(cause if cause is not None else err).strip()
    return text.splitlines()[0] if text else type(err).__name__
