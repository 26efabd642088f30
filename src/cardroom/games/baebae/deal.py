"""A hand-made first round of BAEBAE (for tests, puzzles and records of such games): the
cards each seat holds, the starter and the top of the stockpile, checked against the deck."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.engine import RulesError, chance_rng, is_whole
from cardroom.text import plural

if TYPE_CHECKING:
    from cardroom.games.baebae.rules import Rules

__all__ = ["Deal", "check_deal"]


@dataclass(frozen=True)
class Deal:
    """A hand-made first round, e.g. for a test: cards by their text forms (``6C``).

    ``stock`` lists the top of the stockpile, top first; the cards not named anywhere lie
    under it in an order shuffled from the seed.
    """

    hands: Sequence[Sequence[str]]
    starter: str
    stock: Sequence[str] = ()
    dealer: int = 0


def check_deal(rules: Rules, deal: Deal, seed: int) -> list[int]:
    """The first round's deck in dealing order (hands, starter, stock top first)."""
    n = rules.players
    if len(deal.hands) != n:
        raise RulesError(f"deal has {plural(len(deal.hands), 'hand')}; {n} players need {n}")
    size = rules.hand_size
    keys = {c.key.upper(): i for i, c in enumerate(rules.cards)}
    free: dict[int, list[int]] = {}
    for pid, design in enumerate(rules.card_of):
        free.setdefault(design, []).append(pid)

    def take(text: object, where: str) -> int:
        design = keys.get(str(text).strip().upper()) if isinstance(text, str) else None
        if design is None:
            raise RulesError(f"deal, {where}: {text!r} is not a card of the deck {rules.deck_data.name!r}")
        if not free[design]:
            raise RulesError(f"deal, {where}: no copy of {text} is left")
        return free[design].pop(0)

    order: list[int] = []
    for seat, hand in enumerate(deal.hands):
        if len(hand) != size:
            raise RulesError(f"deal, hand {seat} has {plural(len(hand), 'card')}; each hand needs {size}")
        order.extend(take(card, f"hand {seat}") for card in hand)
    order.append(take(deal.starter, "starter"))
    order.extend(take(card, "stock") for card in deal.stock)
    rest = sorted(pid for pids in free.values() for pid in pids)
    chance_rng(seed, "deal-rest", stream=rules.stream).shuffle(rest)
    if not is_whole(deal.dealer) or not 0 <= deal.dealer < n:
        raise RulesError(f"deal, dealer must be a seat from 0 to {n - 1}, not {deal.dealer!r}")
    return order + rest
