"""The graph-level assets refresh only what changed, and the result equals a full rebuild."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import select

from claims.tables import ClaimRow, ClaimStatusRow, EdgeRow, ReviewItemRow
from pipeline.resources import ExtractorResource
from pipeline.runner import PipelineRun, run_pipeline
from retrieval.read_model import build_claim_status
from review import queue
from review.reviewers import Reviewer
from tests.pipeline_support import FIXTURES, PipelineWorld, make_world, table_rows

STATUS_COLUMNS = ("computed_at",)


def _run(world: PipelineWorld, *, full_graph: bool = False) -> PipelineRun:
    outcome = run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(),
        batch_size=100,
        full_graph=full_graph,
        log_level="CRITICAL",
    )
    assert outcome.failures == []
    return outcome


def _latest_metadata(world: PipelineWorld, asset: str) -> dict[str, Any]:
    import dagster as dg

    event = world.instance.get_latest_materialization_event(dg.AssetKey(asset))
    assert event is not None and event.asset_materialization is not None
    return {k: v.value for k, v in event.asset_materialization.metadata.items()}


def _status_rows(world: PipelineWorld) -> list[tuple]:
    return table_rows(world.store, ClaimStatusRow, skip=STATUS_COLUMNS)


def _status_after_full_rebuild(world: PipelineWorld) -> list[tuple]:
    with world.store.engine.begin() as conn:
        build_claim_status(conn)
    return _status_rows(world)


def _all_keys(world: PipelineWorld) -> set[str]:
    with world.store.transaction() as session:
        return set(session.scalars(select(ClaimRow.claim_key)))


def test_an_edited_file_refreshes_only_its_keys_and_matches_a_full_rebuild(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    _run(world)
    for asset in ("claim_edges", "review_queue", "conflict_status"):
        assert _latest_metadata(world, asset)["mode"] == "full"
    all_keys = _all_keys(world)

    shutil.copy(FIXTURES / "changed-notice-period.md", world.corpus / "policies/notice-period.md")
    _run(world)

    edges = _latest_metadata(world, "claim_edges")
    assert edges["mode"] == "incremental"
    touched = set(edges["touched_claim_keys"])
    notice_keys = {k for k in touched if "notice" in k}
    assert notice_keys, touched
    assert touched < all_keys  # the dividend and checkout keys were not touched
    for asset in ("review_queue", "conflict_status"):
        metadata = _latest_metadata(world, asset)
        assert metadata["mode"] == "incremental", (asset, metadata["full_because"])
        assert 0 < metadata["keys_refreshed"] < len(all_keys)
    # 45 days now contradicts the handbook too: the refreshed rows say so
    incremental = _status_rows(world)
    assert incremental == _status_after_full_rebuild(world)


def test_a_reviewer_decision_between_runs_reaches_the_read_model(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    with world.store.transaction() as session:
        item = session.scalars(select(ReviewItemRow).order_by(ReviewItemRow.id)).first()
        assert item is not None
        item_id, key = item.id, item.claim_key
        members = [
            e.left_claim_id
            for e in session.scalars(
                select(EdgeRow).where(EdgeRow.claim_key == key, EdgeRow.kind == "conflicts")
            )
        ]
    reviewer = Reviewer(name="alice")
    with world.store.transaction() as session:
        queue.resolve(session, item_id, reviewer, winners=members[:1], rationale="the policy")

    before = {r[0]: r for r in _status_rows(world)}
    assert all(before[c][2] != "resolved" for c in members)  # (claim_id, key, status, ...)
    _run(world)  # nothing new on disk
    metadata = _latest_metadata(world, "conflict_status")
    assert metadata["mode"] == "incremental"
    assert metadata["keys_refreshed"] >= 1
    after = {r[0]: r for r in _status_rows(world)}
    assert {after[c][2] for c in members} == {"resolved"}
    assert _status_rows(world) == _status_after_full_rebuild(world)


def test_a_register_change_recomputes_the_edges_of_its_sources(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    with world.store.transaction() as session:
        supersedes = session.scalars(
            select(EdgeRow.id).where(EdgeRow.kind == "supersedes", EdgeRow.retired_at.is_(None))
        ).all()
    assert supersedes == []
    register = world.register.read_text("utf-8")
    world.register.write_text(
        register.replace(
            "    tier: official\n    access_groups: [finance]\n",
            "    tier: official\n    access_groups: [finance]\n"
            "    supersedes: [finance/dividend-2024]\n",
        ),
        encoding="utf-8",
    )
    _run(world)

    edges = _latest_metadata(world, "claim_edges")
    assert edges["mode"] == "incremental"
    assert any("dividend" in k for k in edges["touched_claim_keys"])
    with world.store.transaction() as session:
        supersedes = session.scalars(
            select(EdgeRow.id).where(EdgeRow.kind == "supersedes", EdgeRow.retired_at.is_(None))
        ).all()
    assert supersedes  # the restatement now replaces the announcement's differing claims
    statuses = {r[2] for r in _status_rows(world) if "dividend" in r[1]}
    assert "superseded" in statuses
    assert _status_rows(world) == _status_after_full_rebuild(world)


def test_the_nightly_full_refresh_rebuilds_everything(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    _run(world, full_graph=True)
    for asset in ("claim_edges", "review_queue", "conflict_status"):
        metadata = _latest_metadata(world, asset)
        assert metadata["mode"] == "full"
        assert metadata["full_because"] == "configured full"


def test_the_dangling_edge_check_follows_the_evaluation_it_guards(tmp_path: Path) -> None:
    import dagster as dg

    world = make_world(tmp_path)
    check = dg.AssetCheckKey(dg.AssetKey("claim_edges"), "edges_point_to_existing_claims")

    def scope() -> str:
        record = world.instance.get_latest_asset_check_evaluation_record(check)
        assert record is not None and record.evaluation is not None
        assert record.evaluation.passed
        return str(record.evaluation.metadata["scope"].value)

    _run(world)
    assert scope() == "all edges"
    shutil.copy(FIXTURES / "changed-notice-period.md", world.corpus / "policies/notice-period.md")
    _run(world)
    touched = _latest_metadata(world, "claim_edges")["touched_claim_keys"]
    assert scope() == f"{len(touched)} touched claim keys"
