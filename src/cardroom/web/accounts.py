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
import time
import unicodedata
from collections import deque
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete as sql_delete
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.web.ratings import NAME_MAX, NAME_MIN, PAIR_GAMES, PAIR_WINDOW, STAND_IN_SHARE, AccountGames
from cardroom.web.refusal import Refusal
from cardroom.web.schema import (
    AccountAddressRow,
    AccountRow,
    AccountSeatRow,
    AccountSessionRow,
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

GUEST_NAME = "Guest"
"""The lobby's name for a player who types none: no account may take it."""
PASSWORD_MIN, PASSWORD_MAX = 10, 200
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")



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


# -- the accounts -------------------------------------------------------------------------------


class Accounts(AccountGames):
    """The accounts of one server, over the store's database."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.hasher = PasswordHasher()
        self.by_address = Attempts(ATTEMPTS_PER_ADDRESS, ATTEMPT_WINDOW)
        self.by_pair = Attempts(FAILURES_PER_ACCOUNT_ADDRESS, ATTEMPT_WINDOW)
        """Wrong passwords per account and address (keyed ``"<address> <folded name>"``)."""
        self.by_account = Attempts(FAILURES_PER_ACCOUNT, ACCOUNT_WINDOW)
        self.signups = Attempts(SIGNUPS_PER_ADDRESS, ATTEMPT_WINDOW)
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
