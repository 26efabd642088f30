"""A BAEBAE turn fits an 80 x 24 terminal: the table, the hand with its actions, the moves and
the prompt, whatever the hand's size; ``show`` still draws every card in full."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cardroom.cli.play.baebae import run_play
from cardroom.games.baebae import Rules

WIDTH, HEIGHT = 80, 24


def turn_screens(rules: Rules, seed: int, answers: int = 60) -> list[list[str]]:
    """Play by answering 1 to every question; the lines of each turn's screen, from the top of
    its table (or its question) to the prompt."""
    out = io.StringIO()
    screens: list[list[str]] = []
    seen = 0

    def ask(prompt: str) -> str:
        nonlocal seen
        text = out.getvalue()
        lines = text[seen:].splitlines()
        seen = len(text)
        tops = [i for i, line in enumerate(lines) if line.startswith("╭")]
        screens.append(lines[tops[-1]:] + [prompt] if tops else lines[-4:] + [prompt])
        if len(screens) >= answers:
            raise EOFError
        return "1"

    code = run_play(rules, seed=seed, bots="random", name="Ada", record_path=None,
                    console=Console(file=out, width=WIDTH, height=HEIGHT), ask=ask)
    assert code == 0
    return screens


@pytest.mark.parametrize(("options", "seed"), [
    ({"players": 4}, 3), ({"players": 2}, 5), ({"players": 6}, 7), ({"players": 3, "hand_size": 12}, 1),
    ({"players": 2, "hand_size": 20}, 2),
])
def test_every_turn_fits_80_by_24(options: dict[str, int], seed: int) -> None:
    screens = turn_screens(Rules(rounds=1, **options), seed)
    assert any(any("╭─ Round" in line for line in screen) for screen in screens)
    for screen in screens:
        assert len(screen) <= HEIGHT, "\n".join(screen)
        assert all(len(line) <= WIDTH for line in screen), "\n".join(screen)


def test_the_short_table_still_numbers_and_describes_the_cards() -> None:
    screen = next(s for s in turn_screens(Rules(players=4, rounds=1, stream="twister"), 3) if any("╭─ Round" in x for x in s))
    text = "\n".join(screen)
    assert "1) 5♣  Sergeant Brisk (Officer)" in text and "[skip]" in text
    assert "Optional: swap hands" in text  # the action, cut to the width
    assert "(show: every card in full)" in text


def test_show_draws_the_whole_table() -> None:
    out = io.StringIO()
    replies = iter(["show", "", "", "quit"])  # Enter for each further page of the table
    run_play(Rules(players=4, rounds=1, stream="twister"), seed=3, bots="random", name="Ada", record_path=None,
             console=Console(file=out, width=WIDTH, height=HEIGHT), ask=lambda prompt: next(replies))
    text = out.getvalue()
    assert "Optional: swap hands" in text and "with another player" in text  # wrapped in full, not cut


@pytest.mark.parametrize(("options", "seed"), [({"players": 2}, 5), ({"players": 2, "hand_size": 20}, 2),
                                               ({"players": 4}, 3)])
def test_show_fits_80_by_24_a_page_at_a_time(options: dict[str, int], seed: int) -> None:
    out = io.StringIO()
    marks: list[int] = []
    prompts: list[str] = []
    replies = iter(["show"] + [""] * 10 + ["quit"])

    def ask(prompt: str) -> str:
        marks.append(len(out.getvalue()))
        prompts.append(prompt)
        return next(replies)

    run_play(Rules(rounds=1, **options), seed=seed, bots="random", name="Ada", record_path=None,
             console=Console(file=out, width=WIDTH, height=HEIGHT), ask=ask)
    text = out.getvalue()
    screens = [text[a:b].splitlines() for a, b in zip(marks, marks[1:], strict=False)]
    for screen, prompt in zip(screens, prompts[1:], strict=False):
        assert len(screen) + 1 <= HEIGHT, "\n".join([*screen, prompt])
    shown = text[marks[0]:marks[-1]]
    assert shown.count("╭") == 1 and shown.count("╰") == 1  # the whole table, once
    if options.get("hand_size") == 20:
        assert any(p.startswith("-- ") and "Enter for more" in p for p in prompts)


def test_q_stops_the_pages_and_the_game_goes_on() -> None:
    out = io.StringIO()
    prompts: list[str] = []
    replies = iter(["show", "q", "quit"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(replies)

    code = run_play(Rules(rounds=1, players=2, hand_size=20), seed=2, bots="random", name="Ada",
                    record_path=None, console=Console(file=out, width=WIDTH, height=HEIGHT), ask=ask)
    assert code == 0 and prompts[1].startswith("-- ") and prompts[2] == prompts[0]
    assert out.getvalue().rstrip().endswith("You left the game.")
