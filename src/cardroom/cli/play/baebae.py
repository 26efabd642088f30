"""BAEBAE's terminal renderer: its table, its events and its questions, drawn with Rich.

Everything on the screen comes from ``state.view(0)`` and ``state.view_log(0)`` and from the
deck (every card's design is public: its name, types, marks and action text), so the screen
never knows more than the person may. Legality is ``legal_actions()``; an entry that is not
a legal answer is explained from what the person can see and never changes the game.

The person answers every question the same way: the number of a listed move, or the move in
words: a card (``6c``, ``6♣``, ``play 6C``), ``draw``, ``pass``, a suit (``h``, ``hearts``),
``y``/``n``, ``done``. Moves are read through ``state.decode``, never from their text. The loop,
the records and the ways to stop are shared (:mod:`cardroom.cli.play.session`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardroom.cli.play.session import (
    HELP_WORDS,
    ME,
    Refusal,
    TableScreen,
    TurnLoop,
    choose_seed,
    line_reader,
    pick_number,
    play_game,
    read_answer,
    signed_number,
)
from cardroom.engine import Action, ActionInfo, Event, IllegalAction, RulesError
from cardroom.engine import Rules as AnyRules
from cardroom.games.baebae import BaebaeState, CardDef
from cardroom.games.baebae import Rules as BaebaeRules
from cardroom.games.baebae.effects import RANKS, SUIT_NAMES, SUITS
from cardroom.games.baebae.rules import penalty_of
from cardroom.text import plural

__all__ = ["run_play", "Session", "Screen", "Question", "HELP"]

SUIT_SYMBOLS = dict(zip(SUITS, "♣♦♥♠", strict=True))
SUIT_STYLES = {"C": "bold", "D": "bold red", "H": "bold red", "S": "bold"}
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
MARKS_SHOWN = ("wild", "skip", "reverse")
HIDDEN = "?"

HELP = """\
[bold]How to answer[/]: type the number of a move from the list, or the move in words: a card \
[bold]6c[/] or [bold]play 6C[/] (suits [bold]C[/] ♣ [bold]D[/] ♦ [bold]H[/] ♥ [bold]S[/] ♠, \
ranks A 2-10 J Q K), [bold]draw[/], [bold]pass[/]; a suit when naming one ([bold]h[/] or \
[bold]hearts[/]); [bold]y[/] or [bold]n[/] for an optional action; [bold]done[/] to stop \
putting cards under a card.
[bold]Play[/]: match the top card's rank or the suit in play, or play a wild card (or one \
whose action names a suit) and name the suit. After a named suit, only that suit or a wild \
goes. If you cannot play, draw one card: play it if it matches, or pass.
[bold]Actions[/]: a card's action happens when it is played, unless it is optional (you \
choose) or the card empties your hand: then nothing happens and the round is over. A card \
that cannot win may not be your last card. Marks: \\[wild] name a suit, \\[skip] the next \
player loses a turn, \\[reverse] play changes direction.
[bold]Scoring[/]: cards left in hand cost penalty points (2-9 face value, 10 J Q K 10, A 1), \
plus the points actions gave. Lowest total after the last round wins; the highest must \
bury their head in shame.
[bold]Commands[/]: [bold]help[/] this text · [bold]show[/] the whole table, every card in full · \
[bold]quit[/] end the game (a --record file is still written)."""


def run_play(
    rules: AnyRules,
    *,
    seed: int | None,
    bots: str,
    name: str,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
    state: BaebaeState | None = None,
) -> int:
    """Play BAEBAE at seat 0 against bots; returns the exit status (0, or 130 on Ctrl-C).

    ``ask(prompt)`` reads one line from the person (default ``console.input``); it may raise
    ``EOFError`` (input ended: the game stops, status 0) or ``KeyboardInterrupt`` (status 130).
    ``state``, if given, is a game already begun (e.g. from a hand-made deal) to play on; its
    seed is used. Bad options raise ``RulesError``, ``AgentError`` or ``RecordError``.

    >>> import io
    >>> out = io.StringIO()
    >>> run_play(BaebaeRules(rounds=1), seed=3, bots="random", name="Ada", record_path=None,
    ...          console=Console(file=out), ask=lambda prompt: "quit")
    0
    >>> out.getvalue().splitlines()[-1]
    'You left the game.'
    """
    if not isinstance(rules, BaebaeRules):
        raise RulesError(f"the BAEBAE terminal game cannot play {rules.game}")
    if state is None:
        seed = choose_seed(seed)
        state = rules.new_game(seed)
    else:
        seed = state.seed
    return play_game(
        Session, state, Screen(console, name, state.rules), seed=seed, bots=bots, name=name,
        record_path=record_path, console=console, ask=line_reader(console, ask, markup=False),
    )


@dataclass
class Question:
    """What the person is asked now: the listed moves and the words that answer it."""

    kind: str
    """play, drawn, optional, declare, target, option or select."""
    heading: Text
    prompt: str
    legal: list[Action]
    labels: list[Text]
    """One per legal action, in the same order."""
    hint: str
    """What to type, for an entry that is not an answer."""
    words: dict[str, Action] = field(default_factory=dict)
    """Typed answers (normalised by :func:`normalise`) and the actions they name."""
    numbers: dict[str, int] = field(default_factory=dict)
    """Card keys with their move number, for the hand table."""


def normalise(text: str) -> str:
    """An entry as the answer tables hold it: lower case, single spaces, suit symbols as letters."""
    out = " ".join(text.strip().lower().split())
    for letter, symbol in SUIT_SYMBOLS.items():
        out = out.replace(symbol, letter.lower())
    return out


class Session(TurnLoop):
    """Runs the game: bots act through ``agent.act``, the person through ``ask``."""

    state: BaebaeState
    screen: Screen

    def person_move(self) -> Action | None:
        """The person's next legal action, or ``None`` if they quit or input ended."""
        view = self.state.view(ME)
        question = self.question(view)
        screen = self.screen
        screen.show(view, question)

        def on_help() -> None:
            screen.help()
            screen.moves(question)

        return read_answer(
            self.ask,
            question.prompt,
            interpret=lambda text: self._interpret(text, view, question),
            on_help=on_help,
            on_show=lambda: screen.show(view, question, full=True),
            on_refuse=lambda reason: screen.refuse(reason, question),
            on_stop=screen.stopped,
            # When naming a suit, "h" is Hearts, not help.
            help_words=HELP_WORDS - {"h"} if question.kind == "declare" else HELP_WORDS,
        )

    # -- the question ------------------------------------------------------------------

    def question(self, view: Mapping[str, Any]) -> Question:
        """The question the person must answer now, from their view."""
        state = self.state
        screen = self.screen
        # Cards are listed in the hand's order (suit, then rank); draw, pass and done come last.
        rank = {key: i for i, key in enumerate(screen.sort(view["hand"] + [view["drawn"] or ""]))}
        moves = sorted(
            ((a, state.decode(a)) for a in view["legal_actions"]),
            key=lambda move: rank.get(move[1].card or "", len(rank)),
        )
        legal = [a for a, _ in moves]
        infos = [info for _, info in moves]
        choices = "1" if len(legal) == 1 else f"1-{len(legal)}"
        pending = view["pending"]
        phase = view["phase"]
        q: Question
        if phase == "drawn" and len(legal) == 1:
            q = Question(
                "drawn", Text("It cannot be played: your turn ends.", style="bold"),
                "Pass (1) › ", legal, [Text("pass")], "type 1 or pass to end your turn",
            )
            q.words.update({"pass": legal[0]})
        elif phase == "drawn":
            drawn = view["drawn"]
            q = Question(
                "drawn", Text("It can be played: play it or pass?", style="bold"),
                f"Play it or pass ({choices}) › ", legal,
                [Text.assemble("play ", screen.card(drawn)), Text("pass")],
                "type 1 or play to play the card you drew, 2 or pass to keep it",
            )
            q.words.update({"play": legal[0], "play it": legal[0], "pass": legal[1]})
        elif pending is None:
            q = Question(
                "play", Text("Your move:", style="bold"), f"Play {choices}, a card or {infos[-1].kind} › "
                if infos[-1].kind in ("draw", "pass") else f"Play {choices} or a card › ",
                legal, [], "type a move's number, a card such as 6c, or draw",
            )
            for info in infos:
                if info.kind == "draw":
                    q.labels.append(Text("draw a card"))
                elif info.kind == "pass":
                    q.labels.append(Text("pass (nothing left to draw)"))
                else:
                    q.labels.append(screen.card(str(info.card)))
        else:
            q = self._decision(pending, legal, infos, choices)
        for number, (action, info) in enumerate(zip(legal, infos, strict=True), 1):
            q.words.setdefault(normalise(state.action_to_string(action)), action)
            if info.kind in ("play", "select") and info.card is not None:
                q.words.setdefault(normalise(info.card), action)
                q.numbers[info.card] = number
        return q

    def _decision(
        self, pending: Mapping[str, Any], legal: list[Action], infos: list[ActionInfo], choices: str
    ) -> Question:
        screen = self.screen
        kind = pending["kind"]
        card = pending["card"]
        who = screen.character(card)
        if kind == "optional":
            q = Question(
                kind, Text("Optional action:", style="bold"), f"Carry out {who}'s action? [y/n] › ", legal,
                [Text("yes, carry it out"), Text("no")], "type y (yes, carry it out) or n (no)",
            )
            for word in ("y", "yes"):
                q.words[word] = legal[0]
            for word in ("n", "no"):
                q.words[word] = legal[1]
            return q
        if kind == "declare":
            q = Question(
                kind, Text("Name the suit in play:", style="bold"), "Name a suit: C D H S › ", legal,
                [screen.suit(str(info.suit)) for info in infos],
                "type C, D, H or S, or the suit's name (clubs, diamonds, hearts, spades)",
            )
            for action, info in zip(legal, infos, strict=True):
                letter = str(info.suit)
                name = SUIT_NAMES[SUITS.index(letter)].lower()
                for word in (letter.lower(), name, name[:-1]):
                    q.words[word] = action
            return q
        if kind == "target":
            seats = [info.seat for info in infos if info.seat is not None]
            sizes = self.state.view(ME)["hand_sizes"]
            q = Question(
                kind, Text("Choose a player:", style="bold"), f"Player ({choices}) › ", legal,
                [Text(f"{screen.player(s)} ({plural(sizes[s], 'card')})") for s in seats],
                "type the number of a player on the list",
            )
            for action, seat in zip(legal, seats, strict=True):
                q.words[f"seat {seat}"] = action
                q.words[f"s{seat}"] = action
            return q
        if kind == "option":
            labels: list[str] = list(pending.get("options") or [])
            numbers = [info.option for info in infos if info.option is not None]
            q = Question(
                kind, Text("Choose an option:", style="bold"), f"Option ({choices}) › ", legal,
                [Text(labels[n - 1]) for n in numbers], "type the number of an option on the list",
            )
            for action, n in zip(legal, numbers, strict=True):
                q.words[normalise(labels[n - 1])] = action
            return q
        # select: a card to give, to put under the action card, or (discard_under) stop
        purpose = pending.get("purpose", "")
        stop = any(info.kind == "done" for info in infos)
        if purpose == "give":
            heading = Text("Choose a card to give:", style="bold")
            prompt = f"Card to give ({choices}) › "
        elif purpose == "discard_under":
            heading = Text.assemble(
                ("You may put a card under ", "bold"), screen.card(card),
                (" (its marks and action do not happen), or stop:", "bold"),
            )
            prompt = f"Card to put under it ({choices}, or done) › "
        else:
            heading = Text.assemble(("Choose a card to put under ", "bold"), screen.card(card), (":", "bold"))
            prompt = f"Card to put under it ({choices}) › "
        q = Question(
            kind, heading, prompt, legal,
            [screen.named(info.card) if info.card is not None else Text("done: stop here")
             for info in infos],
            "type the number or the card of one on the list" + (", or done to stop" if stop else ""),
        )
        if stop:
            for word in ("done", "stop", "no", "n"):
                q.words[word] = legal[-1]
        verb = {"give": "give", "discard_under": "put", "discard": "put"}.get(purpose, "select")
        for action, info in zip(legal, infos, strict=True):
            if info.card is not None:
                q.words[f"{verb} {normalise(info.card)}"] = action
        return q

    # -- reading the answer ------------------------------------------------------------

    def _interpret(self, text: str, view: Mapping[str, Any], question: Question) -> Action:
        word = normalise(text)
        if not word:
            raise Refusal(f"Nothing typed: {question.hint}; or help.")
        if word.isdecimal():
            return pick_number(word, question.legal)
        if word in question.words:
            return question.words[word]
        try:
            action = self.state.parse_action(text)
        except IllegalAction as err:
            if question.kind == "play":
                raise Refusal(f"{err}.") from None
            raise Refusal(f"{text.strip()!r} is not an answer here: {question.hint}.") from None
        if action in question.legal:
            return action
        raise Refusal(self._why_not(action, view, question))

    def _why_not(self, action: Action, view: Mapping[str, Any], question: Question) -> str:
        """Why a well-formed move is not allowed now, from what the person can see."""
        info = self.state.decode(action)
        verb, key = info.kind, str(info.card)
        screen = self.screen
        kind = question.kind
        if kind == "play":
            if verb == "play":
                design = screen.design(key)
                if key not in view["hand"]:
                    return f"You do not hold {screen.plain(key)}."
                if design is not None and len(view["hand"]) == 1 and not (design.can_win or design.optional):
                    return f"{screen.plain(key)} cannot win a round, and it is your last card."
                return f"{screen.plain(key)} does not match {screen.in_play(view)}."
            if verb == "draw":
                return "You have a card you can play, so you may not draw: play one."
            if verb == "pass":
                return "You may not pass: play a card or draw."
            return "There is no question to answer now: play a card or draw."
        if kind == "drawn":
            drawn = screen.plain(view["drawn"])
            return f"After drawing you may play only the card you drew, {drawn}, or pass."
        if kind == "select" and verb == "select":
            return f"{screen.plain(key)} is not one of the cards you may choose now."
        return f"Not now: {question.hint}."


class Screen(TableScreen):
    """Draws the table for seat 0 from views and view-filtered events, with Rich."""

    help_text = HELP

    def __init__(self, console: Console, name: str, rules: BaebaeRules) -> None:
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
        """``seat`` and a verb that agrees: "You play", "Seat 2 plays"."""
        if seat == ME:
            return f"You {verb}"
        return f"Seat {seat} {_third_person(verb)}"

    def obj(self, seat: int) -> str:
        """A seat inside a sentence: "you", "Seat 2"."""
        return "you" if seat == ME else f"Seat {seat}"

    def whose(self, seat: int) -> str:
        return "your" if seat == ME else f"Seat {seat}'s"

    def design(self, key: str) -> CardDef | None:
        return self.designs.get(key)

    def card(self, key: str, *, dim: bool = False) -> Text:
        """A card as rank and coloured suit symbol (``10♥``); a hidden card stays ``?``."""
        match = _KEY.fullmatch(key)
        if match is None:
            return Text(key, style="dim")
        rank, suit, copy = match.groups()
        style = SUIT_STYLES[suit] + (" dim" if dim else "")
        return Text(f"{rank}{SUIT_SYMBOLS[suit]}{copy or ''}", style=style)

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
        return Text(f"{SUIT_SYMBOLS[letter]} {SUIT_NAMES[SUITS.index(letter)]}", style=SUIT_STYLES[letter])

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
        held = self.drawing
        return (
            held is not None and event["t"] == "draw" and event["p"] == held[0]
            and bool(event.get("forced")) == held[2]
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
            self._line(f"Seat {seat} draws {plural(len(cards), 'card', one='a')}.")

    def _on_round(self, event: Event) -> None:
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

    def _on_play(self, event: Event) -> None:
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

    def _on_declare(self, event: Event) -> None:
        self.declarer = event["p"]
        self._line(f"{self.verb(event['p'], 'declare')} ", self.suit(event["suit"]), ".")

    def _on_draw(self, event: Event) -> None:
        if self.drawing is None:
            self.drawing = (event["p"], [], bool(event.get("forced")))
        self.drawing[1].append(event["card"])

    def _on_pass(self, event: Event) -> None:
        seat = event["p"]
        before = self.previous
        if before is not None and before["t"] == "draw" and before["p"] == seat and not before.get("forced"):
            self._line(f"{self.verb(seat, 'pass')}.")
        else:
            self._line(f"{self.verb(seat, 'pass')}: nothing is left to draw.")

    def _on_reshuffle(self, event: Event) -> None:
        count = len(event["stock"])
        self._line(f"The stockpile is empty: the discard pile under the top card is shuffled into "
                   f"a new stockpile of {plural(count, 'card')}.")

    def _on_coin(self, event: Event) -> None:
        self._line(f"{self.verb(event['p'], 'flip')} a coin. Coin: ", (event["result"], "bold"), ".")

    def _on_skip(self, event: Event) -> None:
        seat = event["p"]
        self._line(f"{self.verb(seat, 'lose')} {'your' if seat == ME else 'their'} turn (skipped).")

    def _on_reverse(self, event: Event) -> None:
        self.direction = event["direction"]
        self._line(f"Direction reversed: play now goes {self.way(self.direction)} "
                   f"({self.order(self.direction)}).")

    def _on_move(self, event: Event) -> None:
        source, to, cards, why = event["from"], event["to"], event["cards"], event["why"]
        shown = HIDDEN not in cards
        if why == "discard" or to == "discard":
            under = self.action_card[1] if self.action_card else None
            self._line(
                f"{self.verb(source, 'put')} ", self.cards(cards, named=True), " under ",
                self.card(under) if under else "the action card", ".",
            )
        elif why == "give":
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
            before = self.previous
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

    def _on_penalty(self, event: Event) -> None:
        seat, points = event["p"], event["points"]
        if points >= 0:
            self._line(f"{self.verb(seat, 'get')} {plural(points, 'penalty point')} this round.")
        else:
            self._line(f"{self.verb(seat, 'take')} {plural(-points, 'point')} off "
                       f"{'your' if seat == ME else 'their'} penalty this round.")

    def _on_effect(self, event: Event) -> None:
        op, seat = event["op"], event["p"]
        if op == "on_start":
            design = self.design(event["card"])
            self.action_card = (seat, event["card"])
            self._line(
                f"The starter's action is carried out, with the dealer ({self.obj(seat)}) as its player: ",
                design.text if design else "",
            )
        elif op == "optional":
            carried = event.get("carried_out")
            self._line(f"{self.verb(seat, 'carry') if carried else self.verb(seat, 'do')}"
                       f"{'' if carried else ' not carry'} out the action of ", self.card(event["card"]), ".")
        elif op == "choose":
            self._line(f"{self.verb(seat, 'choose')}: ", (str(event.get("label", "")), "bold"), ".")
        elif op == "skip":
            who = event["who"]
            self._line(f"{self.seat(who)} will lose {'your' if who == ME else 'their'} next turn.")
        elif op == "play_again":
            self._line(f"{self.seat(seat)} will take another turn.")
        elif op == "peek":
            who = event["who"]
            if seat == ME:
                cards = event.get("cards") or []
                self._line(f"You look at {self.whose(who)} hand: ",
                           self.cards(self.sort(cards), named=True) if cards else "no cards", ".")
            elif who == ME:
                self._line(f"Seat {seat} looks at your hand.")
            else:
                self._line(f"Seat {seat} peeks at {self.whose(who)} hand.")

    def _on_round_end(self, event: Event) -> None:
        n, out = event["n"], event["out"]
        if event.get("guard"):
            self._line((f"Round {n} went on too long ({self.rules.turn_limit} turns) and is stopped; "
                        "nobody is out.", "bold"))
        elif event.get("blocked"):
            self._line((f"Nobody can play or draw: round {n} is blocked and over; nobody is out.", "bold"))
        elif out == ME:
            self._line((f"You are out: round {n} is over!", "bold green"))
        else:
            self._line((f"Seat {out} is out: round {n} is over.", "bold"))
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

    def _on_end(self, event: Event) -> None:
        totals: list[int] = event["totals"]
        ranking: list[dict[str, int]] = event["ranking"]
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
            who = "You win" if first[0] == ME else f"Seat {first[0]} wins"
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
            self._line((f"Seat {shame[0]} is last with {worst} and must bury their head in shame.", "bold"))
        else:
            self._line((f"{_and([self.seat(s) for s in shame])} share last place with {worst} and must "
                        "bury their heads in shame.", "bold"))

    # -- the person's turn -------------------------------------------------------------

    def show(self, view: Mapping[str, Any], question: Question, *, full: bool = False) -> None:
        """The table as seat 0 sees it (shorter while an action asks), then the question.

        A turn's screen fits the terminal: when the whole table and question would not
        (an 80 x 24 terminal, a big hand), the table is drawn one line a card, its action text
        cut short; ``show`` draws it whole.
        """
        self.flush()
        if question.kind == "play" or full:
            panel = self._panel(view, question)
            room = self.console.height - 1 - len(self._moves_text(question).split())  # 1: the prompt
            if not full and len(self.console.render_lines(panel, pad=False)) > room:
                panel = self._compact_panel(view, question, room)
            self.console.print(panel)
        else:
            self._context(view, question)
        self.moves(question)

    def _compact_panel(self, view: Mapping[str, Any], question: Question, room: int) -> Panel:
        """The table in as few lines as it takes: one line a fact, one line a card."""
        head = Table.grid(padding=(0, 2))
        head.add_column(style="bold", no_wrap=True)
        head.add_column(no_wrap=True, overflow="ellipsis")
        dealer = self.verb(view["dealer"], "deal")
        head.add_row("Round", Text(f"{view['round']} of {self.rules.rounds} · {dealer} · "
                                   f"{self.way(view['direction'])}: {self.order(view['direction'])}"))
        head.add_row("Cards held", self.per_seat(view["hand_sizes"], skips=view["skips"]))
        head.add_row("Totals", self.per_seat(view["totals"]))
        if any(view["round_penalties"]):
            head.add_row("Action points", self.per_seat(view["round_penalties"], signed=True))
        top = Text.assemble(self.named(view["top"]), " · ", self.suit(view["suit"]),
                            " named" if view["declared"] else "", " in play")
        head.add_row("Top card", top)
        head.add_row("Stockpile", Text(f"{plural(view['stock_count'], 'card')} · discard pile "
                                       f"{plural(len(view['discard']), 'card')}"))
        if view["drawn"]:
            head.add_row("You drew", self.named(view["drawn"]))
        hand = Table.grid(padding=(0, 1), expand=True)
        hand.add_column(justify="right", no_wrap=True)
        hand.add_column(no_wrap=True)
        hand.add_column(no_wrap=True, overflow="ellipsis", max_width=26)
        hand.add_column(no_wrap=True)
        hand.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
        keys = self.sort(view["hand"])
        lines = room - 2 - head.row_count - 1  # 2: the panel's edges; 1: the hand's heading
        playable = [k for k in keys if k in question.numbers]
        shown = keys if len(keys) <= lines else playable[:max(lines - 1, 1)]
        for key in shown:
            hand.add_row(*self._card_line(key, question))
        rest = [k for k in keys if k not in shown]
        heading = Text.assemble(("Your hand", "bold"), ("  (show: every card in full)", "dim"))
        parts: list[Any] = [head, heading, hand]
        if rest:
            parts.append(Text.assemble(("  also held: ", "dim"), self.cards(rest), no_wrap=True,
                                       overflow="ellipsis"))
        title = {"play": "your turn", "drawn": "your turn: play it or pass"}.get(question.kind, "your answer")
        return Panel(Group(*parts), title=f"Round {view['round']} · {title}", title_align="left",
                     box=box.ROUNDED, width=self.console.width)

    def _card_line(self, key: str, question: Question) -> list[Text]:
        """One card of the hand on one line: its number if it may be played, the card, its
        character and types, its marks, its action (cut short by the table)."""
        number = question.numbers.get(key)
        dim = number is None
        design = self.design(key)
        if design is None:
            return [Text(""), self.card(key, dim=dim), Text(""), Text(""), Text("")]
        character = Text(design.name, style="italic")
        if design.types:
            character.append(f" ({', '.join(sorted(design.types))})")
        marks = " ".join(f"[{m}]" for m in MARKS_SHOWN if m in design.marks)
        flags = [flag for flag, on in (("optional", design.optional), ("cannot win", not design.can_win))
                 if on and design.effects]
        action = Text(design.text + (f" ({', '.join(flags)})" if flags else ""))
        style = "dim" if dim else ""
        return [Text(f"{number})" if number else "", style="bold"), self.card(key, dim=dim),
                Text.assemble(character, style=style), Text(marks, style="cyan"),
                Text.assemble(action, style=style)]

    def _panel(self, view: Mapping[str, Any], question: Question) -> Panel:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        dealer = self.verb(view["dealer"], "deal")
        grid.add_row("Round", Text(f"{view['round']} of {self.rules.rounds} · {dealer}"))
        grid.add_row("Direction", Text(f"play goes {self.way(view['direction'])}: "
                                       f"{self.order(view['direction'])}"))
        grid.add_row("Cards held", self.per_seat(view["hand_sizes"], skips=view["skips"]))
        grid.add_row("Totals", self.per_seat(view["totals"]))
        if any(view["round_penalties"]):
            grid.add_row("Action points", self.per_seat(view["round_penalties"], signed=True))
        top = Text.assemble(self.named(view["top"]))
        design = self.design(view["top"])
        if design is not None:
            marks = [m for m in MARKS_SHOWN if m in design.marks]
            if marks:
                top.append(" " + " ".join(f"[{m}]" for m in marks), style="cyan")
        grid.add_row("Top card", top)
        suit = self.suit(view["suit"])
        if view["declared"]:
            by = f" by {self.obj(self.declarer)}" if self.declarer is not None else ""
            suit.append(f" (named{by}: only {SUIT_NAMES[SUITS.index(view['suit'])]} or a wild card)",
                        style="")
        grid.add_row("Suit in play", suit)
        grid.add_row("Stockpile", Text(f"{plural(view['stock_count'], 'card')} · discard pile "
                                       f"{plural(len(view['discard']), 'card')}"))
        if view["drawn"]:
            grid.add_row("You drew", self.named(view["drawn"]))
        grid.add_row("Your hand", self._hand(view["hand"], question))
        title = {"play": "your turn", "drawn": "your turn: play it or pass"}.get(question.kind, "your answer")
        width = min(self.console.width, 110)
        return Panel(grid, title=f"Round {view['round']} · {title}", title_align="left", box=box.ROUNDED,
                     width=width)

    def _context(self, view: Mapping[str, Any], question: Question) -> None:
        """What asks: the card, whose it is and its action; and the person's hand."""
        pending = view["pending"]
        if pending is None:  # a card just drawn: it, then the hand
            self._line(("» ", "bold"), "You drew ", self.described(view["drawn"]))
            hand = self.sort(view["hand"])
            self._line(("Your hand: ", "bold"), self.cards(hand))
            return
        key = pending["card"]
        player = self.action_card[0] if self.action_card and self.action_card[1] == key else None
        design = self.design(key)
        whose = f"{self.whose(player).capitalize()} " if player is not None else ""
        line = Text.assemble(("» ", "bold"), whose, self.named(key))
        if question.kind == "declare" and design is not None and design.wild and not design.declares:
            line.append(" is wild.")
        elif design is not None and design.text and player != ME:
            # The person's own card: its action was told on the line that played it.
            line.append(f" — {design.text}", style="dim")
        self.console.print(line)
        hand = self.sort(view["hand"])
        self._line(("Your hand: ", "bold"), self.cards(hand) if hand else Text("empty", style="dim"))

    def moves(self, question: Question) -> None:
        """The heading and the numbered moves; a number never parts from its move at a line end."""
        self.console.print(self._moves_text(question), no_wrap=True, crop=False)

    def _moves_text(self, question: Question) -> Text:
        line = Text("  ")
        width = 2
        for i, label in enumerate(question.labels, 1):
            item = Text.assemble((f"{i})", "bold"), " ", label)
            if width > 2 and width + 2 + len(item) > self.console.width:
                line.append("\n  ")
                width = 2
            if width > 2:
                line.append("  ")
                width += 2
            line.append_text(item)
            width += len(item)
        return Text.assemble(question.heading, "\n", line)

    def refuse(self, reason: str, question: Question) -> None:
        self.say_refused(reason)
        self.moves(question)

    def _hand(self, hand: Sequence[str], question: Question) -> Table:
        """The person's cards by suit then rank: character, types, marks and action; the cards
        that cannot be played now are dimmed, the others carry their move number."""
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("Card", no_wrap=True)
        table.add_column("Character · types")
        table.add_column("Marks", no_wrap=True)
        table.add_column("Action", ratio=1)
        for key in self.sort(hand):
            number = question.numbers.get(key)
            dim = number is None
            design = self.design(key)
            if design is None:  # not a card of the deck: cannot happen, shown plainly
                table.add_row("", self.card(key))
                continue
            marks = " ".join(f"[{m}]" for m in MARKS_SHOWN if m in design.marks)
            character = Text(design.name)
            if design.types:
                types = ", ".join(sorted(design.types))
                character.append(("\n" if design.name else "") + types, style="italic")
            action = Text(design.text)
            if design.notes:
                action.append(f" ({', '.join(design.notes)})", style="italic")
            table.add_row(
                str(number) if number else "", self.card(key, dim=dim), character,
                Text(marks, style="cyan"), action,
                style="dim" if dim else None,
            )
        return table


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
