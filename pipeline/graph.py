"""What changed since the last edge evaluation, and the call into the domain's edge rules.

The cursor is the event-log storage id of the last ``claims`` materialization the previous
``claim_edges`` run saw. Storage ids only grow and an event is written after its partition's
transaction commits, so "materialized after the cursor" never misses a committed version,
whatever the clocks say and however runs overlap.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import dagster as dg
from dagster import EventLogRecord
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.edges.materiality import MaterialitySettings
from claims.edges.recompute import EdgeReport
from claims.tables import EdgeRow

PAGE = 1000


@dataclass(frozen=True)
class LastEvaluation:
    generation: str
    claims_cursor: int
    audit_cursor: int | None = None
    materiality: str | None = None


@dataclass(frozen=True)
class ClaimsChanges:
    partition_keys: list[str]
    cursor: int  # newest claims materialization seen (0 when there is none)


def latest_metadata(instance: dg.DagsterInstance, asset_key: dg.AssetKey) -> dict[str, Any] | None:
    """Plain metadata values of the latest materialization of ``asset_key`` (None: never)."""
    event = instance.get_latest_materialization_event(asset_key)
    materialization = event.asset_materialization if event else None
    if materialization is None:
        return None
    return {name: entry.value for name, entry in materialization.metadata.items()}


def materializations_after(
    instance: dg.DagsterInstance, asset_key: dg.AssetKey, storage_id: int | None
) -> Iterator[EventLogRecord]:
    """Materialization records of ``asset_key`` after ``storage_id`` (all if None), oldest
    first, read a page at a time."""
    page_cursor: str | None = None
    while True:
        result = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=asset_key, after_storage_id=storage_id),
            limit=PAGE,
            cursor=page_cursor,
            ascending=True,
        )
        yield from result.records
        if not result.has_more:
            return
        page_cursor = result.cursor


def last_evaluation(instance: dg.DagsterInstance, asset_key: dg.AssetKey) -> LastEvaluation | None:
    """Generation and cursors recorded by the previous ``claim_edges`` materialization."""
    metadata = latest_metadata(instance, asset_key)
    if metadata is None:
        return None
    generation, cursor = metadata.get("generation"), metadata.get("claims_cursor")
    if generation is None or cursor is None:
        return None
    audit, materiality = metadata.get("audit_cursor"), metadata.get("materiality")
    return LastEvaluation(
        generation=str(generation),
        claims_cursor=int(cursor),
        audit_cursor=int(audit) if audit is not None else None,
        materiality=str(materiality) if materiality is not None else None,
    )


def claims_materialized_since(
    instance: dg.DagsterInstance, claims_key: dg.AssetKey, cursor: int | None
) -> ClaimsChanges:
    """Partition keys of ``claims`` materialized after ``cursor`` (all of them if None)."""
    keys: dict[str, None] = {}
    newest = cursor or 0
    for record in materializations_after(instance, claims_key, cursor):
        newest = max(newest, record.storage_id)
        if record.partition_key is not None:
            keys[record.partition_key] = None
    return ClaimsChanges(partition_keys=list(keys), cursor=newest)


def touched_keys(metadata: dict[str, Any] | None) -> list[str] | None:
    """The claim keys a ``claim_edges`` materialization touched (None: it was full)."""
    if metadata is None or metadata.get("mode") != "incremental":
        return None
    value = metadata.get("touched_claim_keys")
    if isinstance(value, str):
        value = json.loads(value)
    return [str(k) for k in value] if isinstance(value, list) else None


def claim_keys_touched(session: Session, version_ids: Sequence[str], generation: str) -> set[str]:
    """Claim keys whose edges may change because of these versions (their own claims and
    those of the versions they replace or that replace them)."""
    from claims.edges.recompute import keys_touched_by_version

    touched: set[str] = set()
    for version_id in version_ids:
        touched |= keys_touched_by_version(session, version_id, generation)
    return touched


def recompute(
    session: Session,
    generation: str,
    claim_keys: set[str] | None,
    materiality: MaterialitySettings | None,
) -> EdgeReport:
    """Recompute the edges of ``claim_keys`` (every key when None) in ``generation``."""
    from claims.edges.recompute import recompute_edges

    return recompute_edges(session, generation, claim_keys, materiality=materiality)


def materiality_fingerprint(materiality: MaterialitySettings | None) -> str:
    """A short digest of the settings edges were scored with (a change means: score again)."""
    settings = materiality or MaterialitySettings()
    return hashlib.sha256(settings.model_dump_json().encode()).hexdigest()[:16]


def edge_counts(session: Session, generation: str) -> dict[str, int]:
    """Live (not retired) edges of ``generation`` by kind."""
    rows = session.execute(
        select(EdgeRow.kind, func.count())
        .where(EdgeRow.generation == generation, EdgeRow.retired_at.is_(None))
        .group_by(EdgeRow.kind)
    )
    return {kind: count for kind, count in rows}
