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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from cardroom.cli.play.baebae_narration import MARKS_SHOWN, SYMBOL_OF_SUIT, Narration
from cardroom.cli.play.session import (
    HELP_WORDS,
    ME,
    QUIT_WORDS,
    Refusal,
    TurnLoop,
    choose_seed,
    line_reader,
    pick_number,
    play_game,
    read_answer,
)
from cardroom.engine import Action, ActionInfo, IllegalAction, RulesError
from cardroom.engine import Rules as AnyRules
from cardroom.games.baebae import BaebaeState
from cardroom.games.baebae import Rules as BaebaeRules
from cardroom.games.baebae.effects import SUIT_NAMES, SUITS
from cardroom.games.baebae.native import NativeBaebaeState
from cardroom.text import plural

__all__ = ["run_play", "Session", "Screen", "Question", "HELP"]

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
    name: str | None,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
    state: BaebaeState | NativeBaebaeState | None = None,
) -> int:
    """Play BAEBAE at seat 0 against bots: BAEBAE's
    :class:`~cardroom.games.contracts.TerminalRenderer` (arguments, exit status, errors there),
    and ``state``, if given, a game already begun (e.g. from a hand-made deal) to play on; its
    seed is used.

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
    for letter, symbol in SYMBOL_OF_SUIT.items():
        out = out.replace(symbol, letter.lower())
    return out


class Session(TurnLoop):
    """Runs the game: bots act through ``agent.act``, the person through ``ask``."""

    state: BaebaeState | NativeBaebaeState
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
            on_show=lambda: screen.show(view, question, full=True, page=self.ask),
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


class Screen(Narration):
    """Draws the person's turn from seat 0's view: the table, the question and its moves (the
    events between turns are told by :class:`Narration`)."""

    help_text = HELP

    # -- the person's turn -------------------------------------------------------------

    def show(
        self, view: Mapping[str, Any], question: Question, *, full: bool = False,
        page: Callable[[str], str] | None = None,
    ) -> None:
        """The table as seat 0 sees it (shorter while an action asks), then the question.

        A turn's screen fits the terminal: when the whole table and question would not
        (an 80 x 24 terminal, a big hand), the table is drawn one line a card, its action text
        cut short; ``show`` draws it whole, a page at a time when it is taller than the terminal
        (``page(prompt)`` asks between pages).
        """
        self.flush()
        if question.kind == "play" or full:
            panel = self._panel(view, question)
            room = self.console.height - 1 - len(self._moves_text(question).split())  # 1: the prompt
            lines = self.console.render_lines(panel, pad=False)
            if not full and len(lines) > room:
                self.console.print(self._compact_panel(view, question, room))
            elif full and page is not None and len(lines) > room:
                self._paged(lines, room, page)
            else:
                self.console.print(panel)
        else:
            self._context(view, question)
        self.moves(question)

    def _paged(self, lines: list[list[Segment]], room: int, page: Callable[[str], str]) -> None:
        """``lines`` a terminal's height at a time (less the line ``page`` asks on), until what
        is left fits above the moves (``room`` lines); Enter shows the next page, q the rest."""
        size = self.console.height - 1
        start = 0
        while len(lines) - start > room:
            self._print_lines(lines[start:start + size])
            start += size
            try:
                answer = page(f"-- {start} of {len(lines)} lines: Enter for more, q for the moves -- ")
            except EOFError:
                return  # the question asked next meets the end of input too, and stops the game
            if answer.strip().lower() in QUIT_WORDS:
                return
        self._print_lines(lines[start:])

    def _print_lines(self, lines: Sequence[list[Segment]]) -> None:
        for line in lines:
            self.console.print(Segments([*line, Segment.line()]), end="")

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
