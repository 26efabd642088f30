"""A report as data: sections of tables and plots that the terminal, HTML, JSON and CSV show alike.

A table's cells are plain values, or :class:`~cardroom.sim.stats.Estimate`-like dicts
(``value``, ``low``, ``high``) for figures with an interval: JSON keeps them as objects, CSV
spreads them over ``name``, ``name_low``, ``name_high`` columns, people read ``v [low, high]``.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardroom.sim.results import ResultsError

__all__ = [
    "Column",
    "Plot",
    "Report",
    "Section",
    "Table",
    "cell_text",
    "check_csv_folder",
    "check_output_file",
    "write_atomic",
    "write_csv_folder",
    "write_json",
]


@dataclass(frozen=True)
class Column:
    """A table's column: its key in JSON and CSV, its heading, and how its cells read."""

    key: str
    heading: str
    digits: int = 2
    """Decimals shown for numbers."""
    terminal: bool = True
    """Whether the terminal shows it (a narrow screen gets the headline columns; files get all)."""


@dataclass
class Table:
    """Rows of figures; ``flag`` names a boolean column whose true rows are highlighted."""

    key: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    note: str = ""
    flag: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "note": self.note, "rows": [_json_row(r) for r in self.rows]}


@dataclass
class Plot:
    """A plot as data (drawn by the HTML report): ``hist`` of ``values`` with ``bins``;
    ``bar`` of ``labels`` against ``values`` with optional ``low``/``high``; ``line`` of
    ``series`` (name -> values with ``low``/``high``) along ``labels``."""

    key: str
    title: str
    kind: str
    data: dict[str, Any]
    xlabel: str = ""
    ylabel: str = ""


@dataclass
class Section:
    """A part of the report: what its figures mean (``about``), then tables and plots."""

    key: str
    title: str
    about: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    plots: list[Plot] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    """Headline figures, JSON-ready, by name."""


@dataclass
class Report:
    """What a reader needs to trust the figures (``facts``, ``warnings``), then the sections."""

    title: str
    facts: list[tuple[str, str]]
    warnings: list[str]
    sections: list[Section]
    verdict: list[str] = field(default_factory=list)
    """The conclusion in plain words, read first: what changed most, for whom, and whether it
    is more than noise."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "verdict": self.verdict,
            "facts": dict(self.facts),
            "warnings": self.warnings,
            "sections": {
                s.key: {
                    "title": s.title,
                    "about": s.about,
                    "figures": _json_value(s.figures),
                    "tables": {t.key: t.to_dict() for t in s.tables},
                }
                for s in self.sections
            },
        }

    def tables(self) -> Iterator[tuple[str, Table]]:
        """Every table with a file name unique in the report (``section_table``)."""
        for section in self.sections:
            for table in section.tables:
                yield f"{section.key}_{table.key}", table


def _json_value(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {str(k): _json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    return value


def _json_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _json_value(v) for k, v in row.items()}


def _number(value: Any, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def cell_text(value: Any, digits: int = 2) -> str:
    """A cell as people read it: an estimate as ``value [low, high]``."""
    if isinstance(value, dict) and "value" in value:
        text = _number(value["value"], digits)
        low, high = value.get("low"), value.get("high")
        if low is None or high is None or (isinstance(low, float) and math.isnan(low)):
            return text
        return f"{text} [{_number(low, digits)}, {_number(high, digits)}]"
    if isinstance(value, list):
        return ", ".join(cell_text(v, digits) for v in value)
    return _number(value, digits)


def _csv_cells(table: Table) -> tuple[list[str], list[list[Any]]]:
    keys: list[str] = []
    for column in table.columns:
        sample = next((r[column.key] for r in table.rows if r.get(column.key) is not None), None)
        if isinstance(sample, dict) and "value" in sample:
            keys += [column.key, f"{column.key}_low", f"{column.key}_high"]
        else:
            keys.append(column.key)
    rows = []
    for row in table.rows:
        cells: list[Any] = []
        for column in table.columns:
            value = _json_value(row.get(column.key))
            sample = next((r[column.key] for r in table.rows if r.get(column.key) is not None), None)
            if isinstance(sample, dict) and "value" in sample:
                value = value or {}
                cells += [value.get("value"), value.get("low"), value.get("high")]
            elif isinstance(value, list):
                cells.append(" ".join(map(str, value)))
            else:
                cells.append(value)
        rows.append(cells)
    return keys, rows


@contextmanager
def write_atomic(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path``, renamed onto it only when the block ends without error,
    so a report cut short never looks complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # A name of our own rather than mkstemp's, so the file gets the usual permissions (umask).
    temporary = path.parent / f".{path.name}.{uuid.uuid4().hex[:12]}.tmp"
    try:
        yield Path(temporary)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def write_json(report: Report, path: Path) -> None:
    with write_atomic(path) as temporary:
        temporary.write_text(json.dumps(report.to_dict(), indent=2, allow_nan=False) + "\n", encoding="utf-8")


def check_csv_folder(folder: Path) -> None:
    """Refuse a folder for CSV tables that already holds files, or one that cannot be written
    (checked before any work)."""
    if folder.is_file() or (folder.exists() and any(folder.iterdir())):
        raise ResultsError(f"--csv {folder} already holds files; give a new folder for the CSV tables")
    _probe(folder, "--csv")


def check_output_file(path: Path, option: str) -> None:
    """Refuse, before any work, a file the report cannot be written to: a folder, or a place
    where no file can be made (no such place, no permission); the message names ``option``."""
    if path.is_dir():
        raise ResultsError(f"{option} {path} is a folder: give a file name for it")
    _probe(path, option)


def _probe(path: Path, option: str) -> None:
    """Write and remove a file beside ``path`` (its missing parent folders made, then removed),
    as the writers will: the only sure test that the place can be written."""
    made: list[Path] = []
    try:
        for folder in reversed([p for p in (path.parent, *path.parent.parents) if not p.exists()]):
            folder.mkdir()
            made.append(folder)
        probe = path.parent / f".{path.name}.{uuid.uuid4().hex[:12]}.probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise ResultsError(f"{option} {path}: cannot write there ({err.strerror or err})") from None
    finally:
        for folder in reversed(made):
            with suppress(OSError):
                folder.rmdir()


def write_csv_folder(report: Report, folder: Path) -> list[Path]:
    """One CSV per table into ``folder``, written in a temporary folder renamed into place."""
    check_csv_folder(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    temporary = folder.parent / f".{folder.name}.{uuid.uuid4().hex[:12]}.tmp"
    temporary.mkdir()
    try:
        for name, table in report.tables():
            keys, rows = _csv_cells(table)
            with (temporary / f"{name}.csv").open("w", newline="", encoding="utf-8") as out:
                writer = csv.writer(out)
                writer.writerow(keys)
                writer.writerows(rows)
        if folder.exists():
            folder.rmdir()
        os.replace(temporary, folder)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary)
    return sorted(folder.iterdir())
