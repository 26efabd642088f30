"""What the web layer shows: the public view, filtered events, replays; and that the
hidden-information referee of these tests does catch a leak."""

from __future__ import annotations

import importlib
import json

import pytest
from web_support import all_cards, card_texts, check_messages, secrets_of, states_of

from cardroom.agents import make
from cardroom.engine import State
from cardroom.games import make_rules
from cardroom.record import make_record
from cardroom.web import views


def games() -> list[State]:
    """Finished games of both games, several player counts, played by bots."""
    out = []
    for game, options in (("baha", {"players": 4, "target": 1}), ("baha", {"players": 2, "target": 1}),
                          ("baha", {"players": 3, "target": 1}), ("baebae", {"players": 3, "rounds": 1}),
                          ("baebae", {"players": 2, "rounds": 1})):
        state = make_rules(game, options).new_game(seed=11)
        bots = [make("random", seed=s) for s in range(len(state.scores))]
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].act(state, seat))
        out.append(state)
    return out


def positions(state: State) -> list[State]:
    """Every position of a finished game (replayed from its history)."""
    start = make_rules(state.rules.game, state.rules.to_dict()).new_game(seed=state.seed)  # type: ignore[attr-defined]
    out = [start.clone()]
    for _seat, action in state.history:  # type: ignore[attr-defined]
        start.apply(action)
        out.append(start.clone())
    return out


@pytest.mark.parametrize("index", range(5))
def test_public_view_is_what_every_seat_shares(index: int) -> None:
    state = games()[index]
    # The game's own lists of the keys of a seat's view that are public and private.
    module = importlib.import_module(f"cardroom.games.{views.game_of(state)}.state")
    public_keys, private_keys = module.PUBLIC_KEYS, module.PRIVATE_KEYS
    for position in positions(state):
        n = len(position.scores)
        seat_views = [position.view(s) for s in range(n)]
        public = views.public_view(position)
        for v in seat_views:
            # every key of a seat's view is known to be public or private
            assert set(v) == public_keys | set(private_keys)
            for key in public_keys:
                assert public[key] == v[key], key
        assert public["hand"] == [] and public["seat"] is None and public["legal_actions"] == []
        every = all_cards(position)
        assert not card_texts(public, every) & secrets_of(position, -1, every)
        json.dumps(public)


def test_spectator_events_hide_every_hand() -> None:
    for state in games():
        for event, shown in zip(state.log, views.visible_events(state, -1), strict=True):
            if event["t"] in ("hand", "round"):
                assert all(set(h) <= {"?"} for h in shown["hands"])
            if event["t"] in ("pass_pick", "draw"):
                assert shown["card"] == "?"


def test_replay_steps_from_a_seat_hide_others_picks() -> None:
    state = games()[0]
    start = positions(state)[0]
    actions = [a for _, a in state.history]  # type: ignore[attr-defined]
    steps = views.replay_steps(start.clone(), actions, 1)
    assert len(steps) == len(actions) + 1
    for step, (seat, action) in zip(steps[1:], state.history, strict=True):  # type: ignore[attr-defined]
        if seat != 1 and action >= 52:
            assert step["action"] == "?"
        else:
            assert step["action"] == state.action_to_string(action)
    every = views.replay_steps(start.clone(), actions, None)
    assert [e for s in every for e in s["events"]] == state.log


def test_the_referee_catches_leaks() -> None:
    """The hidden-information check of the game tests fails on a leaky message."""
    state = games()[3]  # BAEBAE, three players
    record = make_record(state)
    states = states_of(record)
    honest = [{"type": "update", "seq": 0, "view": states[0].view(1), "events": views.visible_events(states[0], 1),
               "moves": [], "table": {}, "deadline": None}]
    honest[0]["moves"] = [views.move_fields(states[0], a) for a in states[0].legal_actions()] \
        if states[0].current_player == 1 else []
    assert check_messages(honest, 1, states) == 1
    cards = {c.key for c in state.rules.cards}  # type: ignore[attr-defined]
    assert secrets_of(states[0], 1, cards)
    leaks = [
        {**honest[0], "view": states[0].view(2)},                        # another seat's view
        {**honest[0], "events": [json.loads(json.dumps(states[0].log[0]))]},  # an unfiltered deal
        {"type": "error", "code": "illegal",
         "message": "allowed: " + ", ".join("play " + c for c in states[0].view(0)["hand"])},
    ]
    for leak in leaks:
        with pytest.raises(AssertionError):
            check_messages([leak], 1, states)
    spectator_leak = {**honest[0], "view": {**views.public_view(states[0]), "discard": states[0].view(0)["hand"]}}
    with pytest.raises(AssertionError):
        check_messages([spectator_leak], None, states)
