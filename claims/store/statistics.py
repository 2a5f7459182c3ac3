"""PostgreSQL: planner statistics kept up with a table a long transaction fills.

PostgreSQL plans a statement from the statistics ``ANALYZE`` last gathered. Autovacuum
gathers them after a commit, so a table written by one long transaction (a first full edge
build writes every edge of the store in one) is planned on the statistics it had before:
none for a new table. Without them the planner takes ``generation = ?`` to select a few rows
and reads a batch's ``generation = ? AND claim_key IN (500 keys)`` through the index on
``generation`` alone, every row of the generation each time: 0.74 s instead of 0.07 s for
500 of 20,000 keys in a million rows, and a full build asks it for every batch of keys, so
its cost grew with the square of the store (docs/PIPELINE.md, "Session 19: PostgreSQL at
scale"). SQLite needs no statistics to use the whole index.

``note_written`` is told every bulk write (``claims.store.bulk``). Every ``CHECK_ROWS`` rows
written into a table through one connection it asks the catalogue (one query) whether the
table has no statistics yet or has doubled in pages since they were gathered, and then
analyzes it inside the writer's transaction, which sees its own rows: a table growing from
nothing to millions of rows is analyzed a few dozen times at most, each a sample of at most
30,000 rows (PostgreSQL's default statistics target).

``ANALYZE`` takes a SHARE UPDATE EXCLUSIVE lock until the transaction ends: readers and
writers go on, another ``ANALYZE``, ``VACUUM`` or schema change of the same table waits
(autovacuum gives way to it within a second).
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from weakref import WeakKeyDictionary

# rows written into one table through one connection between two looks at its statistics
CHECK_ROWS = 5000
# below this many pages (8 KB each) a table is read whole in no time, plan or not
MIN_PAGES = 128
# statistics older than the table's size divided by this are gathered again
GROWTH = 2

_STATE = """
SELECT c.relpages,
       pg_relation_size(c.oid) / current_setting('block_size')::int,
       EXISTS (SELECT 1 FROM pg_stats s
               WHERE s.schemaname = n.nspname AND s.tablename = c.relname)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.oid = to_regclass(%s)
"""

# driver connection -> rows written per table since its statistics were last looked at
_WRITTEN: WeakKeyDictionary[Any, Counter[str]] = WeakKeyDictionary()


def note_written(driver_connection: Any, table: str, rows: int) -> bool:
    """Count ``rows`` written into ``table`` through ``driver_connection`` (psycopg 3, in
    the writer's transaction); analyze the table when its statistics are missing or stale.
    Returns whether it did."""
    written = _WRITTEN.setdefault(driver_connection, Counter())
    written[table] += rows
    if written[table] < CHECK_ROWS:
        return False
    written[table] = 0
    return refresh_if_stale(driver_connection, table)


def refresh_if_stale(driver_connection: Any, table: str) -> bool:
    """``ANALYZE`` ``table`` if it has no statistics yet or has grown ``GROWTH`` times in
    pages since they were gathered (and is not tiny); returns whether it did."""
    with driver_connection.cursor() as cursor:
        found = cursor.execute(_STATE, (f'"{table}"',)).fetchone()
        if found is None:
            return False
        analyzed_pages, pages, has_statistics = found
        if pages < MIN_PAGES:
            return False
        if has_statistics and pages < GROWTH * max(int(analyzed_pages), 1):
            return False
        cursor.execute(f'ANALYZE "{table}"')
    return True
