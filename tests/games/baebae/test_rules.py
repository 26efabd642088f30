"""BAEBAE's rules, a test (or a few) per rule line and ruling (RULINGS E1-E14), on hand-made
deals with tiny decks written for the test (see ``baebae_support``)."""

from __future__ import annotations

import random

import pytest
from baebae_support import (
    ALL_KEYS,
    act,
    audit,
    card,
    deck_text,
    hand,
    legal_texts,
    make_rules,
    of_type,
    refused,
    start,
    write_deck,
)

from cardroom.engine import RulesError
from cardroom.games.baebae import HIDDEN, Phase, Rules
from cardroom.games.baebae.rules import read_decks

WILDS = [card(k, marks=["wild"], types=["Critter"]) for k in ("8C", "8D", "8H", "8S")]
SKIP_5C = card("5C", marks=["skip"])
SKIP_JS = card("JS", marks=["skip"])
REVERSE_KC = card("KC", marks=["reverse"])
REVERSE_3S = card("3S", marks=["reverse"])
DECLARES_AC = card("AC", effects='[{step = "declare_suit"}]', text="Name the suit in play.")
DRAW2_10C = card("10C", effects='[{step = "draw", who = "next", count = 2}]', text="Next draws two.")


def marked_rules(**options):
    """A deck with wild 8s, skips 5C JS, reverses KC 3S, AC that declares, 10C 'next draws 2'."""
    return make_rules(*WILDS, SKIP_5C, SKIP_JS, REVERSE_KC, REVERSE_3S, DECLARES_AC, DRAW2_10C,
                      **options)


def small_deck_rules(keys: str, **options):
    """A deck of exactly these plain cards (no fillers): every card's place is known."""
    return make_rules(*[card(k) for k in keys.split()], plain=False, **options)


# -- E1: the deck, card text ---------------------------------------------------------------


def test_e1_sample_deck_is_52_cards_in_four_suits_with_text_forms():
    rules = Rules()
    assert rules.deck_data.size == 52 == len(rules.card_of)
    assert sorted(c.key for c in rules.cards) == sorted(ALL_KEYS)
    state = rules.new_game(1)
    assert state.card("10H").rank == 10 and state.card("q♠").key == "QS"
    assert state.parse_action("play 10♥") == state.parse_action("play 10h")
    assert state.action_to_string(state.parse_action("play QS")) == "play QS"


def test_e1_every_action_round_trips_through_text():
    state = Rules(players=5).new_game(3)
    for action in range(state.space.size):
        text = state.action_to_string(action)
        assert state.parse_action(text) == action, text


# -- E2: players, deal, first player, deal moves left ----------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (6, 5), (8, 5), (10, 5)])
def test_e2_deal_five_each_seven_with_two_players(players, size):
    rules = Rules(players=players)
    assert rules.hand_size == size
    for seed in range(3):
        state = rules.new_game(seed)
        deal = state.log[0]
        assert [len(h) for h in deal["hands"]] == [size] * players
        assert len(deal["stock"]) == 52 - size * players - 1
        everything = [c for h in deal["hands"] for c in h] + deal["stock"] + [deal["starter"]]
        assert sorted(everything) == sorted(ALL_KEYS)
        if len(state.log) == 1:  # no starter's action has moved a card yet
            assert state.view(0)["hand_sizes"] == [size] * players
            assert state.view(0)["stock_count"] == len(deal["stock"])


@pytest.mark.parametrize(("players", "size"), [(2, 3), (4, 1), (3, 12)])
def test_e2_hand_size_option(players, size):
    state = Rules(players=players, hand_size=size).new_game(0)
    assert [len(h) for h in state.log[0]["hands"]] == [size] * players


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_e2_the_player_left_of_the_dealer_starts(dealer):
    rules = marked_rules(players=4, hand_size=1)
    state = start(rules, ["2D", "3D", "4D", "5D"], "6D", dealer=dealer)
    assert state.current_player == (dealer + 1) % 4
    assert state.view(0)["dealer"] == dealer
    assert state.log[0]["dealer"] == dealer


def test_e2_play_goes_left_in_seat_order():
    rules = make_rules(players=4, hand_size=3)
    state = start(rules, ["2C 2D 2H", "3C 3D 3H", "4C 4D 4H", "5C 5D 5H"], "9C")
    seats = []
    for text in ("play 3C", "play 4C", "play 5C", "play 2C"):
        seats.append(state.current_player)
        act(state, text)
    assert seats == [1, 2, 3, 0] and state.current_player == 1


def test_e2_the_deal_moves_left_each_round_and_direction_resets():
    rules = marked_rules(players=3, hand_size=2, rounds=3)
    # Seat 1 reverses, seat 0 plays, seat 2 plays, seat 1 goes out.
    state = start(rules, ["9C 2H", "KC 9D", "9H 6H"], "4C")
    act(state, "play KC")
    assert state.direction == -1 and state.current_player == 0
    act(state, "play 9C", "play 9H", "play 9D")
    ends = of_type(state.log, "round_end")
    assert ends and ends[0]["out"] == 1
    second = of_type(state.log, "round")[1]
    assert second["n"] == 2 and second["dealer"] == 1 and second["direction"] == 1
    assert state.direction == 1 and state.dealer == 1
    assert state.current_player == 2
    assert state.view(0)["round"] == 2
    audit(state)


def test_e2_deal_moves_left_over_a_whole_game():
    rules = Rules(players=3, rounds=5)
    state = rules.new_game(7)
    moves = random.Random(7)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    dealers = [e["dealer"] for e in of_type(state.log, "round")]
    assert dealers == [0, 1, 2, 0, 1]
    assert [e["direction"] for e in of_type(state.log, "round")] == [1] * 5
    audit(state)


def test_e2_players_two_and_up_as_far_as_the_cards_allow():
    assert Rules(players=2).players == 2
    assert Rules(players=10).new_game(0).n == 10  # 10 x 5 + 1 = 51 <= 52
    with pytest.raises(RulesError, match=r"at most 10 players.*add decks"):
        Rules(players=11)
    assert Rules(players=11, decks=2).new_game(0).n == 11
    assert Rules(players=20, decks=2).new_game(0).n == 20


# -- E3: the starter -----------------------------------------------------------------------


def test_e3_a_starters_action_is_not_played_out():
    rules = marked_rules(players=3, hand_size=2)
    state = start(rules, ["2H 3H", "2D 3D", "2S 3S"], "10C", "4H 5H")
    assert [e["t"] for e in state.log] == ["round"]
    assert state.current_player == 1 and state.phase is Phase.PLAY
    assert state.view(0)["hand_sizes"] == [2, 2, 2]
    assert state.view(0)["stock_count"] == 52 - 7


@pytest.mark.parametrize("starter", ["5C", "JS"])
def test_e3_a_skip_starter_skips_nobody(starter):
    rules = marked_rules(players=3, hand_size=2)
    state = start(rules, ["2H 3H", "2D 3D", "2S 4S"], starter)
    assert state.current_player == 1
    assert state.skips == [0, 0, 0]


@pytest.mark.parametrize("starter", ["KC", "3S"])
def test_e3_a_reverse_starter_does_not_reverse(starter):
    rules = marked_rules(players=3, hand_size=2)
    state = start(rules, ["2H 4H", "2C 2S", "9C 9S"], starter)
    assert state.current_player == 1 and state.direction == 1
    act(state, "play " + ("2C" if starter == "KC" else "2S"))
    assert state.current_player == 2


@pytest.mark.parametrize("starter", ["8C", "8D", "8H", "8S"])
def test_e3_a_wild_starters_printed_suit_is_in_play_and_nobody_declares(starter):
    rules = marked_rules(players=3, hand_size=3)
    state = start(rules, ["2C 2D 2H", "9C 9D 4H", "2S 3S 4S"], starter)
    assert not of_type(state.log, "declare")
    assert state.log[0]["suit"] == starter[-1]
    view = state.view(1)
    assert view["suit"] == starter[-1] and view["declared"] is False
    want = {"8C": "9C", "8D": "9D", "8H": "4H", "8S": None}[starter]
    assert legal_texts(state) == ([f"play {want}"] if want else ["draw"])


def test_e3_on_start_action_is_carried_out_with_the_dealer_as_its_player():
    fog = card("AS", on_start=True, effects='[{step = "draw", who = "all"}]', text="Everyone draws.")
    rules = make_rules(fog, players=3, hand_size=2)
    state = start(rules, ["2H 3H", "2D 3D", "2C 3C"], "AS", "4H 4D 4C 5H", dealer=2)
    events = state.log[1:]
    assert events[0] == {"t": "effect", "p": 2, "op": "on_start", "card": "AS"}
    assert [(e["p"], e["card"], e["forced"]) for e in of_type(events, "draw")] == [
        (2, "4H", True), (0, "4D", True), (1, "4C", True)]
    assert state.current_player == 0 and state.phase is Phase.PLAY
    assert state.view(0)["hand_sizes"] == [3, 3, 3]
    audit(state)


def test_e3_on_start_declaring_starter_lets_the_dealer_name_the_suit():
    rules = Rules(players=3)  # the sample deck's AC: on_start, declare_suit
    state = start(rules, ["2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C"], "AC", dealer=1)
    assert state.current_player == 1 and state.phase is Phase.DECIDE
    assert legal_texts(state) == ["declare C", "declare D", "declare H", "declare S"]
    assert state.view(1)["pending"]["kind"] == "declare"
    assert state.view(0)["pending"] == {"kind": "declare", "seat": 1, "card": "AC"}
    events = act(state, "declare H")
    assert events[0] == {"t": "declare", "p": 1, "suit": "H"}
    assert state.current_player == 2 and state.phase is Phase.PLAY
    assert state.view(2)["suit"] == "H" and state.view(2)["declared"] is True
    assert legal_texts(state) == ["draw"]  # seat 2 holds clubs: the declared suit is hearts
    audit(state)


def test_e3_on_start_carries_out_the_action_but_not_the_marks():
    odd = card("AS", marks=["skip", "reverse"], on_start=True,
               effects='[{step = "draw", who = "next"}]', text="Next draws.")
    rules = make_rules(odd, players=3, hand_size=2)
    state = start(rules, ["2H 3H", "2D 3D", "2C 3C"], "AS", "4H")
    assert [e["t"] for e in state.log[1:]] == ["effect", "draw"]
    assert state.log[2]["p"] == 1
    assert state.direction == 1 and state.skips == [0, 0, 0]
    assert state.current_player == 1  # not skipped


# -- E4: what can be played ------------------------------------------------------------------


def test_e4_match_by_rank_or_suit():
    rules = marked_rules(players=2, hand_size=4)
    state = start(rules, ["6D 9C 2H 3S", "4D 4H 4S 7H"], "6C", dealer=1)
    assert sorted(legal_texts(state)) == ["play 6D", "play 9C"]
    message = refused(state, state.parse_action("play 2H"), "you may not play 2H", "2H does not match",
                      "the top card 6C (rank 6 or Clubs)", "allowed: ")
    assert "play 6D" in message and "play 9C" in message


def test_e4_wild_on_anything_and_the_player_declares_a_suit():
    rules = marked_rules(players=2, hand_size=3)
    state = start(rules, ["8S 2H 3H", "4D 4H 9S"], "6C", dealer=1)
    assert legal_texts(state) == ["play 8S"]
    act(state, "play 8S")
    assert state.phase is Phase.DECIDE and state.current_player == 0
    events = act(state, "declare D")
    assert events[0] == {"t": "declare", "p": 0, "suit": "D"}
    assert state.current_player == 1
    # After a declaration only that suit or a wild: 9S (spades, the wild's printed suit) is out,
    # and so is any 8's rank; 4D follows the declared diamonds.
    assert legal_texts(state) == ["play 4D"]


def test_e4_rank_does_not_match_a_declared_suit():
    rules = marked_rules(players=2, hand_size=3)
    state = start(rules, ["AC 2S 3S", "AD 4H 8H"], "6C", dealer=1)
    act(state, "play AC", "declare S")
    assert state.view(1)["top"] == "AC" and state.view(1)["suit"] == "S"
    assert legal_texts(state) == ["play 8H"]  # AD shares the rank, but a suit was declared
    refused(state, state.parse_action("play AD"), "AD does not match", "declared suit Spades")


def test_e4_a_card_that_declares_plays_on_anything():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["AC 2S", "AD 4H"], "6H", dealer=1)
    assert legal_texts(state) == ["play AC"]


def test_e4_a_wild_may_follow_a_declared_suit():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["8S 2S", "8H 4D"], "6C", dealer=1)
    act(state, "play 8S", "declare C")
    assert legal_texts(state) == ["play 8H"]


def test_e4_marks_never_match_each_other():
    rules = marked_rules(players=2, hand_size=3)
    # Top is 5C (skip): JS (skip) does not go on it; 5D by rank and 2C by suit do.
    state = start(rules, ["JS 5D 2C", "4D 4H 9S"], "5C", dealer=1)
    assert sorted(legal_texts(state)) == ["play 2C", "play 5D"]
    refused(state, state.parse_action("play JS"), "JS does not match")
    # Reverse on reverse likewise: 3S does not go on KC.
    state = start(rules, ["3S 4D 4H", "4S 2D 2H"], "KC", dealer=1)
    assert legal_texts(state) == ["draw"]


# -- E5: drawing -----------------------------------------------------------------------------


def test_e5_cannot_play_draws_and_may_play_the_card_drawn_or_pass():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["2H 3H", "4D 4S"], "6C", "9C 2D", dealer=1)
    assert legal_texts(state) == ["draw"]
    events = act(state, "draw")
    assert events == [{"t": "draw", "p": 0, "card": "9C", "forced": False}]
    assert state.phase is Phase.DRAWN and state.current_player == 0
    assert legal_texts(state) == ["play 9C", "pass"]
    assert state.view(0)["drawn"] == "9C" and state.view(1)["drawn"] is None
    refused(state, state.parse_action("play 2H"), "only the card drawn")
    events = act(state, "play 9C")
    assert events[0] == {"t": "play", "p": 0, "card": "9C", "under": False}
    assert state.current_player == 1


def test_e5_the_playable_card_drawn_may_be_kept():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["2H 3H", "4D 4S"], "6C", "9C 2D", dealer=1)
    events = act(state, "draw", "pass")
    assert events[-1] == {"t": "pass", "p": 0}
    assert hand(state, 0) == ["2H", "3H", "9C"] and state.current_player == 1


def test_e5_an_unplayable_card_drawn_passes_the_turn():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["2H 3H", "4D 4S"], "6C", "2D 9C", dealer=1)
    events = act(state, "draw")
    assert events == [{"t": "draw", "p": 0, "card": "2D", "forced": False}]
    # the turn waits for the pass, so the others cannot tell whether the card was playable
    assert state.phase is Phase.DRAWN and legal_texts(state) == ["pass"]
    assert state.view(1)["phase"] == "drawn"
    assert act(state, "pass") == [{"t": "pass", "p": 0}]
    assert state.current_player == 1 and state.phase is Phase.PLAY


def test_e5_a_player_who_can_play_may_not_draw():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["9C 3H", "4D 4S"], "6C", "2D", dealer=1)
    refused(state, state.space.draw, "may not draw", "a player who can play may not draw",
            "allowed: play 9C")


def test_e5_draw_when_able_lets_a_player_who_can_play_draw():
    rules = marked_rules(players=2, hand_size=2, draw_when_able=True)
    state = start(rules, ["9C 3H", "4D 4S"], "6C", "2D", dealer=1)
    assert legal_texts(state) == ["play 9C", "draw"]
    act(state, "draw")
    assert legal_texts(state) == ["pass"]  # 2D drawn: only the card drawn may be played
    act(state, "pass")
    assert hand(state, 0) == ["2D", "3H", "9C"] and state.current_player == 1


# -- E6: reshuffle, nothing to draw, blocked rounds ----------------------------------------------


def test_e6_reshuffle_in_an_exact_position():
    # 9 cards: seat 0 holds 2C 9D, seat 1 holds 3C 9H, starter 4C, stock 5C 6H 7H 8H.
    rules = small_deck_rules("2C 3C 4C 5C 9D 9H 6H 7H 8H", players=2, hand_size=2)
    state = start(rules, ["2C 9D", "3C 9H"], "4C", "5C 6H 7H 8H", dealer=0)
    act(state, "play 3C", "play 2C")  # discard: 4C 3C 2C; seat 1 to act with 9H
    act(state, "draw")  # 5C: playable
    act(state, "play 5C")  # discard 4C 3C 2C 5C; seat 0 holds 9D
    act(state, "draw", "pass")  # 6H: not playable -> pass
    act(state, "draw", "pass")  # seat 1: 7H, dead -> pass
    act(state, "draw", "pass")  # seat 0: 8H, dead -> pass
    assert state.stock == []
    events = act(state, "draw")  # seat 1: the stock is empty, 4C 3C 2C are reshuffled
    assert events[0]["t"] == "reshuffle" and sorted(events[0]["stock"]) == ["2C", "3C", "4C"]
    assert events[1] == {"t": "draw", "p": 1, "card": events[0]["stock"][0], "forced": False}
    assert state.view(0)["discard"] == ["5C"]
    audit(state)


def test_e6_nothing_to_draw_passes_and_everyone_passing_blocks_the_round():
    # 15 cards, two hands of 7 and the starter KH: nobody can play, nothing to draw.
    keys = "AC 2C 3C 4C 5C 6C 7C 8D 9D 10D JD QD 9S 10S KH"
    rules = small_deck_rules(keys, players=2, rounds=1)
    state = start(rules, ["AC 2C 3C 4C 5C 6C 7C", "8D 9D 10D JD QD 9S 10S"], "KH", dealer=1)
    assert legal_texts(state) == ["pass"]
    refused(state, state.space.draw, "may not draw", "allowed: pass")
    assert act(state, "pass") == [{"t": "pass", "p": 0}]
    assert state.current_player == 1 and legal_texts(state) == ["pass"]
    events = act(state, "pass")
    end = of_type(events, "round_end")[0]
    assert end["blocked"] is True and end["out"] is None and end["guard"] is False
    assert end["penalties"] == [28, 66]  # all hands tallied, nobody out
    assert end["hands"] == [["AC", "2C", "3C", "4C", "5C", "6C", "7C"],
                            ["8D", "9D", "10D", "JD", "QD", "9S", "10S"]]
    assert state.is_over and state.totals == [28, 66]
    audit(state)


def test_e6_a_play_between_passes_keeps_the_round_going():
    keys = "AC 2C 3C 4C 5C 6C 7C 8D 9D 10D JD QD 9S 10S JH KH"
    # 3 players, hands of 5, an empty stock: seats 0 and 1 cannot play, seat 2 can (JH).
    rules = small_deck_rules(keys, players=3, rounds=1)
    state = start(rules, ["AC 2C 3C 4C 5C", "6C 7C 8D 9D 10D", "JD QD 9S 10S JH"], "KH", dealer=2)
    act(state, "pass", "pass", "play JH")
    assert not state.is_over and state.current_player == 0
    assert legal_texts(state) == ["draw"]  # KH can be reshuffled into a stock now
    events = act(state, "draw")
    assert events[0] == {"t": "reshuffle", "stock": ["KH"]}
    assert events[1] == {"t": "draw", "p": 0, "card": "KH", "forced": False}
    audit(state)


def test_e6_a_player_who_lost_a_turn_has_not_passed_so_the_round_is_not_blocked():
    # 7 cards, an empty stock. Seat 1 plays the wild 8H, names hearts and loses its own next
    # turn. Seat 2 draws the reshuffled 9S (dead), seats 0 and 2 pass with nothing to draw,
    # seat 1's turn is skipped: it has not passed, and its 7H can be played.
    hermit = card("8H", marks=["wild"], text="You lose your next turn.", effects='[{step = "skip", who = "self"}]')
    rules = make_rules(hermit, *[card(k) for k in ["7H", "2D", "3D", "4D", "5D", "9S"]], plain=False,
                       players=3, hand_size=2, rounds=1)
    state = start(rules, ["4D 5D", "8H 7H", "2D 3D"], "9S")
    act(state, "play 8H", "declare H")
    assert act(state, "draw")[-1]["t"] == "draw"  # reshuffled 9S, dead
    assert act(state, "pass") == [{"t": "pass", "p": 2}]
    assert act(state, "pass") == [{"t": "pass", "p": 0}, {"t": "skip", "p": 1}]
    act(state, "pass")  # seat 2
    events = act(state, "pass")  # seat 0: seat 1 has not passed since the last play or draw
    assert not of_type(events, "round_end")
    assert state.current_player == 1 and legal_texts(state) == ["play 7H"]
    events = act(state, "play 7H")
    assert of_type(events, "round_end")[0]["out"] == 1
    audit(state)


# -- E7: skip and reverse --------------------------------------------------------------------


def test_e7_skip_the_next_player_loses_their_turn():
    rules = marked_rules(players=3, hand_size=2)
    state = start(rules, ["2H 3H", "5C 2D", "4D 4S"], "6C")
    events = act(state, "play 5C")
    assert events == [
        {"t": "play", "p": 1, "card": "5C", "under": False},
        {"t": "effect", "p": 1, "op": "skip", "who": 2},
        {"t": "skip", "p": 2},
    ]
    assert state.current_player == 0


def test_e7_skip_with_two_players_gives_the_player_another_turn():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["5C 2C", "4D 4S"], "6C", dealer=1)
    act(state, "play 5C")
    assert state.current_player == 0


def test_e7_reverse_flips_the_direction():
    rules = marked_rules(players=4, hand_size=2)
    state = start(rules, ["2C 3D", "KC 2H", "4D 4S", "9C 2S"], "6C")
    events = act(state, "play KC")
    assert events[1] == {"t": "reverse", "direction": -1}
    assert state.current_player == 0 and state.direction == -1
    act(state, "play 2C")
    assert state.current_player == 3


def test_e7_reverse_with_two_players_changes_nothing_about_who_plays_next():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["2H 3H", "KC 2D"], "6C")
    act(state, "play KC")
    assert state.direction == -1 and state.current_player == 0


# -- E8: optional actions --------------------------------------------------------------------


def optional_rules(**options):
    brass = card("7H", optional=True, marks=["skip"], text="Optional: next draws one.",
                 effects='[{step = "draw", who = "next"}]')
    return make_rules(brass, **options)


def test_e8_an_optional_action_asks_yes_or_no_when_played():
    rules = optional_rules(players=3, hand_size=2)
    state = start(rules, ["2D 3D", "7H 2S", "4D 4S"], "6H", "9C 9D")
    act(state, "play 7H")
    assert state.phase is Phase.DECIDE and state.current_player == 1
    assert legal_texts(state) == ["yes", "no"]
    assert state.view(1)["pending"]["kind"] == "optional"
    events = act(state, "yes")
    assert events[0] == {"t": "effect", "p": 1, "op": "optional", "card": "7H", "carried_out": True}
    assert events[1] == {"t": "draw", "p": 2, "card": "9C", "forced": True}
    assert of_type(events, "skip") == [{"t": "skip", "p": 2}]
    assert state.current_player == 0


def test_e8_declining_an_optional_action_still_plays_the_marks():
    rules = optional_rules(players=3, hand_size=2)
    state = start(rules, ["2D 3D", "7H 2S", "4D 4S"], "6H", "9C 9D")
    events = act(state, "play 7H", "no")
    assert {"t": "effect", "p": 1, "op": "optional", "card": "7H", "carried_out": False} in events
    assert not of_type(events, "draw")
    assert of_type(events, "skip") == [{"t": "skip", "p": 2}]
    assert state.current_player == 0


def test_e8_a_mandatory_action_is_not_asked():
    rules = marked_rules(players=3, hand_size=2)
    state = start(rules, ["2D 3D", "10C 2S", "4D 4S"], "6C", "9C 9D")
    events = act(state, "play 10C")
    assert [e["t"] for e in events] == ["play", "draw", "draw"]
    assert hand(state, 2) == ["4D", "4S", "9C", "9D"]


# -- E9: cannot win --------------------------------------------------------------------------


def cannot_win_rules(optional: bool, **options):
    diva = card("9H", can_win=False, optional=optional, text="Play again. Cannot win.",
                effects='[{step = "play_again"}]')
    return make_rules(diva, **options)


def test_e9_cannot_win_card_alone_in_hand_is_refused():
    rules = cannot_win_rules(False, players=2, hand_size=1)
    state = start(rules, ["9H", "4D"], "6H", "3D", dealer=1)
    assert legal_texts(state) == ["draw"]
    refused(state, state.parse_action("play 9H"), "cannot win a round", "last card", "E9",
            "allowed: draw")


def test_e9_an_optional_cannot_win_card_goes_out_without_its_action():
    rules = cannot_win_rules(True, players=2, hand_size=1)
    state = start(rules, ["9H", "4D"], "6H", "3D", dealer=1)
    assert legal_texts(state) == ["play 9H"]
    events = act(state, "play 9H")
    assert [e["t"] for e in events[:2]] == ["play", "round_end"]
    assert events[1]["out"] == 0
    assert not [e for e in events if e["t"] == "effect"]


def test_e9_cannot_win_applies_to_the_last_card_only():
    rules = cannot_win_rules(False, players=2, hand_size=2)
    state = start(rules, ["9H 2H", "4D 4S"], "6H", "3D", dealer=1)
    assert sorted(legal_texts(state)) == ["play 2H", "play 9H"]
    act(state, "play 9H")
    assert state.current_player == 0 and legal_texts(state) == ["play 2H"]
    events = act(state, "play 2H")
    assert events[-1]["t"] in ("round", "end") and of_type(events, "round_end")[0]["out"] == 0


# -- E10: the round ends the moment a hand is empty -----------------------------------------------


def test_e10_the_last_card_has_no_effect_at_all():
    bomb = card("9C", marks=["wild", "skip", "reverse"], text="Next draws 2, penalty, coin.",
                effects='[{step = "draw", who = "next", count = 2}, {step = "penalty", who = "next", points = 5}, '
                        '{step = "coin", heads = [{step = "reverse"}]}]')
    rules = make_rules(bomb, players=3, hand_size=1, rounds=1)
    state = start(rules, ["2D", "9C", "3D"], "6C", "4H 5H")
    events = act(state, "play 9C")
    assert [e["t"] for e in events] == ["play", "round_end", "end"]
    end = events[1]
    assert end["out"] == 1 and end["penalties"] == [2, 0, 3] and end["blocked"] is False
    assert state.is_over


def test_e10_the_round_ends_in_the_middle_of_an_action():
    juggler = card("JH", text="Everyone discards one; then next draws 2.",
                   effects='[{step = "discard", who = "all"}, {step = "draw", who = "next", count = 2}]')
    rules = make_rules(juggler, players=3, hand_size=2, rounds=1)
    # Seat 1 plays JH and holds one card: it discards it first, which empties its hand.
    state = start(rules, ["2D 3D", "JH 4C", "5D 6D"], "6H", "4H 5H")
    events = act(state, "play JH")
    assert [e["t"] for e in events] == ["play", "move", "round_end", "end"]
    assert events[1] == {"t": "move", "from": 1, "to": "discard", "cards": ["4C"], "why": "discard"}
    assert events[2]["out"] == 1
    assert not of_type(events, "draw")


def test_e10_the_next_round_is_dealt_at_once():
    rules = marked_rules(players=3, hand_size=1, rounds=2)
    state = start(rules, ["2D", "9C", "3D"], "6C")
    events = act(state, "play 9C")
    assert [e["t"] for e in events[:3]] == ["play", "round_end", "round"]
    assert state.round_no == 2 and not state.is_over


# -- E11: cards played through an action go under it --------------------------------------------


def test_e11_cards_played_through_an_action_go_under_and_the_action_card_stays_on_top():
    countess = card("QD", text="Up to two diamonds under this card.",
                    effects='[{step = "discard_under", count = 2, filter = {suits = ["D"]}}]')
    rules = make_rules(countess, *WILDS, DRAW2_10C, players=2, hand_size=5)
    state = start(rules, ["QD 2D 8D 10C 5S", "3S 4S 5H 6H 7H"], "9D", dealer=1)
    act(state, "play QD")
    assert sorted(legal_texts(state)) == ["done", "select 2D", "select 8D"]
    events = act(state, "select 8D", "select 2D")
    assert events == [
        {"t": "play", "p": 0, "card": "8D", "under": True},
        {"t": "play", "p": 0, "card": "2D", "under": True},
    ]
    assert state.view(1)["discard"] == ["9D", "8D", "2D", "QD"]
    assert state.view(1)["top"] == "QD" and state.view(1)["suit"] == "D"
    assert not of_type(state.log, "declare")  # the wild's mark did not happen
    assert state.current_player == 1
    assert legal_texts(state) == ["draw"]  # seat 1 must match QD: no Q, no diamond
    audit(state)


# -- E12: penalties, rounds, ranking, shame --------------------------------------------------------


BLOCKED_KEYS = "AC 2C 3C 4C 5C 6C 7C 8D 9D 10D JD QD 9S 10S KH"
BLOCKED_HANDS = ["AC 2C 3C 4C 5C 6C 7C", "8D 9D 10D JD QD 9S 10S"]


@pytest.mark.parametrize(("ace", "expected"), [(None, 28), (0, 27), (5, 32)])
def test_e12_penalties_face_value_ten_for_courts_ace_option(ace, expected):
    options = {} if ace is None else {"ace_penalty": ace}
    rules = small_deck_rules(BLOCKED_KEYS, players=2, rounds=1, **options)
    state = start(rules, BLOCKED_HANDS, "KH", dealer=1)
    act(state, "pass", "pass")
    assert state.totals == [expected, 66]  # 8+9+10+10+10+9+10


@pytest.mark.parametrize(("held", "points"), [("8D", 8), ("8H", 8), ("AS", 1), ("KD", 10), ("10S", 10),
                                               ("QS", 10), ("JS", 10), ("2S", 2), ("9S", 9)])
def test_e12_each_card_left_in_hand_counts_wild_cards_by_rank(held, points):
    rules = marked_rules(players=3, hand_size=1, rounds=1)
    state = start(rules, ["3D", "9C", held], "6C")
    act(state, "play 9C")
    assert state.totals == [3, 0, points]


def test_e12_totals_add_up_over_the_rounds_default_three():
    rules = Rules(players=4)
    assert rules.rounds == 3
    state = rules.new_game(11)
    moves = random.Random(11)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    ends = of_type(state.log, "round_end")
    assert len(ends) == 3 and len(of_type(state.log, "round")) == 3
    assert state.totals == [sum(e["penalties"][s] for e in ends) for s in range(4)]
    assert state.log[-1]["t"] == "end" and state.log[-1]["totals"] == state.totals
    audit(state)


def test_e12_rounds_option():
    rules = Rules(players=3, rounds=5)
    state = rules.new_game(2)
    moves = random.Random(2)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    assert len(of_type(state.log, "round_end")) == 5


RANK_KEYS = "2C 3D 4S 5C KH"


@pytest.mark.parametrize(("totals", "ranking", "shame"), [
    ([0, 0, 0, 0], [(0, 2, 1), (1, 3, 2), (2, 4, 3), (3, 5, 4)], [3]),
    ([8, 7, 0, 5], [(2, 4, 1), (0, 10, 2), (1, 10, 2), (3, 10, 2)], [0, 1, 3]),
    ([3, 2, 1, 0], [(0, 5, 1), (1, 5, 1), (2, 5, 1), (3, 5, 1)], []),
    ([0, 0, 1, 0], [(0, 2, 1), (1, 3, 2), (2, 5, 3), (3, 5, 3)], [2, 3]),
])
def test_e12_ranking_lowest_first_ties_share_a_place_highest_is_shamed(totals, ranking, shame):
    rules = small_deck_rules(RANK_KEYS, players=4, hand_size=1, rounds=1)
    state = start(rules, ["2C", "3D", "4S", "5C"], "KH", totals=totals)
    for _ in range(4):
        act(state, "pass")
    end = state.log[-1]
    assert end["t"] == "end"
    assert [(r["seat"], r["total"], r["place"]) for r in end["ranking"]] == ranking
    assert end["shame"] == shame and state.shame == shame
    assert state.view(0)["shame"] == shame and state.view(2)["ranking"] == end["ranking"]
    firsts = [r["seat"] for r in end["ranking"] if r["place"] == 1]
    assert state.winner == (firsts[0] if len(firsts) == 1 else None)
    assert abs(sum(state.returns())) < 1e-9


# -- E13: types --------------------------------------------------------------------------------


def test_e13_a_card_with_two_types_counts_as_each():
    captain = card("JC", text="Every player holding an Officer draws.",
                   effects='[{step = "draw", who = {holding = {types = ["Officer"]}}}]')
    clerk = card("QC", text="Every player holding a Celebrity draws.",
                 effects='[{step = "draw", who = {holding = {types = ["Celebrity"]}}}]')
    both = card("2S", types=["Officer", "Celebrity"])
    rules = make_rules(captain, clerk, both, players=3, hand_size=2)
    for played in ("JC", "QC"):
        state = start(rules, ["2D 3D", f"{played} 4D", "2S 5D"], "6C", "9H 9D")
        events = act(state, f"play {played}")
        assert [e["p"] for e in of_type(events, "draw")] == [2]


# -- E14: what is public -------------------------------------------------------------------------


def test_e14_views_show_the_public_and_own_hand_only():
    rules = marked_rules(players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "8S 2H 3H", "5D 6D 7D"], "6C", "9H 9D")
    act(state, "play 8S", "declare D")
    for seat in range(3):
        view = state.view(seat)
        assert view["hand"] == (state.log[0]["hands"][seat] if seat != 1 else ["2H", "3H"])
        assert view["hand_sizes"] == [3, 2, 3]
        assert view["discard"] == ["6C", "8S"] and view["top"] == "8S"
        assert view["suit"] == "D" and view["declared"] is True and view["direction"] == 1
        assert view["stock_count"] == 52 - 10 and "stock" not in view
        assert view["current_player"] == 2
        assert (view["legal_actions"] != []) == (seat == 2)
        round_event = state.view_log(seat)[0]
        assert round_event["stock"] == [HIDDEN] * (52 - 10)
        for other in range(3):
            if other != seat:
                assert round_event["hands"][other] == [HIDDEN] * 3


# -- IllegalAction -------------------------------------------------------------------------------


def test_illegal_not_a_card_held():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["9C 2H", "4D 4S"], "6C", dealer=1)
    refused(state, state.parse_action("play 7C"), "you may not play 7C", "you do not hold 7C",
            "allowed: play 9C")


def test_illegal_numbers_bools_and_other_types_are_refused():
    rules = marked_rules(players=2, hand_size=2)
    state = start(rules, ["9C 2H", "4D 4S"], "6C", dealer=1)
    size = state.space.size
    for action in (-1, size, size + 5, 10**18, -(10**9)):
        refused(state, action, f"actions are 0 to {size - 1}", "allowed: play 9C")
    for action in ("play 9C", 1.0, None, (3,), [3], "9C"):
        refused(state, action, "an action is a whole number", str(size - 1), "allowed: play 9C")
    for action in (True, False):
        refused(state, action, "an action is a whole number", "not " + repr(action), "allowed: play 9C")


def test_illegal_wrong_decision_kind():
    rules = marked_rules(players=2, hand_size=3)
    state = start(rules, ["8S 2H 3H", "4D 4H 9S"], "6C", dealer=1)
    refused(state, state.space.yes, "you may not answer yes", "allowed: play 8S")
    act(state, "play 8S")
    space = state.space
    for action in (space.yes, space.no, space.done, space.pass_, space.draw, space.target + 1,
                   space.option, space.select + state.parse_action("play 2H"),
                   state.parse_action("play 2H")):
        refused(state, action, "you must first name a suit",
                "allowed: declare C, declare D, declare H, declare S")


def test_illegal_after_the_game_is_over():
    rules = marked_rules(players=3, hand_size=1, rounds=1)
    state = start(rules, ["2D", "9C", "3D"], "6C")
    act(state, "play 9C")
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    for action in (0, state.space.draw, state.space.pass_):
        refused(state, action, "the game is over")


def test_parse_action_errors_say_what_is_allowed():
    from cardroom.engine import IllegalAction

    state = Rules().new_game(0)
    for text, fragment in [("", "no action given"), ("play 1Z", "not a card of this deck"),
                           ("declare X", "declare takes a suit"), ("target x", "takes a number"),
                           ("target 9", "out of range"), ("option 0", "out of range")]:
        with pytest.raises(IllegalAction, match=fragment):
            state.parse_action(text)


# -- options -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "fragment"), [
    ({"players": 1}, "players must be a whole number from 2"),
    ({"players": True}, "players must be a whole number"),
    ({"players": 11}, "at most 10 players"),
    ({"rounds": 0}, "rounds must be a whole number from 1 to 100, not 0"),
    ({"rounds": 101}, "rounds must be a whole number from 1 to 100, not 101"),
    ({"ace_penalty": -1}, "ace_penalty must be a whole number from 0 to 20, not -1"),
    ({"decks": 0}, "decks must be a whole number from 1 to 8, not 0"),
    ({"decks": 9}, "decks must be a whole number from 1 to 8, not 9"),
    ({"hand_size": 0}, "hand_size must be a whole number from 1 to 20, not 0"),
    ({"hand_size": 21}, "hand_size must be a whole number from 1 to 20, not 21"),
    ({"turn_limit": 5}, "turn_limit must be a whole number from 10"),
    ({"draw_when_able": "yes"}, "draw_when_able must be true or false"),
    ({"deck": ""}, "deck must be a deck name"),
    ({"deck": "no-such-deck"}, "no deck 'no-such-deck'"),
    ({"deck": "/no/such/file.toml"}, "give a deck file or one of the project's decks: sample"),
    ({"deck_files": 5}, "deck_files must be a list of deck files' texts"),
    ({"deck": "sample", "deck_files": ["name = 'X'"]}, "deck: deck file: the deck has no cards"),
])
def test_options_are_validated_with_clear_messages(options, fragment):
    with pytest.raises(RulesError) as info:
        Rules(**options)
    assert fragment in str(info.value)


def test_too_many_players_names_the_most_and_suggests_decks():
    with pytest.raises(RulesError) as info:
        Rules(players=11)
    message = str(info.value)
    assert "11 players with 5 cards each need 56 cards" in message
    assert "has 52" in message and "at most 10 players" in message and "add decks" in message
    with pytest.raises(RulesError, match="at most 5 players"):
        Rules(players=6, hand_size=10)


def test_too_few_cards_counts_seven_for_two_players():
    # 14 cards: 3 players need 16, and 2 players need 15 (7 each): not even 2 players fit.
    rules_text = deck_text(*[card(k) for k in ALL_KEYS[:14]], plain=False)
    path = str(write_deck(rules_text))
    with pytest.raises(RulesError) as info:
        Rules(players=3, **read_decks(path))
    message = str(info.value)
    assert "need 16 cards" in message and "has 14" in message
    assert "at most 2 players" not in message
    with pytest.raises(RulesError) as info:
        Rules(players=2, **read_decks(path))
    assert "at most 1 players" not in str(info.value)
    assert "too few cards for any game" in str(info.value) and "or add decks" in str(info.value)
    assert Rules(players=2, hand_size=6, **read_decks(path)).hand_size == 6


def test_options_from_text():
    rules = Rules.from_dict({"rounds": "2", "draw_when_able": "yes", "players": "3", "hand_size": "4",
                             "ace_penalty": "0", "decks": "2", "turn_limit": "50", "deck": "sample"})
    assert (rules.rounds, rules.draw_when_able, rules.players, rules.hand_size) == (2, True, 3, 4)
    assert (rules.ace_penalty, rules.decks, rules.turn_limit) == (0, 2, 50)
    assert Rules.from_dict({"draw_when_able": "off"}).draw_when_able is False
    assert Rules.from_dict(rules.to_dict()) == rules
    for options, fragment in [({"rounds": "two"}, "option rounds takes a whole number"),
                              ({"draw_when_able": "maybe"}, "takes true or false"),
                              ({"colour": "red"}, "unknown BAEBAE option 'colour'; the options are players"),
                              ({"rounds": "0"}, "rounds must be a whole number from 1 to 100")]:
        with pytest.raises(RulesError, match=fragment):
            Rules.from_dict(options)


def test_options_to_dict_names_every_option():
    assert Rules().to_dict() == {
        "players": 4, "rounds": 3, "ace_penalty": 1, "draw_when_able": False, "hand_size": 5,
        "decks": 1, "deck": "sample", "turn_limit": 2000, "chosen_target": "once", "stream": "splitmix",
    }
    assert Rules(players=2).to_dict()["hand_size"] == 7


# -- the turn-limit guard ----------------------------------------------------------------------


def test_turn_limit_guard_ends_a_long_round_and_is_reported():
    rules = Rules(players=2, turn_limit=10, rounds=2)
    state = rules.new_game(5)
    moves = random.Random(5)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    ends = of_type(state.log, "round_end")
    guarded = [e for e in ends if e["guard"]]
    assert guarded, "a 10-turn limit stops some round of this game"
    for e in guarded:
        assert e["blocked"] is True and e["out"] is None
    assert state.log[-1]["guard_rounds"] == len(guarded) == state.guard_rounds
    audit(state)


def test_without_the_guard_nothing_is_reported():
    state = Rules(players=4).new_game(3)
    moves = random.Random(3)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    assert all(e["guard"] is False for e in of_type(state.log, "round_end"))
    assert state.log[-1]["guard_rounds"] == 0


def test_events_and_views_are_json_ready():
    import json

    state = Rules(players=3).new_game(4)
    moves = random.Random(4)
    while not state.is_over:
        state.apply(moves.choice(state.legal_actions()))
    assert json.loads(json.dumps(state.log)) == state.log
    assert json.loads(json.dumps(state.view(1))) == state.view(1)


# -- hand-made deals ----------------------------------------------------------------------------


FULL = [["2C", "3C", "4C", "5C", "6C"], ["7C", "8C", "9C", "10C", "JC"], ["QC", "KC", "AD", "2D", "3D"]]


@pytest.mark.parametrize(("deal", "fragment"), [
    ({"hands": FULL[:2], "starter": "3H"}, "deal has 2 hands; 3 players need 3"),
    ({"hands": [FULL[0][:4], *FULL[1:]], "starter": "3H"}, "deal, hand 0 has 4 cards; each hand needs 5"),
    ({"hands": [["1Z", *FULL[0][1:]], *FULL[1:]], "starter": "3H"},
     "deal, hand 0: '1Z' is not a card of the deck 'Cardroom Sample Deck'"),
    ({"hands": FULL, "starter": "2C"}, "deal, starter: no copy of 2C is left"),
    ({"hands": FULL, "starter": 5}, "deal, starter: 5 is not a card of the deck"),
    ({"hands": FULL, "starter": "4D", "stock": ["5D", "5D"]}, "deal, stock: no copy of 5D is left"),
    ({"hands": FULL, "starter": "4D", "dealer": 3}, "deal, dealer must be a seat from 0 to 2, not 3"),
])
def test_a_hand_made_deal_is_checked(deal, fragment):
    from cardroom.games.baebae import Deal

    with pytest.raises(RulesError) as info:
        Rules(players=3).new_game(0, deal=Deal(**deal))
    assert fragment in str(info.value)


def test_a_hand_made_deal_puts_the_stock_on_top_in_order_and_shuffles_the_rest_from_the_seed():
    rules = Rules(players=3)
    state = start(rules, [" ".join(h) for h in FULL], "4D", "9H 8H 7H")
    assert state.log[0]["stock"][:3] == ["9H", "8H", "7H"]
    assert [state.card_text(p) for p in state.stock[::-1][:3]] == ["9H", "8H", "7H"]
    assert state.log[0]["hands"] == [sorted(h, key=[c.key for c in rules.cards].index) for h in FULL]
    other = start(rules, [" ".join(h) for h in FULL], "4D", "9H 8H 7H", seed=1)
    assert other.log[0]["stock"][3:] != state.log[0]["stock"][3:]
    assert sorted(other.log[0]["stock"]) == sorted(state.log[0]["stock"])


def test_start_totals_and_seed_are_checked():
    rules = Rules(players=3)
    for totals in ([1, 2], [1, 2, "3"], [1, 2, True]):
        with pytest.raises(RulesError, match="totals must be 3 whole numbers"):
            rules.new_game(0, totals=totals)
    for seed in ("x", 1.5, True):
        with pytest.raises(RulesError, match="seed must be a whole number"):
            rules.new_game(seed)
    state = rules.new_game(0, totals=[5, 0, 7])
    assert state.totals == [5, 0, 7] and state.view(1)["totals"] == [5, 0, 7]


def test_two_decks_deal_two_copies_of_a_design():
    rules = Rules(players=2, decks=2)
    state = start(rules, ["6C 6C 2H 3H 4H 5H 7H", "2D 3D 4D 5D 6D 7D 8D"], "9C", dealer=1)
    assert hand(state, 0).count("6C") == 2 and rules.deck_data.size == 104
    assert legal_texts(state) == ["play 6C"]  # one action for both copies
    events = act(state, "play 6C")
    assert events == [{"t": "play", "p": 0, "card": "6C", "under": False}]  # no J, Q or K to discard
    assert hand(state, 0).count("6C") == 1
    audit(state)
