"""Properties of random Baha games (hypothesis): every rule checked by an independent referee
that follows the log, every card in one place, no view showing a hidden card, the seed deciding
the deal, and every game ending. What every game must do (illegal actions refused without a
trace, clones, exact replays) is checked for Baha with the others in ``tests/conformance``."""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.baha import HIDDEN, PASS_BASE, Deal, Rules
from cardroom.games.baha.cards import FULL_BAHA_MASK

ALL = [f"{v}{c}" for c in "PRTO" for v in range(1, 14)]
ORDER = {text: i for i, text in enumerate(ALL)}
QUOTED_CARD = re.compile(r'"((?:1[0-3]|[1-9])[PRTO])"')
MAX_HANDS = 60  # far more than any of these games needs (see test_games_always_end)

SETTINGS = settings(max_examples=120, deadline=None)

seeds = st.integers(min_value=-(2**63), max_value=2**63)
player_counts = st.sampled_from([2, 3, 4, 5, 6])
# Mostly games of several hands (every pass direction), sometimes a single hand. Targets are in
# horns; face scoring's hands are worth 11/3 as much and its targets scale alike.
targets = st.sampled_from([1, 50, 70, 90, 100, 100, 110, 130])


@st.composite
def rule_sets(draw, target=targets):
    """Any valid rules; targets kept low so that a game is a few hands."""
    players = draw(player_counts)
    scoring = draw(st.sampled_from(["horns", "face"]))
    return Rules(
        players=players,
        draw_pile=draw(st.booleans()) if players <= 3 else False,
        passing=draw(st.booleans()),
        moon=draw(st.booleans()),
        scoring=scoring,
        target=draw(target) * (11 if scoring == "face" else 3) // 3,
        random_dealer=draw(st.booleans()),
    )


def value(text: str) -> int:
    return int(text[:-1])


def colour(text: str) -> str:
    return text[-1]


def points(rules: Rules, text: str) -> int:
    v = value(text)
    if v < 9:
        return 0
    return v - 8 if rules.scoring == "horns" else v


def by_order(cards) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def card_strings(obj) -> set[str]:
    """Every card text anywhere in a JSON-ready object."""
    return set(QUOTED_CARD.findall(json.dumps(obj)))


class Referee:
    """Follows a game from its omniscient events alone and checks each against the rules.

    It knows nothing of the engine's internals: hands, piles, turns and scores are rebuilt
    from the events, so an engine that breaks a rule produces an event the referee refuses.
    It also keeps, per seat, the cards that seat may know (RULINGS B11) now.
    """

    def __init__(self, rules: Rules, totals: list[int] | None = None):
        self.rules = rules
        self.n = n = rules.players
        self.totals = list(totals or [0] * n)
        self.hand_no = 0
        self.dealer: int | None = None
        self.over = False
        self.expect: list[str] = ["hand"]  # event types allowed next
        self.known: list[set[str]] = [set() for _ in range(n)]
        self.turn: int | None = None
        self.phase = "deal"

    # the independent legality rule: what the seat to act may do
    def legal(self) -> list[int]:
        if self.over or self.turn is None:
            return []
        hand = self.hands[self.turn]
        if self.phase == "pass":
            return sorted(PASS_BASE + ORDER[c] for c in hand - set(self.picks[self.turn]))
        if self.trick:
            led = colour(self.trick[0][1])
            follow = {c for c in hand if colour(c) == led}
            if follow:
                return sorted(ORDER[c] for c in follow)
        return sorted(ORDER[c] for c in hand)

    def event(self, e: dict) -> None:
        t = e["t"]
        assert t in self.expect, (t, self.expect)
        getattr(self, "_" + t)(e)

    def _hand(self, e):
        n, rules = self.n, self.rules
        self.hand_no += 1
        assert e["n"] == self.hand_no
        if self.dealer is None:
            assert 0 <= e["dealer"] < n
            if not rules.random_dealer:
                assert e["dealer"] == 0
        else:
            assert e["dealer"] == (self.dealer + 1) % n  # B9
        self.dealer = e["dealer"]
        offset = (1, -1, 0)[(self.hand_no - 1) % 3] if rules.passing else 0  # B5
        assert e["pass"] == {1: "right", -1: "left", 0: "none"}[offset]
        size = 13 if rules.draw_pile else 52 // n
        assert [len(h) for h in e["hands"]] == [size] * n  # B4 / B10
        assert len(e["leftover"]) == (0 if rules.draw_pile else 52 - size * n)
        assert len(e["draw_pile"]) == (52 - 13 * n if rules.draw_pile else 0)
        everything = [c for h in e["hands"] for c in h] + e["leftover"] + e["draw_pile"]
        assert sorted(everything, key=ORDER.__getitem__) == ALL
        self.hands = [set(h) for h in e["hands"]]
        self.leftover = list(e["leftover"])
        self.pile = list(e["draw_pile"])
        self.taken: list[list[str]] = [[] for _ in range(n)]
        self.face_down: list[list[str]] = [[] for _ in range(n)]
        self.picks: list[list[str]] = [[] for _ in range(n)]
        self.passes: dict[int, dict] = {}
        self.trick: list[tuple[int, str]] = []
        self.tricks = 0
        self.offset = offset
        self.leader = (self.dealer + 1) % n  # B6
        self.turn = self.leader
        self.known = [set(h) for h in self.hands]
        self.phase = "pass" if offset else "play"
        self.expect = ["pass_pick"] if offset else ["play"]

    def _pass_pick(self, e):
        p, card = e["p"], e["card"]
        assert p == self.turn and card in self.hands[p] and card not in self.picks[p]
        self.picks[p].append(card)
        if len(self.picks[p]) == 3:
            nxt = (p + 1) % self.n
            if nxt == self.leader:  # everyone has chosen: now, and only now, cards move
                self.turn = None
                self.expect = ["pass"]
            else:
                self.turn = nxt

    def _pass(self, e):
        n = self.n
        assert all(len(p) == 3 for p in self.picks)
        giver, to = e["from"], e["to"]
        assert giver not in self.passes and to == (giver + self.offset) % n
        assert e["cards"] == by_order(self.picks[giver])
        self.passes[giver] = e
        self.known[giver] |= set(e["cards"])
        self.known[to] |= set(e["cards"])
        if len(self.passes) == n:
            for s in range(n):
                self.hands[s] -= set(self.picks[s])
            for s in range(n):
                self.hands[(s + self.offset) % n] |= set(self.picks[s])
            self.picks = [[] for _ in range(n)]
            self.phase = "play"
            self.turn = self.leader
            self.expect = ["play"]

    def _play(self, e):
        p, card = e["p"], e["card"]
        assert p == self.turn and card in self.hands[p]
        if self.trick:  # B6: follow the led colour when you can
            led = colour(self.trick[0][1])
            assert colour(card) == led or not any(colour(c) == led for c in self.hands[p])
        self.hands[p].discard(card)
        self.trick.append((p, card))
        for k in self.known:
            k.add(card)
        if len(self.trick) == self.n:
            self.turn = None
            self.expect = ["trick"]
        else:
            self.turn = (p + 1) % self.n

    def _trick(self, e):
        n, rules = self.n, self.rules
        led = colour(self.trick[0][1])
        seat, _ = max((x for x in self.trick if colour(x[1]) == led), key=lambda x: value(x[1]))
        cards = [c for _, c in self.trick]
        self.tricks += 1
        assert e["n"] == self.tricks and e["winner"] == seat and e["cards"] == cards
        assert [p for p, _ in self.trick] == [(self.leader + i) % n for i in range(n)]
        assert e["horns"] == sum(points(rules, c) for c in cards)
        assert e["leftover"] == (by_order(self.leftover) if self.tricks == 1 else [])  # B4
        self.taken[seat] += cards + e["leftover"]
        self.face_down[seat] += e["leftover"]
        self.known[seat] |= set(e["leftover"])
        self.leftover = []
        self.trick = []
        self.leader = self.turn = seat  # the taker leads
        self.drawers: list[int] = []
        if len(self.pile) >= n:  # B10: everyone draws, the taker first
            self.drawers = [(seat + k) % n for k in range(n)]
            self.expect = ["draw"]
        elif self.pile:
            self.expect = ["take"]
        else:
            self._after_trick()

    def _after_trick(self):
        if any(self.hands):
            self.expect = ["play"]
        else:
            self.turn = None
            self.expect = ["score"]

    def _draw(self, e):
        p = self.drawers.pop(0)
        assert e["p"] == p and e["card"] == self.pile.pop(0)  # top first
        self.hands[p].add(e["card"])
        self.known[p].add(e["card"])
        if not self.drawers:
            assert len({len(h) for h in self.hands}) == 1
            self._after_trick()

    def _take(self, e):
        assert 0 < len(self.pile) < self.n
        assert e["p"] == self.leader and e["cards"] == self.pile
        self.taken[e["p"]] += self.pile
        self.face_down[e["p"]] += self.pile
        self.known[e["p"]] |= set(self.pile)
        self.pile = []
        self._after_trick()

    def _score(self, e):
        n, rules = self.n, self.rules
        assert self.tricks == 52 // n and not self.pile and not self.leftover
        assert sorted(c for t in self.taken for c in t) == sorted(ALL)
        horns = [sum(points(rules, c) for c in t) for t in self.taken]
        total = 60 if rules.scoring == "horns" else 220
        assert e["horns"] == horns and sum(horns) == total  # B2
        shooter = next((s for s in range(n) if horns[s] == total), None)
        if rules.moon and shooter is not None:  # B7
            expected = [0 if s == shooter else total for s in range(n)]
            assert e["moon"] == shooter
        else:
            expected = horns
            assert e["moon"] is None
        assert e["points"] == expected
        self.totals = [a + b for a, b in zip(self.totals, expected, strict=True)]
        assert e["totals"] == self.totals and e["hand"] == self.hand_no
        assert e["revealed"] == [by_order(f) for f in self.face_down]
        for k in self.known:
            k |= {c for f in self.face_down for c in f}
        low = min(self.totals)
        if max(self.totals) >= rules.target and self.totals.count(low) == 1:  # B8
            self.expect = ["end"]
        else:
            self.expect = ["hand"]

    def _end(self, e):
        assert e["totals"] == self.totals
        assert e["winner"] == self.totals.index(min(self.totals))
        self.over = True
        self.expect = []


def visible(e: dict, seat: int) -> dict:
    """RULINGS B11 for one event, restated: what ``seat`` may see of it."""
    t = e["t"]

    def hide(cards):
        return [HIDDEN] * len(cards)

    if t == "hand":
        return {**e, "hands": [h if s == seat else hide(h) for s, h in enumerate(e["hands"])],
                "leftover": hide(e["leftover"]), "draw_pile": hide(e["draw_pile"])}
    if t == "pass_pick":
        return e if e["p"] == seat else {**e, "card": HIDDEN}
    if t == "pass":
        return e if seat in (e["from"], e["to"]) else {**e, "cards": hide(e["cards"])}
    if t == "trick":
        return e if e["winner"] == seat else {**e, "leftover": hide(e["leftover"])}
    if t in ("draw",):
        return e if e["p"] == seat else {**e, "card": HIDDEN}
    if t == "take":
        return e if e["p"] == seat else {**e, "cards": hide(e["cards"])}
    return e


def check_cards_in_place(state) -> None:
    """Every one of the 52 cards in exactly one place, from the state and from the views."""
    places = [*state.hands, *state.taken, state.leftover, *(1 << c for c in state.draw_pile),
              *(1 << c for c in state.trick)]
    union = 0
    for mask in places:
        assert union & mask == 0, "a card is in two places"
        union |= mask
    assert union == FULL_BAHA_MASK
    assert sum(m.bit_count() for m in places) == 52
    for seat in range(state.n):
        assert state.picks[seat] & ~state.hands[seat] == 0  # picks are still in the hand
        assert state.face_down[seat] & ~state.taken[seat] == 0
    view = state.view(0)
    public = (
        sum(view["hand_sizes"]) + sum(len(t) for t in view["taken_shown"])
        + sum(view["face_down_counts"]) + view["leftover_count"] + view["draw_pile_count"]
        + len(view["trick"])
    )
    assert public == 52


def new_game(rules: Rules, seed: int, stacked: bool):
    """A game from ``seed``; ``stacked``: the first hand's leader is dealt the highest cards,
    so that it often takes every point card (the moon), which random play almost never does."""
    if not stacked:
        return rules.new_game(seed)
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    deck.sort(key=lambda c: -(c % 13))  # stable: random among equal values
    size, n = rules.hand_size, rules.players
    top, rest = deck[:size], deck[size:]
    rng.shuffle(rest)
    hands = [rest[i * size:(i + 1) * size] for i in range(n - 1)]
    hands.insert(1, top)  # seat 1 leads when seat 0 deals
    left = rest[(n - 1) * size:]
    k = rules.leftover_count
    return rules.new_game(seed, deal=Deal(hands=hands, leftover=left[:k], draw_pile=left[k:]))


def bounded_actions(rules: Rules) -> int:
    return MAX_HANDS * (52 + 3 * rules.players)


# -- the properties ------------------------------------------------------------------------


@SETTINGS
@given(rules=rule_sets(), seed=seeds, move_seed=seeds,
       stacked=st.booleans())
def test_random_games_follow_every_rule(rules, seed, move_seed, stacked):
    moves = random.Random(move_seed)
    state = new_game(rules, seed, stacked)
    referee = Referee(rules)
    for e in state.log:
        referee.event(e)
    for _ in range(bounded_actions(rules)):
        legal = state.legal_actions()
        assert legal == referee.legal()
        assert state.current_player == referee.turn
        if state.is_over:
            break
        assert legal, "no legal action before the end"
        events = state.apply(moves.choice(legal))
        assert events and state.log[-len(events):] == events
        for e in events:
            referee.event(e)
    assert state.is_over and referee.over
    assert state.winner == referee.totals.index(min(referee.totals))
    assert state.totals == referee.totals and state.current_player is None


@SETTINGS
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_all_52_cards_are_accounted_for_after_every_action(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    check_cards_in_place(state)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
        check_cards_in_place(state)


@SETTINGS
@given(rules=rule_sets(target=st.sampled_from([100, 200, 400])), seed=seeds,
       move_seed=seeds, stacked=st.booleans())
def test_every_hand_shares_out_all_the_points(rules, seed, move_seed, stacked):
    moves = random.Random(move_seed)
    state = new_game(rules, seed, stacked)
    total = 60 if rules.scoring == "horns" else 220
    while not state.is_over:
        for e in state.apply(moves.choice(state.legal_actions())):
            if e["t"] != "score":
                continue
            assert sum(e["horns"]) == total
            if e["moon"] is None:
                assert e["points"] == e["horns"]
                assert total not in e["horns"] or not rules.moon
            else:
                assert rules.moon and e["horns"][e["moon"]] == total
                assert sum(e["points"]) == total * (rules.players - 1)


@SETTINGS
@given(rules=rule_sets(), seed=seeds, move_seed=seeds,
       stacked=st.booleans())
def test_no_view_shows_a_card_its_seat_may_not_know(rules, seed, move_seed, stacked):
    moves = random.Random(move_seed)
    n = rules.players
    state = new_game(rules, seed, stacked)
    referee = Referee(rules)
    allowed_at: list[list[set[str]]] = []  # per event: what each seat may know after it

    def follow(events):
        for e in events:
            referee.event(e)
            allowed_at.append([set(k) for k in referee.known])

    follow(state.log)
    while True:
        for seat in range(n):
            shown = card_strings(state.view(seat))
            assert shown <= referee.known[seat], (seat, shown - referee.known[seat])
        if state.is_over:
            break
        follow(state.apply(moves.choice(state.legal_actions())))
    for seat in range(n):
        filtered = state.view_log(seat)
        assert len(filtered) == len(state.log)
        for i, (e, mine) in enumerate(zip(state.log, filtered, strict=True)):
            assert mine == visible(e, seat)
            assert card_strings(mine) <= allowed_at[i][seat]


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_the_seed_decides_the_deal(seed):
    rules = Rules(players=4)
    assert rules.new_game(seed).log == rules.new_game(seed).log
    others = {json.dumps(rules.new_game(seed + k).log[0]["hands"]) for k in range(1, 4)}
    assert json.dumps(rules.new_game(seed).log[0]["hands"]) not in others


@SETTINGS
@given(rules=rule_sets(target=st.sampled_from([1, 30, 100, 200, 300])), seed=seeds,
       move_seed=seeds)
def test_games_always_end(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    limit = bounded_actions(rules)
    count = 0
    while not state.is_over:
        assert count < limit, "the game did not end"
        legal = state.legal_actions()
        assert legal and state.current_player is not None
        state.apply(moves.choice(legal))
        count += 1
    assert state.log[-1]["t"] == "end"
    assert state.legal_actions() == [] and state.current_player is None
    end = state.log[-1]
    assert max(end["totals"]) >= rules.target
    assert end["totals"].count(min(end["totals"])) == 1
    # A hand adds every point (or more, with a moon) to the table: the number of hands is
    # bounded by the target, plus ties.
    hands = sum(e["t"] == "hand" for e in state.log)
    assert hands <= MAX_HANDS
