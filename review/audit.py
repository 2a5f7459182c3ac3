"""The append-only audit log: who did what, when, and the state before and after.

This module only ever inserts into ``audit_events`` and reads from it. Nothing in the code
base updates or deletes an audit row (a test scans the sources for it); migration 0002
adds database triggers that refuse UPDATE and DELETE on the table, and 0006 one that
refuses ``INSERT OR REPLACE`` on SQLite. Each row is hash-chained to the one before
(``claims.audit_chain``); ``verify`` walks the chain, checks the triggers are exactly the
migrations' (``review.audit_triggers``) and that the chain passes through every checkpoint
(``review.audit_checkpoints``) and any head kept elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.orm import Session

from claims import audit_log
from claims.audit_chain import GENESIS, canonical_moment, digest_of
from claims.models import AuditEvent
from claims.tables import AuditEventRow
from review.audit_checkpoints import all_checkpoints
from review.audit_triggers import trigger_problems

VERIFY_BATCH = 2000
MAX_REPORTED = 50


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
    row = audit_log.append(
        session,
        actor=actor,
        action=action,
        entity_type=entity_type,
        entity_id=entity_id,
        before=before,
        after=after,
        policy_version=policy_version,
        at=at,
    )
    return _to_event(row)


def history(session: Session, entity_id: str) -> list[AuditEvent]:
    """Every event about ``entity_id``, in the order they were written."""
    stmt = (
        select(AuditEventRow).where(AuditEventRow.entity_id == entity_id).order_by(AuditEventRow.id)
    )
    return [_to_event(r) for r in session.scalars(stmt)]


def events(
    session: Session, *, action: str, entity_id: str | None = None, limit: int = 50
) -> list[AuditEvent]:
    """The latest ``limit`` events of one action (about ``entity_id`` when given), newest first."""
    stmt = select(AuditEventRow).where(AuditEventRow.action == action)
    if entity_id is not None:
        stmt = stmt.where(AuditEventRow.entity_id == entity_id)
    stmt = stmt.order_by(AuditEventRow.id.desc()).limit(limit)
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


@dataclass
class ChainReport:
    """What ``verify`` found: rows checked, the head hash, and every problem in table order."""

    rows: int = 0
    head_hash: str = GENESIS
    checkpoints: int = 0  # stored checkpoints compared with the chain
    problems: list[str] = field(default_factory=list)
    more_problems: int = 0  # beyond MAX_REPORTED, counted but not listed

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_REPORTED:
            self.problems.append(problem)
        else:
            self.more_problems += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "rows": self.rows,
            "head_hash": self.head_hash,
            "checkpoints_checked": self.checkpoints,
            "problems": self.problems,
            "more_problems": self.more_problems,
        }


@dataclass(frozen=True)
class ExpectedHead:
    """A head kept elsewhere: the chain must pass through ``head_hash`` (after exactly
    ``rows`` rows when given); ``rows`` alone: the chain must hold at least that many."""

    head_hash: str | None = None
    rows: int | None = None
    label: str = "the expected head"


def verify(conn: Connection, *, expect: ExpectedHead | None = None) -> ChainReport:
    """Check the append-only triggers, the hash chain of every audit row, the stored
    checkpoints and ``expect`` (a head kept elsewhere).

    Finds an edited row (its hash no longer matches its content), a deleted, inserted or
    replaced row (the next row's ``prev_hash`` does not match), a trigger that is not
    exactly the migrations' (dropped, disabled, ``WHEN 0``, another body), and a chain
    rewritten from some row on or cut short (a checkpoint's or the expected head is no
    longer in it). Without a head kept elsewhere, a chain rewritten whole by someone who
    also rewrote the checkpoints is still consistent: export them (docs/REVIEW.md).
    """
    report = ChainReport()
    for problem in trigger_problems(conn):
        report.add(problem)
    anchors = [
        ExpectedHead(c.head_hash, c.rows, f"checkpoint of {canonical_moment(c.at)}")
        for c in all_checkpoints(conn)
    ]
    report.checkpoints = len(anchors)
    if expect is not None:
        anchors.append(expect)
    at_count = {a.rows: a for a in anchors if a.rows is not None and a.head_hash is not None}
    wanted = {a.head_hash.lower() for a in anchors if a.rows is None and a.head_hash}
    seen_heads: set[str] = set()
    previous_hash, previous_id = GENESIS, None
    for row in _rows(conn):
        report.rows += 1
        where = f"row {row.id}"
        if row.prev_hash != previous_hash:
            after = f"row {previous_id}" if previous_id is not None else "the start of the log"
            report.add(
                f"{where}: does not follow {after} (a row was deleted, inserted or replaced "
                "between them)"
            )
        if row.row_hash != digest_of(row, row.prev_hash or ""):
            report.add(f"{where}: its content was changed after it was written")
        anchor = at_count.get(report.rows)
        if anchor is not None and row.row_hash != (anchor.head_hash or "").lower():
            report.add(
                f"{where}: {anchor.label} says the chain's row {report.rows} ends in "
                f"{anchor.head_hash}, it ends in {row.row_hash}: the log was rewritten"
            )
        if row.row_hash in wanted:
            seen_heads.add(row.row_hash)
        previous_hash, previous_id = row.row_hash, row.id
    report.head_hash = previous_hash
    _check_lengths(report, anchors, wanted - seen_heads)
    return report


def _check_lengths(report: ChainReport, anchors: list[ExpectedHead], unseen: set[str]) -> None:
    """Heads the chain never passed through, and anchors beyond its end."""
    for anchor in anchors:
        if anchor.rows is not None and anchor.rows > report.rows:
            report.add(
                f"{anchor.label} counts {anchor.rows} rows, the log holds {report.rows}: rows "
                "were deleted from its end"
            )
        elif anchor.rows is None and anchor.head_hash and anchor.head_hash.lower() in unseen:
            report.add(
                f"{anchor.label} {anchor.head_hash} is not in the chain: the log was rewritten "
                "from some row on (or the hash is from another store)"
            )


def _rows(conn: Connection) -> Iterator[Any]:
    table = AuditEventRow.__table__
    last = None
    while True:
        stmt = select(table).order_by(table.c.id).limit(VERIFY_BATCH)
        if last is not None:
            stmt = stmt.where(table.c.id > last)
        rows = conn.execute(stmt).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].id
