"""The code location loads and exposes what operators rely on."""

from __future__ import annotations

import dagster as dg

from pipeline.definitions import defs
from pipeline.partitions import SHARD_COUNT, SHARDS, shard_of


def test_definitions_expose_assets_checks_sensor_and_schedule() -> None:
    asset_keys = {key.to_user_string() for key in defs.resolve_all_asset_keys()}
    assert {"source_register", "source_versions", "claims", "claim_edges"} <= asset_keys
    checks = {key.name for key in defs.resolve_asset_graph().asset_check_keys}
    assert {
        "quotes_match_source_text",
        "quantities_have_canonical_units",
        "edges_point_to_existing_claims",
        "conflict_regression",
        "source_files_readable",
    } <= checks
    assert defs.resolve_sensor_def("source_files_sensor") is not None
    schedule = defs.resolve_schedule_def("nightly_reconciliation")
    assert schedule.cron_schedule == "0 2 * * *"
    assert defs.resolve_job_def("claims_pipeline") is not None


def test_partitioned_assets_are_shards_run_many_per_run() -> None:
    graph = defs.resolve_asset_graph()
    for name in ("source_versions", "claims"):
        node = graph.get(dg.AssetKey(name))
        assert isinstance(node.partitions_def, dg.StaticPartitionsDefinition)
        assert node.partitions_def.get_partition_keys() == SHARDS
        assert node.backfill_policy == dg.BackfillPolicy.single_run()
    assert graph.get(dg.AssetKey("claim_edges")).partitions_def is None


def test_assets_carry_groups_kinds_owners_and_descriptions() -> None:
    graph = defs.resolve_asset_graph()
    for key in graph.get_all_asset_keys():
        node = graph.get(key)
        assert node.group_name and node.group_name != "default", key
        assert node.owners, key
        assert node.description, key
        assert node.kinds, key


def test_schedule_cron_and_executor_come_from_settings(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from pipeline.definitions import build_definitions
    from pipeline.settings import get_pipeline_settings

    monkeypatch.setenv("CLAIMS_RECONCILE_CRON", "30 3 * * 1-5")
    monkeypatch.setenv("CLAIMS_EXECUTOR", "multiprocess")
    get_pipeline_settings.cache_clear()
    try:
        custom = build_definitions()
        assert custom.resolve_schedule_def("nightly_reconciliation").cron_schedule == (
            "30 3 * * 1-5"
        )
        executor = custom.resolve_job_def("claims_pipeline").executor_def
        assert executor.name == "multiprocess"
    finally:
        get_pipeline_settings.cache_clear()


def test_a_source_s_shard_is_a_stable_hash_of_its_id() -> None:
    # sha256 of the id, not Python's hash(): the same shard in every process and machine
    # (these values are the contract a Dagster history on disk relies on)
    assert shard_of("policies/notice-period") == "shard-23"
    assert shard_of("finance/dividend-2024") == "shard-30"
    assert len(SHARDS) == SHARD_COUNT == len(set(SHARDS))
    # 2,000 sources spread over every shard, none holding more than twice its share
    counts: dict[str, int] = {}
    for index in range(2000):
        shard = shard_of(f"unit-{index % 40:02d}/note-{index:05d}")
        counts[shard] = counts.get(shard, 0) + 1
    assert set(counts) == set(SHARDS)
    assert max(counts.values()) < 2 * 2000 / SHARD_COUNT
