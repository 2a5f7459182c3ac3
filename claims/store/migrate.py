"""Alembic wrapped for the CLI and tests: the URL comes from the same settings as the app."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Alembic loads only when a store needs migrating (issue 14.1: start-up)
    from alembic.config import Config


def _migrations_dir() -> Path:
    """The Alembic scripts' folder, found without importing the ``migrations`` package
    (its env.py imports the store, so importing it here would be a cycle)."""
    spec = importlib.util.find_spec("migrations")
    locations = list(spec.submodule_search_locations or []) if spec else []
    if not locations:
        raise RuntimeError("the migrations package is not installed beside claims")
    return Path(locations[0]).resolve()


MIGRATIONS_DIR = _migrations_dir()


def alembic_config(database_url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str, revision: str = "head") -> str | None:
    """Migrate to ``revision``; returns a note when a half-created store was repaired first.

    A store already at head is left alone without a write lock (every command calls this
    first; Alembic's own check would take the write lock that migrations need).
    """
    if revision == "head" and _at_head(database_url):
        return None
    from alembic import command

    note = repair_half_created(database_url)
    command.upgrade(alembic_config(database_url), revision)
    return note


def _at_head(database_url: str) -> bool:
    """Whether the store is at the scripts' head, read without Alembic: importing it and
    loading every script cost more CPU than the rest of a short command's start."""
    from sqlalchemy import text

    from claims.store.engine import make_engine

    heads = head_revisions()
    if heads is None:
        return False  # scripts in a form read here: let Alembic decide
    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            stored = set(connection.scalars(text("SELECT version_num FROM alembic_version")))
    except Exception:  # noqa: BLE001  (no store yet, or an odd one: let the migration say why)
        return False
    finally:
        engine.dispose()
    return stored == heads


_REVISION = re.compile(r"^revision(?:\s*:\s*str)?\s*=\s*[\"']([^\"']+)[\"']\s*$", re.M)
_DOWN_REVISION = re.compile(
    r"^down_revision(?:\s*:[^=\n]*)?\s*=\s*(?:[\"']([^\"']+)[\"']|None)\s*$", re.M
)


def head_revisions() -> set[str] | None:
    """The revisions no script names as its ``down_revision``, from the scripts' text; None
    when a script declares either in another form (a merge's tuple), for Alembic to read."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS_DIR / "versions").glob("*.py"):
        source = script.read_text(encoding="utf-8")
        revision, down = _REVISION.findall(source), _DOWN_REVISION.findall(source)
        if len(revision) != 1 or len(down) != 1:
            return None
        revisions.add(revision[0])
        if down[0]:
            parents.add(down[0])
    return (revisions - parents) or None


def repair_half_created(database_url: str) -> str | None:
    """Detect a SQLite store whose creation was interrupted, and repair it when that is safe.

    Migrations run in one transaction now (``make_migration_engine``), so an interrupted
    creation leaves nothing behind. A store created by an older claimledger, killed while
    creating its schema, has tables and no ``alembic_version`` row, and every migration then
    fails on ``table ... already exists``. When every table of such a file is empty there is
    nothing to lose: its tables are dropped (in one transaction) and the store is created
    again. When some hold rows, nothing is touched and the error says what to do.
    """
    from sqlalchemy import inspect, text
    from sqlalchemy.engine import make_url

    from claims.errors import ClaimLedgerError
    from claims.store.engine import make_migration_engine
    from claims.tables import Base

    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None  # PostgreSQL has always run DDL in transactions
    if not Path(url.database).exists():
        return None
    engine = make_migration_engine(database_url)
    try:
        with engine.begin() as connection:
            tables = set(inspect(connection).get_table_names())
            ours = sorted(tables & set(Base.metadata.tables))
            if not ours:
                return None  # an empty file, or someone else's tables only: nothing of ours
            if "alembic_version" in tables and connection.scalar(
                text("SELECT count(*) FROM alembic_version")
            ):
                return None
            filled = [
                name
                for name in sorted(tables)
                if connection.scalar(text(f'SELECT EXISTS (SELECT 1 FROM "{name}")'))
            ]
            if filled:
                raise ClaimLedgerError(
                    f"the store {url.database} was left half-created (tables without a "
                    f"migration record) and holds rows in {', '.join(filled[:5])}; nothing "
                    "was changed. Move the file aside (with its -wal and -shm files), run "
                    "`claims db upgrade` to create a new store, and ingest the sources again"
                )
            _drop_every_table(connection)
    finally:
        engine.dispose()
    return (
        f"the store {url.database} was left half-created by an interrupted command "
        f"({len(ours)} empty tables, no migration record); its tables were dropped and it "
        "was created again"
    )


def _drop_every_table(connection: Any) -> None:
    from sqlalchemy import text

    rows = connection.execute(
        text(
            "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view') "
            "AND name NOT LIKE 'sqlite_%'"
        )
    ).all()
    # Views first, then virtual tables (dropping one drops its shadow tables), then the rest.
    order = sorted(
        rows,
        key=lambda row: (
            not (row.sql or "").upper().startswith("CREATE VIEW"),
            not (row.sql or "").upper().startswith("CREATE VIRTUAL"),
        ),
    )
    for name, sql in order:
        still_there = connection.scalar(
            text("SELECT count(*) FROM sqlite_master WHERE name = :name"), {"name": name}
        )
        if still_there:
            kind = "VIEW" if (sql or "").upper().startswith("CREATE VIEW") else "TABLE"
            connection.execute(text(f'DROP {kind} "{name}"'))


def downgrade(database_url: str, revision: str = "base") -> None:
    from alembic import command

    command.downgrade(alembic_config(database_url), revision)


def current_revision(database_url: str) -> str | None:
    from alembic.runtime.migration import MigrationContext

    from claims.store.engine import make_engine

    engine = make_engine(database_url)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()
