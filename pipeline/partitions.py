"""Partitions are shards of the source set; source versions are named by version keys.

Dagster pays about 10 ms of bookkeeping per partition and asset (materialization events,
their tags and index rows, even on an in-memory instance), so one partition per source
version made a 10k-file first load spend close to two minutes in it. The
``source_versions`` and ``claims`` assets are partitioned by **shard** instead: a fixed
set of ``SHARD_COUNT`` partitions, a source belonging to the shard its id hashes to
(sha256, so the same on every machine and in every run, and every version of a source in
the same shard). A shard's run does what the store says its sources lack (the store is
the record of progress), so a one-file edit is one shard's run whose work is that file.

A **version key** ``<source id>@<first 12 hex of the file's sha256>`` still names a
version wherever one is meant (failures, metadata, run keys): computed from the bytes
before anything is stored, so the sensor, the schedule and ``claims run`` agree.
"""

from __future__ import annotations

import functools
import hashlib

import dagster as dg

KEY_SHA_CHARS = 12
# 32 shards: a full run is 2 x 32 partition events (well under a second of Dagster's
# bookkeeping, against about 100 s for 10k versions), a shard holds about 300 versions of
# a 10k corpus, so runs of CLAIMS_BATCH_SIZE (1000) versions are whole shards of about
# that size, and the UI's partition bar stays readable. See docs/PIPELINE.md.
SHARD_COUNT = 32
SHARD_PREFIX = "shard-"
SHARDS = [f"{SHARD_PREFIX}{index:02d}" for index in range(SHARD_COUNT)]

source_shards = dg.StaticPartitionsDefinition(SHARDS)

RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"
PARTITION_TAG = "dagster/partition"


@functools.lru_cache(maxsize=1 << 18)  # planning and every shard's run ask for each stored source
def shard_of(source_id: str) -> str:
    """The shard (partition key) of ``source_id``: sha256 of the id, modulo the count."""
    digest = hashlib.sha256(source_id.encode("utf-8")).digest()
    return SHARDS[int.from_bytes(digest[:8], "big") % SHARD_COUNT]


def version_key(source_id: str, sha256: str) -> str:
    """The key of the version of ``source_id`` whose bytes hash to ``sha256``."""
    return f"{source_id}@{sha256[:KEY_SHA_CHARS]}"


def split_version_key(key: str) -> tuple[str, str]:
    """(source id, sha256 prefix) of a version key."""
    source_id, sep, sha_prefix = key.rpartition("@")
    if not sep or not source_id or len(sha_prefix) != KEY_SHA_CHARS:
        raise ValueError(f"{key!r} is not a source version key (<source id>@<sha>)")
    return source_id, sha_prefix


def range_tags(first_shard: str, last_shard: str) -> dict[str, str]:
    """Run tags that make one run cover every shard from ``first_shard`` to ``last_shard``."""
    if first_shard == last_shard:
        return {PARTITION_TAG: first_shard}
    return {RANGE_START_TAG: first_shard, RANGE_END_TAG: last_shard}


def all_shards_tags() -> dict[str, str]:
    """Run tags covering every shard (a run over the whole source set)."""
    return range_tags(SHARDS[0], SHARDS[-1])


def run_shards(tags: dict[str, str]) -> list[str] | None:
    """The shards a run covers, from its tags; None for an unpartitioned run.

    Keys that are not shards (a run recorded before partitions were shards) cover none."""
    if PARTITION_TAG in tags:
        return [tags[PARTITION_TAG]] if tags[PARTITION_TAG] in SHARDS else []
    start, end = tags.get(RANGE_START_TAG), tags.get(RANGE_END_TAG)
    if start is None or end is None:
        return None
    if start not in SHARDS or end not in SHARDS:
        return []
    return SHARDS[SHARDS.index(start) : SHARDS.index(end) + 1]


def extraction_part_of(source_id: str, parts: int) -> int:
    """Which of a run's ``parts`` extraction steps extracts ``source_id``'s versions (0 ..
    parts - 1): sha256 of a salted id, so the same in every step and on every machine
    whatever the other steps have written already, every version of a source in one part,
    and the parts of a range of shards about equal in size."""
    if parts <= 1:
        return 0
    digest = hashlib.sha256(b"extraction-part:" + source_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % parts


# The ops of the ``claims`` graph asset that extract (``claims.extract_part_<n>`` steps).
EXTRACTION_PART_OP_PREFIX = "extract_part_"


def is_extraction_part(step_key: str) -> bool:
    """Whether ``step_key`` is one of the ``claims`` asset's extraction steps."""
    return step_key.rpartition(".")[2].startswith(EXTRACTION_PART_OP_PREFIX)
