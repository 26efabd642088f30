"""The action language, step by step: every step, target, filter field and flag on a hand-made
deal, asserting the exact events and the hands and piles after them. Every choice a person
makes during an action is an action; chance (coins, random takes) comes from the seed."""

from __future__ import annotations

import pytest
from baebae_support import (
    act,
    audit,
    card,
    hand,
    hands,
    legal_texts,
    make_rules,
    of_type,
    refused,
    start,
)

from cardroom.games.baebae import HIDDEN, Phase

STOCK = "AH 7H 10H JH KH 10D KD 10S JS KS"


def action_card(effects: str, key: str = "6C", **kwargs):
    return card(key, text="A test action.", effects=effects, **kwargs)


def rogues():
    return [card("2S", types=["Rogue"]), card("3S", types=["Rogue", "Officer"]),
            card("4S", types=["Officer"])]


def draws(events):
    return [(e["p"], e["card"]) for e in of_type(events, "draw")]


# -- draw and the targets ------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "drawers"), [
    ('"self"', [1]),
    ('"next"', [2]),
    ('"previous"', [0]),
    ('"others"', [2, 3, 0]),
    ('"all"', [1, 2, 3, 0]),
    ('{holding = {types = ["Rogue"]}}', [3, 0]),
    ('{holding = {types = ["Officer"]}}', [1, 3]),  # 3S is a Rogue and an Officer (E13)
    ('{holding = {suits = ["H"], ranks = ["5"]}}', [3]),
])
def test_draw_each_target_in_play_order(who, drawers):
    rules = make_rules(action_card(f'[{{step = "draw", who = {who}, count = 2}}]'), *rogues(),
                       players=4, hand_size=2)
    state = start(rules, ["2S 2D", "6C 4S", "4D 5D", "3S 5H"], "9C", STOCK)
    events = act(state, "play 6C")
    stock = STOCK.split()
    expected = [(p, stock[2 * i + k]) for i, p in enumerate(drawers) for k in range(2)]
    assert draws(events) == expected
    assert all(e["forced"] for e in of_type(events, "draw"))
    assert state.current_player == 2
    audit(state)


@pytest.mark.parametrize(("who", "drawers"), [
    ('"next"', [0]), ('"previous"', [2]), ('"others"', [0, 3, 2]), ('"all"', [1, 0, 3, 2]),
])
def test_targets_follow_the_current_direction(who, drawers):
    effects = f'[{{step = "reverse"}}, {{step = "draw", who = {who}}}]'
    rules = make_rules(action_card(effects), players=4, hand_size=2)
    state = start(rules, ["2S 2D", "6C 4S", "4D 5D", "3S 5H"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events[1] == {"t": "reverse", "direction": -1}
    assert [p for p, _ in draws(events)] == drawers
    assert state.current_player == 0


def test_chosen_target_is_a_decision_of_the_cards_player():
    rules = make_rules(action_card('[{step = "draw", who = "chosen", count = 2}]'), players=4, hand_size=2)
    state = start(rules, ["2S 2D", "6C 4S", "4D 5D", "3S 5H"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events == [{"t": "play", "p": 1, "card": "6C", "under": False}]
    assert state.phase is Phase.DECIDE and state.current_player == 1
    assert legal_texts(state) == ["target 0", "target 2", "target 3"]
    pending = state.view(1)["pending"]
    assert pending["kind"] == "target" and pending["card"] == "6C"
    assert state.view(3)["pending"] == {"kind": "target", "seat": 1, "card": "6C"}
    assert state.view(3)["legal_actions"] == []
    refused(state, state.space.target + 1, "may not target 1", "choose a player for 6C's action",
            "allowed: target 0, target 2, target 3")
    events = act(state, "target 3")
    assert draws(events) == [(3, "AH"), (3, "7H")]
    assert state.current_player == 2
    audit(state)


def test_chosen_with_two_players_needs_no_decision():
    rules = make_rules(action_card('[{step = "draw", who = "chosen"}]'), players=2, hand_size=2)
    state = start(rules, ["6C 2S", "4D 5D"], "9C", STOCK, dealer=1)
    events = act(state, "play 6C")
    assert draws(events) == [(1, "AH")]


def test_a_forced_draw_reshuffles_and_stops_when_nothing_is_left():
    deck = [card(k) for k in ["2C", "3C", "4C", "5C", "2D", "3D", "4D"]]
    deck.append(action_card('[{step = "draw", who = "next", count = 5}]'))
    rules = make_rules(*deck, plain=False, players=2, hand_size=3)
    # 8 cards: 6 in hands, starter 2C, stock 3C. Seat 1 plays 6C: seat 0 draws 3C, then the
    # discards but the top (2C) are reshuffled and drawn, then nothing is left.
    state = start(rules, ["2D 3D 4D", "6C 4C 5C"], "2C", "3C", dealer=0)
    events = act(state, "play 6C")
    assert [e["t"] for e in events] == ["play", "draw", "reshuffle", "draw"]
    assert events[2] == {"t": "reshuffle", "stock": ["2C"]}
    assert draws(events) == [(0, "3C"), (0, "2C")]
    assert state.view(0)["discard"] == ["6C"] and state.view(0)["stock_count"] == 0
    assert state.current_player == 0
    audit(state)


# -- discard -------------------------------------------------------------------------------


CLERK = '[{step = "discard", who = "self", count = 1, filter = {ranks = ["J", "Q", "K"]}}]'


def test_discard_the_player_chooses_among_matching_cards():
    rules = make_rules(action_card(CLERK), players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C JD QD 2H", "2S 3S 4S 5S"], "9C", STOCK)
    act(state, "play 6C")
    assert state.phase is Phase.DECIDE and state.current_player == 1
    assert sorted(legal_texts(state)) == ["select JD", "select QD"]
    assert state.view(1)["pending"]["purpose"] == "discard"
    events = act(state, "select QD")
    assert events == [{"t": "move", "from": 1, "to": "discard", "cards": ["QD"], "why": "discard"}]
    assert state.view(0)["discard"] == ["9C", "QD", "6C"] and state.view(0)["top"] == "6C"
    assert hand(state, 1) == ["2H", "JD"] and state.current_player == 2
    audit(state)


def test_discard_without_a_choice_happens_at_once():
    rules = make_rules(action_card(CLERK), players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C JD 3H 2H", "2S 3S 4S 5S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events[1] == {"t": "move", "from": 1, "to": "discard", "cards": ["JD"], "why": "discard"}
    assert state.current_player == 2


def test_discard_with_no_matching_card_does_nothing():
    rules = make_rules(action_card(CLERK), players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C 4H 3H 2H", "2S 3S 4S 5S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events == [{"t": "play", "p": 1, "card": "6C", "under": False}]
    assert state.current_player == 2


def test_discard_fewer_than_the_count_puts_all():
    effects = '[{step = "discard", count = 3, filter = {suits = ["H"]}}]'
    rules = make_rules(action_card(effects), players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C 4H 3H 2S", "2S 3S 4S 5S".replace("2S", "6S")], "9C", STOCK)
    events = act(state, "play 6C")
    moved = [c for e in of_type(events, "move") for c in e["cards"]]
    assert sorted(moved) == ["3H", "4H"] and hand(state, 1) == ["2S"]
    assert state.view(0)["discard"][-1] == "6C"
    audit(state)


def test_discard_by_all_asks_each_player_in_turn():
    effects = '[{step = "discard", who = "all", count = 1}]'
    rules = make_rules(action_card(effects), players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C", STOCK)
    act(state, "play 6C")
    seats = []
    while state.phase is Phase.DECIDE:
        seats.append(state.current_player)
        assert state.view(state.current_player)["pending"]["kind"] == "select"
        state.apply(state.legal_actions()[-1])
    assert seats == [1, 2, 0]
    moves = of_type(state.log, "move")
    assert [m["from"] for m in moves] == [1, 2, 0]
    assert state.view(0)["discard"][-1] == "6C" and len(state.view(0)["discard"]) == 5
    assert state.view(0)["hand_sizes"] == [2, 1, 2] and state.current_player == 2
    audit(state)


def test_discard_that_empties_a_hand_ends_the_round_with_that_player_out():
    effects = '[{step = "discard", who = "all", count = 1}, {step = "draw", who = "all"}]'
    rules = make_rules(action_card(effects), players=3, hand_size=2, rounds=1)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert [e["t"] for e in events] == ["play", "move", "round_end", "end"]
    assert events[2]["out"] == 1 and events[2]["penalties"] == [5, 0, 5]


# -- discard_under ---------------------------------------------------------------------------


HOPSALOT = '[{step = "discard_under", count = 2, filter = {types = ["Critter"]}}]'


def critters():
    return [card("2H", types=["Critter"], marks=["skip"]),
            card("3H", types=["Critter"], effects='[{step = "draw", who = "all", count = 3}]'),
            card("4H", types=["Critter", "Rogue"], marks=["wild"]),
            card("5H", types=["Rogue"])]


def test_discard_under_may_stop_at_once():
    rules = make_rules(action_card(HOPSALOT), *critters(), players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C 2H 3H 5H", "2S 3S 4S 5S"], "9C", STOCK)
    act(state, "play 6C")
    assert sorted(legal_texts(state)) == ["done", "select 2H", "select 3H"]
    assert state.view(1)["pending"]["purpose"] == "discard_under"
    assert act(state, "done") == []
    assert state.current_player == 2 and hand(state, 1) == ["2H", "3H", "5H"]


def test_discard_under_one_at_a_time_up_to_the_count_and_their_actions_do_not_happen():
    rules = make_rules(action_card(HOPSALOT), *critters(), players=3, hand_size=5)
    state = start(rules, ["2D 3D 4D 5D 6D", "6C 2H 3H 4H 5H", "2S 3S 4S 5S 6S"], "9C", STOCK)
    act(state, "play 6C")
    events = act(state, "select 3H")
    assert events == [{"t": "play", "p": 1, "card": "3H", "under": True}]
    assert sorted(legal_texts(state)) == ["done", "select 2H", "select 4H"]
    events = act(state, "select 4H")
    # the count is reached: the turn passes; no draw (3H), no declaration (4H), no skip (2H)
    assert events == [{"t": "play", "p": 1, "card": "4H", "under": True}]
    assert state.current_player == 2 and state.phase is Phase.PLAY
    assert state.view(2)["discard"] == ["9C", "3H", "4H", "6C"]
    assert state.view(2)["suit"] == "C" and not state.view(2)["declared"]
    audit(state)


def test_discard_under_of_the_last_card_ends_the_round():
    rules = make_rules(action_card(HOPSALOT), *critters(), players=3, hand_size=2, rounds=1)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    act(state, "play 6C")
    events = act(state, "select 2H")
    assert [e["t"] for e in events] == ["play", "round_end", "end"]
    assert events[1]["out"] == 1


# -- give ----------------------------------------------------------------------------------


def test_give_to_the_next_player():
    rules = make_rules(action_card('[{step = "give", who = "self", to = "next"}]'), players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C", STOCK)
    act(state, "play 6C")
    assert sorted(legal_texts(state)) == ["select 2H", "select 3H"]
    assert state.view(1)["pending"]["purpose"] == "give"
    events = act(state, "select 3H")
    assert events == [{"t": "move", "from": 1, "to": 2, "cards": ["3H"], "why": "give"}]
    assert hands(state) == [["2D", "3D", "4D"], ["2H"], ["2S", "3H", "3S", "4S"]]
    # the giver and the receiver see the card; the third player does not
    for seat, shown in ((0, [HIDDEN]), (1, ["3H"]), (2, ["3H"])):
        assert state.view_log(seat)[-1]["cards"] == shown
    audit(state)


def test_give_to_a_chosen_player_asks_the_player_then_the_card():
    rules = make_rules(action_card('[{step = "give", to = "chosen"}]'), players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C", STOCK)
    act(state, "play 6C")
    assert legal_texts(state) == ["target 0", "target 2"]
    act(state, "target 0")
    assert sorted(legal_texts(state)) == ["select 2H", "select 3H"]
    events = act(state, "select 2H")
    assert events == [{"t": "move", "from": 1, "to": 0, "cards": ["2H"], "why": "give"}]
    assert state.current_player == 2


def test_give_with_a_filter_and_one_design_happens_at_once():
    effects = '[{step = "give", to = "next", filter = {types = ["Rogue"]}}]'
    rules = make_rules(action_card(effects), *rogues(), players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2S 3H", "5S 6S 7S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events[1] == {"t": "move", "from": 1, "to": 2, "cards": ["2S"], "why": "give"}
    assert state.current_player == 2


def test_give_from_others_to_self_each_giver_chooses():
    effects = '[{step = "give", who = "others", to = "self"}]'
    rules = make_rules(action_card(effects), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    act(state, "play 6C")
    assert state.current_player == 2 and sorted(legal_texts(state)) == ["select 2S", "select 3S"]
    act(state, "select 3S")
    assert state.current_player == 0
    act(state, "select 2D")
    assert hands(state) == [["3D"], ["2D", "2H", "3S"], ["2S"]]
    assert [(m["from"], m["to"]) for m in of_type(state.log, "move")] == [(2, 1), (0, 1)]
    assert state.current_player == 2
    audit(state)


def test_giving_the_last_card_ends_the_round_with_the_giver_out():
    rules = make_rules(action_card('[{step = "give", to = "next"}, {step = "draw", who = "all"}]'),
                       players=3, hand_size=2, rounds=1)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert [e["t"] for e in events] == ["play", "move", "round_end", "end"]
    assert events[2]["out"] == 1 and events[2]["hands"][2] == ["2H", "2S", "3S"]


# -- take ----------------------------------------------------------------------------------


def test_take_a_random_card_from_the_seed_and_log_it():
    rules = make_rules(action_card('[{step = "take", who = "next"}]'), players=3, hand_size=4)
    seen = set()
    for seed in range(12):
        state = start(rules, ["2D 3D 4D 5D", "6C 2H 3H 4H", "2S 3S 4S 5S"], "9C", STOCK, seed=seed)
        events = act(state, "play 6C")
        assert events[1]["t"] == "move" and events[1]["from"] == 2 and events[1]["to"] == 1
        assert events[1]["why"] == "take"
        (taken,) = events[1]["cards"]
        assert taken in ("2S", "3S", "4S", "5S")
        assert taken in hand(state, 1) and taken not in hand(state, 2)
        assert state.view_log(0)[-1]["cards"] == [HIDDEN]
        assert state.view_log(2)[-1]["cards"] == [taken]
        seen.add(taken)
        again = start(rules, ["2D 3D 4D 5D", "6C 2H 3H 4H", "2S 3S 4S 5S"], "9C", STOCK, seed=seed)
        assert act(again, "play 6C") == events  # the same seed takes the same card
        audit(state)
    assert len(seen) > 1  # it is random


def test_take_with_a_filter_and_count():
    effects = '[{step = "take", who = "previous", count = 2, filter = {marks = ["wild"]}}]'
    wilds = [card(k, marks=["wild"]) for k in ("8C", "8D", "8H")]
    rules = make_rules(action_card(effects), *wilds, players=3, hand_size=4)
    state = start(rules, ["8D 3D 8H 5D", "6C 2H 3H 4H", "2S 3S 4S 8C"], "9C", STOCK)
    events = act(state, "play 6C")
    assert sorted(events[1]["cards"]) == ["8D", "8H"] and events[1]["from"] == 0
    assert hand(state, 0) == ["3D", "5D"]


def test_take_when_nothing_matches_does_nothing():
    effects = '[{step = "take", who = "next", filter = {marks = ["wild"]}}]'
    rules = make_rules(action_card(effects), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events == [{"t": "play", "p": 1, "card": "6C", "under": False}]


def test_taking_the_last_card_ends_the_round_with_the_victim_out():
    effects = '[{step = "take", who = "previous"}, {step = "draw", who = "all"}]'
    rules = make_rules(action_card(effects), players=3, hand_size=2, rounds=1)
    state = start(rules, ["2D 3D", "2C 2H", "6C 3S"], "9C", STOCK)
    act(state, "play 2C")  # seat 1 keeps 2H
    events = act(state, "play 6C")  # seat 2 takes it
    assert [e["t"] for e in events] == ["play", "move", "round_end", "end"]
    assert events[1]["cards"] == ["2H"] and events[2]["out"] == 1


# -- swap_hands -----------------------------------------------------------------------------


def test_swap_hands_with_a_chosen_player():
    rules = make_rules(action_card('[{step = "swap_hands", who = "chosen"}]'), players=3, hand_size=3)
    state = start(rules, ["7S 8S 9S", "6C 2H 3H", "4D 5D 6D"], "9C", STOCK)
    act(state, "play 6C")
    assert legal_texts(state) == ["target 0", "target 2"]
    target, *events = act(state, "target 2")
    assert target == {"t": "effect", "p": 1, "op": "target", "card": "6C", "who": 2}  # announced
    assert events == [
        {"t": "move", "from": 1, "to": 2, "cards": ["2H", "3H"], "why": "swap"},
        {"t": "move", "from": 2, "to": 1, "cards": ["4D", "5D", "6D"], "why": "swap"},
    ]
    assert hands(state) == [["7S", "8S", "9S"], ["4D", "5D", "6D"], ["2H", "3H"]]
    assert state.view_log(0)[-3] == target
    assert [e["cards"] for e in state.view_log(0)[-2:]] == [[HIDDEN] * 2, [HIDDEN] * 3]
    assert state.view_log(2)[-2:] == events == state.view_log(1)[-2:]
    assert state.current_player == 2
    audit(state)


def test_swap_hands_with_self_does_nothing():
    rules = make_rules(action_card('[{step = "swap_hands", who = "self"}]'), players=3, hand_size=2)
    state = start(rules, ["7S 8S", "6C 2H", "4D 5D"], "9C", STOCK)
    assert act(state, "play 6C") == [{"t": "play", "p": 1, "card": "6C", "under": False}]


# -- skip ----------------------------------------------------------------------------------


def test_skip_step_the_next_player_loses_their_next_turn_and_skips_add_up():
    rules = make_rules(action_card('[{step = "skip"}, {step = "skip", who = "next"}]'),
                       players=3, hand_size=3)
    state = start(rules, ["2C 3C 4C", "6C 2H 3H", "2S 3S 4S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events[1:] == [
        {"t": "effect", "p": 1, "op": "skip", "who": 2},
        {"t": "effect", "p": 1, "op": "skip", "who": 2},
        {"t": "skip", "p": 2},
    ]
    assert state.current_player == 0 and state.skips == [0, 0, 1]
    act(state, "play 2C")
    assert state.current_player == 1
    act(state, "play 2H")
    assert state.current_player == 0 and state.skips == [0, 0, 0]
    assert of_type(state.log, "skip") == [{"t": "skip", "p": 2}] * 2
    audit(state)


def test_skip_players_holding_a_type_may_include_the_cards_player():
    captain = action_card('[{step = "skip", who = {holding = {types = ["Rogue"]}}}]')
    rules = make_rules(captain, *rogues(), players=3, hand_size=3)
    state = start(rules, ["2S 3C 4C", "6C 3S 3H", "5D 7D 8D"], "9C", STOCK)
    events = act(state, "play 6C")
    assert [e["who"] for e in of_type(events, "effect")] == [1, 0]
    assert state.current_player == 2
    events = act(state, "draw", "pass")  # seat 2 draws AH, which it cannot play; seats 0 and 1 lose a turn
    assert events[1:] == [{"t": "pass", "p": 2}, {"t": "skip", "p": 0}, {"t": "skip", "p": 1}]
    assert state.current_player == 2
    audit(state)


def test_skip_a_chosen_player():
    rules = make_rules(action_card('[{step = "skip", who = "chosen"}]'), players=4, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S", "4D 5D"], "9C", STOCK)
    act(state, "play 6C", "target 3")
    assert state.current_player == 2
    act(state, "draw", "pass")
    assert state.current_player == 0 and of_type(state.log, "skip") == [{"t": "skip", "p": 3}]


# -- reverse, declare_suit, play_again -----------------------------------------------------------


def test_reverse_step():
    rules = make_rules(action_card('[{step = "reverse"}]'), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert events[1] == {"t": "reverse", "direction": -1}
    assert state.current_player == 0 and state.view(2)["direction"] == -1


def test_declare_suit_step_plays_like_a_wild_and_names_the_suit_once():
    both = card("8H", marks=["wild"], text="Name the suit.", effects='[{step = "declare_suit"}]')
    rules = make_rules(both, action_card('[{step = "declare_suit"}]'), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "8H 6C", "2S 3S"], "9D", STOCK)
    assert sorted(legal_texts(state)) == ["play 6C", "play 8H"]  # 6C declares: plays on 9D
    act(state, "play 8H")
    assert legal_texts(state) == ["declare C", "declare D", "declare H", "declare S"]
    events = act(state, "declare S")
    assert events == [{"t": "declare", "p": 1, "suit": "S"}]  # the wild mark does not ask again
    assert state.current_player == 2 and state.phase is Phase.PLAY
    assert sorted(legal_texts(state)) == ["play 2S", "play 3S"]


def test_play_again_gives_the_player_another_turn():
    diva = action_card('[{step = "play_again"}]', key="9H", can_win=False)
    rules = make_rules(diva, players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "9H 2H 3S", "2S 5S 6S"], "6H", STOCK)
    events = act(state, "play 9H")
    assert events[1] == {"t": "effect", "p": 1, "op": "play_again"}
    assert state.current_player == 1 and state.phase is Phase.PLAY
    act(state, "play 2H")
    assert state.current_player == 2
    audit(state)


# -- peek -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("who", "choose", "seen"), [('"next"', [], 2), ('"chosen"', ["target 0"], 0)])
def test_peek_shows_a_hand_to_the_cards_player_only(who, choose, seen):
    rules = make_rules(action_card(f'[{{step = "peek", who = {who}}}]'), players=3, hand_size=3)
    cards = ["7S 8S 9S", "6C 2H 3H", "4D 5D 6D"]
    state = start(rules, cards, "9C", STOCK)
    events = act(state, "play 6C", *choose)
    peek = of_type(events, "effect")[-1]
    assert peek == {"t": "effect", "p": 1, "op": "peek", "who": seen, "cards": cards[seen].split()}
    for seat in range(3):
        shown = state.view_log(seat)[-1]
        assert shown["cards"] == (cards[seen].split() if seat == 1 else [HIDDEN] * 3)
        assert shown["who"] == seen
    audit(state)


# -- penalty --------------------------------------------------------------------------------


def test_penalty_steps_add_to_the_round_tally_and_bonuses_subtract():
    effects = ('[{step = "penalty", points = 4}, {step = "penalty", who = "next", points = -3}, '
               '{step = "penalty", who = {holding = {suits = ["S"]}}, points = 2}]')
    rules = make_rules(action_card(effects), players=2, hand_size=2, rounds=1)
    state = start(rules, ["6C 2C", "3S 4D"], "9C", STOCK, dealer=1)
    events = act(state, "play 6C")
    assert of_type(events, "penalty") == [
        {"t": "penalty", "p": 0, "points": 4},
        {"t": "penalty", "p": 1, "points": -3},
        {"t": "penalty", "p": 1, "points": 2},
    ]
    assert state.view(0)["round_penalties"] == [4, -1]
    act(state, "draw", "pass")  # seat 1: AD, dead (top 6C)
    events = act(state, "play 2C")
    end = of_type(events, "round_end")[0]
    assert end["out"] == 0 and end["penalties"] == [4, 3 + 4 + 1 - 1]
    assert state.totals == [4, 7]


# -- coin -----------------------------------------------------------------------------------


WEATHERVANE = '[{step = "coin", heads = [{step = "reverse"}], tails = [{step = "skip", who = "next"}]}]'


def coin_game(seed: int):
    rules = make_rules(action_card(WEATHERVANE), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK, seed=seed)
    return state, act(state, "play 6C")


def test_coin_follows_the_seed_is_logged_and_runs_its_side():
    results = {}
    for seed in range(20):
        state, events = coin_game(seed)
        coin = events[1]
        assert coin["t"] == "coin" and coin["p"] == 1
        if coin["result"] == "heads":
            assert events[2] == {"t": "reverse", "direction": -1} and state.current_player == 0
        else:
            assert events[2] == {"t": "effect", "p": 1, "op": "skip", "who": 2}
            assert state.current_player == 0 and of_type(events, "skip") == [{"t": "skip", "p": 2}]
        for seat in range(3):
            assert state.view_log(seat)[-len(events) + 1] == coin  # public
        assert coin_game(seed)[1] == events  # same seed, same coin
        results[seed] = coin["result"]
    assert set(results.values()) == {"heads", "tails"}


def test_a_coin_side_without_steps_does_nothing():
    rules = make_rules(action_card('[{step = "coin", tails = [{step = "draw", who = "next"}]}]'),
                       players=3, hand_size=2)
    outcomes = set()
    for seed in range(12):
        state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK, seed=seed)
        events = act(state, "play 6C")
        outcomes.add(events[1]["result"])
        assert len(events) == (3 if events[1]["result"] == "tails" else 2)
    assert outcomes == {"heads", "tails"}


# -- choose ---------------------------------------------------------------------------------


BELL = ('[{step = "choose", options = [{label = "Next draws", effects = [{step = "draw", who = "next"}]}, '
        '{label = "Reverse", effects = [{step = "reverse"}]}, '
        '{label = "Bonus", effects = [{step = "penalty", points = -2}]}]}]')


@pytest.mark.parametrize(("option", "check"), [
    (1, lambda ev: of_type(ev, "draw") == [{"t": "draw", "p": 2, "card": "AH", "forced": True}]),
    (2, lambda ev: of_type(ev, "reverse") == [{"t": "reverse", "direction": -1}]),
    (3, lambda ev: of_type(ev, "penalty") == [{"t": "penalty", "p": 1, "points": -2}]),
])
def test_choose_one_option_and_run_its_steps(option, check):
    rules = make_rules(action_card(BELL), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    act(state, "play 6C")
    assert legal_texts(state) == ["option 1", "option 2", "option 3"]
    pending = state.view(1)["pending"]
    assert pending["kind"] == "option" and pending["options"] == ["Next draws", "Reverse", "Bonus"]
    assert "options" not in state.view(0)["pending"]
    refused(state, state.space.option + 3, "may not option 4", "choose an option of 6C's action")
    events = act(state, f"option {option}")
    label = ["Next draws", "Reverse", "Bonus"][option - 1]
    assert events[0] == {"t": "effect", "p": 1, "op": "choose", "option": option, "label": label}
    assert check(events)
    assert len(events) == 2
    audit(state)


def test_nested_coins_and_choices_run_to_the_end():
    inner = ('{step = "choose", options = [{label = "A", effects = [{step = "draw", who = "next"}]}, '
             '{label = "B", effects = [{step = "coin", heads = [{step = "reverse"}], tails = [{step = "penalty", points = 1}]}]}]}')
    effects = f'[{{step = "coin", heads = [{inner}], tails = [{inner}]}}, {{step = "draw", who = "self"}}]'
    rules = make_rules(action_card(effects), players=3, hand_size=2)
    state = start(rules, ["2D 3D", "6C 2H", "2S 3S"], "9C", STOCK)
    events = act(state, "play 6C")
    assert [e["t"] for e in events] == ["play", "coin"]
    assert legal_texts(state) == ["option 1", "option 2"]
    events = act(state, "option 2")
    assert [e["t"] for e in events][:2] == ["effect", "coin"]
    assert events[-1]["t"] == "draw" and events[-1]["p"] == 1  # the step after the coin runs last
    assert state.phase is Phase.PLAY
    audit(state)


# -- filters -------------------------------------------------------------------------------


@pytest.mark.parametrize(("filter_", "expected"), [
    ('{types = ["Rogue"]}', ["2S", "3S"]),
    ('{types = ["Officer"]}', ["3S", "4S"]),  # 3S is both
    ('{types = ["Rogue", "Officer"]}', ["2S", "3S", "4S"]),
    ('{suits = ["H", "D"]}', ["QH", "AD"]),
    ('{suits = "♥"}', ["QH"]),
    ('{ranks = ["A", "Q"]}', ["QH", "AD"]),
    ('{ranks = [12]}', ["QH"]),
    ('{marks = ["skip"]}', ["5C"]),
    ('{types = ["Officer"], suits = ["S"], ranks = ["4"]}', ["4S"]),
    ('{types = ["Rogue"], marks = ["skip"]}', []),
])
def test_filters_every_given_field_must_match_any_value_in_a_field(filter_, expected):
    effects = f'[{{step = "discard_under", count = 5, filter = {filter_}}}]'
    rules = make_rules(action_card(effects), *rogues(), card("5C", marks=["skip"]),
                       players=2, hand_size=7)
    state = start(rules, ["6C 2S 3S 4S QH AD 5C", "2D 3D 4D 5D 6D 7D 8D"], "9C", dealer=1)
    events = act(state, "play 6C")
    if not expected:
        assert state.current_player == 1 and len(events) == 1
        return
    assert sorted(legal_texts(state)) == sorted(["done"] + [f"select {k}" for k in expected])


# -- flags ----------------------------------------------------------------------------------


def test_on_start_optional_lets_the_dealer_decide():
    starter = card("AS", on_start=True, optional=True, effects='[{step = "draw", who = "all"}]',
                   text="Optional: everyone draws.")
    rules = make_rules(starter, players=3, hand_size=2)
    state = start(rules, ["2D 3D", "2H 3H", "2C 3C"], "AS", STOCK, dealer=1)
    assert state.phase is Phase.DECIDE and state.current_player == 1
    assert legal_texts(state) == ["yes", "no"]
    events = act(state, "yes")
    assert events[0] == {"t": "effect", "p": 1, "op": "optional", "card": "AS", "carried_out": True}
    assert [p for p, _ in draws(events)] == [1, 2, 0]
    assert state.current_player == 2
    state = start(rules, ["2D 3D", "2H 3H", "2C 3C"], "AS", STOCK, dealer=1)
    assert act(state, "no")[1:] == []
    assert state.current_player == 2 and state.view(0)["hand_sizes"] == [2, 2, 2]
    audit(state)


def test_action_then_marks_in_order():
    everything = card("9C", marks=["wild", "reverse", "skip"], text="Next draws.",
                      effects='[{step = "draw", who = "next"}]')
    rules = make_rules(everything, players=4, hand_size=2)
    state = start(rules, ["2D 3D", "9C 2H", "2S 3S", "4D 5D"], "6C", STOCK)
    act(state, "play 9C")
    assert state.phase is Phase.DECIDE  # the draw has happened, the wild asks for a suit
    assert draws(state.log) == [(2, "AH")]
    events = act(state, "declare H")
    assert events == [
        {"t": "declare", "p": 1, "suit": "H"},
        {"t": "reverse", "direction": -1},
        {"t": "effect", "p": 1, "op": "skip", "who": 0},
        {"t": "skip", "p": 0},
    ]
    assert state.current_player == 3
    audit(state)


def test_every_decision_kind_is_an_int_action_with_a_text_form():
    state, _ = coin_game(0)
    space = state.space
    texts = {space.yes: "yes", space.no: "no", space.done: "done", space.draw: "draw", space.pass_: "pass",
             space.declare + 2: "declare H", space.target + 1: "target 1", space.option: "option 1"}
    for action, text in texts.items():
        assert state.action_to_string(action) == text and state.parse_action(text) == action
    assert space.size == space.option + space.options
