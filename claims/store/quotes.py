"""Each claim's row of ``claim_quotes`` (the distinct quotes the full-text index holds),
found or made before the claims are inserted.

Every writer of claims goes through ``ClaimRepository.add_all``, which calls this: on SQLite
there is no insert trigger to do it (migration 0012: its presence alone doubled the cost of
a claim insert), and none to index a new quote row (migration 0013: the writer adds its
new rows to the FTS5 index in one statement). PostgreSQL's BEFORE INSERT function would
link a claim that arrives without its ``quote_id``, and ``claims search --reindex``
repairs any claim left unlinked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

from sqlalchemy import Connection, select, text
from sqlalchemy.orm import Session

from claims.store.batches import batches
from claims.store.search import FTS_TABLE
from claims.tables import ClaimQuoteRow

QuoteKey = tuple[str, str]  # (source version id, quote text)

# PostgreSQL: the missing rows in one statement of two arrays, in the order given (ids made
# in that order). An executemany sent a statement per row: 19,208 quotes of 1,000 bench files
# cost 1.1 s of server time and a round trip each.
INSERT_BATCH = 5000
_PG_INSERT = text(
    "INSERT INTO claim_quotes (source_version_id, quote) "
    "SELECT version, quote FROM unnest(CAST(:versions AS TEXT[]), CAST(:quotes AS TEXT[])) "
    "WITH ORDINALITY AS given(version, quote, place) ORDER BY place ON CONFLICT DO NOTHING"
)


def link_quotes(session: Session | Connection, rows: Sequence[MutableMapping[str, Any]]) -> None:
    """Set ``quote_id`` on each claim row (dicts of column values), making missing quote
    rows; on a backend other than SQLite or PostgreSQL the rows are left to its triggers."""
    found = quote_ids(session, {(row["source_version_id"], row["quote"]) for row in rows})
    if found is None:
        return
    for row in rows:
        row["quote_id"] = found[(row["source_version_id"], row["quote"])]


def quote_ids(
    session: Session | Connection,
    wanted: set[QuoteKey],
    versions: Sequence[str] = (),
) -> dict[QuoteKey, int] | None:
    """The quote row id of each (source version id, quote) in ``wanted``, rows made as
    needed; None on a backend other than SQLite or PostgreSQL (its triggers link them).

    New rows are made version by version in the order of ``versions`` (the versions not in
    it after them, by id), each version's quotes in text order: the ids one call per
    version in that order gives, so a writer of many versions at once stores the same ids."""
    bind = session.get_bind() if isinstance(session, Session) else session
    dialect = bind.dialect.name
    if dialect not in ("sqlite", "postgresql"):
        return None
    if not wanted:
        return {}
    in_order = _in_order(versions)
    if dialect == "sqlite":
        return _sqlite_link(session, wanted, in_order)
    found = _quote_ids(session, sorted({version for version, _ in wanted}))
    missing = sorted(wanted - found.keys(), key=in_order)
    if missing:
        for chunk in batches(missing, INSERT_BATCH):
            session.execute(
                _PG_INSERT, {"versions": [v for v, _ in chunk], "quotes": [q for _, q in chunk]}
            )
        found = _quote_ids(session, sorted({version for version, _ in missing}), found)
    return found


def _in_order(versions: Sequence[str]) -> Callable[[QuoteKey], tuple[int, str, str]]:
    """Sort key of quote keys: by the version's place in ``versions`` (others after, by
    id), then by quote."""
    rank = {version: index for index, version in enumerate(dict.fromkeys(versions))}
    last = len(rank)
    return lambda key: (rank.get(key[0], last), key[0], key[1])


def _sqlite_link(
    session: Session | Connection,
    wanted: set[QuoteKey],
    in_order: Callable[[QuoteKey], tuple[int, str, str]],
) -> dict[QuoteKey, int]:
    """The quote row ids of ``wanted``, the missing rows inserted with the driver's own
    cursor and added to the full-text index.

    Inside the caller's transaction: a row another writer adds between the read and the
    insert fails the insert on the unique (version, quote) key, and the caller's
    transaction rolls back whole, as any failed write does."""
    if isinstance(session, Session):
        session.flush()
        connection = session.connection()
    else:
        connection = session
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        found = _stored_quote_ids(cursor, wanted)
        # New rows in one executemany, in key order, then their ids read back with the
        # versions' quote rows (a statement per row cost more than the rows themselves).
        missing = sorted(wanted - found.keys(), key=in_order)
        cursor.executemany(
            "INSERT INTO claim_quotes (source_version_id, quote) VALUES (?, ?)", missing
        )
        found.update(_stored_quote_ids(cursor, set(missing)))
        made = sorted(found[key] for key in missing)
        # the full-text index, one statement per batch (no trigger: migration 0013; FTS5
        # writes a segment per statement, and an executemany is a statement per row)
        for ids in batches(made):
            marks = ", ".join("?" for _ in ids)
            cursor.execute(
                f"INSERT INTO {FTS_TABLE}(rowid, quote) "
                f"SELECT id, quote FROM claim_quotes WHERE id IN ({marks})",
                ids,
            )
    finally:
        cursor.close()
    return found


def _quote_ids(
    session: Session | Connection,
    version_ids: Sequence[str],
    known: Mapping[QuoteKey, int] | None = None,
) -> dict[QuoteKey, int]:
    out = dict(known or {})
    table = ClaimQuoteRow
    for chunk in batches(version_ids):
        query = select(table.id, table.source_version_id, table.quote).where(
            table.source_version_id.in_(chunk)
        )
        for quote_id, version, quote in session.execute(query):
            out[(version, quote)] = quote_id
    return out


def _stored_quote_ids(cursor: Any, keys: set[QuoteKey]) -> dict[QuoteKey, int]:
    """The ids of the stored quote rows among ``keys``, read by their versions."""
    found: dict[QuoteKey, int] = {}
    for chunk in batches(sorted({version for version, _ in keys})):
        marks = ", ".join("?" for _ in chunk)
        cursor.execute(
            "SELECT id, source_version_id, quote FROM claim_quotes "
            f"WHERE source_version_id IN ({marks})",
            chunk,
        )
        for quote_id, version, quote in cursor.fetchall():
            if (version, quote) in keys:
                found[(version, quote)] = quote_id
    return found
