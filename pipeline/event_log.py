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

``PooledPostgresEventLogStorage`` does the same for dagster-postgres's event log, which
connects anew for every event (``NullPool``) and asks the server whether a table exists for
every asset event: about 19 ms per event. It keeps one small pool per process and remembers
the tables it has seen. A deployment names it in ``dagster.yaml`` as the
``event_log_storage`` (``pipeline/dagster_postgres.yaml``), which means every
Dagster process (webserver, daemon, run workers) imports this package.

Both override private hooks of Dagster's storages (``_connect``); this module is the only
one that does, and ``tests/test_pipeline_event_log.py`` fails loudly when an upgrade
moves them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from dagster import DagsterEventType
from dagster._core.storage.event_log import ConsolidatedSqliteEventLogStorage
from dagster._core.storage.event_log.schema import SqlEventLogStorageTable
from dagster._core.storage.event_log.sqlite import consolidated_sqlite_event_log
from dagster._core.storage.sql import check_alembic_revision, get_alembic_config, stamp_alembic_rev
from dagster_postgres import PostgresEventLogStorage
from dagster_postgres.utils import create_pg_engine, pg_url_from_config
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

    def _init_db(self) -> None:
        # Dagster (1.13) creates the tables, then stamps the head revision on a connection
        # it never commits, which SQLAlchemy 2 rolls back: the new file had no revision, so
        # `dagster instance migrate` replayed every migration on it and nothing could tell
        # its schema's version. Runs once, when the file is created (an existing file is
        # opened without any check), so the stamp is made again here and committed.
        super()._init_db()
        with self._connect() as conn:
            revision, _head = check_alembic_revision(_alembic_config(), conn)
            if revision is None:
                stamp_alembic_rev(_alembic_config(), conn)

    def alembic_version(self) -> Any:
        """The file's (revision, Dagster's head), as the run and schedule storages report
        theirs (Dagster's consolidated event log reports nothing)."""
        with self._connect() as conn:
            return check_alembic_revision(_alembic_config(), conn)

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

    def store_event_batch(self, events: Sequence[Any]) -> None:
        """A step's partition materializations (``DAGSTER_EVENT_BATCH_SIZE``, set by the
        runner) in one transaction, instead of two per event."""
        if len(events) < 2 or not all(_batchable(event) for event in events):
            super().store_event_batch(events)
            return
        rows = [self._event_to_row(event) for event in events]
        insert = SqlEventLogStorageTable.insert().returning(
            SqlEventLogStorageTable.c.id, sort_by_parameter_order=True
        )
        with self._connect() as conn:
            ids = [int(event_id) for event_id in conn.execute(insert, rows).scalars()]
            self._store_asset_event_tags(conn, list(events), ids)
            # The asset index row keeps the latest event of each asset: writing it for the
            # last of each is what writing it for every one in turn ends with (and was half
            # of the cost). dagster-postgres's batch write does the same.
            latest = {
                event.dagster_event.asset_key: (event, event_id)
                for event, event_id in zip(events, ids, strict=True)
            }
            for event, event_id in latest.values():
                self._store_asset_event(conn, event, event_id)

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


def _alembic_config() -> Any:
    # the config Dagster's consolidated event log stamps and upgrades with (cached by Dagster)
    return get_alembic_config(consolidated_sqlite_event_log.__file__)


def _batchable(event: Any) -> bool:
    """An asset materialization or observation: what ``store_event`` writes to the event
    table and the asset index and nothing else."""
    return bool(
        event.is_dagster_event
        and event.dagster_event_type in _BATCHABLE
        and event.dagster_event.asset_key
    )


_BATCHABLE = {DagsterEventType.ASSET_MATERIALIZATION, DagsterEventType.ASSET_OBSERVATION}


class _DatabaseOrWalChanged(PatternMatchingEventHandler):
    def __init__(self, storage: PooledSqliteEventLogStorage) -> None:
        path = storage.get_db_path()
        super().__init__(patterns=[path, f"{path}-wal"])
        self._storage = storage

    def on_modified(self, event: FileSystemEvent) -> None:
        self._storage.on_modified()


class PooledPostgresEventLogStorage(PostgresEventLogStorage):
    """``PostgresEventLogStorage`` that keeps a small pool of connections per process."""

    # A run writes from one thread; the webserver's readers may take a few more.
    POOL_SIZE = 2
    MAX_OVERFLOW = 8
    POOL_RECYCLE_SECONDS = 3600

    def __init__(
        self,
        postgres_url: str,
        should_autocreate_tables: bool = True,
        inst_data: Any = None,
    ) -> None:
        self._pooled: dict[int, Engine] = {}
        self._tables_seen: set[str] = set()
        super().__init__(
            postgres_url, should_autocreate_tables=should_autocreate_tables, inst_data=inst_data
        )

    @classmethod
    def from_config_value(
        cls, inst_data: Any, config_value: Mapping[str, Any]
    ) -> PooledPostgresEventLogStorage:
        return cls(
            postgres_url=pg_url_from_config(config_value),
            should_autocreate_tables=config_value.get("should_autocreate_tables", True),
            inst_data=inst_data,
        )

    def _pooled_engine(self) -> Engine:
        # keyed by process: a forked child must not share its parent's open connections
        pid = os.getpid()
        engine = self._pooled.get(pid)
        if engine is None:
            engine = create_pg_engine(
                self.postgres_url,
                None,
                isolation_level="AUTOCOMMIT",
                pool_size=self.POOL_SIZE,
                max_overflow=self.MAX_OVERFLOW,
                pool_recycle=self.POOL_RECYCLE_SECONDS,
                pool_pre_ping=True,  # a server restart between runs is not an error
            )
            self._pooled[pid] = engine
        return engine

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        with self._pooled_engine().connect() as conn:
            yield conn

    def has_table(self, table_name: str) -> bool:
        # Asked for every asset event; tables are only ever added (by migrations).
        if table_name in self._tables_seen:
            return True
        found = super().has_table(table_name)
        if found:
            self._tables_seen.add(table_name)
        return found

    def dispose(self) -> None:
        super().dispose()
        engine = self._pooled.pop(os.getpid(), None)
        if engine is not None:
            engine.dispose()
