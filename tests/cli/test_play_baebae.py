"""End-to-end tests of ``cardroom play baebae``: the terminal game, driven through stdin or a script.

Decisions are reached on hand-made deals (``Deal``): the dealer is seat 3, so the person at
seat 0 moves first, with the cards the test gave them.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardroom import agents
from cardroom.agents.random_agent import RandomAgent
from cardroom.cli.main import app
from cardroom.cli.play.baebae import Screen, run_play
from cardroom.engine import Action, State
from cardroom.games.baebae import BaebaeState, Deal, Rules
from cardroom.games.baebae.native import NativeBaebaeState
from cardroom.record import load, verify

runner = CliRunner()

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CARD = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])([♣♦♥♠])(?!#)")
"""A card as the screen draws it: rank and suit symbol (``10♥``)."""
PLAIN = ["3C", "4C", "9C", "3D", "4D", "10D", "KD", "AH", "2H", "5H", "10H", "2S", "5S", "6S", "9S", "KS"]
"""Sample-deck cards without action or marks, to fill the bots' hands."""
MANY_FIRST_MOVES = "1\n" * 3000  # far more answers than a game of one round needs


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No colour codes in captured output, whatever the test runner's environment says."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "120")


def play(*args: str, input: str) -> Any:
    return runner.invoke(app, ["play", "baebae", *args], input=input)


def shown(key: str) -> str:
    """A card's text form (``10H``) as the screen draws it (``10♥``)."""
    return key[:-1] + SYMBOLS[key[-1]]


class Person:
    """Types ``lines`` one per prompt, then closes the input; keeps the prompts seen."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def made(
    mine: Sequence[str], *, starter: str = "9H", stock: Sequence[str] = (), dealer: int = 3,
    players: int = 4, seed: int = 5, **options: Any,
) -> BaebaeState:
    """A one-round game where seat 0 holds ``mine``; the others hold plain cards."""
    rules = Rules(players=players, rounds=1, **options)
    size = rules.hand_size or 0
    used = {*mine, starter, *stock}
    # Plain cards first, then any card left, so that the bots' moves seldom ask anything.
    spare = [c for c in [*PLAIN, *(c.key for c in rules.cards)] if c not in used]
    spare = list(dict.fromkeys(spare))
    hands = [list(mine)] + [spare[i * size:(i + 1) * size] for i in range(players - 1)]
    return rules.new_game(seed, deal=Deal(hands=hands, starter=starter, stock=stock, dealer=dealer))


def run(
    ask: Callable[[str], str],
    out: io.StringIO,
    *,
    state: BaebaeState | None = None,
    seed: int | None = 3,
    bots: str = "random",
    record_path: Path | None = None,
    width: int = 120,
    height: int = 60,  # a tall terminal: the whole table (80 x 24: test_baebae_screen_size.py)
    **options: Any,
) -> int:
    rules = state.rules if state is not None else Rules(**options)
    return run_play(
        rules, seed=seed, bots=bots, name="You", record_path=record_path,
        console=Console(file=out, width=width, height=height), ask=ask, state=state,
    )


def seat0_actions(state: BaebaeState) -> list[str]:
    return [state.action_to_string(a) for seat, a in state.history if seat == 0]


# -- a whole game --------------------------------------------------------------------------


def test_a_whole_game_answering_the_first_move_ends_with_the_ranking() -> None:
    result = play("--seed", "3", "--rule", "rounds=1", input=MANY_FIRST_MOVES)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Traceback" not in text
    assert "Round 1 of 1" in text
    assert "Penalties after round 1" in text
    assert "Final ranking" in text
    assert re.search(r"^(You win|Random [123] wins) with \d+ points? \(lowest total\)|share first place", text, re.M)
    assert re.search(r"bury (their|your) heads? in shame", text)
    # The bots' moves are told in words, as they happen.
    assert re.search(r"^Random [123] plays (10|[2-9AJQK])[♣♦♥♠] \w", text, re.M)


def test_three_rounds_with_two_players_are_played_and_ranked() -> None:
    result = play("--seed", "11", "--players", "2", input=MANY_FIRST_MOVES)
    assert result.exit_code == 0, result.output
    for n in (1, 2, 3):
        assert f"Round {n} of 3" in result.output
        assert f"Penalties after round {n}" in result.output
    assert "Game over after 3 rounds" in result.output
    assert "Each player is dealt 7 cards" in result.output


def test_the_record_of_a_whole_game_verifies(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = play(
        "--seed", "5", "--rule", "rounds=2", "--deck", "sample", "--deck", "sample",
        "--name", "Ada [the 1st]", "--record", str(path), input=MANY_FIRST_MOVES,
    )
    assert result.exit_code == 0, result.output
    record = load(path)
    assert verify(record).ok, verify(record).message
    assert record["game"] == "baebae"
    assert record["rules"]["deck"] == "sample,sample"
    assert record["deck"]["name"] == "Cardroom Sample Deck + Cardroom Sample Deck"
    assert record["seats"][0] == {"name": "Ada [the 1st]", "agent": "human"}
    assert record["result"]["over"] is True
    assert "Ada [the 1st]" in result.output  # the name is shown as typed, never read as markup


def test_the_record_of_a_hand_made_game_stopped_midway_verifies(tmp_path: Path) -> None:
    state = made(["7H", "3H", "KC", "QD", "JS"])
    path = tmp_path / "game.json"
    assert run(Person("7h", "y", "quit"), io.StringIO(), state=state, record_path=path) == 0
    record = load(path)
    assert verify(record).ok, verify(record).message
    assert record["start"]["deal"]["starter"] == "9H"
    assert [text for seat, text in record["actions"] if seat == 0] == ["play 7H", "yes"]


# -- the screen ----------------------------------------------------------------------------


def test_the_hand_is_a_table_sorted_by_suit_then_rank_with_each_cards_character() -> None:
    out = io.StringIO()
    state = made(["9H", "QC", "AC", "8S", "5D"], starter="9D")
    assert run(Person(), out, state=state) == 0
    text = out.getvalue().split("End of input")[0]
    hand = text[text.index("Your hand"):text.index("Your move")]
    order = [m.group(0) for m in CARD.finditer(hand)]
    assert order == ["A♣", "Q♣", "5♦", "9♥", "8♠"]
    for words in (
        "Mayor Prudence Quill", "Celebrity, Officer", "Lady Violetta Rook", "Optional: swap hands",
        "Honest Tam, Card Sharp", "Prima Donna Aurelia", "Take another turn after this one. Cannot win:",
        "Take another turn after this one.", "The Moonlit Fox", "Critter, Spirit", "[wild]",
    ):
        assert re.search(r"[\s│]+".join(map(re.escape, words.split())), hand), words
    # each of these cards' texts says its flags, so no "(optional)" or "(cannot win)" follows them
    assert not re.search(r"\((optional|cannot win|on start)", hand)
    assert len(re.findall("optional", hand, re.IGNORECASE)) == 2  # Lady Violetta and Honest Tam, once each
    assert "Top card" in text and "9♦ Master Ledger, Tax Collector" in text
    assert "Suit in play" in text and "♦ Diamonds" in text
    assert "Cards held    You 5   Random 1 5   Random 2 5   Random 3 5" in text
    assert "play goes left: You → Random 1 → Random 2 → Random 3" in text
    # The playable cards carry their move number in the table and in the list of moves.
    assert re.search(r"1\s+A♣\s+Mayor Prudence Quill", text)
    assert re.search(r"Your move:\n  1\) A♣  2\) 5♦  3\) 9♥  4\) 8♠", text)


def test_cards_are_drawn_with_their_suit_symbol_red_or_bold() -> None:
    screen = Screen(Console(file=io.StringIO()), "You", Rules())
    hearts, spades = screen.card("10H"), screen.card("QS")
    assert (hearts.plain, spades.plain) == ("10♥", "Q♠")
    assert "red" in str(hearts.style) and "red" in str(screen.card("AD").style)
    assert "bold" in str(spades.style) and "red" not in str(spades.style)
    assert "red" not in str(screen.card("6C").style)
    assert screen.card("6C#2").plain == "6♣#2"  # a second design of 6C, from an added deck
    assert screen.card("?").plain == "?"
    assert screen.named("8S").plain == "8♠ The Moonlit Fox"


def test_bot_moves_and_the_end_of_a_game_are_told_in_words() -> None:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=120), "Ada", Rules())
    screen.narrate([
        {"t": "round", "n": 3, "dealer": 1, "hands": [["6C"], ["?"], ["?"], ["?"]], "stock": [],
         "starter": "8D", "suit": "D", "direction": 1},
        {"t": "play", "p": 2, "card": "7H", "under": False},
        {"t": "effect", "p": 2, "op": "optional", "card": "7H", "carried_out": True},
        {"t": "draw", "p": 3, "card": "?", "forced": True},
        {"t": "draw", "p": 0, "card": "QS", "forced": True},
        {"t": "draw", "p": 1, "card": "?", "forced": True},
        {"t": "draw", "p": 1, "card": "?", "forced": True},
        {"t": "penalty", "p": 2, "points": 2},
        {"t": "play", "p": 1, "card": "8C", "under": False},
        {"t": "declare", "p": 1, "suit": "H"},
        {"t": "coin", "p": 3, "result": "heads"},
        {"t": "move", "from": 0, "to": 2, "cards": ["QS"], "why": "take"},
        {"t": "move", "from": 1, "to": 3, "cards": ["?"], "why": "give"},
        {"t": "effect", "p": 1, "op": "peek", "who": 3, "cards": ["?", "?"]},
        {"t": "effect", "p": 2, "op": "skip", "who": 0},
        {"t": "skip", "p": 0},
        {"t": "reverse", "direction": -1},
        {"t": "round_end", "n": 3, "out": 2, "hands": [["KS", "AC"], ["7C"], [], ["9H", "2D"]],
         "penalties": [11, 7, -1, 11], "totals": [40, 20, 12, 40], "blocked": False, "guard": False},
        {"t": "end", "totals": [40, 20, 12, 40],
         "ranking": [{"seat": 2, "total": 12, "place": 1}, {"seat": 1, "total": 20, "place": 2},
                     {"seat": 0, "total": 40, "place": 3}, {"seat": 3, "total": 40, "place": 3}],
         "shame": [0, 3]},
    ])
    text = out.getvalue()
    for line in (
        "Round 3 of 3 · Seat 1 deals",
        "The starter is 8♦ Goldwhisper, the Lucky-Penny Sprite, a wild card: its own suit, ♦ Diamonds, is in play.",
        "Seat 2 plays 7♥ The Puddingstone Brass Band — Optional: every other player draws a card",
        "Seat 2 carries out the action of 7♥.",
        "Seat 3 draws a card.\nYou draw Q♠ Lady Ashcombe, the Library Ghost.\nSeat 1 draws 2 cards.",
        "Seat 2 gets 2 penalty points this round.",
        "Seat 1 plays 8♣ Madame Corvina, Weather-Witch [wild]",
        "Seat 1 declares ♥ Hearts.",
        "Seat 3 flips a coin. Coin: heads.",
        "Seat 2 takes a card from you: Q♠ Lady Ashcombe, the Library Ghost.",
        "Seat 1 gives Seat 3 a card.",
        "Seat 1 peeks at Seat 3's hand.",
        "You will lose your next turn.",
        "You lose your turn (skipped).",
        "Direction reversed: play now goes right (You → Seat 3 → Seat 2 → Seat 1).",
        "Seat 2 is out: round 3 is over.",
        "Seat 2 wins with 12 points (lowest total).",
        "You and Seat 3 share last place with 40 points: by the rules you must all bury your heads in shame.",
    ):
        assert line in text or line in " ".join(text.split()), line  # long lines wrap
    assert re.search(r"Ada\s+A♣ K♠\s+11\s+0\s+11\s+40", text)  # hands revealed, points, totals
    assert re.search(r"Seat 2\s+—\s+0\s+-1\s+-1\s+12", text)  # action points count too
    assert re.search(r"^\s+3=\s+Ada\s+40\s*$", text, re.M)  # a shared place
    assert re.search(r"^\s+3=\s+Seat 3\s+40\s*$", text, re.M)


def test_a_blocked_round_is_told_with_its_penalties() -> None:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=120), "You", Rules(players=2))
    screen.narrate([
        {"t": "pass", "p": 1},
        {"t": "round_end", "n": 1, "out": None, "hands": [["AD"], ["KD", "2C"]], "penalties": [1, 12],
         "totals": [1, 12], "blocked": True, "guard": False},
    ])
    text = out.getvalue()
    assert "Seat 1 passes: nothing is left to draw." in text
    assert "Nobody can play or draw: round 1 is blocked and over; nobody is out." in text
    assert re.search(r"Seat 1\s+2♣ K♦\s+12\s+0\s+12\s+12", text)


def test_the_person_alone_in_last_place_is_told_kindly_but_clearly() -> None:
    out = io.StringIO()
    screen = Screen(Console(file=out, width=120), "You", Rules(players=2))
    screen.narrate([{"t": "end", "totals": [30, 4], "shame": [0],
                     "ranking": [{"seat": 1, "total": 4, "place": 1}, {"seat": 0, "total": 30, "place": 2}]}])
    text = out.getvalue()
    assert "Seat 1 wins with 4 points (lowest total)." in text
    assert "You are last with 30 points: by the rules you must bury your head in shame." in text
    assert "Chin up" in text


# -- decisions, answered by number or in words ------------------------------------------------


def declared(state: BaebaeState) -> list[tuple[int, str]]:
    return [(e["p"], e["suit"]) for e in state.log if e["t"] == "declare"]


@pytest.mark.parametrize("answer", ["h", "hearts", "Hearts", "♥", "declare h", "3"])
def test_naming_a_suit_after_a_wild_in_words(answer: str) -> None:
    state = made(["8C", "3H", "KC", "QD", "JS"], starter="9D")
    person = Person("8c", answer, "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert declared(state)[0] == (0, "H")
    assert seat0_actions(state)[:2] == ["play 8C", "declare H"]
    assert person.prompts[1] == "Name a suit: C D H S › "
    assert "Your 8♣ Madame Corvina, Weather-Witch is wild." in out.getvalue()
    assert "You declare ♥ Hearts." in out.getvalue()


def test_the_dealer_names_the_suit_for_a_starter_that_says_so() -> None:
    state = made(["8C", "3H", "KC", "QD", "JS"], starter="AC", dealer=0)
    person = Person("hearts", "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert declared(state)[0] == (0, "H")
    assert "The starter's action is carried out, with the dealer (you) as its player" in out.getvalue()


@pytest.mark.parametrize(("answer", "carried"), [("y", True), ("YES", True), ("n", False), ("2", False)])
def test_an_optional_action_is_asked_yes_or_no(answer: str, carried: bool) -> None:
    state = made(["7H", "3H", "KC", "QD", "JS"])
    person = Person("play 7H", answer, "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert person.prompts[1] == "Carry out The Puddingstone Brass Band's action? [y/n] › "
    at = next(i for i, e in enumerate(state.log) if e["t"] == "effect" and e["op"] == "optional")
    assert state.log[at]["carried_out"] is carried
    after = [(e["t"], e["p"], e.get("forced")) for e in state.log[at + 1:at + 5]]
    if carried:
        assert after == [("draw", 1, True), ("draw", 2, True), ("draw", 3, True), ("penalty", 0, None)]
    else:
        assert after[0][::2] != ("draw", True)
        assert not any(e["t"] == "penalty" and e["p"] == 0 for e in state.log)
    assert ("You carry out" if carried else "You do not carry out") in out.getvalue()


@pytest.mark.parametrize("answer", ["2", "seat 2", "Seat 2", "target 2"])
def test_a_player_is_chosen_from_the_list_and_the_peek_is_shown_only_to_the_person(answer: str) -> None:
    state = made(["4S", "3H", "KC", "QD", "JS"], starter="9S")
    seat2 = state.view_log(2)[0]["hands"][2]
    person = Person("4s", answer, "quit")
    out = io.StringIO()
    assert run(person, out, state=state, width=400) == 0
    assert person.prompts[1] == "Player (1-3) › "
    text = out.getvalue()
    assert "Choose a player:\n  1) Random 1 (5 cards)  2) Random 2 (5 cards)  3) Random 3 (5 cards)" in text
    peek = next(e for e in state.log if e["t"] == "effect" and e["op"] == "peek")
    assert (peek["p"], peek["who"]) == (0, 2)
    told = text[text.index("You look at Random 2's hand: "):].splitlines()[0]
    assert sorted(CARD.findall(told)) == sorted((k[:-1], SYMBOLS[k[-1]]) for k in seat2)


@pytest.mark.parametrize("answer", ["2", "reverse the direction of play", "option 2"])
def test_an_option_is_chosen_by_number_or_label(answer: str) -> None:
    state = made(["6H", "3H", "KC", "QD", "JS"])
    person = Person("6h", answer, "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    choice = next(e for e in state.log if e["t"] == "effect" and e["op"] == "choose")
    assert (choice["p"], choice["option"]) == (0, 2)
    assert any(e["t"] == "reverse" for e in state.log)
    text = out.getvalue()
    assert ("Choose an option:\n  1) The next player draws a card  2) Reverse the direction of play"
            "  3) Take 2 points off your penalty") in text
    assert "You choose: Reverse the direction of play." in text


def test_a_card_to_give_is_chosen_after_the_player() -> None:
    state = made(["6D", "3H", "KC", "QD", "JS"], starter="9D")
    person = Person("6d", "3", "give js", "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert seat0_actions(state)[:3] == ["play 6D", "target 3", "select JS"]
    move = next(e for e in state.log if e["t"] == "move")
    assert (move["from"], move["to"], move["cards"], move["why"]) == (0, 3, ["JS"], "give")
    text = out.getvalue()
    assert "Choose a card to give:\n  1) K♣ Old King Cask, Lord of the Cellars  2) Q♦ Countess Glimmer" in text
    assert "You give J♠ The Night-Watchman's Shade to Random 3." in text


def test_cards_are_put_under_one_at_a_time_until_done() -> None:
    state = made(["QD", "3D", "KD", "QC", "JS"], starter="9D")
    person = Person("qd", "3d", "done", "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert seat0_actions(state)[:3] == ["play QD", "select 3D", "done"]
    assert [e["card"] for e in state.log if e["t"] == "play" and e["under"]] == ["3D"]
    text = out.getvalue()
    assert "You may put a card under Q♦ (its marks and action do not happen), or stop:" in text
    assert "1) 3♦ Granny Thimble, Button-Seller  2) K♦ Ratcliffe, the Rat King  3) done: stop here" in text
    assert "You put 3♦ Granny Thimble, Button-Seller under Q♦." in text


@pytest.mark.parametrize(("answer", "played"), [("play", True), ("1", True), ("4s", True), ("pass", False)])
def test_a_drawn_card_that_can_be_played_is_played_or_kept(answer: str, played: bool) -> None:
    state = made(["3H", "KC", "QD", "JD", "2H"], starter="9S", stock=["4S"])
    person = Person("draw", answer, "quit")
    out = io.StringIO()
    assert run(person, out, state=state) == 0
    assert person.prompts[1] == "Play it or pass (1-2) › "
    assert seat0_actions(state)[:2] == ["draw", "play 4S" if played else "pass"]
    text = out.getvalue()
    assert "You draw 4♠ Brother Quillon, Archivist." in text
    assert ("» You drew 4♠ Brother Quillon, Archivist — Look at the hand of another player of your choice.\n"
            "Your hand: K♣ J♦ Q♦ 2♥ 3♥ 4♠") in text
    assert "It can be played: play it or pass?\n  1) play 4♠  2) pass" in text


# -- bad entries -------------------------------------------------------------------------------


def probe(state: BaebaeState, entries: Sequence[str]) -> list[str]:
    """Give ``entries`` at the first question, one per prompt; return what was said after each.

    Each entry must be refused: the game may not move on (checked at the next prompt).
    """
    out = io.StringIO()
    replies: list[str] = []
    queue = list(entries)
    mark: tuple[int, int, int] | None = None  # (output length, log length, actions taken)

    def ask(prompt: str) -> str:
        nonlocal mark
        if mark is not None:
            replies.append(out.getvalue()[mark[0]:])
            assert (len(state.log), len(state.history)) == mark[1:], "the game moved on a bad entry"
        if not queue:
            return "quit"
        mark = (len(out.getvalue()), len(state.log), len(state.history))
        return queue.pop(0)

    assert run(ask, out, state=state) == 0
    assert "Traceback" not in out.getvalue()
    return replies


def test_bad_moves_are_explained_and_asked_again_without_changing_the_game() -> None:
    state = made(["3H", "KC", "QD", "JD", "8S"], starter="9H")
    entries = ["zz", "99", "0", "", "KS", "qd", "draw", "yes", "declare h", "pass"]
    replies = probe(state, entries)
    assert len(replies) == len(entries)
    said = dict(zip(entries, replies, strict=True))
    assert "'zz' is not a card of this deck" in said["zz"]
    assert "99 is not on the list: choose 1 to 2." in said["99"]
    assert "0 is not on the list" in said["0"]
    assert "Nothing typed" in said[""]
    assert "You do not hold K♠." in said["KS"]
    assert "Q♦ does not match the top card 9♥: play a 9 or a Heart, or a wild card." in said["qd"]
    assert "you may not draw" in said["draw"]
    assert "There is no question to answer now" in said["yes"]
    assert "There is no question to answer now" in said["declare h"]
    assert "You may not pass" in said["pass"]
    for reply in replies:
        assert reply.startswith("✗ ")
        assert "Your move:\n  1) 3♥  2) 8♠" in reply  # what is allowed comes with every refusal
    assert seat0_actions(state) == []


def test_a_card_that_cannot_win_is_refused_as_the_last_card() -> None:
    state = made(["9H"], starter="9D", hand_size=1, players=2, dealer=1)
    assert state.view(0)["hand"] == ["9H"]
    [reply] = probe(state, ["9h"])
    assert "9♥ cannot win a round, and it is your last card." in reply
    assert "1) draw a card" in reply


@pytest.mark.parametrize(
    ("mine", "starter", "setup", "entries", "said"),
    [
        (["8C", "3H", "KC", "QD", "JS"], "9D", ["play 8C"], ["x", "5", "help me"],
         ["'x' is not an answer here: type C, D, H or S", "5 is not on the list: choose 1 to 4.",
          "'help me' is not an answer here"]),
        (["7H", "3H", "KC", "QD", "JS"], "9H", ["play 7H"], ["maybe", "3", "3h"],
         ["'maybe' is not an answer here: type y (yes, carry it out) or n (no)",
          "3 is not on the list: choose 1 to 2.", "Not now: type y (yes, carry it out) or n (no)."]),
        (["4S", "3H", "KC", "QD", "JS"], "9S", ["play 4S"], ["seat 0", "target 0", "4"],
         ["is not an answer here: type the number of a player on the list",
          "Not now: type the number of a player on the list.", "4 is not on the list: choose 1 to 3."]),
        (["6H", "3H", "KC", "QD", "JS"], "9H", ["play 6H"], ["option 5", "scarper", "draw"],
         ["Not now: type the number of an option on the list.", "'scarper' is not an answer here",
          "Not now: type the number of an option on the list."]),
        (["QD", "3D", "KD", "QC", "JS"], "9D", ["play QD"], ["qc", "JS", "ah", "yes"],
         ["Q♣ is not one of the cards you may choose now.", "J♠ is not one of the cards you may choose now.",
          "A♥ is not one of the cards you may choose now.", "Not now: type the number or the card"]),
        (["3H", "KC", "QD", "JD", "2H"], "9S", ["draw"], ["kc", "draw", "y"],
         ["After drawing you may play only the card you drew, 4♠, or pass.",
          "After drawing you may play only the card you drew, 4♠, or pass.",
          "'y' is not an answer here: type 1 or play to play the card you drew, 2 or pass to keep it."]),
    ],
    ids=["declare", "optional", "target", "option", "select", "drawn"],
)
def test_bad_answers_to_a_question_are_explained_and_asked_again(
    mine: list[str], starter: str, setup: list[str], entries: list[str], said: list[str]
) -> None:
    state = made(mine, starter=starter, stock=["4S"] if starter == "9S" and "4S" not in mine else ())
    for text in setup:
        state.apply(state.parse_action(text))
    pending = state.view(0)["pending"]
    replies = probe(state, entries)
    assert state.view(0)["pending"] == pending  # the question is still open
    for entry, reply, words in zip(entries, replies, said, strict=True):
        assert words in reply, (entry, reply)
        assert reply.startswith("✗ ")
        assert "  1) " in reply  # the allowed answers are listed again


def test_help_and_show_answer_and_ask_again_and_h_names_hearts_when_naming_a_suit() -> None:
    state = made(["8C", "3H", "KC", "QD", "JS"], starter="9D")
    out = io.StringIO()
    person = Person("help", "show", "8c", "?", "show", "h", "quit")
    assert run(person, out, state=state) == 0
    text = out.getvalue().split("You declare")[0]
    assert text.count("How to answer") == 2
    assert text.count("Round 1 · your turn") == 2
    assert text.count("Round 1 · your answer") == 1  # show while naming a suit: the whole table
    assert declared(state)[0] == (0, "H")


# -- stopping ----------------------------------------------------------------------------------


def test_end_of_input_at_the_first_prompt_ends_cleanly() -> None:
    result = play("--seed", "3", input="")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert result.output.rstrip().endswith("End of input: game stopped.")


def test_end_of_input_in_the_middle_of_a_decision_ends_cleanly() -> None:
    state = made(["8C", "3H", "KC", "QD", "JS"], starter="9D")
    out = io.StringIO()
    assert run(Person("8c"), out, state=state) == 0
    assert out.getvalue().rstrip().endswith("End of input: game stopped.")
    assert state.view(0)["pending"]["kind"] == "declare"


def test_quit_ends_cleanly() -> None:
    result = play("--seed", "3", input="1\nQUIT\n")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert "You left the game." in result.output


def test_ctrl_c_ends_with_status_130_and_still_writes_a_record_that_verifies(tmp_path: Path) -> None:
    typed = iter(["1", "1"])

    def ask(prompt: str) -> str:
        answer = next(typed, None)
        if answer is None:
            raise KeyboardInterrupt
        return answer

    out = io.StringIO()
    path = tmp_path / "game.json"
    assert run(ask, out, record_path=path, rounds=1) == 130
    assert "Interrupted: game stopped." in out.getvalue()
    record = load(path)
    assert verify(record).ok, verify(record).message
    assert len([a for a in record["actions"] if a[0] == 0]) == 2


def test_without_a_seed_one_is_chosen_and_shown_so_the_game_can_be_replayed(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "game.json"
    assert run(Person("1", "quit"), out, seed=None, record_path=path) == 0
    found = re.search(r"Seed (\d+): play this game again with --seed \1", out.getvalue())
    assert found is not None
    assert load(path)["seed"] == int(found.group(1))


# -- bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["baebae", "--deck", "nosuch"], "no deck 'nosuch'"),
        (["baebae", "--deck", "broken.toml"], "broken.toml: card 1"),
        (["baebae", "--rule", "rounds=0"], "rounds must be a whole number from 1 to 100"),
        (["baebae", "--players", "30"], "at most 10 players"),
        (["baebae", "--players", "1"], "players must be a whole number from 2"),
        (["baebae", "--deck", "sample", "--rule", "deck=sample"], "give the deck once"),
        (["baebae", "--bots", "nosuch"], "nosuch"),
        (["baebae", "--record", "no/such/folder/game.json"], "cannot write the record"),
        (["baha", "--deck", "x"], "--deck is for BAEBAE"),
    ],
)
def test_bad_arguments_exit_nonzero_with_one_line_naming_the_problem(
    args: list[str], named: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.toml").write_text('name = "B"\n[[card]]\nrank = "6"\nsuit = "X"\n', encoding="utf-8")
    result = runner.invoke(app, ["play", *args, "--seed", "3"], input="quit\n")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert "error:" in result.output
    assert named in " ".join(result.output.split())  # the message may wrap at the terminal width


def test_a_deck_file_can_be_played(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        'name = "Extras"\ntypes = ["Critter"]\n[[card]]\nrank = "6"\nsuit = "C"\nname = "Sergeant Pim"\n'
        'types = ["Critter"]\nmarks = ["wild"]\n',
        encoding="utf-8",
    )
    path = tmp_path / "game.json"
    result = play("--seed", "4", "--rule", "rounds=1", "--deck", "sample", "--deck", str(extra),
                  "--record", str(path), input=MANY_FIRST_MOVES)
    assert result.exit_code == 0, result.output
    assert "deck Cardroom Sample Deck + Extras (53 cards)" in result.output
    assert verify(load(path)).ok


# -- what the screen may show ------------------------------------------------------------------


class Watch:
    """The live (omniscient) state and the checks to run on every bot move."""

    def __init__(self) -> None:
        self.state: BaebaeState | None = None
        self.checks: list[Callable[[BaebaeState], None]] = []


class SpyAgent:
    """A random bot that hands the live state to the test, to compare the screen with the truth."""

    name = "spy"

    def __init__(self, seed: int | None, watch: Watch) -> None:
        self.inner = RandomAgent(seed=seed)
        self.watch = watch

    def act(self, state: State, seat: int) -> Action:
        assert isinstance(state, BaebaeState | NativeBaebaeState)  # either engine's (native the default)
        self.watch.state = state
        for check in self.watch.checks:
            check(state)
        return self.inner.act(state, seat)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Watch:
    watch = Watch()
    monkeypatch.setitem(agents.AGENTS, "spy", agents.AgentKind(lambda seed, **options: SpyAgent(seed, watch)))
    return watch


def _known_to_seat0(state: BaebaeState) -> set[str]:
    """Cards seat 0 has been shown this round, by the omniscient log: its own hand, the starter,
    every card played or put under, cards moved to or from it, and its peeks."""
    known: set[str] = set()
    for event in state.log[state.round_start:]:
        t = event["t"]
        if t == "round":
            known |= {event["starter"], *event["hands"][0]}
        elif t == "play" or (t == "draw" and event["p"] == 0):
            known.add(event["card"])
        else:
            public = t == "move" and event["to"] == "discard"
            mine = (t == "move" and 0 in (event["from"], event["to"])) or (
                t == "effect" and event["op"] == "peek" and event["p"] == 0
            )
            if public or mine:
                known |= set(event["cards"])
    return known


def _hidden_from_seat0(state: BaebaeState) -> set[str]:
    """Where the other hands and the stockpile hold cards seat 0 was never shown this round."""
    hidden = {state.card_text(p) for p in state.stock}
    for seat in range(1, state.n):
        hidden |= set(state.card_texts(state.hands[seat]))
    return hidden - _known_to_seat0(state)


@pytest.mark.parametrize(
    "options",
    [{"players": 4, "rounds": 2}, {"players": 2, "rounds": 2}, {"players": 6, "rounds": 1}],
    ids=["4 players", "2 players", "6 players"],
)
def test_no_hidden_card_is_ever_shown(spy: Watch, options: dict[str, Any]) -> None:
    """At every bot move and every prompt, the text shown since the round began names no card
    (by rank and suit, or by its character) that seat 0 was never shown this round."""
    out = io.StringIO()
    checked = 0
    seen_known = 0
    names = {c.key: c.name for c in Rules().cards}

    def check(state: BaebaeState) -> None:
        nonlocal checked, seen_known
        text = out.getvalue()
        starts = [m.start() for m in re.finditer(rf"Round {state.round_no} of", text)]
        assert starts, f"round {state.round_no} was not announced before play in it"
        text = text[starts[-1]:]
        drawn = {f"{rank}{suit}" for rank, suit in CARD.findall(text)}
        hidden = _hidden_from_seat0(state)
        leaked = {k for k in hidden if shown(k) in drawn or names[k] in text}
        assert not leaked, f"hidden cards shown in round {state.round_no}: {sorted(leaked)}"
        seen_known += len({shown(k) for k in _known_to_seat0(state)} & drawn)
        checked += 1

    spy.checks.append(check)
    secrets = 0  # events the screen had to tell without their cards
    for seed in (1, 2, 3, 4):
        state = Rules(**options).new_game(seed)

        def ask(prompt: str, state: BaebaeState = state) -> str:
            check(state)
            return "1"

        assert run(ask, out, state=state, bots="spy") == 0
        assert "Final ranking" in out.getvalue()
        out.seek(0)
        out.truncate()
        secrets += sum(
            1 for e in state.view_log(0) if e["t"] in ("move", "effect") and "?" in e.get("cards", [])
        )
    assert checked > 40
    assert seen_known > 40  # the check does see the cards that are shown
    assert secrets > 0  # others' peeks, gives, takes or swaps were among them
