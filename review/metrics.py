"""Metrics of the conflict machinery, computed from the store.

A caller gets ``review_metrics(session, policy)`` -> ``ReviewMetrics`` (``as_dict()`` for JSON
and Dagster metadata). Definitions (also in docs/REVIEW.md):

- conflict_candidates: live conflict edges; conflict_sets: review items (one per set).
- confirmed precision: confirmed / (confirmed + dismissed), where confirmed means a reviewer
  resolved the item or marked it ambiguous (still a conflict) and dismissed means a reviewer
  said it is not a conflict. Rule resolutions are not human judgements and are left out.
  None when no reviewer has decided anything yet.
- unresolved age: hours since opening of open, claimed and deferred items (median, max).
- open items per high-risk predicate: unresolved items grouped by the policy pattern.
- share auto-resolved vs reviewed: among items with a standing resolution.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import ResolutionMethod, ReviewState
from claims.tables import ReviewItemRow
from review.conflict_edges import count_live_conflict_edges
from review.items import UNRESOLVED_STATES, as_utc
from review.policy import AuthorityPolicy
from review.resolutions import current_resolutions


@dataclass
class ReviewMetrics:
    conflict_candidates: int
    conflict_sets: int
    items_by_state: dict[str, int]
    confirmed: int
    dismissed: int
    confirmed_precision: float | None
    unresolved: int
    unresolved_age_median_hours: float | None
    unresolved_age_max_hours: float | None
    open_high_risk_by_predicate: dict[str, int] = field(default_factory=dict)
    auto_resolved: int = 0
    reviewed: int = 0
    share_auto_resolved: float | None = None
    share_reviewed: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class _ItemFigures(NamedTuple):
    state: ReviewState
    opened_at: datetime | None
    high_risk: bool
    claim_key: str


def review_metrics(
    session: Session, policy: AuthorityPolicy | None, *, now: datetime | None = None
) -> ReviewMetrics:
    """Current figures; ``policy`` groups high-risk items by pattern (None: by claim key)."""
    now = now or datetime.now(UTC)
    # the columns the figures need, not whole items with their claim lists (metrics run
    # after every routing pass; a store has as many items as conflict sets)
    items = [
        _ItemFigures(ReviewState(state), as_utc(opened_at), bool(high_risk), claim_key)
        for state, opened_at, high_risk, claim_key in session.execute(
            select(
                ReviewItemRow.state,
                ReviewItemRow.opened_at,
                ReviewItemRow.high_risk,
                ReviewItemRow.claim_key,
            )
        )
    ]
    states = Counter(i.state.value for i in items)
    resolutions = current_resolutions(session)
    reviewer = [r for r in resolutions if r.method is ResolutionMethod.REVIEWER]
    confirmed = sum(r.outcome in (ReviewState.RESOLVED, ReviewState.AMBIGUOUS) for r in reviewer)
    dismissed = sum(r.outcome is ReviewState.DISMISSED for r in reviewer)
    auto = sum(r.method is ResolutionMethod.RULE for r in resolutions)
    unresolved = [i for i in items if i.state in UNRESOLVED_STATES]
    ages = sorted(
        (now - i.opened_at).total_seconds() / 3600.0 for i in unresolved if i.opened_at is not None
    )
    by_predicate: Counter[str] = Counter()
    for item in unresolved:
        if not item.high_risk:
            continue
        pattern = policy.high_risk_pattern(item.claim_key) if policy else None
        by_predicate[pattern or item.claim_key] += 1
    decided = auto + len(reviewer)
    return ReviewMetrics(
        conflict_candidates=count_live_conflict_edges(session),
        conflict_sets=len(items),
        items_by_state={s.value: states.get(s.value, 0) for s in ReviewState},
        confirmed=confirmed,
        dismissed=dismissed,
        confirmed_precision=(
            round(confirmed / (confirmed + dismissed), 4) if confirmed + dismissed else None
        ),
        unresolved=len(unresolved),
        unresolved_age_median_hours=round(statistics.median(ages), 2) if ages else None,
        unresolved_age_max_hours=round(ages[-1], 2) if ages else None,
        open_high_risk_by_predicate=dict(sorted(by_predicate.items())),
        auto_resolved=auto,
        reviewed=len(reviewer),
        share_auto_resolved=round(auto / decided, 4) if decided else None,
        share_reviewed=round(len(reviewer) / decided, 4) if decided else None,
    )
