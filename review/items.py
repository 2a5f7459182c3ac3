"""Review items in and out of the store: the conflict sets and their claim membership.

A caller gets ``ReviewItemRepository(session)`` with reads that return ``ReviewItem``
models, and ``snapshot(row)``: the plain dict written to the audit log before and after
each change.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.errors import NotFoundError
from claims.models import ReviewItem, ReviewState
from claims.store.bulk import insert_rows
from claims.tables import ClaimRow, ExtractorGenerationRow, ReviewItemClaimRow, ReviewItemRow

UNRESOLVED_STATES = (ReviewState.OPEN, ReviewState.CLAIMED, ReviewState.DEFERRED)
CLOSED_STATES = (ReviewState.RESOLVED, ReviewState.DISMISSED, ReviewState.AMBIGUOUS)


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite hands timestamps back naive; every stored timestamp is UTC."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def snapshot(row: ReviewItemRow, claim_ids: Iterable[str] | None = None) -> dict[str, Any]:
    """The auditable state of an item as JSON-ready data."""
    lock = as_utc(row.lock_expires_at)
    data: dict[str, Any] = {
        "state": row.state,
        "assignee": row.assignee,
        "lock_expires_at": lock.isoformat() if lock else None,
        "deferred_until": row.deferred_until.isoformat() if row.deferred_until else None,
        "revision": row.revision,
        "risk": row.risk,
        "high_risk": row.high_risk,
        "policy_version": row.policy_version,
    }
    if claim_ids is not None:
        data["claim_ids"] = sorted(claim_ids)
    return data


class ReviewItemRepository:
    """Review items within one session (the caller owns the transaction)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def row(self, item_id: str) -> ReviewItemRow:
        row = self.session.get(ReviewItemRow, item_id)
        if row is None:
            raise NotFoundError(f"no review item {item_id!r}; `claims review list` shows the queue")
        return row

    def get(self, item_id: str) -> ReviewItem:
        row = self.row(item_id)
        return self._to_item(row, self.claim_ids(item_id))

    def claim_ids(self, item_id: str) -> list[str]:
        stmt = (
            select(ReviewItemClaimRow.claim_id)
            .where(ReviewItemClaimRow.review_item_id == item_id)
            .order_by(ReviewItemClaimRow.claim_id)
        )
        return list(self.session.scalars(stmt))

    def current_claim_ids(self, item_id: str) -> list[str]:
        """The members a reviewer decides on: those of the active extractor generation when
        the item has any (an item carried over to a new generation keeps its old claims as
        history), else all of them."""
        members = self.claim_ids(item_id)
        active = select(ExtractorGenerationRow.id).where(ExtractorGenerationRow.status == "active")
        live = set(
            self.session.scalars(
                select(ClaimRow.id).where(ClaimRow.id.in_(members), ClaimRow.generation.in_(active))
            )
        )
        return [c for c in members if c in live] if live else members

    def claim_ids_for(self, item_ids: Sequence[str]) -> dict[str, list[str]]:
        members: dict[str, list[str]] = defaultdict(list)
        ids = list(item_ids)
        for start in range(0, len(ids), 500):
            # plain rows: building tracked instances of every link cost more than the query
            stmt = (
                select(ReviewItemClaimRow.review_item_id, ReviewItemClaimRow.claim_id)
                .where(ReviewItemClaimRow.review_item_id.in_(ids[start : start + 500]))
                .order_by(ReviewItemClaimRow.claim_id)
            )
            for item_id, claim_id in self.session.execute(stmt):
                members[item_id].append(claim_id)
        return members

    def rows_for_keys(self, claim_keys: Sequence[str]) -> list[ReviewItemRow]:
        keys = list(dict.fromkeys(claim_keys))
        rows: list[ReviewItemRow] = []
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            stmt = select(ReviewItemRow).where(ReviewItemRow.claim_key.in_(chunk))
            rows += list(self.session.scalars(stmt))
        return sorted(rows, key=lambda r: r.id)

    def add_claims(self, item_id: str, claim_ids: Iterable[str]) -> None:
        self.add_claims_of([(item_id, claim_ids)])

    def add_claims_of(self, items: Iterable[tuple[str, Iterable[str]]]) -> None:
        """``add_claims`` for many items in one statement."""
        rows = [
            {"review_item_id": item_id, "claim_id": c}
            for item_id, claim_ids in items
            for c in sorted(set(claim_ids))
        ]
        insert_rows(self.session, ReviewItemClaimRow.__table__, rows)  # type: ignore[arg-type]

    def search(
        self,
        *,
        states: Sequence[ReviewState] | None = None,
        assignee: str | None = None,
        high_risk: bool | None = None,
        key_contains: str | None = None,
        limit: int | None = None,
    ) -> list[ReviewItem]:
        """Items sorted for a reviewer: high-risk first, then risk, then oldest first."""
        stmt = select(ReviewItemRow)
        if states:
            stmt = stmt.where(ReviewItemRow.state.in_([s.value for s in states]))
        if assignee is not None:
            stmt = stmt.where(ReviewItemRow.assignee == assignee)
        if high_risk is not None:
            stmt = stmt.where(ReviewItemRow.high_risk.is_(high_risk))
        if key_contains:
            stmt = stmt.where(ReviewItemRow.claim_key.contains(key_contains, autoescape=True))
        stmt = stmt.order_by(
            ReviewItemRow.high_risk.desc(),
            ReviewItemRow.risk.desc(),
            ReviewItemRow.opened_at,
            ReviewItemRow.id,
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        rows = list(self.session.scalars(stmt))
        members = self.claim_ids_for([r.id for r in rows])
        return [self._to_item(r, members.get(r.id, [])) for r in rows]

    def all_rows(self) -> list[ReviewItemRow]:
        return list(self.session.scalars(select(ReviewItemRow).order_by(ReviewItemRow.id)))

    @staticmethod
    def _to_item(row: ReviewItemRow, claim_ids: list[str]) -> ReviewItem:
        deferred: date | None = row.deferred_until
        return ReviewItem(
            id=row.id,
            claim_key=row.claim_key,
            state=ReviewState(row.state),
            claim_ids=claim_ids,
            risk=row.risk,
            high_risk=row.high_risk,
            assignee=row.assignee,
            lock_expires_at=as_utc(row.lock_expires_at),
            deferred_until=deferred,
            revision=row.revision,
            policy_version=row.policy_version,
            opened_at=as_utc(row.opened_at),
            updated_at=as_utc(row.updated_at),
        )
