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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import dagster as dg
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.tables import AuditEventRow, ClaimRow, ReviewItemRow
from pipeline import graph

CLAIM_EDGES = dg.AssetKey("claim_edges")
REVIEW_ENTITIES = ("review_item", "resolution")


@dataclass(frozen=True)
class Cursors:
    """What the previous materialization of an asset had seen."""

    edges_cursor: int
    audit_cursor: int
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
    """The cursors the latest materialization of ``asset_key`` recorded (None: never ran, or
    ran before it recorded them)."""
    metadata = graph.latest_metadata(instance, asset_key)
    if metadata is None:
        return None
    edges, audit, policy = (
        metadata.get(k) for k in ("edges_cursor", "audit_cursor", "policy_version")
    )
    if not isinstance(edges, int) or not isinstance(audit, int):
        return None
    return Cursors(edges, audit, str(policy) if policy is not None else None)


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
    return _keys_where(session, ReviewItemRow.claim_key, ReviewItemRow.id, item_ids)


def keys_stated_by(session: Session, source_ids: Iterable[str]) -> set[str]:
    """Claim keys of every claim of these sources (any generation: more is only slower)."""
    return _keys_where(session, ClaimRow.claim_key, ClaimRow.source_id, source_ids)


def _keys_where(session: Session, key: Any, column: Any, values: Iterable[str]) -> set[str]:
    ordered = sorted(set(values))
    keys: set[str] = set()
    for start in range(0, len(ordered), 500):
        chunk = ordered[start : start + 500]
        keys.update(session.scalars(select(key).where(column.in_(chunk)).distinct()))
    return keys


def edge_evaluations_since(
    instance: dg.DagsterInstance, after_storage_id: int, changes: KeyChanges
) -> None:
    """Fold every ``claim_edges`` materialization after ``after_storage_id`` into ``changes``."""
    newest = after_storage_id
    for record in graph.materializations_after(instance, CLAIM_EDGES, after_storage_id):
        newest = max(newest, record.storage_id)
        materialization = record.asset_materialization
        metadata = (
            {k: v.value for k, v in materialization.metadata.items()} if materialization else None
        )
        touched = graph.touched_keys(metadata)
        if touched is None:
            changes.everything("a full edge evaluation since the last refresh")
        else:
            changes.add(touched)
    changes.edges_cursor = newest


def changes_since(
    instance: dg.DagsterInstance,
    asset_key: dg.AssetKey,
    session: Session,
    *,
    full: bool,
    policy_stamp: str | None = None,
    follow_reviews: bool = False,
) -> KeyChanges:
    """The claim keys a graph-level asset must refresh since its previous materialization.

    Everything when ``full``, on its first run, after a full edge evaluation, when a policy
    was applied or (given ``policy_stamp``) the policy version differs from the one it
    recorded; else the keys ``claim_edges`` touched, the keys of sources whose register
    entry changed and, with ``follow_reviews``, the keys of review items changed since.
    """
    previous = None if full else previous_cursors(instance, asset_key)
    changes = KeyChanges(audit_cursor=newest_audit_id(session))
    if full:
        changes.everything("configured full")
    elif previous is None:
        changes.everything("first run")
    elif policy_stamp is not None and previous.policy_version != policy_stamp:
        changes.everything(f"policy {policy_stamp} replaces {previous.policy_version}")
    edge_evaluations_since(instance, previous.edges_cursor if previous else 0, changes)
    if previous is not None and changes.keys is not None:
        audit = audit_changes(session, previous.audit_cursor, changes.audit_cursor)
        if audit.policy_applied:
            changes.everything("an authority policy was applied")
        changes.add(keys_stated_by(session, audit.register_sources))  # tiers, access, withdrawal
        if follow_reviews:
            changes.add(keys_of_items(session, audit.review_items))  # routing and reviewers
    return changes


def touched_keys_metadata(keys: set[str]) -> dg.MetadataValue:
    """How ``claim_edges`` lists the keys an incremental evaluation touched."""
    return dg.MetadataValue.json(sorted(keys))
