"""``cardroom drama``: decisive moments of games, valued by a search oracle."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from cardroom.analysis.report import Report
from cardroom.cli.analyze import check_outputs, print_report, save_report
from cardroom.cli.options import UsageError, parse_rule_options, with_deck

__all__ = ["run_drama"]


def run_drama(
    game: str,
    *,
    games: int,
    seed: int,
    rules: Sequence[str],
    decks: Sequence[str],
    players: int | None,
    agents: str | None,
    oracle: str,
    threshold: float,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    from cardroom.agents import make, parse_spec
    from cardroom.agents.ismcts import ISMCTSAgent
    from cardroom.analysis.drama import drama_report, play_drama
    from cardroom.sim.tournament import Lineup, default_agents

    check_outputs(html=html, json_path=json_path, csv=csv)
    if not threshold >= 0:
        raise UsageError(f"--threshold must be a number of 0 or more, not {threshold}")
    made = parse_rule_options(game, players, with_deck(game, list(rules), list(decks)))
    lineup = Lineup.parse(agents or default_agents(made.game), made.to_dict()["players"])
    name, options = parse_spec(oracle)
    if name != "ismcts":
        raise UsageError(
            f"--oracle is a search: ismcts with its options (e.g. ismcts:iterations=400), not {name}"
        )
    searcher = make(name, seed=seed, **options)
    assert isinstance(searcher, ISMCTSAgent)
    dramas = play_drama(made, games, seed, lineup, searcher)
    report = drama_report(made, lineup, oracle, dramas, threshold, [seed + i for i in range(games)])
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report
