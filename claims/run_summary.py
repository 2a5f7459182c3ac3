"""Store figures the assets report as metadata and ``claims run`` prints (no Dagster)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.models import Claim
from claims.tables import ClaimRow, EdgeRow, ExtractorGenerationRow, SourceRow, SourceVersionRow


@dataclass
class StoreSummary:
    """Counts over the whole store, claims and edges for one generation."""

    generation: str | None
    sources: int = 0
    versions: int = 0
    claims: int = 0
    claims_by_kind: dict[str, int] = field(default_factory=dict)
    edges_by_kind: dict[str, int] = field(default_factory=dict)
    generations: dict[str, str] = field(default_factory=dict)


def store_summary(session: Session, generation: str | None) -> StoreSummary:
    summary = StoreSummary(generation=generation)
    summary.sources = session.scalar(select(func.count()).select_from(SourceRow)) or 0
    summary.versions = session.scalar(select(func.count()).select_from(SourceVersionRow)) or 0
    summary.generations = {
        row.id: row.status for row in session.scalars(select(ExtractorGenerationRow))
    }
    if generation is None:
        return summary
    claim_kinds = session.execute(
        select(ClaimRow.kind, func.count())
        .where(ClaimRow.generation == generation)
        .group_by(ClaimRow.kind)
    )
    summary.claims_by_kind = {kind: count for kind, count in claim_kinds}
    summary.claims = sum(summary.claims_by_kind.values())
    summary.edges_by_kind = edge_counts(session, generation)
    return summary


def edge_counts(session: Session, generation: str) -> dict[str, int]:
    """Live (not retired) edges of ``generation`` by kind."""
    rows = session.execute(
        select(EdgeRow.kind, func.count())
        .where(EdgeRow.generation == generation, EdgeRow.retired_at.is_(None))
        .group_by(EdgeRow.kind)
    )
    return {kind: count for kind, count in rows}


def preview_cells(claim: Claim) -> list[str]:
    """A claim's cells in ``preview_table`` (plain strings: they travel as JSON metadata)."""
    quote = claim.quote.replace("|", "/").replace("\n", " ")
    quote = quote if len(quote) <= 80 else quote[:77] + "..."
    return [str(claim.source_id), claim.claim_key, str(claim.value), claim.unit or "", quote]


def preview_table(rows: Sequence[Sequence[str]]) -> str:
    """The markdown table of ``preview_cells`` rows."""
    lines = ["| source | key | value | unit | quote |", "|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def count_table(counts: dict[str, int], label: str = "kind") -> str:
    lines = [f"| {label} | count |", "|---|---|"]
    lines += [f"| {name} | {counts[name]} |" for name in sorted(counts)]
    return "\n".join(lines)


def not_read_by_type(paths: Iterable[str]) -> dict[str, int]:
    """How many files of each type a run did not read (``.xlsx`` -> 2; no suffix: ``(none)``)."""
    counts: Counter[str] = Counter(PurePath(path).suffix.lower() or "(none)" for path in paths)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
