"""A review item whose conflict is gone closes itself (issue 31, point 13), end to end.

The notice period is 30 days in one policy and 60 days in the handbook: a review item. The
policy is corrected to 60 days and the pipeline runs again: the old version is replaced,
no conflict is left, and the item is dismissed by routing with reason ``evidence_changed``
(audited), where it used to stay open until someone dismissed it by hand.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from claims.models import DismissReason, ReviewState
from claims.tables import AuditEventRow, ReviewItemRow
from review.resolutions import current_resolution
from tests.pipeline_support import make_world, run_quietly


def test_correcting_a_document_closes_its_review_item(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    run_quietly(world)
    with world.store.transaction() as session:
        items = {
            row.id: row.state
            for row in session.scalars(
                select(ReviewItemRow).where(ReviewItemRow.claim_key == "notice period")
            )
        }
    assert list(items.values()) == [ReviewState.OPEN.value], items
    (item_id,) = items

    policy = world.corpus / "policies" / "notice-period.md"
    policy.write_text(policy.read_text().replace("30 days", "60 days"), encoding="utf-8")
    run_quietly(world)
    with world.store.transaction() as session:
        row = session.get(ReviewItemRow, item_id)
        assert row is not None and row.state == ReviewState.DISMISSED.value
        resolution = current_resolution(session, item_id)
        assert resolution is not None
        assert resolution.dismiss_reason is DismissReason.EVIDENCE_CHANGED
        audited = session.scalars(
            select(AuditEventRow.action).where(AuditEventRow.entity_id == item_id)
        ).all()
        assert "item.dismissed" in audited
