"""The sources sensor and the nightly reconciliation schedule, evaluated against a real
instance and store."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from pipeline.definitions import build_definitions
from pipeline.partitions import (
    PARTITION_TAG,
    RANGE_END_TAG,
    RANGE_START_TAG,
    SOURCE_VERSIONS_PARTITIONS_NAME,
)
from tests.pipeline_support import FIXTURES, make_world


def _evaluate_sensor(world, cursor: str | None = None):  # type: ignore[no-untyped-def]
    defs = build_definitions(world.resources())
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(), definitions=defs, cursor=cursor
    ) as context:
        return sensor(context)


def _apply(world, result) -> str | None:  # type: ignore[no-untyped-def]
    """Do what the daemon does with a sensor result: add the partitions, keep the cursor."""
    for request in result.dynamic_partitions_requests or []:
        world.instance.add_dynamic_partitions(request.partitions_def_name, request.partition_keys)
    return result.cursor


def test_new_files_become_partitions_and_one_batched_run(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = _evaluate_sensor(world)
    assert isinstance(result, dg.SensorResult)
    (added,) = result.dynamic_partitions_requests
    assert added.partitions_def_name == SOURCE_VERSIONS_PARTITIONS_NAME
    assert len(added.partition_keys) == 6
    assert "policies/notice-period@" in " ".join(added.partition_keys)
    (request,) = result.run_requests
    assert request.tags[RANGE_START_TAG] == added.partition_keys[0]
    assert request.tags[RANGE_END_TAG] == added.partition_keys[-1]


def _stored(world, result) -> str | None:  # type: ignore[no-untyped-def]
    """Apply a sensor result and run what it asked for (the store then holds the files)."""
    from pipeline.runner import run_pipeline

    cursor = _apply(world, result)
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    return cursor


def test_unchanged_files_request_nothing(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    cursor = _stored(world, _evaluate_sensor(world))
    again = _evaluate_sensor(world, cursor)
    assert isinstance(again, dg.SkipReason)


def test_files_the_store_lacks_are_asked_for_until_a_run_covers_them(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    first = _evaluate_sensor(world)
    _apply(world, first)
    # Nothing stored yet and no run queued: the same run again (its run key is the same, so
    # the daemon launches it once).
    again = _evaluate_sensor(world)
    assert isinstance(again, dg.SensorResult)
    assert [r.run_key for r in again.run_requests] == [r.run_key for r in first.run_requests]
    assert again.dynamic_partitions_requests == []  # Dagster already has the partitions
    # While a run covering them is in progress, nothing is asked for twice.
    (request,) = first.run_requests
    world.instance.create_run_for_job(
        build_definitions(world.resources()).resolve_job_def("claims_pipeline"),
        tags=request.tags,
        status=dg.DagsterRunStatus.STARTED,
    )
    assert isinstance(_evaluate_sensor(world, first.cursor), dg.SkipReason)


def test_changed_file_adds_one_partition_and_one_run(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    cursor = _stored(world, _evaluate_sensor(world))
    shutil.copy(FIXTURES / "changed-notice-period.md", world.corpus / "policies/notice-period.md")
    result = _evaluate_sensor(world, cursor)
    assert isinstance(result, dg.SensorResult)
    (added,) = result.dynamic_partitions_requests
    (key,) = added.partition_keys
    assert key.startswith("policies/notice-period@")
    (request,) = result.run_requests
    assert request.tags[PARTITION_TAG] == key


def test_bad_file_gets_its_own_run(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    shutil.copy(FIXTURES / "bad/latin1-notes.txt", world.corpus / "ops/latin1-notes.txt")
    result = _evaluate_sensor(world)
    assert isinstance(result, dg.SensorResult)
    assert len(result.run_requests) == 2
    alone = [r for r in result.run_requests if PARTITION_TAG in r.tags]
    assert [r.tags[PARTITION_TAG].split("@")[0] for r in alone] == ["ops/latin1-notes"]
    assert alone[0].tags["claimledger/reason"] == "invalid"
    # the graph is evaluated once, by the last run (the good batch)
    first, last = result.run_requests
    assert first is alone[0]
    assert dg.AssetKey("claim_edges") not in first.asset_selection
    assert last.asset_selection is None  # the whole job


def test_changed_register_requests_a_graph_refresh(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    cursor = _stored(world, _evaluate_sensor(world))
    world.register.write_text(
        world.register.read_text().replace("title: Staff handbook", "title: Staff handbook v2")
    )
    result = _evaluate_sensor(world, cursor)
    assert isinstance(result, dg.SensorResult)
    (request,) = result.run_requests
    assert request.tags["claimledger/reason"] == "register"
    assert dg.AssetKey("claim_edges") in request.asset_selection
    assert dg.AssetKey("claims") not in request.asset_selection


def test_nightly_reconciliation_adds_missed_files_and_refreshes_the_graph(tmp_path: Path) -> None:
    world = make_world(tmp_path, persistent=True)
    defs = build_definitions(world.resources())
    schedule = defs.resolve_schedule_def("nightly_reconciliation")
    with dg.build_schedule_context(
        instance=world.instance,
        resources=world.resources(),
        scheduled_execution_time=datetime(2026, 11, 30, 2, 0, tzinfo=UTC),
    ) as context:
        requests = schedule.evaluate_tick(context).run_requests
    assert len(world.instance.get_dynamic_partitions(SOURCE_VERSIONS_PARTITIONS_NAME)) == 6
    reasons = [r.tags["claimledger/reason"] for r in requests]
    assert reasons == ["new", "reconcile"]
    graph = requests[-1]
    assert graph.run_config == {
        "ops": {
            name: {"config": {"full": True}}
            for name in ("claim_edges", "review_queue", "conflict_status")
        }
    }


def test_new_extractor_generation_requests_every_stored_version_again(tmp_path: Path) -> None:
    from pipeline.runner import run_pipeline

    world = make_world(tmp_path)
    run_pipeline(world.instance, store=world.store, sources=world.sources)
    relabelled = "tests.pipeline_extractors:relabelled"
    defs = build_definitions(world.resources(relabelled))
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(relabelled), definitions=defs
    ) as context:
        result = sensor(context)
    assert isinstance(result, dg.SensorResult)
    assert result.dynamic_partitions_requests == []  # nothing new on disk
    (request,) = result.run_requests
    assert request.tags["claimledger/reason"] == "extract"
    keys = world.instance.get_dynamic_partitions(SOURCE_VERSIONS_PARTITIONS_NAME)
    assert (request.tags[RANGE_START_TAG], request.tags[RANGE_END_TAG]) == (keys[0], keys[-1])
