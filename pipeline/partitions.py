"""One dynamic partition per source version, keyed ``<source id>@<sha256 prefix>``.

The key is computed from a file's bytes before anything is stored, so the sensor, the
schedule and ``claims run`` all name a version the same way, and the key stays readable
in the UI (which source, which content).
"""

from __future__ import annotations

import dagster as dg

SOURCE_VERSIONS_PARTITIONS_NAME = "source_versions"
KEY_SHA_CHARS = 12

source_version_partitions = dg.DynamicPartitionsDefinition(name=SOURCE_VERSIONS_PARTITIONS_NAME)

RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"
PARTITION_TAG = "dagster/partition"


def partition_key(source_id: str, sha256: str) -> str:
    """The partition key of the version of ``source_id`` whose bytes hash to ``sha256``."""
    return f"{source_id}@{sha256[:KEY_SHA_CHARS]}"


def split_partition_key(key: str) -> tuple[str, str]:
    """(source id, sha256 prefix) of a partition key."""
    source_id, sep, sha_prefix = key.rpartition("@")
    if not sep or not source_id or len(sha_prefix) != KEY_SHA_CHARS:
        raise ValueError(f"{key!r} is not a source version partition key (<source id>@<sha>)")
    return source_id, sha_prefix


def range_tags(first_key: str, last_key: str) -> dict[str, str]:
    """Run tags that make one run cover every partition from ``first_key`` to ``last_key``."""
    if first_key == last_key:
        return {PARTITION_TAG: first_key}
    return {RANGE_START_TAG: first_key, RANGE_END_TAG: last_key}


def run_partition_keys(instance: dg.DagsterInstance, tags: dict[str, str]) -> list[str] | None:
    """The source version keys a run covers, from its tags; None for an unpartitioned run."""
    if PARTITION_TAG in tags:
        return [tags[PARTITION_TAG]]
    start, end = tags.get(RANGE_START_TAG), tags.get(RANGE_END_TAG)
    if start is None or end is None:
        return None
    keys = instance.get_dynamic_partitions(SOURCE_VERSIONS_PARTITIONS_NAME)
    try:
        first, last = keys.index(start), keys.index(end)
    except ValueError:
        return None
    return list(keys[first : last + 1])
