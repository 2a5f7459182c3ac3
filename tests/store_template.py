"""Migrated SQLite stores for tests, made by copying one store migrated once per process.

Running every Alembic migration on a new file costs 0.2-0.5 s of CPU, and hundreds of tests
start from an empty migrated store. The first call migrates a store in a private temp folder
with the real ``upgrade``; later calls copy its pages into the new file with SQLite's backup
API (a consistent copy, WAL header included) and then call ``upgrade`` again, which finds the
copy at head and leaves it alone: the store a test gets is the one the migrations make.
"""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool

from claims.store.migrate import upgrade as alembic_upgrade

_made: dict[str, Path] = {}


def _template() -> Path:
    """The store migrated to head, made once in this process."""
    if "head" not in _made:
        folder = Path(tempfile.mkdtemp(prefix="claimledger-template-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "head.db"
        alembic_upgrade(f"sqlite:///{path}")
        _made["head"] = path
    return _made["head"]


def _copy_into(path: Path) -> None:
    source = sqlite3.connect(_template())
    target = sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()


def upgrade(database_url: str) -> str | None:
    """``claims.store.migrate.upgrade`` to head; a SQLite file that does not exist yet starts
    as a copy of the migrated template (other URLs and existing files are migrated as is)."""
    url = make_url(database_url)
    path = url.database
    if url.get_backend_name() == "sqlite" and path not in (None, "", ":memory:"):
        target = Path(path)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            _copy_into(target)
    return alembic_upgrade(database_url)


_schema: list[Engine] = []


def memory_engine() -> Engine:
    """A new in-memory store (one connection, StaticPool) holding the empty schema of
    ``claims.tables`` and the search DDL, as ``create_all`` makes it."""
    from claims.store.search import sqlite_search_ddl
    from claims.tables import Base

    engine = create_engine(
        "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
    )
    Base.metadata.create_all(engine)
    with engine.begin() as conn:
        for statement in sqlite_search_ddl():
            conn.execute(text(statement))
    return engine


def reset_memory(engine: Engine) -> None:
    """Make the in-memory ``engine`` (from ``memory_engine``) hold the empty schema again, as
    a new one would; the engine, its dialect and its cache of compiled statements are kept,
    so a test running many examples compiles its SQL once instead of once per example."""
    if not _schema:
        _schema.append(memory_engine())  # the empty schema, kept for this process
    source, target = _schema[0].raw_connection(), engine.raw_connection()
    try:
        source.driver_connection.backup(target.driver_connection)  # type: ignore[union-attr,arg-type]
    finally:
        target.close()
        source.close()
