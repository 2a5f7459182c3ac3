"""Large writes into a table with its secondary indexes built once, after the rows.

Used by a first build of the derived tables (edges, value groups, claim status) and by a
first large load into ``claims`` (``claims.store.bulk_load`` decides when that pays).

A full build over a new store writes every edge and status row into an empty table. SQLite
keeps each secondary index in step row by row, most entries landing on a random page;
re-creating an index over the finished table sorts its entries once. On the 2,000-file
bench store, inserting its 86,325 edges cost 4.5-5.2 s CPU with the four indexes in place
and 2.2-2.3 s with them dropped and re-created (docs/PIPELINE.md, "Session 10: edges and
status"). Only an *empty* table takes this path: there the rebuild reads nothing but the
rows just written, so it never costs more than it saves; an incremental build keeps the
ordinary path.

Transactional: the indexes are dropped and re-created from their own stored SQL in the
caller's transaction (SQLite's DDL is transactional), so a build that raises, or a process
killed mid-build, rolls back to the indexes it started with, and readers see the last
committed state, indexes included. SQLite only (PostgreSQL keeps the ordinary path).

"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

# Below this many rows the index maintenance is too small to pay for the DDL.
MIN_ROWS = 1000


def _driver(bind: Session | Connection) -> Any:
    connection = bind.connection() if isinstance(bind, Session) else bind
    return connection.connection.driver_connection


def is_sqlite(bind: Session | Connection) -> bool:
    dialect = bind.get_bind().dialect if isinstance(bind, Session) else bind.dialect
    return dialect.name == "sqlite"


def table_is_empty(bind: Session | Connection, table: str) -> bool:
    """Whether ``table`` holds no row at all (of any generation)."""
    return bind.execute(text(f'SELECT 1 FROM "{table}" LIMIT 1')).first() is None


def build_pays(bind: Session | Connection, table: str, rows: int) -> bool:
    """Whether writing ``rows`` rows into ``table`` should build its indexes afterwards."""
    return rows >= MIN_ROWS and is_sqlite(bind) and table_is_empty(bind, table)


def secondary_indexes(
    bind: Session | Connection, table: str, keep: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """(name, CREATE statement) of the non-unique indexes of ``table`` SQLite stores SQL
    for (the primary key's and unique constraints' automatic indexes have none), but those
    named in ``keep``."""
    rows = bind.execute(
        text(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = :table "
            "AND sql IS NOT NULL ORDER BY name"
        ),
        {"table": table},
    )
    return [
        (name, sql)
        for name, sql in rows
        if name not in keep and not sql.lstrip().upper().startswith("CREATE UNIQUE")
    ]


@contextmanager
def indexes_built_after(
    bind: Session | Connection, table: str, keep: frozenset[str] = frozenset()
) -> Iterator[None]:
    """Drop the secondary indexes of ``table`` (but ``keep``), let the caller write,
    re-create them from their own stored SQL, so the schema afterwards is the same.

    SQLite only (the caller decides: ``build_pays``, ``bulk_load.load_pays``). If the body
    raises, nothing is re-created here: the caller's rollback restores the indexes with
    everything else.
    """
    # Python's sqlite3 opens a transaction before an INSERT, not before DDL: a DROP INDEX
    # as the transaction's first write would be committed at once, and a failed build
    # would leave the table without its indexes. Opened here, the drop is part of it.
    driver = _driver(bind)
    if not driver.in_transaction:
        driver.execute("BEGIN IMMEDIATE")
    indexes = secondary_indexes(bind, table, keep)
    for name, _ in indexes:
        bind.execute(text(f'DROP INDEX "{name}"'))
    yield
    for _, sql in indexes:
        bind.execute(text(sql))


@contextmanager
def first_build(bind: Session | Connection, table: str, rows: int) -> Iterator[None]:
    """The block writes ``rows`` rows into ``table``: with its indexes built after them when
    that pays (``build_pays``: an empty SQLite table and enough rows), else through them."""
    if build_pays(bind, table, rows):
        with indexes_built_after(bind, table):
            yield
    else:
        yield
