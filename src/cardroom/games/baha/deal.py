"""How a hand of Baha is dealt: the deck's order from the seed, or a hand-made deal checked
against the rules."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

from cardroom.cards import Card, CardMask, mask_of
from cardroom.engine import SPLITMIX, TWISTER, RulesError, chance_rng, is_whole
from cardroom.games.baha.actions import CARD_TEXT
from cardroom.games.baha.cards import BAHA_DECK, FULL_BAHA_MASK, CardParseError, parse_baha_card
from cardroom.games.baha.rules import Deal, Rules
from cardroom.text import plural

__all__ = ["shuffled_deck", "check_deal"]

_DECK_ORDERS = math.factorial(len(BAHA_DECK))


def shuffled_deck(seed: int, hand_no: int, stream: str = TWISTER) -> list[Card]:
    """The deck in dealing order for hand ``hand_no``: a function of the seed and hand only.

    On the split stream (:data:`~cardroom.engine.SPLITMIX`) the deck is shuffled by
    ``chance_rng(seed, "deal", hand_no)`` like any other chance event. On the Twister stream
    one 512-bit hash of ``(seed, hand_no)`` is read as a number below 52! and decoded, one
    divmod per card, into the choices of a Fisher-Yates shuffle: a uniform shuffle (the
    remainder's bias is below 2**-286) at about a third of the cost of seeding a Mersenne
    Twister through :func:`chance_rng` and shuffling with it, a cost paid on every hand.
    """
    if stream == SPLITMIX:
        deck = list(BAHA_DECK)
        chance_rng(seed, "deal", hand_no, stream=stream).shuffle(deck)
        return deck
    digest = hashlib.blake2b(f"{seed}:deal:{hand_no}".encode(), digest_size=64).digest()
    order = int.from_bytes(digest, "big") % _DECK_ORDERS
    deck = list(BAHA_DECK)
    for i in range(len(deck) - 1, 0, -1):
        order, j = divmod(order, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def check_deal(rules: Rules, deal: Deal) -> tuple[list[CardMask], CardMask, list[Card], int]:
    """Validate a hand-made deal against the rules; cards as masks and a top-first pile."""
    n = rules.players

    def read(cards: Sequence[object], where: str) -> list[Card]:
        # ``object``, not ``Card | str``: a hand-made deal may hold anything, and True (a bool,
        # so an int) is refused rather than read as the card 1
        out = []
        for card in cards:
            if isinstance(card, str):
                try:
                    out.append(parse_baha_card(card))
                except CardParseError as err:
                    raise RulesError(f"deal, {where}: {err}") from None
            elif is_whole(card) and 0 <= card < len(BAHA_DECK):
                out.append(card)
            else:
                raise RulesError(f"deal, {where}: {card!r} is not a card")
        return out

    if len(deal.hands) != n:
        raise RulesError(f"deal has {plural(len(deal.hands), 'hand')}; {n} players need {n}")
    hands = [read(h, f"hand {s}") for s, h in enumerate(deal.hands)]
    for s, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            have = plural(len(hand), "card")
            raise RulesError(f"deal, hand {s} has {have}; each hand needs {rules.hand_size}")
    leftover = read(deal.leftover, "leftover")
    pile = read(deal.draw_pile, "draw pile")
    if len(leftover) != rules.leftover_count:
        raise RulesError(f"deal has {len(leftover)} leftover cards; these rules leave {rules.leftover_count}")
    if len(pile) != rules.draw_pile_count:
        raise RulesError(f"deal has {len(pile)} draw-pile cards; these rules need {rules.draw_pile_count}")
    everything = [c for h in hands for c in h] + leftover + pile
    mask = mask_of(everything)
    if len(everything) != len(BAHA_DECK) or mask != FULL_BAHA_MASK:
        seen: set[int] = set()
        twice = sorted({CARD_TEXT[c] for c in everything if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        raise RulesError(f"deal must hold each of the 52 cards once; repeated: {', '.join(twice)}")
    if not is_whole(deal.dealer) or not 0 <= deal.dealer < n:
        raise RulesError(f"deal, dealer must be a seat from 0 to {n - 1}, not {deal.dealer!r}")
    return [mask_of(h) for h in hands], mask_of(leftover), pile, deal.dealer
