"""``cardroom analyze``, ``compare`` and ``sweep``: the designer's figures on the terminal, and
the same figures as a self-contained HTML page, JSON and CSV."""

from __future__ import annotations

import shutil
import tempfile
import tomllib
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from cardroom.analysis.folder import Folder, Results, open_folder, read_results
from cardroom.analysis.report import (
    Report,
    Table,
    cell_text,
    check_csv_folder,
    check_output_file,
    write_csv_folder,
    write_json,
)
from cardroom.cli.consoles import make_console
from cardroom.engine import Rules

__all__ = ["print_report", "rules_items", "run_analyze", "save_report"]

SHOWN_ROWS = 12
"""Rows of a long table shown on the terminal; the files hold them all."""
LONG_TABLE = 24
"""A table of more rows than this is long."""


def print_report(console: Console, report: Report, *, skip: Sequence[str] = ()) -> None:
    """The report's facts, warnings and tables (long tables cut to their first rows)."""
    console.print(f"[bold]{escape(report.title)}[/]", highlight=False)
    for line in report.verdict:
        console.print(f"[bold]verdict:[/] {escape(line)}", highlight=False)
    for key, value in report.facts:
        console.print(f"{key}: {escape(value)}", highlight=False)
    for warning in report.warnings:
        console.print(f"[bold red]warning:[/] {escape(warning)}", highlight=False)
    for section in report.sections:
        if section.key in skip:
            continue
        for table in section.tables:
            console.print(_rich_table(table))


def _rich_table(table: Table) -> RichTable:
    shown = RichTable(title=table.title, title_justify="left")
    columns = [c for c in table.columns if c.terminal]
    for i, column in enumerate(columns):
        shown.add_column(column.heading, justify="left" if i == 0 else "right")
    # A long table (one row a card) shows its first rows; a shorter one, all of them.
    shown_rows = table.rows if len(table.rows) <= LONG_TABLE else table.rows[:SHOWN_ROWS]
    for row in shown_rows:
        style = "bold yellow" if table.flag and row.get(table.flag) else None
        shown.add_row(*(escape(cell_text(row.get(c.key), c.digits)) for c in columns), style=style)
    notes = [table.note] if table.note else []
    if len(table.rows) > len(shown_rows):
        notes.append(f"{len(table.rows) - len(shown_rows)} more rows in --html, --json and --csv.")
    if len(columns) < len(table.columns):
        hidden = ", ".join(c.heading for c in table.columns if not c.terminal)
        notes.append(f"Also in those files: {hidden}.")
    shown.caption = "\n".join(notes) or None
    shown.caption_justify = "left"
    return shown


def check_outputs(*, html: Path | None, json_path: Path | None, csv: Path | None) -> None:
    """Refuse, before any game is read or played, an output that cannot be written."""
    if html is not None:
        check_output_file(html, "--html")
    if json_path is not None:
        check_output_file(json_path, "--json")
    if csv is not None:
        check_csv_folder(csv)


def save_report(
    console: Console, report: Report, *, html: Path | None, json_path: Path | None, csv: Path | None
) -> None:
    """The report into the files asked for (each written under a temporary name, then renamed)."""
    if html is not None:
        from cardroom.analysis.html import write_html

        write_html(report, html)
        console.print(f"report written to {escape(str(html))}", highlight=False)
    if json_path is not None:
        write_json(report, json_path)
        console.print(f"figures written to {escape(str(json_path))}", highlight=False)
    if csv is not None:
        written = write_csv_folder(report, csv)
        console.print(f"{len(written)} tables written to {escape(str(csv))}/", highlight=False)


def _with_decks(results: Folder, decks: Sequence[str] | None) -> Folder:
    """``--deck FILE``: the deck files' texts for a game's analysis (results name them by digest),
    accepted when the decks given are, by digest, the deck the run played (a project deck's own
    file is the project deck)."""
    if not decks:
        return results
    from cardroom import games
    from cardroom.cli.options import UsageError
    from cardroom.engine import DeckRules
    from cardroom.sim.report import deck_words

    spec = games.get(results.game)
    support = spec.decks
    if support is None:
        raise UsageError(f"--deck is for games played with decks; {results.game} has none")
    given = [support.read(deck, None) for deck in decks]  # one at a time: each file's digest beside its text
    options = {"deck": ",".join(g["deck"] for g in given),
               "deck_files": [text for g in given for text in g["deck_files"]]}
    rules = results.manifest.get("rules")
    played = results.manifest.get("deck")
    try:
        made = spec.make_rules({**(rules if isinstance(rules, dict) else {}), **options})
    except (ValueError, TypeError) as err:
        raise UsageError(f"--deck: {err}") from None
    have = made.deck_record() if isinstance(made, DeckRules) else None
    if isinstance(played, dict) and have is not None and have["digest"] != played.get("digest"):
        raise UsageError(f"--deck: the deck given, {deck_words(have)}, is not the one the run played, "
                         f"{deck_words(played)}: their digests differ")
    # Only the files the run named by digest are needed: a project deck is read by its name.
    named = set(str((rules or {}).get("deck", "")).split(",")) if isinstance(rules, dict) else set()
    results.deck_files = tuple(text for g in given if g["deck"] in named for text in g["deck_files"])
    results.deck_note = ""
    return results


def run_analyze(
    folder: Path,
    *,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
    decks: Sequence[str] | None = None,
) -> Report:
    """Read a results folder a part at a time, print the headline figures, write the files
    asked for."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom.analysis.figures import build_report

    report = build_report(_with_decks(open_folder(folder), decks))
    print_report(console, report, skip=("distributions",))
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def run_compare(
    targets: Sequence[str],
    *,
    games: int,
    seed: int,
    rules: Sequence[str] | None,
    decks: Sequence[str] | None,
    players: int | None,
    agents: str | None,
    workers: int,
    out: Path | None,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom compare``: variants played on the same seeds, or results folders read."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom import games as registry
    from cardroom.analysis.compare import compare_runs
    from cardroom.cli.options import UsageError

    if len(targets) == 1 and targets[0] in registry.names() and not Path(targets[0]).is_dir():
        variants = compare_variants(targets[0], rules, decks, players)
        runs = run_variants(
            variants, games=games, seed=seed, agents=agents, workers=workers, out=out, console=console
        )
        given = list(decks or [])
        deck_args = [given[i if len(given) > 1 else 0] for i in range(len(variants))] if given else None
        report = compare_runs(runs, [label for label, _ in variants], decks=deck_args)
    else:
        if rules or decks or out is not None or agents is not None or players is not None:
            raise UsageError(
                "--rule, --deck, --agents, --players and --out play variants: give a game "
                f"({', '.join(registry.names())}) then the variants, or only results folders"
            )
        if len(targets) < 2:
            raise UsageError(
                f"compare needs a game ({', '.join(registry.names())}) with two or more --rule or "
                f"--deck, or two or more results folders; got {targets[0]!r}"
            )
        report = compare_runs([read_results(Path(t)) for t in targets])
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def compare_variants(
    game: str, rules: Sequence[str] | None, decks: Sequence[str] | None, players: int | None
) -> list[tuple[str, Rules]]:
    """The variants of ``compare GAME``: one per ``--rule`` and one per ``--deck`` (a single
    one of either applies to every variant), each labelled by what sets it apart."""
    from cardroom.cli.options import UsageError, parse_rule_options, with_deck

    rule_sets = list(rules or [""])
    deck_list: list[str | None] = [*decks] if decks else [None]
    count = max(len(rule_sets), len(deck_list))
    if count < 2:
        raise UsageError(
            "compare needs two or more variants: give --rule twice or more, or --deck twice or "
            "more (or give results folders)"
        )
    if 1 < len(rule_sets) != len(deck_list) > 1:
        raise UsageError(
            f"give as many --rule as --deck (one of each per variant), or one of either for all; "
            f"got {len(rule_sets)} and {len(deck_list)}"
        )
    variants = []
    for i in range(count):
        text = rule_sets[i if len(rule_sets) > 1 else 0]
        deck = deck_list[i if len(deck_list) > 1 else 0]
        items = with_deck(game, rules_items(text) if text else [], [deck] if deck else None)
        parts = [_shown(text)] if len(rule_sets) > 1 else []
        parts += [f"deck={_shown(deck)}"] if len(deck_list) > 1 and deck else []
        label = " ".join(parts)
        variants.append((label, parse_rule_options(game, players, items)))
    labels = [label for label, _ in variants]
    if len(set(labels)) < len(labels):
        raise UsageError(f"two variants are the same ({', '.join(labels)}): give different rules or decks")
    same_players(variants)
    return variants


def same_players(variants: Sequence[tuple[str, Rules]]) -> None:
    """Refuse, before any game is played, variants with different numbers of players: their
    seats' figures cannot be set side by side."""
    from cardroom.cli.options import UsageError

    counts = {label: rules.to_dict()["players"] for label, rules in variants}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{label}: {n}" for label, n in counts.items())
        raise UsageError(f"the variants have different numbers of players ({shown}); compare variants with "
                         "the same number (analyze each run on its own)")


def run_sweep(
    game: str,
    rule: Sequence[str] | None,
    *,
    games: int,
    seed: int,
    decks: Sequence[str] | None,
    players: int | None,
    agents: str | None,
    workers: int,
    out: Path | None,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom sweep``: one run per value of one option, every other option fixed."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom.analysis.compare import sweep_report
    from cardroom.cli.options import UsageError, parse_rule_options, with_deck

    swept = [r for r in rule or [] if "," in r.partition("=")[2]]
    if len(swept) != 1:
        raise UsageError(
            "sweep takes one --rule KEY=V1,V2,... with two or more values, e.g. "
            f"--rule target=50,100,150; got {len(swept)}"
        )
    option, _, values_text = swept[0].partition("=")
    option = option.strip()
    values = [v.strip() for v in values_text.split(",") if v.strip()]
    if len(values) < 2 or len(set(values)) < len(values):
        raise UsageError(f"--rule {option}=...: give two or more different values, e.g. {option}=1,2")
    fixed = [r for r in rule or [] if r is not swept[0]]
    variants = []
    for value in values:
        # Every value is checked before any game is played: a bad one is refused as simulate refuses it.
        items = with_deck(game, [*fixed, f"{option}={value}"], list(decks or []))
        variants.append((f"{option}={value}", parse_rule_options(game, players, items)))
    if option != "players":  # a sweep of players compares the game's figures, not the seats'
        same_players(variants)
    runs = run_variants(
        variants, games=games, seed=seed, agents=agents, workers=workers, out=out, console=console
    )
    report = sweep_report(option, values, runs)
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def rules_items(text: str) -> list[str]:
    """A compare ``--rule`` value as ``KEY=VALUE`` items, as other commands' ``--rule`` take them:
    a TOML file of options (``target = 50``), or ``k=v,k=v`` (a deck's several files stay one
    item: ``deck=a.toml`` then ``b.toml`` after a comma join the deck, as ``--deck`` does)."""
    from cardroom.cli.options import UsageError

    path = Path(text)
    if text.endswith(".toml"):
        if not path.is_file():
            raise UsageError(
                f"--rule {text!r}: no such file (give a TOML file of options or KEY=VALUE,KEY=VALUE)"
            )
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise UsageError(f"--rule {text}: not a TOML file of options: {err}") from None
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in data.items()]
    items: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" not in part and items:
            items[-1] += f",{part}"
            continue
        if "=" not in part:
            raise UsageError(
                f"--rule takes KEY=VALUE,KEY=VALUE or a TOML file, e.g. --rule target=50; got {text!r}"
            )
        items.append(part)
    return items


def run_variants(
    variants: Sequence[tuple[str, Rules]],
    *,
    games: int,
    seed: int,
    agents: str | None,
    workers: int,
    out: Path | None,
    console: Console,
) -> list[Results]:
    """Each variant's games, on the same seeds for all (game i uses seed + i), written as results
    by the writer ``simulate --out`` uses, then read back. Without ``out``, in a temporary folder."""
    from cardroom.sim.results import Backend, simulate_to
    from cardroom.sim.tournament import Lineup, default_agents

    keep = out is not None
    if out is not None and out.exists() and any(out.iterdir()):
        from cardroom.cli.options import UsageError

        raise UsageError(f"{out} already holds files: name a new folder for the variants' results")
    root = out if out is not None else Path(tempfile.mkdtemp(prefix="cardroom-compare-"))
    err = make_console(stderr=True)
    try:
        runs = []
        for i, (label, rules) in enumerate(variants):
            folder = root / f"{i + 1}-{_slug(label)}"
            lineup = Lineup.parse(agents or default_agents(rules.game), rules.to_dict()["players"])
            backend = Backend(workers=workers)
            if err.is_terminal:
                with Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                    console=err,
                    transient=True,
                ) as bar:
                    task = bar.add_task(f"{label}: playing", total=games)
                    simulate_to(
                        folder,
                        rules,
                        games,
                        seed,
                        lineup,
                        backend=backend,
                        variant=label,
                        progress=partial(bar.advance, task),
                    )
            else:
                simulate_to(folder, rules, games, seed, lineup, backend=backend, variant=label)
            runs.append(read_results(folder))  # a deck file's text is read from beside the tables
        if keep:
            console.print(f"results of each variant written under {escape(str(root))}/", highlight=False)
        return runs
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def _shown(text: str) -> str:
    """A variant's rules or deck as its label shows it: a file by its name, not its path."""
    return Path(text).name if text.endswith(".toml") else text


def _slug(label: str) -> str:
    text = "".join(c if c.isalnum() or c in ".-" else "-" for c in label).strip("-")
    return text[:60] or "variant"


def run_restrict(
    game: str,
    *,
    games: int,
    seed: int,
    rule: Sequence[str] | None,
    decks: Sequence[str] | None,
    players: int | None,
    cards: Sequence[str] | None,
    actions: bool,
    html: Path | None,
    json_path: Path | None,
    csv: Path | None,
    console: Console,
) -> Report:
    """``cardroom restrict``: each card's worth from restricted play, ranked."""
    check_outputs(html=html, json_path=json_path, csv=csv)
    from cardroom.analysis.restrict import restricted_report
    from cardroom.cli.options import UsageError, parse_rule_options, with_deck

    items = with_deck(game, list(rule) if rule else None, list(decks) if decks else None)
    rules: Any = parse_rule_options(game, players, items)
    if not getattr(rules, "cards", None):
        from cardroom import games as registry

        takers = [registry.get(name).title for name in registry.names() if registry.get(name).decks]
        raise UsageError(f"restricted play needs a game of card designs ({', '.join(takers)}); "
                         f"{registry.get(game).title} has none")
    chosen = {k.upper() for k in cards} if cards else {c.key.upper() for c in rules.cards}
    optional = sum(c.optional for c in rules.cards if c.key.upper() in chosen) if actions else 0
    count = 1 + len(chosen) + optional
    err = make_console(stderr=True)
    if err.is_terminal:
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=err, transient=True) as bar:
            task = bar.add_task("restricted play", total=count)
            report = restricted_report(rules, games=games, seed=seed, cards=cards, actions=actions,
                                       progress=partial(bar.advance, task))
    else:
        report = restricted_report(rules, games=games, seed=seed, cards=cards, actions=actions)
    print_report(console, report)
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report
