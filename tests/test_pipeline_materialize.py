"""Whole-graph materialization, idempotence and failure isolation, in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
from sqlalchemy import select

from claims.tables import ClaimRow, SourceVersionRow
from pipeline.definitions import build_definitions
from pipeline.partitions import PARTITION_TAG, all_shards_tags, shard_of
from pipeline.resources import ExtractorResource
from pipeline.runner import run_pipeline
from tests.pipeline_support import (
    ALL_TABLES,
    FIXTURES,
    generation_statuses,
    make_world,
    table_rows,
)


def _run(world, extractor: str = ""):  # type: ignore[no-untyped-def]
    return run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(extractor=extractor),
        batch_size=100,
    )


def test_whole_graph_materializes_the_test_corpus(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    outcome = _run(world)
    assert outcome.failures == []
    assert outcome.check_failures == []
    assert outcome.plan.versions == 6
    assert outcome.runs == 1  # register, the six versions and the graph in one run
    # each shard's partition says what it did; together, the six versions
    done = [
        e.materialization.metadata["versions"].value
        for e in world.instance.fetch_materializations(dg.AssetKey("claims"), limit=100).records
        for e in [e.event_log_entry.dagster_event.event_specific_data]  # type: ignore[union-attr]
    ]
    assert sum(done) == 6
    versions = table_rows(world.store, SourceVersionRow, skip=("ingested_at", "text"))
    assert len(versions) == 6
    with world.store.transaction() as session:
        keys = set(session.scalars(select(ClaimRow.claim_key)))
    assert len(keys) >= 3
    generation, _ = ExtractorResource().generation()
    assert generation_statuses(world.store)[generation] == "active"
    assert outcome.graph_metadata["mode"] == "full"


def test_rerun_with_nothing_new_requests_nothing_and_changes_no_row(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    before = [table_rows(world.store, ClaimRow), table_rows(world.store, SourceVersionRow)]
    again = _run(world)
    assert again.plan.batches == []
    assert again.graph_metadata["mode"] == "incremental"
    assert again.graph_metadata["claim_keys_evaluated"] == 0
    assert [table_rows(world.store, ClaimRow), table_rows(world.store, SourceVersionRow)] == before


def test_rematerializing_a_shard_yields_identical_rows(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    before = [table_rows(world.store, t) for t in ALL_TABLES]
    shard = shard_of("policies/notice-period")
    job = build_definitions(world.resources()).resolve_job_def("claims_pipeline")
    result = job.execute_in_process(instance=world.instance, tags={PARTITION_TAG: shard})
    assert result.success
    claims_events = [
        e
        for e in result.get_asset_materialization_events()
        if e.asset_key.to_user_string() == "claims"
    ]
    assert [e.partition for e in claims_events] == [shard]
    # the store says the shard is done: nothing extracted again, no row touched
    assert claims_events[0].materialization.metadata["versions"].value == 0
    assert claims_events[0].materialization.metadata["new_claims"].value == 0
    assert [table_rows(world.store, t) for t in ALL_TABLES] == before


def test_bad_file_fails_alone_and_the_others_go_through(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    shutil.copy(FIXTURES / "bad/latin1-notes.txt", world.corpus / "ops/latin1-notes.txt")
    outcome = _run(world)
    (failure,) = outcome.failures
    assert failure.what.startswith("ops/latin1-notes@")
    assert "latin1-notes.txt" in failure.message
    assert "not valid UTF-8" in failure.message
    assert failure.message.startswith("source_files_readable: ")
    with world.store.transaction() as session:
        stored = set(session.scalars(select(SourceVersionRow.source_id)))
    assert "ops/latin1-notes" not in stored
    assert len(stored) == 6
    assert outcome.graph_metadata["edges"] > 0  # the graph was still refreshed


def test_failure_halfway_through_a_partition_leaves_it_as_before(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    before = table_rows(world.store, ClaimRow)
    outcome = _run_partitions(world, "tests.pipeline_extractors:fail_halfway")
    assert not outcome.success
    after = table_rows(world.store, ClaimRow)
    handbook = _version_id(world, "policies/notice-period-handbook")
    gen = "gen_test_fail_halfway"
    assert not [r for r in after if r[1] == handbook and r[3] == gen]  # nothing half-written
    # versions processed before the failing one in the batch are complete and kept
    assert len(after) > len(before)
    assert all(row in after for row in before)


def _run_partitions(world, extractor: str):  # type: ignore[no-untyped-def]
    job = build_definitions(world.resources(extractor)).resolve_job_def("claims_pipeline")
    return job.execute_in_process(
        instance=world.instance,
        asset_selection=[dg.AssetKey("claims")],
        tags=all_shards_tags(),
        raise_on_error=False,
    )


def _version_id(world, source_id: str) -> str:  # type: ignore[no-untyped-def]
    with world.store.transaction() as session:
        return session.scalars(
            select(SourceVersionRow.id).where(SourceVersionRow.source_id == source_id)
        ).one()


def _source_in_shard_of(source_id: str, prefix: str) -> str:
    """A source id starting with ``prefix`` that falls in the same shard as ``source_id``."""
    return next(
        f"{prefix}-{n}" for n in range(10_000) if shard_of(f"{prefix}-{n}") == shard_of(source_id)
    )


def test_a_bad_file_fails_alone_and_the_good_files_of_its_shard_go_on(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    neighbour = "policies/notice-period"
    bad_id = _source_in_shard_of(neighbour, "ops/latin1")
    shutil.copy(FIXTURES / "bad/latin1-notes.txt", world.corpus / f"{bad_id}.txt")
    outcome = _run(world)
    assert outcome.runs == 1  # the bad file rides in its shard's run
    (failure,) = outcome.failures
    assert failure.what.split("@")[0] == bad_id
    assert f"{bad_id}.txt" in failure.message and "not valid UTF-8" in failure.message
    (check,) = outcome.check_failures
    assert check.startswith("source_files_readable: 1 file(s) could not be stored")
    with world.store.transaction() as session:
        stored = set(session.scalars(select(SourceVersionRow.source_id)))
        neighbour_claims = session.scalars(
            select(ClaimRow.id)
            .join(SourceVersionRow, SourceVersionRow.id == ClaimRow.source_version_id)
            .where(SourceVersionRow.source_id == neighbour)
        ).all()
    assert bad_id not in stored and neighbour in stored
    assert neighbour_claims  # the good file of the same shard was stored and extracted
    # Dagster planned the run's shards by name, so the UI shows each shard's state.
    planned = world.instance.fetch_planned_materializations(dg.AssetKey("claims"), limit=100)
    partitions = {
        r.event_log_entry.dagster_event.event_specific_data.partition  # type: ignore[union-attr]
        for r in planned.records
    }
    assert shard_of(bad_id) in partitions
    assert world.instance.get_materialized_partitions(dg.AssetKey("claims")) == partitions
    # Asked again, the bad file is named again and nothing else is redone.
    again = _run(world)
    assert [f.what.split("@")[0] for f in again.failures] == [bad_id]
    assert again.versions_processed == 1  # the bad file, tried again
    assert again.plan.batches[0].work == 0


def test_the_runner_s_scan_is_reused_while_pinned_and_released_after(tmp_path: Path) -> None:
    from pipeline import corpus

    world = make_world(tmp_path)
    paths, register = world.sources.sources_paths(), world.sources.register_path()
    first = corpus.scan(paths, register)
    with corpus.pinned(first, paths, register):
        (world.corpus / "ops/new-limit.txt").write_text("The upload limit is 5 MB.\n")
        assert corpus.scan(paths, register) is first  # what the runs were planned from
    assert len(corpus.scan(paths, register).files) == len(first.files) + 1
