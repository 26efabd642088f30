"""The BAEBAE heuristic: legal, blind to hidden cards, follows its rules of thumb, beats random."""

from __future__ import annotations

import functools
import random
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardroom.agents import make
from cardroom.agents.baebae_heuristic import BaebaeHeuristic
from cardroom.engine import ActionInfo
from cardroom.games import baebae
from cardroom.games.baebae.effects import RANKS, SUITS
from cardroom.games.baebae.rules import read_decks
from cardroom.sim import Lineup, run_games

# -- hand-made decks and deals --------------------------------------------------------------


def _card(key: str, *, marks: str = "", effects: str = "", optional: bool = False,
          can_win: bool = True) -> str:
    """One ``[[card]]`` table; ``effects`` is the TOML of its effects list."""
    lines = ["[[card]]", f'rank = "{key[:-1]}"', f'suit = "{key[-1]}"']
    if marks:
        lines.append(f'marks = ["{marks}"]')
    if effects:
        lines += ["[card.action]", 'text = "A test action."', f"effects = {effects}"]
        if optional:
            lines.append("optional = true")
        if not can_win:
            lines.append("can_win = false")
    return "\n".join(lines)


def _rules(tmp_path: Path, *cards: str, **options: Any) -> baebae.Rules:
    """Rules with a deck of the given cards plus a plain card of every other rank and suit."""
    used = {c.split('rank = "')[1].split('"')[0] + c.split('suit = "')[1].split('"')[0] for c in cards}
    plain = [_card(f"{r}{s}") for s in SUITS for r in RANKS if f"{r}{s}" not in used]
    text = 'name = "Heuristic Test Deck"\ntypes = ["Rogue"]\n\n' + "\n\n".join([*cards, *plain]) + "\n"
    path = tmp_path / f"deck-{abs(hash(text))}.toml"
    path.write_text(text, encoding="utf-8")
    return baebae.Rules(**read_decks(str(path)), **options)


def _deal(rules: baebae.Rules, hands: list[str], starter: str, stock: str = "",
          dealer: int = 0) -> baebae.BaebaeState:
    deal = baebae.Deal(hands=[h.split() for h in hands], starter=starter, stock=stock.split(),
                       dealer=dealer)
    return rules.new_game(0, deal=deal)


def _do(state: baebae.BaebaeState, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def _choice(state: baebae.BaebaeState, seat: int | None = None) -> str:
    seat = state.current_player if seat is None else seat
    assert seat is not None
    return state.action_to_string(BaebaeHeuristic(seed=0).act(state, seat))


WILD = _card("8S", marks="wild")

# -- legality -------------------------------------------------------------------------------


def _play_out(rules: baebae.Rules, seed: int, pick: Callable[[baebae.BaebaeState, int], int]) -> int:
    """Play a whole game, checking every action is legal; returns the number of actions."""
    state = rules.new_game(seed)
    actions = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = pick(state, seat)
        assert action in state.legal_actions(), (state.action_to_string(action), state.view(seat))
        state.apply(action)
        actions += 1
        assert actions < 50_000
    return actions


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (4, 1), (6, 1), (6, 2)])
def test_whole_games_of_heuristics_are_legal(players: int, decks: int) -> None:
    rules = baebae.Rules(players=players, decks=decks)
    for seed in range(6):
        bots = [BaebaeHeuristic(seed=seed * 10 + s) for s in range(players)]
        _play_out(rules, seed, lambda state, seat, bots=bots: bots[seat].act(state, seat))


def test_mixed_lineups_play_whole_games() -> None:
    for players, lineup in [(4, "heuristic,random,random,random"), (3, "random,heuristic,heuristic"),
                            (2, "heuristic,random")]:
        results = run_games(baebae.Rules(players=players), 15, 3, Lineup.parse(lineup, players))
        assert all(not r.guard_stopped and r.winners and r.deals == 3 for r in results)


def test_made_by_name() -> None:
    state = baebae.Rules(players=4).new_game(seed=2)
    seat = state.current_player
    assert seat is not None
    assert make("heuristic", seed=3).act(state, seat) in state.legal_actions()
    assert BaebaeHeuristic.name == "heuristic"


# -- blindness ------------------------------------------------------------------------------

KINDS = ("play", "drawn", "declare", "optional", "target", "option",
         "select:discard", "select:give", "select:discard_under")


def _kind(state: baebae.BaebaeState) -> str | None:
    """The kind of decision waiting, when there is a real choice to make."""
    if state.is_over or len(state.legal_actions()) < 2:
        return None
    if state.pending is not None:
        kind = state.pending.kind
        return f"select:{state.pending.purpose}" if kind == "select" else kind
    return state.phase.value if state.phase.value in ("play", "drawn") else None


@functools.cache
def _decision_states(per_kind: int = 10) -> dict[str, list[baebae.BaebaeState]]:
    """Mid-game states (driven by random play) with a decision of each kind to make."""
    found: dict[str, list[baebae.BaebaeState]] = {k: [] for k in KINDS}
    for seed in range(2000):
        players, decks = ((2, 1), (3, 1), (4, 1), (5, 1), (6, 2))[seed % 5]
        state = baebae.Rules(players=players, decks=decks).new_game(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 150)):
            if state.is_over:
                break
            kind = _kind(state)
            if kind is not None and len(found[kind]) < per_kind and rng.random() < 0.2:
                found[kind].append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        if all(len(v) >= per_kind for v in found.values()):
            break
    return found



@pytest.mark.parametrize("kind", KINDS)
def test_blind_to_hidden_cards(kind: str) -> None:
    """Same decision on two states that differ only in cards the seat cannot see."""
    states = _decision_states()[kind]
    assert len(states) >= 8, f"too few {kind} decisions found"
    compared = 0
    for state in states:
        seat = state.current_player
        assert seat is not None
        others = (state.determinize(seat, random.Random(k)) for k in range(40))
        other = next((d for d in others if any(
            d.hands[p] != state.hands[p] for p in range(state.n) if p != seat
        ) or d.stock != state.stock), None)
        if other is None:
            continue
        assert other.view(seat) == state.view(seat)
        first = BaebaeHeuristic(seed=7).act(state, seat)
        second = BaebaeHeuristic(seed=7).act(other, seat)
        assert first == second
        assert first in state.legal_actions()
        compared += 1
    assert compared >= len(states) // 2


class _OnlyPublic:
    """A state that lets through only what the heuristic may read: its view, the legal actions,
    what they are (decoded), and the rules (public: the options and the deck's card definitions)."""

    def __init__(self, state: baebae.BaebaeState) -> None:
        self._state = state
        self.rules = state.rules

    def view(self, seat: int) -> dict[str, Any]:
        return self._state.view(seat)

    def legal_actions(self) -> list[int]:
        return self._state.legal_actions()

    def decode(self, action: int) -> ActionInfo:
        return self._state.decode(action)


@pytest.mark.parametrize("kind", KINDS)
def test_reads_only_public_information(kind: str) -> None:
    for state in _decision_states()[kind]:
        seat = state.current_player
        assert seat is not None
        action = BaebaeHeuristic(seed=1).act(_OnlyPublic(state), seat)  # type: ignore[arg-type]
        assert action == BaebaeHeuristic(seed=1).act(state, seat)


# -- rules of thumb -------------------------------------------------------------------------


def test_keeps_a_wild_when_a_plain_card_matches(tmp_path: Path) -> None:
    rules = _rules(tmp_path, WILD, players=4)
    state = _deal(rules, ["8S 4C 2H 5H 9D", "2D 3D 4D 5D 6D", "2S 3S 4S 5S 6S", "7D 9H 10H JH QH"],
                  "7C", dealer=3)
    assert _choice(state) == "play 4C"


def test_plays_the_wild_when_nothing_else_matches(tmp_path: Path) -> None:
    rules = _rules(tmp_path, WILD, players=4)
    state = _deal(rules, ["8S 3D 2H 5H 9D", "2D 4D 6D 7D 10D", "2S 3S 4S 5S 6S", "9H 10H JH QH KH"],
                  "7C", dealer=3)
    assert _choice(state) == "play 8S"


def test_sheds_the_highest_penalty_card(tmp_path: Path) -> None:
    rules = _rules(tmp_path, players=4)
    state = _deal(rules, ["3C KC 9H 2D 4D", "3D 5D 6D 7D 8D", "2S 3S 4S 5S 6S", "5H 6H 10H JH QH"],
                  "7C", dealer=3)
    assert _choice(state) == "play KC"


@pytest.mark.parametrize(
    ("hand", "suit"),
    [("8S 2H 5H 9H 3D", "H"),     # most cards
     ("8S 2H 3H 9D 10D", "D")],   # equal counts: the higher penalty
)
def test_declares_the_suit_it_holds_most(tmp_path: Path, hand: str, suit: str) -> None:
    rules = _rules(tmp_path, WILD, players=4)
    state = _deal(rules, [hand, "2D 4D 6D 7D JD", "2S 3S 4S 5S 6S", "6H 7H 10H JH QH"], "KC",
                  dealer=3)
    _do(state, "play 8S")
    assert state.pending is not None and state.pending.kind == "declare"
    assert _choice(state) == f"declare {suit}"


TARGET_HANDS = {
    # seat: (hand when it draws, hand when it plays a club); nothing else matches at its turn
    1: ("9D 10D 4D 6D 7D", "5C 3S 4S 6S 7S"),
    2: ("9H 10H 4H 6H 7H", "KC 3D 5D 8D QD"),
    3: ("9S 10S 2S 8S QS", "QC 3H 5H 8H JD"),
}


@pytest.mark.parametrize(("drawers", "expected"), [((2, 3), 1), ((1, 2), 3), ((1, 3), 2)])
def test_targets_the_opponent_with_fewest_cards(
    tmp_path: Path, drawers: tuple[int, int], expected: int
) -> None:
    """Seat 0's 10C makes a chosen player draw two; the two seats that drew hold 6 cards, the
    one that played holds 4."""
    rules = _rules(tmp_path, _card("10C", effects='[{step = "draw", who = "chosen", count = 2}]'),
                   players=4)
    hands = ["10C AH AS AD 2H"] + [TARGET_HANDS[s][s not in drawers] for s in (1, 2, 3)]
    state = _deal(rules, hands, "2C", "JH JS", dealer=0)  # the drawers draw JH, JS: no match
    for seat in (1, 2, 3):
        assert state.current_player == seat
        if seat in drawers:
            _do(state, "draw", "pass")  # a dead card: the turn ends with the pass
        else:
            _do(state, f"play {hands[seat].split()[0]}")
    assert state.current_player == 0
    _do(state, "play 10C")
    assert state.pending is not None and state.pending.kind == "target"
    assert state.view(0)["hand_sizes"] == [4] + [6 if s in drawers else 4 for s in (1, 2, 3)]
    assert _choice(state) == f"target {expected}"


@pytest.mark.parametrize(
    ("effects", "answer"),
    [('[{step = "draw", who = "self", count = 2}]', "no"),
     ('[{step = "penalty", who = "self", points = 4}]', "no"),
     ('[{step = "coin", heads = [{step = "penalty", who = "next", points = 3}], '
      'tails = [{step = "penalty", who = "self", points = 3}]}]', "no"),
     ('[{step = "swap_hands", who = "next"}]', "no"),  # as many unknown cards: no gain
     ('[{step = "draw", who = "next", count = 2}]', "yes"),
     ('[{step = "penalty", who = "self", points = -3}]', "yes"),
     ('[{step = "discard", who = "self", count = 1}]', "yes")],
)
def test_declines_optional_actions_that_hurt_itself(tmp_path: Path, effects: str, answer: str) -> None:
    rules = _rules(tmp_path, _card("6C", effects=effects, optional=True), players=2, hand_size=6)
    state = _deal(rules, ["5C 2H 3H 4H 6H 7H", "6C KD 2D 3D 4D 5D"], "9C", "2S 3S", dealer=1)
    _do(state, "play 5C", "play 6C")  # seat 0 opens, then seat 1 plays the optional card
    assert state.pending is not None and state.pending.kind == "optional"
    assert state.current_player == 1
    assert _choice(state) == answer


def test_swaps_hands_with_a_smaller_hand(tmp_path: Path) -> None:
    rules = _rules(tmp_path, _card("6C", effects='[{step = "swap_hands", who = "next"}]',
                                   optional=True), players=2, hand_size=3)
    state = _deal(rules, ["5C 2H 3H", "6C KD QD"], "9C", dealer=1)
    _do(state, "play 5C")
    _do(state, "play 6C")  # seat 1 holds KD QD (20 points), seat 0 holds 2H 3H
    assert _choice(state) == "yes"


def test_hurts_the_next_player_when_they_are_about_to_go_out(tmp_path: Path) -> None:
    draw_two = _card("4C", effects='[{step = "draw", who = "next", count = 2}]')
    few = _rules(tmp_path, draw_two, players=2, hand_size=2)
    state = _deal(few, ["QC 4C", "5C 9H"], "2C", dealer=0)
    _do(state, "play 5C")  # seat 1 has one card left
    assert _choice(state) == "play 4C"
    many = _rules(tmp_path, draw_two, players=2, hand_size=6)
    state = _deal(many, ["QC 4C 2H 3H 5H 6H", "5C 9H 9D 2D 3D 4D"], "2C", dealer=0)
    _do(state, "play 5C")  # seat 1 has five cards: the higher penalty comes first
    assert _choice(state) == "play QC"


def test_plays_a_card_that_cannot_win_before_its_last_card(tmp_path: Path) -> None:
    """With 3C (another turn; cannot win) and 9C, 3C goes first: 9C may be the last card."""
    again = _card("3C", effects='[{step = "play_again"}]', can_win=False)
    rules = _rules(tmp_path, again, players=2, hand_size=2)
    state = _deal(rules, ["9C 3C", "5D 9D"], "2C", dealer=1)
    assert _choice(state) == "play 3C"


def test_selects_high_cards_to_discard_and_keeps_wilds(tmp_path: Path) -> None:
    rules = _rules(tmp_path, WILD, _card("6C", effects='[{step = "discard", who = "self", count = 1}]'),
                   players=2, hand_size=5)
    state = _deal(rules, ["6C 8S KD 3H 2S", "5C 9D 2D 4D 7D"], "2C", dealer=0)
    _do(state, "play 5C", "play 6C")
    assert state.pending is not None and state.pending.purpose == "discard"
    assert _choice(state) == "select KD"


def test_puts_as_many_high_cards_under_as_allowed(tmp_path: Path) -> None:
    rules = _rules(tmp_path, _card("QD", effects='[{step = "discard_under", count = 2, '
                                                 'filter = {suits = ["D"]}}]'), players=2, hand_size=5)
    state = _deal(rules, ["QD 6D KD 5D 3H", "5C 9S 3S 4S 7S"], "2D", "6S", dealer=0)
    _do(state, "draw", "pass")  # seat 1 cannot play; draws 6S, which cannot be played either
    assert state.current_player == 0
    _do(state, "play QD")
    picks = []
    while state.pending is not None and state.current_player == 0:
        assert state.pending.purpose == "discard_under"
        choice = _choice(state)
        picks.append(choice)
        _do(state, choice)
    assert picks == ["select KD", "select 6D"]


def test_plays_a_drawn_card(tmp_path: Path) -> None:
    rules = _rules(tmp_path, players=2, hand_size=3)
    state = _deal(rules, ["2H 3H 4H", "5S 6S 7S"], "9C", "KC", dealer=1)
    _do(state, "draw")
    assert state.phase.value == "drawn"
    assert _choice(state) == "play KC"


def test_keeps_a_drawn_wild_with_a_big_hand(tmp_path: Path) -> None:
    rules = _rules(tmp_path, WILD, players=2, hand_size=6)
    state = _deal(rules, ["2H 3H 4H 5H 6H 7H", "5S 6S 7S 9S 10S JS"], "9C", "8S", dealer=1)
    _do(state, "draw")
    assert state.phase.value == "drawn"
    assert _choice(state) == "pass"


# -- strength -------------------------------------------------------------------------------


def test_beats_random_clearly() -> None:
    rules = baebae.Rules(players=4, rounds=3)
    results = run_games(rules, 240, 1, Lineup.parse("heuristic,random,random,random", 4))
    points = [[deal[s] for r in results for deal in r.deal_points] for s in range(4)]
    mine = statistics.mean(points[0])
    theirs = statistics.mean(p for seat in points[1:] for p in seat)
    wins = sum(1 / len(r.winners) for r in results if 0 in r.winners) / len(results)
    assert mine + 4 < theirs, (mine, theirs)
    assert wins > 0.40, wins
