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
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.models import ResolutionMethod, ReviewState
from claims.tables import ResolutionRow, ReviewItemRow
from review.conflict_edges import count_live_conflict_edges
from review.items import UNRESOLVED_STATES, as_utc
from review.policy import AuthorityPolicy


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


def review_metrics(
    session: Session, policy: AuthorityPolicy | None, *, now: datetime | None = None
) -> ReviewMetrics:
    """Current figures; ``policy`` groups high-risk items by pattern (None: by claim key).

    Counted by the database (items by state, standing resolutions by method and outcome),
    the median age read from the one or two middle items by opening time, and only the
    unresolved high-risk items' keys read: the figures hold nothing in proportion to the
    store (a store has as many items as conflict sets; issue 33)."""
    now = now or datetime.now(UTC)
    states: Counter[str] = Counter(
        {
            str(state): int(count)
            for state, count in session.execute(
                select(ReviewItemRow.state, func.count()).group_by(ReviewItemRow.state)
            )
        }
    )
    decisions: Counter[tuple[str, str]] = Counter(
        {
            (str(method), str(outcome)): int(count)
            for method, outcome, count in session.execute(
                select(ResolutionRow.method, ResolutionRow.outcome, func.count())
                .where(ResolutionRow.superseded_at.is_(None))
                .group_by(ResolutionRow.method, ResolutionRow.outcome)
            )
        }
    )
    reviewer = {o: n for (m, o), n in decisions.items() if m == ResolutionMethod.REVIEWER.value}
    confirmed = sum(reviewer.get(s.value, 0) for s in (ReviewState.RESOLVED, ReviewState.AMBIGUOUS))
    dismissed = reviewer.get(ReviewState.DISMISSED.value, 0)
    reviewed = sum(reviewer.values())
    auto = sum(n for (m, _), n in decisions.items() if m == ResolutionMethod.RULE.value)
    unresolved = sum(states[s.value] for s in UNRESOLVED_STATES)
    median_age, max_age = _unresolved_ages(session, now)
    by_predicate: Counter[str] = Counter()
    high_risk_keys = select(ReviewItemRow.claim_key).where(
        ReviewItemRow.state.in_([s.value for s in UNRESOLVED_STATES]),
        ReviewItemRow.high_risk.is_(True),
    )
    for claim_key in session.scalars(high_risk_keys):
        pattern = policy.high_risk_pattern(claim_key) if policy else None
        by_predicate[pattern or claim_key] += 1
    decided = auto + reviewed
    return ReviewMetrics(
        conflict_candidates=count_live_conflict_edges(session),
        conflict_sets=sum(states.values()),
        items_by_state={s.value: states.get(s.value, 0) for s in ReviewState},
        confirmed=confirmed,
        dismissed=dismissed,
        confirmed_precision=(
            round(confirmed / (confirmed + dismissed), 4) if confirmed + dismissed else None
        ),
        unresolved=unresolved,
        unresolved_age_median_hours=median_age,
        unresolved_age_max_hours=max_age,
        open_high_risk_by_predicate=dict(sorted(by_predicate.items())),
        auto_resolved=auto,
        reviewed=reviewed,
        share_auto_resolved=round(auto / decided, 4) if decided else None,
        share_reviewed=round(reviewed / decided, 4) if decided else None,
    )


def _unresolved_ages(session: Session, now: datetime) -> tuple[float | None, float | None]:
    """(median, max) hours since the unresolved items opened (None, None: there are none),
    from the one or two middle items by opening time and the oldest one."""
    dated = (
        ReviewItemRow.state.in_([s.value for s in UNRESOLVED_STATES]),
        ReviewItemRow.opened_at.is_not(None),
    )
    count = int(session.scalar(select(func.count()).select_from(ReviewItemRow).where(*dated)) or 0)
    if not count:
        return None, None
    by_opening = select(ReviewItemRow.opened_at).where(*dated).order_by(ReviewItemRow.opened_at)

    def age(offset: int) -> float:
        opened = as_utc(session.scalar(by_opening.offset(offset).limit(1)))
        assert opened is not None
        return (now - opened).total_seconds() / 3600.0

    middle = [age(count // 2)] if count % 2 else [age(count // 2 - 1), age(count // 2)]
    # statistics.median of the ages, youngest first: the same one or two middle values
    median = statistics.median(sorted(middle))
    return round(median, 2), round(age(0), 2)
