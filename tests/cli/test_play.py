"""End-to-end tests of ``cardroom play``: the terminal game, driven through stdin or a script."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom import agents
from cardroom.agents.random_agent import RandomAgent
from cardroom.cards import mask_of
from cardroom.cli.main import app
from cardroom.cli.play.baha import Screen, run_play
from cardroom.engine import Action, State
from cardroom.games.baha import BahaState, Rules
from cardroom.games.baha.cards import BAHA_DECK, baha_card_text, cards_of
from cardroom.games.baha.native import NativeBahaState
from cardroom.record import load, verify

runner = CliRunner()

CARD = re.compile(r"(?<![0-9A-Za-z])(?:1[0-3]|[1-9])[PRTO](?![0-9A-Za-z])")
"""A card's text as the screen writes it (horns, if drawn, follow as ▲ marks)."""

ALL_CARDS = [baha_card_text(c) for c in BAHA_DECK]
MANY_FIRST_MOVES = "1 2 3\n\n1\n" * 1000
"""Far more answers than a game to target=1 needs, ties included: at a pass, the first three
cards then Enter to send them (a play prompt refuses those two lines); at a play, the first move."""


def first_move(prompt: str) -> str:
    """The first listed move; at a pass, the first three cards, then sending them."""
    if prompt.startswith("Send"):
        return ""
    return "1 2 3" if prompt.startswith("Pass") else "1"


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No colour codes in captured output, whatever the test runner's environment says."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "120")


def play(*args: str, input: str) -> Any:
    return runner.invoke(app, ["play", "baha", *args], input=input)


class Watch:
    """What the spy bots saw: the live (omniscient) state, and checks to run on every bot move."""

    def __init__(self) -> None:
        self.state: BahaState | NativeBahaState | None = None
        self.checks: list[Callable[[BahaState | NativeBahaState], None]] = []


class SpyAgent:
    """A random bot that hands the live state to the test, to compare the screen with the truth."""

    name = "spy"

    def __init__(self, seed: int | None, watch: Watch) -> None:
        self.inner = RandomAgent(seed=seed)
        self.watch = watch

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, BahaState | NativeBahaState)  # the engine chosen
        self.watch.state = state
        for check in self.watch.checks:
            check(state)
        return self.inner.act(state, seat)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Watch:
    watch = Watch()
    monkeypatch.setitem(agents.AGENTS, "spy", agents.AgentKind(lambda seed, **options: SpyAgent(seed, watch)))
    return watch


def run(
    ask: Callable[[str], str],
    out: io.StringIO,
    *,
    seed: int | None = 3,
    bots: str = "random",
    record_path: Path | None = None,
    **options: Any,
) -> int:
    console = Console(file=out, width=120)
    return run_play(
        Rules(**options), seed=seed, bots=bots, name="You", record_path=record_path,
        console=console, ask=ask,
    )


def answers(*lines: str) -> Callable[[str], str]:
    """A person who types ``lines`` then closes the input."""
    queue = list(lines)

    def ask(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return ask


def seat0_actions(path: Path) -> list[str]:
    return [text for seat, text in load(path)["actions"] if seat == 0]


# -- a whole game --------------------------------------------------------------------------


def test_a_whole_game_answering_the_first_move_ends_with_standings_and_a_winner() -> None:
    result = play("--seed", "3", "--players", "4", "--rule", "target=1", "--rule", "stream=twister",
                  input=MANY_FIRST_MOVES)  # seed 3 of the Twister: the hand ends with a winner
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Scores after hand 1" in result.output
    assert "Final standings" in result.output
    assert re.search(r"^(You win|Random [123] wins) with \d+ horns? \(lowest total\)", result.output, re.M)
    # The bots' moves are told one line each, as they happen.
    assert re.search(r"^Random [123] plays (1[0-3]|[1-9])[PRTO]", result.output, re.M)


def test_the_record_of_a_whole_game_replays_exactly(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(
        "--seed", "5", "--rule", "target=1", "--name", "Ada [the 1st]", "--record", str(path),
        input=MANY_FIRST_MOVES,
    )
    assert result.exit_code == 0, result.output
    record = load(path)
    assert verify(record).ok, verify(record).message
    assert record["seed"] == 5
    assert record["seats"] == [
        {"name": "Ada [the 1st]", "agent": "human"},
        {"name": "Random 1", "agent": "random"},
        {"name": "Random 2", "agent": "random"},
        {"name": "Random 3", "agent": "random"},
    ]
    assert record["result"]["over"] is True
    winner = record["result"]["winner"]
    assert f"{'You win' if winner == 0 else f'Random {winner} wins'} with" in result.output
    assert "Ada [the 1st]" in result.output  # the name is shown as typed, never read as markup


# -- typing moves ---------------------------------------------------------------------------


def test_cards_can_be_typed_as_text_in_any_case_with_or_without_the_verb(tmp_path: Path) -> None:
    # Dealer is seat 0, so seats 1..3 choose their passes before the person's first prompt;
    # what seat 0 holds is fixed by the seed alone.
    hand = Rules(players=4).new_game(3).view(0)["hand"]
    first, second, third = hand[-1], hand[0], hand[5]
    path = tmp_path / "game.json"
    result = play(
        "--seed", "3", "--record", str(path),
        input=f"{first.lower()}\npass {second}\n  {third.lower()}  \n\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert seat0_actions(path) == [f"pass {first}", f"pass {second}", f"pass {third}"]
    passed = " ".join(sorted({first, second, third}, key=hand.index))
    assert f"You pass {passed} to Random 1." in result.output.replace("▲", "")


def _prompts_and(lines: list[str]) -> tuple[Callable[[str], str], list[str]]:
    prompts: list[str] = []
    queue = list(lines)

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if not queue:
            raise EOFError
        return queue.pop(0)

    return ask, prompts


def test_a_pass_takes_three_cards_on_one_line_and_is_sent_only_on_enter(tmp_path: Path) -> None:
    hand = Rules(players=4).new_game(3).view(0)["hand"]
    path = tmp_path / "game.json"
    ask, prompts = _prompts_and([f"{hand[4]} {hand[1].lower()}, {hand[9]}", "quit"])
    out = io.StringIO()
    assert run(ask, out, record_path=path) == 0
    assert prompts[1] == f"Send {hand[4]} {hand[1]} {hand[9]}? Enter sends, undo takes the last back › "
    assert seat0_actions(path) == []  # quit before sending: nothing passed
    ask, prompts = _prompts_and([f"pass {hand[4]} {hand[1]} {hand[9]}", "", "quit"])
    assert run(ask, io.StringIO(), record_path=path) == 0
    assert seat0_actions(path) == [f"pass {hand[4]}", f"pass {hand[1]}", f"pass {hand[9]}"]


def test_undo_takes_back_the_last_card_chosen_before_the_pass_is_sent(tmp_path: Path) -> None:
    hand = Rules(players=4).new_game(3).view(0)["hand"]
    path = tmp_path / "game.json"
    out = io.StringIO()
    ask, prompts = _prompts_and(["undo", "1", "2 3", "undo", "undo", "5", "6", "", "quit"])
    assert run(ask, out, record_path=path) == 0
    assert "Nothing to undo" in out.getvalue()
    assert seat0_actions(path) == [f"pass {hand[0]}", f"pass {hand[4]}", f"pass {hand[5]}"]
    assert prompts[-2].startswith("Send")


def test_the_move_numbers_stay_with_their_cards_while_a_pass_is_chosen() -> None:
    hand = Rules(players=4).new_game(3).view(0)["hand"]
    out = io.StringIO()
    ask, _ = _prompts_and(["1", "1", "3 4", "2 5", "quit"])
    assert run(ask, out) == 0
    text = out.getvalue().replace("▲", "")
    moves = [line for line in text.splitlines() if line.startswith("Moves:")]
    assert moves[0].startswith(f"Moves:  1) {hand[0]}  2) {hand[1]}  3) {hand[2]}")
    assert moves[1].startswith(f"Moves:  1) ✓{hand[0]}  2) {hand[1]}  3) {hand[2]}")  # the same numbers
    assert f"{hand[0]} is chosen already" in text  # "1" again does not choose the next card
    assert "A pass is 3 cards, 3 chosen already: 2 more is too many." in text
    assert "To pass: " + " ".join([hand[0], hand[2], hand[3]]) in text


def test_a_number_picks_from_the_listed_moves_and_play_text_works_in_the_play_phase(
    spy: Watch, tmp_path: Path
) -> None:
    chosen: list[str] = []

    def ask(prompt: str) -> str:
        state = spy.state
        assert state is not None
        view = state.view(0)
        if view["phase"] == "pass":
            return "" if prompt.startswith("Send") else "2 4 6"
        if len(chosen) == 2:
            return "quit"
        card = state.action_to_string(state.legal_actions()[-1]).split()[1]
        chosen.append(card)
        return f"play {card.lower()}" if len(chosen) == 1 else card

    path = tmp_path / "game.json"
    assert run(ask, io.StringIO(), bots="spy", record_path=path) == 0
    actions = seat0_actions(path)
    assert len(actions) == 5
    assert all(a.startswith("pass ") for a in actions[:3])
    assert actions[3:] == [f"play {c}" for c in chosen]


def test_bad_entries_are_explained_then_asked_again_and_the_game_goes_on(spy: Watch) -> None:
    out = io.StringIO()
    replies: dict[str, str] = {}
    pending: list[tuple[str, int, int]] = []  # (what was wrong, output mark, log length)
    moves_after = 0

    def ask(prompt: str) -> str:
        nonlocal moves_after
        state = spy.state
        assert state is not None
        if pending:
            kind, mark, log_length = pending.pop()
            replies[kind] = out.getvalue()[mark:]
            assert len(state.log) == log_length, f"{kind}: the game moved on a bad entry"
        view = state.view(0)
        bad = None
        if view["phase"] == "pass":
            not_held = next(c for c in ALL_CARDS if c not in view["hand"])
            bad = next(
                ((kind, text) for kind, text in (
                    ("not a card", "zz"), ("out of range", "99"), ("not held", not_held),
                    ("empty", ""),
                ) if kind not in replies),
                None,
            )
        elif view["trick"] and "not following" not in replies:
            led = view["led"]
            off = [c for c in view["hand"] if c[-1] != led]
            if off and any(c[-1] == led for c in view["hand"]):
                bad = ("not following", off[0])
        if bad is not None:
            pending.append((bad[0], len(out.getvalue()), len(state.log)))
            return bad[1]
        if "not following" in replies:
            moves_after += 1
            if moves_after > 3:
                return "quit"
        return first_move(prompt)

    assert run(ask, out, bots="spy") == 0
    assert set(replies) == {"not a card", "out of range", "not held", "empty", "not following"}
    assert "not a Baha card" in replies["not a card"]
    assert "not on the list: choose 1 to 13" in replies["out of range"]
    assert "Not allowed: you do not hold" in replies["not held"]
    assert "must follow" in replies["not following"]
    for reply in replies.values():
        assert "Moves:" in reply  # what is allowed comes with every refusal
    assert moves_after > 3  # the game went on after the last refusal
    assert "Traceback" not in out.getvalue()


def test_help_and_show_answer_and_ask_again() -> None:
    out = io.StringIO()
    assert run(answers("help", "show", "quit"), out) == 0
    text = out.getvalue()
    assert "How to move" in text
    assert text.count("Hand 1 · passing · your turn") == 2


# -- stopping ------------------------------------------------------------------------------


def test_end_of_input_in_the_middle_ends_cleanly() -> None:
    result = play("--seed", "3", input="1\n1\n1\n1\n")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert result.output.rstrip().endswith("End of input: game stopped.")


def test_end_of_input_at_the_first_prompt_ends_cleanly() -> None:
    result = play("--seed", "3", input="")
    assert result.exit_code == 0
    assert "End of input: game stopped." in result.output


def test_quit_ends_cleanly() -> None:
    result = play("--seed", "3", input="1\nQUIT\n")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert "You left the game." in result.output


def test_ctrl_c_ends_with_status_130_and_still_writes_the_record(tmp_path: Path) -> None:
    typed = iter(["1", "2"])

    def ask(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    out = io.StringIO()
    path = tmp_path / "game.json"
    assert run(ask, out, record_path=path) == 130
    assert "Interrupted" in out.getvalue()
    assert verify(load(path)).ok
    assert seat0_actions(path) == []  # a pass not sent is not played


def test_the_record_of_a_game_ended_by_quit_still_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play("--seed", "8", "--record", str(path), input="1 2 3\n\n" + "1\n" * 7 + "quit\n")
    assert result.exit_code == 0, result.output
    record = load(path)
    assert verify(record).ok, verify(record).message
    assert record["result"]["over"] is False
    assert len(seat0_actions(path)) == 10


def test_without_a_seed_one_is_chosen_and_shown_so_the_game_can_be_replayed(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "game.json"
    assert run(answers("1", "quit"), out, seed=None, record_path=path) == 0
    shown = re.search(r"Seed (\d+): play this game again with --seed \1", out.getvalue())
    assert shown is not None
    assert load(path)["seed"] == int(shown.group(1))


# -- bad arguments -------------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["human", "random,human,random", "human:ask=2"])
def test_bots_human_is_refused_in_words_with_no_internals(bots: str) -> None:
    result = play("--seed", "3", "--bots", bots, input="quit\n")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "ask=" not in result.output and "(state, seat)" not in result.output
    assert "human is not a bot" in result.output and "the bots are random, heuristic, ismcts" in result.output
    simulated = runner.invoke(app, ["simulate", "baha", "--games", "1", "--agents", bots.replace("random", "heuristic")])
    assert simulated.exit_code == 2 and "ask=" not in simulated.output and "human is not a bot" in simulated.output


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--players", "9"], "players"),
        (["--rule", "target=-5"], "target"),
        (["--rule", "bogus=1"], "bogus"),
        (["--rule", "target"], "KEY=VALUE"),
        (["--bots", "nosuch"], "nosuch"),
        (["--bots", "random:speed=3"], "speed"),
        (["--record", "no/such/folder/game.json"], "cannot write the record"),
    ],
)
def test_bad_arguments_exit_nonzero_with_one_line_naming_the_problem(
    args: list[str], named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = play("--seed", "3", *args, input="quit\n")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert named in result.output
    assert "error:" in result.output


# -- what the screen may show ---------------------------------------------------------------


def test_the_first_screen_shows_only_the_persons_own_cards_sorted_by_colour_then_value() -> None:
    out = io.StringIO()
    assert run(answers(), out) == 0
    hand = Rules(players=4).new_game(3).view(0)["hand"]
    before_prompt = out.getvalue().split("End of input")[0]
    shown = CARD.findall(before_prompt)
    assert set(shown) == set(hand)
    first_seen = list(dict.fromkeys(shown))
    colours = "PRTO"
    assert first_seen == sorted(hand, key=lambda c: (colours.index(c[-1]), int(c[:-1])))


def _hidden_from_seat0(state: BahaState) -> set[str]:
    """Cards seat 0 may not know the place of now: others' hands and face-down cards, the
    leftovers and the draw pile, less the cards seat 0 itself passed this hand."""
    hidden = state.leftover | mask_of(state.draw_pile)
    for seat in range(1, state.n):
        hidden |= state.hands[seat] | state.face_down[seat]
    hidden &= ~state.passed[0]
    return {baha_card_text(c) for c in cards_of(hidden)}


@pytest.mark.parametrize(
    "options",
    [{"players": 4}, {"players": 5}, {"players": 3, "draw_pile": True}],
    ids=["4 players", "5 players with leftovers", "3 players with a draw pile"],
)
def test_no_hidden_card_is_ever_shown(spy: Watch, options: dict[str, Any]) -> None:
    """At every bot move and every prompt, the text shown since this hand began names none of
    the cards hidden from seat 0 at that moment (cards reshuffled from earlier hands aside)."""
    out = io.StringIO()
    checked = 0

    def check(state: BahaState) -> None:
        nonlocal checked
        text = out.getvalue()
        starts = [m.start() for m in re.finditer(rf"Hand {state.hand_no} · dealer", text)]
        assert starts, f"hand {state.hand_no} was not announced before play in it"
        leaked = set(CARD.findall(text[starts[-1]:])) & _hidden_from_seat0(state)
        assert not leaked, f"hidden cards shown in hand {state.hand_no}: {sorted(leaked)}"
        checked += 1

    def ask(prompt: str) -> str:
        assert spy.state is not None
        check(spy.state)
        return first_move(prompt)

    spy.checks.append(check)
    assert run(ask, out, bots="spy", target=1, **options) == 0
    assert "Final standings" in out.getvalue()
    assert checked > 40


# -- drawing -------------------------------------------------------------------------------


def test_cards_are_drawn_in_their_colour_with_their_horns() -> None:
    screen = Screen(Console(file=io.StringIO()), "You", Rules().new_game(1).view(0))
    eleven = screen.card("11T")
    assert eleven.plain == "11T▲▲▲"
    assert "cyan" in str(eleven.style)
    assert screen.card("8P").plain == "8P"
    assert screen.card("13O").plain == "13O▲▲▲▲▲"
    assert screen.card("?").plain == "?"


def test_a_moon_and_revealed_face_down_cards_are_shown_with_the_scores() -> None:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=120), "Ada", Rules(players=5).new_game(1).view(0))
    screen.narrate([{
        "t": "score", "hand": 1, "horns": [60, 0, 0, 0, 0], "moon": 0,
        "points": [0, 60, 60, 60, 60], "totals": [0, 60, 60, 60, 60],
        "revealed": [["9T", "2P"], [], [], [], []],
    }])
    text = out.getvalue()
    assert "You shoot the moon!" in text
    assert re.search(r"Ada\s+60\s+0\s+0\s+9T▲ 2P", text)
    assert "Scores after hand 1" in text


def test_the_record_written_is_json_with_the_log(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run(answers("quit"), io.StringIO(), record_path=path)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["log"][0]["t"] == "hand"


def test_a_bot_that_chooses_an_illegal_move_stops_the_game_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal plays through the one match loop: a bot's move is checked as everywhere."""

    class Wrong:
        name = "wrong"

        def act(self, state: State, seat: int) -> Action:
            return 9999

    monkeypatch.setitem(agents.AGENTS, "wrong", agents.AgentKind(lambda seed, **options: Wrong()))
    with pytest.raises(agents.AgentError, match=r"the wrong bot at seat \d chose an illegal move: "):
        run(lambda prompt: "1", io.StringIO(), bots="wrong")
