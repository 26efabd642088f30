"""The State protocol, checked the same way on every registered game and on the toy game.

Random games (hypothesis: seeds, players and rules drawn from each spec's option catalog)
are played with random legal actions; at random moments, and at the end, each property is
checked through the protocol alone. What only one game's rules can say (its referee, its
deals, its scoring) stays in that game's own tests (``tests/games/*``).
"""

from __future__ import annotations

import json
import random

import pytest
from conformance_support import (
    GAME_NAMES,
    SEEDS,
    action_space,
    card_texts,
    random_game,
    rule_sets,
    snapshot,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom import games
from cardroom.engine import ActionInfo, IllegalAction, State
from cardroom.record import make_record, replay, verify

SETTINGS = settings(max_examples=20, deadline=None)
CHECK = 0.04
"""The share of moments at which a costly property is checked (the end always is)."""
SPECTATOR = -1

game_names = pytest.mark.parametrize("name", GAME_NAMES)


def moments(state: State, rng: random.Random):
    """The moments of a random game at which to check: a few along the way, and the end."""
    for _ in random_game(state, rng):
        if rng.random() < CHECK:
            yield
    yield


def seats(state: State) -> range:
    return range(len(state.scores))


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_a_new_game_is_a_state_of_its_rules(name, data, seed, move_seed):
    rules = data.draw(rule_sets(name))
    state = rules.new_game(seed)
    assert isinstance(state, State)
    assert state.rules == rules and state.seed == seed and rules.game == name
    assert len(state.scores) == rules.players and state.deal_number == 1
    assert games.get(name).make_rules(rules.to_dict()) == rules
    for _ in moments(state, random.Random(move_seed)):
        pass
    assert state.is_over and state.current_player is None and state.legal_actions() == []
    assert len(state.returns()) == rules.players and abs(sum(state.returns())) < 1e-9
    assert state.winner is None or state.winner in seats(state)


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_legal_actions_are_legal_and_an_illegal_one_changes_nothing(name, data, seed, move_seed):
    rng = random.Random(move_seed)
    state = data.draw(rule_sets(name)).new_game(seed)
    size = action_space(state)
    junk = [-1, size, size + 5, 10**12, True, None, 1.0, "0", (0,)]
    checked = 0
    for action in random_game(state, rng):
        legal = state.legal_actions()
        assert action in legal and len(set(legal)) == len(legal)
        assert all(0 <= a < size and state.illegal_reason(a) is None for a in legal)
        if rng.random() < CHECK or checked == 0:
            checked += 1
            before = snapshot(state)
            illegal = [a for a in range(size) if a not in legal]
            for wrong in rng.sample(illegal, min(3, len(illegal))) + [rng.choice(junk)]:
                reason = state.illegal_reason(wrong)
                assert isinstance(reason, str) and reason, wrong
                with pytest.raises(IllegalAction) as refusal:
                    state.apply(wrong)
                assert str(refusal.value) == reason  # the engine's own words, said once
            assert snapshot(state) == before
    over = snapshot(state)
    for wrong in range(size):
        assert state.illegal_reason(wrong)
        with pytest.raises(IllegalAction):
            state.apply(wrong)
    assert snapshot(state) == over


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS, cut=st.floats(0, 1))
def test_a_clone_is_independent(name, data, seed, move_seed, cut):
    rules = data.draw(rule_sets(name))
    state = rules.new_game(seed)
    actions = list(random_game(state, random.Random(move_seed)))
    again = rules.new_game(seed)
    mark = int(cut * len(actions))
    for i, action in enumerate(actions):
        if i == mark:
            copy, before = again.clone(), snapshot(again)
        again.apply(action)
    if mark == len(actions):
        copy, before = again.clone(), snapshot(again)
    assert snapshot(again) == snapshot(state)  # the seed and the actions decide the game
    assert snapshot(copy) == before  # the original played on; the clone did not move
    for action in actions[mark:]:
        copy.apply(action)
    assert snapshot(copy) == snapshot(state)


def cards_held(state: State) -> list[set[str]]:
    return [set(state.view(s)["hand"]) for s in seats(state)]


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_views_hide_other_seats_and_the_public_view_every_hand(name, data, seed, move_seed):
    """A card sitting in another seat's hand appears in a seat's view or filtered log only if
    that seat has held it, was shown it in public, or was shown it by its own action (a peek).
    Where cards are comes from each seat's own hand; what is public, from the spectator's log."""
    rng = random.Random(move_seed)
    state = data.draw(rule_sets(name)).new_game(seed)
    held_ever = [set() for _ in seats(state)]
    seen_by_own_act = [set() for _ in seats(state)]
    universe: set[str] = set()
    checks = 0
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        hands = cards_held(state)
        universe.update(*hands)
        for s, hand in enumerate(hands):
            held_ever[s] |= hand
        actor = state.current_player
        for event in state.apply(action):
            if event.get("p") == actor:
                seen_by_own_act[actor] |= card_texts(state.visible_event(event, actor), universe)
            watched = card_texts(state.visible_event(event, SPECTATOR), universe)
            for s in seats(state):  # a spectator sees no more than any seat
                assert watched <= card_texts(state.visible_event(event, s), universe), (s, event)
        if rng.random() >= CHECK and not state.is_over:
            continue
        checks += 1
        hands = cards_held(state)
        universe.update(*hands)
        spectator_log = [state.visible_event(e, SPECTATOR) for e in state.log]
        public = state.public_view()
        in_public = card_texts(spectator_log, universe)
        assert public["hand"] == [] and public["seat"] is None and public["legal_actions"] == []
        assert not card_texts(public, universe) & (set().union(*hands) - in_public)
        for s in seats(state):
            view, log = state.view(s), state.view_log(s)
            assert log == [state.visible_event(e, s) for e in state.log]
            secret = set().union(*(h for o, h in enumerate(hands) if o != s))
            secret -= held_ever[s] | hands[s] | in_public | seen_by_own_act[s]
            assert not card_texts(view, universe) & secret, (s, card_texts(view, universe) & secret)
            assert not card_texts(log, universe) & secret, (s, card_texts(log, universe) & secret)
        views = [state.view(s) for s in seats(state)]
        for key, value in public.items():  # what every seat's view says alike, the public view says
            told = [v.get(key) for v in views]
            if all(t == told[0] for t in told):
                assert value == told[0], key
    assert checks


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS, world_seed=SEEDS)
def test_determinize_agrees_with_the_view(name, data, seed, move_seed, world_seed):
    rng = random.Random(move_seed)
    state = data.draw(rule_sets(name)).new_game(seed)
    for _ in moments(state, rng):
        if state.is_over:
            break
        for s in seats(state):
            world = state.determinize(s, random.Random(world_seed))
            assert isinstance(world, State)
            assert world.view(s) == state.view(s), s
            assert world.view_log(s) == state.view_log(s), s
            assert world.current_player == state.current_player
            if state.current_player == s:
                assert world.legal_actions() == state.legal_actions()
            again = state.determinize(s, random.Random(world_seed))
            assert again.view_log(s) == world.view_log(s)


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS, cut=st.floats(0, 1))
def test_a_record_replays_to_the_log(name, data, seed, move_seed, cut):
    rules = data.draw(rule_sets(name))
    state = rules.new_game(seed)
    actions = list(random_game(state, random.Random(move_seed)))
    unfinished = rules.new_game(seed)
    for action in actions[:int(cut * len(actions))]:
        unfinished.apply(action)
    halfway = json.loads(json.dumps(make_record(unfinished)))
    record = json.loads(json.dumps(make_record(state)))
    assert record["game"] == name and record["result"]["over"]
    for written in (record, halfway):
        verdict = verify(written)
        assert verdict.ok, verdict.message
        assert json.loads(json.dumps(replay(written).log)) == written["log"]
    assert replay(record).scores == state.scores
    record["log"][-1] = {**record["log"][-1], "extra": 1}
    assert not verify(record).ok


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_every_event_is_narrated(name, data, seed, move_seed):
    spec = games.get(name)
    rules = data.draw(rule_sets(name))
    state = rules.new_game(seed)
    for _ in random_game(state, random.Random(move_seed)):
        pass
    names = [f"Player {s}" for s in seats(state)]
    for seat in [None, SPECTATOR, *seats(state)]:
        log = state.log if seat is None else [state.visible_event(e, seat) for e in state.log]
        for event in log:
            line = spec.narrate(event, names, rules)
            assert isinstance(line, str) and line and "\n" not in line, event


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_decode_round_trips_with_the_action_text(name, data, seed, move_seed):
    rng = random.Random(move_seed)
    state = data.draw(rule_sets(name)).new_game(seed)
    size = action_space(state)
    assert size > 0
    for _ in moments(state, rng):
        for action in range(size):
            info = state.decode(action)
            assert isinstance(info, ActionInfo) and info.kind
            text = state.action_to_string(action)
            assert str(info) == text
            assert state.parse_action(text) == action
        for outside in (-1, size):
            with pytest.raises(IllegalAction):
                state.decode(outside)


@game_names
@SETTINGS
@given(data=st.data(), seed=SEEDS, move_seed=SEEDS)
def test_public_action_hides_only_what_a_seat_cannot_see(name, data, seed, move_seed):
    rng = random.Random(move_seed)
    state = data.draw(rule_sets(name)).new_game(seed)
    for action in random_game(state, rng):
        actor = state.current_player
        shown = {s: state.public_action(action, s) for s in seats(state)}
        events = state.clone().apply(action)
        assert shown[actor] == action  # a seat sees its own actions
        for s, public in shown.items():
            assert public in (action, -1)
            if public == -1:  # the seat was not shown everything the action did
                assert any(state.visible_event(e, s) != e for e in events) or not events
