"""Dagster's event log for the embedded instance: one SQLite file, connections kept open.

A partition per source version means two materialization events per file. Dagster's
default SQLite event log writes each of them to a per-run file and again to an index file,
opening a new engine and connection for every write, with a rollback journal: 10-20 ms per
event, so 10k files spent about five minutes in bookkeeping alone (docs/PIPELINE.md).

This storage is Dagster's consolidated SQLite event log (one ``event_log.db``, WAL
journal, which Dagster sets up itself) with one engine per process whose connections stay
open and commit with ``synchronous=NORMAL`` (safe in WAL mode: a power cut may lose the
last commits, never corrupt the file). Each process (``claims run``, the webserver, the
daemon, a run worker) opens its own engine; SQLite's WAL lets them read while one writes.
The UI's live event stream watches the WAL file as well as the database file, since in
WAL mode commits reach the database file only at checkpoints.

It is configured in the ``dagster.yaml`` that ``pipeline.instance.dagster_home`` writes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dagster._core.storage.event_log import ConsolidatedSqliteEventLogStorage
from sqlalchemy import Connection, Engine, create_engine, event
from watchdog.events import FileSystemEvent, PatternMatchingEventHandler
from watchdog.observers import Observer

BUSY_TIMEOUT_SECONDS = 30


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class PooledSqliteEventLogStorage(ConsolidatedSqliteEventLogStorage):
    """``ConsolidatedSqliteEventLogStorage`` that keeps its connections open per process."""

    def __init__(self, base_dir: str, inst_data: Any = None) -> None:
        self._engines: dict[int, Engine] = {}
        self._tables_seen: set[str] = set()
        super().__init__(base_dir, inst_data=inst_data)

    def _engine(self) -> Engine:
        # keyed by process: a forked child must not share its parent's open connections
        pid = os.getpid()
        engine = self._engines.get(pid)
        if engine is None:
            engine = create_engine(
                self._conn_string, connect_args={"timeout": BUSY_TIMEOUT_SECONDS}
            )
            event.listen(engine, "connect", _pragmas)
            self._engines[pid] = engine
        return engine

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        with self._engine().connect() as conn, conn.begin():
            yield conn

    def has_table(self, table_name: str) -> bool:
        # Asked for every asset event (a fifth of its cost, with a new engine each time).
        # Tables are only ever added (by migrations), so a table once seen stays.
        if table_name in self._tables_seen:
            return True
        engine = self._engine()
        with engine.connect() as conn:
            found = bool(engine.dialect.has_table(conn, table_name))
        if found:
            self._tables_seen.add(table_name)
        return found

    def watch(self, run_id: str, cursor: Any, callback: Any) -> None:
        if not self._obs:
            self._obs = Observer()
            self._obs.start()
            self._obs.schedule(_DatabaseOrWalChanged(self), self._base_dir, recursive=True)
        self._watchers[run_id][callback] = cursor

    def dispose(self) -> None:
        super().dispose()
        engine = self._engines.pop(os.getpid(), None)
        if engine is not None:
            engine.dispose()


class _DatabaseOrWalChanged(PatternMatchingEventHandler):
    def __init__(self, storage: PooledSqliteEventLogStorage) -> None:
        path = storage.get_db_path()
        super().__init__(patterns=[path, f"{path}-wal"])
        self._storage = storage

    def on_modified(self, event: FileSystemEvent) -> None:
        self._storage.on_modified()
