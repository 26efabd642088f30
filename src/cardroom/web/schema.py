"""The web table's database schema: every ORM row in one place (SQLAlchemy 2), one ``Base``
whose metadata the migrations (``migrations/versions``) keep the database at.

The tables' rows, the accounts' and ratings', the designer's studio's: ``store.Store`` reads and
writes the tables', ``accounts.Accounts`` and ``studio.Studio`` theirs.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "Base", "DeckRow", "TableRow", "SeatRow", "ActionRow", "CreatorRow", "DepartureRow",
    "ClosureRow", "RematchRow", "PrivateRow", "AccountRow", "AccountSessionRow", "AccountSeatRow",
    "RatingRow", "AccountAddressRow", "RatedGameRow", "RatedPlayerRow", "StudioDeckRow",
    "StudioVersionRow", "StudioRunRow",
]


# -- the tables ------------------------------------------------------------------------------


class Base(DeclarativeBase):
    pass


class DeckRow(Base):
    """An uploaded BAEBAE deck file, by the digest of its content."""

    __tablename__ = "decks"

    digest: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    players: Mapped[int] = mapped_column(Integer)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The rule options chosen, without the deck."""
    deck: Mapped[str | None] = mapped_column(String(100), nullable=True)
    """A project deck's name, or null for an uploaded deck (``upload``) or no deck (Baha)."""
    upload: Mapped[str | None] = mapped_column(ForeignKey("decks.digest"), nullable=True)
    deck_info: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """``{"name", "digest"}`` of the deck the game is played with (as its record names it)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
    record: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)

    seats: Mapped[list[SeatRow]] = relationship(order_by="SeatRow.seat", cascade="all, delete-orphan")


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(100), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the first action of the game: the table's ``seq`` once it is taken."""
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(100))
    by: Mapped[str] = mapped_column(String(200))
    """Who chose it: ``human``, or the bot spec that played the seat."""
    at: Mapped[float] = mapped_column(Float)


# What people did to a table besides playing: each in a table of its own (revision 0002).


class CreatorRow(Base):
    """Who created a table: the hash of the token that may close it."""

    __tablename__ = "creators"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))


class DepartureRow(Base):
    """A player who left a running game: a stand-in has played the seat since ``after`` actions."""

    __tablename__ = "departures"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    after: Mapped[int] = mapped_column(Integer)


class ClosureRow(Base):
    """A running game its creator closed after ``after`` actions: it ended abandoned."""

    __tablename__ = "closures"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    after: Mapped[int] = mapped_column(Integer)


class RematchRow(Base):
    """The table made as a finished table's rematch."""

    __tablename__ = "rematches"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    rematch_id: Mapped[str] = mapped_column(String(32))


class PrivateRow(Base):
    """A table its creator kept out of the lobby's list: found by its link only (revision 0005)."""

    __tablename__ = "private_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)


# -- accounts and ratings ---------------------------------------------------------------------


class AccountRow(Base):
    """An account: its name as typed, the lower-case name that must be unique, the argon2 hash."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    folded: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[float] = mapped_column(Float)


class AccountSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session token, and its CSRF token."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    expires: Mapped[float] = mapped_column(Float)


class AccountSeatRow(Base):
    """A seat an account took at a table."""

    __tablename__ = "account_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)


class RatingRow(Base):
    """An account's openskill rating in one game."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class AccountAddressRow(Base):
    """An address an account signed in from (the SHA-256 of the account's id and the address,
    not the address), and when last: there the account's shared back-off does not hold."""

    __tablename__ = "account_addresses"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    last: Mapped[float] = mapped_column(Float)


class RatedGameRow(Base):
    """A finished table whose game changed ratings (a game is rated once)."""

    __tablename__ = "rated_games"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class RatedPlayerRow(Base):
    """An account a rated game rated (revision 0007)."""

    __tablename__ = "rated_players"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)


# -- the designer's studio --------------------------------------------------------------------


class StudioDeckRow(Base):
    """A deck opened in the studio: its versions follow."""

    __tablename__ = "studio_decks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    """The game whose deck it is (a game of :func:`editors`)."""
    source: Mapped[str] = mapped_column(String(100))
    """Where it came from: a project deck's name, or ``upload``."""
    created: Mapped[float] = mapped_column(Float)


class StudioVersionRow(Base):
    """One saved version of a studio deck: its deck file and what changed from the one before."""

    __tablename__ = "studio_versions"

    deck_id: Mapped[str] = mapped_column(ForeignKey("studio_decks.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    digest: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)
    size: Mapped[int] = mapped_column(Integer, default=0)
    """The deck file's bytes (revision 0008; 0 for versions saved before it)."""
    address: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """The client address that saved it (``None`` before revision 0008)."""
    account: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account that saved it, if one was signed in."""


class StudioRunRow(Base):
    """A job played on a studio deck's versions, and its report once finished."""

    __tablename__ = "studio_runs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    deck_id: Mapped[str] = mapped_column(ForeignKey("studio_decks.id", ondelete="CASCADE"), index=True)
    versions: Mapped[list[int]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``waiting``, ``running``, ``done``, ``failed``, ``cancelled`` or ``stopped``."""
    games: Mapped[int] = mapped_column(Integer)
    """Games the run plays in all (every version's)."""
    played: Mapped[int] = mapped_column(Integer)
    """Games played when it was last stored (a finished run's: all it played)."""
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    report_html: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    report_text: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    created: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
