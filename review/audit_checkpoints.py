"""Checkpoints of the audit chain: its row count and head hash at a moment.

A hash chain alone proves nothing to someone who can rewrite it whole: drop the triggers,
edit a row, hash every later row again. What anchors it is a head kept where the store's
writers cannot reach. ``write`` records (rows, head hash, time) in ``audit_checkpoints``
(``claims audit checkpoint``, and every pipeline run after routing); ``all_checkpoints``
lists them for export (``claims audit checkpoints --json``); ``review.audit.verify``
checks each stored checkpoint, and any head given to it, against the chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, func, select
from sqlalchemy.orm import Session

from claims.audit_chain import canonical_moment, chain_tail, lock_for_append
from claims.tables import AuditCheckpointRow, AuditEventRow


@dataclass(frozen=True)
class Checkpoint:
    """The chain held ``rows`` rows ending in ``head_hash`` at ``at``."""

    rows: int
    head_hash: str
    at: datetime
    written_by: str

    def as_dict(self) -> dict[str, object]:
        return {
            "rows": self.rows,
            "head_hash": self.head_hash,
            "at": canonical_moment(self.at),
            "written_by": self.written_by,
        }


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _of(row: AuditCheckpointRow) -> Checkpoint:
    return Checkpoint(row.rows, row.head_hash, _utc(row.at), row.written_by)


def write(session: Session, *, by: str) -> Checkpoint:
    """Record the chain's head now, in the caller's transaction (under the append lock, so
    no audit row lands between the count and the hash). The same head as the newest
    checkpoint is not recorded twice."""
    connection = session.connection()
    lock_for_append(connection)
    rows = session.scalar(select(func.count()).select_from(AuditEventRow)) or 0
    _, head = chain_tail(connection)
    newest = session.scalars(
        select(AuditCheckpointRow).order_by(AuditCheckpointRow.id.desc()).limit(1)
    ).first()
    if newest is not None and (newest.rows, newest.head_hash) == (rows, head):
        return _of(newest)
    row = AuditCheckpointRow(at=datetime.now(UTC), rows=rows, head_hash=head, written_by=by[:256])
    session.add(row)
    session.flush()
    return _of(row)


def all_checkpoints(conn: Connection | Session) -> list[Checkpoint]:
    """Every stored checkpoint, oldest first."""
    table = AuditCheckpointRow.__table__
    rows = conn.execute(select(table).order_by(table.c.id)).all()
    return [Checkpoint(r.rows, r.head_hash, _utc(r.at), r.written_by) for r in rows]
