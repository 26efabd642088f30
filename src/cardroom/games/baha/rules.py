"""Baha's options: a frozen, validated set of named variants, and the tables they imply."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from cardroom.cards import Card, CardMask, mask_of
from cardroom.engine import SPLITMIX, TWISTER, RulesError, check_stream, check_whole
from cardroom.games import GameRules, option
from cardroom.games.baha.cards import BAHA_DECK, VALUES, horns_of, mask_points, value_of

if TYPE_CHECKING:
    from cardroom.games.baha.native import NativeBahaState
    from cardroom.games.baha.state import BahaState
    from cardroom.native import Engine

__all__ = ["Rules", "Deal", "SCORINGS", "MIN_PLAYERS", "MAX_PLAYERS", "MAX_TARGET"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6
MAX_TARGET = 10_000
SCORINGS = ("horns", "face")
PASS_COUNT = 3
DRAW_PILE_HAND = 13

# Horns on the face of a card (RULINGS B2): 9..13 carry 1..5, lower cards none.
_HORNS = tuple(horns_of(c) for c in BAHA_DECK)
_FACE = tuple(value_of(c) if value_of(c) >= 9 else 0 for c in BAHA_DECK)


def _slice_points(points: tuple[int, ...]) -> tuple[int, ...]:
    """Points of every 13-bit colour slice (a colour's cards score alike in every colour)."""
    return tuple(
        sum(points[v] for v in range(VALUES) if bits >> v & 1) for bits in range(1 << VALUES)
    )


_SLICE_POINTS = {"horns": _slice_points(_HORNS), "face": _slice_points(_FACE)}


@dataclass(frozen=True)
class Deal:
    """A hand-made deal for the first hand, e.g. for a test or a puzzle.

    Cards are given as ints or text (``"9P"``); every one of the 52 cards must appear once
    across ``hands``, ``leftover`` and ``draw_pile`` (top first).
    """

    hands: Sequence[Sequence[Card | str]]
    leftover: Sequence[Card | str] = ()
    draw_pile: Sequence[Card | str] = ()
    dealer: int = 0


@dataclass(frozen=True)
class Rules(GameRules):
    """Baha's rules, every option named (see ``docs/rules-baha.md``).

    >>> Rules(players=3).hand_size, Rules(players=3).leftover_count
    (17, 1)
    >>> Rules(players=2).draw_pile
    True
    >>> Rules(players=7)
    Traceback (most recent call last):
    ...
    cardroom.engine.RulesError: players must be a whole number from 2 to 6, not 7
    """

    game: ClassVar[str] = "baha"
    title: ClassVar[str] = "Baha"
    text_kinds: ClassVar[Mapping[str, Any]] = {"draw_pile": False}
    readings: ClassVar[Mapping[str, tuple[Any, ...]]] = {"stream": (TWISTER,)}
    """A record written before ``stream`` existed was dealt on the Twister stream."""

    players: int = 4
    scoring: str = option(
        "horns", "How taken cards score: horns (9 to 13 carry 1 to 5) or face value of 9 and up.",
        label="Scoring", choices=SCORINGS)
    passing: bool = option(True, "Pass three cards before each hand (right, left, keep).", label="Passing")
    moon: bool = option(
        True, "Shooting the moon: whoever takes every point gives the hand's points to everyone else.",
        label="Shooting the moon")
    target: int = option(
        100, "The game ends when a total reaches this many points; the lowest total wins.",
        label="Points that end the game", minimum=1, maximum=MAX_TARGET)
    draw_pile: bool | None = option(
        None, "Draw-pile variant for 2 or 3 players (by default on for 2 players, off for 3).",
        label="Draw pile (2 or 3 players)", by_players=True)
    random_dealer: bool = option(False, "Choose the first dealer at random.", label="Random first dealer")
    stream: str = SPLITMIX
    """The chance stream (docs/records.md, "Chance streams"): ``splitmix`` for new games,
    ``twister`` for the records written before it."""

    points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    point_mask: CardMask = field(init=False, repr=False, compare=False)
    points_per_hand: int = field(init=False, repr=False, compare=False)
    slice_points: tuple[int, ...] = field(init=False, repr=False, compare=False)
    hand_size: int = field(init=False, repr=False, compare=False)
    leftover_count: int = field(init=False, repr=False, compare=False)
    draw_pile_count: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = check_whole(self.players, "players", MIN_PLAYERS, MAX_PLAYERS)
        self.check_options()  # each option's kind, bounds and choices, as declared above
        check_stream(self.stream)
        draw_pile = self.draw_pile
        if draw_pile is None:
            draw_pile = players == 2  # RULINGS B10: the rule for two players
            object.__setattr__(self, "draw_pile", draw_pile)
        if draw_pile and players > 3:
            raise RulesError(f"draw_pile is for 2 or 3 players, not {players}")

        points = _HORNS if self.scoring == "horns" else _FACE
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "point_mask", mask_of(c for c in BAHA_DECK if points[c]))
        object.__setattr__(self, "points_per_hand", sum(points))
        object.__setattr__(self, "slice_points", _SLICE_POINTS[self.scoring])
        hand_size = DRAW_PILE_HAND if draw_pile else len(BAHA_DECK) // players
        object.__setattr__(self, "hand_size", hand_size)
        object.__setattr__(
            self, "leftover_count", 0 if draw_pile else len(BAHA_DECK) - hand_size * players
        )
        object.__setattr__(
            self, "draw_pile_count", len(BAHA_DECK) - hand_size * players if draw_pile else 0
        )

    # -- derived tables ----------------------------------------------------------------

    def pass_offset(self, hand: int) -> int:
        """Seat offset of the pass in hand number ``hand`` (1-based): +1 right, -1 left, 0 none.

        RULINGS B5: right, left, keep, then the cycle repeats.
        """
        if not self.passing:
            return 0
        return (1, -1, 0)[(hand - 1) % 3]

    def hand_points(self, taken: CardMask) -> int:
        """Points in a set of taken cards."""
        return mask_points(self.slice_points, taken)

    def new_game(
        self,
        seed: int = 0,
        *,
        deal: Deal | None = None,
        totals: Sequence[int] | None = None,
        hand: int = 1,
        engine: Engine | None = None,
    ) -> BahaState | NativeBahaState:
        """A new game; every shuffle comes from ``seed``.

        ``deal``, ``totals`` and ``hand`` start the game from a given first deal, running
        totals and hand number (for tests, puzzles and teaching); later hands are shuffled.
        The game runs on ``engine``, by default the one chosen now (``CARDROOM_ENGINE``,
        :class:`cardroom.native.Engine`).
        """
        from cardroom.native import Engine

        if (engine or Engine.chosen()).plays(self.spec):
            from cardroom.games.baha.native import NativeBahaState

            return NativeBahaState.start(self, seed, deal=deal, totals=totals, hand=hand)
        from cardroom.games.baha.state import BahaState  # imported only on its path: one import a game

        return BahaState.start(self, seed, deal=deal, totals=totals, hand=hand)


