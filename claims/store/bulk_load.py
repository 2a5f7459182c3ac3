"""A large load into the ``claims`` table with its secondary indexes built once, after the rows.

Keeping eight secondary B-trees in step, row by row, cost SQLite about as much as writing
the rows themselves (docs/PIPELINE.md, "Session 10": most index entries land on a random
page); building an index from the finished table sorts its entries once. That pays only
when the rows loaded are many against those already there (the rebuild reads them all),
which ``load_pays`` decides, so the first run over a new corpus takes this path and an
incremental run the ordinary one.

``indexes_deferred`` works inside the caller's transaction, and SQLite's DDL is
transactional: the indexes are dropped and re-created from their own stored SQL in the
transaction that writes the rows. Readers see the last committed state, indexes included,
until the commit; a load that raises or a process killed mid-load rolls back to the
indexes it started with. SQLite only: PostgreSQL keeps the ordinary path.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from sqlalchemy import text
from sqlalchemy.orm import Session

from claims.store.deferred_indexes import indexes_built_after, is_sqlite, secondary_indexes

TABLE = "claims"
# Kept during the load: the writer's own reads find a version's stored claims by it (the
# idempotence check and the change feed's keys), and unique indexes keep their guarantee.
KEPT = frozenset({"ix_claims_source_version_id"})
# A load defers the indexes when it adds at least this many versions per version already
# extracted into the store (an empty store always does); measured in "Session 10".
LOAD_RATIO = 1.0


def load_pays(session: Session, new_versions: int) -> bool:
    """Whether loading ``new_versions`` versions' claims should defer the indexes."""
    if not is_sqlite(session) or new_versions <= 0:
        return False
    stored = session.execute(text("SELECT count(*) FROM version_extractions")).scalar() or 0
    return new_versions >= LOAD_RATIO * stored


def deferrable_indexes(session: Session) -> list[tuple[str, str]]:
    """(name, CREATE statement) of the indexes of ``claims`` a load may defer: every
    non-unique one but those in ``KEPT``."""
    return secondary_indexes(session, TABLE, KEPT)


def indexes_deferred(session: Session) -> AbstractContextManager[None]:
    """Drop the deferrable indexes of ``claims``, let the caller load, re-create them, in
    the caller's transaction (``claims.store.deferred_indexes``)."""
    return indexes_built_after(session, TABLE, KEPT)
