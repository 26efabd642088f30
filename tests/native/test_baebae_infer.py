"""BAEBAE's inference of hidden hands in the native search (``ismcts:infer=N``,
native/cardroom/baebae_infer.hpp): the plays it judges, read from the seat's view of the round,
and the opponent model's chance of each on a world, both held to a Python reading of the same
rules (the heuristic's own play scores) at many positions; the search with it repeatable and
steered by it."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest
from baebae_native_support import DECK_OPTIONS
from native_support import check_inference_steers_a_repeatable_search, needs_native

from cardroom.agents import AgentError, make
from cardroom.agents.baebae_heuristic import BaebaeHeuristic, _is_wild, _Seen
from cardroom.games.baebae import Rules
from cardroom.native import core

pytestmark = needs_native

TEMPERATURE = 1.0  # baebae_infer.hpp's
SUITS = "CDHS"

RULES = [
    Rules(players=4, rounds=1),
    Rules(players=3, rounds=1, draw_when_able=True),
    Rules(players=5, rounds=1, **DECK_OPTIONS[next(d for d in DECK_OPTIONS if d != "sample")]),
    Rules(players=6, decks=2, rounds=1, hand_size=7),
]


Judged = tuple[int, int, int, int, int, bool, list[int]]


def python_observed(state: Any, seat: int) -> list[Judged]:
    """The decisions the inference judges, read here from ``seat``'s view of the round (the
    header's rules): another seat's card played on top at its turn, not the card it had just
    drawn, and a suit it declared, since it last drew or gave or got a card; with what a play
    had to match and the designs it played or put under from then on."""
    rules = state.rules
    index = rules.design_of_key
    log = state.view_log(seat)
    start = max(i for i, e in enumerate(log) if e["t"] == "round")
    found: list[list[Any]] = []
    open_: dict[int, list[int]] = {p: [] for p in range(state.n)}
    top_rank = suit = 0
    declared = False
    previous: dict[str, Any] | None = None

    def reset(p: int) -> None:
        for i in open_[p]:
            found[i][1] = -1
        open_[p] = []

    for e in log[start:]:
        kind = e["t"]
        if kind == "round":
            top_rank, suit, declared = rules.cards[index[e["starter"]]].rank, SUITS.index(e["suit"]), False
        elif kind == "draw":
            reset(e["p"])
        elif kind == "play":
            p, d = e["p"], index[e["card"]]
            on_top = not e.get("under")
            if p != seat:
                just_drawn = previous is not None and previous["t"] == "draw" and previous["p"] == p
                if on_top and not just_drawn:
                    found.append([0, p, d, top_rank, suit, declared, []])
                    open_[p].append(len(found) - 1)
                for i in open_[p]:
                    found[i][6].append(d)
            if on_top:
                top_rank, suit, declared = rules.cards[d].rank, rules.cards[d].suit, False
        elif kind == "declare":
            suit, declared = SUITS.index(e["suit"]), True
            if e["p"] != seat:
                found.append([1, e["p"], -1, 0, suit, True, []])
                open_[e["p"]].append(len(found) - 1)
        elif kind == "move":
            reset(e["from"])
            if e["to"] != "discard":
                reset(e["to"])
        previous = e
    return [(k, p, d, r, s, dec, since) for k, p, d, r, s, dec, since in found if p >= 0]


def python_chance(state: Any, world: Any, judged: Judged, epsilon: float) -> float:
    """The model's chance of one judged decision on ``world``, with the Python heuristic's
    scores (a play) or its first two keys (a suit declared)."""
    kind, p, played, top_rank, suit, declared, since = judged
    rules = state.rules
    cards = rules.cards
    view = dict(world.view(p))
    hand = [cards[rules.design_of_key[t]] for t in view["hand"]] + [cards[d] for d in since]
    if kind == 1:
        seen0 = _Seen(rules, view)

        def key(s: int) -> tuple[int, int]:
            mine = [c for c in hand if c.suit == s and not _is_wild(c)]
            return len(mine), sum(seen0.penalty(c) for c in mine)

        best = max(key(s) for s in range(4))
        first = [s for s in range(4) if key(s) == best]
        return (1 - epsilon) * (1 / len(first) if suit in first else 0.0) + epsilon / 4
    chosen = cards[played]

    def matches(c: Any) -> bool:
        return bool(_is_wild(c) or c.suit == suit or (not declared and c.rank == top_rank))

    n = sum(1 for c in hand if matches(c))
    plain = any(matches(c) and not _is_wild(c) for c in hand)
    if not matches(chosen):
        return 1.0
    if plain and _is_wild(chosen):
        return epsilon / n
    discard = Counter(view["discard"])
    discard.subtract(Counter(cards[d].key for d in since))
    view["hand"] = [c.key for c in hand]
    view["discard"] = list(discard.elements())
    view["hand_sizes"] = [len(hand) if s == p else k for s, k in enumerate(view["hand_sizes"])]
    seen = _Seen(rules, view)
    scores = [(c, BaebaeHeuristic()._play_score(seen, c)) for c in hand if matches(c) and not (plain and _is_wild(c))]
    top = max(s for _, s in scores)
    total = sum(math.exp((s - top) / TEMPERATURE) for _, s in scores)
    share = sum(math.exp((s - top) / TEMPERATURE) for c, s in scores if c is chosen) / total
    return (1 - epsilon) * share + epsilon / n


def heuristic_positions(rules: Rules, games: int, every: int, first: int = 0) -> list[Any]:
    """Positions of heuristic games (the model's own players), every ``every`` actions."""
    found = []
    for seed in range(first, first + games):
        state = rules.new_game(seed)
        bots = [make("heuristic", seed=seed * 10 + s) for s in range(state.n)]
        moves = 0
        while not state.is_over and moves < 400:
            if moves % every == every - 1:
                found.append(state.clone())
            state.apply(bots[state.current_player].act(state, state.current_player))
            moves += 1
    return found


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_the_judged_plays_and_their_chances_are_the_python_readings(rules: Rules) -> None:
    judged = declared = 0
    for k, state in enumerate(heuristic_positions(rules, 8, 7, 40)):
        if state.current_player is None or state.is_over:
            continue
        seat = state.current_player
        native = core().baebae_observed(state, seat)
        here = python_observed(state, seat)
        assert [(k, p, d, r, s, dec, list(since)) for k, p, d, r, s, dec, since in native] == here
        for w in range(2):
            world = state.determinize(seat, random.Random(k * 7 + w))
            for epsilon in (0.25, 0.05):
                got = state.native_infer_chances(seat, world, epsilon)
                assert [(p, d) for p, d, _ in got] == [(p, d) for _, p, d, *_ in here]
                declared += sum(1 for k, *_ in here if k == 1)
                for (_, _, chance), play in zip(got, here, strict=True):
                    assert 0 < chance <= 1
                    assert chance == pytest.approx(python_chance(state, world, play, epsilon), rel=1e-9, abs=1e-12)
                    judged += 1
    assert judged > 200 and declared > 0


def test_the_model_reads_the_heuristic_and_says_nothing_of_what_it_does_not_cover() -> None:
    """On heuristic games the model gives the heuristic's actual plays on the true hands a high
    chance on the whole; on worlds dealt from the seat's knowledge, less."""
    truth_logs, world_logs = [], []
    for state in heuristic_positions(Rules(players=4, rounds=1), 6, 5, 7):
        if state.current_player is None or state.is_over:
            continue
        seat = state.current_player
        for _, _, c in state.native_infer_chances(seat, state, 0.25):
            truth_logs.append(math.log(c))
        world = state.determinize(seat, random.Random(3))
        for _, _, c in state.native_infer_chances(seat, world, 0.25):
            world_logs.append(math.log(c))
    assert len(truth_logs) > 100
    assert sum(truth_logs) / len(truth_logs) > sum(world_logs) / len(world_logs) + 0.05


def test_the_chances_refuse_a_world_of_another_game_and_a_bad_epsilon() -> None:
    state = Rules(players=4).new_game(1)
    with pytest.raises(ValueError, match="not a world of this game"):
        state.native_infer_chances(0, Rules(players=3).new_game(1), 0.25)
    with pytest.raises(ValueError, match="epsilon"):
        state.native_infer_chances(0, state, 0.0)


def test_bad_observed_plays_are_refused_in_words() -> None:
    state = heuristic_positions(Rules(players=4, rounds=1), 1, 9, 3)[2]
    seat = state.current_player
    know = state.native_knowledge(seat)
    good = core().baebae_observed(state, seat)
    assert good, "a position with plays to judge"
    k, p, d, r, s, dec, since = next(j for j in good if j[0] == 0)
    for bad, words in (([(k, p, 10_000, r, s, dec, since)], "no design"), ([(k, 9, d, r, s, dec, since)], "no seat"),
                       ([(k, p, d, r, 7, dec, since)], "suit"), ([(k, p, d, r, s, dec, [])], "since starts"),
                       ([(3, p, d, r, s, dec, since)], "kind"), ([(p, d)], "is \\(kind")):
        with pytest.raises(ValueError, match=words):
            core().baebae_ismcts(state, know, core().SearchOptions(
                iterations=20, seconds=0.0, exploration=4.0, heuristic=True, epsilon=0.1, max_depth=200, seed=1,
                threads=1, infer=10), bad)


def test_the_search_with_inference_is_repeatable_and_steered_by_it() -> None:
    """The same seed gives the same search, on one thread or two; the weighed worlds change
    what the root finds."""
    chosen = None
    for state in heuristic_positions(Rules(players=4, rounds=1), 4, 11, 20):
        seat = state.current_player
        if seat is not None and len(state.legal_actions()) > 1 and len(core().baebae_observed(state, seat)) >= 3:
            chosen = state
            break
    assert chosen is not None
    seat = chosen.current_player
    check_inference_steers_a_repeatable_search(chosen, seat)
    move = make("ismcts", seed=2, iterations=200, infer=200, reward="win").act(chosen, seat)
    assert move in chosen.legal_actions()


def test_infer_still_runs_only_in_the_native_search() -> None:
    from cardroom.games.baebae.state import BaebaeState

    reference = BaebaeState.start(Rules(players=4), 1)
    with pytest.raises(AgentError, match="infer runs in the native search"):
        make("ismcts", iterations=20, infer=10).act(reference, reference.current_player)
