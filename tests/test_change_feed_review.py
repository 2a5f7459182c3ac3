"""Review decisions and policy applications reach the graph consumers through the store's
change feed (issue 15.1): review/ records the keys in the decision's own transaction, the
next run's ``conflict_status`` refreshes exactly those keys and acknowledges them with its
rows, and a run after that has nothing left to do."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from claimledger.web import create_app
from claims.settings import Settings
from claims.store import changes
from claims.tables import ClaimKeyChangeRow, ClaimStatusRow, ReviewItemClaimRow, ReviewItemRow
from pipeline.assets.status import CONSUMER as STATUS_CONSUMER
from pipeline.changes import STATUS_KINDS, changes_since
from retrieval.read_model import build_claim_status
from review import queue
from review.policy import apply_policy, load_policy
from review.reviewers import Reviewer
from tests.pipeline_support import PipelineWorld, make_world, run_quietly, table_rows

REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
POLICY = Path(__file__).parent.parent / "review" / "default_policy.yaml"


def _metadata(world: PipelineWorld, asset: str) -> dict[str, Any]:
    event = world.instance.get_latest_materialization_event(dg.AssetKey(asset))
    assert event is not None and event.asset_materialization is not None
    return {k: v.value for k, v in event.asset_materialization.metadata.items()}


def _open_item(world: PipelineWorld) -> tuple[str, str, list[str]]:
    """An open review item of the routed test corpus: (id, claim key, member claim ids)."""
    with world.store.transaction() as session:
        item = session.scalars(
            select(ReviewItemRow).where(ReviewItemRow.state == "open").order_by(ReviewItemRow.id)
        ).first()
        assert item is not None, "the test corpus routes at least one conflict to a person"
        members = sorted(
            session.scalars(
                select(ReviewItemClaimRow.claim_id).where(
                    ReviewItemClaimRow.review_item_id == item.id
                )
            )
        )
        return item.id, item.claim_key, members


def _feed_after(world: PipelineWorld, change_id: int) -> list[tuple[str, str]]:
    with world.store.transaction() as session:
        rows = session.execute(
            select(ClaimKeyChangeRow.kind, ClaimKeyChangeRow.claim_key)
            .where(ClaimKeyChangeRow.id > change_id)
            .order_by(ClaimKeyChangeRow.id)
        )
        return [(kind, key) for kind, key in rows]


def _newest(world: PipelineWorld) -> int:
    with world.store.transaction() as session:
        return changes.newest_change_id(session)


def _statuses(world: PipelineWorld, claim_ids: list[str]) -> set[str]:
    with world.store.transaction() as session:
        return set(
            session.scalars(
                select(ClaimStatusRow.status).where(ClaimStatusRow.claim_id.in_(claim_ids))
            )
        )


def _status_rows(world: PipelineWorld) -> list[tuple]:
    return table_rows(world.store, ClaimStatusRow, skip=("computed_at",))


def test_a_decision_is_in_the_feed_with_its_transaction_and_the_next_run_takes_only_its_key(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    run_quietly(world)
    item_id, key, members = _open_item(world)
    reviewer = Reviewer(name="alice")
    before = _newest(world)

    # a decision rolled back records nothing
    with pytest.raises(RuntimeError), world.store.transaction() as session:
        queue.resolve(session, item_id, reviewer, winners=members[:1], rationale="the handbook")
        raise RuntimeError("the reviewer's request failed after the decision")
    assert _feed_after(world, before) == []

    with world.store.transaction() as session:
        queue.resolve(session, item_id, reviewer, winners=members[:1], rationale="the handbook")
    assert set(_feed_after(world, before)) == {(changes.REVIEW, key)}
    assert "resolved" not in _statuses(world, members)

    # the status consumer's output and its acknowledgement share one transaction: a failure
    # after the rows were rewritten leaves both undone, the key still pending
    with pytest.raises(RuntimeError), world.store.engine.begin() as conn:
        todo = changes_since(conn, STATUS_CONSUMER, full=False, kinds=STATUS_KINDS)
        assert todo.keys == {key}
        build_claim_status(conn, todo.keys)
        todo.acknowledge(conn)
        raise RuntimeError("killed before commit")
    with world.store.engine.begin() as conn:
        assert changes_since(conn, STATUS_CONSUMER, full=False, kinds=STATUS_KINDS).keys == {key}

    run_quietly(world)  # nothing new on disk: only the decision is pending
    status = _metadata(world, "conflict_status")
    assert status["mode"] == "incremental" and status["keys_refreshed"] == 1
    routing = _metadata(world, "review_queue")
    assert routing["mode"] == "incremental" and routing["keys_refreshed"] == 0
    assert _statuses(world, members) == {"resolved"}
    rows = _status_rows(world)

    run_quietly(world)  # and a run after that has nothing to do and rewrites nothing
    again = _metadata(world, "conflict_status")
    assert again["mode"] == "incremental" and again["keys_refreshed"] == 0
    assert _status_rows(world) == rows
    with world.store.engine.begin() as conn:
        build_claim_status(conn)  # a full rebuild gives the same rows
    assert _status_rows(world) == rows


def _csrf(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, html
    return match.group(1)


def test_a_decision_made_in_the_reviewer_web_ui_reaches_the_next_run(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    run_quietly(world)
    item_id, key, members = _open_item(world)
    before = _newest(world)
    settings = Settings(database_url=world.database_url, reviewers_file=REVIEWERS)
    with TestClient(create_app(settings)) as client:
        page = client.get("/review/login")
        client.post(
            "/review/login",
            data={"username": "bob", "password": "battery staple", "csrf_token": _csrf(page.text)},
        )
        csrf = _csrf(client.get("/review/queue").text)
        with world.store.transaction() as session:
            revision = session.get(ReviewItemRow, item_id).revision  # type: ignore[union-attr]
        claimed = client.post(
            f"/review/items/{item_id}/claim", data={"csrf_token": csrf, "revision": revision}
        )
        assert "You claimed the item." in claimed.text
        # claiming alone puts the key's claims under review: the feed has it already
        assert (changes.REVIEW, key) in _feed_after(world, before)
        with world.store.transaction() as session:
            revision = session.get(ReviewItemRow, item_id).revision  # type: ignore[union-attr]
        done = client.post(
            f"/review/items/{item_id}/resolve",
            data={
                "csrf_token": csrf,
                "revision": revision,
                "winner": members[:1],
                "rationale": "the later approved note",
            },
        )
        assert done.status_code == 200 and "Resolved." in done.text

    run_quietly(world)
    status = _metadata(world, "conflict_status")
    assert status["mode"] == "incremental" and status["keys_refreshed"] == 1
    assert _statuses(world, members) == {"resolved"}


def test_a_policy_application_makes_both_consumers_refresh_every_key_once(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    run_quietly(world)
    before = _newest(world)
    policy = load_policy(POLICY).model_copy(update={"version": "2026-12-01-stricter"})
    with world.store.transaction() as session:
        _, applied = apply_policy(session, policy, actor="alice")
    assert applied
    assert (changes.POLICY, changes.ALL_KEYS) in _feed_after(world, before)

    run_quietly(world)
    for asset in ("review_queue", "conflict_status"):
        metadata = _metadata(world, asset)
        assert metadata["mode"] == "full", (asset, metadata)
        assert metadata["full_because"] in (
            "an authority policy was applied",
            "a full edge evaluation since the last run",  # materiality may change the edges
        )
    run_quietly(world)
    for asset in ("review_queue", "conflict_status"):
        metadata = _metadata(world, asset)
        assert metadata["mode"] == "incremental" and metadata["keys_refreshed"] == 0, asset


def test_a_cursor_written_before_reviews_were_in_the_feed_refreshes_in_full_once(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    run_quietly(world)
    with world.store.transaction() as session:
        upto = changes.newest_change_id(session)
        changes.acknowledge(session, STATUS_CONSUMER, upto, {"audit_cursor": 3})
    run_quietly(world)
    status = _metadata(world, "conflict_status")
    assert status["mode"] == "full"
    assert status["full_because"] == "cursor from before review changes were in the change feed"
    run_quietly(world)
    assert _metadata(world, "conflict_status")["mode"] == "incremental"
