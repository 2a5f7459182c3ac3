"""What a claim store holds, by content, for comparing two stores (the reset tests)."""

from __future__ import annotations

from sqlalchemy import select

from claims.tables import ClaimRow, ClaimStatusRow, EdgeRow, ReviewItemClaimRow, ReviewItemRow
from pipeline.resources import ClaimStore
from tests.pipeline_support import table_rows


def ledger(store: ClaimStore) -> dict[str, list[tuple]]:
    """Claims, live edges, review items with their claims and claim statuses, without
    timestamps or random ids (two stores built apart differ in those only)."""
    with store.transaction() as session:
        members: dict[str, list[str]] = {}
        for item_id, claim_id in session.execute(
            select(ReviewItemClaimRow.review_item_id, ReviewItemClaimRow.claim_id)
        ):
            members.setdefault(item_id, []).append(claim_id)
        items = sorted(
            (key, state, high_risk, policy, tuple(sorted(members.get(item_id, []))))
            for item_id, key, state, high_risk, policy in session.execute(
                select(
                    ReviewItemRow.id,
                    ReviewItemRow.claim_key,
                    ReviewItemRow.state,
                    ReviewItemRow.high_risk,
                    ReviewItemRow.policy_version,
                )
            )
        )
        edges = sorted(
            tuple(row)
            for row in session.execute(
                select(
                    EdgeRow.kind,
                    EdgeRow.left_claim_id,
                    EdgeRow.right_claim_id,
                    EdgeRow.claim_key,
                    EdgeRow.rule,
                    EdgeRow.material,
                ).where(EdgeRow.retired_at.is_(None))
            )
        )
        statuses = sorted(
            tuple(row)
            for row in session.execute(
                select(
                    ClaimStatusRow.claim_id, ClaimStatusRow.status, ClaimStatusRow.policy_version
                )
            )
        )
    return {
        "claims": table_rows(store, ClaimRow, skip=("created_at",)),
        "edges": edges,
        "review_items": items,
        "claim_status": statuses,
    }
