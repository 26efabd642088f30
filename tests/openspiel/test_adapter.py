"""The OpenSpiel adapter: OpenSpiel's own API test, its search bots through whole deals,
what a seat's strings and tensors show, resampling, and bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel
import pytest

from cardroom import games, openspiel
from cardroom.engine import RulesError


def dealt(game: Any, seed: int, moves: int) -> Any:
    """A state ``moves`` random actions after the deal from ``seed``."""
    state = game.new_initial_state()
    state.apply_action(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("name", "options"), [("baha", {}), ("baebae", {}), ("baha", {"players": 2})])
def test_openspiel_random_simulation_passes(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load(name, **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_game_is_described_from_the_registry() -> None:
    assert openspiel.register() == ["python_cardroom_baha", "python_cardroom_baebae"]
    game = openspiel.load("baha")
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (kind.min_num_players, kind.max_num_players) == games.get("baha").players()
    assert game.num_distinct_actions() == 104
    assert game.max_game_length() == 64  # 12 pass picks and 52 plays
    assert game.max_chance_outcomes() == openspiel.DEAL_OUTCOMES
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert openspiel.load("baha", deals=3).max_game_length() == 3 * 64
    # by the number of players: two play with the draw pile, unless told otherwise
    assert openspiel.load("baha", players=2).rules.draw_pile is True
    assert openspiel.load("baha", players=2, draw_pile=0).rules.draw_pile is False
    # each slice of the game's observation encoder is a named view of the tensor
    observer = game.make_py_observer()
    assert observer.tensor.shape == (game.observation_tensor_size(),)
    assert observer.dict and all(part.base is observer.tensor for part in observer.dict.values())


def test_the_deal_is_the_engine_dealing_from_the_chosen_seed() -> None:
    game = openspiel.load("baebae")
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == openspiel.DEAL_OUTCOMES
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(4321)
    assert state.cardroom.log == game.rules.new_game(4321).log
    assert state.history() == [4321]


def test_an_episode_lasts_the_deals_asked_for_and_returns_the_engines_returns() -> None:
    for deals in (1, 2):
        game = openspiel.load("baha", deals=deals)
        state = dealt(game, 11, 0)
        rng = random.Random(0)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        engine = state.cardroom
        assert [e["t"] for e in engine.log].count("score") == deals
        assert state.returns() == engine.returns()
        assert sum(state.returns()) == pytest.approx(0.0)
        assert state.legal_actions() == []


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_a_resampled_state_looks_the_same_to_the_seat_and_deals_the_rest_again(name: str) -> None:
    game = openspiel.load(name)
    for moves in (0, 5, 17):
        state = dealt(game, 20 + moves, moves)
        seat = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        worlds = [state.resample_from_infostate(seat, sampler) for _ in range(6)]
        for world in worlds:
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.observation_string(seat) == state.observation_string(seat)
            assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
            assert world.legal_actions() == state.legal_actions()
        # the seats that hold hidden cards are dealt other ones in some world
        others = [p for p in range(game.num_players()) if p != seat]
        assert any(
            world.information_state_string(p) != state.information_state_string(p)
            for world in worlds for p in others
        )
        # a world is a game of its own: playing it on leaves the real one as it was
        before = str(state)
        world = worlds[0]
        while not world.is_terminal():
            world.apply_action(world.legal_actions()[0])
        assert str(state) == before


def test_two_states_that_differ_only_in_hidden_cards_look_the_same_to_the_seat() -> None:
    game = openspiel.load("baha")
    state = dealt(game, 9, 3)  # three pass picks made, by seats that pass unseen by others
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    other = state.resample_from_infostate(seat, sampler)
    while other.cardroom.hands == state.cardroom.hands:
        other = state.resample_from_infostate(seat, sampler)
    assert other.cardroom.hands[seat] == state.cardroom.hands[seat]
    for observe in ("information_state_string", "observation_string",
                    "information_state_tensor", "observation_tensor"):
        assert getattr(other, observe)(seat) == getattr(state, observe)(seat), observe
    # and the seat's strings never name a card held by another seat that its view does not show
    view = json.dumps(state.cardroom.view(seat))
    held = {state.cardroom.action_to_string(a).split()[-1] for p in range(4) if p != seat
            for a in range(52) if state.cardroom.hands[p] >> a & 1}
    hidden = {card for card in held if f'"{card}"' not in view}
    text = state.information_state_string(seat)
    assert len(hidden) > 30
    assert not [card for card in hidden if f'"{card}"' in text]


def test_a_clone_is_independent_and_keeps_the_history() -> None:
    game = openspiel.load("baebae")
    state = dealt(game, 5, 4)
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    copy.apply_action(copy.legal_actions()[0])
    assert copy.history() != state.history()
    assert len(state.history()) == 5


def test_unknown_games_and_bad_options_are_refused_in_words() -> None:
    with pytest.raises(games.UnknownGame, match="unknown game 'chess'; the games are baha, baebae"):
        openspiel.load("chess")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'. Available parameters are"):
        openspiel.load("baha", colour=1)
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter target"):
        openspiel.load("baha", target="high")
    with pytest.raises(RulesError, match="target"):
        openspiel.load("baha", target=0)
    with pytest.raises(RulesError, match="deals must be a whole number from 1"):
        openspiel.load("baha", deals=0)
    with pytest.raises(RulesError, match=r"option draw_pile takes -1 \(by the number of players\), 0"):
        openspiel.load("baha", players=3, draw_pile=2)
    with pytest.raises(RulesError, match="deck"):
        openspiel.load("baebae", deck="no-such-deck")
    state = openspiel.load("baha").new_initial_state()
    with pytest.raises(RulesError, match="a deal is a seed from 0 to 65535"):
        state.apply_action(openspiel.DEAL_OUTCOMES)


@pytest.mark.parametrize(("name", "options"), [
    ("baha", {"target": 30}), ("baha", {"players": 3, "draw_pile": True, "target": 30}),
    ("baha", {"players": 5, "passing": False, "target": 30}), ("baebae", {"rounds": 4}),
    ("baebae", {"players": 2, "draw_when_able": True, "rounds": 4}),
])
def test_no_deal_goes_past_the_games_declared_limits(name: str, options: dict[str, Any]) -> None:
    spec = games.get(name)
    rules = spec.make_rules(options)
    assert spec.deal_limits is not None
    limits = games.load_ref(spec.deal_limits)(rules)
    rng = random.Random(1)
    for seed in range(6):
        state = rules.new_game(seed)
        while not state.is_over:
            deal, before, actions = state.deal_number, state.returns(), 0
            while not state.is_over and state.deal_number == deal:
                state.apply(rng.choice(state.legal_actions()))
                actions += 1
            assert actions <= limits.actions
            assert all(abs(a - b) <= limits.returns for a, b in zip(state.returns(), before, strict=True))


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_the_action_space_is_the_one_the_game_declares(name: str) -> None:
    spec = games.get(name)
    assert spec.observation is not None
    for options in ({}, {"players": 3}):
        rules = spec.make_rules(options)
        assert spec.info.num_actions(rules) == spec.load("observation").num_actions(rules)


@pytest.mark.parametrize(("name", "deals"), [("baha", 3), ("baebae", 2)])
def test_with_several_deals_each_deal_is_rewarded_and_the_rewards_add_up_to_the_returns(name, deals):
    game = pyspiel.load_game(f"{openspiel.game_name(name)}(deals={deals})")
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert openspiel.load(name).get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = dealt(game, 3, 0)
    rng = random.Random(3)
    total = [0.0] * game.num_players()
    rewarded = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        rewarded += any(state.rewards())
        total = [t + r for t, r in zip(total, state.rewards(), strict=True)]
        assert total == pytest.approx(state.returns())
        assert state.returns() == pytest.approx(state.cardroom.returns())
    assert rewarded == deals  # once a deal, at its end


def observer(game: Any, private: Any, perfect_recall: bool = False, public: bool = True) -> Any:
    from open_spiel.python.observation import make_observation

    kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall, public_info=public, private_info=private)
    return make_observation(game, kind)


@pytest.mark.parametrize("name", ["baha", "baebae"])
@pytest.mark.parametrize("perfect_recall", [False, True])
def test_a_public_observer_shows_no_seats_cards_and_the_same_to_every_seat(name, perfect_recall):
    game = openspiel.load(name)
    public = observer(game, pyspiel.PrivateInfoType.NONE, perfect_recall)
    encoder = games.get(name).load("observation")
    assert set(public.dict) == {s.name for s in encoder.slices(game.rules)} - encoder.private
    for moves in (2, 7):
        state = dealt(game, 40 + moves, moves)
        engine = state.cardroom
        texts = {public.string_from(state, p) for p in range(game.num_players())}
        assert len(texts) == 1
        text = texts.pop()
        assert json.loads(text)["public"] == engine.public_view()
        held = {card for seat in range(game.num_players()) for card in engine.view(seat)["hand"]}
        assert held and not [card for card in held if f'"{card}"' in text]
        # resampled hidden cards change nothing it shows
        world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert public.string_from(world, 0) == text


@pytest.mark.parametrize(("name", "options"), [("baha", {"players": 3}), ("baebae", {})])
def test_the_public_tensor_is_the_same_for_every_seat_and_every_deal_of_the_hidden_cards(name, options):
    """The public slices of the encoder's array: what the public string carries, in numbers. A
    world any seat cannot tell from this one (its hidden cards dealt again) gives the same
    tensor; the private slices are left out (three Baha seats: leftovers make taken cards face
    down)."""
    game = openspiel.load(name, **options)
    public = observer(game, pyspiel.PrivateInfoType.NONE)
    encoder = games.get(name).load("observation")
    size = encoder.size(game.rules)
    seen = 0
    for seed in range(12):
        state = dealt(game, 70 + seed, 0)
        rng = random.Random(seed)
        while not state.is_terminal():
            if rng.random() < 0.15:
                public.set_from(state, 0)
                tensor = public.tensor.copy()
                seen += int(tensor.any())
                whole = np.empty(size, np.float32)
                encoder.encode(state.cardroom, 0, whole)
                kept = [s for s in encoder.slices(game.rules) if s.name not in encoder.private]
                assert tensor.tolist() == [x for s in kept for x in whole[s.start:s.stop].tolist()]
                for player in range(game.num_players()):
                    public.set_from(state, player)
                    assert public.tensor.tolist() == tensor.tolist()
                    world = state.clone()
                    world.cardroom = state.cardroom.determinize(player, random.Random(seed * 10 + player))
                    public.set_from(world, player)
                    np.testing.assert_array_equal(public.tensor, tensor, err_msg=f"seat {player}'s world")
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen > 20


@pytest.mark.parametrize("name", ["baha", "baebae"])
def test_an_all_players_observer_holds_every_seats_private_information(name):
    game = openspiel.load(name)
    everyone = observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS, perfect_recall=True)
    state = dealt(game, 8, 6)
    engine = state.cardroom
    players = game.num_players()
    everyone.set_from(state, 0)
    single = [state.observation_tensor(p) for p in range(players)]
    assert everyone.tensor.tolist() == pytest.approx([x for tensor in single for x in tensor])
    assert everyone.dict["seat_1.hand"].base is everyone.tensor
    seen = json.loads(everyone.string_from(state, 0))
    assert seen["views"] == [engine.view(p) for p in range(players)]
    assert seen["logs"] == [engine.view_log(p) for p in range(players)]
    # the default observer and the information state are one seat's, as before
    assert json.loads(state.observation_string(1)) == {"seat": 1, "view": engine.view(1)}


def test_observers_the_adapter_does_not_offer_are_refused_in_words():
    game = openspiel.load("baha")
    with pytest.raises(openspiel.ObserverError, match="takes no parameters"):
        game.make_py_observer(None, {"colour": 1})


@pytest.mark.parametrize("name", ["baha", "baebae"])
@pytest.mark.parametrize("perfect_recall", [False, True])
def test_a_private_observer_holds_what_the_seat_knows_beyond_the_public(name, perfect_recall):
    """``public_info=False``: the seat's own secrets, which with the public view make its view."""
    game = openspiel.load(name)
    players = game.num_players()
    private = observer(game, pyspiel.PrivateInfoType.SINGLE_PLAYER, perfect_recall, public=False)
    everyone = observer(game, pyspiel.PrivateInfoType.ALL_PLAYERS, perfect_recall, public=False)
    nobody = observer(game, pyspiel.PrivateInfoType.NONE, perfect_recall, public=False)
    assert private.tensor.size == 0 and everyone.tensor.size == 0
    for moves in (0, 5, 11):
        state = dealt(game, 60 + moves, moves)
        engine = state.cardroom
        public = engine.public_view()
        parts = []
        for seat in range(players):
            (part,) = json.loads(private.string_from(state, seat))["private"]
            log = part.pop("log", None)
            assert part["seat"] == seat and part["hand"] == engine.view(seat)["hand"]
            assert {**public, **part} == engine.view(seat)  # nothing public is repeated, nothing is missing
            if perfect_recall:
                spectator = [engine.visible_event(e, -1) for e in engine.log]
                mine = engine.view_log(seat)
                assert log and all(mine[i] == event != spectator[i] for i, event in log)
                assert all(mine[i] == spectator[i] for i in set(range(len(mine))) - {i for i, _ in log})
            parts.append(json.loads(private.string_from(state, seat))["private"][0])
            # a world the seat cannot tell from this one shows it the same secrets
            world = state.clone()
            world.cardroom = engine.determinize(seat, random.Random(seat))
            assert private.string_from(world, seat) == private.string_from(state, seat)
        assert json.loads(everyone.string_from(state, 0))["private"] == parts
        assert nobody.string_from(state, 1) == ""


@pytest.mark.parametrize(("name", "options"), [("baha", "target=1"), ("baebae", "rounds=1")])
def test_openspiel_generates_a_playthrough(name, options):
    """OpenSpiel's playthrough asks for every observer: default, information state, public
    and private."""
    from open_spiel.python.algorithms import generate_playthrough

    text = generate_playthrough.playthrough(f"{openspiel.game_name(name)}({options})", None, seed=3)
    assert "IsTerminal() = True" in text
    assert "PublicObservationString() = " in text and "PrivateObservationString(1) = " in text
    assert '"hand":' in text.split("PrivateObservationString(1) = ")[2]
