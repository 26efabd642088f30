"""A BAEBAE player of plain rules of thumb, reading only its seat's view.

It reads ``view(seat)``, the legal actions (decoded: ``state.decode``), and the deck's card definitions
(public: every player can read the cards). Actions are judged by reading their steps with a
small scoring model: a card out of its own hand is good (its penalty plus a step towards going
out), a card into its own hand is bad; a card into an opponent's hand is good, the more so the
closer that opponent is to going out.

Playing
  1. Keep wilds and suit-declaring cards for when they are needed: play one only when no
     other card can be played (or it is the last card, which goes out).
  2. Among the other plays, shed high-penalty cards early: score each card by its penalty
     (10/J/Q/K 10, A the rule's ``ace_penalty``) plus what its action and marks are worth.
  3. Use actions against the player closest to going out: a card whose action or skip mark
     hurts the next player scores more the fewer cards that player holds.
  4. A card that cannot win cannot be the last card: with two cards left play it first, and
     generally shed it early; never keep one as the last card if another play avoids it.
  5. When the next player holds one or two cards, prefer the play that leaves a top card
     they are less likely to match (counted from the cards not yet seen).
  6. Small tie-break: play from the suit one holds more of, so one can follow it later.

Choices while a card is played
  7. Declaring a suit: the suit held most (by count, then by penalty), then the suit with the
     fewest cards left unseen (hardest for the others).
  8. Optional actions: carry them out only if their steps are worth it (others draw, skip or
     take penalties; one sheds cards or takes points off) and decline those that hurt oneself
     (drawing, positive penalty points, swapping with a bigger hand, an even coin for
     penalty points).
  9. Choosing a player: the one the action is worth most against, which for draws, skips,
     penalties and gifts is the opponent with the fewest cards; never take or make discard
     the last card of an opponent (that puts them out).
 10. Choosing an option: the option whose steps score best (good for oneself, bad for the
     others).
 11. Selecting cards to give or discard: cards that cannot win first, then the highest
     penalty; wilds last. Putting cards under a card (``discard_under``): as many as allowed,
     in that order, then ``done``.
 12. After drawing a playable card: play it, unless it is a wild or suit-declaring card and
     the hand is still large (keep it for later), or its forced action costs more than
     shedding the card gains.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cached_property
from typing import Any

from cardroom.agents.base import StreamSeeded
from cardroom.engine import Action, ActionInfo, State
from cardroom.games.baebae.deck import CardDef
from cardroom.games.baebae.effects import SUITS, CardFilter, Step, Target
from cardroom.games.baebae.rules import Rules

__all__ = ["BaebaeHeuristic"]

TEMPO = 3.0
"""What one card fewer in one's hand is worth beyond its penalty: a step towards going out."""
OUT = 40.0
"""Going out (one's own hand empty) or letting an opponent go out, in the same units."""
SKIP_SELF = 5.0
"""Losing one's own turn."""
PLAY_AGAIN = 4.0
"""An extra turn: usually one more card shed."""
OPPONENT_PENALTY = 0.3
"""A penalty point on an opponent, against one on oneself (1.0)."""
WILD_WORTH = 6.0
"""A wild in hand beyond its penalty: a play that always matches."""
STUCK_BONUS = 3.0
"""Shedding a card that cannot win (it can never be one's last card)."""
KEEP_WILD_HAND = 4
"""A drawn wild is kept (not played at once) while the hand, after playing it, holds this many
cards or more."""


def _opponent_card(size: int) -> float:
    """Worth of one card more in an opponent's hand of ``size`` cards (less for big hands)."""
    return 0.5 + 4.5 / max(size, 1)


class _Seen:
    """What ``seat`` knows, read once per decision from its view and the public deck."""

    def __init__(self, rules: Rules, view: dict[str, Any]) -> None:
        self.rules = rules
        self.view = view
        self.seat: int = view["seat"]
        self.n: int = view["players"]
        self.direction: int = view["direction"]
        self.sizes: list[int] = view["hand_sizes"]
        self.totals: list[int] = view["totals"]
        self.ace: int = view["rules"]["ace_penalty"]
        self.hand: list[CardDef] = [self.design(t) for t in view["hand"]]
        self.others = [s for s in range(self.n) if s != self.seat]

    @cached_property
    def unseen(self) -> list[tuple[CardDef, int]]:
        """Each design not in sight (not in hand, not in the discard pile), with its count."""
        view = self.view
        deck: Sequence[CardDef] = self.rules.cards
        index: dict[str, int] = self.rules.design_of_key
        counts = [c.copies for c in deck]
        for text in view["hand"]:
            counts[index[text]] -= 1
        for text in view["discard"]:
            counts[index[text]] -= 1
        return [(c, k) for c, k in zip(deck, counts, strict=True) if k > 0]

    @cached_property
    def unseen_total(self) -> int:
        return sum(k for _, k in self.unseen) or 1

    @cached_property
    def unseen_penalty(self) -> float:
        """The mean penalty of an unseen card."""
        unseen = self.unseen
        return sum(self.penalty(c) * k for c, k in unseen) / self.unseen_total if unseen else 6.0

    def design(self, key: str) -> CardDef:
        """The design a card's text names (``6C``), as the state writes it."""
        index = self.rules.design_of_key
        design = index.get(key)  # the common case: the key as the deck spells it
        return self.rules.cards[index[key.upper()] if design is None else design]

    def card(self, move: ActionInfo) -> CardDef:
        """The design a play or a selection names."""
        assert move.card is not None
        return self.design(move.card)

    def penalty(self, card: CardDef) -> int:
        return self.ace if card.rank == 1 else min(card.rank, 10)

    def next_seat(self, direction: int | None = None) -> int:
        return (self.seat + (direction or self.direction)) % self.n

    def fraction(self, card_filter: CardFilter | None) -> float:
        """Share of the unseen cards that match ``card_filter``."""
        if card_filter is None:
            return 1.0
        hits = sum(k for c, k in self.unseen if _matches(card_filter, c))
        return hits / self.unseen_total

    def holds(self, seat: int, card_filter: CardFilter | None) -> float:
        """Chance that an opponent holds a card matching ``card_filter``."""
        size = self.sizes[seat]
        return 1.0 - (1.0 - self.fraction(card_filter)) ** size if size else 0.0


def _matches(card_filter: CardFilter, card: CardDef) -> bool:
    return card_filter.matches(card.types, card.suit, card.rank, card.marks)


def _is_wild(card: CardDef) -> bool:
    """Wild-marked or suit-declaring: plays on anything (keep for when needed)."""
    return card.wild or card.declares


def _stuck(card: CardDef) -> bool:
    """A card that may never be one's last card."""
    return not card.can_win and not card.optional


class BaebaeHeuristic(StreamSeeded):
    """The rules of thumb above; ``seed`` only breaks ties."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._rules: Rules | None = None
        self._decoded: dict[int, ActionInfo] = {}
        """Actions decoded under ``_rules``: what an action is depends on the rules alone, and
        decoding afresh each turn made whole games of this bot 7% slower."""

    def act(self, state: State, seat: int) -> Action:
        rules = state.rules
        assert isinstance(rules, Rules), "the BAEBAE heuristic plays BAEBAE only"
        self.follow(state)
        view = state.view(seat)
        legal: list[int] = view["legal_actions"] or state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if rules is not self._rules:
            self._rules = rules
            self._decoded = {}
        decoded = self._decoded
        moves = {a: decoded.get(a) or decoded.setdefault(a, state.decode(a)) for a in legal}
        seen = _Seen(rules, view)
        pending = view["pending"]
        if pending is not None and pending.get("seat") == seat:
            kind = pending["kind"]
            card = seen.design(pending["card"])
            if kind == "declare":
                return self._declare(seen, moves)
            if kind == "optional":
                return self._optional(seen, card, moves)
            if kind == "target":
                return self._target(seen, card, moves)
            if kind == "option":
                return self._option(seen, card, pending["options"], moves)
            return self._select(seen, moves, pending["purpose"])
        if view["phase"] == "drawn":
            return self._drawn(seen, moves)
        return self._play(seen, moves)

    # -- playing -----------------------------------------------------------------------

    def _play(self, seen: _Seen, moves: dict[int, ActionInfo]) -> Action:
        plays = {a: seen.card(m) for a, m in moves.items() if m.kind == "play"}
        if not plays:  # only draw or pass: with one legal action we never get here
            return min(moves)
        plain = {a: c for a, c in plays.items() if not _is_wild(c)}
        choices = plain or plays  # rule 1
        return self._best(choices, lambda a: self._play_score(seen, choices[a]))

    def _play_score(self, seen: _Seen, card: CardDef) -> float:
        after = _without(seen.hand, card)
        if not after:
            return OUT
        score = float(seen.penalty(card))  # rule 2
        if _stuck(card):
            score += STUCK_BONUS + (OUT / 2 if len(after) == 1 else 0.0)  # rule 4
        if len(after) == 1 and _stuck(after[0]):
            score -= OUT / 2
        if card.effects:  # rule 3
            worth = _value(seen, card.effects, after)
            score += max(worth, 0.0) if card.optional else worth
        direction = -seen.direction if "reverse" in card.marks else seen.direction
        nxt = seen.next_seat(direction)
        if "skip" in card.marks:
            score += 0.8 * _opponent_card(seen.sizes[nxt])
        else:
            score -= _danger(seen, card, nxt)  # rule 5
        score += 0.3 * sum(1 for c in after if c.suit == card.suit and not _is_wild(c))  # rule 6
        return score

    def _drawn(self, seen: _Seen, moves: dict[int, ActionInfo]) -> Action:
        play = next(a for a, m in moves.items() if m.kind == "play")
        skip = next(a for a, m in moves.items() if m.kind == "pass")
        card = seen.card(moves[play])
        after = _without(seen.hand, card)
        if _is_wild(card) and len(after) >= KEEP_WILD_HAND:
            return skip  # rule 12: keep it for when nothing else matches
        forced = card.effects and not card.optional
        if forced and TEMPO + seen.penalty(card) + _value(seen, card.effects, after) < 0:
            return skip  # its action costs more than shedding it gains
        return play

    # -- choices while a card is played ----------------------------------------------------

    def _declare(self, seen: _Seen, moves: dict[int, ActionInfo]) -> Action:
        unseen: Counter[int] = Counter()
        for c, k in seen.unseen:
            unseen[c.suit] += k

        def key(action: int) -> tuple[int, int, int]:
            suit = SUITS.index(str(moves[action].suit))
            mine = [c for c in seen.hand if c.suit == suit and not _is_wild(c)]
            return (len(mine), sum(seen.penalty(c) for c in mine), -unseen[suit])

        return self._best(moves, key)  # rule 7

    def _optional(self, seen: _Seen, card: CardDef, moves: dict[int, ActionInfo]) -> Action:
        worth = _value(seen, card.effects, seen.hand)  # rule 8
        want = "yes" if worth > 0 else "no"
        return next(a for a, m in moves.items() if m.kind == want)

    def _target(self, seen: _Seen, card: CardDef, moves: dict[int, ActionInfo]) -> Action:
        def key(action: int) -> tuple[float, int, int]:
            p = moves[action].seat
            assert p is not None  # a target names a player
            return (_value(seen, card.effects, seen.hand, chosen=p), -seen.sizes[p], -seen.totals[p])

        return self._best(moves, key)  # rule 9

    def _option(self, seen: _Seen, card: CardDef, labels: list[str], moves: dict[int, ActionInfo]) -> Action:
        step = _choose_step(card.effects, labels)

        def key(action: int) -> float:
            option = moves[action].option
            if step is None or option is None:
                return 0.0
            return _value(seen, step.options[option - 1].effects, seen.hand)

        return self._best(moves, key)  # rule 10

    def _select(self, seen: _Seen, moves: dict[int, ActionInfo], purpose: str) -> Action:
        picks = {a: seen.card(m) for a, m in moves.items() if m.kind == "select"}
        done = next((a for a, m in moves.items() if m.kind == "done"), None)
        if not picks and done is not None:
            return done
        return self._best(picks, lambda a: _shed_key(seen, picks[a]))  # rule 11

    # -- ties --------------------------------------------------------------------------

    def _best(self, actions: Iterable[int], key: Callable[[int], Any]) -> Action:
        """The action with the highest ``key``; ties broken at random."""
        scored: list[tuple[Any, int]] = [(key(a), a) for a in sorted(actions)]
        top = max(s for s, _ in scored)
        best = [a for s, a in scored if s == top]
        return best[0] if len(best) == 1 else self.rng.choice(best)


# -- the scoring model --------------------------------------------------------------------------


def _without(hand: list[CardDef], card: CardDef) -> list[CardDef]:
    out = list(hand)
    if card in out:
        out.remove(card)
    return out


def _shed_key(seen: _Seen, card: CardDef) -> tuple[int, int, int]:
    """Which card to part with first: cannot-win cards, then non-wilds, then high penalty."""
    return (int(_stuck(card)), int(not _is_wild(card)), seen.penalty(card))


def _shed_worth(
    seen: _Seen, cards: list[CardDef], count: int, hand: list[CardDef], grown: bool = False
) -> float:
    """Worth of parting with up to ``count`` of ``cards`` (the best ones first) from ``hand``;
    going out if that empties it, unless an earlier step may have added cards (``grown``)."""
    chosen = sorted(cards, key=lambda c: _shed_key(seen, c), reverse=True)[:count]
    worth = 0.0
    for c in chosen:
        worth += TEMPO + seen.penalty(c) + (STUCK_BONUS if _stuck(c) else 0.0)
        if _is_wild(c):
            worth -= WILD_WORTH / 2
    if chosen and len(chosen) == len(hand) and not grown:
        worth += OUT
    return worth


def _danger(seen: _Seen, card: CardDef, nxt: int) -> float:
    """How likely the next player, holding one or two cards, matches ``card`` on top."""
    size = seen.sizes[nxt]
    if size > 2 or nxt == seen.seat or _is_wild(card):
        return 0.0
    hits = sum(k for c, k in seen.unseen if _is_wild(c) or c.suit == card.suit or c.rank == card.rank)
    chance = 1.0 - (1.0 - hits / seen.unseen_total) ** size
    return chance * (8.0 if size == 1 else 3.0)


def _choose_step(steps: Sequence[Step], labels: list[str]) -> Step | None:
    """The ``choose`` step among ``steps`` (nested ones too) whose options carry ``labels``."""
    for step in steps:
        if step.op == "choose" and [o.label for o in step.options] == list(labels):
            return step
        for inner in (step.heads, step.tails, *(o.effects for o in step.options)):
            found = _choose_step(inner, labels)
            if found is not None:
                return found
    return None


def _value(
    seen: _Seen, steps: Sequence[Step], hand: list[CardDef], chosen: int | None = None,
    grown: bool = False,
) -> float:
    """What carrying out ``steps`` is worth to ``seen.seat`` holding ``hand``: each step is
    judged alone, except that once a step may add cards to the hand, no later step counts on
    emptying it."""
    worth = 0.0
    for step in steps:
        worth += _step_value(seen, step, hand, chosen, grown)
        grown = grown or _may_add(seen, step, hand, chosen)
    return worth


def _may_add(seen: _Seen, step: Step, hand: list[CardDef], chosen: int | None) -> bool:
    """Whether ``step`` may put cards into ``seen.seat``'s hand."""
    op = step.op
    if op in ("coin", "choose"):
        inner = [*step.heads, *step.tails, *(s for o in step.options for s in o.effects)]
        return any(_may_add(seen, s, hand, chosen) for s in inner)
    if op == "draw":
        return step.who is None or step.who.kind in ("self", "all", "holding")
    if op == "take":
        return True
    if op == "give":
        return step.to is not None and step.to.kind == "self"
    return op == "swap_hands"


def _uses_chosen(step: Step) -> bool:
    return any(t is not None and t.kind == "chosen" for t in (step.who, step.to))


def _seats(
    seen: _Seen, target: Target | None, hand: list[CardDef], chosen: int | None
) -> list[tuple[int, float]]:
    """The seats a target names, each with the chance it is concerned."""
    me = seen.seat
    if target is None:
        return [(me, 1.0)]
    kind = target.kind
    if kind == "self":
        return [(me, 1.0)]
    if kind == "next":
        return [(seen.next_seat(), 1.0)]
    if kind == "previous":
        return [((me - seen.direction) % seen.n, 1.0)]
    if kind == "chosen":
        return [(chosen if chosen is not None else seen.others[0], 1.0)]
    if kind == "others":
        return [(s, 1.0) for s in seen.others]
    if kind == "all":
        return [(s, 1.0) for s in range(seen.n)]
    assert target.holding is not None
    mine = 1.0 if any(_matches(target.holding, c) for c in hand) else 0.0
    return [(me, mine)] + [(s, seen.holds(s, target.holding)) for s in seen.others]


def _step_value(
    seen: _Seen, step: Step, hand: list[CardDef], chosen: int | None, grown: bool = False
) -> float:
    op = step.op
    if op == "coin":
        heads = _value(seen, step.heads, hand, chosen, grown)
        return 0.5 * (heads + _value(seen, step.tails, hand, chosen, grown))
    if op == "choose":
        return max(_value(seen, o.effects, hand, chosen, grown) for o in step.options)
    if op in ("reverse", "declare_suit"):
        return 0.0
    if op == "play_again":
        return PLAY_AGAIN
    if chosen is None and _uses_chosen(step):
        return max(_step_value(seen, step, hand, p, grown) for p in seen.others)
    me = seen.seat
    sizes = seen.sizes
    worth = 0.0
    if op == "draw":
        for p, chance in _seats(seen, step.who, hand, chosen):
            if p == me:
                worth -= chance * step.count * (TEMPO + seen.unseen_penalty)
            else:
                worth += chance * step.count * _opponent_card(sizes[p])
        return worth
    if op == "skip":
        for p, chance in _seats(seen, step.who, hand, chosen):
            worth += -chance * SKIP_SELF if p == me else chance * 0.8 * _opponent_card(sizes[p])
        return worth
    if op == "penalty":
        for p, chance in _seats(seen, step.who, hand, chosen):
            worth += -chance * step.points if p == me else chance * step.points * OPPONENT_PENALTY
        return worth
    if op == "peek":
        return 0.2
    if op in ("discard", "discard_under"):
        who = Target("self") if op == "discard_under" else step.who
        for p, chance in _seats(seen, who, hand, chosen):
            if p == me:
                mine = [c for c in hand if step.filter is None or _matches(step.filter, c)]
                shed = _shed_worth(seen, mine, step.count, hand, grown)
                worth += chance * shed
                if chance == 1.0 and shed >= OUT:
                    return worth  # out: the round ends before anyone else discards
            else:
                worth -= chance * _opponent_loses(seen, p, step.count, step.filter)
        return worth
    if op == "give":
        receiver = _seats(seen, step.to, hand, chosen)[0][0]
        for giver, chance in _seats(seen, step.who, hand, chosen):
            if giver == receiver:
                continue
            if giver == me:
                mine = [c for c in hand if step.filter is None or _matches(step.filter, c)]
                moved = min(step.count, len(mine))
                worth += chance * _shed_worth(seen, mine, step.count, hand, grown)
                worth += chance * moved * _opponent_card(sizes[receiver])
            else:
                worth -= chance * _opponent_loses(seen, giver, step.count, step.filter)
                if receiver == me:
                    expected = min(step.count, sizes[giver]) * seen.holds(giver, step.filter)
                    worth -= chance * expected * (TEMPO + seen.unseen_penalty)
        return worth
    if op == "take":
        victim = _seats(seen, step.who, hand, chosen)[0][0]
        if victim == me:
            return 0.0
        has = seen.holds(victim, step.filter)
        taken = min(step.count, sizes[victim]) * has
        wild_share = _wild_share(seen, step.filter)
        worth -= _opponent_loses(seen, victim, step.count, step.filter)
        worth -= taken * (TEMPO + seen.unseen_penalty - wild_share * WILD_WORTH)
        worth += taken * wild_share * WILD_WORTH * 0.5  # the victim loses a wild
        return worth
    if op == "swap_hands":
        other = _seats(seen, step.who, hand, chosen)[0][0]
        if other == me:
            return 0.0
        theirs = sizes[other]
        if theirs == 0:
            return OUT
        own = sum(seen.penalty(c) for c in hand)
        return (len(hand) - theirs) * TEMPO + own - theirs * seen.unseen_penalty
    return 0.0


def _opponent_loses(seen: _Seen, seat: int, count: int, card_filter: CardFilter | None) -> float:
    """What it costs us that opponent ``seat`` parts with up to ``count`` cards (matching)."""
    size = seen.sizes[seat]
    has = seen.holds(seat, card_filter)
    cost = min(count, size) * has * _opponent_card(size)
    if size <= count:  # this could empty their hand: they go out
        cost += OUT * (seen.fraction(card_filter) ** size)
    return cost


def _wild_share(seen: _Seen, card_filter: CardFilter | None) -> float:
    """Share of wilds among the unseen cards matching ``card_filter``."""
    matching = [(c, k) for c, k in seen.unseen if card_filter is None or _matches(card_filter, c)]
    total = sum(k for _, k in matching)
    return sum(k for c, k in matching if _is_wild(c)) / total if total else 0.0
