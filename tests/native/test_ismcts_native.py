"""Baha in the native ISMCTS and its determinizer: the seat's knowledge read as the reference
reads it, worlds consistent with all the seat knows, the search by the clock, where it runs and
blind to hidden cards. The search's legality, repeatability, root and threads are every game's
(``test_games_search.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from baha_native_support import midgame, option_sets
from native_support import look_alike, moments, needs_native

from cardroom.agents import AgentError, make
from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.games import baha
from cardroom.games.baha.cards import FULL_BAHA_MASK, VALUES
from cardroom.games.baha.determinize import knowledge
from cardroom.games.baha.state import BahaState

pytestmark = needs_native

OWN_FIELDS = ("hands", "taken", "face_down", "picks", "passed", "received")
PUBLIC_FIELDS = ("hand_no", "dealer", "phase_code", "turn", "pass_offset", "trick", "leader", "tricks_done",
                 "played", "voids", "totals", "winner", "last_trick", "hand_start")


def native_positions(per_game: int = 8) -> Iterator[tuple[dict[str, Any], Any]]:
    """Positions of random games on the native engine, every option set, a few moments each
    (the pass included), the game played on after each."""
    from cardroom.games.baha.native import NativeBahaState

    for index, options in enumerate(option_sets()):
        rng = random.Random(index)
        rules = baha.Rules(**options, target=60)
        for state in moments(NativeBahaState.start(rules, index), rng, per_game, 200):
            yield options, state


def colour_mask(colour: int) -> int:
    return ((1 << VALUES) - 1) << (VALUES * colour)


def matches(cards: list[int], slots: list[int]) -> bool:
    """Whether each card can sit in its own slot (a slot forbids the colours of its bits)."""
    if len(cards) != len(slots):
        return False
    owner: dict[int, int] = {}

    def augment(card: int, seen: set[int]) -> bool:
        for slot, forbidden in enumerate(slots):
            if forbidden >> (card // VALUES) & 1 or slot in seen:
                continue
            seen.add(slot)
            if slot not in owner or augment(owner[slot], seen):
                owner[slot] = card
                return True
        return False

    return all(augment(card, set()) for card in cards)


def cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_native_knowledge_is_the_reference_knowledge() -> None:
    """What the native determinizer reads of a seat's knowledge is what the reference reads:
    the same unknown cards, known cards, slots (as multisets), counts: so the same worlds."""
    checked = 0
    for _, state in native_positions():
        ref = state.reference()
        for seat in range(state.n):
            mine = state.native_knowledge(seat)
            theirs = knowledge(ref, seat)
            assert mine["unknown"] == list(theirs.unknown)
            assert mine["known_in_hand"] == list(theirs.known_in_hand)
            assert [sorted(s) for s in mine["hand_slots"]] == [sorted(s) for s in theirs.hand_slots]
            assert (mine["leftover"], mine["draw_pile"]) == (theirs.leftover, theirs.draw_pile)
            assert mine["face_down"] == list(theirs.face_down)
            assert mine["picks_made"] == list(theirs.picks_made)
            checked += 1
    assert checked > 1000


def test_native_worlds_agree_with_all_the_seat_knows() -> None:
    """Every native world keeps the seat's own cards and everything public, deals each hidden
    card once, puts the cards the seat gave where it gave them, fits every void the seat saw
    (the reference's slots), and plays on to the end of the hand."""
    seed = 0
    differs = 0
    for _, state in native_positions():
        ref = state.reference()
        for seat in range(state.n):
            seed += 1
            world = state.native_determinize(seat, seed)
            assert world.view(seat) == state.view(seat)
            assert world.view_log(seat) == state.view_log(seat)
            assert world.history == [] and world.origin is None
            for name in OWN_FIELDS:
                assert getattr(world, name)[seat] == getattr(state, name)[seat], name
            for name in PUBLIC_FIELDS:
                assert getattr(world, name) == getattr(state, name), name
            assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
            assert [f.bit_count() for f in world.face_down] == [f.bit_count() for f in state.face_down]
            assert len(world.draw_pile) == len(state.draw_pile)
            assert world.leftover.bit_count() == state.leftover.bit_count()
            places = [*world.hands, *world.face_down, world.leftover, world.played, *(1 << c for c in world.draw_pile)]
            assert sum(p.bit_count() for p in places) == 52
            union = 0
            for mask in places:
                union |= mask
            assert union == FULL_BAHA_MASK
            know = knowledge(ref, seat)
            for p in range(state.n):
                if p == seat:
                    continue
                assert world.face_down[p] & world.taken[p] == world.face_down[p]
                assert world.taken[p] & ~world.face_down[p] == state.taken[p] & ~state.face_down[p]
                assert know.known_in_hand[p] & world.hands[p] == know.known_in_hand[p]
                assert matches(cards_of(world.hands[p] & ~know.known_in_hand[p]), list(know.hand_slots[p]))
                for colour in range(4):
                    if state.voids[p] >> colour & 1:
                        assert not world.hands[p] & colour_mask(colour)
                assert world.picks[p] & ~world.hands[p] == 0
                assert world.picks[p].bit_count() == state.picks[p].bit_count()
                differs += world.hands[p] != state.hands[p]
            assert world.legal_actions() == (state.legal_actions() if state.current_player == seat
                                             else world.legal_actions())
            deal = world.deal_number
            rng = random.Random(seed)
            while not world.is_over and world.deal_number == deal:
                world.apply(rng.choice(world.legal_actions()))
    assert differs > 100  # the hidden cards are dealt again, not copied


def test_native_worlds_vary_with_the_seed_and_repeat_for_one() -> None:
    state = baha.Rules(players=4).new_game(5)
    worlds = {tuple(state.native_determinize(1, seed).hands) for seed in range(20)}
    assert len(worlds) > 15
    assert state.native_determinize(1, 7).hands == state.native_determinize(1, 7).hands


def test_native_search_by_the_clock() -> None:
    state = midgame(2, 20)
    bot = make("ismcts", seed=1, seconds=0.05, threads=2)
    assert bot.act(state, state.current_player) in state.legal_actions()
    assert bot.last_iterations > 2


def test_engine_option_chooses_where_the_search_runs() -> None:
    state = midgame(3, 14)
    seat = state.current_player
    python = make("ismcts", seed=2, iterations=80, engine="python")
    native = make("ismcts", seed=2, iterations=80)
    # the same agent on the same position: native by default, the Python search when asked
    assert native.act(state, seat) in state.legal_actions() and native.last_iterations == 80
    assert python.act(state, seat) in state.legal_actions() and python.last_iterations == 80
    reference = BahaState.start(state.rules, state.seed)
    for _, action in state.history:
        reference.apply(action)
    with pytest.raises(AgentError, match="engine=native"):
        make("ismcts", engine="native").act(reference, seat)
    with pytest.raises(AgentError, match="threads=2 needs the native search"):
        make("ismcts", threads=2).act(reference, seat)
    for bad in ({"engine": "gpu"}, {"threads": 0}, {"threads": True}, {"threads": 1000}):
        with pytest.raises(AgentError):
            make("ismcts", **bad)


@pytest.mark.parametrize("spec", [
    {"rollout": "random"}, {"rollout": "heuristic"}, {"threads": 2},
    {"infer": 300}, {"infer": 300, "threads": 2, "infer_epsilon": 0.05}, {"infer": 4, "infer_pool": "iteration"},
])
@pytest.mark.parametrize(("seed", "moves"), [(1, 0), (2, 5), (3, 14), (4, 30), (5, 45), (6, 58)])
def test_native_search_is_blind_to_hidden_cards(spec: dict[str, Any], seed: int, moves: int) -> None:
    """The blind-bot test on the native search: the same decision on two states that differ
    only in cards the seat cannot see (with ``infer`` too: the worlds are weighed on what the
    seat saw, never on the hands of the state searched)."""
    state = midgame(seed, moves)
    seat = state.current_player
    other = look_alike(state, seat)
    assert other.view(seat) == state.view(seat)
    assert type(state).__name__ == type(other).__name__ == "NativeBahaState"
    first = make("ismcts", seed=7, iterations=200, engine="native", **spec)
    second = make("ismcts", seed=7, iterations=200, engine="native", **spec)
    assert isinstance(first, ISMCTSAgent)
    assert first.act(state, seat) == second.act(other, seat)
