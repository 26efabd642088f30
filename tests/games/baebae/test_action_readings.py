"""Readings of the action language that a deck's text could leave open, each settled on a
hand-made deal (docs/deck-guide.md, "How actions are read"): a chosen player is chosen once
per action; skipping yourself and playing again; a give to the next player when that player
is a giver; and whether the dealer's starting action counts as a turn for ``turn_limit``."""

from __future__ import annotations

import pytest
from baebae_support import act, audit, card, hands, legal_texts, make_rules, of_type, start

from cardroom.engine import RulesError
from cardroom.games.baebae import Phase
from cardroom.record import make_record, verify

STOCK = "AH 7H 10H JH KH 10D KD 10S JS KS"
HANDS = ["2S 2D", "6C 4S", "4D 5D", "3S 5H"]


def action_card(effects: str, key: str = "6C", **kwargs):
    return card(key, text="A test action.", effects=effects, **kwargs)


def targets(events):
    return [e["who"] for e in events if e["t"] == "effect" and e["op"] == "target"]


# -- a chosen player is chosen once per action ----------------------------------------------


def test_a_chosen_player_is_chosen_once_for_every_step_of_the_action():
    rules = make_rules(action_card('[{step = "skip", who = "chosen"}, {step = "draw", who = "chosen"}]'),
                       players=4, hand_size=2)
    state = start(rules, ["2S 2D", "6C 4S", "4D 5C", "3S 5H"], "9C", STOCK)
    act(state, "play 6C")
    assert legal_texts(state) == ["target 0", "target 2", "target 3"]
    events = act(state, "target 3")
    assert targets(events) == [3]
    assert [e for e in events if e["t"] == "effect" and e["op"] == "skip"] == [
        {"t": "effect", "p": 1, "op": "skip", "who": 3}]
    assert [(e["p"], e["card"]) for e in of_type(events, "draw")] == [(3, "AH")]  # no second question
    assert state.phase is Phase.PLAY and state.current_player == 2
    act(state, "play 5C")
    assert state.current_player == 0  # seat 3 lost its turn
    audit(state)


def test_the_choice_holds_inside_a_coin_or_a_choice_and_after_it():
    effects = ('[{step = "choose", options = [{label = "Draw", effects = [{step = "draw", who = "chosen"}]}, '
               '{label = "Skip", effects = [{step = "skip", who = "chosen"}]}]}, '
               '{step = "coin", heads = [{step = "penalty", who = "chosen", points = 2}], '
               'tails = [{step = "penalty", who = "chosen", points = 3}]}, {step = "draw", who = "chosen"}]')
    rules = make_rules(action_card(effects), players=4, hand_size=2)
    state = start(rules, HANDS, "9C", STOCK)
    act(state, "play 6C", "option 1")
    assert legal_texts(state) == ["target 0", "target 2", "target 3"]
    events = act(state, "target 0")
    assert targets(events) == [0]
    assert [e["p"] for e in of_type(events, "draw")] == [0, 0]
    assert [e["p"] for e in of_type(events, "penalty")] == [0]
    assert state.phase is Phase.PLAY
    audit(state)


def test_each_card_played_chooses_again():
    again = action_card('[{step = "draw", who = "chosen"}, {step = "play_again"}]', can_win=False)
    other = action_card('[{step = "draw", who = "chosen"}]', key="6D")
    rules = make_rules(again, other, players=4, hand_size=3)
    state = start(rules, ["2S 2D 3D", "6C 6D 4S", "4D 5D 7D", "3S 5H 8D"], "9C", STOCK)
    act(state, "play 6C", "target 3")
    assert state.current_player == 1 and state.phase is Phase.PLAY
    act(state, "play 6D")
    assert legal_texts(state) == ["target 0", "target 2", "target 3"], "a new action asks again"
    events = act(state, "target 2")
    assert [e["p"] for e in of_type(events, "draw")] == [2]
    assert targets(state.log) == [3, 2]
    audit(state)


def test_records_of_a_chosen_player_replay_exactly():
    rules = make_rules(action_card('[{step = "skip", who = "chosen"}, {step = "give", to = "chosen"}]'),
                       players=4, hand_size=3, rounds=1)
    state = start(rules, ["2S 2D 3D", "6C 4S 4C", "4D 5D 7D", "3S 5H 8D"], "9C", STOCK)
    act(state, "play 6C", "target 2")
    assert legal_texts(state) == ["select 4C", "select 4S"], "the give goes to the player chosen for the skip"
    act(state, "select 4S")
    assert hands(state)[2] == ["4D", "4S", "5D", "7D"]
    seats = [{"name": f"Seat {s}", "agent": "human"} for s in range(4)]
    assert verify(make_record(state, seats=seats)).ok


# -- skip yourself, then play again ---------------------------------------------------------


@pytest.mark.parametrize("effects", [
    '[{step = "skip", who = "self"}, {step = "play_again"}]',
    '[{step = "play_again"}, {step = "skip", who = "self"}]',
])
def test_skip_yourself_then_play_again_loses_your_next_turn_in_the_round_not_the_extra_one(effects):
    rules = make_rules(action_card(effects, can_win=False), players=4, hand_size=3)
    state = start(rules, ["5S 2D 3D", "6C 6H 4S", "4H 5D 7D", "3S 5H 8D"], "9C", STOCK)
    act(state, "play 6C")
    assert state.current_player == 1 and state.phase is Phase.PLAY  # the extra turn comes at once
    act(state, "play 6H")
    assert state.current_player == 2
    act(state, "play 4H", "play 5H", "play 5S")
    assert state.current_player == 2  # seat 1's next turn in the round is the one lost
    assert state.log[-1] == {"t": "skip", "p": 1}
    audit(state)


# -- give to the next player when that player is a giver ------------------------------------


def test_give_to_next_the_next_player_gives_nothing_to_themselves():
    rules = make_rules(action_card('[{step = "give", who = "others", to = "next"}]'), players=4, hand_size=2)
    state = start(rules, HANDS, "9C", STOCK)
    act(state, "play 6C")
    # seat 2 is next: it receives, and gives nothing; seats 3 and 0 each give it a card
    assert state.current_player == 3 and sorted(legal_texts(state)) == ["select 3S", "select 5H"]
    act(state, "select 5H", "select 2D")
    moves = [(m["from"], m["to"], m["cards"]) for m in of_type(state.log, "move")]
    assert moves == [(3, 2, ["5H"]), (0, 2, ["2D"])]
    assert hands(state) == [["2S"], ["4S"], ["2D", "4D", "5D", "5H"], ["3S"]]
    audit(state)


def test_give_from_the_next_player_to_the_next_player_does_nothing():
    rules = make_rules(action_card('[{step = "give", who = "next", to = "next"}]'), players=4, hand_size=2)
    state = start(rules, HANDS, "9C", STOCK)
    events = act(state, "play 6C")
    assert of_type(events, "move") == [] and state.current_player == 2
    audit(state)


# -- the turn limit and the dealer's starting action ----------------------------------------


def turns_before_the_guard(state) -> int:
    """Turns played in the first round until the guard stopped it: each ends in a play or a pass."""
    while state.round_no == 1 and not state.is_over:
        state.apply(state.legal_actions()[0])
    first = next(e for e in state.log if e["t"] == "round_end")
    assert first["guard"] is True
    played = state.log[:state.log.index(first)]
    return sum(1 for e in played if (e["t"] == "play" and not e["under"]) or e["t"] == "pass")


def test_the_dealers_starting_action_counts_as_a_turn_for_the_turn_limit():
    # A plain deck: with seven cards each, nobody can be out before the 13th turn.
    plain = make_rules(players=2, turn_limit=10, rounds=1)
    hands7 = ["2C 3C 4C 5C 6C 7C 8C", "2D 3D 4D 5D 6D 7D 8D"]
    state = start(plain, hands7, "9C")
    assert turns_before_the_guard(state) == 11  # stopped once it has had more than 10 turns
    starting = make_rules(action_card('[{step = "penalty", who = "self", points = 1}]', key="9C", on_start=True),
                          players=2, turn_limit=10, rounds=1)
    state = start(starting, hands7, "9C")
    assert [e["op"] for e in state.log if e["t"] == "effect"] == ["on_start"]
    assert turns_before_the_guard(state) == 10  # the dealer's starting action was the first of the 11


# -- the record's winner when the lowest total is shared --------------------------------------


def test_a_shared_lowest_total_is_recorded_with_winner_null():
    rules = make_rules(players=2, hand_size=1, rounds=1)
    state = start(rules, ["5D", "6C"], "9C", totals=[0, 5])
    act(state, "play 6C")  # seat 1 goes out; seat 0 keeps 5D: 5 points each
    assert state.is_over and state.totals == [5, 5]
    assert [r["place"] for r in state.ranking] == [1, 1]
    record = make_record(state, seats=[{"name": "Ada", "agent": "human"}, {"name": "Bo", "agent": "human"}])
    assert record["result"] == {"over": True, "totals": [5, 5], "winner": None}
    assert verify(record).ok


def test_chosen_target_each_step_asks_at_every_step_as_records_before_the_option_were_played():
    rules = make_rules(action_card('[{step = "skip", who = "chosen"}, {step = "draw", who = "chosen"}]'),
                       players=4, hand_size=2, chosen_target="each_step")
    state = start(rules, ["2S 2D", "6C 4S", "4D 5C", "3S 5H"], "9C", STOCK)
    act(state, "play 6C", "target 3")
    assert legal_texts(state) == ["target 0", "target 2", "target 3"], "the draw asks again"
    events = act(state, "target 2")
    assert [(e["p"], e["card"]) for e in of_type(events, "draw")] == [(2, "AH")]
    assert targets(state.log) == [3, 2]
    seats = [{"name": f"Seat {s}", "agent": "human"} for s in range(4)]
    assert verify(make_record(state, seats=seats)).ok
    audit(state)


def test_chosen_target_takes_its_two_readings_only():
    with pytest.raises(RulesError, match="chosen_target must be once or each_step, not 'twice'"):
        make_rules(action_card('[{step = "draw", who = "chosen"}]'), chosen_target="twice")
