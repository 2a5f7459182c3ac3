"""Retrieval metrics (seed 001, "Verification and operations"), per requester.

- visible-evidence coverage: the share of the store's claims (active generation) whose
  source the requester may use as evidence, and the same for sources.
- answer citations per side: over the unresolved conflicts the requester can see (claim
  keys whose visible status is contested or under review), how many citations each side
  carries (mean and minimum), and how many of those conflicts show at least two sides.
  A conflict whose other side is hidden is not a conflict for that requester, so it does
  not count.
- high-risk keys short of origins: when the latest applied policy sets
  ``min_independent_origins``, how many of its high-risk claim keys the requester's visible
  claims support from fewer independent origins (sources, surface clones counted once)
  than it asks; such keys answer ``not_found`` with ``too_few_origins`` (issue 16 D 4).

These are operator figures: they include totals over the whole store, so they are served
only to the CLI and to ``/metrics`` callers in a metrics group, never to requesters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, func, select

from claims.models import ConflictStatus, Requester
from claims.tables import ClaimRow, EdgeRow, SourceGrantRow, SourceRow
from retrieval.access import source_visible
from retrieval.contract import Side
from retrieval.evidence import EvidenceLoader
from retrieval.signals import independent_origins, policy_content, required_origins
from retrieval.status import sides_of
from retrieval.verdicts import evaluate

_C = ClaimRow.__table__.c
_E = EdgeRow.__table__.c


@dataclass
class RetrievalMetrics:
    principal: str
    visible_sources: int
    total_sources: int
    visible_claims: int
    total_claims: int
    visible_evidence_coverage: float | None
    visible_conflicts: int
    visible_conflict_sides: int
    citations_per_side_mean: float | None
    citations_per_side_min: int | None
    high_risk_keys_short_of_origins: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def retrieval_metrics(conn: Connection, requester: Requester) -> RetrievalMetrics:
    """Coverage and citations per side for ``requester`` over the current store."""
    loader = EvidenceLoader(conn)
    generation = loader.generation()
    grants: dict[str, set[str]] = {}
    for source_id, group in conn.execute(
        select(SourceGrantRow.source_id, SourceGrantRow.group_name)
    ):
        grants.setdefault(source_id, set()).add(group)
    visible: set[str] = set()
    total_sources = 0
    for source_id, withdrawn in conn.execute(select(SourceRow.id, SourceRow.withdrawn)):
        total_sources += 1
        if source_visible(grants.get(source_id, ()), bool(withdrawn), requester):
            visible.add(source_id)
    counted = select(_C.source_id, func.count()).where(_C.generation == generation)
    per_source: dict[str, int] = {sid: n for sid, n in conn.execute(counted.group_by(_C.source_id))}
    total_claims = sum(per_source.values())
    visible_claims = sum(n for sid, n in per_source.items() if sid in visible)
    keys = sorted(
        set(
            conn.execute(
                select(_E.claim_key)
                .where(_E.generation == generation, _E.kind == "conflicts", _E.retired_at.is_(None))
                .distinct()
            ).scalars()
        )
    )
    conflicts = 0
    side_sizes: list[int] = []
    for start in range(0, len(keys), 200):
        chunk = keys[start : start + 200]
        verdicts = evaluate(loader.group_for_keys(chunk).narrow(requester))
        for key in chunk:
            unresolved = [
                v.claim
                for v in verdicts.values()
                if v.claim.claim_key == key
                and v.status in (ConflictStatus.CONTESTED, ConflictStatus.UNDER_REVIEW)
            ]
            if not unresolved:
                continue
            conflicts += 1
            side_sizes += [len(side.citations) for side in sides_of(unresolved)]
    short = _short_of_origins(conn, loader, requester, generation)
    return RetrievalMetrics(
        principal=requester.principal,
        visible_sources=len(visible),
        total_sources=total_sources,
        visible_claims=visible_claims,
        total_claims=total_claims,
        visible_evidence_coverage=(
            round(visible_claims / total_claims, 4) if total_claims else None
        ),
        visible_conflicts=conflicts,
        visible_conflict_sides=len(side_sizes),
        citations_per_side_mean=(
            round(sum(side_sizes) / len(side_sizes), 3) if side_sizes else None
        ),
        citations_per_side_min=min(side_sizes) if side_sizes else None,
        high_risk_keys_short_of_origins=short,
    )


def _short_of_origins(
    conn: Connection, loader: EvidenceLoader, requester: Requester, generation: str | None
) -> int:
    """High-risk keys whose visible claims come from fewer origins than the policy asks."""
    content = policy_content(conn, None)
    if not content.get("min_independent_origins") or generation is None:
        return 0
    # one row per distinct key of the generation, then the policy's patterns: no pair scan
    keys = sorted(
        key
        for key in conn.execute(
            select(_C.claim_key).where(_C.generation == generation).distinct()
        ).scalars()
        if required_origins(content, key) is not None
    )
    short = 0
    for start in range(0, len(keys), 200):
        chunk = keys[start : start + 200]
        group = loader.group_for_keys(chunk).narrow(requester)
        clones = [(e.left, e.right) for e in group.edges if e.rule == "clone"]
        for key in chunk:
            claims = [c for c in group.claims.values() if c.claim_key == key]
            if not claims:
                continue  # nothing visible: not an answer held back, just not found
            cited = [cite for side in sides_of(claims) for cite in side.citations]
            every = Side(value=None, unit=None, source_ids=[], citations=cited)
            needed = required_origins(content, key)
            if needed is not None and independent_origins(every, clones) < needed:
                short += 1
    return short
