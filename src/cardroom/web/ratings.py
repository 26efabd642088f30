"""The games of accounts: the seats accounts hold at tables, the rating of finished games
(openskill's Plackett-Luce model per game), the player pages and the leaderboards.

:class:`AccountGames` is the base of :class:`cardroom.web.accounts.Accounts` (names,
passwords, sessions); how a game is rated is told there.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from itertools import combinations, takewhile
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from cardroom.web.schema import (
    AccountRow,
    AccountSeatRow,
    ActionRow,
    PrivateRow,
    RatedGameRow,
    RatedPlayerRow,
    RatingRow,
    TableRow,
)
from cardroom.web.store import Store

__all__ = ["AccountGames", "STAND_IN_SHARE", "PAIR_GAMES", "PAIR_WINDOW", "SEATED_TABLES", "NAME_MIN",
           "NAME_MAX"]

NAME_MIN, NAME_MAX = 3, 20
"""The lengths of an account's name (:func:`cardroom.web.accounts.name_problem` checks it)."""

STAND_IN_SHARE = 0.25
"""The largest share of a seat's decisions the stand-in (for a person out of time, or gone) may
have made for the seat's account to be placed by its result in a rated game."""
PAIR_GAMES = 3
"""Rated games of one game two accounts may play together in ``PAIR_WINDOW`` seconds; past it,
neither is rated in a further game of it they both play (so that two accounts cannot farm)."""
PAIR_WINDOW = 24 * 3600.0
SEATED_TABLES = 2000
"""Tables whose account-held seats one server keeps in memory."""


class AccountGames:
    """The seats, rated games and ratings of the accounts of one server, over the store's database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine  # its tables: the store's migrations 0003_accounts, 0006_sign_in_addresses
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.model = PlackettLuce()
        self._lock = threading.Lock()
        self._seated: OrderedDict[str, frozenset[int]] = OrderedDict()
        """The seats accounts hold at recent tables (each table's summary says which seats)."""

    def held(self, account_id: int, table_ids: list[str]) -> dict[str, int]:
        """The seat the account holds at each of ``table_ids`` where it holds one."""
        if not table_ids:
            return {}
        with self._session() as s:
            rows = s.execute(select(AccountSeatRow.table_id, AccountSeatRow.seat).where(
                AccountSeatRow.account_id == account_id, AccountSeatRow.table_id.in_(table_ids))).all()
        return {table_id: seat for table_id, seat in rows}

    def account_seats(self, table_id: str) -> frozenset[int]:
        """The seats of ``table_id`` that accounts hold (the others' players are guests), kept
        in memory for the last ``SEATED_TABLES`` tables asked about."""
        with self._lock:
            known = self._seated.get(table_id)
            if known is not None:
                self._seated.move_to_end(table_id)
                return known
        with self._session() as s:
            held = select(AccountSeatRow.seat).where(AccountSeatRow.table_id == table_id)
            seats = frozenset(s.scalars(held))
        with self._lock:
            self._seated[table_id] = seats
            while len(self._seated) > SEATED_TABLES:
                self._seated.popitem(last=False)
        return seats

    def _changed(self, table_id: str) -> None:
        with self._lock:
            self._seated.pop(table_id, None)

    def sat(self, table_id: str, seat: int, account_id: int) -> None:
        """The account took ``seat`` at ``table_id``."""
        with self._session() as s, s.begin():
            s.merge(AccountSeatRow(table_id=table_id, seat=seat, account_id=account_id))
        self._changed(table_id)

    def carry(self, old_id: str, new_id: str, left: set[int]) -> None:
        """A rematch keeps each person's seat: the accounts' seats of ``old_id`` (but those
        whose player left) are theirs at ``new_id`` too."""
        with self._session() as s, s.begin():
            carried: set[int] = set()  # one seat an account (a table from before that rule: its first)
            rows = s.scalars(select(AccountSeatRow).where(AccountSeatRow.table_id == old_id)
                             .order_by(AccountSeatRow.seat)).all()
            for row in rows:
                if row.seat not in left and row.account_id not in carried:
                    carried.add(row.account_id)
                    s.merge(AccountSeatRow(table_id=new_id, seat=row.seat, account_id=row.account_id))
        self._changed(new_id)

    def freed(self, table_id: str, seat: int) -> None:
        """The seat of a waiting table is free again: nobody's any more."""
        with self._session() as s, s.begin():
            row = s.get(AccountSeatRow, (table_id, seat))
            if row is not None:
                s.delete(row)
        self._changed(table_id)

    def finished(self, table_id: str, game: str, totals: list[int], left: set[int],
                 gone: set[int] | None = None) -> bool:
        """Rate a finished game, once. ``left``: the seats whose player left it; ``gone``: the
        seats whose person was not at the table when it ended. Each account's seat is

        - placed by its total (lower is better, ties share a place) when its person made their
          own decisions: the stand-in made at most ``STAND_IN_SHARE`` of the seat's;
        - placed last (below every total, as card sites count abandonment) when its player left
          the game, or was away for the rest of it: the stand-in played the seat from its
          person's last decision to the end, and the person was gone at the end or that stretch
          is over ``STAND_IN_SHARE`` of the seat's decisions (a slow last move or two while at
          the table is forgiven);
        - not rated otherwise (back before the end, but the stand-in made too many decisions).

        Accounts that have had ``PAIR_GAMES`` rated games of ``game`` together in the last
        ``PAIR_WINDOW`` seconds are left out (the others are rated among themselves). The game
        is rated when an account is placed by its total and two or more are placed. Answers
        whether ratings changed."""
        now = time.time()
        with self._session() as s, s.begin():
            if s.get(RatedGameRow, table_id) is not None:
                return False
            accounts = {row.seat: row.account_id for row in s.scalars(
                select(AccountSeatRow).where(AccountSeatRow.table_id == table_id))}
            own: dict[int, list[bool]] = {}  # seat -> whether each of its decisions was its person's
            for seat, by in s.execute(select(ActionRow.seat, ActionRow.by)
                                      .where(ActionRow.table_id == table_id).order_by(ActionRow.seq)):
                own.setdefault(seat, []).append(by == "human")
            placed: dict[int, int] = {}  # account -> seat (an account seated twice counts once)
            last: dict[int, int] = {}    # account -> seat, for those who abandoned the game
            for seat, account_id in sorted(accounts.items()):
                if seat >= len(totals) or account_id in placed or account_id in last:
                    continue
                decisions = own.get(seat, [])
                # the stand-in's decisions since the person's last own one
                tail = sum(1 for _ in takewhile(lambda mine: not mine, reversed(decisions)))
                bound = STAND_IN_SHARE * len(decisions)
                if seat in left or (tail and (seat in (gone or set()) or tail > bound)):
                    last[account_id] = seat
                elif decisions and decisions.count(False) <= bound:
                    placed[account_id] = seat
            for account_id in self._paired_enough(s, game, set(placed) | set(last), now):
                placed.pop(account_id, None)
                last.pop(account_id, None)
            if not placed or len(placed) + len(last) < 2:
                return False
            ids = list(placed) + list(last)
            stored = {r.account_id: r for r in s.scalars(
                select(RatingRow).where(RatingRow.game == game, RatingRow.account_id.in_(ids)))}
            teams = []
            for account_id in ids:
                r = stored.get(account_id)
                rating = self.model.rating() if r is None else self.model.rating(mu=r.mu, sigma=r.sigma)
                teams.append([rating])
            worst = float(max(totals)) + 1
            ranks = [float(totals[placed[a]]) for a in placed] + [worst] * len(last)
            new = self.model.rate(teams, ranks=ranks)
            for account_id, (after,) in zip(ids, new, strict=True):
                r = stored.get(account_id)
                if r is None:
                    s.add(RatingRow(account_id=account_id, game=game, mu=after.mu, sigma=after.sigma,
                                    games=1))
                else:
                    r.mu, r.sigma, r.games = after.mu, after.sigma, r.games + 1
                s.add(RatedPlayerRow(table_id=table_id, account_id=account_id))
            s.add(RatedGameRow(table_id=table_id, at=now))
            return True

    @staticmethod
    def _paired_enough(s: Session, game: str, ids: set[int], now: float) -> set[int]:
        """The accounts of ``ids`` that have had ``PAIR_GAMES`` rated games of ``game`` with
        another of them in the last ``PAIR_WINDOW`` seconds."""
        rows = s.execute(
            select(RatedPlayerRow.table_id, RatedPlayerRow.account_id)
            .join(RatedGameRow, RatedGameRow.table_id == RatedPlayerRow.table_id)
            .join(TableRow, TableRow.id == RatedPlayerRow.table_id)
            .where(RatedGameRow.at > now - PAIR_WINDOW, TableRow.game == game,
                   RatedPlayerRow.account_id.in_(ids))).all()
        together: dict[str, set[int]] = {}
        for table_id, account_id in rows:
            together.setdefault(table_id, set()).add(account_id)
        pairs = Counter(pair for both in together.values() for pair in combinations(sorted(both), 2))
        return {account_id for pair, n in pairs.items() if n >= PAIR_GAMES for account_id in pair}

    def player(self, name: str, recent: int = 20) -> dict[str, Any] | None:
        """A player page's data: games played, recent finished games, ratings per game."""
        with self._session() as s:
            folded = name.lower()[:NAME_MAX * 2]
            account = s.scalars(select(AccountRow).where(AccountRow.folded == folded)).first()
            if account is None:
                return None
            played = s.scalar(
                select(func.count(func.distinct(AccountSeatRow.table_id)))
                .join(TableRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account.id, TableRow.status == "over")) or 0
            rows = s.execute(  # a private table's link stays with those it was sent to
                select(TableRow.id, TableRow.game, TableRow.players, TableRow.finished, AccountSeatRow.seat)
                .join(AccountSeatRow, TableRow.id == AccountSeatRow.table_id)
                .where(AccountSeatRow.account_id == account.id, TableRow.status == "over",
                       TableRow.id.not_in(select(PrivateRow.table_id)))
                .order_by(TableRow.finished.desc()).limit(recent)).all()
            ratings = s.scalars(select(RatingRow).where(RatingRow.account_id == account.id)
                                .order_by(RatingRow.game)).all()
            return {
                "name": account.name,
                "since": account.created,
                "games_played": played,
                "recent": [{"table": r.id, "game": r.game, "players": r.players, "finished": r.finished,
                            "seat": r.seat, "replay": f"/replay/{r.id}",
                            "record": f"/api/tables/{r.id}/record"} for r in rows],
                "ratings": [self._rating(r) for r in ratings],
            }

    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The rated accounts of ``game``, best first (by the ordinal mu - 3 sigma)."""
        with self._session() as s:
            rows = s.execute(select(RatingRow, AccountRow.name)
                             .join(AccountRow, AccountRow.id == RatingRow.account_id)
                             .where(RatingRow.game == game)).all()
        board = [{"name": name, **self._rating(r)} for r, name in rows]
        board.sort(key=lambda x: (-x["ordinal"], x["name"].lower()))
        for place, entry in enumerate(board[:limit], start=1):
            entry["place"] = place
        return board[:limit]

    @staticmethod
    def _rating(r: RatingRow) -> dict[str, Any]:
        return {"game": r.game, "mu": round(r.mu, 3), "sigma": round(r.sigma, 3),
                "ordinal": round(r.mu - 3 * r.sigma, 3), "games": r.games}
