"""The audit log: one row per change with before/after, and no way to change or delete a row."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from review_ledger import LIMIT, item_for_key, reviewers, routed_ledger
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from claims.store import make_engine, transaction
from review import audit, queue

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    routed_ledger(engine)
    yield engine
    engine.dispose()


def test_every_state_change_is_audited_with_actor_before_and_after(store: Engine) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.claim(session, item.id, alice)
        queue.release(session, item.id, alice)
        queue.resolve(session, item.id, bob, winners=["c-limit-a"], rationale="A is approved")
        queue.reopen_by_reviewer(session, item.id, alice, reason="owner disagrees")
    with transaction(store) as session:
        events = audit.history(session, item.id)
    trail = [(e.actor, e.action) for e in events]
    assert trail == [
        ("router", "item.open"),
        ("alice", "item.claim"),
        ("alice", "item.release"),
        ("bob", "item.claim"),  # implied by deciding an open item
        ("bob", "item.resolved"),
        ("bob", "resolution.resolved"),
        ("alice", "item.reopen"),
    ]
    states = [(e.before or {}).get("state") for e in events]
    assert states == [None, "open", "claimed", "open", "claimed", None, "resolved"]
    assert [(e.after or {}).get("state") for e in events if e.entity_type == "review_item"] == [
        "open",
        "claimed",
        "open",
        "claimed",
        "resolved",
        "open",
    ]
    assert events[-1].after is not None and events[-1].after["reason"] == "owner disagrees"
    assert all(e.policy_version for e in events)


def test_no_code_path_updates_or_deletes_audit_rows() -> None:
    forbidden = re.compile(
        r"(update|delete)\(\s*AuditEventRow|UPDATE\s+audit_events|DELETE\s+FROM\s+audit_events"
        r"|\.delete\(\s*\w*event",
        re.IGNORECASE,
    )
    offenders = []
    for package in ("claims", "review", "retrieval", "pipeline", "claimledger"):
        for path in (REPO / package).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if forbidden.search(line):
                    offenders.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert offenders == []


def test_every_audit_row_is_written_by_the_one_audit_log_module() -> None:
    writers = []
    for package in ("claims", "review", "retrieval", "pipeline", "claimledger"):
        for path in (REPO / package).rglob("*.py"):
            if re.search(r"(?<!class )\bAuditEventRow\(", path.read_text()):
                writers.append(str(path.relative_to(REPO)))
    assert writers == ["claims/audit_log.py"]


def test_the_database_refuses_to_change_or_delete_audit_rows(store: Engine) -> None:
    for statement in (
        "UPDATE audit_events SET actor = 'mallory'",
        "DELETE FROM audit_events",
    ):
        with pytest.raises(DBAPIError, match="append-only"), store.begin() as connection:
            connection.execute(text(statement))
    with store.connect() as connection:
        actors = set(connection.execute(text("SELECT actor FROM audit_events")).scalars())
    assert "mallory" not in actors and actors
