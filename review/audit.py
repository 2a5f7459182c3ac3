"""The append-only audit log: who did what, when, and the state before and after.

This module only ever inserts into ``audit_events`` and reads from it. Nothing in the code
base updates or deletes an audit row (a test scans the sources for it), and migration
0002 adds database triggers that refuse UPDATE and DELETE on the table.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import AuditEvent
from claims.tables import AuditEventRow


def record(
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
) -> AuditEvent:
    """Append one event in the caller's transaction: it commits or rolls back with the change."""
    row = AuditEventRow(
        at=at or datetime.now(UTC),
        actor=actor,
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        before=before,
        after=after,
        policy_version=policy_version,
    )
    session.add(row)
    session.flush()
    return _to_event(row)


def history(session: Session, entity_id: str) -> list[AuditEvent]:
    """Every event about ``entity_id``, in the order they were written."""
    stmt = (
        select(AuditEventRow).where(AuditEventRow.entity_id == entity_id).order_by(AuditEventRow.id)
    )
    return [_to_event(r) for r in session.scalars(stmt)]


def recent(session: Session, limit: int = 100) -> list[AuditEvent]:
    stmt = select(AuditEventRow).order_by(AuditEventRow.id.desc()).limit(limit)
    return [_to_event(r) for r in session.scalars(stmt)]


def _to_event(row: AuditEventRow) -> AuditEvent:
    return AuditEvent(
        id=row.id,
        at=row.at,
        actor=row.actor,
        action=row.action,
        entity_type=row.entity_type,
        entity_id=row.entity_id,
        before=row.before,
        after=row.after,
        policy_version=row.policy_version,
    )
