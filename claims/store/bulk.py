"""Bulk inserts of plain column values, fast on SQLite and exact on every backend.

SQLAlchemy's executemany path builds and processes parameters for every row; at a hundred
thousand claims or a million edges that costs more than the database's own work. On SQLite
the rows go to the driver's ``executemany`` directly, each value converted by the bind
processor of the column type's SQLite implementation (the function the ORM applies: JSON
serialised, dates and timestamps as its text forms), so the stored values are the ones the
ORM writes and reads back (tests/test_store_records.py). The generic type's processor is not
enough: it leaves timestamps to the driver, which stores "...+00:00" where the ORM stores the
text without an offset, and an as-of comparison in SQL then misses a row written at exactly
the bound time. PostgreSQL gets one ``COPY`` per call, its planner statistics kept up with
the rows (``claims.store.statistics``); other backends use SQLAlchemy's insert unchanged.

Three shapes of rows, one writer: dicts (``insert_rows``), tuples in column order
(``insert_tuples``, the claim writer's) and named tuples plus values shared by every row
(``insert_records``, the edge store's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from sqlalchemy import JSON, Boolean, Connection, DateTime, Float, Table, insert
from sqlalchemy.orm import Session

from claims.store.statistics import note_written

CHUNK = 5000


def insert_rows(
    session: Session | Connection, table: Table, rows: Sequence[Mapping[str, Any]]
) -> None:
    """Insert ``rows`` (dicts with the same keys) into ``table`` in the caller's transaction."""
    if not rows:
        return
    columns = list(rows[0])
    insert_tuples(session, table, columns, [tuple(row[name] for name in columns) for row in rows])


def insert_records(
    session: Session | Connection,
    table: Table,
    records: Sequence[NamedTuple],
    shared: Mapping[str, Any],
) -> None:
    """Insert one row per record (fields named as columns) plus the ``shared`` columns."""
    if not records:
        return
    tail = tuple(shared.values())
    columns = [*records[0]._fields, *shared]
    insert_tuples(session, table, columns, [(*record, *tail) for record in records])


def insert_tuples(
    session: Session | Connection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
) -> None:
    """Insert ``rows`` given as tuples in ``columns`` order. On SQLite no dict per row, and
    only the values that need converting are converted:

    * booleans are left to the driver, which binds True / False as 1 / 0 as the processor
      does; floats already ``float`` are what the processor returns;
    * an empty JSON object or list (most claims' scope) is serialised once per call;
    * a timestamp repeated from the previous row (one write's ``created_at``) is converted
      once.
    """
    if not rows:
        return
    dialect = session.get_bind().dialect if isinstance(session, Session) else session.dialect
    if dialect.name == "postgresql":
        _copy_tuples(session, table, columns, rows, dialect)
        return
    if dialect.name != "sqlite":
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start : start + CHUNK]
            session.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in chunk])
        return
    prepared = list(_converted(rows, _converters(table, tuple(columns), dialect)))
    connection = _connection(session)
    statement = (
        f"INSERT INTO {table.name} ({', '.join(columns)}) "
        f"VALUES ({', '.join('?' for _ in columns)})"
    )
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.executemany(statement, prepared)
    finally:
        cursor.close()


def _copy_tuples(
    session: Session | Connection,
    table: Table,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    dialect: Any,
) -> None:
    """PostgreSQL: the rows in one ``COPY ... FROM STDIN`` in the caller's transaction.

    psycopg's ``executemany`` sends one INSERT per row (pipelined, but each row is still a
    statement the server parses, plans and executes): 37,565 edges cost 4.6 s of server
    time at 1,000 bench files. COPY streams them as one statement. Values go through the
    bind processor of the column type's PostgreSQL implementation, as an INSERT's would
    (JSON wrapped for psycopg), so the stored values are the same. The table's planner
    statistics are then kept up with what the transaction wrote
    (``claims.store.statistics``)."""
    converters = _converters(table, tuple(columns), dialect)
    connection = _connection(session)
    names = ", ".join(f'"{name}"' for name in columns)
    driver = connection.connection.driver_connection
    cursor = driver.cursor()  # type: ignore[union-attr]
    try:
        with cursor.copy(f'COPY "{table.name}" ({names}) FROM STDIN') as copy:
            for row in _converted(rows, converters):
                copy.write_row(row)
    finally:
        cursor.close()
    note_written(driver, table.name, len(rows))


def _converted(rows: Sequence[Sequence[Any]], converters: _Converters) -> Iterator[Sequence[Any]]:
    """``rows`` with the values ``converters`` name converted (None stays None)."""
    if not converters:
        yield from rows
        return
    for row in rows:
        values = list(row)
        for index, convert in converters:
            if values[index] is not None:
                values[index] = convert(values[index])
        yield values


def _connection(session: Session | Connection) -> Connection:
    """The connection of ``session``'s transaction, its pending ORM changes flushed first
    (a bulk write on the driver's cursor must come after them)."""
    if isinstance(session, Session):
        session.flush()
        return session.connection()
    return session


_Converters = list[tuple[int, Callable[[Any], Any]]]
# dialect -> (table, columns) -> the converters of those columns. Finding them cost more
# than the conversions for a writer that inserts a version's few claims at a time
# (docs/PIPELINE.md, "Session 10"); weak, so a disposed engine's dialect is not kept.
_CONVERTERS: WeakKeyDictionary[Any, dict[tuple[Table, tuple[str, ...]], _Converters]] = (
    WeakKeyDictionary()
)


def _converters(table: Table, columns: tuple[str, ...], dialect: Any) -> _Converters:
    """(column index, converter) of the ``columns`` of ``table`` that need converting."""
    known = _CONVERTERS.setdefault(dialect, {})
    found = known.get((table, columns))
    if found is None:
        found = [
            (index, convert)
            for index, name in enumerate(columns)
            if (convert := _converter(table.c[name].type, dialect)) is not None
        ]
        known[(table, columns)] = found
    return found


def _converter(kind: Any, dialect: Any) -> Callable[[Any], Any] | None:
    """What a value of a column of type ``kind`` goes through on SQLite (or PostgreSQL's
    COPY), or None."""
    if isinstance(kind, Boolean):
        return None  # the driver binds True / False as 1 / 0, what the processor returns
    process = kind.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        return None
    if isinstance(kind, DateTime):
        return _repeated(process)
    if isinstance(kind, Float):
        return _unless_float(process)
    if isinstance(kind, JSON):
        return _empty_once(process)
    return process


def _unless_float(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: value if type(value) is float else process(value)


def _empty_once(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    empty: dict[type, Any] = {dict: process({}), list: process([])}

    def convert(value: Any) -> Any:
        if not value and type(value) in empty:
            return empty[type(value)]
        return process(value)

    return convert


def _repeated(process: Callable[[Any], Any]) -> Callable[[Any], Any]:
    last: list[Any] = [None, None]

    def convert(value: Any) -> Any:
        if value is not last[0]:
            last[:] = [value, process(value)]
        return last[1]

    return convert
