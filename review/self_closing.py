"""Review items that close themselves: their conflict is gone (issue 31.13).

After a document is corrected and re-run, the edges of its old conflict are retired and no
live conflict set holds the item's claims. Routing (``review.routing.route``) then dismisses
the item itself, audited as its actor's decision with dismiss reason ``evidence_changed``,
instead of leaving it open for someone to dismiss by hand; it reopens if the conflict
comes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import DismissReason, ResolutionMethod, ReviewState
from claims.tables import ClaimRow
from review.items import ReviewItemRepository
from review.policy import AuthorityPolicy
from review.queue import change_item
from review.resolutions import record_resolution

EVIDENCE_CHANGED = "evidence changed: none of the item's claims is in a live conflict any more"


def close_without_conflict(
    session: Session, item_id: str, policy: AuthorityPolicy, now: datetime, *, actor: str
) -> None:
    """Dismiss an item whose conflict no longer exists (a corrected and re-run document, a
    replaced version): audited as ``router``'s decision with reason ``evidence_changed``;
    a deferral or a reviewer's lock ends with it. It reopens if the conflict comes back
    (``routing._check_closed_item``)."""
    row = ReviewItemRepository(session).row(item_id)
    change_item(
        session,
        row,
        actor=actor,
        action="item.dismissed",
        changes={
            "state": ReviewState.DISMISSED.value,
            "assignee": None,
            "lock_expires_at": None,
            "deferred_until": None,
            "policy_version": policy.stamp,
        },
        now=now,
        policy_version=policy.stamp,
        detail={"reason": DismissReason.EVIDENCE_CHANGED.value},
    )
    record_resolution(
        session,
        item_id=row.id,
        item_revision=row.revision,
        method=ResolutionMethod.RULE,
        outcome=ReviewState.DISMISSED,
        winners=[],
        rationale=EVIDENCE_CHANGED,
        evidence=[],
        decided_by=actor,
        policy_version=policy.stamp,
        dismiss_reason=DismissReason.EVIDENCE_CHANGED,
        now=now,
    )


def sources_of_claims(session: Session, claim_ids: Iterable[str]) -> dict[str, str]:
    """Claim id -> its source id."""
    ids = sorted(set(claim_ids))
    found: dict[str, str] = {}
    for start in range(0, len(ids), 500):
        stmt = select(ClaimRow.id, ClaimRow.source_id).where(
            ClaimRow.id.in_(ids[start : start + 500])
        )
        found.update((c, source) for c, source in session.execute(stmt))
    return found
