"""The designer's answers: a deck diff in words, compare card by card (direct effects, every
variant's rules and deck, plots, rows that cannot differ left out), per-card impact within
penalty value with its notes, restricted play finding a planted change, and deck new."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom import native
from cardroom.analysis.restrict import restricted_report
from cardroom.cli.main import app
from cardroom.cli.options import parse_rule_options
from cardroom.games.baebae.deck import find_deck, parse_deck
from cardroom.games.baebae.deck_diff import deck_diff

runner = CliRunner()
SAMPLE = find_deck("sample").text
GORSE = 'text = "The next player draws two cards."\neffects = [{step = "draw", who = "next", count = 2}]'
CRUELLER = 'text = "The next player draws four cards."\neffects = [{step = "draw", who = "next", count = 4}]'
SEXTON = 'name = "Sexton Grimble"\ntypes = ["Officer"]\nmarks = ["reverse"]\n'


def planted(action: str, name: str = "Cardroom Sample Deck") -> str:
    """The sample deck with 3S (Sexton Grimble, a reverse and no action) given ``action``."""
    text = SAMPLE.replace(SEXTON, SEXTON + "[card.action]\n" + action + "\n", 1)
    assert text != SAMPLE
    return text.replace('name = "Cardroom Sample Deck"', f'name = "{name}"', 1)


def test_the_deck_diff_reads_each_changed_field_in_words() -> None:
    old = parse_deck(SAMPLE, "sample.toml").cards
    new_text = SAMPLE.replace(GORSE, CRUELLER, 1).replace(SEXTON, SEXTON.replace('["reverse"]', '["skip"]'), 1)
    assert deck_diff(old, parse_deck(new_text, "mine.toml").cards) == [
        "10C Alderman Gorse: action text 'The next player draws two cards.' -> 'The next player draws four cards.'",
        "10C Alderman Gorse: action step 1 (draw): count 2 -> 4",
        "3S Sexton Grimble: marks reverse -> skip",
    ]
    assert deck_diff(old, old) == []
    fewer = parse_deck(SAMPLE.replace('rank = "3"\nsuit = "S"', 'rank = "3"\nsuit = "S"\ncopies = 2', 1), "x.toml")
    assert deck_diff(old, fewer.cards) == ["3S Sexton Grimble: copies 1 -> 2"]


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, str, str]:
    folder = tmp_path_factory.mktemp("compare")
    mine = folder / "crueller.toml"
    mine.write_text(SAMPLE.replace(GORSE, CRUELLER, 1).replace('"Cardroom Sample Deck"', '"Crueller Gorse"', 1))
    html, figures = folder / "c.html", folder / "c.json"
    result = runner.invoke(app, ["compare", "baebae", "--deck", "sample", "--deck", str(mine), "--games", "60",
                                 "--workers", "1", "--html", str(html), "--json", str(figures)],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return json.loads(figures.read_text()), html.read_text(), result.output


def test_compare_gives_the_deck_diff_and_the_direct_effects_first(compared: tuple[dict, str, str]) -> None:
    report, _, output = compared
    first = next(iter(report["sections"]))
    assert first == "direct_effects"
    section = report["sections"]["direct_effects"]
    changes = [r["change"] for r in section["tables"]["deck_diff"]["rows"]]
    assert "10C Alderman Gorse: action step 1 (draw): count 2 -> 4" in changes
    effects = section["figures"]["effects"]
    assert effects[0].startswith("cards drawn by force +")  # the surest effect of the change
    assert any(e.startswith("10C Alderman Gorse: cards drawn by force +") for e in effects)
    assert output.index("Direct effects") < output.index("minus deck=sample\n")


def test_compare_names_every_variants_rules_deck_and_agents(compared: tuple[dict, str, str]) -> None:
    report, page, output = compared
    facts = report["facts"]
    sample, mine = facts["deck=sample"], facts["deck=crueller.toml"]
    assert "Cardroom Sample Deck (sha256:" in sample and "Crueller Gorse (sha256:" in mine
    assert "agents heuristic, heuristic, heuristic, heuristic" in mine and "rounds=3" in mine
    for text in (page, output):
        assert "Crueller Gorse (sha256:" in text and "Cardroom Sample Deck (sha256:" in text
    variants = report["sections"]["compare"]["figures"]["variants"]
    assert [v["deck"]["name"] for v in variants] == ["Cardroom Sample Deck", "Crueller Gorse"]
    assert all(v["deck"]["digest"].startswith("sha256:") and v["agents"] == ["heuristic"] * 4 for v in variants)
    assert variants[1]["rules"]["rounds"] == 3 and variants[0]["games"] == 60


def test_compare_leaves_out_rows_that_cannot_differ_and_draws_plots(compared: tuple[dict, str, str]) -> None:
    report, page, _ = compared
    table = next(iter(report["sections"]["compare"]["tables"].values()))
    assert "rounds a game" not in [r["metric"] for r in table["rows"]]  # 3 in every game
    assert "rounds a game (3)" in table["note"]
    cards = next(iter(report["sections"]["cards_compare"]["tables"].values()))["rows"]
    assert all(r["base"]["value"] or r["variant"]["value"] for r in cards if r["key"] != "held")
    gorse = {r["key"]: r for r in cards if r["card"] == "10C"}
    assert gorse["draws_forced"]["holm"] and gorse["draws_forced"]["difference"]["low"] > 0
    assert gorse["draws_forced"]["difference"]["paired"]
    for plot in ('data-plot="compare_', 'data-plot="cards_1"', 'data-plot="steps_1"'):
        assert plot in page


def test_compare_warns_when_two_variants_decks_share_a_name(tmp_path: Path) -> None:
    same_name = tmp_path / "copy.toml"
    same_name.write_text(SAMPLE.replace(GORSE, CRUELLER, 1))  # changed, still "Cardroom Sample Deck"
    result = runner.invoke(app, ["compare", "baebae", "--deck", "sample", "--deck", str(same_name), "--games", "4",
                                 "--workers", "1"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "share the name 'Cardroom Sample Deck'" in result.output
    assert "cardroom deck new" in result.output


def test_versions_of_one_deck_share_its_name_without_a_warning(tmp_path: Path) -> None:
    """The studio compares versions of one deck, which share its name as they should."""
    from cardroom.analysis.compare import compare_runs
    from cardroom.analysis.folder import read_results
    from cardroom.games import make_rules
    from cardroom.sim.results import simulate_to
    from cardroom.sim.tournament import Lineup

    runs = []
    for i, text in enumerate([SAMPLE.replace(GORSE, CRUELLER.replace("four", "4"), 1),
                              SAMPLE.replace(GORSE, CRUELLER, 1)]):
        rules = make_rules("baebae", {"deck": parse_deck(text).digest, "deck_files": [text], "rounds": 1})
        simulate_to(tmp_path / f"v{i + 1}", rules, 4, 0, Lineup.parse("heuristic", 4))
        runs.append(read_results(tmp_path / f"v{i + 1}"))
    labels = ["v1 Cardroom Sample Deck", "v2 Cardroom Sample Deck"]
    assert any("share the name" in w for w in compare_runs(runs, labels).warnings)
    assert not any("share the name" in w for w in compare_runs(runs, labels, versions=True).warnings)


def test_compare_opens_with_a_verdict_and_a_row_pooled_over_the_seats(compared: tuple[dict, str, str]) -> None:
    report, page, output = compared
    verdict = report["verdict"]
    assert verdict[0].startswith("deck=crueller.toml against deck=sample: ")
    assert verdict[1].startswith("What the cards' actions did differently, beyond noise (the surest): cards "
                                 "drawn by force +")
    assert any(line.startswith("Pooled over all seats: penalty a game ") or "read the pooled figure" in line
               for line in verdict)
    assert output.splitlines()[1] == f"verdict: {verdict[0]}"
    assert page.index("data-verdict") < page.index('class="facts"')
    rows = next(iter(report["sections"]["compare"]["tables"].values()))["rows"]
    keys = [r["key"] for r in rows]
    assert keys.index("points_seat3") + 1 == keys.index("points_all") == keys.index("seat_advantage") - 1
    pooled = rows[keys.index("points_all")]
    seats = [r for r in rows if r["key"].startswith("points_seat")]
    # the seats' mean, and narrower than any one seat's interval
    assert pooled["base"]["value"] == pytest.approx(sum(r["base"]["value"] for r in seats) / 4)
    width = pooled["difference"]["high"] - pooled["difference"]["low"]
    assert all(width < r["difference"]["high"] - r["difference"]["low"] for r in seats)


def test_compare_suggests_the_tune_command_that_brings_a_moved_target_back(tmp_path: Path) -> None:
    greedy = tmp_path / "greedy.toml"
    twelve = 'text = "The next player draws twelve cards."\neffects = [{step = "draw", who = "next", count = 12}]'
    greedy.write_text(SAMPLE.replace(GORSE, twelve, 1).replace('"Cardroom Sample Deck"', '"Greedy Gorse"', 1))
    figures = tmp_path / "c.json"
    result = runner.invoke(app, ["compare", "baebae", "--deck", "sample", "--deck", str(greedy), "--games", "300",
                                 "--workers", "1", "--json", str(figures)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    report = json.loads(figures.read_text())
    hint = report["sections"]["compare"]["figures"]["tune"]["deck=greedy.toml"]
    assert hint and hint[0].startswith("To bring the decisions a game back to the first run's, search the numbers "
                                       f"that changed: cardroom tune baebae --deck {greedy} --param "
                                       "10C.count=2..12 --target decisions=")
    assert hint[0] in report["verdict"]
    rules = runner.invoke(app, ["compare", "baha", "--rule", "target=50", "--rule", "target=100", "--games", "40",
                                "--workers", "1"], env={"COLUMNS": "400"})
    assert rules.exit_code == 0, rules.output
    assert "cardroom tune baha --param target=50..100 --target length=" in rules.output


def test_deck_new_writes_a_renamed_copy_and_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["deck", "new", "My Deck", "--from", "sample"])
    assert result.exit_code == 0, result.output
    written = tmp_path / "my-deck.toml"
    assert "wrote my-deck.toml" in result.output
    copy = parse_deck(written.read_text(), "my-deck.toml")
    assert copy.name == "My Deck" and deck_diff(find_deck("sample").cards, copy.cards) == []
    again = runner.invoke(app, ["deck", "new", "My Deck", "--from", "sample"])
    assert again.exit_code == 2 and "already exists" in again.output
    assert parse_deck(written.read_text(), "x").name == "My Deck"  # unchanged
    other = runner.invoke(app, ["deck", "new", "Second", "--from", str(written), "--out", "b.toml"])
    assert other.exit_code == 0 and parse_deck((tmp_path / "b.toml").read_text(), "b").name == "Second"
    bad = runner.invoke(app, ["deck", "new", "x" * 500, "--from", "sample", "--out", "c.toml"])
    assert bad.exit_code == 2 and not (tmp_path / "c.toml").exists()
    missing = runner.invoke(app, ["deck", "new", "Z", "--from", "nosuch.toml"])
    assert missing.exit_code == 2 and "not a project deck" in missing.output


def test_analyze_ranks_cards_within_their_penalty_value_and_says_what_is_never_used(tmp_path: Path) -> None:
    folder, figures = tmp_path / "run", tmp_path / "f.json"
    result = runner.invoke(app, ["simulate", "baebae", "--games", "150", "--agents", "heuristic", "--out",
                                 str(folder)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["analyze", str(folder), "--json", str(figures)])
    assert result.exit_code == 0, result.output
    table = json.loads(figures.read_text())["sections"]["cards"]["tables"]["designs"]
    rows = table["rows"]
    assert "5D (optional action never carried out)" in table["note"]  # said where the terminal shows it
    tens = [r for r in rows if r["card"][:-1] in ("10", "J", "Q", "K")]
    held = sum(r["held_points"]["value"] for r in tens) / len(tens)
    within = sum(r["within_points"]["value"] for r in tens) / len(tens)
    assert held > 0.5 and abs(within) < 1e-9  # a 10 in hand costs 10: within its value, that cancels
    shown = [r["within_points"]["value"] for r in rows]
    assert shown == sorted(shown, reverse=True)  # ranked by it
    top = [r["card"][:-1] for r in rows[:12]]
    assert set(top) - {"9", "10", "J", "Q", "K"}  # no longer the high-penalty cards only
    by_card = {r["card"]: r for r in rows}
    for card in ("5D", "AD"):  # the heuristic never carries out their optional actions
        assert by_card[card]["ran_share"] < 0.01
        assert by_card[card]["note"].startswith("optional action ") and "never" in by_card[card]["note"]
    assert by_card["10C"]["ran_share"] > 0.9 and not by_card["10C"]["note"]
    assert all("plays_game" in r and "within_points" in r for r in rows)


needs_native = pytest.mark.skipif(native.batch_for("baebae") is None, reason="the native engine is not built")


def _ranking(tmp_path: Path, text: str, games: int) -> list[dict]:
    deck = tmp_path / "planted.toml"
    deck.write_text(text)
    rules = parse_rule_options("baebae", None, [f"deck={deck}"])
    return restricted_report(rules, games=games, seed=0).sections[0].tables[0].rows


@needs_native
def test_restricted_play_finds_a_card_made_much_stronger_at_the_top(tmp_path: Path) -> None:
    rows = _ranking(tmp_path, planted('text = "Discard three cards."\n'
                                      'effects = [{step = "discard", who = "self", count = 3}]'), 150)
    assert rows[0]["card"] == "3S" and rows[0]["margin"]["low"] > 0
    plain = _ranking(tmp_path, SAMPLE, 150)
    mark = next(r for r in plain if r["card"] == "3S")
    assert mark["margin"]["low"] <= 0 <= mark["margin"]["high"]  # it was no card of note


@needs_native
def test_restricted_play_finds_a_card_made_much_weaker_at_the_bottom(tmp_path: Path) -> None:
    rows = _ranking(tmp_path, planted('text = "You take fifteen penalty points."\n'
                                      'effects = [{step = "penalty", who = "self", points = 15}]'), 2000)
    # the heuristic itself plays it only when it must, so forbidding it saves little, but surely some
    assert rows[-1]["card"] == "3S" and rows[-1]["margin"]["value"] < 0 < rows[0]["margin"]["value"]
    assert rows[-1]["penalty"]["high"] < 0


@needs_native
def test_restricted_play_flags_the_optional_actions_the_heuristic_never_carries_out() -> None:
    rules = parse_rule_options("baebae", None, [])
    rows = restricted_report(rules, games=60, seed=0, cards=["5D", "AD", "QC"]).sections[0].tables[0].rows
    by = {r["card"]: r for r in rows}
    for card in ("5D action", "AD action"):
        assert by[card]["changed"] == 0 and "never carries it out" in by[card]["flag"]
    assert by["QC action"]["changed"] > 0 and not by["QC action"]["flag"]


@needs_native
def test_the_restrict_command_writes_its_ranking_and_refuses_an_unknown_card(tmp_path: Path) -> None:
    figures = tmp_path / "worth.json"
    result = runner.invoke(app, ["restrict", "baebae", "--games", "12", "--card", "10C", "--card", "5D",
                                 "--json", str(figures)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = json.loads(figures.read_text())["sections"]["restricted"]["tables"]["ranking"]["rows"]
    assert sorted(r["card"] for r in rows) == ["10C", "5D", "5D action"]
    assert "Cardroom Sample Deck (sha256:" in result.output
    verdict = json.loads(figures.read_text())["verdict"]
    assert verdict[0].startswith(("The card worth most to its player is ", "No card's worth to its player is "))
    assert verdict[-1].startswith("Every figure is pooled over all 4 seats")
    assert result.output.splitlines()[1] == f"verdict: {verdict[0]}"
    bad = runner.invoke(app, ["restrict", "baebae", "--games", "4", "--card", "ZZ"])
    assert bad.exit_code == 2 and "no such card in this deck" in bad.output
    assert runner.invoke(app, ["restrict", "baha", "--games", "4"]).exit_code == 2


def test_compare_of_folders_on_other_seeds_takes_the_card_differences_unpaired(tmp_path: Path) -> None:
    folders = []
    for seed in ("0", "500"):
        folder = tmp_path / f"run-{seed}"
        made = runner.invoke(app, ["simulate", "baebae", "--games", "20", "--seed", seed, "--agents", "heuristic",
                                   "--out", str(folder)])
        assert made.exit_code == 0, made.output
        folders.append(str(folder))
    figures = tmp_path / "c.json"
    result = runner.invoke(app, ["compare", *folders, "--json", str(figures)])
    assert result.exit_code == 0, result.output
    report = json.loads(figures.read_text())
    rows = next(iter(report["sections"]["cards_compare"]["tables"].values()))["rows"]
    counted = [r for r in rows if r["key"] != "held"]
    assert counted and not any(r["difference"]["paired"] for r in counted)
    assert [r["change"] for r in report["sections"]["direct_effects"]["tables"]["deck_diff"]["rows"]] == [
        "the same cards as the first run"]
