"""Observations: built from what the seat may know, laid out as the slices say."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardroom import games, rl
from cardroom.games.tensor import Slice

GAMES = [("baha", {}), ("baha", {"players": 3}), ("baha", {"players": 2}),
         ("baebae", {}), ("baebae", {"players": 2, "decks": 2})]


def positions(game: str, options: dict[str, object], games_played: int = 4, share: float = 0.3):
    """States along random games (about ``share`` of the positions) and each game's end."""
    rules = games.make_rules(game, options)
    for seed in range(games_played):
        rng = random.Random(seed)
        state = rules.new_game(seed)
        while not state.is_over:
            if rng.random() < share:
                yield state.clone()
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        yield state


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_what_a_seat_cannot_see_does_not_change_its_observation(game, options):
    # determinize(seat) keeps all the seat knows and deals every hidden card again: the
    # observation must not move, for every seat, at every position.
    rng = random.Random(11)
    checked = differed = 0
    for state in positions(game, options):
        for seat in range(state.rules.players):
            other = state.determinize(seat, rng)
            mine = rl.observe(state, seat)
            theirs = rl.observe(other, seat)
            np.testing.assert_array_equal(mine, theirs, err_msg=f"{state!r} seat {seat}")
            checked += 1
            differed += any(
                rl.observe(state, s).tobytes() != rl.observe(other, s).tobytes()
                for s in range(state.rules.players) if s != seat
            )
    assert checked > 100
    # The check has teeth: other seats' observations did change when their cards were dealt again.
    assert differed > checked // 4


def test_another_seats_hand_is_not_in_the_observation():
    state = games.make_rules("baha", {}).new_game(5)
    before = rl.observe(state, 0)
    hands = state.hands
    hands[1], hands[2] = hands[2], hands[1]  # two other seats swap hands: seat 0 cannot tell
    np.testing.assert_array_equal(rl.observe(state, 0), before)
    assert rl.observe(state, 1).tobytes() != rl.observe(state, 2).tobytes()


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_slices_cover_the_array_and_values_stay_in_bounds(game, options):
    slices = rl.slices(game, **options)
    assert slices[0].start == 0
    for a, b in zip(slices, slices[1:], strict=False):
        assert a.stop == b.start and a.stop > a.start
    names = [s.name for s in slices]
    assert len(names) == len(set(names))
    size = slices[-1].stop
    low = np.concatenate([np.full(s.stop - s.start, s.low) for s in slices])
    high = np.concatenate([np.full(s.stop - s.start, s.high) for s in slices])
    seen = np.zeros(size, bool)
    for state in positions(game, options, games_played=2):
        for seat in range(state.rules.players):
            obs = rl.observe(state, seat)
            assert obs.shape == (size,) and obs.dtype == np.float32
            assert np.all(obs >= low) and np.all(obs <= high), [
                s.name for s in slices if not np.all(obs[s.start:s.stop] <= s.high)]
            seen |= obs != 0
    # Every slice carries information somewhere in a few games, but for what the rules make
    # rare (or impossible with these options): no leftover or no draw pile, skips, done.
    quiet = {s.name for s in slices if not seen[s.start:s.stop].any()}
    assert quiet <= {"leftover", "draw_pile", "skips", "may_stop"}, quiet


def test_baha_slices_read_the_position():
    state = games.make_rules("baha", {}).new_game(7)
    seat = state.current_player
    obs = rl.observe(state, seat)
    part = {s.name: obs[s.start:s.stop] for s in rl.slices("baha")}
    assert part["hand"].sum() == 13
    assert [i for i in range(52) if part["hand"][i]] == [c for c in range(52) if state.hands[seat] >> c & 1]
    assert part["phase"].tolist() == [1, 0]  # passing
    assert part["to_act"].tolist() == [1, 0, 0, 0]  # this seat, first from itself
    assert part["pass_direction"].tolist() == [1, 0, 0]  # the first hand passes right
    assert part["trick"].sum() == 0 and part["played"].sum() == 0


@pytest.mark.parametrize("decks", [1, 2])
def test_baebae_counts_agree_with_the_view(decks):
    # One deck: a card is its design (counts are bits); two: each design has two copies.
    options = {"players": 3, "decks": decks}
    slices = {s.name: s for s in rl.slices("baebae", **options)}
    for state in positions("baebae", options, games_played=2):
        for seat in range(3):
            obs = rl.observe(state, seat)
            view = state.view(seat)
            designs = state.rules.design_of_key
            for name, texts in (("hand", view["hand"]), ("discard", view["discard"])):
                expected = np.zeros(len(designs), np.float32)
                for text in texts:
                    expected[designs[text.upper()]] += 1 / decks
                part = slices[name]
                np.testing.assert_allclose(obs[part.start:part.stop], expected, rtol=1e-6)
            top = slices["top"]
            assert obs[top.start + designs[view["top"].upper()]] == 1


def test_baebae_hand_counts_designs():
    state = games.make_rules("baebae", {"players": 2, "decks": 2}).new_game(3)
    seat = state.current_player
    obs = rl.observe(state, seat)
    hand = next(s for s in rl.slices("baebae", players=2, decks=2) if s.name == "hand")
    # Each physical card adds 1/copies of its design: with two decks, two copies of each.
    assert obs[hand.start:hand.stop].sum() * 2 == pytest.approx(state.hands[seat].bit_count())


@pytest.mark.parametrize("game", ["baha", "baebae"])
def test_action_mask_is_the_legal_actions(game):
    for state in positions(game, {}, games_played=1):
        mask = rl.action_mask(state)
        assert mask.dtype == np.int8
        assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions())


def test_slice_records_read_well():
    s = rl.slices("baha")[0]
    assert isinstance(s, Slice) and (s.name, s.start, s.stop) == ("hand", 0, 52)


def test_baha_totals_past_the_target_stay_in_bounds():
    """Hands go on past the target while the lowest total is tied: a total over the target plus
    one hand's points is still inside the declared bounds (target 10, seed 85 of the Twister gets there)."""
    from cardroom.agents import make
    from cardroom.match import Match

    state = games.make_rules("baha", {"target": 10, "stream": "twister"}).new_game(85)
    Match(state, [make("random", seed=s) for s in range(4)]).run()
    high = {s.name: s.high for s in rl.slices("baha", target=10)}["totals"]
    scaled = rl.observe(state, 0)[[s for s in rl.slices("baha", target=10) if s.name == "totals"][0].start:][:4]
    assert max(state.scores) > 10 + state.rules.points_per_hand and np.all(scaled <= high)


@pytest.mark.parametrize("seat", [-1, 4, 1.0, True, "0"])
def test_observe_refuses_a_seat_that_is_not_at_the_table(seat):
    state = games.make_rules("baha", {}).new_game(1)
    with pytest.raises(rl.EnvError, match="seat must be a whole number from 0 to 3"):
        rl.observe(state, seat)
