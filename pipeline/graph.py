"""The call into the domain's edge rules, and what ``claim_edges`` reports about it.

What changed since the last evaluation comes from the store's change feed
(``claims.store.changes``), not from here: nothing in this module plans work.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import dagster as dg
from sqlalchemy.orm import Session

from claims.edge_refresh import EdgeReport
from claims.edges.materiality import MaterialitySettings


def latest_metadata(instance: dg.DagsterInstance, asset_key: dg.AssetKey) -> dict[str, Any] | None:
    """Plain metadata values of the latest materialization of ``asset_key`` (None: never)."""
    event = instance.get_latest_materialization_event(asset_key)
    materialization = event.asset_materialization if event else None
    if materialization is None:
        return None
    return {name: entry.value for name, entry in materialization.metadata.items()}


def touched_keys(metadata: dict[str, Any] | None) -> list[str] | None:
    """The claim keys a ``claim_edges`` materialization touched (None: it was full)."""
    if metadata is None or metadata.get("mode") != "incremental":
        return None
    value = metadata.get("touched_claim_keys")
    if isinstance(value, str):
        value = json.loads(value)
    return [str(k) for k in value] if isinstance(value, list) else None


def recompute(
    session: Session,
    generation: str,
    claim_keys: set[str] | None,
    materiality: MaterialitySettings | None,
    changed_versions: Mapping[str, set[str] | None] | None = None,
) -> EdgeReport:
    """Recompute the edges of ``claim_keys`` (every key when None) in ``generation``; a
    full recompute goes a batch of coarse-key blocks at a time (``claims.edge_batches``).
    ``changed_versions``: the change feed's versions per key (a large key is then evaluated
    from the claims that changed, ``claims.edge_delta``)."""
    from claims.edge_batches import recompute_in_batches
    from claims.edge_refresh import recompute_edges

    if claim_keys is None:
        return recompute_in_batches(session, generation, materiality=materiality)
    return recompute_edges(
        session,
        generation,
        claim_keys,
        materiality=materiality,
        changed_versions=changed_versions,
    )


def materiality_fingerprint(materiality: MaterialitySettings | None) -> str:
    """A short digest of the settings edges were scored with (a change means: score again)."""
    settings = materiality or MaterialitySettings()
    return hashlib.sha256(settings.model_dump_json().encode()).hexdigest()[:16]
