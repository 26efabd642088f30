"""What the terminal games share: seats and bots, the read-answer loop, records, clean stops.

A game's own renderer (a module of :mod:`cardroom.cli.play`, named by its spec's ``terminal``)
draws that game's table and reads the person's moves its own way; this module runs the rest the
same way for every game:

- the person sits at seat 0 (``ME``), bots made from one ``--bots`` spec fill the other seats;
- ``quit`` (or end of input) stops the game with status 0, Ctrl-C with status 130;
- ``help`` and ``show`` are answered and the question asked again;
- a ``--record`` path is checked before play (so a path that cannot be written fails early)
  and the record is written when the game ends or stops, however it stops;
- the screen says the same things the same way (:class:`TableScreen`): seats, refusals, help,
  the seed to play again, the final standings.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import secrets
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardroom.agents import Agent, AgentError, make, parse_spec
from cardroom.engine import Action, Event, State
from cardroom.match import Match, Stop
from cardroom.record import RecordError, make_record, save
from cardroom.seats import seat_entries, seat_name
from cardroom.text import plural

__all__ = [
    "ME",
    "QUIT_WORDS",
    "HELP_WORDS",
    "SHOW_WORDS",
    "INTERRUPTED",
    "Refusal",
    "GameScreen",
    "TableScreen",
    "TurnLoop",
    "choose_seed",
    "bot_specs",
    "make_bots",
    "seats_of",
    "save_record",
    "check_record_path",
    "line_reader",
    "read_answer",
    "pick_number",
    "play_session",
    "play_game",
]

ME = 0
"""The person's seat."""

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "h", "?"})
SHOW_WORDS = frozenset({"show", "table", "look"})
INTERRUPTED = 130  # the shell's status for a program stopped by Ctrl-C (128 + SIGINT)

T = TypeVar("T")


class Refusal(Exception):
    """An entry that is not an allowed answer; the message says what is wrong."""


class GameScreen(Protocol):
    """What the shared loop needs of a game's screen."""

    def narrate(self, events: Sequence[Event]) -> None:
        """Tell ``events`` (already filtered for seat 0) as they happen."""

    def flush(self) -> None:
        """Tell whatever was held back to be told as one line."""

    def stopped(self, message: str) -> None:
        """Say the game stopped, and why."""


def choose_seed(seed: int | None) -> int:
    """``seed``, or a random one (shown to the person so the game can be played again)."""
    return secrets.randbelow(2**31) if seed is None else seed


def bot_specs(bots: str, players: int) -> dict[int, str]:
    """The spec of the bot at each seat but seat 0, from ``--bots``: one spec for every bot, or
    one per seat from seat 1, comma-separated (``heuristic,random,ismcts``)."""
    specs = [spec.strip() for spec in bots.split(",")]
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1 or not all(specs):
        raise AgentError(
            f"--bots needs one bot for every seat from seat 1 ({players - 1}) or one for all, "
            f"got {len(specs)}: {bots!r:.80}"
        )
    return dict(enumerate(specs, 1))


def make_bots(bots: str, seed: int, players: int) -> dict[int, Agent]:
    """The bots of ``--bots`` (see :func:`bot_specs`; each ``name`` or ``name:key=value:...``)
    at every seat but seat 0; the bot at seat ``s`` is seeded with ``seed + s``."""
    agents = {}
    for seat, spec in bot_specs(bots, players).items():
        bot_name, bot_options = parse_spec(spec)
        agents[seat] = make(bot_name, seed=seed + seat, **bot_options)
    return agents


def seats_of(name: str | None, bots: str, players: int) -> list[dict[str, Any]]:
    """Who sits where, as a record names them (:func:`cardroom.seats.seat_name`): the person by
    their name (``Seat 0`` if they gave none), each bot by its kind and seat."""
    specs = bot_specs(bots, players)
    return seat_entries([name] + [None] * (players - 1), ["human"] + [specs[s] for s in range(1, players)])


def check_record_path(path: Path) -> None:
    """Fail before play if the record cannot be written there; write nothing of the game yet
    (a record holds every hand, which the person must not be able to read during play)."""
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror or err}") from None


def save_record(state: State, seats: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Write the game's record; a file that cannot be written is a ``RecordError``."""
    try:
        save(make_record(state, seats), path)
    except OSError as err:
        raise RecordError(f"cannot write the record to {path}: {err.strerror or err}") from None


def line_reader(
    console: Console, ask: Callable[[str], str] | None, *, markup: bool = True
) -> Callable[[str], str]:
    """``ask``, or reading lines from the console with line editing where available.

    With ``markup=False`` the prompt is printed as it is written (card names, ``[y/n]``): no
    markup, no emoji codes.
    """
    if ask is not None:
        return ask
    if sys.stdin.isatty():
        # Line editing and history for console.input (Python's input) where available.
        with contextlib.suppress(ImportError):
            importlib.import_module("readline")
    if not markup:
        return functools.partial(console.input, markup=False, emoji=False)
    return console.input


def read_answer(
    ask: Callable[[str], str],
    prompt: str,
    *,
    interpret: Callable[[str], T],
    on_help: Callable[[], None],
    on_show: Callable[[], None],
    on_refuse: Callable[[str], None],
    on_stop: Callable[[str], None],
    help_words: Collection[str] = HELP_WORDS,
) -> T | None:
    """Ask until ``interpret`` accepts an entry; ``None`` if the person quits or input ends.

    ``interpret(text)`` returns the answer or raises :class:`Refusal` (told through
    ``on_refuse``, then the question is asked again). ``quit``, ``help`` and ``show`` words are
    handled before it sees the text. ``EOFError`` stops the game; ``KeyboardInterrupt`` is left
    for the caller (status 130).
    """
    while True:
        try:
            text = ask(prompt)
        except EOFError:
            on_stop("End of input: game stopped.")
            return None
        word = text.strip().lower()
        if word in QUIT_WORDS:
            on_stop("You left the game.")
            return None
        if word in help_words:
            on_help()
            continue
        if word in SHOW_WORDS:
            on_show()
            continue
        try:
            return interpret(text)
        except Refusal as refusal:
            on_refuse(str(refusal))


class TableScreen:
    """What every game's screen says the same way: seats, lines, refusals, help, the seed, the
    final standings. A game's screen adds its table, its events (``handlers``) and its moves."""

    help_text = ""
    """The game's ``help`` page (Rich markup)."""

    def __init__(self, console: Console, name: str | None, players: int) -> None:
        self.console = console
        self.name = name or "You"
        self.players = players
        self.agents: Mapping[int, str] = {}
        """Each bot's spec by seat (:func:`play_game` sets it), which names the bot."""
        self.previous: Event | None = None  # the event told last
        self.handlers: dict[str, Callable[[Any], None]] = {}
        """Each kind of event told (by its ``t``) to the method telling it, which takes that kind's
        event as the game declares it (its ``events`` module's ``TypedDict``)."""

    def seat(self, seat: int) -> str:
        """A seat in running text: "You" for the person, "Heuristic 2" for a bot (as every front
        names seats: :func:`cardroom.seats.seat_name`)."""
        return "You" if seat == ME else seat_name(seat, agent=self.agents.get(seat))

    def player(self, seat: int) -> str:
        """A seat in tables: the person's name (or "You"), "Heuristic 2" for a bot."""
        return self.name if seat == ME else seat_name(seat, agent=self.agents.get(seat))

    def heading(self, bots: str) -> Text:
        """The game's first line: its name and the table's options."""
        raise NotImplementedError

    def intro(self, seed: int, bots: str) -> None:
        self.console.print(self.heading(bots))
        self.console.print(
            Text.assemble(
                (f"Seed {seed}", "bold"),
                f": play this game again with --seed {seed}. Type help for help.",
            )
        )

    def continues(self, event: Event) -> bool:
        """Whether ``event`` joins a line held back (a game that holds none never joins)."""
        return False

    def narrate(self, events: Sequence[Event]) -> None:
        for event in events:
            if not self.continues(event):
                self.flush()
            handler = self.handlers.get(event["t"])
            if handler is not None:  # events added to the game later are simply not told
                handler(event)
            self.previous = event

    def flush(self) -> None:
        """Tell whatever was held back to be told as one line (a game that holds none: nothing)."""

    def _line(self, *parts: str | Text | tuple[str, str]) -> None:
        self.console.print(Text.assemble(*parts))

    def say_refused(self, reason: str) -> None:
        self.console.print(Text.assemble(("✗ ", "bold red"), (reason, "red")))

    def help(self) -> None:
        self.console.print(self.help_text)

    def stopped(self, message: str) -> None:
        self.flush()
        self.console.print()
        self.console.print(message, highlight=False)

    def per_seat(self, numbers: Sequence[int], *, signed: bool = False, skips: Sequence[int] = ()) -> Text:
        """A number per seat on one line (``Ada 12   Heuristic 1 30``); ``skips`` marks who loses a turn."""
        out = Text()
        for seat, number in enumerate(numbers):
            if seat:
                out.append("   ")
            out.append(f"{self.player(seat)} ", style="bold" if seat == ME else "")
            out.append(signed_number(number) if signed else str(number))
            if skips and skips[seat]:
                out.append(" (loses next turn)", style="dim")
        return out

    def game_over(self, deals: int, unit: str) -> None:
        self.console.rule(f"[bold]Game over[/] after {plural(deals, unit)}")

    def standings(self, title: str, rows: Sequence[tuple[str, int, int, str | None]]) -> None:
        """The final table: a row per seat of place, player, total and the row's style."""
        table = Table(title=title, box=box.SIMPLE_HEAD)
        table.add_column("Place", justify="right")
        table.add_column("Player")
        table.add_column("Total", justify="right")
        for place, seat, total, style in rows:
            # a Text: the person's name is not Rich markup
            table.add_row(place, Text(self.player(seat)), str(total), style=style)
        self.console.print(table)


def signed_number(number: int) -> str:
    """A change of points: ``+3``, ``-2``, ``0``."""
    return f"{number:+d}" if number else "0"


def play_game(
    loop: type[TurnLoop],
    state: State,
    screen: TableScreen,
    *,
    seed: int,
    bots: str,
    name: str | None,
    record_path: Path | None,
    console: Console,
    ask: Callable[[str], str],
) -> int:
    """How every terminal game starts: bots at the other seats, the record's path checked
    before play, the introduction, then ``loop`` until the game ends or the person stops."""
    players = len(state.scores)
    agents = make_bots(bots, seed, players)
    seats = seats_of(name, bots, players)
    screen.agents = bot_specs(bots, players)
    if record_path is not None:
        check_record_path(record_path)  # fails before play, writes nothing yet
    return play_session(
        loop(state, agents, screen, ask), seats=seats, record_path=record_path, console=console,
        intro=lambda: screen.intro(seed, bots),
    )


def pick_number(word: str, legal: Sequence[Action]) -> Action:
    """The listed move numbered ``word`` (from 1), or a :class:`Refusal` naming the range."""
    number = int(word)
    if 1 <= number <= len(legal):
        return legal[number - 1]
    if len(legal) == 1:
        raise Refusal(f"{word} is not on the list: type 1, the only move.")
    raise Refusal(f"{word} is not on the list: choose 1 to {len(legal)}.")


class TurnLoop:
    """Runs a game through :class:`~cardroom.match.Match`, as every front does: bots act through
    ``agent.act``, the person is a ``human`` agent that asks through :meth:`person_move`."""

    def __init__(
        self,
        state: State,
        agents: Mapping[int, Agent],
        screen: GameScreen,
        ask: Callable[[str], str],
    ) -> None:
        self.state = state
        self.agents = agents
        self.screen = screen
        self.ask = ask
        self.events_shown = 0

    def run(self) -> int:
        """Play until the game is over or the person stops; returns the exit status."""
        person = make("human", ask=self._ask_person)
        seats = [person if seat == ME else self.agents[seat] for seat in range(len(self.state.scores))]
        match = Match(self.state, seats, on_events=lambda seat, action, events: self._narrate())
        self._narrate()
        if match.run():
            self.screen.flush()
        return 0

    def _ask_person(self, state: State, seat: int) -> Action:
        action = self.person_move()
        if action is None:
            raise Stop  # they quit or input ended: the match ends here, status 0
        return action

    def person_move(self) -> Action | None:
        """The person's next legal action, or ``None`` if they quit or input ended."""
        raise NotImplementedError

    def _narrate(self) -> None:
        log = self.state.view_log(ME)
        self.screen.narrate(log[self.events_shown:])
        self.events_shown = len(log)


def play_session(
    loop: TurnLoop,
    *,
    seats: Sequence[Mapping[str, Any]],
    record_path: Path | None,
    console: Console,
    intro: Callable[[], None],
) -> int:
    """Run ``loop`` after ``intro``; Ctrl-C stops it with status 130. The record, if asked
    for, is written however the game ends."""
    try:
        intro()
        code = loop.run()
    except KeyboardInterrupt:
        loop.screen.stopped("Interrupted: game stopped.")
        code = INTERRUPTED
    finally:
        if record_path is not None:
            save_record(loop.state, seats, record_path)
            console.print(Text(f"Record written to {record_path}"))
    return code
