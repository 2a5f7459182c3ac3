"""Bulk inserts of named tuples, the derived tables' hot write path (edges, value groups).

``bulk.insert_rows`` takes one dict per row and runs every value through its column's bind
processor. The edge builder already holds its rows as named tuples whose fields are column
names, and every row of one write shares the same generation and timestamp: here those
shared values are processed once, only the columns that need a conversion (booleans on
SQLite) are converted per row, and the tuples go to the driver's ``executemany`` as they
are. The stored values are the ones ``insert_rows`` (and the ORM) would write; other
backends go through ``insert_rows`` unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, Table
from sqlalchemy.orm import Session

from claims.store.bulk import insert_rows


def insert_records(
    session: Session | Connection,
    table: Table,
    records: Sequence[NamedTuple],
    shared: Mapping[str, Any],
) -> None:
    """Insert one row per record (fields named as columns) plus the ``shared`` columns."""
    if not records:
        return
    fields: tuple[str, ...] = records[0]._fields
    dialect = session.get_bind().dialect if isinstance(session, Session) else session.dialect
    if dialect.name != "sqlite":
        insert_rows(session, table, [{**r._asdict(), **shared} for r in records])
        return
    columns = [*fields, *shared]
    tail = tuple(_process(table, name, value, dialect) for name, value in shared.items())
    converters: list[tuple[int, Callable[[Any], Any]]] = []
    for index, name in enumerate(fields):
        converter = table.c[name].type.bind_processor(dialect)
        if converter is not None:
            converters.append((index, converter))
    if converters:
        rows: list[tuple[Any, ...]] = []
        for record in records:
            values = list(record)
            for index, process in converters:
                if values[index] is not None:
                    values[index] = process(values[index])
            rows.append((*values, *tail))
    else:
        rows = [(*record, *tail) for record in records]
    if isinstance(session, Session):
        session.flush()
        connection = session.connection()
    else:
        connection = session
    driver = connection.connection.driver_connection
    statement = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, rows)
    finally:
        cursor.close()


def _process(table: Table, name: str, value: Any, dialect: Any) -> Any:
    process = table.c[name].type.bind_processor(dialect)
    return value if process is None or value is None else process(value)
