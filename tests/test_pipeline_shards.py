"""How the planner groups the shards with work into runs (no store, no Dagster needed)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from claims.planning import StoreProgress, VersionRef
from pipeline.corpus import CorpusFile, CorpusScan
from pipeline.partitions import SHARDS, run_shards, shard_of, version_key
from pipeline.planning import EXTRACT, INVALID, NEW, REFLECT, plan_runs


def _scan(good: list[str], bad: list[str] = ()) -> CorpusScan:  # type: ignore[assignment]
    scan = CorpusScan(register=None)
    for source_id in good:
        sha = hashlib.sha256(source_id.encode()).hexdigest()
        key = version_key(source_id, sha)
        scan.files[key] = CorpusFile(key, source_id, Path(f"{source_id}.txt"), sha)
    for source_id in bad:
        sha = "b" * 64
        key = version_key(source_id, sha)
        scan.files[key] = CorpusFile(
            key, source_id, Path(f"{source_id}.txt"), sha, f"{source_id}.txt: not valid UTF-8"
        )
    return scan


def _new(scan: CorpusScan) -> StoreProgress:
    return StoreProgress(to_store=[VersionRef(f.source_id, f.sha256) for f in scan.good])


def test_a_corpus_is_planned_as_few_runs_over_contiguous_shards_none_split() -> None:
    sources = [f"unit-{i % 40:02d}/note-{i:05d}" for i in range(2000)]
    scan = _scan(sources)
    plan = plan_runs(scan, _new(scan), batch_size=500)
    assert plan.versions == 2000
    covered = [shard for batch in plan.batches for shard in batch.shards]
    assert covered == SHARDS  # every shard once, in order
    for batch in plan.batches:
        assert batch.reason == NEW
        assert batch.work <= 500 or len(batch.shards) == 1  # a shard is never split
        assert run_shards(batch.tags) == list(batch.shards)
        assert {shard_of(key.rpartition("@")[0]) for key in batch.versions} <= set(batch.shards)
    assert len(plan.batches) <= 2000 // 500 + 4  # about batch-size runs, not one per shard


def test_one_new_file_is_one_run_of_its_shard() -> None:
    scan = _scan(["ops/lisbon"])
    (batch,) = plan_runs(scan, _new(scan), batch_size=1000).batches
    assert batch.shards == (shard_of("ops/lisbon"),)
    assert batch.work == 1 and batch.versions[0].startswith("ops/lisbon@")


def test_busy_shards_take_the_idle_ones_between_into_their_run() -> None:
    # two sources in shards far apart: one run over the range, not two runs
    first = next(f"a-{n}" for n in range(999) if shard_of(f"a-{n}") == SHARDS[2])
    last = next(f"b-{n}" for n in range(999) if shard_of(f"b-{n}") == SHARDS[20])
    scan = _scan([first, last])
    (batch,) = plan_runs(scan, _new(scan), batch_size=1000).batches
    assert batch.shards == tuple(SHARDS[2:21]) and batch.work == 2


def test_reasons_shards_in_flight_and_shards_to_reflect() -> None:
    scan = _scan(["ops/stored"], bad=["ops/broken"])
    assert shard_of("ops/stored") != shard_of("ops/broken")
    stored = VersionRef("ops/stored", scan.good[0].sha256)
    extract = StoreProgress(to_extract=[stored], stored=[stored])
    (batch,) = plan_runs(scan, extract, batch_size=1000).batches
    assert batch.reason == EXTRACT and batch.work == 1  # the bad file is named, not counted
    assert [f.source_id for f in plan_runs(scan, extract, batch_size=1000).bad] == ["ops/broken"]
    # a run already queued for the stored version's shard covers it: not asked for twice
    busy = plan_runs(scan, extract, batch_size=1000, exclude_shards={shard_of("ops/stored")})
    (alone,) = busy.batches
    assert alone.reason == INVALID and alone.shards == (shard_of("ops/broken"),)
    # nothing to do, but Dagster's history lacks the shard: a run that reflects the store
    done = StoreProgress(stored=[stored])
    (reflect,) = plan_runs(_scan([]), done, batch_size=1000, reflect_shards=["shard-05"]).batches
    assert reflect.reason == REFLECT and reflect.shards == ("shard-05",) and reflect.work == 0


def test_the_run_key_changes_only_with_the_versions_planned() -> None:
    scan = _scan(["ops/lisbon", "ops/porto"])
    (one,) = plan_runs(scan, _new(scan), batch_size=1000).batches
    (same,) = plan_runs(scan, _new(scan), batch_size=1000).batches
    assert one.run_key("store", "gen") == same.run_key("store", "gen")
    edited = _scan(["ops/lisbon", "ops/porto-v2"])
    (other,) = plan_runs(edited, _new(edited), batch_size=1000).batches
    assert other.run_key("store", "gen") != one.run_key("store", "gen")
