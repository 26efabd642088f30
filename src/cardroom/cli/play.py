"""``cardroom play baha``: a person at seat 0 against bots, in the terminal, drawn with Rich.

Everything on the screen comes from ``state.view(0)`` and ``state.view_log(0)``, so the screen
never knows more than the person may. The rules are reached only through the State protocol:
legality is ``legal_actions()``, the reason a move is refused is the engine's own message.
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

from cardroom.cards import COLOUR_LETTERS, COLOUR_NAMES, horns_of, parse_baha_card, value_of
from cardroom.cli.terminal import (
    ME,
    Refusal,
    TurnLoop,
    check_record_path,
    choose_seed,
    line_reader,
    make_bots,
    pick_number,
    play_session,
    read_answer,
    seats_of,
)
from cardroom.engine import Action, Event, IllegalAction, Rules, RulesError
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
[bold]Commands[/]: [bold]help[/] this text · [bold]show[/] the table again · \
[bold]quit[/] end the game (a --record file is still written)."""


def run_play(
    rules: Rules,
    *,
    seed: int | None,
    bots: str,
    name: str,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str] | None = None,
) -> int:
    """Play a game at seat 0 against bots; returns the exit status (0, or 130 on Ctrl-C).

    A BAEBAE game is played by :func:`cardroom.cli.play_baebae.run_play`, with the same
    arguments and the same ways to stop.

    ``ask(prompt)`` reads one line from the person (default ``console.input``); it may raise
    ``EOFError`` (input ended: the game stops, status 0) or ``KeyboardInterrupt`` (status 130).
    Bad options raise ``RulesError``, ``AgentError`` or ``RecordError`` for the caller to print.

    >>> import io
    >>> from cardroom.games.baha import Rules
    >>> out = io.StringIO()
    >>> run_play(Rules(), seed=3, bots="random", name="Ada", record_path=None,
    ...          console=Console(file=out), ask=lambda prompt: "quit")
    0
    >>> out.getvalue().splitlines()[-1]
    'You left the game.'
    """
    if rules.game == "baebae":
        from cardroom.cli.play_baebae import run_play as run_baebae

        return run_baebae(
            rules, seed=seed, bots=bots, name=name, record_path=record_path, console=console, ask=ask
        )
    if rules.game != "baha":
        raise RulesError(f"the terminal game plays baha and baebae, not {rules.game}")
    seed = choose_seed(seed)
    state = rules.new_game(seed)
    players = len(state.scores)
    agents = make_bots(bots, seed, players)
    seats = seats_of(name, bots, players)
    if record_path is not None:
        check_record_path(record_path)  # fails before play, writes nothing yet
    ask = line_reader(console, ask)
    screen = Screen(console, name, state.view(ME))
    return play_session(
        Session(state, agents, screen, ask), seats=seats, record_path=record_path, console=console,
        intro=lambda: screen.intro(seed, bots),
    )


class Session(TurnLoop):
    """Runs the game: bots act through ``agent.act``, the person through ``ask``."""

    screen: Screen

    def person_move(self) -> Action | None:
        """The person's next legal action, or ``None`` if they quit or input ended."""
        state = self.state
        view = state.view(ME)
        legal = state.legal_actions()
        moves = [state.action_to_string(a) for a in legal]
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
        """The engine's reason for refusing ``action``, asked of a copy: the game never changes."""
        try:
            self.state.clone().apply(action)
        except IllegalAction as err:
            # The engine lists what is allowed; the screen shows its own numbered list instead.
            return f"Not allowed: {str(err).split('; allowed:')[0]}."
        return "That move is not allowed now."


class Screen:
    """Draws the table for seat 0 from views and view-filtered events, with Rich."""

    def __init__(self, console: Console, name: str, view: Mapping[str, Any]) -> None:
        self.console = console
        self.name = name
        self.players: int = view["players"]
        self.rules: Mapping[str, Any] = view["rules"]
        self.unit = "horns" if self.rules.get("scoring", "horns") == "horns" else "points"
        self.picking: tuple[int, int] | None = None  # (seat, picks) of a bot choosing its pass
        self.hands_played = 0
        self.handlers: dict[str, Callable[[Event], None]] = {
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

    def seat(self, seat: int) -> str:
        """A seat in running text: "You" for the person, "Seat 2" for a bot."""
        return "You" if seat == ME else f"Seat {seat}"

    def player(self, seat: int) -> str:
        """A seat in tables: the person's name, "Seat 2" for a bot."""
        return self.name if seat == ME else f"Seat {seat}"

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

    def intro(self, seed: int, bots: str) -> None:
        self.console.print(
            Text.assemble(
                ("Baha", "bold"),
                f" · {self.players} players · game to {self.rules.get('target')} · bots: {bots}",
            )
        )
        self.console.print(
            Text.assemble(
                (f"Seed {seed}", "bold"),
                f": play this game again with --seed {seed}. Type help for help.",
            )
        )

    def narrate(self, events: Sequence[Event]) -> None:
        for event in events:
            if event["t"] != "pass_pick" or event["p"] == ME:
                self.flush()
            handler = self.handlers.get(event["t"])
            if handler is not None:  # events added to the game later are simply not told
                handler(event)

    def flush(self) -> None:
        """Tell the bot pass picks held back so that one seat's picks make one line."""
        if self.picking is not None:
            seat, picks = self.picking
            self.picking = None
            self._line(f"{self.seat(seat)} chose {plural(picks, 'card')} to pass.")

    def _line(self, *parts: str | Text | tuple[str, str]) -> None:
        self.console.print(Text.assemble(*parts))

    def _on_hand(self, event: Event) -> None:
        self.hands_played = event["n"]
        direction = event.get("pass", "none")
        passing = (
            "no passing" if direction == "none"
            else f"pass {PASS_COUNT} {direction} to {self.seat(self._pass_target(direction))}"
        )
        self.console.print()
        self.console.rule(f"[bold]Hand {event['n']}[/] · dealer {self.seat(event['dealer'])} · {passing}")

    def _on_pass_pick(self, event: Event) -> None:
        seat = event["p"]
        if seat == ME:
            self._line("You pick ", self.card(event["card"]), " to pass.")
        elif self.picking is not None and self.picking[0] == seat:
            self.picking = (seat, self.picking[1] + 1)
        else:
            self.flush()
            self.picking = (seat, 1)

    def _on_pass(self, event: Event) -> None:
        if event["from"] == ME:
            self._line("You pass ", self.cards(event["cards"]), f" to {self.seat(event['to'])}.")
        elif event["to"] == ME:
            self._line(f"{self.seat(event['from'])} passes you ", self.cards(event["cards"]), ".")

    def _on_play(self, event: Event) -> None:
        verb = "play" if event["p"] == ME else "plays"
        self._line(f"{self.seat(event['p'])} {verb} ", self.card(event["card"]), ".")

    def _on_trick(self, event: Event) -> None:
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

    def _on_draw(self, event: Event) -> None:
        if event["p"] == ME:
            self._line("You draw ", self.card(event["card"]), ".")
        else:
            self._line(f"{self.seat(event['p'])} draws a card.")

    def _on_take(self, event: Event) -> None:
        cards = event["cards"]
        rest = f"the last {plural(len(cards), 'card')} of the draw pile face down"
        if event["p"] == ME:
            self._line(f"You take {rest}: ", self.cards(cards), ".")
        else:
            self._line(f"{self.seat(event['p'])} takes {rest}.")

    def _on_score(self, event: Event) -> None:
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

    def _on_end(self, event: Event) -> None:
        totals: list[int] = event["totals"]
        winner: int = event["winner"]
        hands = self.hands_played
        self.console.rule(f"[bold]Game over[/] after {plural(hands, 'hand')}")
        table = Table(title="Final standings", box=box.SIMPLE_HEAD)
        table.add_column("Place", justify="right")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        order = sorted(range(self.players), key=lambda s: (totals[s], s))
        place = 0
        for i, seat in enumerate(order):
            if i == 0 or totals[seat] != totals[order[i - 1]]:
                place = i + 1
            table.add_row(
                str(place), Text(self.player(seat)), str(totals[seat]),
                style="bold green" if seat == winner else None,
            )
        self.console.print(table)
        who = "You win" if winner == ME else f"{self.seat(winner)} wins"
        self._line((f"{who} with {self.amount(totals[winner])}", "bold green"), " (lowest total).")

    # -- the person's turn -------------------------------------------------------------

    def show(self, view: Mapping[str, Any], moves: Sequence[str]) -> None:
        """The table as seat 0 sees it, then the numbered moves."""
        self.flush()
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        grid.add_row("Dealer", self._dealing(view))
        grid.add_row("Totals", self._per_seat(view["totals"]))
        shown = view.get("horns_shown") or []
        if any(shown):
            # Face-down cards are not counted: nobody may see them until the hand is scored.
            grid.add_row("This hand", self._per_seat(shown))
        legal = {m.split(" ", 1)[1] for m in moves}
        if view["phase"] == "pass":
            picks = view["my_picks"]
            grid.add_row(
                "To pass",
                Text.assemble(
                    self.cards(picks) if picks else Text("nothing yet", style="dim"),
                    f"  (choose {PASS_COUNT}: {PASS_COUNT - len(picks)} more)",
                ),
            )
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
        self.moves(moves)

    def moves(self, moves: Sequence[str]) -> None:
        """The legal moves, numbered from 1; a number never parts from its card at a line end."""
        line = Text.assemble(("Moves:", "bold"))
        width = len(line)
        for i, move in enumerate(moves, 1):
            item = Text.assemble((f"{i})", "bold"), " ", self.card(move.split(" ", 1)[1]))
            if width + 2 + len(item) > self.console.width:
                line.append("\n      ")
                width = 6
            line.append("  ")
            line.append_text(item)
            width += 2 + len(item)
        self.console.print(line, no_wrap=True, crop=False)

    def refuse(self, reason: str, moves: Sequence[str]) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), (reason, "red")))
        self.moves(moves)

    def help(self) -> None:
        self.console.print(HELP)

    def stopped(self, message: str) -> None:
        self.flush()
        self.console.print()
        self.console.print(message, highlight=False)

    def _dealing(self, view: Mapping[str, Any]) -> Text:
        direction = view["pass_direction"]
        passing = (
            "no passing this hand" if direction == "none"
            else f"pass {direction} to {self.seat(self._pass_target(direction))}"
        )
        return Text(f"{self.seat(view['dealer'])} · {passing} · game to {self.rules.get('target')}")

    def _per_seat(self, numbers: Sequence[int]) -> Text:
        out = Text()
        for seat, number in enumerate(numbers):
            if seat:
                out.append("   ")
            out.append(f"{self.player(seat)} ", style="bold" if seat == ME else "")
            out.append(str(number))
        return out

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
