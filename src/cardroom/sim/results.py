"""Results as data: a run of games written as tables (Parquet, or CSV) and a manifest.

Every game writes ``games`` (one row a game), ``deals`` (one row a deal: a Baha hand, a
BAEBAE round), ``cards`` (one row a card played) and ``hands`` (one row a card dealt); a game
adds its own columns to the last three and may add tables of its own, through its spec's
``results`` (a :class:`GameTables`), read from the finished game's log alone. docs/results.md
describes every column.

Tables are written in batches as the games come in (memory stays flat however many games are
played), each under a temporary name renamed into place when the run completes; the manifest
(``manifest.json``) is written last, so that a folder without one is visibly incomplete.
"""

from __future__ import annotations

import json
import socket
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, overload

from cardroom.engine import DeckRules, Rules
from cardroom.extras import needs_extra
from cardroom.games import GameSpec
from cardroom.games.contracts import Columns, Decisions, GameRows, GameTables
from cardroom.native import Engine
from cardroom.record import RecordError
from cardroom.sim.duplicate import rotations
from cardroom.sim.runner import Backend, chunk_size, ray_refusal, run_chunks
from cardroom.sim.tournament import (
    GameResult,
    Lineup,
    missing_folders,
    native_plays,
    play_state,
    remove_empty_folders,
    worker_count,
)

try:
    import pyarrow as pa
    import pyarrow.csv as pa_csv
    import pyarrow.parquet as pq
except ModuleNotFoundError as err:  # an install without the results extra: say which to add
    raise needs_extra(err, __name__) from None

__all__ = [
    "BATCH_GAMES",
    "Backend",
    "DECK_FILES",
    "Decisions",
    "GameRows",
    "GameTables",
    "MANIFEST",
    "SCHEMA_VERSION",
    "ResultsError",
    "check_folder",
    "read_manifest",
    "schemas",
    "simulate_to",
]

SCHEMA_VERSION = 1
"""Raised when a column changes meaning, is renamed or removed (docs/results.md says how)."""

MANIFEST = "manifest.json"
BATCH_GAMES = 1000
"""Games gathered before each write (one Parquet row group a table)."""

MAX_VARIANT = 100
"""The longest ``variant`` label: a name for a run's rules or deck, not a description."""

ARROW: Mapping[str, pa.DataType] = {
    "bool": pa.bool_(), "int8": pa.int8(), "int32": pa.int32(), "int64": pa.int64(),
    "float64": pa.float64(), "string": pa.string(), "list[int8]": pa.list_(pa.int8()),
    "list[int32]": pa.list_(pa.int32()), "list[string]": pa.list_(pa.string()),
}
"""The Arrow type of each column kind of :mod:`cardroom.games.contracts`."""


def arrow_fields(columns: Columns) -> list[tuple[str, pa.DataType]]:
    """Columns given by kind as Arrow's ``(name, type)`` pairs."""
    return [(name, ARROW[kind]) for name, kind in columns]


_KEY: Columns = (("game_index", "int64"), ("seed", "int64"))
_BASE: dict[str, Columns] = {
    "deals": (("deal", "int32"), ("points", "list[int32]"), ("totals", "list[int32]"),
              ("decisions", "int32")),
    "cards": (("deal", "int32"), ("turn", "int32"), ("seat", "int8"), ("card", "string"),
              ("design", "string")),
    "hands": (("deal", "int32"), ("seat", "int8"), ("card", "string"), ("design", "string")),
}
"""The columns every game's ``deals``, ``cards`` and ``hands`` begin with (after the key)."""


class ResultsError(RecordError):
    """A results folder that cannot be written (or read): the message says why and what to do."""


def game_tables(spec: GameSpec) -> GameTables:
    """The game's :class:`GameTables`; a game without them is told in words."""
    if spec.results is None:
        raise ResultsError(f"{spec.title} does not describe its results as tables yet")
    return spec.load("results")


def schemas(spec: GameSpec) -> dict[str, pa.Schema]:
    """Every table of ``spec``'s game with its columns, in the order they are written."""
    own = game_tables(spec)
    extras = [(key, pa.int32()) for key in spec.result_extras([])]
    key = arrow_fields(_KEY)
    out = {"games": pa.schema([
        ("game", pa.string()), *key, ("variant", pa.string()), ("rules", pa.string()), ("deck", pa.string()),
        ("players", pa.int8()), ("agents", pa.list_(pa.string())), ("totals", pa.list_(pa.int32())),
        ("winners", pa.list_(pa.int8())), ("places", pa.list_(pa.int8())), ("deals", pa.int32()),
        ("decisions", pa.int32()), ("guard_stopped", pa.bool_()), *extras,
    ])}
    for name, base in _BASE.items():
        out[name] = pa.schema(arrow_fields([*_KEY, *base, *own.columns.get(name, ())]))
    for name, columns in own.tables.items():
        out[name] = pa.schema(arrow_fields([*_KEY, *columns]))
    return out


def rules_json(rules: Rules) -> str:
    """The rules as the ``games`` table keeps them: a deck's file texts left out (the deck's
    digest stands for them)."""
    options = rules.to_dict()
    options.pop("deck_files", None)
    return json.dumps(options, sort_keys=True)


def _deck_digest(rules: Rules) -> str | None:
    return str(rules.deck_record()["digest"]) if isinstance(rules, DeckRules) else None


@dataclass
class Chunk:
    """Games played by one worker: their summaries (for the printed table) and their rows."""

    results: list[GameResult]
    tables: dict[str, pa.Table]


@dataclass(frozen=True)
class Job:
    """What a worker needs to play a chunk of games and turn them into rows: the line-ups
    (one, or each rotation of duplicate deals), the games as (index, seed, line-up), and the
    native batch module that plays them (its name; ``None``: they are played a game at a time,
    on ``engine``, the run's)."""

    rules: Rules
    lineups: tuple[Lineup, ...]
    variant: str
    records: Path | None
    games: tuple[tuple[int, int, int], ...] = field(default=())
    native: str | None = None
    engine: Engine = field(default_factory=Engine.chosen)


def play_chunk(job: Job) -> Chunk:
    """Play ``job``'s games and read their rows (in a worker, or here)."""
    rules = job.rules
    shapes = schemas(rules.spec)
    fixed = {"game": rules.game, "variant": job.variant, "rules": rules_json(rules),
             "deck": _deck_digest(rules)}
    if job.native is not None:
        from cardroom.sim.native_rows import play_native

        return Chunk(*play_native(job.native, rules, job.lineups, job.games, shapes, fixed))
    own = game_tables(rules.spec)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in shapes}
    results = []
    for index, seed, seats in job.games:
        lineup = job.lineups[seats]
        marks: list[int] = []
        state, result = play_state(rules, seed, lineup, index=index, records=job.records, marks=marks,
                                   engine=job.engine)
        found = own.rows(state.log, rules, Decisions(marks))
        key = {"game_index": index, "seed": seed}
        rows["games"].append({
            **fixed, **key, "agents": lineup.names(), "players": len(result.totals), "totals": result.totals,
            "winners": result.winners, "places": found.places, "deals": result.deals,
            "decisions": result.actions, "guard_stopped": result.guard_stopped, **result.extras,
        })
        for name, table_rows in found.tables.items():
            rows[name].extend({**key, **row} for row in table_rows)
        results.append(result)
    return Chunk(results, {name: pa.Table.from_pylist(rows[name], schema=shapes[name]) for name in shapes})


class Kept(Sequence[GameResult]):
    """The games' summaries the printed table needs, packed as ints: about 0.2 KB a game
    rather than a kilobyte of Python objects, so that a long run's parent stays small."""

    def __init__(self, extras: Sequence[str]) -> None:
        self.extras = tuple(extras)
        self.ints = array("q")
        self.starts = array("q")

    def append(self, r: GameResult) -> None:
        self.starts.append(len(self.ints))
        self.ints.extend([r.index, r.seed, r.actions, r.guard_stopped, len(r.totals), len(r.winners), r.deals,
                          *r.totals, *r.winners, *(p for deal in r.deal_points for p in deal),
                          *(r.extras.get(key, 0) for key in self.extras)])

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, i: int) -> GameResult: ...

    @overload
    def __getitem__(self, i: slice) -> list[GameResult]: ...

    def __getitem__(self, i: int | slice) -> GameResult | list[GameResult]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        at = self.starts[i]  # an IndexError when out of range, as a list's
        end = self.starts[i + 1] if i + 1 < len(self) else len(self.ints)
        index, seed, actions, guard, players, won, deals, *rest = self.ints[at:end]
        points = rest[players + won:players + won + deals * players]
        return GameResult(
            index=index, seed=seed, totals=rest[:players], winners=rest[players:players + won], deals=deals,
            deal_points=[points[d * players:(d + 1) * players] for d in range(deals)],
            extras=dict(zip(self.extras, rest[players + won + deals * players:], strict=True)),
            actions=actions, guard_stopped=bool(guard),
        )


# -- the folder --------------------------------------------------------------------------

def check_folder(folder: Path, force: bool) -> None:
    """Refuse a folder that already holds files, unless ``force`` (then clear its results)."""
    if folder.exists() and not folder.is_dir():
        raise ResultsError(f"{folder} is a file, not a folder: give a folder for the results")
    if not folder.exists() or not any(folder.iterdir()):
        return
    if not force:
        held = ", ".join(sorted(p.name for p in folder.iterdir())[:4])
        raise ResultsError(f"{folder} already holds files ({held}...): give --force to replace the "
                           "results in it, or name a new folder")
    # the manifest goes first, so that the folder reads as incomplete until the new run ends
    (folder / MANIFEST).unlink(missing_ok=True)
    for path in folder.iterdir():
        ours = path.suffix in (".parquet", ".csv", ".part") or path.match(DECK_FILES)
        if ours and path.is_file():
            path.unlink()


DECK_FILES = "deck-*.toml"
"""The deck files' texts a run played, kept beside its tables (``deck-1.toml``...), so that its
analysis knows the designs; the manifest's ``deck_files`` names them, its ``deck`` has their
digest."""


def _write_deck_files(folder: Path, rules: Rules) -> list[str]:
    """The run's deck files' texts, exactly as they were read, written beside the tables; their
    names (none for a run of built-in decks only)."""
    names = []
    for i, text in enumerate(rules.to_dict().get("deck_files") or (), 1):
        name = DECK_FILES.replace("*", str(i))
        temp = folder / f".{name}.part"
        temp.write_text(str(text), encoding="utf-8")
        temp.replace(folder / name)
        names.append(name)
    return names


class _Writer:
    """Tables written in batches under temporary names; :meth:`finish` renames them.

    A batch is written on a thread of its own while the next games are played (Arrow writes
    without holding the GIL, and so does the native engine while it plays); one batch at most
    waits to be written, so memory stays flat."""

    def __init__(self, folder: Path, shapes: Mapping[str, pa.Schema], csv: bool) -> None:
        self.folder = folder
        self.csv = csv
        self.ext = "csv" if csv else "parquet"
        self.rows = dict.fromkeys(shapes, 0)
        self.writers: dict[str, pq.ParquetWriter | pa_csv.CSVWriter] = {}
        for name, schema in shapes.items():
            temp = self._temp(name)
            if csv:
                self.writers[name] = pa_csv.CSVWriter(temp, _csv_schema(schema))
            else:
                self.writers[name] = pq.ParquetWriter(temp, schema, compression="zstd")
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardroom-tables")
        self.pending: Future[None] | None = None

    def _temp(self, name: str) -> Path:
        return self.folder / f".{name}.{self.ext}.part"

    def write(self, tables: Mapping[str, pa.Table]) -> None:
        """Hand a batch to the writing thread, once the batch before it is written (its failure
        is raised here)."""
        self._wait()
        for name, table in tables.items():
            self.rows[name] += table.num_rows
        self.pending = self.thread.submit(self._write, tables)

    def _write(self, tables: Mapping[str, pa.Table]) -> None:
        for name, table in tables.items():
            if self.csv:
                table = _csv_table(table)
            self.writers[name].write_table(table)

    def _wait(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.result()

    def finish(self) -> dict[str, dict[str, Any]]:
        self._wait()
        self.thread.shutdown()
        for writer in self.writers.values():
            writer.close()
        files = {}
        for name in self.writers:
            final = self.folder / f"{name}.{self.ext}"
            self._temp(name).replace(final)
            files[name] = {"file": final.name, "rows": self.rows[name]}
        return files

    def abandon(self) -> None:
        with suppress(Exception):  # the run's own failure is the one to report
            self._wait()
        self.thread.shutdown()
        for name, writer in self.writers.items():
            try:
                writer.close()
            finally:
                self._temp(name).unlink(missing_ok=True)


def _csv_schema(schema: pa.Schema) -> pa.Schema:
    """CSV has no lists: a list column is written as its JSON text (``[3, 40, 11, 6]``)."""
    return pa.schema([(f.name, pa.string() if pa.types.is_list(f.type) else f.type) for f in schema])


def _csv_table(table: pa.Table) -> pa.Table:
    columns = []
    for column in table.columns:
        if pa.types.is_list(column.type):
            texts = [None if v is None else json.dumps(v) for v in column.to_pylist()]
            columns.append(pa.array(texts, pa.string()))
        else:
            columns.append(column)
    return pa.Table.from_arrays(columns, names=table.column_names)


# -- running -----------------------------------------------------------------------------

def _jobs(rules: Rules, lineups: tuple[Lineup, ...], variant: str, records: Path | None, deals: int,
          seed: int, size: int, native: str | None, engine: Engine) -> Iterator[Job]:
    """Game ``d * len(lineups) + r`` is deal ``d`` (seed ``seed + d``) under line-up ``r``."""
    rotations = len(lineups)
    games = [(d * rotations + r, seed + d, r) for d in range(deals) for r in range(rotations)]
    for start in range(0, len(games), size):
        yield Job(rules, lineups, variant, records, tuple(games[start:start + size]), native, engine)


NATIVE_CHUNK = 500
"""The most games in a chunk played natively (a chunk of the Python path holds at most 50):
a native game takes well under a millisecond, and a chunk's tables are built column by column."""


def _native_module(engine: Engine, rules: Rules, lineups: Sequence[Lineup], records: Path | None, seed: int,
                   games: int) -> str | None:
    """The native batch module that plays these games with their rows (its ``table_games``), or
    ``None`` for the Python path: records (a game's log) need the Python engine's states."""
    batch = native_plays(engine, rules, lineups, seed, seed + games)
    if records is not None or batch is None or not hasattr(batch, "table_games"):
        return None
    return rules.spec.native  # its module's name: a worker or a Ray task imports it


def ray_address_answers(address: str, timeout: float = 5.0) -> None:
    """Check that a Ray cluster at ``HOST:PORT`` answers and would take this process's tasks (its
    token authentication, :func:`cardroom.sim.runner.ray_refusal`) before Ray is asked to join
    it (Ray itself would retry for a long time): a :class:`ResultsError` in words if not."""
    host, _, port = address.rpartition(":")
    host = host.removeprefix("ray://")
    if not host or not port.isdigit():
        raise ResultsError(f"--ray takes a cluster's address HOST:PORT (e.g. 10.0.0.5:6379), not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as err:
        raise ResultsError(
            f"no Ray cluster answers at {address} ({err.strerror or err}): start one there with "
            "`ray start --head`, or give --ray with no address to run a local one"
        ) from None
    refusal = None if address.startswith("ray://") else ray_refusal(address)  # ray:// is Ray Client's
    if refusal is not None:
        raise ResultsError(refusal)


def simulate_to(
    folder: Path,
    rules: Rules,
    games: int,
    seed: int,
    lineup: Lineup,
    *,
    backend: Backend | None = None,
    variant: str = "",
    csv: bool = False,
    records: Path | None = None,
    force: bool = False,
    batch_games: int = BATCH_GAMES,
    progress: Callable[[int], None] | None = None,
    duplicate: bool = False,
    engine: Engine | None = None,
) -> Kept:
    """Play ``games`` games (game ``i`` uses seed ``seed + i``) and write their tables into
    ``folder``; returns the games' summaries, in game order.

    With ``duplicate``, ``games`` counts deals, each played once per rotation of the line-up
    (:func:`cardroom.sim.duplicate.rotations`): game ``d * rotations + r`` is deal ``d`` under
    rotation ``r`` (the numbering of ``run_duplicate``'s records), its ``agents`` by seat.

    The tables do not depend on the backend or the number of workers. The manifest is written
    last; a run that fails leaves no manifest and no table under its final name. Every game
    runs on ``engine`` (by default the one chosen now, read once for the run).
    """
    if batch_games < 1:
        raise ResultsError(f"a batch holds at least one game, not {batch_games}")
    if len(variant) > MAX_VARIANT or not variant.isprintable():
        raise ResultsError(f"--variant takes a label of up to {MAX_VARIANT} printable characters, "
                           f"not {variant[:MAX_VARIANT]!r}...")
    backend = backend or Backend()
    check_folder(folder, force)
    lineups = tuple(rotations(lineup)) if duplicate else (lineup,)
    workers = worker_count(backend.workers, games * len(lineups))
    if backend.ray and backend.address is not None:
        ray_address_answers(backend.address)  # before anything is written
    shapes = schemas(rules.spec)
    made = missing_folders(folder) + ([] if records is None else missing_folders(records))
    folder.mkdir(parents=True, exist_ok=True)
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    try:
        return _simulate_into(folder, rules, games, seed, lineup, lineups, backend, variant, csv, records,
                              batch_games, progress, duplicate, workers, shapes, engine or Engine.chosen())
    except BaseException:
        remove_empty_folders(made)  # a run stopped or failed leaves no empty folder of its own making
        raise


def _simulate_into(folder: Path, rules: Rules, games: int, seed: int, lineup: Lineup,
                   lineups: tuple[Lineup, ...], backend: Backend, variant: str, csv: bool,
                   records: Path | None, batch_games: int, progress: Callable[[int], None] | None,
                   duplicate: bool, workers: int, shapes: dict[str, pa.Schema], engine: Engine) -> Kept:
    native = _native_module(engine, rules, lineups, records, seed, games)
    size = chunk_size(games * len(lineups), workers, most=NATIVE_CHUNK if native else 50)
    jobs = _jobs(rules, lineups, variant, records, games, seed, size, native, engine)
    chunks = run_chunks(play_chunk, jobs, workers, ray=backend.ray, address=backend.address,
                        threads=native is not None)
    writer = _Writer(folder, shapes, csv)
    results = Kept(list(rules.spec.result_extras([])))
    try:
        batch: list[Chunk] = []
        waiting = 0
        for chunk in chunks:
            for result in chunk.results:
                results.append(result)
            batch.append(chunk)
            waiting += len(chunk.results)
            if progress:
                progress(len(chunk.results))
            if waiting >= batch_games:
                writer.write(_joined(batch))
                batch, waiting = [], 0
        if batch:
            writer.write(_joined(batch))
        files = writer.finish()
        deck_files = _write_deck_files(folder, rules)
    except BaseException:
        chunks.close()
        writer.abandon()
        raise
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "game": rules.game,
        "variant": variant,
        "rules": json.loads(rules_json(rules)),
        "deck": rules.deck_record() if isinstance(rules, DeckRules) else None,
        "deck_files": deck_files,
        "agents": lineup.names(),
        "seed": seed,
        "games": games * len(lineups),
        **({"duplicate": {"deals": games, "rotations": [list(x.specs) for x in lineups]}}
           if duplicate else {}),
        "format": "csv" if csv else "parquet",
        "tables": files,
        "records": None if records is None else str(records),
        "backend": {"ray": backend.ray, "address": backend.address, "workers": workers},
        "native_batches": native is not None,
        "cardroom": version("cardroom"),
    }
    temp = folder / f".{MANIFEST}.part"
    temp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    temp.replace(folder / MANIFEST)
    return results


def read_manifest(folder: Path, game: str | None = None) -> dict[str, Any]:
    """The manifest of a complete results folder, checked: a folder without one (a run that
    stopped or is still going), another schema version or (given ``game``) another game is a
    :class:`ResultsError` that says so."""
    path = folder / MANIFEST
    if not folder.is_dir():
        raise ResultsError(f"{folder} is not a folder of results (simulate --out writes one)")
    if not path.is_file():
        raise ResultsError(f"{folder} holds no {MANIFEST}: its run did not complete (or is still going); "
                           "simulate --out writes the manifest last")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ResultsError(f"{path} cannot be read as JSON: {err}") from None
    if not isinstance(manifest, dict) or "schema_version" not in manifest or "game" not in manifest:
        raise ResultsError(f"{path} is not a results manifest (no schema_version or game)")
    if manifest["schema_version"] != SCHEMA_VERSION:
        raise ResultsError(f"{folder} holds results of schema version {manifest['schema_version']!r}; this "
                           f"Cardroom reads version {SCHEMA_VERSION}: simulate them again")
    if game is not None and manifest["game"] != game:
        raise ResultsError(f"{folder} holds results of {manifest['game']!r}, not {game!r}")
    for name, entry in manifest.get("tables", {}).items():
        if not (folder / str(entry.get("file", ""))).is_file():
            raise ResultsError(f"{folder} lacks its {name} table ({entry.get('file')}), which its "
                               "manifest names")
    return manifest


def _joined(chunks: Sequence[Chunk]) -> dict[str, pa.Table]:
    return {name: pa.concat_tables([c.tables[name] for c in chunks]) for name in chunks[0].tables}
