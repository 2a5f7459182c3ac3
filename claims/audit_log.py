"""The one writer of the audit log: every module that records an event (the register, the
review layer, retention) appends through ``append``, in the caller's transaction.

Rows are only ever inserted; ``claims.audit_chain`` chains each insert to the row before,
and the database refuses updates, deletes and replaces (migrations 0002 and 0006). Reading,
history and verification live in ``review.audit``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from claims.tables import AuditEventRow


def append(
    session: Session,
    *,
    actor: str,
    action: str,
    entity_type: str,
    entity_id: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
    policy_version: str | None = None,
    at: datetime | None = None,
    flush: bool = True,
) -> AuditEventRow:
    """Append one event; it commits or rolls back with the caller's change. The row is
    flushed, so its id and chain hashes are set when this returns; with ``flush=False`` it
    is written (and chained, in the order appended) with the session's next flush, so a
    writer of many events pays one flush for them, not a round trip each."""
    row = AuditEventRow(
        at=at or datetime.now(UTC),
        actor=actor[:256],
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        before=before,
        after=after,
        policy_version=policy_version,
    )
    session.add(row)
    if flush:
        session.flush()
    return row
