"""Shared helpers of the BAEBAE tests: tiny hand-made decks, hand-made deals, refusals, and a
referee that follows a game from its omniscient log alone.

Decks are written as TOML for precise control: ``make_rules(card("6C", effects=...), ...)``
writes a deck holding the given cards plus a plain card (no name, types, marks or action) for
every other rank and suit, and returns ``Rules`` that use it. Deals name every hand in full.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from cardroom.engine import IllegalAction
from cardroom.games.baebae import HIDDEN, Deal, Rules
from cardroom.games.baebae.effects import RANKS, SUITS
from cardroom.games.baebae.rules import read_decks

TYPES = ("Officer", "Rogue", "Critter", "Celebrity")
ALL_KEYS = [f"{r}{s}" for s in SUITS for r in RANKS]
CARD_TEXT = re.compile(r'"((?:10|[2-9AJQK])[CDHS](?:#\d+)?)"')
_DECK_DIR = Path(tempfile.mkdtemp(prefix="baebae-test-decks-"))
atexit.register(shutil.rmtree, _DECK_DIR, ignore_errors=True)


# -- decks ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Card:
    """One ``[[card]]`` of a test deck, as TOML."""

    key: str
    toml: str


def card(
    key: str,
    *,
    name: str = "",
    types: tuple[str, ...] | list[str] = (),
    marks: tuple[str, ...] | list[str] = (),
    effects: str | None = None,
    text: str | None = None,
    optional: bool | None = None,
    can_win: bool | None = None,
    on_start: bool | None = None,
    copies: int | None = None,
) -> Card:
    """A card design; ``effects`` is the TOML of its effects list, e.g. ``'[{step = "reverse"}]'``."""
    lines = ["[[card]]", f'rank = "{key[:-1]}"', f'suit = "{key[-1]}"']
    if name:
        lines.append(f"name = {json.dumps(name)}")
    if types:
        lines.append(f"types = {json.dumps(list(types))}")
    if marks:
        lines.append(f"marks = {json.dumps(list(marks))}")
    if copies is not None:
        lines.append(f"copies = {copies}")
    flags = {"optional": optional, "can_win": can_win, "on_start": on_start}
    if effects is not None or text is not None or any(v is not None for v in flags.values()):
        lines.append("[card.action]")
        lines.append(f"text = {json.dumps(text or 'A test action.')}")
        if effects is not None:
            lines.append(f"effects = {effects}")
        for flag, value in flags.items():
            if value is not None:
                lines.append(f"{flag} = {str(value).lower()}")
    return Card(key, "\n".join(lines))


def deck_text(*cards: Card | str, name: str = "Test Deck", types: tuple[str, ...] = TYPES,
              plain: bool = True) -> str:
    """A deck file: the given cards, then (``plain``) a plain card of every other rank and suit."""
    out = [f"name = {json.dumps(name)}", f"types = {json.dumps(list(types))}", ""]
    used = {c.key for c in cards if isinstance(c, Card)}
    for c in cards:
        out += [c.toml if isinstance(c, Card) else c, ""]
    if plain:
        for key in ALL_KEYS:
            if key not in used:
                out += ["[[card]]", f'rank = "{key[:-1]}"', f'suit = "{key[-1]}"', ""]
    return "\n".join(out)


def write_deck(text: str, stem: str = "deck") -> Path:
    """The deck text in a file of its own (named by its content, so a cached read is right)."""
    path = _DECK_DIR / f"{stem}-{hashlib.sha256(text.encode()).hexdigest()[:16]}.toml"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return path


def make_rules(*cards: Card | str, plain: bool = True, types: tuple[str, ...] = TYPES,
               **options: Any) -> Rules:
    """Rules whose deck is the given cards (plus plain fillers)."""
    path = write_deck(deck_text(*cards, plain=plain, types=types))
    return Rules(**read_decks(str(path)), **options)


def start(rules: Rules, hands: list[str], starter: str, stock: str = "", *, dealer: int = 0,
          seed: int = 0, totals: list[int] | None = None):
    """A game whose first round is dealt by hand: ``hands`` as ``"6C 7D"`` strings, every seat."""
    deal = Deal(hands=[h.split() for h in hands], starter=starter, stock=stock.split(), dealer=dealer)
    return rules.new_game(seed, deal=deal, totals=totals)


# -- driving and inspecting ----------------------------------------------------------------


def act(state, *texts: str) -> list[dict]:
    """Take each action (by its text form) in turn, whoever is to act; returns every event."""
    events: list[dict] = []
    for text in texts:
        events += state.apply(state.parse_action(text))
    return events


def legal_texts(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def hand(state, seat: int) -> list[str]:
    return sorted(state.view(seat)["hand"])


def hands(state) -> list[list[str]]:
    return [hand(state, s) for s in range(state.n)]


def of_type(events: list[dict], t: str) -> list[dict]:
    return [e for e in events if e["t"] == t]


def without(events: list[dict], *types: str) -> list[dict]:
    return [e for e in events if e["t"] not in types]


def snapshot(state) -> str:
    """Everything observable: every view and filtered log, the log, legal actions, history."""
    return json.dumps({
        "views": [state.view(s) for s in range(state.n)],
        "logs": [state.view_log(s) for s in range(state.n)],
        "log": state.log,
        "legal": state.legal_actions(),
        "current": state.current_player,
        "phase": state.phase.value,
        "totals": state.totals,
        "history": state.history,
        "hands": state.hands,
        "stock": state.stock,
        "discard": state.discard,
    }, sort_keys=True, default=str)


def refused(state, action: Any, *fragments: str) -> str:
    """``action`` raises IllegalAction, the message holds each fragment, nothing changes."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert snapshot(state) == before
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def card_strings(obj: Any) -> set[str]:
    """Every card text (quoted) anywhere in a JSON-ready object."""
    return set(CARD_TEXT.findall(json.dumps(obj)))


# -- the referee ---------------------------------------------------------------------------


def visible(e: dict, seat: int) -> dict:
    """RULINGS E14 for one event, restated: what ``seat`` may see of it."""
    t = e["t"]

    def hide(cards):
        return [HIDDEN] * len(cards)

    if t == "round":
        return {**e, "hands": [h if s == seat else hide(h) for s, h in enumerate(e["hands"])],
                "stock": hide(e["stock"])}
    if t == "draw":
        return e if e["p"] == seat else {**e, "card": HIDDEN}
    if t == "reshuffle":
        return {**e, "stock": hide(e["stock"])}
    if t == "move":
        public = e["to"] == "discard" or seat in (e["from"], e["to"])
        return e if public else {**e, "cards": hide(e["cards"])}
    if t == "effect" and e["op"] == "peek":
        return e if e["p"] == seat else {**e, "cards": hide(e["cards"])}
    return e


class Referee:
    """Follows a game from its omniscient events alone and checks each against the rules.

    It knows the deck's cards (rank, suit, marks, flags) but nothing of the engine: hands, the
    stockpile (top first), the discard pile, the suit in play, the direction, skips, turns and
    totals are rebuilt from the events, so a card that changes place without an event, or an
    event that breaks a rule, fails here. ``legal()`` restates which cards may be played.
    """

    def __init__(self, rules: Rules, totals: list[int] | None = None) -> None:
        self.rules = rules
        self.n = rules.players
        self.by_key = {c.key: c for c in rules.cards}
        self.design = {c.key: i for i, c in enumerate(rules.cards)}
        self.deck = Counter({c.key: c.copies for c in rules.cards})
        self.totals = list(totals or [0] * self.n)
        self.round_no = 0
        self.dealer: int | None = None
        self.over = False
        self.guard_rounds = 0
        self.must_end: int | None = None  # a hand is empty: the round must end now (E10)
        self.swap_half: list[str] | None = None
        self.must_block = False

    # -- the referee's own reading of the rules

    def penalty(self, key: str) -> int:
        card = self.by_key[key]
        return self.rules.ace_penalty if card.rank == 1 else min(card.rank, 10)

    def matches(self, key: str) -> bool:
        """E4: rank (unless a suit was declared) or suit in play, or wild, or declares."""
        card = self.by_key[key]
        if card.wild or card.declares or card.suit == self.suit:
            return True
        return not self.declared and card.rank == self.by_key[self.discard[-1]].rank

    def playable(self, seat: int) -> list[str]:
        held = self.hands[seat]
        last = sum(held.values()) == 1
        out = []
        for key in held:
            card = self.by_key[key]
            if last and not card.can_win and not card.optional:
                continue  # E9
            if self.matches(key):
                out.append(key)
        return out

    def can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def next_player(self) -> int:
        """Who plays next, without consuming skips."""
        if self.extra:
            return self.prev
        skips = self.skips[:]
        seat = (self.prev + self.direction) % self.n
        for _ in range(self.n * 8):
            if not skips[seat]:
                break
            skips[seat] -= 1
            seat = (seat + self.direction) % self.n
        return seat

    def legal(self, space) -> list[int]:
        """The legal actions at the start of a turn (Phase PLAY)."""
        seat = self.next_player()
        playable = sorted(self.design[k] for k in self.playable(seat))
        if playable and not (self.rules.draw_when_able and self.can_draw()):
            return playable  # a player who can play never passes
        return playable + [space.draw if self.can_draw() else space.pass_]

    # -- following events

    def event(self, e: dict) -> None:
        t = e["t"]
        assert not self.over, f"event after the end: {e}"
        if self.must_end is not None:
            assert t == "round_end" and e["out"] == self.must_end, (e, self.must_end)
        if self.swap_half is not None:
            assert t == "move" and e["why"] == "swap", e
        if self.must_block:
            assert t == "round_end" and e["blocked"] and not e["guard"], e
            self.must_block = False
        getattr(self, "_" + t)(e)

    def _empty_check(self, seat: int) -> None:
        if not self.hands[seat] and self.must_end is None:
            self.must_end = seat

    def _turn_start(self, p: int) -> None:
        """A new turn: check it is the right player's and that the skips logged were due."""
        if self.extra:
            expected, consumed = self.prev, []
        else:
            consumed = []
            seat = (self.prev + self.direction) % self.n
            while self.skips[seat]:
                self.skips[seat] -= 1
                consumed.append(seat)
                seat = (seat + self.direction) % self.n
            expected = seat
        assert self.skipped == consumed, (self.skipped, consumed)
        assert p == expected, f"seat {p} acted, seat {expected} was due"
        self.prev, self.extra, self.skipped = p, False, []
        self.turns += 1

    def _round(self, e):
        n = self.n
        self.round_no += 1
        assert e["n"] == self.round_no
        if self.dealer is None:
            assert 0 <= e["dealer"] < n
        else:
            assert e["dealer"] == (self.dealer + 1) % n  # E2: the deal moves left
        self.dealer = e["dealer"]
        assert [len(h) for h in e["hands"]] == [self.rules.hand_size] * n
        everything = Counter(c for h in e["hands"] for c in h) + Counter(e["stock"]) + Counter([e["starter"]])
        assert everything == self.deck, "the deal is not the deck"
        starter = self.by_key[e["starter"]]
        self.hands = [Counter(h) for h in e["hands"]]
        self.stock = list(e["stock"])  # top first
        self.discard = [e["starter"]]
        self.suit = starter.suit
        assert e["suit"] == SUITS[starter.suit]  # E3: the starter's printed suit, even a wild's
        self.declared = False
        self.direction = 1
        assert e["direction"] == 1  # direction resets each round
        self.skips = [0] * n
        self.skipped: list[int] = []
        self.extra = False
        self.round_pens = [0] * n
        self.prev = self.dealer  # E2: the player left of the dealer starts
        self.phase = "between"
        self.actor: int | None = None
        self.drawn: str | None = None
        self.idle: set[int] = set()  # seats that passed with nothing to draw since a play or draw
        self.turns = 0
        self.must_end = None

    def _play(self, e):
        p, key = e["p"], e["card"]
        assert self.hands[p][key] > 0, f"seat {p} plays {key} it does not hold"
        if e["under"]:  # E11: under the action card, which stays on top
            assert self.phase == "acting" and p == self.actor
            self.hands[p][key] -= 1
            self.hands[p] += Counter()
            self.discard.insert(len(self.discard) - 1, key)
        else:
            if self.phase == "drawn":
                assert p == self.prev and key == self.drawn, "only the card drawn may be played"
            else:
                assert self.phase in ("between", "acting"), self.phase
                self._turn_start(p)
                assert key in self.playable(p), f"{key} may not be played on {self.discard[-1]}"
            self.hands[p][key] -= 1
            self.hands[p] += Counter()
            self.discard.append(key)
            self.suit = self.by_key[key].suit
            self.declared = False
            self.idle = set()
            self.phase = "acting"
            self.actor = p
        self._empty_check(p)

    def _draw(self, e):
        p, key = e["p"], e["card"]
        assert self.stock and self.stock[0] == key, "a draw takes the stockpile's top card"
        if e["forced"]:
            assert self.phase == "acting"
        else:
            assert self.phase in ("between", "acting")
            self._turn_start(p)
            if not self.rules.draw_when_able:
                assert not self.playable(p), "a player who can play may not draw (E5)"
            self.idle = set()
        self.stock.pop(0)
        self.hands[p][key] += 1
        if not e["forced"]:
            self.phase = "drawn" if self.matches(key) else "drawn_dead"
            self.drawn = key

    def _pass(self, e):
        p = e["p"]
        if self.phase in ("drawn", "drawn_dead"):
            assert p == self.prev
        else:
            assert self.phase in ("between", "acting")
            self._turn_start(p)
            assert not self.can_draw(), "a pass at the start of a turn only with nothing to draw"
            assert not self.playable(p), "a player who can play does not pass"
            self.idle.add(p)
            self.must_block = len(self.idle) == self.n  # E6: the round is blocked now
        self.phase = "between"
        self.drawn = None

    def _reshuffle(self, e):
        assert not self.stock, "a reshuffle only when the stockpile is empty (E6)"
        assert len(self.discard) > 1
        assert Counter(e["stock"]) == Counter(self.discard[:-1]), "every discard but the top"
        self.stock = list(e["stock"])
        self.discard = self.discard[-1:]

    def _move(self, e):
        src, dst, cards, why = e["from"], e["to"], e["cards"], e["why"]
        moved = Counter(cards)
        assert cards and moved <= self.hands[src], f"{src} does not hold {cards}"
        assert self.phase == "acting"
        self.hands[src] -= moved
        if why == "swap":
            if self.swap_half is None:
                assert not self.hands[src], "a swap moves the whole hand"
                self.swap_half = cards
            else:
                assert self.hands[src] == Counter(self.swap_half), "the other half of the swap"
                self.swap_half = None
            self.hands[dst] += moved
            return
        if dst == "discard":
            assert why == "discard"
            for key in cards:
                self.discard.insert(len(self.discard) - 1, key)
        else:
            assert why in ("give", "take") and dst != src
            if why == "take":
                assert dst == self.actor
            self.hands[dst] += moved
        self._empty_check(src)

    def _declare(self, e):
        assert self.phase == "acting" and e["p"] == self.actor
        card = self.by_key[self.discard[-1]]
        assert card.wild or card.declares
        self.suit = SUITS.index(e["suit"])
        self.declared = True

    def _coin(self, e):
        assert self.phase == "acting" and e["p"] == self.actor
        assert e["result"] in ("heads", "tails")

    def _skip(self, e):
        assert self.phase in ("between", "acting")
        self.skipped.append(e["p"])

    def _reverse(self, e):
        assert self.phase == "acting"
        assert e["direction"] == -self.direction
        self.direction = e["direction"]

    def _penalty(self, e):
        assert self.phase == "acting"
        self.round_pens[e["p"]] += e["points"]

    def _effect(self, e):
        op = e["op"]
        if op == "on_start":
            starter = self.by_key[self.discard[0]]
            assert len(self.discard) == 1 and e["card"] == starter.key
            assert starter.on_start and starter.effects and e["p"] == self.dealer
            self.phase = "acting"
            self.actor = self.dealer
            return
        assert self.phase == "acting"
        if op == "optional":
            assert e["p"] == self.actor and self.by_key[e["card"]].optional
            assert e["card"] == self.discard[-1]
        elif op == "choose":
            assert e["p"] == self.actor
        elif op == "skip":
            self.skips[e["who"]] += 1
        elif op == "play_again":
            assert e["p"] == self.actor
            self.extra = True
        elif op == "peek":
            assert e["p"] == self.actor != e["who"]
            assert Counter(e["cards"]) == self.hands[e["who"]], "a peek shows the whole hand"
        elif op == "target":
            assert e["p"] == self.actor != e["who"], "the card's player chooses another player"
        else:
            raise AssertionError(f"unknown effect {op}")

    def _round_end(self, e):
        n = self.n
        assert e["n"] == self.round_no
        out = e["out"]
        if e["guard"]:
            assert e["blocked"] and out is None
            assert self.turns >= self.rules.turn_limit, "the guard stops only long rounds"
            self.guard_rounds += 1
        elif out is None:
            assert e["blocked"]
            assert len(self.idle) == n, "blocked only when every player passed with nothing to draw"
        else:
            assert not e["blocked"] and not self.hands[out]
            assert self.must_end == out
        assert [Counter(h) for h in e["hands"]] == [+h for h in self.hands]
        assert sum(not h for h in self.hands) <= 1
        penalties = [sum(self.penalty(k) * c for k, c in self.hands[s].items()) + self.round_pens[s]
                     for s in range(n)]
        assert e["penalties"] == penalties
        self.totals = [a + b for a, b in zip(self.totals, penalties, strict=True)]
        assert e["totals"] == self.totals
        self.must_end = None
        self.phase = "over"

    def _end(self, e):
        totals = self.totals
        assert self.round_no == self.rules.rounds
        assert e["totals"] == totals
        assert e["guard_rounds"] == self.guard_rounds
        ranking = sorted(range(self.n), key=lambda s: (totals[s], s))
        assert [r["seat"] for r in e["ranking"]] == ranking
        for r in e["ranking"]:
            assert r["total"] == totals[r["seat"]]
            assert r["place"] == 1 + sum(t < totals[r["seat"]] for t in totals)
        worst = max(totals)
        expected = [] if worst == min(totals) else [s for s in range(self.n) if totals[s] == worst]
        assert e["shame"] == expected
        self.over = True

    def check_state(self, state) -> None:
        """The rebuilt hands and piles are the state's (texts, compared as multisets)."""
        if self.over:
            return
        for seat in range(self.n):
            assert Counter(state.view(seat)["hand"]) == +self.hands[seat], seat
        view = state.view(0)
        assert view["discard"] == self.discard
        assert [state.card_text(p) for p in reversed(state.stock)] == self.stock
        assert view["direction"] == self.direction
        assert view["suit"] == SUITS[self.suit] and view["declared"] == self.declared
        assert view["round_penalties"] == self.round_pens


def audit(state, totals: list[int] | None = None) -> Referee:
    """Run the referee over ``state``'s whole log and check it ends where the state is."""
    referee = Referee(state.rules, totals)
    for e in state.log:
        referee.event(e)
    referee.check_state(state)
    for seat in range(state.n):
        assert state.view_log(seat) == [visible(e, seat) for e in state.log]
    return referee


# -- random rules for the properties ----------------------------------------------------


# Cards the sample deck has few of: group discards and gives, takes of two, choices on start,
# declaring wilds, optional cards that cannot win, skips of everyone. Shuffled in with the
# sample deck, their rank and suit repeat the sample's, so they also play as 6C#2 and the like.
EXTRAS = deck_text(
    card("6C", name="Juggling Twins", types=["Rogue"], text="Everyone puts two cards under this card.",
         effects='[{step = "discard", who = "all", count = 2}]'),
    card("7D", name="Collection Plate", text="Every other player gives you a card.",
         effects='[{step = "give", who = "others", to = "self"}]'),
    card("8C", name="Magpie", marks=["wild"], types=["Critter"], text="Take two cards from a player you choose; name the suit.",
         effects='[{step = "take", who = "chosen", count = 2}, {step = "declare_suit"}]'),
    card("QH", name="Town Fair", on_start=True, text="Choose: all draw, or all skip, or a coin.",
         effects='[{step = "choose", options = [{label = "All draw", effects = [{step = "draw", who = "all"}]}, '
                 '{label = "All skip", effects = [{step = "skip", who = "all"}]}, '
                 '{label = "Coin", effects = [{step = "coin", heads = [{step = "penalty", who = "all", points = -1}], '
                 'tails = [{step = "choose", options = [{label = "Peek", effects = [{step = "peek", who = "previous"}]}, '
                 '{label = "Swap", effects = [{step = "swap_hands", who = "chosen"}]}]}]}]}]}]'),
    card("2S", name="Lucky Dip", optional=True, can_win=False, marks=["wild", "skip"], on_start=True,
         text="Optional: the chosen player draws three.", effects='[{step = "draw", who = "chosen", count = 3}]'),
    card("9D", name="Hermit", marks=["reverse"], text="You lose your next turn; play again.",
         effects='[{step = "skip", who = "self"}, {step = "play_again"}]'),
    card("JS", name="Sweeper", text="Put up to three cards under this card.", copies=2,
         effects='[{step = "discard_under", count = 3}]'),
    card("5H", name="Tithe", text="Players holding a heart give the previous player a heart.",
         effects='[{step = "give", who = {holding = {suits = ["H"]}}, to = "previous", filter = {suits = ["H"]}}]'),
    name="Awkward Extras", types=("Rogue", "Critter"), plain=False,
)
EXTRAS_PATH = write_deck(EXTRAS, "extras")
DECKS = ["sample", f"sample,{EXTRAS_PATH}"]
DECK_OPTIONS = {deck: read_decks(deck) for deck in DECKS}  # files read once, not per example
TURN_LIMITS = st.sampled_from([2000, 2000, 2000, 10, 25])  # mostly no guard, sometimes a tight one


@st.composite
def rule_sets(draw, turn_limits=TURN_LIMITS):
    """Any valid rules: the sample deck or it with the extras, one or two decks, 2 to 8 players,
    every option drawn; short games (1 to 3 rounds) keep the properties fast."""
    deck = draw(st.sampled_from(DECKS))
    decks = draw(st.sampled_from([1, 1, 2]))
    players = draw(st.integers(min_value=2, max_value=8))
    size = 52 * decks + (9 if deck != "sample" else 0)
    hand = draw(st.sampled_from([None, None, 1, 2, 3, 7]))
    default = 7 if players == 2 else 5
    if players * (hand or default) + 1 > size:
        hand = None
    if players * (hand or default) + 1 > size:
        decks = 2
    return Rules(
        players=players, decks=decks, **DECK_OPTIONS[deck], hand_size=hand,
        rounds=draw(st.integers(min_value=1, max_value=3)),
        ace_penalty=draw(st.sampled_from([0, 1, 1, 5])),
        draw_when_able=draw(st.booleans()),
        turn_limit=draw(turn_limits),
    )


# -- random valid decks ---------------------------------------------------------------


def _filter_toml(draw) -> str:
    """A valid card filter, as TOML: one or two fields, each with one or two values."""
    fields = draw(st.lists(st.sampled_from(["types", "suits", "ranks", "marks"]), min_size=1, max_size=2,
                           unique=True))
    choices = {"types": ["Officer", "Rogue"], "suits": list("CDHS"), "ranks": ["A", "5", "9", "K"],
               "marks": ["skip", "wild", "reverse"]}
    parts = [f"{f} = {json.dumps(draw(st.lists(st.sampled_from(choices[f]), min_size=1, max_size=2)))}"
             for f in fields]
    return "{" + ", ".join(parts) + "}"


@st.composite
def step_tomls(draw, depth: int = 0):
    """A valid step of the action language, as TOML, with every argument it may take."""
    ops = ["draw", "discard", "discard_under", "give", "take", "swap_hands", "skip", "reverse",
           "play_again", "peek", "penalty"] + (["coin", "choose"] if depth < 2 else [])
    op = draw(st.sampled_from(ops))
    group = st.sampled_from(['"self"', '"next"', '"previous"', '"chosen"', '"others"', '"all"', "HOLD"])
    single = st.sampled_from(['"self"', '"next"', '"previous"', '"chosen"'])
    args = []

    def who(strategy):
        value = draw(strategy)
        return "{holding = " + _filter_toml(draw) + "}" if value == "HOLD" else value

    if op in ("draw", "discard", "give", "skip", "penalty"):
        args.append(f"who = {who(group)}")
    if op in ("take", "swap_hands", "peek"):
        args.append(f"who = {who(single)}")
    if op == "give":
        args.append(f"to = {draw(single)}")
    if op in ("draw", "discard", "discard_under", "give", "take"):
        args.append(f"count = {draw(st.integers(1, 3))}")
    if op in ("discard", "discard_under", "give", "take") and draw(st.booleans()):
        args.append(f"filter = {_filter_toml(draw)}")
    if op == "penalty":
        args.append(f"points = {draw(st.sampled_from([-3, -1, 1, 2, 5]))}")
    if op == "coin":
        heads = draw(st.lists(step_tomls(depth + 1), min_size=1, max_size=2))
        tails = draw(st.lists(step_tomls(depth + 1), max_size=2))
        args.append(f"heads = [{', '.join(heads)}]")
        args.append(f"tails = [{', '.join(tails)}]")
    if op == "choose":
        options = draw(st.lists(st.lists(step_tomls(depth + 1), max_size=2), min_size=2, max_size=3))
        args.append("options = [" + ", ".join(
            f'{{label = "Option {i}", effects = [{", ".join(o)}]}}' for i, o in enumerate(options)) + "]")
    return "{" + ", ".join([f'step = "{op}"', *args]) + "}"


@st.composite
def random_decks(draw) -> str:
    """A valid deck: up to 14 cards with random types, marks, flags and actions, plus plain cards."""
    specials = []
    for key in draw(st.lists(st.sampled_from(ALL_KEYS), min_size=1, max_size=14, unique=True)):
        steps = draw(st.lists(step_tomls(), max_size=3))
        if draw(st.integers(0, 5)) == 0:
            steps.insert(0, '{step = "declare_suit"}')
        flags = {}
        if steps:
            flags = {"optional": draw(st.booleans()), "can_win": draw(st.booleans()),
                     "on_start": draw(st.booleans())}
        specials.append(card(
            key, types=draw(st.lists(st.sampled_from(["Officer", "Rogue"]), max_size=2, unique=True)),
            marks=draw(st.lists(st.sampled_from(["skip", "wild", "reverse"]), max_size=2, unique=True)),
            effects=f"[{', '.join(steps)}]" if steps else None, copies=draw(st.sampled_from([None, 1, 2])),
            **flags))
    return deck_text(*specials, name="Random", types=("Officer", "Rogue"))


def check_cards_once(state) -> None:
    """Every physical card in exactly one place: a hand, the stockpile or the discard pile."""
    places = [*state.hands, *(1 << p for p in state.stock), *(1 << p for p in state.discard)]
    union = 0
    for mask in places:
        assert union & mask == 0, "a card is in two places"
        union |= mask
    assert union == (1 << len(state.rules.card_of)) - 1, "a card went missing"
    assert sum(m.bit_count() for m in places) == len(state.rules.card_of)
