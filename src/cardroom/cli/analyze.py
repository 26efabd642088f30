"""``cardroom analyze``: the designer's figures of a results folder on the terminal, and the same
figures as a self-contained HTML page, JSON and CSV; how every designer's command prints and
saves its report (:func:`print_report`, :func:`save_report`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from cardroom.cli.base import guard
from cardroom.cli.consoles import make_console
from cardroom.cli.params import CsvOpt, HtmlOpt, JsonFileOpt

if TYPE_CHECKING:  # the results and analysis extras (pyarrow, polars) load when a command runs, not at start
    from cardroom.analysis.folder import Folder
    from cardroom.analysis.report import Report, Table

__all__ = ["analyze", "check_outputs", "print_report", "run_analyze", "save_report"]

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
    from cardroom.analysis.report import cell_text

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
    from cardroom.analysis.report import check_csv_folder, check_output_file

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
    from cardroom.analysis.report import write_csv_folder, write_json

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
    from cardroom.cli.options import UsageError
    from cardroom.engine import DeckRules
    from cardroom.sim.report import deck_words

    spec = results.spec
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
    from cardroom.analysis.folder import open_folder

    report = build_report(_with_decks(open_folder(folder), decks))
    print_report(console, report, skip=("distributions",))
    save_report(console, report, html=html, json_path=json_path, csv=csv)
    return report


def analyze(
    folder: Annotated[Path, typer.Argument(help="A results folder (simulate --out).", metavar="FOLDER")],
    html: HtmlOpt = None,
    json_file: JsonFileOpt = None,
    csv: CsvOpt = None,
    deck: Annotated[
        list[str] | None,
        typer.Option("--deck", "-d", help="The deck file the run played, when it was not a project deck "
                     "(results name deck files by digest only).", metavar="DECK"),
    ] = None,
) -> None:
    """Figures of a results folder: seat advantage, distributions, balance, lead changes and the
    game's own (per-card impact...), on the terminal and as HTML, JSON or CSV."""
    with guard():
        run_analyze(folder, html=html, json_path=json_file, csv=csv, decks=deck, console=make_console())
