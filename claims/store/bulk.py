"""Bulk inserts of plain column values, fast on SQLite and exact on every backend.

SQLAlchemy's executemany path builds and processes parameters for every row; at a hundred
thousand claims or a million edges that costs more than the database's own work. On SQLite
the rows go to the driver's ``executemany`` directly, each value converted by the column
type's own bind processor (the function SQLAlchemy itself would apply: JSON serialised,
dates and timestamps as its text forms, booleans as 0/1), so the stored values are the
ones the ORM writes and reads back. Other backends use SQLAlchemy's insert unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import JSON, Boolean, Connection, DateTime, Float, Table, insert
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


def insert_tuples(
    session: Session | Connection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
) -> None:
    """``insert_rows`` for rows given as tuples in ``columns`` order: on SQLite no dict per
    row, and only the values that need converting are converted, each to what the column's
    bind processor gives (the stored values are the same):

    * booleans are left to the driver, which binds True / False as 1 / 0 as the processor
      does; floats already ``float`` are what the processor returns;
    * an empty JSON object or list (most claims' scope) is serialised once per call;
    * a timestamp repeated from the previous row (one write's ``created_at``) is adapted
      once, with the driver's own adapter.
    """
    if not rows:
        return
    dialect = session.get_bind().dialect if isinstance(session, Session) else session.dialect
    if dialect.name != "sqlite":
        insert_rows(session, table, [dict(zip(columns, row, strict=True)) for row in rows])
        return
    converters: list[tuple[int, Callable[[Any], Any]]] = []
    for index, name in enumerate(columns):
        kind = table.c[name].type
        process = kind.bind_processor(dialect)
        if isinstance(kind, Boolean):
            continue
        if isinstance(kind, DateTime) and process is None:
            converters.append((index, _adapt_repeated()))
        elif process is None:
            continue
        elif isinstance(kind, Float):
            converters.append((index, _unless_float(process)))
        elif isinstance(kind, JSON):
            converters.append((index, _empty_once(process)))
        else:
            converters.append((index, process))
    prepared: list[Sequence[Any]] = []
    if converters:
        for row in rows:
            values = list(row)
            for index, convert in converters:
                if values[index] is not None:
                    values[index] = convert(values[index])
            prepared.append(values)
    else:
        prepared = list(rows)
    if isinstance(session, Session):
        session.flush()
        connection = session.connection()
    else:
        connection = session
    statement = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, prepared)
    finally:
        cursor.close()


def _unless_float(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: value if type(value) is float else process(value)


def _empty_once(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    empty: dict[type, Any] = {dict: process({}), list: process([])}

    def convert(value: Any) -> Any:
        if not value and type(value) in empty:
            return empty[type(value)]
        return process(value)

    return convert


def _adapt_repeated() -> Callable[[Any], Any]:
    last: list[Any] = [None, None]

    def convert(value: Any) -> Any:
        if value is not last[0]:
            adapt = sqlite3.adapters.get((type(value), sqlite3.PrepareProtocol))
            last[:] = [value, value if adapt is None else adapt(value)]
        return last[1]

    return convert
