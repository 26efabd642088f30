"""Properties of random BAEBAE games (hypothesis), with the sample deck, two decks, an extra deck
of awkward cards, 2 to 8 players and random options: an independent referee follows every
event, every card is in one place after every action, no view shows what its seat may not know,
illegal actions are refused in words, hand-made starts replay, and every game ends. What every
game must do (clones, exact replays of records) is checked with the others in
``tests/conformance``."""

from __future__ import annotations

import json
import random

import pytest
from baebae_support import (
    Referee,
    card_strings,
    check_cards_once,
    random_decks,
    rule_sets,
    visible,
    write_deck,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.engine import IllegalAction
from cardroom.games.baebae import Deal, Phase, Rules
from cardroom.games.baebae.rules import read_decks
from cardroom.record import make_record, verify

seeds = st.integers(min_value=-(2**63), max_value=2**63)


def max_actions(rules: Rules) -> int:
    # every turn is at most a draw, a play and a few choices; the guard ends a round's turns
    return rules.rounds * (rules.turn_limit + 2) * (12 + 30 * rules.players)


def quick_snapshot(state) -> str:
    """What an action could change (the log and history only grow: their length and tail stand
    for them); ``baebae_support.snapshot`` compares everything, for the hand-made tests."""
    return json.dumps({
        "views": [state.view(s) for s in range(state.n)],
        "log": [len(state.log), state.log[-3:]],
        "history": [len(state.history), state.history[-3:]],
        "legal": state.legal_actions(),
        "hidden": [state.hands, state.stock, state.discard, state.skips, state.seed],
    })


def check_follows(referee: Referee, state) -> None:
    """The referee's hands and piles, rebuilt from events alone, are the state's."""
    if referee.over:
        assert state.is_over
        return
    for seat in range(state.n):
        assert sorted(state.card_texts(state.hands[seat])) == sorted(referee.hands[seat].elements())
    assert [state.card_text(p) for p in state.discard] == referee.discard
    assert [state.card_text(p) for p in reversed(state.stock)] == referee.stock
    assert state.direction == referee.direction and state.round_penalties == referee.round_pens
    if state.phase is Phase.PLAY:
        assert state.legal_actions() == referee.legal(state.space)
        assert state.current_player == referee.next_player()


def check_view(state, seat: int) -> None:
    """RULINGS E14: a seat's view names its own cards and public ones only."""
    view = state.view(seat)
    own = state.card_texts(state.hands[seat])
    assert sorted(view["hand"]) == sorted(own)
    assert view["hand_sizes"] == [h.bit_count() for h in state.hands]
    assert view["stock_count"] == len(state.stock) and "stock" not in view
    public = {state.card_text(p) for p in state.discard}
    drawn = {view["drawn"]} if view["drawn"] else set()
    assert drawn <= set(own)
    assert card_strings(view) <= set(own) | public, (seat, card_strings(view) - set(own) - public)
    if state.current_player != seat:
        assert view["legal_actions"] == []
        assert view["pending"] is None or set(view["pending"]) == {"kind", "seat", "card"}


# -- the properties ------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_random_games_follow_every_rule_and_every_card_is_in_one_place(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    referee = Referee(rules)
    for e in state.log:
        referee.event(e)
    check_cards_once(state)
    check_follows(referee, state)
    for _ in range(max_actions(rules)):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        assert state.current_player is not None
        mark = len(state.log)
        events = state.apply(moves.choice(legal))
        assert state.log[mark:] == events  # a choice that leads to another may log nothing
        for e in events:
            referee.event(e)
        check_cards_once(state)
        check_follows(referee, state)
    assert state.is_over and referee.over, "the game did not end"
    assert state.legal_actions() == [] and state.current_player is None
    end = state.log[-1]
    assert end["t"] == "end" and end["totals"] == state.totals == referee.totals
    assert end["guard_rounds"] == sum(e["guard"] for e in state.log if e["t"] == "round_end")
    assert sum(e["t"] == "round_end" for e in state.log) == rules.rounds


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(turn_limits=st.just(10)), seed=seeds, move_seed=seeds)
def test_the_turn_limit_guard_ends_every_round_and_says_so(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    ends = [e for e in state.log if e["t"] == "round_end"]
    for e in ends:
        assert e["guard"] is False or (e["blocked"] is True and e["out"] is None)
    assert state.log[-1]["guard_rounds"] == sum(e["guard"] for e in ends) == state.guard_rounds


@settings(max_examples=120, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_no_view_shows_what_its_seat_may_not_know(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    while True:
        if moves.random() < 0.15 or state.is_over:
            for seat in range(rules.players):
                check_view(state, seat)
        if state.is_over:
            break
        state.apply(moves.choice(state.legal_actions()))
    for seat in range(rules.players):
        filtered = state.view_log(seat)
        assert filtered == [visible(e, seat) for e in state.log]


@settings(max_examples=100, deadline=None)
@given(rules=rule_sets(), seed=seeds, move_seed=seeds)
def test_illegal_actions_are_refused_and_change_nothing(rules, seed, move_seed):
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    size = state.space.size
    junk = [-1, size, size + 3, 10**12, True, False, 1.0, None, "draw", (1,), [0]]
    while True:
        legal = state.legal_actions()
        if state.is_over or moves.random() < 0.06:
            illegal = [a for a in range(size) if a not in legal]
            before = quick_snapshot(state)
            for action in moves.sample(illegal, min(3, len(illegal))) + [moves.choice(junk)]:
                with pytest.raises(IllegalAction) as info:
                    state.apply(action)
                message = str(info.value)
                assert "allowed: " in message or "the game is over" in message, message
                assert quick_snapshot(state) == before
        if state.is_over:
            break
        state.apply(moves.choice(legal))


@settings(max_examples=20, deadline=None)
@given(seed=seeds, move_seed=seeds, players=st.integers(2, 5))
def test_a_hand_made_start_replays_from_its_record(seed, move_seed, players):
    rules = Rules(players=players, rounds=2)
    deck = [c.key for c in rules.cards]
    random.Random(seed).shuffle(deck)
    size = rules.hand_size
    deal = Deal(hands=[deck[i * size:(i + 1) * size] for i in range(players)], starter=deck[players * size],
                stock=deck[players * size + 1:players * size + 4], dealer=players - 1)
    state = rules.new_game(seed, deal=deal, totals=list(range(players)))
    moves = random.Random(move_seed)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    assert state.log[0]["dealer"] == players - 1 and state.log[0]["starter"] == deck[players * size]
    record = json.loads(json.dumps(make_record(state)))
    assert record["start"]["totals"] == list(range(players))
    assert verify(record).ok


@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_the_seed_decides_the_deal_and_every_coin(seed):
    rules = Rules(players=4)
    a, b = rules.new_game(seed), rules.new_game(seed)
    assert a.log == b.log
    others = {json.dumps(rules.new_game(seed + k).log[0]["hands"]) for k in range(1, 4)}
    assert json.dumps(a.log[0]["hands"]) not in others
    moves = random.Random(seed)
    while not a.is_over:
        action = moves.choice(a.legal_actions())
        assert a.apply(action) == b.apply(action)  # coins, takes and reshuffles alike


# -- random decks: any valid deck plays by the rules ----------------------------------------------


@settings(max_examples=80, deadline=None)
@given(text=random_decks(), players=st.integers(2, 5), seed=seeds, move_seed=seeds,
       draw_when_able=st.booleans())
def test_any_valid_deck_plays_by_the_rules(text, players, seed, move_seed, draw_when_able):
    rules = Rules(players=players, **read_decks(str(write_deck(text, "random"))), rounds=2, turn_limit=150,
                  draw_when_able=draw_when_able)
    moves = random.Random(move_seed)
    state = rules.new_game(seed)
    referee = Referee(rules)
    for e in state.log:
        referee.event(e)
    for _ in range(max_actions(rules)):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal, "no legal action before the end"
        for e in state.apply(moves.choice(legal)):
            referee.event(e)
        check_cards_once(state)
        check_follows(referee, state)
    assert state.is_over and referee.over
    record = json.loads(json.dumps(make_record(state)))
    assert verify(record).ok
    for seat in range(players):
        check_view(state, seat)
        assert state.view_log(seat) == [visible(e, seat) for e in state.log]
