"""determinize(seat, rng): a full, legal BAEBAE state that agrees with everything the seat
knows (its view is the same), holds every card once, plays on to the end, and is the same for
two states that look the same to the seat."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from baebae_support import (
    act,
    card,
    check_cards_once,
    hand,
    legal_texts,
    make_rules,
    random_decks,
    rule_sets,
    start,
    write_deck,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.games.baebae import Phase, Rules
from cardroom.games.baebae.determinize import knowledge
from cardroom.games.baebae.rules import read_decks

seeds = st.integers(min_value=0, max_value=2**63)
MAX_ACTIONS = 20_000


def texts(state, mask: int) -> list[str]:
    return sorted(state.card_texts(mask))


def hidden_texts(state) -> dict:
    """What determinize deals: every hand and the stock order, as card texts."""
    return {"hands": [texts(state, h) for h in state.hands],
            "stock": [state.card_text(p) for p in state.stock]}


def meets_groups(state, know, p: int, held: Counter) -> bool:
    """Whether ``held`` (p's cards) can fill p's groups: the known cards aside, the hidden
    ones placed so that no group holds a design it forbids. The groups are nested (older
    forbids more), so Hall's condition is one count per group: the cards the i-th group
    allows must be at least the cards of the groups up to it."""
    hidden = held - Counter(know.known[p])
    designs = [state.rules.design_of_key[k] for k in hidden.elements()]
    need = 0
    for forbidden, count in know.groups[p]:
        need += count
        if sum(1 for d in designs if not forbidden >> d & 1) < need:
            return False
    return need == len(designs)


def check_knowledge(state, seat: int) -> None:
    """What determinize keeps as known is true: those cards are in those hands now, and the
    hands meet what their players could not have held."""
    know = knowledge(state, seat)
    for p in range(state.n):
        if p == seat:
            continue
        held = Counter(state.card_texts(state.hands[p]))
        assert not Counter(know.known[p]) - held, (p, know.known[p], held)
        assert sum(know.known[p].values()) + know.slots[p] == state.hands[p].bit_count()
        assert meets_groups(state, know, p, held), (p, know.groups[p], held)


def check_determinized(original, seat: int, rng_seed: int):
    check_knowledge(original, seat)
    d = original.determinize(seat, random.Random(rng_seed))
    assert d.view(seat) == original.view(seat)
    assert d.view_log(seat) == original.view_log(seat)
    assert d.legal_actions() == original.legal_actions() or d.current_player != seat
    check_cards_once(d)
    for s in range(original.n):
        assert d.view(s)["hand_sizes"] == original.view(s)["hand_sizes"]
    if not original.is_over:
        assert d.legal_actions(), "a determinized state can be played on"
    return d


def play_out(state, seed: int) -> None:
    moves = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state.is_over:
            return
        legal = state.legal_actions()
        assert legal
        state.apply(moves.choice(legal))
    raise AssertionError("the determinized game did not end")


# -- hand-made ---------------------------------------------------------------------------


def test_own_hand_and_public_cards_are_kept_the_rest_is_dealt_again():
    state = Rules(players=4).new_game(3)
    moves = random.Random(3)
    for _ in range(15):
        state.apply(moves.choice(state.legal_actions()))
    seat = 2
    seen_hands = set()
    for k in range(10):
        d = check_determinized(state, seat, k)
        assert d.hands[seat] == state.hands[seat]
        assert d.discard == state.discard and len(d.stock) == len(state.stock)
        seen_hands.add(d.hands[(seat + 1) % 4])
        play_out(d, k)
    assert len(seen_hands) > 1, "the other hands are dealt again, not copied"


def test_a_card_given_stays_known_in_the_receivers_hand():
    give = card("6C", text="Give one to the next player.", effects='[{step = "give", to = "next"}]')
    rules = make_rules(give, players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C")
    act(state, "play 6C", "select 3H")
    for k in range(10):
        d = check_determinized(state, 1, k)
        assert "3H" in texts(d, d.hands[2])
        d0 = check_determinized(state, 0, k)  # seat 0 did not see which card
        assert d0.view(0) == state.view(0)


def test_a_peeked_hand_is_kept_until_it_changes():
    peek = card("6C", text="Look at the next player's hand.", effects='[{step = "peek"}]')
    rules = make_rules(peek, players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C", "AH 7H")
    act(state, "play 6C")
    for k in range(5):
        d = check_determinized(state, 1, k)
        assert texts(d, d.hands[2]) == ["2S", "3S", "4S"]
    act(state, "draw")  # seat 2 draws AH (dead): one unknown card joins the known three
    for k in range(5):
        d = check_determinized(state, 1, k)
        assert {"2S", "3S", "4S"} <= set(texts(d, d.hands[2]))
        assert len(texts(d, d.hands[2])) == 4


def test_swapped_hands_are_known_to_both_players():
    swap = card("6C", text="Swap hands with the next player.", effects='[{step = "swap_hands"}]')
    rules = make_rules(swap, players=3, hand_size=3)
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4S"], "9C")
    act(state, "play 6C")
    for k in range(5):
        d = check_determinized(state, 1, k)
        assert texts(d, d.hands[2]) == ["2H", "3H"]
        d = check_determinized(state, 2, k)
        assert texts(d, d.hands[1]) == ["2S", "3S", "4S"]


@pytest.mark.parametrize(("drawn", "playable"), [("4C", True), ("4H", False)])
def test_a_card_drawn_by_another_player_is_one_of_its_hidden_cards(drawn, playable):
    rules = make_rules(players=3, hand_size=2)
    state = start(rules, ["2D 3D", "2H 3H", "2S 3S"], "9C", drawn)
    act(state, "draw")  # seat 1 draws: playable or not, it then plays it or passes
    assert state.phase is Phase.DRAWN
    assert len(state.legal_actions()) == (2 if playable else 1)
    assert state.view(0)["phase"] == "drawn"  # the others cannot tell which
    playable_worlds = 0
    for k in range(20):
        d = check_determinized(state, 0, k)
        assert d.phase is Phase.DRAWN and d.drawn is not None and d.hands[1] >> d.drawn & 1
        playable_worlds += d._matches(d.card_def(d.drawn))
        play_out(d, k)
    assert 0 < playable_worlds < 20  # nothing is inferred from the turn's shape


def test_a_card_choice_waiting_for_another_player_still_has_cards_to_choose():
    clerk = card("6C", text="Put a J, Q or K under this card.",
                 effects='[{step = "discard", count = 1, filter = {ranks = ["J", "Q", "K"]}}]')
    rules = make_rules(clerk, players=3, hand_size=4)
    state = start(rules, ["2D 3D 4D 5D", "6C JD QD 2H", "2S 3S 4S 5S"], "9C")
    act(state, "play 6C")
    assert state.phase is Phase.DECIDE and state.current_player == 1
    for k in range(30):
        d = check_determinized(state, 0, k)
        legal = d.legal_actions()
        assert len(legal) >= 2, "two designs to choose from, as the real hand has"
        assert all(d.action_to_string(a).split()[1][:-1] in ("J", "Q", "K") for a in legal)
        play_out(d, k)


def test_states_that_look_the_same_to_the_seat_determinize_the_same():
    state = Rules(players=5, decks=2).new_game(8)
    moves = random.Random(8)
    for _ in range(40):
        state.apply(moves.choice(state.legal_actions()))
    for seat in range(5):
        look_alike = state.determinize(seat, random.Random(100 + seat))
        assert look_alike.view(seat) == state.view(seat)
        a = state.determinize(seat, random.Random(7))
        b = look_alike.determinize(seat, random.Random(7))
        assert hidden_texts(a) == hidden_texts(b)
        assert a.seed == b.seed


# -- properties ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(rules=rule_sets(turn_limits=st.just(2000)), seed=seeds, move_seed=seeds)
def test_determinized_states_agree_hold_every_card_and_play_to_the_end(rules, seed, move_seed):
    state = rules.new_game(seed)
    moves = random.Random(move_seed)
    checks = 0
    while not state.is_over:
        if moves.random() < 0.08:
            seat = moves.randrange(rules.players)
            k = moves.getrandbits(32)
            d = check_determinized(state, seat, k)
            look_alike = state.determinize(seat, random.Random(k + 1))
            again = look_alike.determinize(seat, random.Random(k))
            assert hidden_texts(again) == hidden_texts(d)
            assert state.view(seat) == look_alike.view(seat)
            if checks < 2:
                play_out(d, k)
            checks += 1
        state.apply(moves.choice(state.legal_actions()))
    check_determinized(state, 0, 1)


@settings(max_examples=50, deadline=None)
@given(text=random_decks(), players=st.integers(2, 5), seed=seeds, move_seed=seeds)
def test_determinized_states_of_random_decks(text, players, seed, move_seed):
    rules = Rules(players=players, **read_decks(str(write_deck(text, "random"))), rounds=1, turn_limit=150)
    state = rules.new_game(seed)
    moves = random.Random(move_seed)
    played_out = 0
    while not state.is_over:
        if moves.random() < 0.1:
            seat = moves.randrange(players)
            k = moves.getrandbits(32)
            d = check_determinized(state, seat, k)
            again = state.determinize(seat, random.Random(k + 1)).determinize(seat, random.Random(k))
            assert hidden_texts(again) == hidden_texts(d)
            if played_out < 2:
                play_out(d, k)
                played_out += 1
        state.apply(moves.choice(state.legal_actions()))


def test_the_original_is_left_alone():
    state = Rules(players=3).new_game(2)
    moves = random.Random(2)
    for _ in range(20):
        state.apply(moves.choice(state.legal_actions()))
    before = (list(state.hands), list(state.stock), list(state.log), state.seed)
    d = state.determinize(1, random.Random(0))
    play_out(d, 0)
    assert (list(state.hands), list(state.stock), list(state.log), state.seed) == before
    assert hand(state, 1) == sorted(state.view(1)["hand"])


def test_worlds_never_keep_the_real_drawn_card_or_the_hand_made_start():
    """Seen from any other seat, the drawer's card in a world is in its own hand, and a
    hand-made start (which would show the real first deal) is not carried into worlds."""
    import random as _random

    from cardroom.games.baebae import Rules as BaebaeRules

    rules = BaebaeRules(players=6)
    checked = 0
    for seed in range(40):
        state = rules.new_game(seed)
        rng = _random.Random(seed)
        while not state.is_over and state.phase is not Phase.DRAWN:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        drawer = state.current_player
        for seat in range(6):
            if seat == drawer:
                continue
            for k in range(3):
                world = state.determinize(seat, _random.Random(k))
                assert world.hands[drawer] >> world.drawn & 1
                assert world.legal_actions()
                checked += 1
    assert checked > 100
    start_state = make_rules(players=3, hand_size=2)
    state = start(start_state, ["2D 3D", "2H 3H", "2S 3S"], "9C", "4C")
    assert state.origin is not None
    assert state.determinize(0, _random.Random(1)).origin is None


# -- what a player could not hold ---------------------------------------------------------


def test_a_player_who_drew_held_nothing_playable():
    rules = make_rules(players=3, hand_size=3)
    # Seat 1 plays first on 9C; seat 2 holds no club, no 9 and no wild: it must draw.
    state = start(rules, ["2D 3D 4D", "6C 2H 3H", "2S 3S 4H"], "9C", "5D 7D 8D 10D JD QD KD AD")
    act(state, "play 6C")  # now 6C on top: clubs or sixes play
    assert legal_texts(state) == ["draw"]
    act(state, "draw")  # seat 2 draws 5D: not playable, so it can only pass
    act(state, "pass")
    know = knowledge(state, 0)
    (forbidden, count), (free, drawn) = know.groups[2]
    assert (count, free, drawn) == (3, 0, 1)
    clubs_and_sixes = {k for k, i in state.rules.design_of_key.items() if forbidden >> i & 1}
    assert {"2C", "6D", "6H", "6S", "KC"} <= clubs_and_sixes and not {"2D", "5H", "9S"} & clubs_and_sixes
    for k in range(40):
        d = check_determinized(state, 0, k)
        held = Counter(d.card_texts(d.hands[2]))
        assert meets_groups(d, know, 2, held)
        # at most one card (the one drawn) may be a club or a six
        assert sum(1 for key in held.elements() if key in clubs_and_sixes) <= 1


def test_worlds_meet_the_groups_almost_always():
    """Over many positions of random games, the worlds dealt meet every player's groups (the
    fallback that deals without them is rare)."""
    met = total = 0
    for game in range(30):
        state = Rules(players=4).new_game(game)
        moves = random.Random(game)
        for step in range(400):
            if state.is_over:
                break
            if step % 7 == 3:
                seat = state.current_player
                know = knowledge(state, seat)
                d = state.determinize(seat, random.Random(step))
                for p in range(state.n):
                    if p != seat and any(f for f, _ in know.groups[p]):
                        total += 1
                        met += meets_groups(d, know, p, Counter(d.card_texts(d.hands[p])))
            state.apply(moves.choice(state.legal_actions()))
    assert total > 100
    assert met / total >= 0.98, (met, total)
