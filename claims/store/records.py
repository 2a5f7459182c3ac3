"""Bulk inserts of named tuples, the derived tables' hot write path (edges, value groups).

``bulk.insert_rows`` takes one dict per row and runs every value through its column's bind
processor. The edge builder already holds its rows as named tuples whose fields are column
names, and every row of one write shares the same generation and timestamp: here those
shared values are processed once, only the columns that need a conversion are converted
per row (booleans need none: the driver binds them as the 1 / 0 the processor returns),
and the tuples go to the driver's ``executemany`` as they are. The stored values are the
ones the ORM writes (tests/test_store_records.py), timestamps included: the generic
processor ``insert_rows`` uses leaves them to the driver, which stores "...+00:00" where
the ORM stores the text without an offset, so an as-of comparison in SQL against a bound
timestamp misses a row written at exactly that time. Other backends go through
``insert_rows`` unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Boolean, Connection, Table
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
        if isinstance(table.c[name].type, Boolean):
            continue  # the driver binds True / False as 1 / 0, what the processor returns
        converter = _bind_processor(table, name, dialect)
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
    process = _bind_processor(table, name, dialect)
    return value if process is None or value is None else process(value)


def _bind_processor(table: Table, name: str, dialect: Any) -> Callable[[Any], Any] | None:
    # the dialect's own implementation of the column type, as the ORM compiles it: on
    # SQLite a timestamp becomes its text form here (the generic type has no processor,
    # and the driver's adapter would add a "+00:00" the ORM's text lacks)
    impl = table.c[name].type.dialect_impl(dialect)
    return impl.bind_processor(dialect)
