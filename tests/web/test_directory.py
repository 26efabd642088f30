"""The table manager is one class; where each table lives is the directory it is given
(cardroom.web.directory): one server's own, or a cluster node's in Redis."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

from web_support import in_a_loop

import cardroom.web
from cardroom.web.app import create_app
from cardroom.web.directory import LocalDirectory, TableDirectory
from cardroom.web.protocol import CreateBody
from cardroom.web.store import Store
from cardroom.web.tables import TableManager


class Recording(LocalDirectory):
    """A directory that refuses the first ids asked for, and knows of another server's table."""

    def __init__(self, refuse: int) -> None:
        super().__init__()
        self.refuse = refuse
        self.claimed: list[tuple[str, bool]] = []

    def claim(self, table_id: str) -> bool:
        given = len(self.claimed) >= self.refuse
        self.claimed.append((table_id, given))
        return given

    def unfinished(self, table_id: str) -> bool:
        return table_id == "elsewhere"

    def lobby(self) -> dict[str, dict[str, Any]] | None:
        return {"elsewhere": {"id": "elsewhere", "status": "running", "created": 1.0, "private": False}}


def test_no_module_of_the_web_makes_a_table_manager_of_its_own() -> None:
    """The cluster is a directory given to the one table manager, not a subclass of it."""
    for module in pkgutil.walk_packages(cardroom.web.__path__, "cardroom.web."):
        if ".migrations" not in module.name:
            importlib.import_module(module.name)
    assert TableManager.__subclasses__() == []


def test_the_manager_asks_its_directory(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'cardroom.db'}")
    directory = Recording(refuse=2)
    manager = TableManager(store, tmp_path, 0.0, 1, directory)
    try:
        assert manager.directory is directory and manager.leases.node == "local"
        table, _seat, _token = manager.create(CreateBody(game="baha", players=2, seats=["human", "human"]))
        # the ids the directory refused are not used; the one it gave is the table's
        assert [given for _, given in directory.claimed] == [False, False, True]
        assert table.id == directory.claimed[-1][0] and store.table(table.id) is not None
        assert manager.unfinished("elsewhere") and not manager.unfinished("nowhere")
        assert [s["id"] for s in manager.listing(None, 10)] == [table.id, "elsewhere"]
        manager.address = "http://127.0.0.1:1"
        assert directory.address == "http://127.0.0.1:1"
    finally:
        in_a_loop(manager.stop)
        store.close()


def test_one_server_has_the_local_directory(tmp_path: Path) -> None:
    app = create_app(None, tmp_path)
    try:
        directory: TableDirectory = app.state.manager.directory
        assert type(app.state.manager) is TableManager and isinstance(directory, LocalDirectory)
        assert app.state.cluster is None
    finally:
        app.state.store.close()


def test_the_server_plays_on_the_engine_chosen_when_it_started(tmp_path: Path) -> None:
    """The engine is read once, when the server starts: a choice changed later (another
    front's ``use_engine`` in the same process) changes neither its new games nor its replays."""
    from cardroom import native
    from cardroom.games.baha.state import BahaState
    from cardroom.record import rebuild

    native.use_engine("python")
    store = Store(f"sqlite:///{tmp_path / 'cardroom.db'}")
    manager = TableManager(store, tmp_path, 0.0)
    try:
        native.use_engine("native")
        assert manager.engine == native.Engine("python")
        table, _seat, _token = manager.create(CreateBody(game="baha", players=2, seats=["human", "human"]))

        async def deal() -> object:
            manager._begin(table)
            await manager.stop()
            return table.state

        assert type(in_a_loop(deal)) is BahaState
        # a table loaded again (after a restart or a takeover) is rebuilt on the same engine
        assert type(rebuild(table.rules, table.data.seed, [], engine=manager.engine)) is BahaState
        assert type(rebuild(table.rules, table.data.seed, [])) is not BahaState  # the choice read now
    finally:
        native.use_engine(None)
        store.close()
