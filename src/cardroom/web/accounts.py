"""Optional accounts of the web table: names and argon2 password hashes, sessions, ratings.

Everything here lives in tables of its own (``accounts``, ``account_sessions``,
``account_seats``, ``account_addresses``, ``ratings``, ``rated_games``, ``rated_players``) on
the store's ``Base``, made by the store's migrations. A guest never needs any of it: seat
tokens work as before; an account only adds a name that comes back, a player page and ratings.

- A password is never stored: its argon2id hash is (argon2-cffi's :class:`PasswordHasher`).
- A session is a random token in an HttpOnly cookie; the database holds its SHA-256 only.
  Each session has a CSRF token too (a second, readable cookie): a state-changing request
  that carries a session must send it back in ``X-CSRF-Token`` (see ``app.py``).
- Ratings: openskill's Plackett-Luce model per game, over finished games of two accounts or
  more; lower totals place better (both games). An account is placed by its total when it made
  its own decisions (the stand-in at most ``STAND_IN_SHARE`` of them), last when it left or was
  away for the rest of the game; two accounts count at most ``PAIR_GAMES`` rated games together
  in ``PAIR_WINDOW`` seconds (see :meth:`Accounts.finished`).
- A person controls their account: the password can be changed (the other sessions end), the
  other sessions ended, the account deleted (its sessions, ratings and seats go; its games stay,
  its seats renamed ``Former player N``; the name is free again).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
import time
import unicodedata
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass
from itertools import combinations, takewhile
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from openskill.models import PlackettLuce
from sqlalchemy import delete as sql_delete
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from cardroom.web.refusal import Refusal
from cardroom.web.schema import (
    AccountAddressRow,
    AccountRow,
    AccountSeatRow,
    AccountSessionRow,
    ActionRow,
    PrivateRow,
    RatedGameRow,
    RatedPlayerRow,
    RatingRow,
    SeatRow,
    TableRow,
)
from cardroom.web.store import Store

__all__ = [
    "AccountError", "Accounts", "Attempts", "SESSION_COOKIE", "CSRF_COOKIE", "SESSION_SECONDS",
    "former_name", "name_problem", "password_problem", "folded_name", "GUEST_NAME",
    "STAND_IN_SHARE", "PAIR_GAMES", "PAIR_WINDOW",
]

log = logging.getLogger("cardroom.web")

SESSION_COOKIE = "cardroom_session"
CSRF_COOKIE = "cardroom_csrf"
SESSION_SECONDS = 30 * 24 * 3600
"""A session lasts 30 days from signing in (or until signing out)."""

NAME_MIN, NAME_MAX = 3, 20
GUEST_NAME = "Guest"
"""The lobby's name for a player who types none: no account may take it."""
PASSWORD_MIN, PASSWORD_MAX = 10, 200
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")

STAND_IN_SHARE = 0.25
"""The largest share of a seat's decisions the stand-in (for a person out of time, or gone) may
have made for the seat's account to be placed by its result in a rated game."""
PAIR_GAMES = 3
"""Rated games of one game two accounts may play together in ``PAIR_WINDOW`` seconds; past it,
neither is rated in a further game of it they both play (so that two accounts cannot farm)."""
PAIR_WINDOW = 24 * 3600.0


class AccountError(Refusal):
    """A refusal in words, with its HTTP status (and a wait for 429)."""

    def __init__(self, status: int, message: str, retry_after: float | None = None) -> None:
        super().__init__(status, message, retry_after)


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` as an account name, in words (``None``: nothing)."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(name)}"
    if not _NAME.fullmatch(name):
        return ("a name starts with a letter and has only letters (a-z, A-Z), digits, '-' and '_' "
                "(no spaces)")
    if name.lower() == GUEST_NAME.lower():
        return f"{GUEST_NAME} is the name of every player without an account; choose another"
    return None


def folded_name(name: str) -> str:
    """``name`` as account names are compared: compatibility forms and case folded (so that
    "BOBBY" and the full-width "Ｂｏｂｂｙ" are the account bobby's name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def password_problem(password: str, name: str) -> str | None:
    """What is wrong with ``password`` for the account ``name``, in words (``None``: nothing)."""
    if len(password) < PASSWORD_MIN:
        return f"a password has at least {PASSWORD_MIN} characters; this one has {len(password)}"
    if len(password) > PASSWORD_MAX:
        return f"a password has at most {PASSWORD_MAX} characters; this one has {len(password)}"
    if password.lower() == name.lower() or name.lower() in password.lower():
        return "a password may not contain the account's name"
    if len(set(password)) < 4:
        return "a password needs at least 4 different characters"
    return None


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def address_digest(account_id: int, address: str) -> str:
    return hashlib.sha256(f"{account_id} {address}".encode()).hexdigest()


def former_name(seat: int) -> str:
    """The neutral name a deleted account's seat is given in its games: ``Former player N``."""
    return f"Former player {seat}"


# -- rate limits -------------------------------------------------------------------------------


class Attempts:
    """Sign-in attempts in a sliding window: at most ``limit`` per key in ``window`` seconds."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._times: dict[str, deque[float]] = {}

    def wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may try again (0: it may now)."""
        times = self._times.get(key)
        if times is None:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._times[key]
            return 0.0
        return max(0.0, times[0] + self.window - now) if len(times) >= self.limit else 0.0

    def count(self, key: str, now: float) -> None:
        self._times.setdefault(key, deque()).append(now)
        if len(self._times) > 100_000:  # a flood of addresses: forget the oldest keys
            for old in list(self._times)[:50_000]:
                del self._times[old]

    def take(self, key: str, now: float) -> float:
        """Count an attempt of ``key`` unless it is at its limit: 0 (counted), else the seconds
        to wait (nothing counted). Counted before the work it guards, so that attempts made at
        the same moment cannot all pass the check before any of them is counted."""
        wait = self.wait(key, now)
        if not wait:
            self.count(key, now)
        return wait

    def give_back(self, key: str, now: float) -> None:
        """Forget one attempt of ``key`` that :meth:`take` counted at ``now``."""
        times = self._times.get(key)
        if times is not None and now in times:
            times.remove(now)


ATTEMPTS_PER_ADDRESS = 10
"""Sign-in attempts one address may make in ``ATTEMPT_WINDOW`` seconds."""
FAILURES_PER_ACCOUNT_ADDRESS = 5
"""Wrong passwords one address may give for one account in ``ATTEMPT_WINDOW`` seconds: a
stranger's guesses hold back the stranger's address, not the owner's."""
ATTEMPT_WINDOW = 300.0
FAILURES_PER_ACCOUNT = 20
"""Wrong passwords one account may be given in ``ACCOUNT_WINDOW`` seconds from all the
addresses it has not signed in from (the slower back-off they share, so that many addresses
cannot guess on); from an address it signed in from in ``KNOWN_ADDRESS_SECONDS``, only the
address's own limit holds."""
ACCOUNT_WINDOW = 3600.0
KNOWN_ADDRESS_SECONDS = SESSION_SECONDS
SIGNUPS_PER_ADDRESS = 5
"""Accounts one address may create in ``ATTEMPT_WINDOW`` seconds."""


@dataclass
class Me:
    """The account a session belongs to."""

    id: int
    name: str
    csrf: str


SEATED_TABLES = 2000
"""Tables whose account-held seats one server keeps in memory."""

# -- the accounts -------------------------------------------------------------------------------


class Accounts:
    """The accounts of one server, over the store's database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine  # its tables: the store's migrations 0003_accounts, 0006_sign_in_addresses
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.hasher = PasswordHasher()
        self.model = PlackettLuce()
        self.by_address = Attempts(ATTEMPTS_PER_ADDRESS, ATTEMPT_WINDOW)
        self.by_pair = Attempts(FAILURES_PER_ACCOUNT_ADDRESS, ATTEMPT_WINDOW)
        """Wrong passwords per account and address (keyed ``"<address> <folded name>"``)."""
        self.by_account = Attempts(FAILURES_PER_ACCOUNT, ACCOUNT_WINDOW)
        self.signups = Attempts(SIGNUPS_PER_ADDRESS, ATTEMPT_WINDOW)
        self._lock = threading.Lock()
        self._seated: OrderedDict[str, frozenset[int]] = OrderedDict()
        """The seats accounts hold at recent tables (each table's summary says which seats)."""
        # a hash to verify against when the name is unknown: the same work either way
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))

    # -- signing up and in --------------------------------------------------------------

    def sign_up(self, name: str, password: str, address: str) -> tuple[Me, str]:
        """A new account, signed in: answers it and the session token."""
        problem = name_problem(name) or password_problem(password, name)
        if problem is not None:
            raise AccountError(400, problem)
        now = time.time()
        with self._session() as s, s.begin():
            if s.scalar(select(AccountRow.id).where(AccountRow.folded == name.lower())) is not None:
                raise AccountError(409, f"the name {name} is taken; choose another")
        with self._lock:
            wait = self.signups.take(address, now)
        if wait:
            raise AccountError(429, f"too many new accounts from this address; try again in "
                                    f"{int(wait) + 1} seconds", wait)
        digest = self.hasher.hash(password)
        try:
            with self._session() as s, s.begin():
                row = AccountRow(name=name, folded=name.lower(), password_hash=digest, created=now)
                s.add(row)
                s.flush()
                account_id = row.id
        except IntegrityError:  # taken meanwhile, by a sign-up at the same moment
            raise AccountError(409, f"the name {name} is taken; choose another") from None
        self._remember(account_id, address, now)
        return self._open(account_id, name, now)

    def sign_in(self, name: str, password: str, address: str) -> tuple[Me, str]:
        """Check ``password`` for ``name`` (rate-limited, see :meth:`_check`); answers the
        account and a session token."""
        now = time.time()
        folded = name.lower()[:NAME_MAX * 2]
        with self._session() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.folded == folded)).first()
            known = row is not None and self._known(s, row.id, address, now)
        if not self._check(folded, None if row is None else row.password_hash, password, address, known,
                           now) or row is None:
            raise AccountError(401, "that name and password do not match an account")
        if self.hasher.check_needs_rehash(row.password_hash):
            with self._session() as s, s.begin():
                fresh = s.get(AccountRow, row.id)
                if fresh is not None:
                    fresh.password_hash = self.hasher.hash(password)
        self._remember(row.id, address, now)
        return self._open(row.id, row.name, now)

    def _check(self, folded: str, digest: str | None, password: str, address: str, known: bool,
               now: float) -> bool:
        """Whether ``password`` matches ``digest`` (``None``: no such account, checked against
        a made-up hash, the same work), under the limits: attempts per address, wrong passwords
        per account and address, and (from an address the account is not ``known`` at) wrong
        passwords per account. Each is counted *before* the hash is checked (the check takes a
        quarter of a second: counted after it, twenty attempts at once would all be checked),
        and given back when the password is right. Past a limit: ``429``, nothing checked."""
        limits = [(self.by_address, address, "too many sign-in attempts from this address"),
                  (self.by_pair, f"{address} {folded}", "too many wrong passwords for this account "
                                                       "from this address")]
        if not known:
            limits.append((self.by_account, folded,
                           "too many wrong passwords for this account from addresses it has not "
                           "signed in from"))
        taken: list[tuple[Attempts, str]] = []
        with self._lock:
            for attempts, key, why in limits:
                wait = attempts.take(key, now)
                if wait:
                    for each, held in taken:
                        each.give_back(held, now)
                    raise AccountError(429, f"{why}; try again in {int(wait) + 1} seconds", wait)
                taken.append((attempts, key))
        try:
            self.hasher.verify(digest or self._dummy, password)
            ok = digest is not None
        except (VerificationError, InvalidHashError):
            ok = False
        if ok:  # a right password is no failure: only the attempt from the address stays counted
            with self._lock:
                for each, held in taken[1:]:
                    each.give_back(held, now)
        return ok

    def _known(self, s: Session, account_id: int, address: str, now: float) -> bool:
        seen = s.scalar(select(AccountAddressRow.last).where(
            AccountAddressRow.account_id == account_id,
            AccountAddressRow.address_hash == address_digest(account_id, address)))
        return seen is not None and seen > now - KNOWN_ADDRESS_SECONDS

    def _remember(self, account_id: int, address: str, now: float) -> None:
        """The account signed in from ``address`` (kept as a digest with the time; the account's
        addresses not seen for ``KNOWN_ADDRESS_SECONDS`` are forgotten)."""
        with self._session() as s, s.begin():
            s.execute(sql_delete(AccountAddressRow).where(
                AccountAddressRow.account_id == account_id,
                AccountAddressRow.last < now - KNOWN_ADDRESS_SECONDS))
            s.merge(AccountAddressRow(account_id=account_id, address_hash=address_digest(account_id, address),
                                      last=now))

    def _open(self, account_id: int, name: str, now: float) -> tuple[Me, str]:
        token = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        with self._session() as s, s.begin():
            s.add(AccountSessionRow(token_hash=token_digest(token), account_id=account_id, csrf=csrf,
                                    expires=now + SESSION_SECONDS))
        return Me(account_id, name, csrf), token

    def me(self, token: str | None) -> Me | None:
        """The account a session token belongs to (``None``: none, or expired)."""
        if not token or len(token) > 100:
            return None
        with self._session() as s:
            row = s.get(AccountSessionRow, token_digest(token))
            if row is None or row.expires < time.time():
                return None
            account = s.get(AccountRow, row.account_id)
            return None if account is None else Me(account.id, account.name, row.csrf)

    def sign_out(self, token: str) -> None:
        with self._session() as s, s.begin():
            row = s.get(AccountSessionRow, token_digest(token))
            if row is not None:
                s.delete(row)

    def named(self, name: str) -> str | None:
        """The account whose name ``name`` is (any case, see :func:`folded_name`), as the
        account writes it; ``None`` when no account has it. :data:`GUEST_NAME` is every guest's
        name, never an account's (an account given it before the name was refused keeps it, but
        guests are not kept from it)."""
        folded = folded_name(name)
        if not NAME_MIN <= len(folded) <= NAME_MAX or folded == folded_name(GUEST_NAME):
            return None
        with self._session() as s:
            return s.scalar(select(AccountRow.name).where(AccountRow.folded == folded))

    # -- what a person does with their account ------------------------------------------

    def sessions(self, me: Me) -> int:
        """How many browsers are signed in to the account (the one asking included)."""
        with self._session() as s:
            return s.scalar(select(func.count()).select_from(AccountSessionRow).where(
                AccountSessionRow.account_id == me.id, AccountSessionRow.expires >= time.time())) or 0

    def sign_out_others(self, me: Me, token: str) -> int:
        """End every session of the account but ``token``'s; answers how many ended."""
        with self._session() as s, s.begin():
            others = s.scalars(select(AccountSessionRow).where(
                AccountSessionRow.account_id == me.id,
                AccountSessionRow.token_hash != token_digest(token))).all()
            for row in others:
                s.delete(row)
            return len(others)

    def _confirm(self, me: Me, password: str, address: str) -> AccountRow:
        """The account's row, once ``password`` proved to be its own (limited as signing in is)."""
        now = time.time()
        with self._session() as s:
            row = s.get(AccountRow, me.id)
            known = row is not None and self._known(s, me.id, address, now)
        if row is None:
            raise AccountError(401, "this session's account is gone; sign in again")
        if not self._check(row.folded, row.password_hash, password, address, known, now):
            raise AccountError(403, "that is not this account's password; nothing changed")
        return row

    def change_password(self, me: Me, token: str, password: str, new: str,
                        address: str) -> tuple[int, Me, str]:
        """Replace the password (``password`` the current one); every other session ends, as
        one may change a password because someone else knows it, and this one goes on under a
        new token and CSRF token (the old ones may be known too). Answers how many others ended,
        and this browser's new session."""
        problem = password_problem(new, me.name)
        if problem is not None:
            raise AccountError(400, f"the new password: {problem}")
        self._confirm(me, password, address)
        digest = self.hasher.hash(new)
        with self._session() as s, s.begin():
            row = s.get(AccountRow, me.id)
            if row is None:
                raise AccountError(401, "this session's account is gone; sign in again")
            row.password_hash = digest
        ended = self.sign_out_others(me, token)
        self.sign_out(token)
        fresh, fresh_token = self._open(me.id, me.name, time.time())
        return ended, fresh, fresh_token

    def delete(self, me: Me, password: str, address: str) -> list[tuple[str, int, str]]:
        """Delete the account (``password`` its own): its sessions, ratings, seats and
        addresses go; in every game it sat at, its seat is renamed :func:`former_name` (the
        seats' names and a finished game's record), so those games stay replayable without the
        name. The name is free again. Answers the seats renamed: ``(table id, seat, name)``."""
        row = self._confirm(me, password, address)
        renamed: list[tuple[str, int, str]] = []
        with self._session() as s, s.begin():
            held = s.scalars(select(AccountSeatRow).where(AccountSeatRow.account_id == me.id)).all()
            for seat_row in held:
                neutral = former_name(seat_row.seat)
                seat = s.get(SeatRow, (seat_row.table_id, seat_row.seat))
                if seat is not None and seat.name == row.name:
                    seat.name = neutral
                table = s.get(TableRow, seat_row.table_id)
                if table is not None and table.record is not None:
                    record = json.loads(table.record)
                    entries = record.get("seats")
                    if isinstance(entries, list) and seat_row.seat < len(entries) \
                            and isinstance(entries[seat_row.seat], dict):
                        entries[seat_row.seat]["name"] = neutral
                        table.record = json.dumps(record, separators=(",", ":"))
                renamed.append((seat_row.table_id, seat_row.seat, neutral))
            # One by one rather than by the foreign keys' cascade, which SQLite keeps only when
            # asked to; the account goes last.
            for kind in (AccountSeatRow, RatingRow, RatedPlayerRow, AccountSessionRow, AccountAddressRow):
                s.execute(sql_delete(kind).where(kind.account_id == me.id))
            s.execute(sql_delete(AccountRow).where(AccountRow.id == me.id))
        for table_id, _seat, _name in renamed:
            self._changed(table_id)
        log.info("account %d deleted; %d seats renamed", me.id, len(renamed))
        return renamed

    # -- seats, games, ratings ----------------------------------------------------------

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
