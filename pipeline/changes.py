"""What changed since a graph-level asset last ran, so it refreshes only those claim keys.

``claim_edges``, ``review_queue`` and ``conflict_status`` are unpartitioned, but re-doing
the whole store on every run would make one edited file cost as much as the first load.
Each of them records two cursors in its materialization metadata and, on the next run,
reads what happened after them:

- ``edges_cursor``: the event-log storage id of the newest ``claim_edges`` materialization
  it has seen. Every ``claim_edges`` materialization lists the claim keys it touched
  (``touched_claim_keys``) or says it was ``full``.
- ``audit_cursor``: the id of the newest audit event it has seen. The audit log is where a
  register change (``register.apply``, per source), an authority-policy application
  (``policy.apply``) and every change to a review item or resolution (routing, reviewers
  in the UI or CLI) are written, in the transaction that made them.

A refresh is full when there is no previous materialization, when the extractor generation
changed, when a full edge evaluation happened in between, or when a policy was applied
(materiality and rules may change for every key). Otherwise it is the union of the keys
those events name. The nightly reconciliation forces a full refresh of all three anyway,
which also repairs anything an interrupted run or out-of-order commit could have skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

import dagster as dg
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.tables import AuditEventRow, ClaimRow, ReviewItemRow

PAGE = 1000
CLAIM_EDGES = dg.AssetKey("claim_edges")
REVIEW_ENTITIES = ("review_item", "resolution")


@dataclass(frozen=True)
class Cursors:
    """What the previous materialization of an asset had seen."""

    generation: str | None
    edges_cursor: int | None
    audit_cursor: int | None
    policy_version: str | None = None


@dataclass
class KeyChanges:
    """Claim keys to refresh (``keys is None``: all of them) and the cursors to record."""

    keys: set[str] | None = field(default_factory=set)
    full_because: str = ""
    edges_cursor: int = 0
    audit_cursor: int = 0

    def everything(self, because: str) -> None:
        if self.keys is not None:
            self.keys = None
            self.full_because = because

    def add(self, keys: Iterable[str]) -> None:
        if self.keys is not None:
            self.keys.update(keys)

    @property
    def mode(self) -> str:
        return "full" if self.keys is None else "incremental"

    def as_metadata(self) -> dict[str, object]:
        return {
            "mode": self.mode,
            "full_because": self.full_because or "-",
            "keys_refreshed": -1 if self.keys is None else len(self.keys),
            "edges_cursor": self.edges_cursor,
            "audit_cursor": self.audit_cursor,
        }


def previous_cursors(instance: dg.DagsterInstance, asset_key: dg.AssetKey) -> Cursors | None:
    """The cursors the latest materialization of ``asset_key`` recorded (None: never ran)."""
    event = instance.get_latest_materialization_event(asset_key)
    materialization = event.asset_materialization if event else None
    if materialization is None:
        return None
    metadata = materialization.metadata

    def value(name: str) -> object | None:
        entry = metadata.get(name)
        return entry.value if entry is not None else None

    edges, audit = value("edges_cursor"), value("audit_cursor")
    generation, policy = value("generation"), value("policy_version")
    return Cursors(
        generation=str(generation) if generation is not None else None,
        edges_cursor=int(edges) if isinstance(edges, int) else None,
        audit_cursor=int(audit) if isinstance(audit, int) else None,
        policy_version=str(policy) if policy is not None else None,
    )


def newest_audit_id(session: Session) -> int:
    return int(session.scalar(select(func.max(AuditEventRow.id))) or 0)


@dataclass
class AuditChanges:
    """What the audit log says happened after a cursor."""

    register_sources: set[str] = field(default_factory=set)
    policy_applied: bool = False
    review_items: set[str] = field(default_factory=set)


def audit_changes(session: Session, after_id: int, up_to_id: int) -> AuditChanges:
    """Register, policy and review-item changes with ``after_id < id <= up_to_id``."""
    changes = AuditChanges()
    rows = session.execute(
        select(AuditEventRow.action, AuditEventRow.entity_type, AuditEventRow.entity_id).where(
            AuditEventRow.id > after_id, AuditEventRow.id <= up_to_id
        )
    )
    for action, entity_type, entity_id in rows:
        if action == "register.apply":
            changes.register_sources.add(entity_id)
        elif action == "policy.apply":
            changes.policy_applied = True
        elif entity_type in REVIEW_ENTITIES:
            changes.review_items.add(entity_id)
    return changes


def keys_of_items(session: Session, item_ids: Iterable[str]) -> set[str]:
    ids = sorted(set(item_ids))
    keys: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        keys.update(
            session.scalars(select(ReviewItemRow.claim_key).where(ReviewItemRow.id.in_(chunk)))
        )
    return keys


def keys_stated_by(session: Session, source_ids: Iterable[str]) -> set[str]:
    """Claim keys of every claim of these sources (any generation: more is only slower)."""
    ids = sorted(set(source_ids))
    keys: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        keys.update(
            session.scalars(
                select(ClaimRow.claim_key).where(ClaimRow.source_id.in_(chunk)).distinct()
            )
        )
    return keys


def edge_evaluations_since(
    instance: dg.DagsterInstance, after_storage_id: int, changes: KeyChanges
) -> None:
    """Fold every ``claim_edges`` materialization after ``after_storage_id`` into ``changes``."""
    newest = after_storage_id
    page_cursor: str | None = None
    while True:
        result = instance.fetch_materializations(
            dg.AssetRecordsFilter(asset_key=CLAIM_EDGES, after_storage_id=after_storage_id),
            limit=PAGE,
            cursor=page_cursor,
            ascending=True,
        )
        for record in result.records:
            newest = max(newest, record.storage_id)
            materialization = record.asset_materialization
            metadata = materialization.metadata if materialization else {}
            mode = metadata.get("mode")
            touched = metadata.get("touched_claim_keys")
            if mode is None or mode.value != "incremental" or touched is None:
                changes.everything("a full edge evaluation since the last refresh")
            else:
                changes.add(_key_list(touched.value))
        if not result.has_more:
            break
        page_cursor = result.cursor
    changes.edges_cursor = newest


def touched_keys_metadata(keys: set[str]) -> dg.MetadataValue:
    """How ``claim_edges`` lists the keys an incremental evaluation touched."""
    return dg.MetadataValue.json(sorted(keys))


def _key_list(value: object) -> list[str]:
    if isinstance(value, str):
        value = json.loads(value)
    return [str(v) for v in value] if isinstance(value, list) else []
