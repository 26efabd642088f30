"""BAEBAE's cards in words and colours, and its events told as they happen, for the terminal.

Everything told comes from view-filtered events and from the deck (every card's design is
public: its name, types, marks and action text), so the narration never knows more than the
person may. The person's turn (the table, the questions) is drawn by
:class:`cardroom.cli.play.baebae.Screen`, built on this class.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardroom.cli.play.session import ME, TableScreen, signed_number
from cardroom.engine import Event
from cardroom.games.baebae import CardDef
from cardroom.games.baebae import Rules as BaebaeRules
from cardroom.games.baebae.effects import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from cardroom.games.baebae.events import (
    CoinEvent,
    DeclareEvent,
    DrawEvent,
    EffectEvent,
    EndEvent,
    MoveEvent,
    PassEvent,
    PenaltyEvent,
    Place,
    PlayEvent,
    ReshuffleEvent,
    ReverseEvent,
    RoundEndEvent,
    RoundEvent,
    SkipEvent,
    baebae_event,
)
from cardroom.games.baebae.rules import penalty_of
from cardroom.text import plural

__all__ = ["Narration", "SYMBOL_OF_SUIT", "MARKS_SHOWN"]

SYMBOL_OF_SUIT = dict(zip(SUITS, SUIT_SYMBOLS, strict=True))
"""Each suit letter's symbol (``C`` ♣), from the game's one table of them."""
SUIT_STYLES = {"C": "bold", "D": "bold red", "H": "bold red", "S": "bold"}
MARKS_SHOWN = ("wild", "skip", "reverse")
HIDDEN = "?"


class Narration(TableScreen):
    """Tells BAEBAE's events for seat 0 and draws its cards, with Rich."""

    def __init__(self, console: Console, name: str | None, rules: BaebaeRules) -> None:
        super().__init__(console, name, rules.players)
        self.rules = rules
        self.designs: dict[str, CardDef] = rules.deck_data.by_key()
        self.direction = 1
        self.round = 0
        self.declarer: int | None = None  # who named the suit in play
        self.action_card: tuple[int, str] | None = None  # (player, card) of the card acting now
        self.drawing: tuple[int, list[str], bool] | None = None  # draws held back for one line
        self.handlers = {
            "round": self._on_round,
            "play": self._on_play,
            "declare": self._on_declare,
            "draw": self._on_draw,
            "pass": self._on_pass,
            "reshuffle": self._on_reshuffle,
            "coin": self._on_coin,
            "skip": self._on_skip,
            "reverse": self._on_reverse,
            "move": self._on_move,
            "penalty": self._on_penalty,
            "effect": self._on_effect,
            "round_end": self._on_round_end,
            "end": self._on_end,
        }

    # -- words and cards ---------------------------------------------------------------

    def verb(self, seat: int, verb: str) -> str:
        """``seat`` and a verb that agrees: "You play", "Heuristic 2 plays"."""
        if seat == ME:
            return f"You {verb}"
        return f"{self.seat(seat)} {_third_person(verb)}"

    def obj(self, seat: int) -> str:
        """A seat inside a sentence: "you", "Heuristic 2"."""
        return "you" if seat == ME else self.seat(seat)

    def whose(self, seat: int) -> str:
        return "your" if seat == ME else f"{self.seat(seat)}'s"

    def design(self, key: str) -> CardDef | None:
        return self.designs.get(key)

    def card(self, key: str, *, dim: bool = False) -> Text:
        """A card as rank and coloured suit symbol (``10♥``); a hidden card stays ``?``."""
        match = _KEY.fullmatch(key)
        if match is None:
            return Text(key, style="dim")
        rank, suit, copy = match.groups()
        style = SUIT_STYLES[suit] + (" dim" if dim else "")
        return Text(f"{rank}{SYMBOL_OF_SUIT[suit]}{copy or ''}", style=style)

    def plain(self, key: str) -> str:
        return self.card(key).plain

    def character(self, key: str) -> str:
        """The card's character name, or the card itself if it has none."""
        design = self.design(key)
        return design.name if design is not None and design.name else self.plain(key)

    def named(self, key: str) -> Text:
        """A card and its character name: ``7♥ The Puddingstone Brass Band``."""
        out = self.card(key)
        design = self.design(key)
        if design is not None and design.name:
            out.append(f" {design.name}", style="italic")
        return out

    def described(self, key: str) -> Text:
        """A card, its character, its marks and its action: all a player needs to know of it."""
        out = self.named(key)
        design = self.design(key)
        if design is not None:
            marks = [m for m in MARKS_SHOWN if m in design.marks]
            if marks:
                out.append(" " + " ".join(f"[{m}]" for m in marks), style="cyan")
            if design.text:
                out.append(f" — {design.text}", style="dim")
                return out
        out.append(".")
        return out

    def cards(self, keys: Sequence[str], *, named: bool = False) -> Text:
        out = Text()
        for i, key in enumerate(keys):
            if i:
                out.append(", " if named else " ")
            out.append_text(self.named(key) if named else self.card(key))
        return out

    def suit(self, letter: str) -> Text:
        return Text(f"{SYMBOL_OF_SUIT[letter]} {SUIT_NAMES[SUITS.index(letter)]}", style=SUIT_STYLES[letter])

    def sort(self, keys: Sequence[str]) -> list[str]:
        """Cards by suit (C D H S), then rank (A to K)."""
        def order(key: str) -> tuple[int, int, str]:
            design = self.design(key)
            if design is None:
                return (9, 99, key)
            return (design.suit, design.rank, key)

        return sorted(keys, key=order)

    def in_play(self, view: Mapping[str, Any]) -> str:
        """What may be played now, in words."""
        suit = SUIT_NAMES[SUITS.index(view["suit"])]
        if view["declared"]:
            return f"the named suit {suit}: play a {suit[:-1]} or a wild card"
        top = self.design(view["top"])
        rank = ""
        if top is not None:
            text = RANKS[top.rank - 1]
            rank = f"{'an' if text in ('A', '8') else 'a'} {text} or "
        return f"the top card {self.plain(view['top'])}: play {rank}a {suit[:-1]}, or a wild card"

    def order(self, direction: int) -> str:
        """The order of play from the person round the table: "You → Seat 1 → Seat 2"."""
        return " → ".join(self.seat((ME + direction * k) % self.players) for k in range(self.players))

    def way(self, direction: int) -> str:
        return "left" if direction == 1 else "right"

    # -- what happened -------------------------------------------------------------------

    def heading(self, bots: str) -> Text:
        deck = self.rules.deck_data
        return Text.assemble(
            ("BAEBAE", "bold"),
            f" · {self.players} players · {plural(self.rules.rounds, 'round')} · "
            f"deck {deck.name} ({plural(deck.size, 'card')}) · bots: {bots}",
        )

    def continues(self, event: Event) -> bool:
        """One player's draws in a row are held back to be told as one line (:meth:`flush`)."""
        held, seen = self.drawing, baebae_event(event)
        return (
            held is not None and seen["t"] == "draw" and seen["p"] == held[0]
            and bool(seen.get("forced")) == held[2]
        )

    def flush(self) -> None:
        """Tell the draws held back, so that one player's draws in a row make one line."""
        if self.drawing is None:
            return
        seat, cards, forced = self.drawing
        self.drawing = None
        if seat == ME:
            self._line("You draw ", self.cards(cards, named=True), ".")
        else:
            self._line(f"{self.seat(seat)} draws {plural(len(cards), 'card', one='a')}.")

    def _on_round(self, event: RoundEvent) -> None:
        self.round = event["n"]
        self.direction = event["direction"]
        self.declarer = None
        self.action_card = None
        dealer = event["dealer"]
        starter = event["starter"]
        self.console.print()
        self.console.rule(
            f"[bold]Round {event['n']} of {self.rules.rounds}[/] · {self.verb(dealer, 'deal')}"
        )
        hand = plural(len(event["hands"][ME]), "card")
        line = Text.assemble(f"Each player is dealt {hand}. The starter is ", self.named(starter))
        design = self.design(starter)
        if design is not None and design.wild:
            line.append_text(Text.assemble(", a wild card: its own suit, ", self.suit(event["suit"]),
                                           ", is in play."))
        else:
            line.append_text(Text.assemble(": ", self.suit(event["suit"]), " in play."))
        self.console.print(line)
        first = (dealer + self.direction) % self.players
        self._line(f"Play goes {self.way(self.direction)} ({self.order(self.direction)}); "
                   f"{self.seat(first)} {'start' if first == ME else 'starts'}.")

    def _on_play(self, event: PlayEvent) -> None:
        seat, key = event["p"], event["card"]
        if event.get("under"):
            under = self.action_card[1] if self.action_card else None
            self._line(
                f"{self.verb(seat, 'put')} ", self.named(key), " under ",
                self.card(under) if under else "the action card", ".",
            )
            return
        self.action_card = (seat, key)
        self.declarer = None
        self._line(f"{self.verb(seat, 'play')} ", self.described(key))

    def _on_declare(self, event: DeclareEvent) -> None:
        self.declarer = event["p"]
        self._line(f"{self.verb(event['p'], 'declare')} ", self.suit(event["suit"]), ".")

    def _on_draw(self, event: DrawEvent) -> None:
        if self.drawing is None:
            self.drawing = (event["p"], [], bool(event.get("forced")))
        self.drawing[1].append(event["card"])

    def _on_pass(self, event: PassEvent) -> None:
        seat = event["p"]
        before = None if self.previous is None else baebae_event(self.previous)
        if before is not None and before["t"] == "draw" and before["p"] == seat and not before.get("forced"):
            self._line(f"{self.verb(seat, 'pass')}.")
        else:
            self._line(f"{self.verb(seat, 'pass')}: nothing is left to draw.")

    def _on_reshuffle(self, event: ReshuffleEvent) -> None:
        count = len(event["stock"])
        self._line(f"The stockpile is empty: the discard pile under the top card is shuffled into "
                   f"a new stockpile of {plural(count, 'card')}.")

    def _on_coin(self, event: CoinEvent) -> None:
        self._line(f"{self.verb(event['p'], 'flip')} a coin. Coin: ", (event["result"], "bold"), ".")

    def _on_skip(self, event: SkipEvent) -> None:
        seat = event["p"]
        self._line(f"{self.verb(seat, 'lose')} {'your' if seat == ME else 'their'} turn (skipped).")

    def _on_reverse(self, event: ReverseEvent) -> None:
        self.direction = event["direction"]
        self._line(f"Direction reversed: play now goes {self.way(self.direction)} "
                   f"({self.order(self.direction)}).")

    def _on_move(self, event: MoveEvent) -> None:
        source, cards = event["from"], event["cards"]
        shown = HIDDEN not in cards
        if event["why"] == "discard":
            under = self.action_card[1] if self.action_card else None
            self._line(
                f"{self.verb(source, 'put')} ", self.cards(cards, named=True), " under ",
                self.card(under) if under else "the action card", ".",
            )
            return
        to, why = event["to"], event["why"]
        if why == "give":
            if to == ME and shown:
                self._line(f"{self.verb(source, 'give')} you ", self.cards(cards, named=True), ".")
            elif source == ME and shown:
                self._line("You give ", self.cards(cards, named=True), f" to {self.obj(to)}.")
            else:
                given = plural(len(cards), "card", one="a")
                self._line(f"{self.verb(source, 'give')} {self.obj(to)} {given}.")
        elif why == "take":
            taken = plural(len(cards), "card", one="a")
            if source == ME and shown:
                self._line(f"{self.verb(to, 'take')} {taken} from you: ", self.cards(cards, named=True), ".")
            elif to == ME and shown:
                self._line(f"You take {taken} from {self.obj(source)}: ", self.cards(cards, named=True), ".")
            else:
                self._line(f"{self.verb(to, 'take')} {taken} from {self.obj(source)}.")
        elif why == "swap":
            before = None if self.previous is None else baebae_event(self.previous)
            second = (before is not None and before["t"] == "move" and before.get("why") == "swap"
                      and before["from"] == to and before["to"] == source)
            if not second:
                self._line(f"{self.verb(source, 'swap')} hands with {self.obj(to)}.")
            if source == ME:
                self._line("You hand over ", self.cards(cards, named=True) if cards else "no cards", ".")
            elif to == ME:
                self._line("You get ", self.cards(cards, named=True) if cards else "no cards", ".")
        else:
            moved = plural(len(cards), "card", one="a")
            self._line(f"{self.verb(source, 'move')} {moved} to {self.obj(to)}.")

    def _on_penalty(self, event: PenaltyEvent) -> None:
        seat, points = event["p"], event["points"]
        if points >= 0:
            self._line(f"{self.verb(seat, 'get')} {plural(points, 'penalty point')} this round.")
        else:
            self._line(f"{self.verb(seat, 'take')} {plural(-points, 'point')} off "
                       f"{'your' if seat == ME else 'their'} penalty this round.")

    def _on_effect(self, event: EffectEvent) -> None:
        seat = event["p"]
        if event["op"] == "on_start":
            design = self.design(event["card"])
            self.action_card = (seat, event["card"])
            self._line(
                f"The starter's action is carried out, with the dealer ({self.obj(seat)}) as its player: ",
                design.text if design else "",
            )
        elif event["op"] == "optional":
            carried = event.get("carried_out")
            self._line(f"{self.verb(seat, 'carry') if carried else self.verb(seat, 'do')}"
                       f"{'' if carried else ' not carry'} out the action of ", self.card(event["card"]), ".")
        elif event["op"] == "choose":
            self._line(f"{self.verb(seat, 'choose')}: ", (str(event.get("label", "")), "bold"), ".")
        elif event["op"] == "skip":
            who = event["who"]
            self._line(f"{self.seat(who)} will lose {'your' if who == ME else 'their'} next turn.")
        elif event["op"] == "play_again":
            self._line(f"{self.seat(seat)} will take another turn.")
        elif event["op"] == "peek":
            who = event["who"]
            if seat == ME:
                cards = event.get("cards") or []
                self._line(f"You look at {self.whose(who)} hand: ",
                           self.cards(self.sort(cards), named=True) if cards else "no cards", ".")
            elif who == ME:
                self._line(f"{self.seat(seat)} looks at your hand.")
            else:
                self._line(f"{self.seat(seat)} peeks at {self.whose(who)} hand.")

    def _on_round_end(self, event: RoundEndEvent) -> None:
        n, out = event["n"], event["out"]
        if event.get("guard"):
            self._line((f"Round {n} went on too long ({self.rules.turn_limit} turns) and is stopped; "
                        "nobody is out.", "bold"))
        elif event.get("blocked") or out is None:
            self._line((f"Nobody can play or draw: round {n} is blocked and over; nobody is out.", "bold"))
        elif out == ME:
            self._line((f"You are out: round {n} is over!", "bold green"))
        else:
            self._line((f"{self.seat(out)} is out: round {n} is over.", "bold"))
        hands: list[list[str]] = event["hands"]
        penalties: list[int] = event["penalties"]
        totals: list[int] = event["totals"]
        table = Table(title=f"Penalties after round {n}", box=box.SIMPLE_HEAD)
        table.add_column("Player")
        table.add_column("Cards left")
        table.add_column("Card points", justify="right")
        table.add_column("Action points", justify="right")
        table.add_column("Round", justify="right")
        table.add_column("Total", justify="right", style="bold")
        for seat in range(self.players):
            cards = self.sort(hands[seat])
            points = sum(self._penalty(key) for key in cards)
            table.add_row(
                Text(self.player(seat)),  # a Text: the person's name is not Rich markup
                self.cards(cards) if cards else Text("—", style="dim"),
                str(points), signed_number(penalties[seat] - points), str(penalties[seat]), str(totals[seat]),
                style="bold green" if seat == out else None,
            )
        self.console.print(table)

    def _penalty(self, key: str) -> int:
        design = self.design(key)
        return penalty_of(design, self.rules.ace_penalty) if design is not None else 0

    def _on_end(self, event: EndEvent) -> None:
        totals: list[int] = event["totals"]
        ranking: list[Place] = event["ranking"]
        shame: list[int] = event["shame"]
        self.game_over(self.round, "round")
        places = [r["place"] for r in ranking]
        self.standings("Final ranking", [
            (f"{r['place']}{'=' if places.count(r['place']) > 1 else ''}", r["seat"], r["total"],
             "bold green" if r["place"] == 1 else ("red" if r["seat"] in shame else None))
            for r in ranking
        ])
        first = [r["seat"] for r in ranking if r["place"] == 1]
        best = plural(totals[first[0]], "point")
        if len(first) == self.players:
            self._line(("Everyone ties", "bold green"), f" with {best}.")
        elif len(first) == 1:
            who = "You win" if first[0] == ME else f"{self.seat(first[0])} wins"
            self._line((f"{who} with {best}", "bold green"), " (lowest total).")
        else:
            who = _and([self.seat(s) for s in first])
            self._line((f"{who} share first place with {best}.", "bold green"))
        if not shame:
            self._line("All totals are equal: nobody has to bury their head in shame.")
            return
        worst = plural(totals[shame[0]], "point")
        if ME in shame:
            others = [self.seat(s) for s in shame if s != ME]
            if others:
                self._line((f"You and {_and(others)} share last place with {worst}: by the rules you "
                            "must all bury your heads in shame.", "bold red"),
                           " Chin up: there is always another game.")
            else:
                self._line((f"You are last with {worst}: by the rules you must bury your head in "
                            "shame.", "bold red"), " Chin up: there is always another game.")
        elif len(shame) == 1:
            self._line((f"{self.seat(shame[0])} is last with {worst} and must bury their head in shame.",
                        "bold"))
        else:
            self._line((f"{_and([self.seat(s) for s in shame])} share last place with {worst} and must "
                        "bury their heads in shame.", "bold"))


_KEY = re.compile(r"(10|[2-9AJQK])([CDHS])(#\d+)?")


def _third_person(verb: str) -> str:
    if verb == "do":
        return "does"
    if verb.endswith(("s", "sh", "ch")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
