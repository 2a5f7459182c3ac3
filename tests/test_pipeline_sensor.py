"""The sources sensor and the nightly reconciliation schedule, evaluated against a real
instance and store."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

from pipeline.definitions import build_definitions
from pipeline.partitions import PARTITION_TAG, RANGE_END_TAG, RANGE_START_TAG, SHARDS, shard_of
from tests.pipeline_support import FIXTURES, make_world

SOURCES = [
    "finance/dividend-2024",
    "finance/dividend-2024-restated",
    "ops/checkout-runbook",
    "ops/checkout-slo",
    "policies/notice-period",
    "policies/notice-period-handbook",
]


def _evaluate_sensor(world, cursor: str | None = None):  # type: ignore[no-untyped-def]
    defs = build_definitions(world.resources())
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(), definitions=defs, cursor=cursor
    ) as context:
        return sensor(context)


def _apply(world, result) -> str | None:  # type: ignore[no-untyped-def]
    """Do what the daemon does with a sensor result: keep the cursor (the partitions are the
    fixed shards; nothing to add)."""
    assert not result.dynamic_partitions_requests
    return result.cursor


def test_new_files_become_one_run_over_their_shards(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    result = _evaluate_sensor(world)
    assert isinstance(result, dg.SensorResult)
    (request,) = result.run_requests
    shards = sorted({shard_of(source) for source in SOURCES}, key=SHARDS.index)
    assert request.tags[RANGE_START_TAG] == shards[0]
    assert request.tags[RANGE_END_TAG] == shards[-1]
    assert request.tags["claimledger/reason"] == "new"


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
    # While a run covering them is in progress, nothing is asked for twice.
    (request,) = first.run_requests
    world.instance.create_run_for_job(
        build_definitions(world.resources()).resolve_job_def("claims_pipeline"),
        tags=request.tags,
        status=dg.DagsterRunStatus.STARTED,
    )
    assert isinstance(_evaluate_sensor(world, first.cursor), dg.SkipReason)


def test_changed_file_requests_a_run_of_its_shard_alone(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    cursor = _stored(world, _evaluate_sensor(world))
    shutil.copy(FIXTURES / "changed-notice-period.md", world.corpus / "policies/notice-period.md")
    result = _evaluate_sensor(world, cursor)
    assert isinstance(result, dg.SensorResult)
    (request,) = result.run_requests
    assert request.tags[PARTITION_TAG] == shard_of("policies/notice-period")
    assert request.asset_selection is None  # its shard, then the graph, in one run
    # The run does that one version: the store lacks nothing else in the shard.
    from pipeline.runner import run_pipeline

    outcome = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert outcome.versions_processed == 1 and outcome.runs == 1


def test_a_bad_file_rides_in_its_shard_s_run_and_is_asked_for_once(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    cursor = _stored(world, _evaluate_sensor(world))
    shutil.copy(FIXTURES / "bad/latin1-notes.txt", world.corpus / "ops/latin1-notes.txt")
    result = _evaluate_sensor(world, cursor)
    assert isinstance(result, dg.SensorResult)
    (request,) = result.run_requests
    assert request.tags[PARTITION_TAG] == shard_of("ops/latin1-notes")
    assert request.tags["claimledger/reason"] == "invalid"  # nothing to store, a file to name
    # The store never holds it, so every tick plans it again, under the same run key: the
    # daemon launches it once, until a file of its shard changes.
    again = _evaluate_sensor(world, cursor)
    assert [r.run_key for r in again.run_requests] == [request.run_key]


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


def _schedule_tick(world) -> list[dg.RunRequest]:  # type: ignore[no-untyped-def]
    """One tick of the nightly reconciliation schedule, as the daemon evaluates it."""
    defs = build_definitions(world.resources())
    schedule = defs.resolve_schedule_def("nightly_reconciliation")
    with dg.build_schedule_context(
        instance=world.instance,
        resources=world.resources(),
        scheduled_execution_time=datetime(2026, 11, 30, 2, 0, tzinfo=UTC),
    ) as context:
        return list(schedule.evaluate_tick(context).run_requests or [])


def test_nightly_reconciliation_adds_missed_files_and_refreshes_the_graph(tmp_path: Path) -> None:
    world = make_world(tmp_path, persistent=True)
    requests = _schedule_tick(world)
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
    (request,) = result.run_requests
    assert request.tags["claimledger/reason"] == "extract"
    shards = sorted({shard_of(source) for source in SOURCES}, key=SHARDS.index)
    assert (request.tags[RANGE_START_TAG], request.tags[RANGE_END_TAG]) == (shards[0], shards[-1])


def test_sensor_and_schedule_read_only_the_files_that_changed(tmp_path: Path) -> None:
    """Both tick on a timer over the whole sources folder: with the store's records of each
    file's status, an unchanged file is not opened, and an edited one is."""
    from tests.opened_files import opened, opened_under
    from tests.test_source_stat_scan import settle

    world = make_world(tmp_path, persistent=True)
    settle()  # the run's records of these files are then outside the racy window
    cursor = _stored(world, _evaluate_sensor(world))
    with opened() as paths:
        again = _evaluate_sensor(world, cursor)
        _schedule_tick(world)
    assert isinstance(again, dg.SkipReason)
    assert opened_under(paths, world.corpus) == set()

    edited = next(p for p in sorted(world.corpus.rglob("*")) if p.is_file())
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    with opened() as paths:
        result = _evaluate_sensor(world, cursor)
    assert isinstance(result, dg.SensorResult) and len(result.run_requests) == 1
    assert opened_under(paths, world.corpus) == {edited.relative_to(world.corpus).as_posix()}
