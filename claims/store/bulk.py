"""Bulk inserts of plain column values, fast on SQLite and exact on every backend.

SQLAlchemy's executemany path builds and processes parameters for every row; at a hundred
thousand claims or a million edges that costs more than the database's own work. On SQLite
the rows go to the driver's ``executemany`` directly, each value converted by the column
type's own bind processor (the function SQLAlchemy itself would apply: JSON serialised,
dates and timestamps as its text forms, booleans as 0/1), so the stored values are the
ones the ORM writes and reads back. Other backends use SQLAlchemy's insert unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Table, insert
from sqlalchemy.orm import Session

CHUNK = 5000


def insert_rows(
    session: Session | Connection, table: Table, rows: Sequence[Mapping[str, Any]]
) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``table`` in the caller's transaction."""
    if not rows:
        return
    dialect = session.get_bind().dialect if isinstance(session, Session) else session.dialect
    if dialect.name != "sqlite":
        for start in range(0, len(rows), CHUNK):
            session.execute(insert(table), list(rows[start : start + CHUNK]))
        return
    if isinstance(session, Session):
        session.flush()
        connection = session.connection()
    else:
        connection = session
    columns = list(rows[0])
    processors: list[Callable[[Any], Any] | None] = [
        table.c[name].type.bind_processor(dialect) for name in columns
    ]
    statement = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    prepared = [
        tuple(
            value if process is None or value is None else process(value)
            for value, process in zip((row[name] for name in columns), processors, strict=True)
        )
        for row in rows
    ]
    driver = connection.connection.driver_connection
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, prepared)
    finally:
        cursor.close()
