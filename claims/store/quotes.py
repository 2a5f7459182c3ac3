"""Each claim's row of ``claim_quotes`` (the distinct quotes the full-text index holds),
found or made before the claims are inserted.

The triggers of migration 0010 would do the same per claim, but on SQLite only by updating
each claim row after its insert (more than doubling the cost of storing 20,000 numbers);
a claim that arrives with its ``quote_id`` set skips them. Writers that do not call this
still get their link from the triggers.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any

from sqlalchemy import Executable, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from claims.store.batches import batches
from claims.tables import ClaimQuoteRow


def link_quotes(session: Session, rows: Sequence[MutableMapping[str, Any]]) -> None:
    """Set ``quote_id`` on each claim row (dicts of column values), making missing quote
    rows; on a backend without an insert-or-ignore the rows are left to the triggers."""
    dialect = session.get_bind().dialect.name
    statement: Executable
    if dialect == "sqlite":
        statement = sqlite.insert(ClaimQuoteRow).on_conflict_do_nothing()
    elif dialect == "postgresql":
        statement = postgresql.insert(ClaimQuoteRow).on_conflict_do_nothing()
    else:
        return
    if not rows:
        return
    wanted = {(row["source_version_id"], row["quote"]) for row in rows}
    found = _quote_ids(session, sorted({version for version, _ in wanted}))
    missing = sorted(wanted - found.keys())
    if missing:
        for chunk in batches(missing):
            session.execute(statement, [{"source_version_id": v, "quote": q} for v, q in chunk])
        found = _quote_ids(session, sorted({version for version, _ in missing}), found)
    for row in rows:
        row["quote_id"] = found[(row["source_version_id"], row["quote"])]


def _quote_ids(
    session: Session,
    version_ids: Sequence[str],
    known: Mapping[tuple[str, str], int] | None = None,
) -> dict[tuple[str, str], int]:
    out = dict(known or {})
    table = ClaimQuoteRow
    for chunk in batches(version_ids):
        query = select(table.id, table.source_version_id, table.quote).where(
            table.source_version_id.in_(chunk)
        )
        for quote_id, version, quote in session.execute(query):
            out[(version, quote)] = quote_id
    return out
