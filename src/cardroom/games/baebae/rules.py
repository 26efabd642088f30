"""BAEBAE's options: frozen and validated, with the deck and the card tables they imply."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from cardroom.cards import bits_of
from cardroom.engine import SPLITMIX, TWISTER, RulesError, check_stream, check_whole
from cardroom.games import GameRules, option
from cardroom.games.baebae.deck import (
    MAX_COPIES,
    CardDef,
    Deck,
    DeckError,
    combine,
    find_deck,
    load_deck,
    parse_deck,
    project_decks,
)
from cardroom.games.baebae.effects import MAX_OPTIONS
from cardroom.text import plural, shorten

if TYPE_CHECKING:
    from cardroom.games.baebae.native import NativeBaebaeState
    from cardroom.games.baebae.state import BaebaeState, Deal
    from cardroom.native import Engine

__all__ = [
    "Rules", "MIN_PLAYERS", "MAX_ROUNDS", "penalty_of", "hand_size_for", "players_for", "read_decks",
    "lowest_of_design",
]

MIN_PLAYERS = 2
MAX_ROUNDS = 100
MAX_HAND = 20
MAX_TURN_LIMIT = 100_000
MAX_ACE_PENALTY = 20
CHOSEN_TARGETS = ("once", "each_step")
"""How a card's action reads several steps aimed at a ``chosen`` player (option ``chosen_target``):
the player is chosen once for the whole action, or each such step asks again."""


@functools.lru_cache(maxsize=16)
def _project_deck(name: str, mtime: float) -> Deck:
    return find_deck(name)


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> Deck:
    # Rules are made again from the same texts (every replay, every table rebuilt): parse once.
    return parse_deck(text, "deck file")


def _deck_part(part: str, given: Mapping[str, Deck]) -> Deck:
    """A part of the ``deck`` option: a project deck by name, or a deck of ``deck_files`` by
    digest, read once while its file (or text) is unchanged."""
    if part in given:
        return given[part]
    path = project_decks().get(part)
    if path is None:
        known = ", ".join(project_decks()) or "none"
        raise DeckError(f"no deck {shorten(part, 60)!r}: give a deck file or one of the project's decks: "
                        f"{known} (a file is read where the game is made: --deck FILE, a table's deck_toml)")
    try:
        mtime = path.stat().st_mtime
    except OSError:
        mtime = 0.0
    return _project_deck(part, mtime)


def read_decks(spec: str, folder: Path | None = None) -> dict[str, Any]:
    """The rule options ``deck`` and ``deck_files`` for a deck option as people write it: project
    deck names and deck files (relative to ``folder``, else the working folder), by commas.

    This is the edge that may read files: the CLI calls it for ``--deck``, record loading for a
    record written before decks travelled with their records.

    >>> read_decks("sample")
    {'deck': 'sample', 'deck_files': []}

    A deck that cannot be read is a :class:`RulesError` about the option ``deck``, as the rules
    would say it.
    """
    try:
        return _read_decks(spec, folder)
    except DeckError as err:
        raise RulesError(f"deck: {err}") from None


def _read_decks(spec: str, folder: Path | None) -> dict[str, Any]:
    parts: list[str] = []
    texts: list[str] = []
    shipped = project_decks()
    for raw in spec.split(","):
        part = raw.strip()
        if not part or part in shipped or part.startswith("sha256:"):
            if part:
                parts.append(part)
            continue
        path = Path(part).expanduser()
        if folder is not None and not path.exists():
            # A record's deck file beside it: by its relative path, else by its name (a record
            # moved away from the folder it named its deck in, by an absolute path).
            beside = [folder / path] if not path.is_absolute() else []
            found = [p for p in [*beside, folder / path.name] if p.is_file()]
            if found:
                path = found[0]
        if not path.exists():
            raise DeckError(f"no deck {part!r}: give a deck file or one of the project's decks: "
                            f"{', '.join(shipped) or 'none'}")
        deck = load_deck(path)
        parts.append(deck.digest)
        texts.append(deck.text)
    return {"deck": ",".join(parts), "deck_files": texts}


def hand_size_for(players: int, hand_size: int | None = None) -> int:
    """Cards dealt to each player (E2): ``hand_size`` if given, else 7 each with two, else 5."""
    if hand_size is not None:
        return hand_size
    return 7 if players == 2 else 5


def players_for(deck_size: int, hand_size: int | None = None) -> range:
    """The numbers of players a deck of ``deck_size`` cards is enough for (E2: every hand
    dealt, plus a starter card), with ``hand_size`` cards each or the default; empty when it
    is too small for any game.

    >>> players_for(52), players_for(15), players_for(14), players_for(52, hand_size=10)
    (range(2, 11), range(2, 3), range(2, 2), range(2, 6))
    """
    # Each player needs a hand, so a deck holds fewer players than cards; more players never
    # need fewer cards, so the players that fit run from the least up to the first that does not.
    most = MIN_PLAYERS - 1
    while most + 1 < deck_size and (most + 1) * hand_size_for(most + 1, hand_size) + 1 <= deck_size:
        most += 1
    return range(MIN_PLAYERS, most + 1)


def lowest_of_design(mask: int, design: int, card_of: Sequence[int]) -> int | None:
    """The lowest physical card in ``mask`` (a set of physical cards) whose design is
    ``design``, or ``None``: which copy moves when a design is played or chosen."""
    for pid in bits_of(mask):
        if card_of[pid] == design:
            return pid
    return None


_STARTS: dict[bool, Callable[..., Any]] = {}
"""``BaebaeState.start`` (False) and ``NativeBaebaeState.start`` (True), once imported."""


_CHOSEN: list[Callable[[], Engine]] = []
"""``cardroom.native.Engine.chosen``, once imported (that module imports this one's neighbours)."""


def _chosen() -> Callable[[], Engine]:
    from cardroom.native import Engine

    _CHOSEN.append(Engine.chosen)
    return Engine.chosen


def _start_of(native: bool) -> Callable[..., Any]:
    if native:
        from cardroom.games.baebae.native import NativeBaebaeState

        _STARTS[True] = NativeBaebaeState.start
    else:
        from cardroom.games.baebae.state import BaebaeState

        _STARTS[False] = BaebaeState.start
    return _STARTS[native]


def penalty_of(card: CardDef, ace_penalty: int) -> int:
    """Penalty points of a card left in hand (RULINGS E12): 2..9 face, 10 J Q K 10, A option."""
    if card.rank == 1:
        return ace_penalty
    return min(card.rank, 10)


@dataclass(frozen=True)
class Rules(GameRules):
    """BAEBAE's rules, every option named (see ``docs/rules-baebae.md``).

    ``deck`` names project decks (``sample``) and, by their digests (``sha256:...``), the decks
    whose TOML texts are ``deck_files``; several, separated by commas, are shuffled together
    ("add decks and cards"), and ``decks`` copies of the first are used. The rules hold the
    decks' content, never a file's path: :func:`read_decks` reads files where a front may.

    >>> Rules(players=2).hand_size, Rules(players=4).hand_size
    (7, 5)
    """

    game: ClassVar[str] = "baebae"
    title: ClassVar[str] = "BAEBAE"
    text_kinds: ClassVar[Mapping[str, Any]] = {"hand_size": 0}
    readings: ClassVar[Mapping[str, tuple[Any, ...]]] = {
        "chosen_target": ("once", "each_step"), "stream": (TWISTER,)}
    """``chosen_target`` came after records of both readings: "each_step" before Cardroom read a
    chosen player as chosen once per action, "once" since (docs/records.md, "Readings"); a record
    written before ``stream`` existed was dealt on the Twister stream."""

    players: int = 4
    rounds: int = option(3, "Rounds in the game.", label="Rounds", minimum=1, maximum=MAX_ROUNDS)
    ace_penalty: int = option(1, "Penalty points of an ace left in hand.", label="Penalty of an ace",
                              minimum=0, maximum=MAX_ACE_PENALTY)
    draw_when_able: bool = option(False, "A player who can play may draw instead.",
                                  label="Draw when able to play")
    hand_size: int | None = option(
        None, "Cards dealt to each player (by default 7 with two players, else 5).",
        label="Cards dealt", minimum=1, maximum=MAX_HAND, by_players=True)
    decks: int = option(1, "Copies of the deck shuffled together.", label="Decks shuffled together",
                        minimum=1, maximum=MAX_COPIES)
    deck: str = "sample"
    turn_limit: int = option(
        2000, "Turns after which a round stops (a guard against endless rounds).",
        label="Turn limit of a round", minimum=10, maximum=MAX_TURN_LIMIT)
    chosen_target: str = "once"
    stream: str = SPLITMIX
    """The chance stream (docs/records.md, "Chance streams"): ``splitmix`` for new games,
    ``twister`` for the records written before it."""
    """How an action with several steps aimed at a ``chosen`` player reads them: ``once`` (the
    first such step asks, the later ones mean the same player) or ``each_step`` (each asks)."""
    deck_files: tuple[str, ...] = ()
    """The TOML texts of the decks ``deck`` names by digest: a record carries them."""

    deck_data: Deck = field(init=False, repr=False, compare=False)
    chosen_once: bool = field(init=False, repr=False, compare=False)
    """Whether ``chosen_target`` is ``once`` (read by the interpreter at every chosen step)."""
    cards: tuple[CardDef, ...] = field(init=False, repr=False, compare=False)
    card_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The design (index into ``cards``) of each physical card."""
    penalties: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Penalty of each design."""
    max_options: int = field(init=False, repr=False, compare=False)
    # Masks of physical cards, built once so that "what may be played" is bit arithmetic.
    suit_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    rank_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Indexed by rank 1..13 (index 0 unused)."""
    wild_mask: int = field(init=False, repr=False, compare=False)
    """Cards that play on anything: marked wild, or an action that names a suit (E4)."""
    no_win_mask: int = field(init=False, repr=False, compare=False)
    """Cards that may not be a player's last card (E9): cannot win, and not optional."""
    one_copy: bool = field(init=False, repr=False, compare=False)
    """Whether every design has one physical card (then a card's design is its index)."""
    card_texts: tuple[str, ...] = field(init=False, repr=False, compare=False)
    """The text of each physical card (its design's key)."""
    design_of_key: dict[str, int] = field(init=False, repr=False, compare=False)
    """The design of each card text, upper case (``6C``, ``6C#2``)."""

    def __post_init__(self) -> None:
        self.check_options()  # each option's kind, bounds and choices, as declared above
        if self.chosen_target not in CHOSEN_TARGETS:
            raise RulesError(f"chosen_target must be {' or '.join(CHOSEN_TARGETS)}, "
                             f"not {self.chosen_target!r:.40}")
        object.__setattr__(self, "chosen_once", self.chosen_target == "once")
        check_stream(self.stream)
        if not isinstance(self.deck, str) or not self.deck.strip():
            raise RulesError(f"deck must be a deck name (e.g. sample) or a deck file's digest, "
                             f"not {self.deck!r}")
        files = self.deck_files
        if not isinstance(files, list | tuple) or not all(isinstance(t, str) for t in files):
            raise RulesError("deck_files must be a list of deck files' texts")
        object.__setattr__(self, "deck_files", tuple(self.deck_files))
        players = check_whole(self.players, "players", MIN_PLAYERS)
        chosen_hand = self.hand_size
        hand = hand_size_for(players, chosen_hand)
        object.__setattr__(self, "hand_size", hand)
        try:
            given = {d.digest: d for d in map(_parsed, self.deck_files)}
            specs = [p.strip() for p in self.deck.split(",") if p.strip()]
            unused = set(given) - set(specs)
            if unused:
                raise DeckError(f"deck_files holds a deck the deck option does not name ({min(unused)})")
            object.__setattr__(self, "deck", ",".join(specs))
            deck = combine([_deck_part(spec, given) for spec in specs], self.decks)
        except DeckError as err:
            raise RulesError(f"deck: {err}") from None
        need = players * hand + 1
        if deck.size < need:
            fitting = players_for(deck.size, chosen_hand)
            fits = f"at most {fitting[-1]} players" if fitting else "too few cards for any game"
            raise RulesError(
                f"players: {players} players with {plural(hand, 'card')} each need {need} cards; "
                f"the deck {deck.name!r} has {deck.size} ({fits}, or add decks)"
            )
        object.__setattr__(self, "deck_data", deck)
        object.__setattr__(self, "cards", deck.cards)
        object.__setattr__(self, "design_of_key", {c.key.upper(): i for i, c in enumerate(deck.cards)})
        object.__setattr__(
            self, "card_of", tuple(i for i, c in enumerate(deck.cards) for _ in range(c.copies))
        )
        object.__setattr__(self, "card_texts", tuple(deck.cards[d].key for d in self.card_of))
        object.__setattr__(
            self, "penalties", tuple(penalty_of(c, self.ace_penalty) for c in deck.cards)
        )
        object.__setattr__(self, "max_options", MAX_OPTIONS)
        suits = [0] * 4
        ranks = [0] * 14
        wild = no_win = 0
        for pid, design in enumerate(self.card_of):
            card = deck.cards[design]
            bit = 1 << pid
            suits[card.suit] |= bit
            ranks[card.rank] |= bit
            if card.wild or card.declares:
                wild |= bit
            if not card.can_win and not card.optional:
                no_win |= bit
        object.__setattr__(self, "suit_masks", tuple(suits))
        object.__setattr__(self, "rank_masks", tuple(ranks))
        object.__setattr__(self, "wild_mask", wild)
        object.__setattr__(self, "no_win_mask", no_win)
        object.__setattr__(self, "one_copy", len(self.card_of) == len(deck.cards))

    def to_dict(self) -> dict[str, Any]:
        """Every option; ``deck_files`` only when a deck is not built in (then its texts)."""
        options = super().to_dict()
        if self.deck_files:
            options["deck_files"] = list(self.deck_files)
        else:
            del options["deck_files"]
        return options

    def deck_record(self) -> dict[str, Any]:
        """The deck as a record names it: name, content hash, and the ``deck`` option."""
        return {"name": self.deck_data.name, "digest": self.deck_data.digest, "spec": self.deck}

    def new_game(
        self, seed: int = 0, *, deal: Deal | None = None, totals: Sequence[int] | None = None,
        engine: Engine | None = None,
    ) -> BaebaeState | NativeBaebaeState:
        """A new game; every shuffle and coin comes from ``seed``.

        ``deal`` and ``totals`` start it from a hand-made first round and running totals.
        The game runs on ``engine``, by default the one chosen now (``CARDROOM_ENGINE``,
        :class:`cardroom.native.Engine`).
        """
        # The engine's two starts, imported on first use (each on its path) and kept: the
        # import statements cost as much as the choice at every new game.
        native = (engine or (_CHOSEN[0] if _CHOSEN else _chosen())()).plays(self.spec)
        start = _STARTS.get(native) or _start_of(native)
        return start(self, seed, deal=deal, totals=totals)  # type: ignore[no-any-return]
