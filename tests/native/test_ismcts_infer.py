"""The native search's inference of hidden hands (``ismcts:infer=N``,
``native/cardroom/ismcts_infer.hpp``): the opponent model's chance of each observed play on a
world, checked against the Python heuristic on positions rebuilt here; the option's refusals;
the search repeatable and steered by it."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from native_support import check_inference_steers_a_repeatable_search, needs_native

from cardroom.agents import AgentError, make
from cardroom.agents.baha_heuristic import BahaHeuristic, _moon_threat
from cardroom.cards import mask_of
from cardroom.games import baha
from cardroom.games.baha.actions import CARD_TEXT
from cardroom.games.baha.rules import Deal
from cardroom.games.baha.state import BahaState, Observation, Phase

pytestmark = needs_native

EPSILON = 0.25


class _Draws:
    """A stand-in for the heuristic's random stream: the given draws, in order."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = iter(draws)

    def random(self) -> float:
        return next(self.draws)


def heuristic_chance(seen: Observation, legal: list[int], card: int) -> float:
    """The Python heuristic's chance of ``card``: its lead breaks ties by one draw per legal card,
    so a card's chance is 1 over the number of cards that some draw makes it choose."""
    heuristic = BahaHeuristic(seed=0)
    if len(legal) == 1:
        return 1.0 if legal == [card] else 0.0
    mooning = _moon_threat(seen.horns_shown) == seen.seat and seen.rules.moon
    if seen.trick or mooning:
        return 1.0 if heuristic._play_card(seen, legal) == card else 0.0
    reachable = []
    for c in legal:
        heuristic.rng = _Draws([0.0 if d == c else 0.5 for d in legal])  # type: ignore[assignment]
        if heuristic._lead(seen, legal, mooning) == c:
            reachable.append(c)
    return 1.0 / len(reachable) if card in reachable else 0.0


def python_chances(state: Any, seat: int, world: Any, epsilon: float) -> list[tuple[int, int, float]]:
    """The model's chances computed here: each other seat's play of the hand, from the seat's
    view of the events, on the position rebuilt with the world's hand plus the cards played since
    (a seat's plays before its last draw left out, as the module says)."""
    rules = state.rules
    n = rules.players
    events = state.view_log(seat)[state.hand_start:]
    card_of = {text: i for i, text in enumerate(CARD_TEXT)}
    plays = [(i, e["p"], card_of[e["card"]]) for i, e in enumerate(events) if e["t"] == "play"]
    last_draw = {e["p"]: i for i, e in enumerate(events) if e["t"] == "draw"}
    trick: list[tuple[int, int]] = []
    played = 0
    horns = [0] * n
    out = []
    for index, event in enumerate(events):
        if event["t"] == "trick":
            for _, c in trick:
                horns[event["winner"]] += rules.points[c]
            trick = []
            continue
        if event["t"] != "play":
            continue
        p, card = event["p"], card_of[event["card"]]
        if p != seat and index > last_draw.get(p, -1):
            since = mask_of(c for i, q, c in plays if q == p and i >= index)
            hand = world.hands[p] | since
            cards = [c for c in range(52) if hand >> c & 1]
            following = [c for c in cards if trick and c // 13 == trick[0][1] // 13]
            legal = following or cards
            seen = Observation(seat=p, rules=rules, phase=Phase.PLAY, hand=hand, trick=tuple(trick),
                               played=played, horns_shown=tuple(horns), voids=(0,) * n, totals=(0,) * n)
            chance = 0.0
            if card in legal:
                chance = (1 - epsilon) * heuristic_chance(seen, legal, card) + epsilon / len(legal)
            out.append((p, card, chance))
        trick.append((p, card))
        played |= 1 << card
    return out


def same(native: list[tuple[int, int, float]], here: list[tuple[int, int, float]]) -> bool:
    """The same plays judged, with the same chances (to rounding)."""
    return [(p, c) for p, c, _ in native] == [(p, c) for p, c, _ in here] and all(
        math.isclose(a, b, rel_tol=1e-12) for (_, _, a), (_, _, b) in zip(native, here, strict=True))


def hand_made() -> tuple[Any, Any, Any]:
    """Four seats, no pass; seat 0 leads 9P, seat 1 follows with 13P, seat 2 with 5P, seat 3
    with 2P. In ``truth`` seat 1 also held 3P, so the heuristic would have played it (staying
    under the 9P); in ``void_world`` its 3P is seat 2's 4R, so 13P was its only purple card."""
    from cardroom.games.baha.native import NativeBahaState

    hands = [
        ["9P", "1R", "2R", "3R", "5R", "1T", "2T", "3T", "4T", "1O", "2O", "3O", "4O"],
        ["13P", "3P", "6R", "7R", "8R", "5T", "6T", "7T", "8T", "5O", "6O", "7O", "8O"],
        ["5P", "4R", "9R", "10R", "11R", "9T", "10T", "11T", "12T", "9O", "10O", "11O", "12O"],
        ["2P", "1P", "4P", "6P", "7P", "8P", "10P", "11P", "12P", "12R", "13R", "13T", "13O"],
    ]
    swapped = [list(h) for h in hands]
    swapped[1][1], swapped[2][1] = "4R", "3P"
    rules = baha.Rules(players=4, passing=False)
    truth = NativeBahaState.start(rules, 1, deal=Deal(hands=hands, dealer=3))
    void_world = NativeBahaState.start(rules, 1, deal=Deal(hands=swapped, dealer=3))
    for state in (truth, void_world):
        for text in ("9P", "13P", "5P", "2P"):
            state.apply(CARD_TEXT.index(text))
    assert truth.view(0) == void_world.view(0)
    return truth, void_world, rules


def test_a_play_the_heuristic_would_not_make_is_unlikely_and_a_forced_one_is_sure() -> None:
    truth, void_world, _ = hand_made()
    on_truth = truth.native_infer_chances(0, truth, EPSILON)
    on_void = truth.native_infer_chances(0, void_world, EPSILON)
    assert [(p, CARD_TEXT[c]) for p, c, _ in on_truth] == [(1, "13P"), (2, "5P"), (3, "2P")]
    # seat 1 held 3P and 13P: the heuristic plays 3P, so 13P is a random move's, one in two
    assert on_truth[0][2] == pytest.approx(EPSILON / 2)
    # without 3P, 13P was its only purple card: the play says nothing against this world
    assert on_void[0][2] == pytest.approx(1.0)
    # seat 2's 5P was its only purple card in the truth; with 3P too (the other world) the
    # heuristic plays the higher card under the 13P, 5P
    assert on_truth[1][2] == pytest.approx(1.0)
    assert on_void[1][2] == pytest.approx(1 - EPSILON + EPSILON / 2)
    # seat 3's nine purple cards were all under 13P: the heuristic plays the highest, 12P, not 2P
    assert on_truth[2][2] == on_void[2][2] == pytest.approx(EPSILON / 9)
    for world in (truth, void_world):
        assert same(truth.native_infer_chances(0, world, EPSILON), python_chances(truth, 0, world, EPSILON))
    # so the world where seat 1 had no other purple card weighs 6.5 times the truth
    ratio = math.prod(x for *_, x in on_void) / math.prod(x for *_, x in on_truth)
    assert ratio == pytest.approx((1 - EPSILON + EPSILON / 2) / (EPSILON / 2))


def look_alikes(state: Any, seat: int, count: int) -> list[Any]:
    return [state.determinize(seat, random.Random(k)) for k in range(count)]


@pytest.mark.parametrize("options", [
    {"players": 4}, {"players": 4, "scoring": "face", "moon": False}, {"players": 3, "draw_pile": True},
    {"players": 2, "draw_pile": True}, {"players": 5, "passing": False}, {"players": 6},
])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_chances_are_the_python_heuristics_on_the_rebuilt_positions(options: dict[str, Any], seed: int) -> None:
    """On positions of heuristic games (leads with ties, moons, the draw pile), for the truth and
    for other worlds the seat cannot tell from it, the native chances are the ones computed here."""
    from cardroom.games.baha.native import NativeBahaState

    state = NativeBahaState.start(baha.Rules(**options), seed)
    bot = make("heuristic", seed=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(rng.randrange(18, 40)):
        if state.is_over:
            break
        state.apply(bot.act(state, state.current_player))
        if state.phase_code != 1:  # in the pass nobody has played yet
            continue
        seat = state.current_player
        for world in [state, *look_alikes(state, seat, 3)]:
            native = state.native_infer_chances(seat, world, EPSILON)
            assert same(native, python_chances(state, seat, world, EPSILON))
            checked += len(native)
            for _, _, chance in native:
                assert 0 < chance <= 1
    assert checked > 0


def test_the_chances_refuse_a_world_of_another_position() -> None:
    truth, _, rules = hand_made()
    from cardroom.games.baha.native import NativeBahaState

    other = NativeBahaState.start(rules, 2)
    with pytest.raises(ValueError, match="not of this position"):
        truth.native_infer_chances(0, other, EPSILON)
    with pytest.raises(ValueError, match="epsilon"):
        truth.native_infer_chances(0, truth, 0.0)


@pytest.mark.parametrize("bad", [
    {"infer": 0}, {"infer": -3}, {"infer": True}, {"infer": "many"}, {"infer": 2.5}, {"infer": 100_001},
    {"infer": 10, "infer_epsilon": 0}, {"infer": 10, "infer_epsilon": 1.5}, {"infer": 10, "infer_epsilon": True},
    {"infer": 10, "infer_epsilon": "x"}, {"infer_epsilon": 0.2}, {"infer": 10, "engine": "python"},
    {"infer": 10, "policy": "learned", "value": 0.5}, {"infer_pool": "iteration"}, {"infer": 10, "infer_pool": "move"},
    {"infer": 10, "infer_pool": True},
])
def test_bad_infer_options_are_refused_in_words(bad: dict[str, Any]) -> None:
    with pytest.raises(AgentError, match="infer"):
        make("ismcts", **bad)


def test_infer_is_refused_where_the_search_cannot_weigh_worlds() -> None:
    truth, _, rules = hand_made()
    reference = BahaState.start(rules, 1)
    with pytest.raises(AgentError, match="infer runs in the native search"):
        make("ismcts", iterations=20, infer=10).act(reference, reference.current_player)


def test_the_search_with_inference_is_repeatable_and_steered_by_it() -> None:
    """The same seed gives the same search, on one thread or two; the weighed worlds change what
    the root finds."""
    from cardroom.games.baha.native import NativeBahaState

    midgame = NativeBahaState.start(baha.Rules(players=4), 3)
    bot = make("heuristic", seed=1)
    for _ in range(34):
        midgame.apply(bot.act(midgame, midgame.current_player))
    check_inference_steers_a_repeatable_search(midgame, midgame.current_player)
