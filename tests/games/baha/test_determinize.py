"""determinize(seat, rng): a full, legal state that agrees with everything the seat knows and
with nothing it does not (its hidden cards are dealt again), the same for states that look the
same to the seat."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.baha import Deal, Phase, Rules
from cardroom.games.baha.cards import FULL_BAHA_MASK, cards_of, colour_of, parse_baha_card

COLOUR_INDEX = {letter: i for i, letter in enumerate("PRTO")}
MAX_ACTIONS = 5_000

seeds = st.integers(min_value=0, max_value=2**63)


@st.composite
def rule_sets(draw):
    players = draw(st.sampled_from([2, 3, 4, 5, 6]))
    return Rules(
        players=players,
        draw_pile=draw(st.booleans()) if players <= 3 else False,
        passing=draw(st.booleans()),
        scoring=draw(st.sampled_from(["horns", "face"])),
        target=draw(st.sampled_from([1, 60, 100])),
        random_dealer=draw(st.booleans()),
    )


def mask(texts) -> int:
    m = 0
    for text in texts:
        m |= 1 << parse_baha_card(text)
    return m


def hidden_fields(state) -> dict:
    return {
        "hands": list(state.hands),
        "taken": list(state.taken),
        "face_down": list(state.face_down),
        "leftover": state.leftover,
        "draw_pile": list(state.draw_pile),
        "picks": list(state.picks),
    }


def everything(state) -> str:
    return json.dumps({
        "views": [state.view(s) for s in range(state.n)],
        "log": state.log,
        "hidden": hidden_fields(state),
        "legal": state.legal_actions(),
    })


def check_full_state(state) -> None:
    """All 52 cards once; picks still in hands; the public counts add up."""
    places = [*state.hands, *state.taken, state.leftover, *(1 << c for c in state.draw_pile),
              *(1 << c for c in state.trick)]
    union = 0
    for m in places:
        assert union & m == 0
        union |= m
    assert union == FULL_BAHA_MASK
    for seat in range(state.n):
        assert state.picks[seat] & ~state.hands[seat] == 0
        assert state.face_down[seat] & ~state.taken[seat] == 0


def check_determinized(s, seat: int, d) -> None:
    """``d`` (from ``s.determinize(seat, ...)``) agrees with all ``seat`` knows."""
    n = s.n
    mine = s.view(seat)
    assert d.view(seat) == mine
    assert d.view_log(seat) == s.view_log(seat)
    assert d.log == s.view_log(seat)  # the new state knows only the seat's history
    check_full_state(d)
    assert d.hands[seat] == s.hands[seat] and d.picks[seat] == s.picks[seat]
    assert d.face_down[seat] == s.face_down[seat] and d.taken[seat] == s.taken[seat]
    assert d.trick == s.trick and d.current_player == s.current_player
    if s.current_player == seat:
        assert d.legal_actions() == s.legal_actions()
    assert bool(d.legal_actions()) == bool(s.legal_actions())
    assert len(d.draw_pile) == len(s.draw_pile)
    assert d.leftover.bit_count() == s.leftover.bit_count()
    played = mask(mine["played"])
    for p in range(n):
        assert d.hands[p].bit_count() == s.hands[p].bit_count()
        assert d.picks[p].bit_count() == s.picks[p].bit_count()
        assert d.face_down[p].bit_count() == s.face_down[p].bit_count()
        assert d.taken[p] & ~d.face_down[p] == s.taken[p] & ~s.face_down[p]  # public piles
        if p == seat:
            continue
        # No card of a colour the player showed void in (the view forgets voids on a draw).
        for letter in mine["voids"][p]:
            held = [c for c in cards_of(d.hands[p]) if colour_of(c) == COLOUR_INDEX[letter]]
            assert not held, (p, letter, held)
        # Nothing the seat knows to be elsewhere.
        assert d.hands[p] & (s.hands[seat] | played | s.face_down[seat]) == 0
    # Cards the seat passed that the receiver has not played are in the receiver's hand.
    if mine["passed"] is not None and s.phase is Phase.PLAY:
        to = mine["passed"]["to"]
        still = mask(mine["passed"]["cards"]) & ~played
        assert d.hands[to] & still == still


def random_points(rules: Rules, seed: int, move_seed: int, every: int):
    """A random game, yielding its state at about every ``every``-th action (and at the start)."""
    state = rules.new_game(seed)
    rng = random.Random(move_seed)
    yield state
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
        if rng.randrange(every) == 0:
            yield state


def play_to_end(state, rng: random.Random) -> None:
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("the determinized game did not end")


# -- agreeing with the view ------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds, det_seed=seeds)
def test_determinized_state_agrees_with_what_the_seat_knows(rules, seed, move_seed, det_seed):
    rng = random.Random(det_seed)
    for state in random_points(rules, seed, move_seed, every=12):
        before = everything(state)
        for seat in range(rules.players):
            d = state.determinize(seat, random.Random(rng.getrandbits(64)))
            check_determinized(state, seat, d)
        assert everything(state) == before  # determinizing changes nothing in the original


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds, det_seed=seeds)
def test_determinized_state_plays_on_to_the_end(rules, seed, move_seed, det_seed):
    rng = random.Random(det_seed)
    for state in random_points(rules, seed, move_seed, every=40):
        seat = rng.randrange(rules.players)
        d = state.determinize(seat, random.Random(rng.getrandbits(64)))
        original = everything(state)
        while not d.is_over:
            d.apply(rng.choice(d.legal_actions()))
            check_full_state(d)
        assert d.log[-1]["t"] == "end"
        assert everything(state) == original  # the determinized state shares nothing mutable


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_a_determinized_state_can_be_determinized_again(rules, seed, move_seed):
    rng = random.Random(move_seed)
    for state in random_points(rules, seed, move_seed, every=30):
        seat = rng.randrange(rules.players)
        d = state.determinize(seat, random.Random(1))
        # the new state plays on a little, then is determinized for the same seat
        for _ in range(rng.randrange(20)):
            if d.is_over:
                break
            d.apply(rng.choice(d.legal_actions()))
        dd = d.determinize(seat, random.Random(2))
        check_determinized(d, seat, dd)


# -- the same for states that look the same --------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_same_rng_same_result_and_same_look_same_result(rules, seed, move_seed):
    rng = random.Random(move_seed)
    for state in random_points(rules, seed, move_seed, every=15):
        seat = rng.randrange(rules.players)
        a = state.determinize(seat, random.Random(5))
        b = state.determinize(seat, random.Random(5))
        assert hidden_fields(a) == hidden_fields(b)
        assert a.log == b.log and a.seed == b.seed
        # d1 looks the same to the seat as the truth: it must determinize the same way.
        d1 = state.determinize(seat, random.Random(1))
        c = d1.determinize(seat, random.Random(5))
        assert hidden_fields(c) == hidden_fields(a)
        assert c.view(seat) == a.view(seat)


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds, world=seeds)
def test_two_truths_that_look_the_same_determinize_the_same(rules, seed, move_seed, world):
    """A second, really different truth (another consistent world) follows the same public
    actions; while the seat sees the same in both, both determinize alike."""
    rng = random.Random(move_seed)
    truth = rules.new_game(seed)
    for _ in range(rng.randrange(150)):
        if truth.is_over:
            break
        truth.apply(rng.choice(truth.legal_actions()))
    seat = rng.randrange(rules.players)
    other = truth.determinize(seat, random.Random(world))
    compared = 0
    for _ in range(80):
        if truth.view(seat) != other.view(seat) or truth.view_log(seat) != other.view_log(seat):
            break
        a = truth.determinize(seat, random.Random(9))
        b = other.determinize(seat, random.Random(9))
        assert hidden_fields(a) == hidden_fields(b)
        compared += 1
        both = sorted(set(truth.legal_actions()) & set(other.legal_actions()))
        if not both or truth.is_over:
            break
        action = rng.choice(both)
        truth.apply(action)
        other.apply(action)
    assert compared >= 1


def test_hand_made_deals_that_differ_only_in_hidden_cards_determinize_the_same():
    rules = Rules(players=3)
    deck = [f"{v}{c}" for c in "PRTO" for v in range(1, 14)]
    random.Random(4).shuffle(deck)
    hands = [deck[:17], deck[17:34], deck[34:51]]
    a = rules.new_game(1, deal=Deal(hands=hands, leftover=deck[51:]))
    # seat 0 cannot tell apart a world where seat 1, seat 2 and the leftover swapped cards
    swapped = [hands[0], [*hands[1][:16], deck[51]], [*hands[2][:16], hands[1][16]]]
    b = rules.new_game(1, deal=Deal(hands=swapped, leftover=[hands[2][16]]))
    assert a.view(0) == b.view(0) and a.log != b.log
    for k in range(5):
        da = a.determinize(0, random.Random(k))
        db = b.determinize(0, random.Random(k))
        assert hidden_fields(da) == hidden_fields(db)
    assert a.determinize(1, random.Random(0)).hands[1] != b.determinize(1, random.Random(0)).hands[1]


# -- really dealt again ------------------------------------------------------------------------


def test_hidden_cards_are_really_dealt_again():
    for players, draw_pile in ((2, True), (3, False), (3, True), (4, False), (5, False), (6, False)):
        rules = Rules(players=players, draw_pile=draw_pile, passing=False)
        state = rules.new_game(3)
        seat = 0
        others = [p for p in range(players) if p != seat]
        worlds = set()
        where: dict[int, set[str]] = {}  # a hidden card: the places it was dealt to
        for k in range(60):
            d = state.determinize(seat, random.Random(k))
            assert d.hands[seat] == state.hands[seat]
            worlds.add((tuple(d.hands), d.leftover, tuple(d.draw_pile)))
            for p in others:
                for c in cards_of(d.hands[p]):
                    where.setdefault(c, set()).add(f"hand {p}")
            for c in cards_of(d.leftover):
                where.setdefault(c, set()).add("leftover")
            for c in d.draw_pile:
                where.setdefault(c, set()).add("pile")
        assert len(worlds) == 60  # never twice the same deal (and so rarely the true one)
        truth = (tuple(state.hands), state.leftover, tuple(state.draw_pile))
        assert truth not in worlds
        hidden = FULL_BAHA_MASK & ~state.hands[seat]
        assert set(where) == set(cards_of(hidden))
        # Over 60 worlds each hidden card has been in every other hand (not a fixed layout),
        # and the leftovers and the pile have held many different cards.
        hands = {f"hand {p}" for p in others}
        assert all(where[c] >= hands for c in where)
        if rules.leftover_count:
            assert sum("leftover" in w for w in where.values()) > 10
        if rules.draw_pile:
            assert sum("pile" in w for w in where.values()) == len(where)


def test_the_future_is_not_given_away():
    """A determinized state's later shuffles are its own, not the real game's."""
    rules = Rules(players=4)
    state = rules.new_game(12)
    d = state.determinize(0, random.Random(0))
    rng = random.Random(1)
    truth = state.clone()
    for game in (truth, d):
        while game.hand_no == 1:
            game.apply(rng.choice(game.legal_actions()))
    assert truth.log[-1]["t"] == "hand" == d.log[-1]["t"]
    assert truth.log[-1]["hands"] != d.log[-1]["hands"]
    assert d.seed != state.seed


def test_determinize_during_the_pass_keeps_the_pick_counts():
    rules = Rules(players=4)
    state = rules.new_game(6)
    for _ in range(7):  # seat 1 picked 3, seat 2 picked 3, seat 3 picked 1
        state.apply(state.legal_actions()[0])
    for seat in range(4):
        d = state.determinize(seat, random.Random(seat))
        check_determinized(state, seat, d)
        assert [p.bit_count() for p in d.picks] == [0, 3, 3, 1]
        # the rest of the pass plays out; the seat's own picks are the ones it made
        while d.phase is Phase.PASS:
            d.apply(d.legal_actions()[0])
        if state.picks[seat]:
            gave = next(e for e in d.log if e["t"] == "pass" and e["from"] == seat)
            assert mask(gave["cards"]) & state.picks[seat] == state.picks[seat]


def test_voids_survive_determinization_in_a_hand_made_position():
    # Seat 3 holds no Turquoise and shows it on trick 1; every world must agree.
    rules = Rules(players=4, passing=False)
    hands = [
        ["2T", *[f"{v}P" for v in range(1, 13)]],
        ["6T", "13P", *[f"{v}O" for v in range(1, 12)]],
        ["11T", "1T", "3T", "4T", "5T", "7T", "8T", "9T", "10T", "12T", "13T", "12O", "13O"],
        [f"{v}R" for v in range(1, 14)],
    ]
    state = rules.new_game(0, deal=Deal(hands=hands))
    for text in ("6T", "11T", "13R"):
        state.apply(state.parse_action(f"play {text}"))
    assert state.view(0)["voids"] == ["", "", "", "T"]
    for k in range(30):
        d = state.determinize(0, random.Random(k))
        check_determinized(state, 0, d)
        assert not any(colour_of(c) == 2 for c in cards_of(d.hands[3]))
    # Seat 1, having seen the same, may not place Turquoise with seat 3 either.
    for k in range(30):
        d = state.determinize(1, random.Random(k))
        assert not any(colour_of(c) == 2 for c in cards_of(d.hands[3]))


def test_worlds_do_not_carry_a_hand_made_start():
    import random as _random

    from cardroom.games.baha import Deal, Rules

    hands = [Rules().new_game(0).view(s)["hand"] for s in range(4)]
    state = Rules().new_game(3, deal=Deal(hands=hands))
    assert state.origin is not None
    assert state.determinize(1, _random.Random(2)).origin is None
