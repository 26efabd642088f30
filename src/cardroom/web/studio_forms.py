"""The studio's requests: the models of each body the studio takes (a deck's form, a deck to
open, a version to save, a run and its settings, a cancel), bounded by the widest of the
games' deck limits (:func:`editors`: every game whose spec has a ``deck_editing``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cardroom import games
from cardroom.games import GameSpec
from cardroom.games.contracts import DeckEditing, DeckLimits
from cardroom.web.protocol import MAX_DECK_BYTES

__all__ = ["FormInvalid", "editors", "studio_games", "DeckForm", "OpenBody", "SaveBody", "RunSettings",
           "RunBody", "CancelBody", "MAX_RUN_GAMES", "MAX_VERSIONS", "MAX_TUNE_TRIALS", "TUNE_TOP", "LIMITS",
           "MOST_MARKS"]

MAX_RUN_GAMES = 2000
"""Games a run may play of each deck version."""
MAX_VERSIONS = 500
"""Versions one studio deck may have."""


class FormInvalid(Exception):
    """A request body the request model refused: pydantic's errors (made small to send back,
    :mod:`cardroom.web.studio_work`), which the server words as it words every refused body."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__("the request is not valid")
        self.errors = errors



def editors() -> dict[str, DeckEditing]:
    """The games the studio edits decks of, by name: each game whose spec has a
    ``deck_editing``, in the registry's order."""
    return {name: spec.load("deck_editing") for name, spec in studio_games().items()}


def studio_games() -> dict[str, GameSpec]:
    """The games whose spec has a ``deck_editing``, by name, in the registry's order: each asked
    of the registry once."""
    specs = {name: games.get(name) for name in games.names()}
    return {name: spec for name, spec in specs.items() if spec.deck_editing is not None}


def _widest(found: Sequence[DeckEditing]) -> tuple[DeckLimits, int]:
    """The largest of the games' deck limits, and of their numbers of marks: what a form's
    fields are bounded by before a game's checker (which says its own limits) reads them."""
    limits = [e.limits for e in found]
    widest = DeckLimits(**{name: max((getattr(one, name) for one in limits), default=0)
                           for name in DeckLimits.__dataclass_fields__})
    return widest, max((len(e.marks) for e in found), default=0)


LIMITS, MOST_MARKS = _widest(list(editors().values()))
"""The bounds of the request models (twice each limit for texts: the checker says the limit)."""

TypeName = Annotated[str, Field(max_length=LIMITS.type * 2)]


class StepForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    step: str = Field(max_length=40)
    fields: str = Field(default="", max_length=4000)


class ActionForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(default="", max_length=LIMITS.text * 2)
    optional: bool = False
    can_win: bool = True
    on_start: bool = False
    steps: list[StepForm] = Field(default_factory=list, max_length=40)


class CardForm(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    rank: str = Field(max_length=10)
    suit: str = Field(max_length=10)
    name: str = Field(default="", max_length=LIMITS.card_name * 2)
    types: list[TypeName] = Field(default_factory=list, max_length=LIMITS.types)
    marks: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=MOST_MARKS)
    copies: int = 1
    action: ActionForm = Field(default_factory=ActionForm)


class DeckForm(BaseModel):
    """A deck as the studio's form sends it (a :class:`~cardroom.games.contracts.DeckEditing`'s form)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(max_length=LIMITS.name * 2)
    description: str = Field(default="", max_length=LIMITS.description * 2)
    types: list[TypeName] = Field(default_factory=list, max_length=LIMITS.types)
    cards: list[CardForm] = Field(max_length=LIMITS.cards)


class OpenBody(BaseModel):
    """``POST /api/studio/decks``: a project deck by name, or a deck file's text, of a game
    (by default the studio's first)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: str | None = Field(default=None, max_length=40)
    project: str | None = Field(default=None, max_length=100)
    deck_toml: str | None = Field(default=None, max_length=MAX_DECK_BYTES)
    deck_file: str | None = Field(default=None, max_length=100)
    """The uploaded file's name, which its problems are told by."""


class SaveBody(BaseModel):
    """``POST /api/studio/decks/{id}/versions``: the edited form, and the version it was made from."""

    model_config = ConfigDict(extra="forbid", strict=True)
    form: DeckForm
    base: int = Field(ge=1, le=MAX_VERSIONS)


MAX_TUNE_TRIALS = 12
"""The most values a studio ``tune`` run tries."""

TUNE_TOP = 2
"""The best values of a studio ``tune`` run played again on fresh seeds (with the deck's own)."""


class RunSettings(BaseModel):
    """How a run plays: games of each version, players, who plays every seat, the first seed."""

    model_config = ConfigDict(extra="forbid", strict=True)
    games: int = Field(default=100, ge=1, le=MAX_RUN_GAMES)
    players: int = Field(default=4, ge=2, le=10)
    agents: Literal["heuristic", "random"] = "heuristic"
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    param: str | None = Field(default=None, max_length=100)
    """``tune`` only: the number searched, as ``cardroom tune --param`` takes it (``10C.count=1..6``)."""
    target: str | None = Field(default=None, max_length=100)
    """``tune`` only: the goal, as ``cardroom tune --target`` takes it (``decisions=125``)."""
    trials: int = Field(default=6, ge=1, le=MAX_TUNE_TRIALS)
    """``tune`` only: the values tried (each on ``games`` games), before the best are played again."""


class RunBody(BaseModel):
    """``POST /api/studio/runs``: a job of :data:`JOBS` on versions of a studio deck."""

    model_config = ConfigDict(extra="forbid", strict=True)
    kind: str = Field(max_length=20)
    deck: str = Field(max_length=32)
    versions: list[int] = Field(min_length=1, max_length=8)
    settings: RunSettings = Field(default_factory=RunSettings)


class CancelBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    token: str = Field(max_length=100)

