"""Baha's terminal renderer: its table, its events and its moves, drawn with Rich.

Everything on the screen comes from ``state.view(0)`` and ``state.view_log(0)``, so the screen
never knows more than the person may. The rules are reached only through the State protocol:
legality is ``legal_actions()``, the reason a move is refused is the engine's own message
(``illegal_reason``). The loop, the records and the ways to stop are shared
(:mod:`cardroom.cli.play.session`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardroom.cli.play.session import (
    ME,
    Refusal,
    TableScreen,
    TurnLoop,
    choose_seed,
    line_reader,
    pick_number,
    play_game,
    read_answer,
)
from cardroom.engine import Action, Event, IllegalAction, Rules
from cardroom.games.baha.cards import COLOUR_LETTERS, COLOUR_NAMES, horns_of, parse_baha_card, value_of
from cardroom.games.baha.events import (
    DrawEvent,
    EndEvent,
    HandEvent,
    PassEvent,
    PassPickEvent,
    PlayEvent,
    ScoreEvent,
    TakeEvent,
    TrickEvent,
    baha_event,
)
from cardroom.games.baha.rules import PASS_COUNT
from cardroom.text import plural

__all__ = ["run_play", "Session", "Screen", "HELP"]

COLOUR_STYLES = {"P": "magenta", "R": "red", "T": "cyan", "O": "dark_orange"}
HORN = "▲"

HELP = f"""\
[bold]How to move[/]: type the number of a move from the list, or a card: [bold]9P[/], \
[bold]13r[/], [bold]play 9P[/], [bold]pass 13R[/].
[bold]Cards[/]: value 1-13 then colour: P Purple, R Red, T Turquoise, O Orange. \
Each {HORN} is a horn (9 has 1 … 13 has 5).
[bold]Play[/]: follow the led colour if you can; the highest card of the led colour takes \
the trick. Every horn you take costs a point; lowest total wins. Take every horned card in \
a hand to shoot the moon.
[bold]Passing[/]: choose {PASS_COUNT} cards, one at a time or together ([bold]13T 12R 11O[/], \
[bold]1 5 9[/]); the numbers stay with their cards while you choose. [bold]undo[/] takes back \
the last card chosen; nothing is passed until you send the {PASS_COUNT} (Enter).
[bold]Commands[/]: [bold]help[/] this text · [bold]show[/] the table again · \
[bold]quit[/] end the game (a --record file is still written)."""

UNDO_WORDS = frozenset({"undo", "u", "back"})
SEND_WORDS = frozenset({"", "send", "yes", "y", "ok"})


def run_play(
    rules: Rules,
    *,
    seed: int | None,
    bots: str,
    name: str | None,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play Baha at seat 0 against bots: Baha's
    :class:`~cardroom.games.contracts.TerminalRenderer` (arguments, exit status, errors there).

    >>> import io
    >>> from cardroom.games.baha import Rules
    >>> out = io.StringIO()
    >>> run_play(Rules(), seed=3, bots="random", name="Ada", record_path=None,
    ...          console=Console(file=out), ask=lambda prompt: "quit")
    0
    >>> out.getvalue().splitlines()[-1]
    'You left the game.'
    """
    seed = choose_seed(seed)
    state = rules.new_game(seed)
    return play_game(
        Session, state, Screen(console, name, state.view(ME)), seed=seed, bots=bots, name=name,
        record_path=record_path, console=console, ask=line_reader(console, ask),
    )


class Session(TurnLoop):
    """Runs the game: bots act through ``agent.act``, the person through ``ask``.

    A pass is chosen whole before any of it is played: the person's cards are collected here
    (with undo, several on one line), then applied one pick at a time, as the engine takes them
    (a pick applied cannot be taken back)."""

    screen: Screen

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sending: list[Action] = []
        """The person's pass picks, chosen and sent, waiting for the engine to take them in turn."""

    def person_move(self) -> Action | None:
        """The person's next legal action, or ``None`` if they quit or input ended."""
        state = self.state
        view = state.view(ME)
        if view["phase"] == "pass":
            if not self.sending:
                chosen = self._choose_pass(view)
                if chosen is None:
                    return None
                self.sending = chosen
            return self.sending.pop(0)
        legal = state.legal_actions()
        # Every Baha move names a card (a pass or a play): the list shows the cards.
        moves = [str(state.decode(a).card) for a in legal]
        choices = "1" if len(legal) == 1 else f"1-{len(legal)}"
        prompt = f"{'Pass' if view['phase'] == 'pass' else 'Play'} {choices} or a card › "
        screen = self.screen
        screen.show(view, moves)

        def on_help() -> None:
            screen.help()
            screen.moves(moves)

        return read_answer(
            self.ask,
            prompt,
            interpret=lambda text: self._interpret(text, legal),
            on_help=on_help,
            on_show=lambda: screen.show(view, moves),
            on_refuse=lambda reason: screen.refuse(reason, moves),
            on_stop=screen.stopped,
        )

    def _choose_pass(self, view: Mapping[str, Any]) -> list[Action] | None:
        """The cards the person passes, chosen with undo before any is sent; ``None`` if they
        quit or input ended. The listed numbers stay with their cards while they choose."""
        state = self.state
        legal = state.legal_actions()
        moves = [str(state.decode(a).card) for a in legal]
        need = PASS_COUNT - len(view["my_picks"])
        chosen: list[int] = []  # indexes into legal, in the order chosen
        screen = self.screen

        def picked() -> list[str]:
            return [moves[i] for i in chosen]

        def on_help() -> None:
            screen.help()
            screen.moves(moves, picked())

        screen.show(view, moves, picked())
        while True:
            left = need - len(chosen)
            if left:
                prompt = (f"Pass {left} more: 1-{len(moves)} or cards, several at once"
                          f"{', or undo' if chosen else ''} › ")
            else:
                prompt = f"Send {' '.join(picked())}? Enter sends, undo takes the last back › "
            answer = read_answer(
                self.ask,
                prompt,
                interpret=lambda text: self._pass_entry(text, legal, moves, chosen, need),
                on_help=on_help,
                on_show=lambda: screen.show(view, moves, picked()),
                on_refuse=lambda reason: screen.refuse(reason, moves, picked()),
                on_stop=screen.stopped,
            )
            if answer is None:
                return None
            send, chosen[:] = answer
            if send:
                return [legal[i] for i in chosen]
            screen.passing(picked(), need - len(chosen), moves)

    def _pass_entry(
        self, text: str, legal: list[Action], moves: list[str], chosen: list[int], need: int
    ) -> tuple[bool, list[int]]:
        """What one line does to the pass being chosen: whether it sends it, and the choice."""
        word = text.strip().lower()
        if word in UNDO_WORDS:
            if not chosen:
                raise Refusal("Nothing to undo: no card is chosen yet.")
            return False, chosen[:-1]
        if word in SEND_WORDS:
            if len(chosen) == need:
                return True, chosen
            raise Refusal(f"Choose {plural(need - len(chosen), 'more card')} to pass, by number or card.")
        tokens = word.replace(",", " ").split()
        if tokens and tokens[0] == "pass":
            tokens = tokens[1:]
        if not tokens:
            raise Refusal(f"Name the cards to pass after pass, e.g. pass {' '.join(moves[:PASS_COUNT])}.")
        added: list[int] = []
        for token in tokens:
            index = legal.index(self._interpret(token, legal))
            if index in chosen or index in added:
                raise Refusal(f"{moves[index]} is chosen already; undo takes back the last card chosen.")
            added.append(index)
        if len(chosen) + len(added) > need:
            have = f", {len(chosen)} chosen already" if chosen else ""
            raise Refusal(f"A pass is {plural(need, 'card')}{have}: {len(added)} more is too many.")
        return False, [*chosen, *added]

    def _interpret(self, text: str, legal: list[Action]) -> Action:
        word = text.strip().lower()
        if not word:
            raise Refusal("Type a move's number or a card, or help.")
        if word.isdecimal():
            return pick_number(word, legal)
        try:
            action = self.state.parse_action(text)
        except IllegalAction as err:
            raise Refusal(str(err)) from None
        if action in legal:
            return action
        raise Refusal(self._why_not(action))

    def _why_not(self, action: Action) -> str:
        """The engine's own reason for refusing ``action``."""
        reason = self.state.illegal_reason(action)
        if reason is None:
            return "That move is not allowed now."
        # The engine lists what is allowed; the screen shows its own numbered list instead.
        return f"Not allowed: {reason.split('; allowed:')[0]}."


class Screen(TableScreen):
    """Draws the table for seat 0 from views and view-filtered events, with Rich."""

    help_text = HELP

    def __init__(self, console: Console, name: str | None, view: Mapping[str, Any]) -> None:
        super().__init__(console, name, view["players"])
        self.rules: Mapping[str, Any] = view["rules"]
        self.unit = "horns" if self.rules.get("scoring", "horns") == "horns" else "points"
        self.picking: tuple[int, int] | None = None  # (seat, picks) of a bot choosing its pass
        self.hands_played = 0
        self.handlers = {
            "hand": self._on_hand,
            "pass_pick": self._on_pass_pick,
            "pass": self._on_pass,
            "play": self._on_play,
            "trick": self._on_trick,
            "draw": self._on_draw,
            "take": self._on_take,
            "score": self._on_score,
            "end": self._on_end,
        }

    # -- words and cards ---------------------------------------------------------------

    def amount(self, points: int) -> str:
        """Points in words: "no horns", "1 horn", "8 horns" (or points, with face scoring)."""
        if not points:
            return f"no {self.unit}"
        return plural(points, self.unit[:-1])

    def card(self, text: str, *, dim: bool = False) -> Text:
        """A card in its colour, its horns drawn after it; hidden cards stay ``?``."""
        try:
            card = parse_baha_card(text)
        except ValueError:
            return Text(text, style="dim")
        style = COLOUR_STYLES[text[-1]]
        out = Text(text, style=f"{style} {'dim' if dim else 'bold'}")
        horns = horns_of(card)
        if horns:
            out.append(HORN * horns, style=f"{style} dim" if dim else style)
        return out

    def cards(self, texts: Sequence[str], *, legal: set[str] | None = None) -> Text:
        out = Text()
        for i, text in enumerate(texts):
            if i:
                out.append(" ")
            out.append_text(self.card(text, dim=legal is not None and text not in legal))
        return out

    # -- what happened -------------------------------------------------------------------

    def heading(self, bots: str) -> Text:
        return Text.assemble(
            ("Baha", "bold"), f" · {self.players} players · game to {self.rules.get('target')} · bots: {bots}"
        )

    def continues(self, event: Event) -> bool:
        """A bot's pass picks are held back to be told as one line (:meth:`flush`)."""
        seen = baha_event(event)
        return seen["t"] == "pass_pick" and seen["p"] != ME

    def flush(self) -> None:
        """Tell the bot pass picks held back so that one seat's picks make one line."""
        if self.picking is not None:
            seat, picks = self.picking
            self.picking = None
            self._line(f"{self.seat(seat)} chose {plural(picks, 'card')} to pass.")

    def _on_hand(self, event: HandEvent) -> None:
        self.hands_played = event["n"]
        direction = event.get("pass", "none")
        passing = (
            "no passing" if direction == "none"
            else f"pass {PASS_COUNT} {direction} to {self.seat(self._pass_target(direction))}"
        )
        self.console.print()
        self.console.rule(f"[bold]Hand {event['n']}[/] · dealer {self.seat(event['dealer'])} · {passing}")

    def _on_pass_pick(self, event: PassPickEvent) -> None:
        seat = event["p"]
        if seat == ME:
            self._line("You pick ", self.card(event["card"]), " to pass.")
        elif self.picking is not None and self.picking[0] == seat:
            self.picking = (seat, self.picking[1] + 1)
        else:
            self.flush()
            self.picking = (seat, 1)

    def _on_pass(self, event: PassEvent) -> None:
        if event["from"] == ME:
            self._line("You pass ", self.cards(event["cards"]), f" to {self.seat(event['to'])}.")
        elif event["to"] == ME:
            self._line(f"{self.seat(event['from'])} passes you ", self.cards(event["cards"]), ".")

    def _on_play(self, event: PlayEvent) -> None:
        verb = "play" if event["p"] == ME else "plays"
        self._line(f"{self.seat(event['p'])} {verb} ", self.card(event["card"]), ".")

    def _on_trick(self, event: TrickEvent) -> None:
        winner = event["winner"]
        verb = "take" if winner == ME else "takes"
        taken = self.amount(event["horns"])
        line = Text.assemble(
            ("→ ", "bold"), (f"{self.seat(winner)} {verb} trick {event['n']}", "bold"), f" ({taken})"
        )
        leftover = event.get("leftover") or []
        if leftover and winner == ME:
            line.append_text(Text.assemble(" and the face-down leftovers ", self.cards(leftover)))
        elif leftover:
            line.append(f" and {plural(len(leftover), 'face-down leftover card')}")
        self.console.print(line)
        self.console.print()

    def _on_draw(self, event: DrawEvent) -> None:
        if event["p"] == ME:
            self._line("You draw ", self.card(event["card"]), ".")
        else:
            self._line(f"{self.seat(event['p'])} draws a card.")

    def _on_take(self, event: TakeEvent) -> None:
        cards = event["cards"]
        rest = f"the last {plural(len(cards), 'card')} of the draw pile face down"
        if event["p"] == ME:
            self._line(f"You take {rest}: ", self.cards(cards), ".")
        else:
            self._line(f"{self.seat(event['p'])} takes {rest}.")

    def _on_score(self, event: ScoreEvent) -> None:
        revealed: list[list[str]] = event.get("revealed") or [[] for _ in range(self.players)]
        table = Table(title=f"Scores after hand {event['hand']}", box=box.SIMPLE_HEAD)
        table.add_column("Player")
        table.add_column(f"{self.unit.capitalize()} taken", justify="right")
        table.add_column("Scored", justify="right")
        table.add_column("Total", justify="right", style="bold")
        if any(revealed):
            table.add_column("Face-down cards revealed")
        moon = event.get("moon")
        for seat in range(self.players):
            cells: list[str | Text] = [
                Text(self.player(seat)),  # a Text: the person's name is not Rich markup
                str(event["horns"][seat]),
                str(event["points"][seat]),
                str(event["totals"][seat]),
            ]
            if any(revealed):
                cells.append(self.cards(revealed[seat]))
            table.add_row(*cells, style="bold yellow" if seat == moon else None)
        self.console.print(table)
        if moon is not None:
            shot = "shoot" if moon == ME else "shoots"
            self._line(
                (f"{self.seat(moon)} {shot} the moon!", "bold yellow"),
                " 0 for the shooter; everyone else scores all the hand's points.",
            )

    def _on_end(self, event: EndEvent) -> None:
        totals: list[int] = event["totals"]
        winner: int = event["winner"]
        self.game_over(self.hands_played, "hand")
        order = sorted(range(self.players), key=lambda s: (totals[s], s))
        place = 0
        rows: list[tuple[str, int, int, str | None]] = []
        for i, seat in enumerate(order):
            if i == 0 or totals[seat] != totals[order[i - 1]]:
                place = i + 1
            rows.append((str(place), seat, totals[seat], "bold green" if seat == winner else None))
        self.standings("Final standings", rows)
        who = "You win" if winner == ME else f"{self.seat(winner)} wins"
        self._line((f"{who} with {self.amount(totals[winner])}", "bold green"), " (lowest total).")

    # -- the person's turn -------------------------------------------------------------

    def show(self, view: Mapping[str, Any], moves: Sequence[str], chosen: Sequence[str] = ()) -> None:
        """The table as seat 0 sees it, then the numbered moves (each move's card); ``chosen``:
        the cards of a pass being chosen, not yet sent."""
        self.flush()
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("Dealer", self._dealing(view))
        grid.add_row("Totals", self.per_seat(view["totals"]))
        shown = view.get("horns_shown") or []
        if any(shown):
            # Face-down cards are not counted: nobody may see them until the hand is scored.
            grid.add_row("This hand", self.per_seat(shown))
        legal = set(moves)
        if view["phase"] == "pass":
            picks = [*view["my_picks"], *chosen]
            grid.add_row("To pass", self._to_pass(picks, PASS_COUNT - len(picks)))
        else:
            grid.add_row("On table", self._trick(view))
            if view.get("last_trick"):
                grid.add_row("Last trick", self._last_trick(view["last_trick"]))
            received = view.get("received")
            if received and view["tricks_done"] == 0:
                grid.add_row(
                    "Received", Text.assemble(self.cards(received["cards"]),
                                              f" from {self.seat(received['from'])}"),
                )
        grid.add_row("Your hand", self._hand(view["hand"], legal))
        extra = self._hidden_piles(view)
        if extra:
            grid.add_row("Unseen", extra)
        tricks = f"trick {view['tricks_done'] + 1}" if view["phase"] == "play" else "passing"
        title = f"Hand {view['hand_number']} · {tricks} · your turn"
        # A fixed width keeps the panel from jumping about from one turn to the next.
        width = min(self.console.width, 100)
        self.console.print(Panel(grid, title=title, title_align="left", box=box.ROUNDED, width=width))
        self.moves(moves, chosen)

    def _to_pass(self, picks: Sequence[str], left: int) -> Text:
        return Text.assemble(
            self.cards(picks) if picks else Text("nothing yet", style="dim"),
            f"  (choose {PASS_COUNT}: {left} more)" if left
            else "  (Enter sends them; undo takes the last back)",
        )

    def passing(self, picks: Sequence[str], left: int, moves: Sequence[str]) -> None:
        """The pass being chosen after a change, and the moves (the chosen ones marked)."""
        self._line(("To pass: ", "bold"), self._to_pass(picks, left))
        self.moves(moves, picks)

    def moves(self, moves: Sequence[str], chosen: Sequence[str] = ()) -> None:
        """The legal moves (each its card), numbered from 1; a number never parts from its card
        at a line end. ``chosen`` cards (of a pass being chosen) keep their numbers, marked ✓."""
        line = Text.assemble(("Moves:", "bold"))
        width = len(line)
        for i, move in enumerate(moves, 1):
            mark = ("✓", "bold green") if move in chosen else ""
            item = Text.assemble((f"{i})", "bold"), " ", mark, self.card(move, dim=move in chosen))
            if width + 2 + len(item) > self.console.width:
                line.append("\n      ")
                width = 6
            line.append("  ")
            line.append_text(item)
            width += 2 + len(item)
        self.console.print(line, no_wrap=True, crop=False)

    def refuse(self, reason: str, moves: Sequence[str], chosen: Sequence[str] = ()) -> None:
        self.say_refused(reason)
        self.moves(moves, chosen)

    def _dealing(self, view: Mapping[str, Any]) -> Text:
        direction = view["pass_direction"]
        passing = (
            "no passing this hand" if direction == "none"
            else f"pass {direction} to {self.seat(self._pass_target(direction))}"
        )
        return Text(f"{self.seat(view['dealer'])} · {passing} · game to {self.rules.get('target')}")

    def _trick(self, view: Mapping[str, Any]) -> Text:
        trick = view["trick"]
        if not trick:
            return Text("nothing yet: you lead", style="dim")
        out = Text()
        for i, play in enumerate(trick):
            if i:
                out.append(" · ")
            out.append(f"{self.seat(play['p'])} ")
            out.append_text(self.card(play["card"]))
        led = view.get("led")
        if led:
            out.append(f"   ({COLOUR_NAMES[COLOUR_LETTERS.index(led)]} led)", style="dim")
        return out

    def _last_trick(self, last: Mapping[str, Any]) -> Text:
        out = Text()
        for i, card in enumerate(last["cards"]):
            if i:
                out.append(" · ")
            out.append(f"{self.seat((last['leader'] + i) % self.players)} ")
            out.append_text(self.card(card))
        winner = last["winner"]
        out.append(f"  → {self.seat(winner)} took it", style="bold")
        return out

    def _hand(self, hand: Sequence[str], legal: set[str]) -> Table:
        """Cards by colour, low to high; the ones that may not be played now are dimmed."""
        by_colour: dict[str, list[str]] = {letter: [] for letter in COLOUR_LETTERS}
        for text in hand:
            by_colour[text[-1]].append(text)
        rows = Table.grid(padding=(0, 1))
        rows.add_column(no_wrap=True)
        rows.add_column()
        for letter, name in zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True):
            cards = sorted(by_colour[letter], key=lambda t: value_of(parse_baha_card(t)))
            rows.add_row(
                Text(name, style=COLOUR_STYLES[letter]),
                self.cards(cards, legal=legal) if cards else Text("—", style="dim"),
            )
        return rows

    def _hidden_piles(self, view: Mapping[str, Any]) -> Text | None:
        parts = []
        if view.get("leftover_count"):
            count = view["leftover_count"]
            parts.append(f"{plural(count, 'leftover card')} (for the taker of trick 1)")
        if view.get("draw_pile_count"):
            count = view["draw_pile_count"]
            parts.append(f"draw pile of {plural(count, 'card')}")
        mine = view.get("my_face_down") or []
        if mine:
            return Text.assemble(
                ", ".join(parts) + ("; " if parts else ""), "your face-down cards: ", self.cards(mine)
            )
        return Text(", ".join(parts)) if parts else None

    def _pass_target(self, direction: str) -> int:
        """Right is the next seat, left the previous one (docs/rules-baha.md, Players)."""
        return (ME + (1 if direction == "right" else -1)) % self.players
