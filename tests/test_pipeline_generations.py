"""Extractor generations: a new one is computed beside the active one and promoted only
when the conflict regression check passes; a broken one is failed and never read."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import func, select

from claims.store import GenerationRepository
from claims.tables import ClaimRow, EdgeRow
from pipeline.resources import ExtractorResource
from pipeline.runner import run_pipeline
from tests.pipeline_support import claims_of_generation, generation_statuses, make_world


def _run(world, extractor: str = ""):  # type: ignore[no-untyped-def]
    return run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(extractor=extractor),
        batch_size=100,
    )


def _versions_with_claims(world, generation: str) -> int:  # type: ignore[no-untyped-def]
    with world.store.transaction() as session:
        return session.scalar(
            select(func.count(func.distinct(ClaimRow.source_version_id))).where(
                ClaimRow.generation == generation
            )
        )


def _active(world) -> str | None:  # type: ignore[no-untyped-def]
    with world.store.transaction() as session:
        active = GenerationRepository(session).active()
        return active.id if active else None


def test_broken_generation_is_computed_beside_the_active_one_then_failed(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    assert _run(world).failures == []
    good, _ = ExtractorResource().generation()
    assert _active(world) == good
    good_versions = _versions_with_claims(world, good)

    outcome = _run(world, "tests.pipeline_extractors:drop_values")

    broken = "gen_test_drop_values"
    # computed beside the active one over the whole corpus ...
    assert _versions_with_claims(world, broken) == good_versions
    # ... reported in the run ...
    assert any(f.startswith("conflict_regression") for f in outcome.check_failures)
    assert [f.what for f in outcome.failures] == ["graph"]
    # ... marked failed with the cases it got wrong, and never made the one readers see
    statuses = generation_statuses(world.store)
    assert statuses[broken] == "failed"
    assert statuses[good] == "active"
    assert _active(world) == good
    with world.store.transaction() as session:
        report = GenerationRepository(session).get(broken).regression_report
    failed_cases = {case["id"] for case in report["failed"]}
    assert "restated-dividend" in failed_cases
    assert claims_of_generation(world.store, good) > 0


def test_passing_generation_is_promoted_and_the_old_one_retired(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    old, _ = ExtractorResource().generation()

    outcome = _run(world, "tests.pipeline_extractors:relabelled")

    new = "gen_test_relabelled"
    assert outcome.failures == []
    assert generation_statuses(world.store) == {old: "retired", new: "active"}
    assert _active(world) == new
    assert _versions_with_claims(world, new) == _versions_with_claims(world, old)
    with world.store.transaction() as session:
        new_edges = session.scalar(
            select(func.count()).select_from(EdgeRow).where(EdgeRow.generation == new)
        )
    assert new_edges > 0
    assert outcome.graph_metadata["mode"] == "full"  # a new generation's graph is built whole
