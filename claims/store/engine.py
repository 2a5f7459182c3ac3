"""Engines and transactions for the claim store (SQLite embedded default, or PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

WAL_CHECKPOINT_PAGES = 65536  # x 4 KB pages: see _sqlite_pragmas
# SQLite's page cache per connection, in KiB (a negative cache_size): an upper bound, filled
# only as pages are read, so a small store never holds more than its own size. At 10k bench
# files the claims table's secondary indexes (random keys) outgrow 64 MB, and every insert
# then fetched index pages back from the OS: 256 MB took the 10k writes alone from 22.8 s
# to 18.0 s (128 MB: 20.4 s; bench/bench_claim_writes.py, docs/PIPELINE.md "Session 10").
CACHE_KIB = 262144


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    # Checkpoint the WAL into the database file when it reaches 256 MB, not SQLite's 4 MB:
    # each checkpoint fsyncs, and with random-key indexes the same hot pages were written
    # back again and again. Storing 180,000 claims in 100 transactions took 145 s wall at
    # the default, 60 s with this (bench figures in docs/PIPELINE.md). Durability is the
    # same: with synchronous=NORMAL a commit is in the WAL, and a checkpoint only moves
    # pages into the database file (a crash replays the WAL on the next open).
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
    cursor.close()


def make_engine(url: str, **kwargs: Any) -> Engine:
    """An engine for ``url``; SQLite gets WAL and foreign keys, and its folder is created."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **kwargs)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True, **kwargs)


def _driver_transactions_off(dbapi_connection: Any, _record: Any) -> None:
    # Python's sqlite3 opens a transaction only before INSERT/UPDATE/DELETE, so CREATE TABLE
    # runs in autocommit: a migration killed halfway leaves half a schema. With the driver's
    # own handling off, ``_begin_immediate`` below starts every transaction, DDL included.
    dbapi_connection.isolation_level = None


def _begin_immediate(connection: Any) -> None:
    # IMMEDIATE takes the write lock at once: two processes creating the store at the same
    # moment queue on busy_timeout instead of both creating tables.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def make_migration_engine(url: str) -> Engine:
    """An engine whose transactions cover DDL too, so a migration commits whole or not at all.

    On PostgreSQL DDL is transactional anyway. On SQLite the schema statements of a
    migration and its ``alembic_version`` row then share one transaction: a process killed
    while creating the store leaves no tables behind (SQLite rolls the transaction back).
    """
    engine = make_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _driver_transactions_off)
        event.listen(engine, "begin", _begin_immediate)
    return engine


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: commits on success, rolls everything back on any exception."""
    with session_factory(engine)() as session, session.begin():
        yield session
