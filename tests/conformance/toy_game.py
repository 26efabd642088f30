"""High card: a toy game that only the tests register, to prove that adding a game is local.

Sixteen cards, ``H1`` to ``H16``. Each deal gives every player ``hand_size`` cards (the rest
stay face down, unseen); in each trick everyone plays one card, in any order of cards, and the
highest takes the trick and a point, and leads the next. After ``hands`` deals the most points
wins (no winner on a tie). It is played with a deck: a set of those cards, a project deck
(``full``, ``odd``) or a deck file (the cards' names, ``H1 H3 H5 ...``, a ``#`` line its title).
Everything Cardroom knows of the game is in this file: its rules, its state (the whole State
protocol), its decks (a :class:`~cardroom.games.contracts.DeckSupport`) and its
:class:`GameSpec`; ``cardroom deck`` and the web table's catalog offer its decks unchanged.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cardroom.engine import (
    Action,
    ActionInfo,
    CardroomInputError,
    Event,
    IllegalAction,
    RulesError,
    chance_rng,
    check_seed,
)
from cardroom.games import GameInfo, GameRules, GameSpec, OptionSpec
from cardroom.games.contracts import DeckInfo

DECK = 16
HIDDEN = "?"
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def text(card: int) -> str:
    return f"H{card + 1}"


# -- its decks -------------------------------------------------------------------------------

class ToyDeckError(CardroomInputError):
    """A high card deck that cannot be used; the message says why."""


@dataclass(frozen=True)
class ToyDeck:
    title: str
    cards: tuple[int, ...]

    @property
    def digest(self) -> str:
        return "sha256:" + hashlib.sha256(" ".join(map(text, self.cards)).encode()).hexdigest()


PROJECT_DECKS = {"full": ToyDeck("All sixteen", tuple(range(DECK))),
                 "odd": ToyDeck("Odd cards", tuple(range(0, DECK, 2)))}


def parse_toy_deck(words: str, where: str) -> ToyDeck:
    """A deck file's text: its ``#`` line the title, the rest the cards' names."""
    title, names = where, []
    for line in str(words).splitlines():
        if line.startswith("#"):
            title = line[1:].strip() or title
        else:
            names += line.split()
    known = {text(c): c for c in range(DECK)}
    bad = [n for n in names if n.upper() not in known]
    if bad:
        raise ToyDeckError(f"{where}: {', '.join(bad[:5])} {'is' if len(bad) == 1 else 'are'} not high cards: "
                           f"write H1 to H{DECK}")
    cards = sorted({known[n.upper()] for n in names})
    if len(cards) != len(names):
        raise ToyDeckError(f"{where}: a card is named twice; a deck holds each card once")
    if len(cards) < MIN_PLAYERS:
        raise ToyDeckError(f"{where}: {len(cards)} cards; a deck needs at least {MIN_PLAYERS}")
    return ToyDeck(title, tuple(cards))


class ToyDecks:
    """High card's :class:`~cardroom.games.contracts.DeckSupport`."""

    error: type[CardroomInputError] = ToyDeckError
    default = "full"

    def __reduce__(self) -> str:
        return "DECKS"

    def names(self) -> list[str]:
        return list(PROJECT_DECKS)

    def _deck(self, name: str) -> ToyDeck:
        if name in PROJECT_DECKS:
            return PROJECT_DECKS[name]
        path = Path(name)
        if not path.is_file():
            raise ToyDeckError(f"{name!r} is neither a project deck ({', '.join(PROJECT_DECKS)}) nor a deck file")
        return parse_toy_deck(path.read_text(encoding="utf-8"), name)

    def _info(self, name: str, deck: ToyDeck) -> DeckInfo:
        return DeckInfo(name=name, title=deck.title, size=len(deck.cards), digest=deck.digest,
                        designs=len(deck.cards), players=(MIN_PLAYERS, min(MAX_PLAYERS, len(deck.cards))))

    def find(self, name: str) -> DeckInfo:
        return self._info(name, self._deck(name))

    def parse(self, words: str, where: str) -> DeckInfo:
        deck = parse_toy_deck(words, where)
        return self._info(deck.digest, deck)

    def rows(self, name: str) -> list[dict[str, Any]]:
        return [{"key": text(c), "name": f"high card {c + 1}", "copies": 1, "text": ""} for c in self._deck(name).cards]

    def design_rows(self, rules: Any) -> list[dict[str, Any]]:
        return [{"key": text(c), "name": f"high card {c + 1}", "copies": 1, "text": ""} for c in rules.cards]

    def read(self, spec: str, folder: Path | None) -> dict[str, Any]:
        if spec in PROJECT_DECKS:
            return {"deck": spec}
        path = Path(spec) if folder is None else folder / spec
        deck_text = path.read_text(encoding="utf-8") if path.is_file() else None
        if deck_text is None:
            raise ToyDeckError(f"{spec!r} is neither a project deck ({', '.join(PROJECT_DECKS)}) nor a deck file")
        return {"deck": parse_toy_deck(deck_text, spec).digest, "deck_files": [deck_text]}

    def path(self, name: str) -> Path | None:
        return None  # the project's decks are written in this file, not in files of their own


DECKS = ToyDecks()


@dataclass(frozen=True)
class Rules(GameRules):
    game: ClassVar[str] = "highcard"
    title: ClassVar[str] = "high card"

    players: int = 3
    hand_size: int = 3
    hands: int = 2
    deck: str = "full"
    deck_files: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name, low, high in (("players", MIN_PLAYERS, MAX_PLAYERS), ("hand_size", 1, 5), ("hands", 1, 5)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RulesError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
        object.__setattr__(self, "deck_files", tuple(self.deck_files))
        size = len(self._deck().cards)
        if self.players * self.hand_size > size:
            raise RulesError(f"{self.players} hands of {self.hand_size} need more than the deck's {size} cards")

    def _deck(self) -> ToyDeck:
        if self.deck in PROJECT_DECKS:
            return PROJECT_DECKS[self.deck]
        for words in self.deck_files:
            deck = parse_toy_deck(words, "deck_files")
            if deck.digest == self.deck:
                return deck
        raise RulesError(f"deck must be a project deck ({', '.join(PROJECT_DECKS)}) or the digest of a deck "
                         f"file given, not {self.deck!r:.60}")

    @property
    def cards(self) -> tuple[int, ...]:
        return self._deck().cards

    def deck_record(self) -> dict[str, Any]:
        deck = self._deck()
        return {"name": self.deck if self.deck in PROJECT_DECKS else deck.title, "digest": deck.digest,
                "spec": self.deck}

    def new_game(self, seed: int) -> HighCardState:
        check_seed(seed)
        return HighCardState(self, seed)


class HighCardState:
    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules, self.seed, self.n = rules, seed, rules.players
        self.points = [0] * self.n
        self.deal_points = [0] * self.n
        self.log: list[Event] = []
        self.history: list[tuple[int, Action]] = []
        self.origin = None
        self.winner: int | None = None
        self.deal_no = 0
        self._deal()

    # -- the rules ---------------------------------------------------------------------

    def _deal(self) -> None:
        self.deal_no += 1
        deck = list(self.rules.cards)
        chance_rng(self.seed, "deal", self.deal_no).shuffle(deck)
        size = self.rules.hand_size
        self.hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(self.n)]
        self.rest = sorted(deck[self.n * size:])
        self.trick: list[tuple[int, int]] = []
        self.turn: int | None = (self.deal_no - 1) % self.n
        self.deal_start = len(self.log)
        self.deal_points = [0] * self.n
        self.log.append({"t": "deal", "n": self.deal_no, "hands": [[text(c) for c in h] for h in self.hands],
                         "rest": [text(c) for c in self.rest]})

    def _play(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.log.append({"t": "play", "p": seat, "card": text(card)})
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return
        taker = max(self.trick, key=lambda play: play[1])[0]
        self.points[taker] += 1
        self.deal_points[taker] += 1
        self.log.append({"t": "trick", "winner": taker, "cards": [text(c) for _, c in self.trick]})
        self.trick, self.turn = [], taker
        if self.hands[taker]:
            return
        self.log.append({"t": "score", "n": self.deal_no, "points": self.deal_points[:], "totals": self.points[:]})
        if self.deal_no < self.rules.hands:
            self._deal()
            return
        best = max(self.points)
        self.winner = self.points.index(best) if self.points.count(best) == 1 else None
        self.turn = None
        self.log.append({"t": "end", "totals": self.points[:], "winner": self.winner})

    # -- the State protocol --------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.turn is None

    @property
    def scores(self) -> list[int]:
        return self.points[:]

    @property
    def deal_number(self) -> int:
        return self.deal_no

    def legal_actions(self) -> list[Action]:
        return [] if self.turn is None else list(self.hands[self.turn])

    def illegal_reason(self, action: Action) -> str | None:
        if type(action) is not int:
            return f"an action is a whole number from 0 to {DECK - 1}, not {action!r}"
        if self.turn is None:
            return "the game is over: no action can be taken"
        if action not in self.hands[self.turn]:
            allowed = ", ".join(text(c) for c in self.hands[self.turn])
            shown = text(action) if 0 <= action < DECK else str(action)
            return f"you do not hold {shown}; allowed: {allowed}"
        return None

    def apply(self, action: Action) -> list[Event]:
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        assert self.turn is not None
        mark = len(self.log)
        self.history.append((self.turn, action))
        self._play(self.turn, action)
        return self.log[mark:]

    def clone(self) -> HighCardState:
        other = HighCardState.__new__(HighCardState)
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        for name in ("rest", "trick", "points", "deal_points", "log", "history"):
            setattr(other, name, getattr(self, name)[:])
        return other

    def visible_event(self, event: Event, seat: int) -> Event:
        if event["t"] != "deal":
            return event
        return {**event, "hands": [h if s == seat else [HIDDEN] * len(h) for s, h in enumerate(event["hands"])],
                "rest": [HIDDEN] * len(event["rest"])}

    def view_log(self, seat: int) -> list[Event]:
        return [self.visible_event(e, seat) for e in self.log]

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.rules.game, "seat": seat, "deal": self.deal_no,
            "hand": [] if seat is None else [text(c) for c in self.hands[seat]],
            "hand_sizes": [len(h) for h in self.hands], "trick": [[p, text(c)] for p, c in self.trick],
            "totals": self.points[:], "current": self.turn, "winner": self.winner,
            "legal_actions": self.legal_actions() if seat is not None and seat == self.turn else [],
        }

    def view(self, seat: int) -> dict[str, Any]:
        return self._view(seat)

    def public_view(self) -> dict[str, Any]:
        return self._view(None)

    def determinize(self, seat: int, rng: random.Random) -> HighCardState:
        world = self.clone()
        unseen = [c for s in range(self.n) if s != seat for c in self.hands[s]] + self.rest
        rng.shuffle(unseen)
        for s in range(self.n):
            if s != seat:
                size = len(self.hands[s])
                world.hands[s], unseen = sorted(unseen[:size]), unseen[size:]
        world.rest = sorted(unseen)
        played: list[list[str]] = [[] for _ in range(self.n)]
        for e in self.log[self.deal_start:]:
            if e["t"] == "play":
                played[e["p"]].append(e["card"])
        deal = self.log[self.deal_start]
        world.log[self.deal_start] = {**deal, "rest": [text(c) for c in world.rest], "hands": [
            deal["hands"][s] if s == seat else played[s] + [text(c) for c in world.hands[s]]
            for s in range(self.n)]}
        world.seed = rng.getrandbits(63)  # later deals are unknown too
        return world

    def decode(self, action: Action) -> ActionInfo:
        if type(action) is not int or not 0 <= action < DECK:
            raise IllegalAction(f"{action!r} is not a high card action: actions are 0 to {DECK - 1}")
        return ActionInfo("play", card=text(action))

    def action_to_string(self, action: Action) -> str:
        return str(self.decode(action))

    def parse_action(self, words: str) -> Action:
        card = str(words).strip().removeprefix("play").strip().upper()
        names = {text(c): c for c in range(DECK)}
        if card not in names:
            raise IllegalAction(f"{words!r} is not a high card action: write e.g. 'play H7'")
        return names[card]

    def public_action(self, action: Action, seat: int) -> Action:
        return action  # every play is face up

    def returns(self) -> list[float]:
        mean = sum(self.points) / self.n
        return [p - mean for p in self.points]


# -- its entry in the registry ---------------------------------------------------------------


def narrate(event: Event, names: Sequence[str], rules: Any) -> str | None:
    t = event["t"]
    if t == "deal":
        held = "; ".join(f"{names[s]} holds {' '.join(h)}" for s, h in enumerate(event["hands"]) if HIDDEN not in h)
        return f"Deal {event['n']}." + (f" {held}." if held else "")
    if t == "play":
        return f"{names[event['p']]} plays {event['card']}."
    if t == "trick":
        return f"{names[event['winner']]} takes the trick ({' '.join(event['cards'])})."
    if t == "score":
        return f"Deal {event['n']} ends; totals {', '.join(map(str, event['totals']))}."
    if t == "end":
        winner = event["winner"]
        return "Game over: " + ("a tie." if winner is None else f"{names[winner]} wins.")
    return None


def _start(rules: Any, seed: int, start: Mapping[str, Any]) -> HighCardState:
    raise RulesError("a high card game always starts from its seed")


# Named functions, not lambdas: a spec pickles (tests/conformance/test_pickling.py).
def _players() -> tuple[int, int]:
    return MIN_PLAYERS, MAX_PLAYERS


def _num_actions(rules: Any) -> int:
    return DECK


def _deal_points(event: Event) -> list[int] | None:
    return list(event["points"]) if event["t"] == "score" else None


def _result_extras(log: Sequence[Event]) -> dict[str, int]:
    return {}


def _winners(end: Event) -> list[int]:
    best = max(end["totals"])
    return [s for s, t in enumerate(end["totals"]) if t == best]


SPEC = GameSpec(
    name="highcard",
    title="High card",
    summary="Everyone plays a card; the highest takes the trick. A toy game of the tests.",
    rules=Rules,
    options=(
        OptionSpec("hand_size", "int", "Cards dealt to each player.", minimum=1, maximum=5),
        OptionSpec("hands", "int", "Deals in the game.", minimum=1, maximum=5),
    ),
    players=_players,
    start=_start,
    narrate=narrate,
    deal_unit="deal",
    points="tricks",
    info=GameInfo(num_actions=_num_actions, lower_wins=False, capabilities=frozenset({"deck_rules"})),
    deal_points=_deal_points,
    winners=_winners,
    result_extras=_result_extras,
    exploration=1.0,
    decks=DECKS,
)
