"""Tamper evidence for ``audit_events``: every row carries a hash chained to the row before.

``row_hash = sha256(canonical JSON of ["audit-v1", id, at, actor, action, entity_type,
entity_id, before, after, policy_version, prev_hash])`` and ``prev_hash`` is the previous
row's ``row_hash`` (``GENESIS`` for the first row). Editing a row breaks its own hash;
deleting or replacing one breaks the link of the row after it. ``claims audit verify``
(``review.audit.verify``) walks the chain.

Every ORM insert of an ``AuditEventRow``, whoever makes it (the review layer, the register),
is chained here by a ``before_insert`` hook: it takes the table's append lock (SQLite: the
write lock the insert needs anyway; PostgreSQL: a transaction-scoped advisory lock), reads
the last row, and gives the new row the next id and its hashes. Later rows of the same
transaction chain on from the row it appended last (held under the lock, so no one else
can have appended in between) without reading the table again.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapper

from claims.tables import AuditEventRow

GENESIS = "0" * 64
VERSION = "audit-v1"
# pg_advisory_xact_lock key for appending to audit_events (any constant unique to this use).
PG_APPEND_LOCK = 0x61756469745F6C6F


def canonical_moment(moment: datetime) -> str:
    """UTC ISO text with microseconds (SQLite hands back naive UTC, PostgreSQL aware)."""
    aware = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    return aware.isoformat(timespec="microseconds")


def row_digest(
    *,
    id: int,
    at: datetime,
    actor: str,
    action: str,
    entity_type: str,
    entity_id: str,
    before: Any,
    after: Any,
    policy_version: str | None,
    prev_hash: str,
) -> str:
    """The hash a row with this content and this predecessor must carry."""
    content = [
        VERSION,
        int(id),
        canonical_moment(at),
        actor,
        action,
        entity_type,
        entity_id,
        before,
        after,
        policy_version,
        prev_hash,
    ]
    encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(encoded.encode("utf-8")).hexdigest()


def digest_of(row: Any, prev_hash: str) -> str:
    """``row_digest`` of a stored row (an ``AuditEventRow`` or a result row)."""
    return row_digest(
        id=row.id,
        at=row.at,
        actor=row.actor,
        action=row.action,
        entity_type=row.entity_type,
        entity_id=row.entity_id,
        before=row.before,
        after=row.after,
        policy_version=row.policy_version,
        prev_hash=prev_hash,
    )


def _as_stored(value: Any) -> Any:
    """The JSON value as it will read back (tuples become lists, keys become text)."""
    return None if value is None else json.loads(json.dumps(value))


def lock_for_append(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_APPEND_LOCK})


def chain_tail(connection: Connection) -> tuple[int, str]:
    """Id and hash of the last audit row (0 and ``GENESIS`` when there is none)."""
    table = AuditEventRow.__table__
    last = connection.execute(
        select(table.c.id, table.c.row_hash).order_by(table.c.id.desc()).limit(1)
    ).first()
    return (0, GENESIS) if last is None else (int(last.id), str(last.row_hash))


_TAIL = "claimledger.audit_tail"


def _known_tail(connection: Connection) -> tuple[int, str] | None:
    """The tail this transaction appended last, if it already holds the append lock.

    Kept in the connection's info next to the transaction it belongs to, so a new
    transaction (or one that rolled back) reads the table again; savepoints always do.
    """
    cached = connection.info.get(_TAIL)
    if cached is None or connection.get_nested_transaction() is not None:
        return None
    transaction, last_id, last_hash = cached
    return (last_id, last_hash) if transaction is connection.get_transaction() else None


@event.listens_for(AuditEventRow, "before_insert")
def _chain(_mapper: Mapper[Any], connection: Connection, target: AuditEventRow) -> None:
    known = _known_tail(connection)
    if known is None:
        lock_for_append(connection)
        known = chain_tail(connection)
    last_id, last_hash = known
    target.id = last_id + 1
    target.at = datetime.fromisoformat(canonical_moment(target.at))  # stored as UTC
    target.before = _as_stored(target.before)
    target.after = _as_stored(target.after)
    target.prev_hash = last_hash
    target.row_hash = digest_of(target, last_hash)
    connection.info[_TAIL] = (connection.get_transaction(), target.id, target.row_hash)
