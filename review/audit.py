"""The append-only audit log: who did what, when, and the state before and after.

This module only ever inserts into ``audit_events`` and reads from it. Nothing in the code
base updates or deletes an audit row (a test scans the sources for it); migration 0002
adds database triggers that refuse UPDATE and DELETE on the table, and 0006 one that
refuses ``INSERT OR REPLACE`` on SQLite. Each row is hash-chained to the one before
(``claims.audit_chain``); ``verify`` walks the chain and checks the triggers are in place.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select, text
from sqlalchemy.orm import Session

from claims import audit_log
from claims.audit_chain import GENESIS, digest_of
from claims.models import AuditEvent
from claims.tables import AuditEventRow

# The triggers that make the table append-only, per dialect (migrations 0002 and 0006).
SQLITE_TRIGGERS = ("audit_events_no_update", "audit_events_no_delete", "audit_events_no_replace")
POSTGRES_TRIGGERS = ("audit_events_no_change", "audit_events_no_truncate")
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
    """What ``verify`` found: rows checked and every problem, in table order."""

    rows: int = 0
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


def verify(conn: Connection) -> ChainReport:
    """Check the append-only triggers and the hash chain of every audit row.

    Finds an edited row (its hash no longer matches its content), a deleted, inserted or
    replaced row (the next row's ``prev_hash`` does not match), and a dropped or disabled
    trigger. Deleting the newest rows leaves an intact shorter chain: compare ``rows``
    (or the last hash) with a figure kept elsewhere to notice that.
    """
    report = ChainReport()
    for name in _missing_triggers(conn):
        report.add(f"trigger {name} is missing or disabled: the table is no longer append-only")
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
        previous_hash, previous_id = row.row_hash, row.id
    return report


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


def _missing_triggers(conn: Connection) -> list[str]:
    """Append-only triggers that are gone, disabled, or no longer refuse anything (a
    trigger of the same name whose body was replaced counts as missing)."""
    if conn.dialect.name == "postgresql":
        rows = conn.execute(
            text(
                "SELECT t.tgname, p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid "
                "WHERE t.tgrelid = 'audit_events'::regclass AND NOT t.tgisinternal "
                "AND t.tgenabled <> 'D'"
            )
        ).all()
        present = {name for name, body in rows if "RAISE EXCEPTION" in " ".join(body.split())}
        return [name for name in POSTGRES_TRIGGERS if name not in present]
    rows = conn.execute(
        text(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
            "AND tbl_name = 'audit_events'"
        )
    ).all()
    present = {name for name, sql in rows if "RAISE(ABORT" in "".join(sql.upper().split())}
    return [name for name in SQLITE_TRIGGERS if name not in present]
