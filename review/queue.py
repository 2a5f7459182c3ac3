"""The review lifecycle: open -> claimed -> resolved / dismissed / ambiguous / deferred, reopen.

Every function works inside the caller's transaction, takes the acting ``Reviewer`` (so an
unknown name never gets here) and an optional ``expected_revision``: the revision the
reviewer saw. Each change bumps ``revision`` with a conditional UPDATE, so of two reviewers
acting on the same item the second gets ``ConcurrencyError`` instead of overwriting the
first. Every change writes one audit row with the state before and after, and records the item's
claim key in the store's change feed (``claims.store.changes``), in the same transaction.

Locks: ``claim`` holds the item for ``policy.lock_minutes``; an expired lock may be taken
over by anyone; acting on your own expired lock is refused (a stale lock: claim again).
An OPEN item may be decided directly: the claim is implied and audited.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from claims.errors import ConcurrencyError, InputError
from claims.models import DismissReason, Resolution, ResolutionMethod, ReviewItem, ReviewState
from claims.store.changes import record_review_changes
from claims.tables import ReviewItemRow
from review import audit
from review.items import CLOSED_STATES, ReviewItemRepository, as_utc, snapshot
from review.policy import active_policy
from review.resolutions import (
    check_confidence,
    record_resolution,
    supersede_current,
    validate_decision,
)
from review.reviewers import Reviewer

SYSTEM_ACTOR = "system"


def _now(now: datetime | None) -> datetime:
    return now or datetime.now(UTC)


def change_item(
    session: Session,
    row: ReviewItemRow,
    *,
    actor: str,
    action: str,
    changes: dict[str, Any],
    now: datetime,
    expected_revision: int | None = None,
    policy_version: str | None = None,
    detail: dict[str, Any] | None = None,
) -> ReviewItemRow:
    """Apply ``changes`` if nobody changed the row since it was read; audit before/after."""
    seen = row.revision
    check_revision(row, expected_revision)
    before = snapshot(row)
    values = {**changes, "revision": seen + 1, "updated_at": now}
    result = session.execute(
        update(ReviewItemRow)
        .where(ReviewItemRow.id == row.id, ReviewItemRow.revision == seen)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise ConcurrencyError(
            f"review item {row.id} was changed by someone else just now; reload it and try again"
        )
    session.refresh(row)
    after = snapshot(row)
    if detail:
        after = {**after, **detail}
    audit.record(
        session,
        actor=actor,
        action=action,
        entity_type="review_item",
        entity_id=row.id,
        before=before,
        after=after,
        policy_version=policy_version or row.policy_version,
        at=now,
    )
    # The status read model learns of it from the change feed, in this same transaction.
    record_review_changes(session, [row.claim_key])
    return row


def check_revision(row: ReviewItemRow, expected_revision: int | None) -> None:
    """Refuse to act on an item that changed since the reviewer loaded it."""
    if expected_revision is not None and expected_revision != row.revision:
        raise ConcurrencyError(
            f"review item {row.id} changed since you loaded it (revision {expected_revision}, "
            f"now {row.revision}); reload it and try again"
        )


def _lock_holder(row: ReviewItemRow, now: datetime) -> str | None:
    """Who holds a live lock on the item, if anyone."""
    expires = as_utc(row.lock_expires_at)
    if row.state == ReviewState.CLAIMED.value and expires is not None and expires > now:
        return row.assignee
    return None


def claim(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    expected_revision: int | None = None,
    now: datetime | None = None,
) -> ReviewItem:
    """Take (or renew) the lock on an item. A lock held by someone else and still live refuses."""
    now = _now(now)
    repo = ReviewItemRepository(session)
    row = repo.row(item_id)
    check_revision(row, expected_revision)
    holder = _lock_holder(row, now)
    if holder is not None and holder != reviewer.name:
        raise ConcurrencyError(
            f"review item {item_id} is claimed by {holder} until "
            f"{as_utc(row.lock_expires_at):%Y-%m-%d %H:%M} UTC; pick another item"
        )
    allowed = (ReviewState.OPEN.value, ReviewState.CLAIMED.value, ReviewState.DEFERRED.value)
    if row.state not in allowed:
        raise InputError(f"review item {item_id} is {row.state}; reopen it before claiming it")
    policy = active_policy(session)
    previous = row.assignee if row.state == ReviewState.CLAIMED.value else None
    took_over = holder is None and previous is not None and previous != reviewer.name
    change_item(
        session,
        row,
        actor=reviewer.name,
        action="item.takeover" if took_over else "item.claim",
        changes={
            "state": ReviewState.CLAIMED.value,
            "assignee": reviewer.name,
            "lock_expires_at": now + timedelta(minutes=policy.lock_minutes),
            "deferred_until": None,
        },
        now=now,
        expected_revision=expected_revision,
        policy_version=policy.stamp,
    )
    return repo.get(item_id)


def release(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    expected_revision: int | None = None,
    now: datetime | None = None,
) -> ReviewItem:
    """Give a claimed item back to the open queue."""
    now = _now(now)
    repo = ReviewItemRepository(session)
    row = repo.row(item_id)
    check_revision(row, expected_revision)
    _require_own_lock(row, reviewer, now)
    change_item(
        session,
        row,
        actor=reviewer.name,
        action="item.release",
        changes={"state": ReviewState.OPEN.value, "assignee": None, "lock_expires_at": None},
        now=now,
        expected_revision=expected_revision,
    )
    return repo.get(item_id)


def _require_own_lock(row: ReviewItemRow, reviewer: Reviewer, now: datetime) -> None:
    if row.state != ReviewState.CLAIMED.value:
        raise InputError(f"review item {row.id} is {row.state}, not claimed; claim it first")
    holder = _lock_holder(row, now)
    if holder is not None and holder != reviewer.name:
        raise ConcurrencyError(f"review item {row.id} is claimed by {holder}; pick another item")
    if row.assignee != reviewer.name:
        raise ConcurrencyError(
            f"review item {row.id} is assigned to {row.assignee}; claim it first"
        )
    if holder is None:
        raise ConcurrencyError(
            f"your lock on review item {row.id} expired at "
            f"{as_utc(row.lock_expires_at):%Y-%m-%d %H:%M} UTC (stale lock); claim it again"
        )


def _hold_for_decision(
    session: Session,
    row: ReviewItemRow,
    reviewer: Reviewer,
    expected_revision: int | None,
    now: datetime,
) -> int | None:
    """Make sure ``reviewer`` holds the item; claims an OPEN item implicitly (audited).

    Returns the revision the decision must still match.
    """
    if row.state in (ReviewState.OPEN.value, ReviewState.DEFERRED.value):
        claim(session, row.id, reviewer, expected_revision=expected_revision, now=now)
        session.refresh(row)
        return row.revision
    if row.state in CLOSED_STATES_VALUES:
        raise InputError(f"review item {row.id} is already {row.state}; reopen it to change it")
    _require_own_lock(row, reviewer, now)
    return expected_revision


CLOSED_STATES_VALUES = tuple(s.value for s in CLOSED_STATES)


def decide(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    outcome: ReviewState,
    winners: Sequence[str] = (),
    rationale: str,
    evidence: Sequence[str] = (),
    dismiss_reason: DismissReason | None = None,
    expected_revision: int | None = None,
    now: datetime | None = None,
    confidence: float | None = None,
) -> Resolution:
    """Resolve (winners), dismiss (reason) or mark ambiguous; validates before writing anything.

    ``confidence`` (0..1, optional) is the reviewer's resolution confidence, stored on the
    resolution apart from the claims' extraction confidence and the sources' authority.
    """
    now = _now(now)
    repo = ReviewItemRepository(session)
    row = repo.row(item_id)
    check_revision(row, expected_revision)
    members = repo.current_claim_ids(item_id)
    chosen, text, cited = validate_decision(
        session,
        item_claim_ids=members,
        outcome=outcome,
        winners=winners,
        rationale=rationale,
        evidence=evidence,
        dismiss_reason=dismiss_reason,
    )
    sure = check_confidence(confidence)
    policy = active_policy(session)
    expected = _hold_for_decision(session, row, reviewer, expected_revision, now)
    change_item(
        session,
        row,
        actor=reviewer.name,
        action=f"item.{outcome.value}",
        # A decision releases the lock: nobody holds a closed item (decided_by keeps who).
        changes={
            "state": outcome.value,
            "assignee": None,
            "lock_expires_at": None,
            "policy_version": policy.stamp,
        },
        now=now,
        expected_revision=expected,
        policy_version=policy.stamp,
    )
    return record_resolution(
        session,
        item_id=item_id,
        item_revision=row.revision,
        method=ResolutionMethod.REVIEWER,
        outcome=outcome,
        winners=chosen,
        rationale=text,
        evidence=cited,
        decided_by=reviewer.name,
        policy_version=policy.stamp,
        dismiss_reason=dismiss_reason,
        now=now,
        confidence=sure,
    )


def resolve(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    winners: Sequence[str],
    rationale: str,
    evidence: Sequence[str] = (),
    expected_revision: int | None = None,
    now: datetime | None = None,
    confidence: float | None = None,
) -> Resolution:
    return decide(
        session,
        item_id,
        reviewer,
        outcome=ReviewState.RESOLVED,
        winners=winners,
        rationale=rationale,
        evidence=evidence,
        expected_revision=expected_revision,
        now=now,
        confidence=confidence,
    )


def dismiss(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    reason: DismissReason,
    rationale: str,
    evidence: Sequence[str] = (),
    expected_revision: int | None = None,
    now: datetime | None = None,
    confidence: float | None = None,
) -> Resolution:
    return decide(
        session,
        item_id,
        reviewer,
        outcome=ReviewState.DISMISSED,
        rationale=rationale,
        evidence=evidence,
        dismiss_reason=reason,
        expected_revision=expected_revision,
        now=now,
        confidence=confidence,
    )


def mark_ambiguous(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    rationale: str,
    evidence: Sequence[str] = (),
    expected_revision: int | None = None,
    now: datetime | None = None,
    confidence: float | None = None,
) -> Resolution:
    return decide(
        session,
        item_id,
        reviewer,
        outcome=ReviewState.AMBIGUOUS,
        rationale=rationale,
        evidence=evidence,
        expected_revision=expected_revision,
        now=now,
        confidence=confidence,
    )


def defer(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    until: date,
    rationale: str = "",
    expected_revision: int | None = None,
    now: datetime | None = None,
) -> ReviewItem:
    """Put an item aside until ``until`` (a future date); it returns to the queue on that day."""
    now = _now(now)
    if until <= now.date():
        raise InputError(f"until: {until.isoformat()} is not in the future; pick a later date")
    repo = ReviewItemRepository(session)
    row = repo.row(item_id)
    check_revision(row, expected_revision)
    expected = _hold_for_decision(session, row, reviewer, expected_revision, now)
    change_item(
        session,
        row,
        actor=reviewer.name,
        action="item.defer",
        changes={
            "state": ReviewState.DEFERRED.value,
            "deferred_until": until,
            "assignee": None,
            "lock_expires_at": None,
        },
        now=now,
        expected_revision=expected,
        detail={"rationale": rationale.strip()} if rationale.strip() else None,
    )
    return repo.get(item_id)


def reopen(
    session: Session,
    item_id: str,
    actor: str,
    *,
    reason: str,
    expected_revision: int | None = None,
    now: datetime | None = None,
    policy_version: str | None = None,
) -> ReviewItem:
    """Send a closed or deferred item back to the open queue; its resolution is superseded, kept."""
    now = _now(now)
    if not reason.strip():
        raise InputError("reason: say why the item is reopened")
    repo = ReviewItemRepository(session)
    row = repo.row(item_id)
    check_revision(row, expected_revision)
    if row.state not in (*CLOSED_STATES_VALUES, ReviewState.DEFERRED.value):
        raise InputError(
            f"review item {item_id} is {row.state}; only closed or deferred items reopen"
        )
    superseded = supersede_current(session, item_id, now=now)
    change_item(
        session,
        row,
        actor=actor,
        action="item.reopen",
        changes={
            "state": ReviewState.OPEN.value,
            "assignee": None,
            "lock_expires_at": None,
            "deferred_until": None,
        },
        now=now,
        expected_revision=expected_revision,
        policy_version=policy_version,
        detail={
            "reason": reason.strip(),
            "superseded_resolution": superseded.id if superseded else None,
        },
    )
    return repo.get(item_id)


def reopen_by_reviewer(
    session: Session,
    item_id: str,
    reviewer: Reviewer,
    *,
    reason: str,
    expected_revision: int | None = None,
    now: datetime | None = None,
) -> ReviewItem:
    return reopen(
        session, item_id, reviewer.name, reason=reason, expected_revision=expected_revision, now=now
    )


def release_due_deferrals(session: Session, *, now: datetime | None = None) -> list[str]:
    """Deferred items whose date has come go back to OPEN; returns their ids."""
    now = _now(now)
    repo = ReviewItemRepository(session)
    due = [
        r
        for r in repo.search(states=[ReviewState.DEFERRED])
        if r.deferred_until is not None and r.deferred_until <= now.date()
    ]
    for item in due:
        reopen(session, item.id, SYSTEM_ACTOR, reason="deferral date reached", now=now)
    return [i.id for i in due]
