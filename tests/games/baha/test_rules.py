"""Baha's rules, one test (or a few) per ruling (RULINGS B1-B11) and per option, on hand-made deals.

Deals are written compactly: ``{1: "6T 1P-12P", 3: "1R-13R"}`` gives seat 1 the Turquoise 6 and
Purple 1 to 12, seat 3 every Red card; the cards nobody was given fill the other hands in
ascending order (colour by colour P R T O, low to high), then the leftovers, then the pile.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable

import pytest

from cardroom.engine import IllegalAction, RulesError
from cardroom.games.baha import HIDDEN, NUM_ACTIONS, PASS_BASE, Deal, Phase, Rules
from cardroom.games.baha.cards import baha_card_text, parse_baha_card, value_of

ALL = [f"{v}{c}" for c in "PRTO" for v in range(1, 14)]  # ascending card order
CARD_TEXT = re.compile(r"^(1[0-3]|[1-9])[PRTO]$")


# -- helpers ---------------------------------------------------------------------------------


def cards(spec: str) -> list[str]:
    """``"1P-3P 9R"`` -> ``["1P", "2P", "3P", "9R"]`` (a range stays within one colour)."""
    out: list[str] = []
    for token in spec.split():
        token = token.upper()
        if "-" in token:
            low, high = token.split("-")
            assert low[-1] == high[-1], token
            out += [f"{v}{low[-1]}" for v in range(int(low[:-1]), int(high[:-1]) + 1)]
        else:
            out.append(token)
    return out


def make_deal(
    rules: Rules,
    hands: dict[int, str] | None = None,
    leftover: str = "",
    draw_pile: str = "",
    dealer: int = 0,
) -> Deal:
    """A full deal from partial hands; unnamed cards fill hands, leftovers, pile in order."""
    given = {s: cards(h) for s, h in (hands or {}).items()}
    left = cards(leftover)
    pile = cards(draw_pile)
    used = [c for h in given.values() for c in h] + left + pile
    assert len(used) == len(set(used)), "a card is given twice in the test's deal"
    rest = iter([c for c in ALL if c not in set(used)])
    full_hands = []
    for seat in range(rules.players):
        hand = given.get(seat, [])[:]
        assert len(hand) <= rules.hand_size
        while len(hand) < rules.hand_size:
            hand.append(next(rest))
        full_hands.append(hand)
    while len(left) < rules.leftover_count:
        left.append(next(rest))
    while len(pile) < rules.draw_pile_count:
        pile.append(next(rest))
    assert next(rest, None) is None
    return Deal(hands=full_hands, leftover=left, draw_pile=pile, dealer=dealer)


def play(state, *texts: str) -> list[dict]:
    """Play each card (text) in turn, whoever is to act; returns every event."""
    events = []
    for text in texts:
        events += state.apply(state.parse_action(f"play {text}"))
    return events


def lowest(state) -> int:
    return state.legal_actions()[0]


def play_until(state, stop: Callable[[dict], bool], choose=lowest, limit: int = 100_000) -> dict:
    """Apply ``choose``'s actions until an event satisfies ``stop``; returns that event."""
    for _ in range(limit):
        for event in state.apply(choose(state)):
            if stop(event):
                return event
    raise AssertionError("the stop event never came")


def play_hand(state, choose=lowest) -> dict:
    """Play to the end of the current hand; returns its score event."""
    return play_until(state, lambda e: e["t"] == "score", choose)


def random_chooser(seed: int):
    rng = random.Random(seed)
    return lambda state: rng.choice(state.legal_actions())


def snapshot(state) -> str:
    """Everything observable, as text: every view, the log, the legal actions."""
    return json.dumps({
        "views": [state.view(s) for s in range(state.n)],
        "logs": [state.view_log(s) for s in range(state.n)],
        "log": state.log,
        "legal": state.legal_actions(),
        "current": state.current_player,
        "phase": state.phase.value,
        "totals": state.totals,
        "winner": state.winner,
        "history": getattr(state, "history", None),  # the record of actions, if kept
        "hand": state.hand_no,
    }, sort_keys=True)


def card_strings(obj) -> set[str]:
    """Every card text anywhere in a JSON-like object."""
    found: set[str] = set()
    if isinstance(obj, str):
        if CARD_TEXT.match(obj):
            found.add(obj)
    elif isinstance(obj, dict):
        for value in obj.values():
            found |= card_strings(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            found |= card_strings(value)
    return found


def horns(text: str) -> int:
    return max(0, value_of(parse_baha_card(text)) - 8)


def face(text: str) -> int:
    v = value_of(parse_baha_card(text))
    return v if v >= 9 else 0


def taken_from_log(events: list[dict], n: int) -> list[list[str]]:
    """Each seat's pile for one hand, rebuilt from its events alone."""
    piles: list[list[str]] = [[] for _ in range(n)]
    for e in events:
        if e["t"] == "trick":
            piles[e["winner"]] += e["cards"] + e["leftover"]
        elif e["t"] == "take":
            piles[e["p"]] += e["cards"]
    return piles


def hand_events(log: list[dict]) -> list[list[dict]]:
    """The log cut into hands (each from its ``hand`` event)."""
    hands: list[list[dict]] = []
    for e in log:
        if e["t"] == "hand":
            hands.append([])
        if hands:
            hands[-1].append(e)
    return hands


# A deal where seat 1 (first to lead when seat 0 deals) holds the top five Purple and Red
# and the top three Turquoise: whatever it leads is the highest of its colour, so it takes
# every trick and every horned card.
MOON_HANDS = {1: "9P-13P 9R-13R 11T-13T"}


# -- B1: the deck and card text --------------------------------------------------------------


def test_b1_deal_accepts_card_text_and_ints_alike():
    rules = Rules(players=4, passing=False)
    deal = make_deal(rules, {1: "6T 1P-12P"})
    as_ints = Deal(hands=[[parse_baha_card(c) for c in h] for h in deal.hands], dealer=0)
    a = rules.new_game(3, deal=deal)
    b = rules.new_game(3, deal=as_ints)
    assert a.log == b.log
    assert a.log[0]["hands"][1] == cards("1P-12P 6T")  # events carry text, ascending
    assert all(CARD_TEXT.match(c) for h in a.log[0]["hands"] for c in h)


def test_b1_actions_round_trip_through_text():
    state = Rules(players=4).new_game(0)
    for card, text in enumerate(ALL):
        assert state.action_to_string(card) == f"play {text}"
        assert state.action_to_string(PASS_BASE + card) == f"pass {text}"
        assert state.parse_action(f"play {text}") == card
        assert state.parse_action(f"pass {text}") == PASS_BASE + card
        assert state.parse_action(f"  PASS {text.lower()} ") == PASS_BASE + card
    assert NUM_ACTIONS == 104 and PASS_BASE == 52
    # A bare card means the move of the phase: passing now.
    assert state.phase is Phase.PASS
    assert state.parse_action("9P") == PASS_BASE + 8


def test_b1_played_cards_appear_as_text_in_events():
    rules = Rules(players=4, passing=False)
    state = rules.new_game(0, deal=make_deal(rules, {1: "6T 1P-12P"}))
    events = play(state, "6T")
    assert events == [{"t": "play", "p": 1, "card": "6T"}]


# -- B2: horns -----------------------------------------------------------------------------


def test_b2_cards_9_to_13_carry_1_to_5_horns_60_in_all():
    rules = Rules()
    for card, text in enumerate(ALL):
        assert rules.points[card] == {9: 1, 10: 2, 11: 3, 12: 4, 13: 5}.get(int(text[:-1]), 0)
    assert sum(rules.points) == 60 == rules.points_per_hand
    for colour in range(4):
        assert sum(rules.points[13 * colour:13 * colour + 13]) == 15


def test_b2_face_scoring_scores_9_to_13_at_face_value_220_in_all():
    rules = Rules(scoring="face")
    for card, text in enumerate(ALL):
        value = int(text[:-1])
        assert rules.points[card] == (value if value >= 9 else 0)
    assert sum(rules.points) == 220 == rules.points_per_hand


@pytest.mark.parametrize(("scoring", "worth", "total"), [("horns", horns, 60), ("face", face, 220)])
def test_b2_hand_score_is_the_points_in_the_cards_taken(scoring, worth, total):
    rules = Rules(players=4, passing=False, scoring=scoring)
    deck = ALL[:]
    random.Random(11).shuffle(deck)
    state = rules.new_game(0, deal=Deal(hands=[deck[i * 13:i * 13 + 13] for i in range(4)]))
    score = play_hand(state)
    piles = taken_from_log(state.log, 4)
    expected = [sum(worth(c) for c in pile) for pile in piles]
    assert score["horns"] == expected
    assert sum(score["horns"]) == total
    assert max(expected) < total  # no moon in this deal, so the points are the horns
    assert score["moon"] is None and score["points"] == expected
    assert score["totals"] == expected == state.totals
    for e in state.log:
        if e["t"] == "trick":
            assert e["horns"] == sum(worth(c) for c in e["cards"])


# -- B3 / B4: players, seats, deal sizes -----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "draw_pile", "size", "leftover"),
    [(2, False, 26, 0), (3, False, 17, 1), (4, False, 13, 0), (5, False, 10, 2), (6, False, 8, 4),
     (2, True, 13, 0), (3, True, 13, 0)],
)
def test_b4_each_player_gets_52_div_n_cards_and_the_rest_are_leftovers(
    players, draw_pile, size, leftover
):
    rules = Rules(players=players, draw_pile=draw_pile)
    assert (rules.hand_size, rules.leftover_count) == (size, leftover)
    for seed in range(3):
        state = rules.new_game(seed)
        hand = state.log[0]
        assert [len(h) for h in hand["hands"]] == [size] * players
        assert len(hand["leftover"]) == leftover
        assert len(hand["draw_pile"]) == (52 - size * players if draw_pile else 0)
        everything = [c for h in hand["hands"] for c in h] + hand["leftover"] + hand["draw_pile"]
        assert sorted(everything) == sorted(ALL)
        view = state.view(0)
        assert view["hand_sizes"] == [size] * players
        assert view["leftover_count"] == leftover


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_b3_play_moves_to_the_next_seat(players):
    rules = Rules(players=players, passing=False, draw_pile=False)
    state = rules.new_game(5)
    play_hand(state, random_chooser(5))
    leader = 1  # seat 0 dealt
    seats: list[int] = []
    for e in state.log:
        if e["t"] == "play":
            seats.append(e["p"])
        elif e["t"] == "trick":
            assert seats == [(leader + i) % players for i in range(players)]
            assert e["winner"] in seats
            leader, seats = e["winner"], []
    assert sum(e["t"] == "trick" for e in state.log) == 52 // players


def test_b3_players_2_to_6_are_allowed():
    for players in range(2, 7):
        assert Rules(players=players).players == players
        assert Rules(players=players).new_game(1).n == players


# -- B4 / B11: leftovers ---------------------------------------------------------------------


def leftover_game():
    """3 players, no passing, seat 0 deals, leftover 13O. Trick 1: seat 1 leads 1R, seat 2 takes
    it with 5R, seat 0 (no Red) discards 9T: the leftover goes to seat 2, not the leader."""
    rules = Rules(players=3, passing=False)
    deal = make_deal(
        rules,
        {1: "1P-13P 1R-4R", 2: "5R-13R 1T-8T", 0: "9T-13T 1O-12O"},
        leftover="13O",
    )
    return rules.new_game(0, deal=deal)


def test_b4_leftovers_go_face_down_to_the_taker_of_the_first_trick():
    state = leftover_game()
    assert state.view(0)["leftover_count"] == 1
    events = play(state, "1R", "5R", "9T")
    trick = events[-1]
    assert trick["t"] == "trick" and trick["winner"] == 2 and trick["leftover"] == ["13O"]
    assert trick["horns"] == 1  # the trick's own cards: 9T; the leftover is face down
    for seat in range(3):
        view = state.view(seat)
        assert view["leftover_count"] == 0
        assert view["face_down_counts"] == [0, 0, 1]
        assert "13O" not in view["taken_shown"][2]
        assert view["horns_shown"][2] == 1
    assert state.view(2)["my_face_down"] == ["13O"]
    # The next trick's taker does not get it again.
    events = play(state, "6R")  # seat 2 leads
    while not any(e["t"] == "trick" for e in events):
        events = state.apply(lowest(state))
    assert events[-1]["leftover"] == []


def test_b4_b11_leftovers_stay_hidden_from_others_until_the_score_reveals_them():
    state = leftover_game()
    play(state, "1R", "5R", "9T")
    for seat in (0, 1):
        filtered = state.view_log(seat)
        assert filtered[0]["leftover"] == [HIDDEN]
        assert filtered[-1]["leftover"] == [HIDDEN]
    assert state.view_log(2)[-1]["leftover"] == ["13O"]
    assert state.view_log(2)[0]["leftover"] == [HIDDEN]  # unseen at the deal, even by the taker
    # Until the hand is scored, nothing the others see names the leftover.
    while True:
        for seat in (0, 1):
            assert "13O" not in card_strings(state.view(seat))
            assert "13O" not in card_strings(state.view_log(seat))
        events = state.apply(lowest(state))
        score = next((e for e in events if e["t"] == "score"), None)
        if score:
            break
    assert score["revealed"] == [[], [], ["13O"]]
    for seat in range(3):
        shown = next(e for e in state.view_log(seat) if e["t"] == "score")
        assert shown["revealed"] == [[], [], ["13O"]]
    piles = taken_from_log(state.log[: state.log.index(score)], 3)
    assert "13O" in piles[2]
    assert score["horns"][2] == sum(horns(c) for c in piles[2])  # 13O's 5 horns included


@pytest.mark.parametrize(("moon", "points"), [(True, [60, 0, 60, 60, 60]), (False, [0, 60, 0, 0, 0])])
def test_b4_b7_leftovers_count_for_the_moon(moon, points):
    # 5 players: seat 1 holds every horned card but the leftovers 12T and 13T (9 horns).
    rules = Rules(players=5, passing=False, moon=moon)
    deal = make_deal(rules, {1: "9P-13P 9R-13R"}, leftover="12T 13T")
    state = rules.new_game(0, deal=deal)
    score = play_hand(state)
    from_tricks = sum(horns(c) for e in state.log if e["t"] == "trick" for c in e["cards"])
    assert from_tricks == 51  # without the leftovers it would not be a moon
    assert score["horns"] == [0, 60, 0, 0, 0]
    assert score["moon"] == (1 if moon else None)
    assert score["points"] == points
    assert state.totals == points


# -- B5: passing -----------------------------------------------------------------------------


def play_hands(rules: Rules, seed: int, hands: int):
    """A random game played until ``hands`` hands are complete."""
    state = rules.new_game(seed)
    choose = random_chooser(seed)
    for _ in range(hands):
        play_hand(state, choose)
    return state


@pytest.mark.parametrize("players", [3, 4, 5])
def test_b5_passing_cycle_right_left_none_then_again(players):
    state = play_hands(Rules(players=players, target=10_000), 2, 5)
    by_hand = hand_events(state.log)
    assert [h[0]["pass"] for h in by_hand[:5]] == ["right", "left", "none", "right", "left"]
    offsets = [1, -1, 0, 1, -1]
    for events, offset in zip(by_hand[:5], offsets, strict=True):
        passes = [e for e in events if e["t"] == "pass"]
        picks = [e for e in events if e["t"] == "pass_pick"]
        if offset == 0:
            assert passes == [] and picks == []
            continue
        assert len(picks) == 3 * players
        assert sorted(e["from"] for e in passes) == list(range(players))
        for e in passes:
            assert e["to"] == (e["from"] + offset) % players
            assert len(e["cards"]) == 3
            mine = {p["card"] for p in picks if p["p"] == e["from"]}
            assert set(e["cards"]) == mine
            assert set(e["cards"]) <= set(events[0]["hands"][e["from"]])


def test_b5_hand_number_sets_the_direction():
    rules = Rules(players=4)
    expected = {1: "right", 2: "left", 3: "none", 4: "right", 5: "left", 6: "none", 7: "right"}
    for hand, direction in expected.items():
        state = rules.new_game(0, hand=hand)
        assert state.hand_no == hand
        assert state.log[0]["pass"] == direction
        assert state.view(2)["pass_direction"] == direction
        assert state.phase is (Phase.PLAY if direction == "none" else Phase.PASS)


def test_b5_passing_false_never_passes():
    rules = Rules(players=4, passing=False, target=10_000)
    state = rules.new_game(4)
    assert state.phase is Phase.PLAY
    assert all(a < PASS_BASE for a in state.legal_actions())
    state = play_hands(rules, 4, 3)
    assert [h[0]["pass"] for h in hand_events(state.log)] == ["none"] * 4
    assert not any(e["t"] in ("pass", "pass_pick") for e in state.log)


def test_b5_two_players_pass_to_each_other_both_ways():
    state = play_hands(Rules(players=2, target=10_000), 9, 2)
    by_hand = hand_events(state.log)
    for events in by_hand[:2]:
        passes = [(e["from"], e["to"]) for e in events if e["t"] == "pass"]
        assert passes == [(0, 1), (1, 0)]


def test_b5_picks_are_made_one_at_a_time_in_seat_order_after_the_dealer():
    rules = Rules(players=4)
    state = rules.new_game(0, deal=make_deal(rules, dealer=2))
    order = []
    while state.phase is Phase.PASS:
        order.append(state.current_player)
        state.apply(state.legal_actions()[-1])
    assert order == [3, 3, 3, 0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert state.current_player == 3  # the player after the dealer leads


def test_b5_passing_is_simultaneous():
    rules = Rules(players=4)
    deal = make_deal(rules)  # seat s holds colour s: 1P-13P, 1R-13R, 1T-13T, 1O-13O
    state = rules.new_game(0, deal=deal)
    dealt = [list(h) for h in deal.hands]
    chosen: dict[int, list[str]] = {s: [] for s in range(4)}
    # Seat 1 picks first and gives to seat 2. Nobody receives anything until all have picked.
    while state.phase is Phase.PASS:
        seat = state.current_player
        legal = [state.action_to_string(a)[5:] for a in state.legal_actions()]
        assert set(legal) == set(dealt[seat]) - set(chosen[seat])
        # Cards picked for this seat by its neighbour are not in its hand: they cannot be
        # passed on.
        giver = (seat - 1) % 4
        for card in chosen[giver]:
            assert card not in legal
            with pytest.raises(IllegalAction, match="you do not hold"):
                state.apply(state.parse_action(f"pass {card}"))
        for s in range(4):
            assert state.view(s)["hand"] == dealt[s]
            assert state.view(s)["received"] is None
        pick = legal[(len(chosen[seat]) * 5) % len(legal)]
        events = state.apply(state.parse_action(f"pass {pick}"))
        chosen[seat].append(pick)
        if state.phase is Phase.PASS:
            assert events == [{"t": "pass_pick", "p": seat, "card": pick}]
    for s in range(4):
        giver = (s - 1) % 4
        expected = (set(dealt[s]) - set(chosen[s])) | set(chosen[giver])
        assert set(state.view(s)["hand"]) == expected
        assert state.view(s)["passed"] == {"to": (s + 1) % 4, "cards": sorted(chosen[s], key=ALL.index)}
        assert state.view(s)["received"] == {"from": giver, "cards": sorted(chosen[giver], key=ALL.index)}
        assert state.view(s)["my_picks"] == []
    assert state.phase is Phase.PLAY


# -- B6: the lead ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_b6_player_after_the_dealer_leads_the_first_trick_with_any_card(players):
    rules = Rules(players=players, passing=False)
    for dealer in range(players):
        deal = make_deal(rules, dealer=dealer)
        state = rules.new_game(0, deal=deal)
        leader = (dealer + 1) % players
        assert state.dealer == dealer and state.current_player == leader
        hand = [parse_baha_card(c) for c in deal.hands[leader]]
        assert state.legal_actions() == sorted(hand)  # no card forced, no colour barred
        # e.g. a horned card of any colour may open
        top = max(hand)
        events = state.apply(top)
        assert events == [{"t": "play", "p": leader, "card": baha_card_text(top)}]


def test_b6_after_a_pass_the_player_after_the_dealer_still_leads():
    rules = Rules(players=4)
    state = rules.new_game(0, deal=make_deal(rules, dealer=1))
    while state.phase is Phase.PASS:
        state.apply(state.legal_actions()[0])
    assert state.current_player == 2
    assert len(state.legal_actions()) == 13


# -- B7 (B6): following colour, taking tricks --------------------------------------------------


def example_game():
    """The rules page's example: seat 1 leads 6T, seat 2 plays 11T, seat 3 (no Turquoise)
    plays 13R, seat 0 plays 2T; seat 2 takes 3 + 5 = 8 horns."""
    rules = Rules(players=4, passing=False)
    return rules.new_game(0, deal=make_deal(rules, {1: "6T 1P-12P", 2: "11T", 3: "1R-13R", 0: "2T"}))


def test_b6_must_follow_the_led_colour():
    state = example_game()
    play(state, "6T")
    assert state.current_player == 2
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["play 11T"]
    play(state, "11T", "13R")
    legal = [state.action_to_string(a)[5:] for a in state.legal_actions()]
    assert legal == cards("1T-5T 7T-10T 12T-13T")  # seat 0's Turquoise, and nothing else
    with pytest.raises(IllegalAction, match="must follow Turquoise"):
        state.apply(state.parse_action("play 13P"))


def test_b6_a_player_void_in_the_led_colour_may_play_any_card():
    state = example_game()
    play(state, "6T", "11T")
    assert state.current_player == 3
    assert [state.action_to_string(a)[5:] for a in state.legal_actions()] == cards("1R-13R")
    play(state, "13R")
    assert state.view(0)["voids"][3] == "T"


def test_b6_highest_of_the_led_colour_takes_the_trick_off_colour_cards_never_do():
    state = example_game()
    events = play(state, "6T", "11T", "13R", "2T")
    trick = events[-1]
    assert trick == {"t": "trick", "n": 1, "winner": 2, "cards": ["6T", "11T", "13R", "2T"],
                     "horns": 8, "leftover": []}
    assert state.current_player == 2  # the taker leads next
    assert state.view(0)["taken_shown"][2] == ["13R", "2T", "6T", "11T"]
    assert state.view(0)["horns_shown"] == [0, 0, 8, 0]


def test_b6_a_low_lead_takes_the_trick_when_nobody_follows():
    rules = Rules(players=4, passing=False)
    state = rules.new_game(0, deal=make_deal(rules, {1: "1P-13P", 2: "1R-13R", 3: "1T-13T"}))
    events = play(state, "1P", "13R", "13T", "13O")
    assert events[-1]["winner"] == 1 and events[-1]["horns"] == 15


def test_b6_the_taker_leads_every_next_trick():
    state = Rules(players=5, passing=False).new_game(8)
    choose = random_chooser(8)
    expected_leader = 1
    lead_next = True
    while not any(e["t"] == "score" for e in state.log):
        if lead_next:
            assert state.current_player == expected_leader
            assert len(state.view(0)["trick"]) == 0
        events = state.apply(choose(state))
        tricks = [e for e in events if e["t"] == "trick"]
        lead_next = bool(tricks)
        if tricks:
            expected_leader = tricks[0]["winner"]


# -- B7: scoring and the moon -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("scoring", "moon", "points", "horns_taken"),
    [("horns", True, [60, 0, 60, 60], 60), ("horns", False, [0, 60, 0, 0], 60),
     ("face", True, [220, 0, 220, 220], 220), ("face", False, [0, 220, 0, 0], 220)],
)
def test_b7_shooting_the_moon(scoring, moon, points, horns_taken):
    rules = Rules(players=4, passing=False, scoring=scoring, moon=moon)
    state = rules.new_game(0, deal=make_deal(rules, MOON_HANDS))
    score = play_hand(state)
    assert score["horns"] == [0, horns_taken, 0, 0]
    assert score["moon"] == (1 if moon else None)
    assert score["points"] == points
    assert score["totals"] == points == state.totals


def test_b7_taking_all_horned_cards_but_one_is_no_moon():
    rules = Rules(players=4, passing=False)
    deal = make_deal(rules, {
        1: "1T 12T 13T 9P-13P 9R-13R",
        2: "11T 1P-8P 1R-4R",
        3: "2T 5R-8R 1O-8O",
        0: "3T-10T 9O-13O",
    })
    state = rules.new_game(0, deal=deal)
    events = play(state, "1T", "11T", "2T", "3T")
    assert events[-1]["winner"] == 2 and events[-1]["horns"] == 3
    score = play_hand(state)
    assert score["horns"] == [0, 57, 3, 0]
    assert score["moon"] is None
    assert score["points"] == [0, 57, 3, 0]


# -- B8: the end of the game -----------------------------------------------------------------


def moon_hand_game(totals: list[int], target: int = 100, moon: bool = False):
    """Seat 1 takes every horned card of the first hand (60 horns)."""
    rules = Rules(players=4, passing=False, moon=moon, target=target)
    return rules.new_game(0, deal=make_deal(rules, MOON_HANDS), totals=totals)


def test_b8_game_ends_when_a_total_reaches_the_target_and_the_lowest_total_wins():
    state = moon_hand_game([40, 50, 30, 10])
    score = play_hand(state)
    assert score["totals"] == [40, 110, 30, 10]
    assert state.log[-1] == {"t": "end", "totals": [40, 110, 30, 10], "winner": 3}
    assert state.is_over and state.phase is Phase.OVER
    assert state.winner == 3 and state.current_player is None
    assert state.legal_actions() == []
    assert state.view(0)["winner"] == 3


@pytest.mark.parametrize(("target", "over"), [(59, True), (60, True), (61, False)])
def test_b8_reaching_the_target_exactly_ends_the_game(target, over):
    state = moon_hand_game([1, 0, 2, 40], target=target)
    play_hand(state)
    assert state.totals == [1, 60, 2, 40]
    assert state.is_over is over
    if over:
        assert state.winner == 0
    else:
        assert state.winner is None and state.hand_no == 2 and state.log[-1]["t"] == "hand"


def test_b8_a_moon_can_end_the_game():
    state = moon_hand_game([50, 95, 50, 0], moon=True)
    play_hand(state)
    assert state.totals == [110, 95, 110, 60]
    assert state.is_over and state.winner == 3


def test_b8_a_tie_for_lowest_total_plays_another_hand():
    state = moon_hand_game([20, 50, 20, 30])
    score = play_hand(state)
    assert score["totals"] == [20, 110, 20, 30]
    assert not state.is_over and state.winner is None
    assert state.log[-1]["t"] == "hand" and state.log[-1]["n"] == 2
    assert state.current_player is not None and state.legal_actions()
    choose = random_chooser(1)
    while not state.is_over:
        state.apply(choose(state))
    # After every hand: the game went on exactly when no total reached 100 or the lowest
    # total was shared.
    scores = [i for i, e in enumerate(state.log) if e["t"] == "score"]
    for i in scores:
        totals = state.log[i]["totals"]
        ends = max(totals) >= 100 and totals.count(min(totals)) == 1
        nxt = state.log[i + 1]
        assert nxt["t"] == ("end" if ends else "hand")
    end = state.log[-1]
    assert end["t"] == "end" and end["winner"] == end["totals"].index(min(end["totals"]))
    assert end["totals"].count(min(end["totals"])) == 1


def test_b8_the_game_goes_on_while_every_total_is_below_the_target():
    state = moon_hand_game([0, 39, 0, 0])
    play_hand(state)
    assert state.totals == [0, 99, 0, 0] and not state.is_over


# -- B9: the dealer --------------------------------------------------------------------------


def test_b9_seat_0_deals_first_by_default():
    for players in (2, 3, 4, 5, 6):
        for seed in range(5):
            state = Rules(players=players).new_game(seed)
            assert state.dealer == 0 and state.log[0]["dealer"] == 0
            assert state.current_player == 1


@pytest.mark.parametrize("random_dealer", [False, True])
def test_b9_the_deal_moves_to_the_next_seat_every_hand(random_dealer):
    rules = Rules(players=5, target=10_000, random_dealer=random_dealer)
    state = play_hands(rules, 6, 7)
    first = state.log[0]["dealer"]
    by_hand = hand_events(state.log)
    assert len(by_hand) == 8  # seven hands played, the eighth dealt
    for events in by_hand[:7]:
        n = events[0]["n"]
        dealer = events[0]["dealer"]
        assert dealer == (first + n - 1) % 5
        first_move = next(e for e in events if e["t"] in ("pass_pick", "play"))
        assert first_move["p"] == (dealer + 1) % 5
    assert by_hand[7][0]["dealer"] == (first + 7) % 5 == state.dealer


def test_b9_random_dealer_is_picked_by_the_seed():
    rules = Rules(players=4, random_dealer=True)
    dealers = [rules.new_game(seed).dealer for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [rules.new_game(seed).dealer for seed in range(40)]  # deterministic
    for seed in range(40):
        state = rules.new_game(seed)
        assert state.current_player == (state.dealer + 1) % 4
    # A hand-made deal names its own dealer.
    assert rules.new_game(0, deal=make_deal(rules, dealer=2)).dealer == 2


# -- B10: the draw pile ----------------------------------------------------------------------


def test_b10_two_players_use_the_draw_pile_by_default():
    rules = Rules(players=2)
    assert rules.draw_pile is True and rules.hand_size == 13 and rules.draw_pile_count == 26
    assert Rules(players=3).draw_pile is False
    assert Rules(players=4).draw_pile is False


def check_draw_hand(state, pile: list[str]) -> dict:
    """Play one hand and check B10's draws against the known pile; returns the score."""
    n = state.n
    pile = pile[:]
    tricks = 0
    choose = random_chooser(3)
    while True:
        events = state.apply(choose(state))
        for i, e in enumerate(events):
            if e["t"] != "trick":
                continue
            tricks += 1
            after = events[i + 1:]
            winner = e["winner"]
            if len(pile) >= n:
                draws = after[:n]
                assert [d["t"] for d in draws] == ["draw"] * n
                assert [d["p"] for d in draws] == [(winner + k) % n for k in range(n)]
                assert [d["card"] for d in draws] == pile[:n]  # top first
                del pile[:n]
                if not any(x["t"] == "score" for x in after):
                    assert state.view(0)["hand_sizes"] == [13] * n
            elif pile:
                assert after[0] == {"t": "take", "p": winner, "cards": pile}
                assert state.view(winner)["my_face_down"] == sorted(pile, key=ALL.index)
                assert state.view((winner + 1) % n)["face_down_counts"][winner] == len(pile)
                pile = []
            else:
                assert not any(x["t"] in ("draw", "take") for x in after)
        score = next((e for e in events if e["t"] == "score"), None)
        if not score:
            assert state.view(0)["draw_pile_count"] == len(pile)
        if score:
            assert tricks == 52 // n
            return score


def test_b10_two_players_draw_after_each_trick_taker_first_until_the_pile_is_gone():
    rules = Rules(players=2, passing=False)
    deck = ALL[:]
    random.Random(2).shuffle(deck)
    deal = Deal(hands=[deck[:13], deck[13:26]], draw_pile=deck[26:])
    state = rules.new_game(0, deal=deal)
    score = check_draw_hand(state, deck[26:])
    hand = hand_events(state.log)[0]
    assert sum(e["t"] == "draw" for e in hand) == 26
    assert not any(e["t"] == "take" for e in hand)
    assert sum(score["horns"]) == 60
    piles = taken_from_log(hand, 2)
    assert sorted(piles[0] + piles[1]) == sorted(ALL)  # every card was taken


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_b10_three_players_the_taker_of_trick_5_takes_the_last_pile_card_face_down(seed):
    rules = Rules(players=3, passing=False, draw_pile=True)
    deck = ALL[:]
    random.Random(seed).shuffle(deck)
    deal = Deal(hands=[deck[:13], deck[13:26], deck[26:39]], draw_pile=deck[39:])
    state = rules.new_game(0, deal=deal)
    last = deck[-1]
    score = check_draw_hand(state, deck[39:])
    hand = hand_events(state.log)[0]
    take = next(e for e in hand if e["t"] == "take")
    tricks = [e for e in hand if e["t"] == "trick"]
    assert hand.index(take) == hand.index(tricks[4]) + 1  # right after trick 5
    assert take["cards"] == [last] and take["p"] == tricks[4]["winner"]
    assert sum(e["t"] == "draw" for e in hand) == 12
    piles = taken_from_log(hand, 3)
    assert sorted(sum(piles, [])) == sorted(ALL)
    assert score["horns"] == [sum(horns(c) for c in p) for p in piles]
    assert score["revealed"][take["p"]] == [last]
    # Hidden from the others in their logs until the score.
    for seat in range(3):
        shown = state.view_log(seat)[state.log.index(take)]
        assert shown["cards"] == ([last] if seat == take["p"] else [HIDDEN])


def test_b10_three_players_with_the_draw_pile_pass_as_usual():
    state = Rules(players=3, draw_pile=True).new_game(4)
    assert state.phase is Phase.PASS and state.log[0]["pass"] == "right"
    assert len(state.log[0]["draw_pile"]) == 13
    play_hand(state, random_chooser(4))
    hand = hand_events(state.log)[0]
    assert sum(e["t"] == "pass" for e in hand) == 3
    assert sum(e["t"] == "draw" for e in hand) == 12


def test_b10_draws_are_hidden_from_the_other_players():
    rules = Rules(players=2, passing=False)
    state = rules.new_game(7)
    play_until(state, lambda e: e["t"] == "draw")
    play_until(state, lambda e: e["t"] == "trick")
    draws = [i for i, e in enumerate(state.log) if e["t"] == "draw"]
    for i in draws:
        p = state.log[i]["p"]
        assert state.view_log(p)[i] == state.log[i]
        assert state.view_log(1 - p)[i] == {"t": "draw", "p": p, "card": HIDDEN}
    # A drawn card still in the drawer's hand is in no view but the drawer's.
    for i in draws:
        p, card = state.log[i]["p"], state.log[i]["card"]
        if card in state.view(p)["hand"]:
            assert card not in card_strings(state.view(1 - p))
            assert card not in card_strings(state.view_log(1 - p))


# -- B11: views ------------------------------------------------------------------------------


def test_b11_view_shows_the_own_hand_only():
    rules = Rules(players=4)
    deal = make_deal(rules)
    state = rules.new_game(0, deal=deal)
    for seat in range(4):
        view = state.view(seat)
        assert view["seat"] == seat and view["hand"] == list(deal.hands[seat])
        assert card_strings(view) == set(deal.hands[seat])
        filtered = state.view_log(seat)[0]
        assert filtered["hands"][seat] == list(deal.hands[seat])
        for other in range(4):
            if other != seat:
                assert filtered["hands"][other] == [HIDDEN] * 13
        assert view["legal_actions"] == (state.legal_actions() if seat == 1 else [])


def test_b11_picks_are_hidden_from_the_others():
    rules = Rules(players=4)
    deal = make_deal(rules)
    state = rules.new_game(0, deal=deal)
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    picked = ["1R", "2R"]  # seat 1's first two
    assert state.view(1)["my_picks"] == picked
    for seat in (0, 2, 3):
        view = state.view(seat)
        assert view["my_picks"] == [] and view["picks_made"] == [0, 2, 0, 0]
        assert not set(picked) & card_strings(view)
        assert [e["card"] for e in state.view_log(seat) if e["t"] == "pass_pick"] == [HIDDEN] * 2
    assert [e["card"] for e in state.view_log(1) if e["t"] == "pass_pick"] == picked


def test_b11_a_pass_is_known_to_its_two_players_only():
    rules = Rules(players=4)
    state = rules.new_game(0, deal=make_deal(rules))
    while state.phase is Phase.PASS:
        state.apply(state.legal_actions()[0])
    for i, e in enumerate(state.log):
        if e["t"] != "pass":
            continue
        for seat in range(4):
            shown = state.view_log(seat)[i]
            if seat in (e["from"], e["to"]):
                assert shown == e
            else:
                assert shown == {**e, "cards": [HIDDEN] * 3}
    # Seat s held colour s and passed its three lowest: seat 0 gave 1P 2P 3P to seat 1 and
    # got 1O 2O 3O from seat 3; seat 2 knows neither pass.
    assert not {"1P", "2P", "3P", "1O", "2O", "3O"} & card_strings(state.view(2))
    assert {"1P", "2P", "3P"} <= card_strings(state.view(0))  # what it passed
    assert state.view(0)["passed"] == {"to": 1, "cards": ["1P", "2P", "3P"]}
    assert state.view(0)["received"] == {"from": 3, "cards": ["1O", "2O", "3O"]}


def test_b11_view_of_a_seat_that_does_not_exist_is_refused():
    state = Rules(players=3).new_game(0)
    for seat in (-1, 3, 10):
        with pytest.raises(IllegalAction, match="seat"):
            state.view(seat)


def test_b11_changing_a_view_changes_nothing_in_the_game():
    state = example_game()
    play(state, "6T", "11T", "13R", "2T")
    before = snapshot(state)
    view = state.view(0)
    for value in view.values():  # a front end decorating its copy of the view
        if isinstance(value, dict):
            value["extra"] = 1
            for inner in value.values():
                if isinstance(inner, list):
                    inner.append("X")
        elif isinstance(value, list):
            value.append("X")
    assert snapshot(state) == before


def test_b11_views_are_json_ready():
    state = Rules(players=3).new_game(2)
    choose = random_chooser(2)
    for _ in range(40):
        state.apply(choose(state))
    for seat in range(3):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
        assert json.loads(json.dumps(state.view_log(seat))) == state.view_log(seat)


# -- options ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"players": 7}, "players"), ({"players": 1}, "players"), ({"players": 0}, "players"),
        ({"players": "x"}, "players"), ({"players": "4"}, "players"), ({"players": True}, "players"),
        ({"players": 4.0}, "players"), ({"players": None}, "players"),
        ({"target": -5}, "target"), ({"target": 0}, "target"), ({"target": 10_001}, "target"),
        ({"target": True}, "target"), ({"target": 50.5}, "target"), ({"target": "50"}, "target"),
        ({"scoring": "x"}, "scoring"), ({"scoring": ""}, "scoring"), ({"scoring": None}, "scoring"),
        ({"draw_pile": True, "players": 4}, "draw_pile"),
        ({"draw_pile": True, "players": 5}, "draw_pile"),
        ({"draw_pile": True, "players": 6}, "draw_pile"),
        ({"draw_pile": 1, "players": 3}, "draw_pile"),
        ({"draw_pile": "false", "players": 2}, "draw_pile"),
        ({"passing": 1}, "passing"), ({"passing": "true"}, "passing"), ({"passing": None}, "passing"),
        ({"moon": 0}, "moon"), ({"moon": "no"}, "moon"),
        ({"random_dealer": "yes"}, "random_dealer"), ({"random_dealer": 1}, "random_dealer"),
    ],
)
def test_options_out_of_range_are_refused_by_name(options, name):
    with pytest.raises(RulesError) as info:
        Rules(**options)
    assert isinstance(info.value, ValueError)
    assert str(info.value).startswith(name)


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 6}, {"target": 1}, {"target": 10_000}, {"scoring": "face"},
     {"players": 3, "draw_pile": True}, {"players": 2, "draw_pile": False},
     {"players": 4, "draw_pile": False}, {"passing": False, "moon": False, "random_dealer": True}],
)
def test_options_in_range_are_accepted(options):
    rules = Rules(**options)
    for name, value in options.items():
        assert getattr(rules, name) == value
    assert Rules.from_dict(rules.to_dict()) == rules
    state = rules.new_game(1)
    assert state.view(0)["rules"] == rules.to_dict()


def test_options_from_dict_names_an_unknown_option():
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"bogus": 1})
    message = str(info.value)
    assert "'bogus'" in message
    for name in ("players", "scoring", "passing", "moon", "target", "draw_pile", "random_dealer"):
        assert name in message


def test_options_from_dict_reads_text_values():
    assert Rules.from_dict({"target": "50", "moon": "false"}) == Rules(target=50, moon=False)
    rules = Rules.from_dict({"players": "3", "draw_pile": "true", "passing": "no",
                             "random_dealer": "on", "scoring": "face"})
    assert rules == Rules(players=3, draw_pile=True, passing=False, random_dealer=True,
                          scoring="face")
    assert Rules.from_dict({"moon": "TRUE", "passing": "0"}) == Rules(moon=True, passing=False)
    assert Rules.from_dict({"players": 2, "draw_pile": "false"}).hand_size == 26
    assert Rules.from_dict({}) == Rules()


@pytest.mark.parametrize(
    ("options", "name"),
    [({"players": "x"}, "players"), ({"players": "9"}, "players"), ({"target": "0"}, "target"),
     ({"target": "ten"}, "target"), ({"moon": "maybe"}, "moon"), ({"passing": ""}, "passing"),
     ({"draw_pile": "maybe", "players": 3}, "draw_pile"), ({"scoring": "points"}, "scoring"),
     ({"draw_pile": "true", "players": "4"}, "draw_pile")],
)
def test_options_from_dict_refuses_bad_text_by_name(options, name):
    with pytest.raises(RulesError, match=name):
        Rules.from_dict(options)


def test_options_from_dict_tolerates_spaces_around_every_bool_alike():
    assert Rules.from_dict({"moon": " false "}).moon is False  # passes today
    assert Rules.from_dict({"players": 3, "draw_pile": " true "}).draw_pile is True


def test_to_dict_names_every_option_with_draw_pile_resolved():
    assert Rules(players=2).to_dict() == {
        "players": 2, "scoring": "horns", "passing": True, "moon": True, "target": 100,
        "draw_pile": True, "random_dealer": False, "stream": "splitmix",
    }
    assert Rules(players=5).to_dict()["draw_pile"] is False


# -- bad starts ------------------------------------------------------------------------------


def _full(rules: Rules, **changes) -> Deal:
    deal = make_deal(rules)
    return Deal(**{"hands": deal.hands, "leftover": deal.leftover, "draw_pile": deal.draw_pile,
                   "dealer": deal.dealer, **changes})


@pytest.mark.parametrize(
    ("players", "make", "words"),
    [
        (4, lambda r, d: _full(r, hands=d.hands[:3]), "3 hands"),
        (4, lambda r, d: _full(r, hands=[*d.hands[:3], d.hands[3][:12]], leftover=[d.hands[3][12]]),
         "hand 3 has 12"),
        (4, lambda r, d: _full(r, hands=[[*d.hands[0], "1R"], *d.hands[1:]]), "hand 0 has 14"),
        (3, lambda r, d: _full(r, leftover=[]), "0 leftover"),
        (2, lambda r, d: _full(r, draw_pile=d.draw_pile[:-1]), "25 draw-pile"),
        (4, lambda r, d: _full(r, hands=[["1P", *d.hands[0][1:]], ["1P", *d.hands[1][1:]],
                                         *d.hands[2:]]), "repeated: 1P"),
        (4, lambda r, d: _full(r, hands=[["14P", *d.hands[0][1:]], *d.hands[1:]]), "'14P'"),
        (4, lambda r, d: _full(r, hands=[["9X", *d.hands[0][1:]], *d.hands[1:]]), "'9X'"),
        (4, lambda r, d: _full(r, hands=[[52, *d.hands[0][1:]], *d.hands[1:]]), "52"),
        (4, lambda r, d: _full(r, hands=[[-1, *d.hands[0][1:]], *d.hands[1:]]), "-1"),
        (4, lambda r, d: _full(r, hands=[[True, *d.hands[0][1:]], *d.hands[1:]]), "True"),
        (4, lambda r, d: _full(r, hands=[[None, *d.hands[0][1:]], *d.hands[1:]]), "None"),
        (4, lambda r, d: _full(r, dealer=4), "dealer"),
        (4, lambda r, d: _full(r, dealer=-1), "dealer"),
        (5, lambda r, d: _full(r, leftover=[d.leftover[0], d.leftover[0]]), "repeated"),
        (5, lambda r, d: _full(r, leftover=d.leftover[:1]), "1 leftover"),
    ],
)
def test_bad_deals_are_refused(players, make, words):
    rules = Rules(players=players)
    deal = make(rules, make_deal(rules))
    with pytest.raises(RulesError) as info:
        rules.new_game(0, deal=deal)
    assert words in str(info.value)
    assert "deal" in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [({"totals": [0, 0, 0]}, "totals"), ({"totals": [0, 0, 0, -1]}, "totals"),
     ({"totals": [0, 0, 0, 1.5]}, "totals"), ({"hand": 0}, "hand"), ({"hand": True}, "hand"),
     ({"seed": "7"}, "seed"), ({"seed": 1.0}, "seed"), ({"seed": None}, "seed")],
)
def test_bad_starting_points_are_refused(kwargs, word):
    rules = Rules(players=4)
    kwargs = {"seed": 0, **kwargs}
    with pytest.raises(RulesError, match=word):
        rules.new_game(**kwargs)


def test_starting_totals_and_hand_number_are_used():
    state = Rules(players=3).new_game(0, totals=[5, 6, 7], hand=2)
    assert state.totals == [5, 6, 7] and state.hand_no == 2
    assert state.log[0]["n"] == 2 and state.log[0]["pass"] == "left"
    assert state.view(1)["totals"] == [5, 6, 7]


# -- IllegalAction: refused, explained, and nothing changes ----------------------------------------


def refused(state, action, *words: str) -> str:
    before = snapshot(state)
    log = copy.deepcopy(state.log)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert isinstance(info.value, ValueError)
    assert snapshot(state) == before
    assert state.log == log
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)
    return message


def allowed_text(state) -> str:
    return ", ".join(state.action_to_string(a) for a in state.legal_actions())


def test_illegal_playing_a_card_not_held():
    state = example_game()
    play(state, "6T", "11T", "13R")  # seat 0 to play; seat 1 holds 1P
    refused(state, parse_baha_card("1P"), "you do not hold 1P", "allowed: " + allowed_text(state))


def test_illegal_not_following_colour():
    state = example_game()
    play(state, "6T", "11T", "13R")
    message = refused(state, parse_baha_card("13P"), "must follow Turquoise", "13P",
                      "allowed: " + allowed_text(state))
    allowed = message.split("allowed: ")[1].split(", ")
    assert "play 2T" in allowed and "play 13P" not in allowed


def test_illegal_playing_during_the_pass():
    rules = Rules(players=4)
    state = rules.new_game(0, deal=make_deal(rules))
    refused(state, parse_baha_card("1R"), "you must choose cards to pass right", "not play",
            "allowed: " + allowed_text(state))
    assert "pass 1R" in allowed_text(state)


def test_illegal_passing_during_play():
    state = example_game()
    refused(state, PASS_BASE + parse_baha_card("6T"), "not the passing time", "must play",
            "allowed: " + allowed_text(state))


def test_illegal_passing_a_card_not_held_or_already_chosen():
    rules = Rules(players=4)
    state = rules.new_game(0, deal=make_deal(rules))
    refused(state, PASS_BASE + parse_baha_card("1P"), "you do not hold 1P", "allowed: pass 1R")
    state.apply(state.parse_action("pass 5R"))
    message = refused(state, state.parse_action("pass 5R"), "already chosen 5R",
                      "allowed: " + allowed_text(state))
    assert "pass 5R" not in message


@pytest.mark.parametrize("action", ["9P", 3.0, None, [8], "8"])
def test_illegal_an_action_that_is_not_a_whole_number(action):
    state = example_game()
    refused(state, action, repr(action), "0 to 103")


@pytest.mark.parametrize("action", [-1, 104, "9P", None, 2.5])
def test_illegal_a_non_action_is_refused_with_the_allowed_actions_listed(action):
    state = example_game()
    refused(state, action, "allowed: " + allowed_text(state))


def test_illegal_a_bool_is_not_an_action():
    rules = Rules(players=4, passing=False)
    state = rules.new_game(0, deal=make_deal(rules, {1: "1P-13P"}))
    refused(state, True)


@pytest.mark.parametrize("action", [-1, 104, 105, 10**12, -(10**12)])
def test_illegal_an_action_out_of_range(action):
    state = example_game()
    refused(state, action, str(action), "0 to 103")


def test_illegal_acting_after_the_game_ended():
    state = moon_hand_game([40, 50, 30, 10])
    play_hand(state)
    assert state.is_over
    for action in (0, 8, PASS_BASE, 103, -1):
        refused(state, action, "game is over")


def test_illegal_refusals_in_every_phase_of_random_games_change_nothing():
    for players, draw_pile in ((2, True), (3, False), (5, False)):
        state = Rules(players=players, draw_pile=draw_pile, target=30).new_game(players)
        rng = random.Random(players)
        while not state.is_over:
            legal = state.legal_actions()
            wrong = [a for a in range(NUM_ACTIONS) if a not in legal]
            if rng.random() < 0.15:
                refused(state, rng.choice(wrong))
            state.apply(rng.choice(legal))
        refused(state, 0)


def test_parse_action_refuses_text_that_names_no_action():
    state = example_game()
    for text in ("", "   ", "play", "play 14P", "draw", "pass nine", "9X"):
        with pytest.raises(IllegalAction):
            state.parse_action(text)
    with pytest.raises(IllegalAction, match="0 to 103"):
        state.action_to_string(104)
