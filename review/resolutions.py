"""Resolutions: how a review item ended, by a reviewer or by a policy rule.

A caller gets ``record_resolution(...)`` (validates winners, rationale and cited evidence,
writes the resolution, its winners and an audit row), ``current_resolution(session, item_id)``
and ``resolutions_for(session, item_id)`` (every resolution ever made, superseded ones too).
Losing claims are never touched: a resolution only points at its winners.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.errors import InputError
from claims.ids import stable_id
from claims.models import DismissReason, Resolution, ResolutionMethod, ReviewState
from claims.store.changes import record_item_changes
from claims.tables import ClaimRow, ResolutionRow, ResolutionWinnerRow
from review import audit
from review.items import as_utc

OUTCOMES = (ReviewState.RESOLVED, ReviewState.DISMISSED, ReviewState.AMBIGUOUS)


def _allowed_evidence(session: Session, claim_ids: Sequence[str]) -> set[str]:
    """Claim, source version and source ids of the item's claims: what a resolution may cite."""
    allowed: set[str] = set(claim_ids)
    stmt = select(ClaimRow.source_version_id, ClaimRow.source_id).where(ClaimRow.id.in_(claim_ids))
    for version_id, source_id in session.execute(stmt):
        allowed.update((version_id, source_id))
    return allowed


def check_confidence(confidence: float | None) -> float | None:
    """A reviewer's confidence in a decision: a number from 0 to 1, or None (not stated)."""
    if confidence is None:
        return None
    if not 0.0 <= confidence <= 1.0:
        raise InputError(
            f"confidence: {confidence} is not between 0 and 1 (e.g. 0.9: sure, 0.5: unsure)"
        )
    return float(confidence)


def validate_decision(
    session: Session,
    *,
    item_claim_ids: Sequence[str],
    outcome: ReviewState,
    winners: Sequence[str],
    rationale: str,
    evidence: Sequence[str],
    dismiss_reason: DismissReason | None,
) -> tuple[list[str], str, list[str]]:
    """Check a decision against its item; returns cleaned winners, rationale and evidence.

    Raises ``InputError`` naming the bad field; nothing is written.
    """
    if outcome not in OUTCOMES:
        raise InputError(f"outcome must be one of {', '.join(o.value for o in OUTCOMES)}")
    rationale = (rationale or "").strip()
    if not rationale:
        raise InputError("rationale: a reason is required; say why this side wins (or why not)")
    members = set(item_claim_ids)
    chosen = list(dict.fromkeys(w.strip() for w in winners if w.strip()))
    outside = [w for w in chosen if w not in members]
    if outside:
        raise InputError(
            f"winner: claim {outside[0]!r} is not part of this review item; "
            f"choose among {', '.join(sorted(members))}"
        )
    if outcome is ReviewState.RESOLVED and not chosen:
        raise InputError("winner: name at least one winning claim of the item")
    if outcome is ReviewState.RESOLVED and len(chosen) == len(members):
        raise InputError("winner: every claim of the item cannot win; dismiss it instead")
    if outcome is not ReviewState.RESOLVED and chosen:
        raise InputError(f"winner: a {outcome.value} item has no winners")
    if outcome is ReviewState.DISMISSED and dismiss_reason is None:
        raise InputError(
            "reason: say why it is not a conflict: " + ", ".join(r.value for r in DismissReason)
        )
    cited = list(dict.fromkeys(e.strip() for e in evidence if e.strip()))
    allowed = _allowed_evidence(session, list(members))
    unknown = [e for e in cited if e not in allowed]
    if unknown:
        raise InputError(
            f"evidence: {unknown[0]!r} is not a claim, source version or source of this item"
        )
    if not cited:
        cited = list(chosen) or sorted(members)
    return chosen, rationale, cited


def record_resolution(
    session: Session,
    *,
    item_id: str,
    item_revision: int,
    method: ResolutionMethod,
    outcome: ReviewState,
    winners: Sequence[str],
    rationale: str,
    evidence: Sequence[str],
    decided_by: str,
    policy_version: str,
    dismiss_reason: DismissReason | None = None,
    now: datetime | None = None,
    audit_actor: str | None = None,
    audit_action: str | None = None,
    confidence: float | None = None,
) -> Resolution:
    """Write an already validated decision; the id is unique per item revision.

    ``audit_actor``/``audit_action`` differ from the decider only when routing carries a
    decision over to a new extractor generation.
    """
    now = now or datetime.now(UTC)
    resolution_id = stable_id("res", item_id, item_revision, method.value, outcome.value)
    row = ResolutionRow(
        id=resolution_id,
        review_item_id=item_id,
        method=method.value,
        outcome=outcome.value,
        dismiss_reason=dismiss_reason.value if dismiss_reason else None,
        rationale=rationale,
        evidence=list(evidence),
        decided_by=decided_by,
        policy_version=policy_version,
        decided_at=now,
        superseded_at=None,
        confidence=confidence,
    )
    session.add(row)
    session.flush()
    session.add_all(ResolutionWinnerRow(resolution_id=resolution_id, claim_id=w) for w in winners)
    session.flush()
    resolution = _to_resolution(row, list(winners))
    audit.record(
        session,
        actor=audit_actor or decided_by,
        action=audit_action or f"resolution.{outcome.value}",
        entity_type="resolution",
        entity_id=item_id,
        before=None,
        after=resolution.model_dump(mode="json"),
        policy_version=policy_version,
        at=now,
    )
    record_item_changes(session, [item_id])  # the change feed, in the decision's transaction
    return resolution


def supersede_current(session: Session, item_id: str, *, now: datetime) -> Resolution | None:
    """Mark the item's current resolution superseded (it stays stored); returns it."""
    row = _current_row(session, item_id)
    if row is None:
        return None
    row.superseded_at = now
    session.flush()
    return _to_resolution(row, _winners(session, row.id))


def current_resolution(session: Session, item_id: str) -> Resolution | None:
    row = _current_row(session, item_id)
    return _to_resolution(row, _winners(session, row.id)) if row is not None else None


def resolutions_for(session: Session, item_id: str) -> list[Resolution]:
    """Every resolution of the item, oldest first (superseded ones included)."""
    stmt = (
        select(ResolutionRow)
        .where(ResolutionRow.review_item_id == item_id)
        .order_by(ResolutionRow.decided_at, ResolutionRow.id)
    )
    return [_to_resolution(r, _winners(session, r.id)) for r in session.scalars(stmt)]


def current_resolutions(session: Session) -> list[Resolution]:
    """The standing resolution of every item that has one."""
    rows = list(session.scalars(select(ResolutionRow).where(ResolutionRow.superseded_at.is_(None))))
    winners: dict[str, list[str]] = {r.id: [] for r in rows}
    for link in session.scalars(select(ResolutionWinnerRow)):
        if link.resolution_id in winners:
            winners[link.resolution_id].append(link.claim_id)
    return [_to_resolution(r, sorted(winners[r.id])) for r in rows]


def _current_row(session: Session, item_id: str) -> ResolutionRow | None:
    stmt = (
        select(ResolutionRow)
        .where(ResolutionRow.review_item_id == item_id, ResolutionRow.superseded_at.is_(None))
        .order_by(ResolutionRow.decided_at.desc())
    )
    return session.scalars(stmt.limit(1)).first()


def _winners(session: Session, resolution_id: str) -> list[str]:
    stmt = (
        select(ResolutionWinnerRow.claim_id)
        .where(ResolutionWinnerRow.resolution_id == resolution_id)
        .order_by(ResolutionWinnerRow.claim_id)
    )
    return list(session.scalars(stmt))


def _to_resolution(row: ResolutionRow, winners: list[str]) -> Resolution:
    return Resolution(
        id=row.id,
        review_item_id=row.review_item_id,
        method=ResolutionMethod(row.method),
        outcome=ReviewState(row.outcome),
        winner_claim_ids=winners,
        dismiss_reason=DismissReason(row.dismiss_reason) if row.dismiss_reason else None,
        rationale=row.rationale,
        evidence=list(row.evidence or []),
        decided_by=row.decided_by,
        policy_version=row.policy_version,
        decided_at=as_utc(row.decided_at),
        superseded_at=as_utc(row.superseded_at),
        confidence=row.confidence,
    )
