"""BAEBAE in the native ISMCTS: every world the native determinizer deals is consistent with
all the seat knows (checked as the reference's worlds are), the seat's knowledge read as the
reference reads it, and the search blind to hidden cards. The search's legality,
repeatability, root and threads are every game's (``test_games_search.py``)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from baebae_native_support import DECK_OPTIONS, RULES, decisions, positions
from baebae_support import random_decks, write_deck
from hypothesis import given, settings
from hypothesis import strategies as st
from native_support import look_alike, needs_native

from cardroom.agents import make
from cardroom.agents.ismcts import ISMCTSAgent
from cardroom.games.baebae import Phase, Rules
from cardroom.games.baebae.determinize import knowledge
from cardroom.games.baebae.rules import read_decks

pytestmark = needs_native

def designs(state: Any, mask: int) -> Counter[int]:
    return Counter(state.rules.card_of[pid] for pid in range(len(state.rules.card_of)) if mask >> pid & 1)


def meets_groups(state: Any, know: Any, p: int, held: Counter[int]) -> bool:
    """Whether ``held`` (p's designs) fills p's groups: the known cards aside, no group holding
    a design it forbids (the groups are nested, so Hall's condition is one count per group)."""
    design = state.rules.design_of_key
    hidden = held - Counter(design[k.upper()] for k, c in know.known[p].items() for _ in range(c))
    cards = list(hidden.elements())
    need = 0
    for forbidden, count in know.groups[p]:
        need += count
        if sum(1 for d in cards if not forbidden >> d & 1) < need:
            return False
    return need == len(cards)


def check_world(state: Any, world: Any, seat: int, grouped: bool) -> set[str]:
    """``world`` could be the real position as far as ``seat`` knows: its own cards, the public
    piles and counts, its view and filtered log unchanged; every hidden card once, the known
    ones where the seat knows them, the drawn card in the drawer's hand, a chooser with a
    choice to make, each hand meeting what its player could not have held. Returns which of
    those constraints the position had."""
    ref = state.reference()
    know = knowledge(ref, seat)
    design = state.rules.design_of_key
    assert world.view(seat) == state.view(seat)
    assert world.view_log(seat) == state.view_log(seat)
    assert world.history == [] and world.origin is None
    assert world.hands[seat] == state.hands[seat] and world.discard == state.discard
    assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in state.hands]
    assert len(world.stock) == len(state.stock)
    places = [*world.hands, *(1 << p for p in world.stock), *(1 << p for p in world.discard)]
    assert sum(m.bit_count() for m in places) == len(state.rules.card_of)
    union = 0
    for mask in places:
        union |= mask
    assert union == (1 << len(state.rules.card_of)) - 1
    hidden = Counter(state.rules.card_of[p] for p in world.stock)
    for p in range(state.n):
        if p != seat:
            hidden += designs(world, world.hands[p])
    known = Counter(design[k.upper()] for p in range(state.n) for k, c in know.known[p].items() for _ in range(c))
    assert hidden == Counter(design[k.upper()] for k in know.pool) + known
    pending = state.pending
    chooser = (pending.seat if pending is not None and pending.kind == "select" and pending.seat != seat
               and not pending.may_stop else None)
    had = set()
    for p in range(state.n):
        if p == seat:
            continue
        if know.known[p]:
            had.add("known")
        if any(forbidden for forbidden, _ in know.groups[p]):
            had.add("groups")
        held = designs(world, world.hands[p])
        assert not Counter(design[k.upper()] for k, c in know.known[p].items() for _ in range(c)) - held
        if grouped and p != chooser:
            assert meets_groups(state, know, p, held), (p, know.groups[p], held)
    if state.phase is Phase.DRAWN and state.turn != seat:
        assert world.drawn is not None and world.hands[state.turn] >> world.drawn & 1
        had.add("drawn")
    if pending is not None and pending.kind == "select" and pending.seat != seat:
        candidates = world.pending.candidates
        assert candidates & ~world.hands[pending.seat] == 0
        if chooser is not None:
            frame = ref.frames[-1]
            assert candidates.bit_count() >= frame.left + 1
            assert len(designs(world, candidates)) >= 2
            had.add("chooser")
    if state.current_player == seat:
        assert world.legal_actions() == state.legal_actions()
    return had


def play_round(world: Any, seed: int) -> None:
    deal = world.deal_number
    rng = random.Random(seed)
    for _ in range(5000):
        if world.is_over or world.deal_number != deal:
            return
        world.apply(rng.choice(world.legal_actions()))
    raise AssertionError("the world's round did not end")


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.players}p")
def test_native_worlds_agree_with_all_the_seat_knows(rules: Rules) -> None:
    """Over many positions of many games, every native world passes the checks the reference's
    worlds pass (the same checker on both: what the seat knows is kept alike)."""
    seed = 0
    checked = grouped_worlds = differs = 0
    had: Counter[str] = Counter()
    for state in positions(rules, 30, 10):
        for seat in range(state.n):
            seed += 1
            world, grouped = state.native_determinize(seat, seed)
            had.update(check_world(state, world, seat, grouped))
            check_world(state, state.determinize(seat, random.Random(seed)), seat, False)
            grouped_worlds += grouped
            differs += any(world.hands[p] != state.hands[p] for p in range(state.n) if p != seat)
            if seed % 5 == 0:
                play_round(world, seed)
            checked += 1
    assert checked > 150
    assert had["drawn"] > 5 and had["known"] > 5 and had["chooser"] > 0
    assert had["groups"] > 20 or rules.draw_when_able  # nothing is inferred when a player may draw
    assert grouped_worlds > 0.9 * checked  # the groups are met, not dropped
    assert differs > 0.5 * checked  # the hidden cards are dealt again, not copied


@settings(max_examples=15, deadline=None)
@given(text=random_decks(), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_native_worlds_of_random_decks(text: str, players: int, seed: int) -> None:
    rules = Rules(players=players, **read_decks(str(write_deck(text, "random"))), rounds=1, turn_limit=150)
    for k, state in enumerate(positions(rules, 1, 6, seed)):
        seat = k % players
        world, grouped = state.native_determinize(seat, seed + k)
        check_world(state, world, seat, grouped)
        play_round(world, k)


def test_native_worlds_vary_with_the_seed_and_repeat_for_one() -> None:
    state = next(positions(Rules(players=4), 5, 1))  # the first game that reaches its moment
    worlds = {tuple(state.native_determinize(1, seed)[0].hands) for seed in range(20)}
    assert len(worlds) > 15
    assert state.native_determinize(1, 7)[0].hands == state.native_determinize(1, 7)[0].hands
    assert state.native_determinize(1, 7)[0].stock == state.native_determinize(1, 7)[0].stock


@pytest.mark.parametrize("spec", [{"rollout": "random"}, {"rollout": "heuristic"}, {"threads": 2}])
def test_native_search_is_blind_to_hidden_cards(spec: dict[str, Any]) -> None:
    """The blind-bot test on the native search: the same decision on two states that differ
    only in cards the seat cannot see."""
    for state in decisions(2):
        seat = state.current_player
        other = look_alike(state, seat)
        assert other.view(seat) == state.view(seat)
        assert type(other).__name__ == "NativeBaebaeState"
        first = make("ismcts", seed=7, iterations=150, engine="native", **spec)
        second = make("ismcts", seed=7, iterations=150, engine="native", **spec)
        assert isinstance(first, ISMCTSAgent)
        assert first.act(state, seat) == second.act(other, seat)


def test_knowledge_that_does_not_fit_the_deck_is_refused_in_words() -> None:
    """The native face refuses knowledge naming no design of the deck, or more cards of a design
    than the deck has out of sight, with a clear error; the position is left unchanged."""
    from cardroom.native import core

    state = next(decisions(1))
    seat = state.current_player
    before = (state.hands, state.stock, state.discard, len(state.log))
    k = state.native_knowledge(seat)
    no_design = (k[0], k[1], k[2], [*k[3][:-1], 10_000])
    top = state.rules.card_of[state.discard[-1]]
    too_many = (k[0], k[1], k[2], [top] * len(k[3]))
    for bad, words in ((no_design, "not a design"), (too_many, "more cards of a design")):
        with pytest.raises(ValueError, match=words):
            core().baebae_ismcts(state, bad, core().SearchOptions(
                iterations=50, seconds=0.0, exploration=4.0, heuristic=False, epsilon=0.1, max_depth=200, seed=1,
                threads=2))
        with pytest.raises(ValueError, match=words):
            core().baebae_determinize(state.clone(), state, bad, 1, state.view_log(seat))
    assert (state.hands, state.stock, state.discard, len(state.log)) == before
    assert state.native_ismcts(seat, iterations=20, seconds=None, exploration=4.0, rollout="random",
                               epsilon=0.1, max_depth=200, seed=1, threads=1)[0] in state.legal_actions()


KNOWLEDGE_RULES = [
    *RULES,
    Rules(players=4, rounds=1, chosen_target="each_step", **DECK_OPTIONS[next(d for d in DECK_OPTIONS if d != "sample")]),
    Rules(players=3, rounds=2, draw_when_able=True, **DECK_OPTIONS[next(d for d in DECK_OPTIONS if d != "sample")]),
    Rules(players=8, decks=2, rounds=1),
]


def check_knowledge(state: Any) -> Counter[str]:
    """The C++ knowledge of every seat equals the reference's; which constraints it had."""
    had: Counter[str] = Counter()
    for seat in range(state.n):
        ours = state.native_knowledge(seat)
        assert ours == state.reference_knowledge(seat), (seat, state.view_log(seat)[-5:])
        had["seats"] += 1
        had["known"] += any(ours[1][p] for p in range(state.n) if p != seat)
        had["groups"] += any(forbidden for p in range(state.n) for forbidden, _ in ours[2][p])
    return had


@pytest.mark.parametrize("rules", KNOWLEDGE_RULES, ids=lambda r: f"{r.players}p-{r.draw_when_able}")
def test_the_native_knowledge_is_the_references_at_every_seat(rules: Rules) -> None:
    had: Counter[str] = Counter()
    for state in positions(rules, 40, 12):
        had += check_knowledge(state)
    assert had["seats"] > 300  # some 10,000 over the rule sets
    assert had["known"] > 10
    assert had["groups"] > 50 or rules.draw_when_able  # nothing is inferred when a player may draw


@settings(max_examples=25, deadline=None)
@given(text=random_decks(), players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_native_knowledge_is_the_references_with_generated_decks(text: str, players: int, seed: int) -> None:
    rules = Rules(players=players, **read_decks(str(write_deck(text, "random"))), rounds=2, turn_limit=150)
    for state in positions(rules, 2, 12, seed):
        check_knowledge(state)


def test_the_native_knowledge_refuses_a_bad_seat_in_words() -> None:
    state = next(positions(Rules(players=4), 10, 1))
    from cardroom.engine import IllegalAction
    from cardroom.native import core

    with pytest.raises(IllegalAction, match="seat must be 0 to 3"):
        state.native_knowledge(4)
    with pytest.raises(ValueError, match="seat must be 0 to 3"):
        core().baebae_knowledge(state, -1)
    with pytest.raises(TypeError, match="a native BAEBAE state is needed"):
        core().baebae_knowledge(object(), 0)


def test_sight_is_a_benchmark_bound_no_agent_reaches() -> None:
    """The binding's ``sight`` (benchmarks/baebae_sight.py: worlds dealt from hidden cards) takes
    0, 1 or 2 and nothing else, in words; no agent option names it, so no seat's bot sees more
    than its seat."""
    from cardroom.agents import make
    from cardroom.agents.base import AgentError
    from cardroom.native import core

    state = next(decisions(1))
    seat = state.current_player
    legal = state.legal_actions()
    def options(sight: int) -> Any:
        return core().SearchOptions(iterations=40, seconds=0.0, exploration=4.0, heuristic=True, epsilon=0.1,
                                    max_depth=200, seed=1, threads=1, sight=sight)

    for sight in (0, 1, 2):
        action, done, _ = core().baebae_ismcts(state, state.native_knowledge(seat), options(sight))
        assert action in legal and done == 40
    for bad in (-1, 3):
        with pytest.raises(ValueError, match="sight is 0"):
            core().baebae_ismcts(state, state.native_knowledge(seat), options(bad))
    with pytest.raises(AgentError, match="no option 'sight'"):
        make("ismcts", sight=2)
