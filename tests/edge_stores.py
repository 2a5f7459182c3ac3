"""Stores of a few pages for the tests of edges across pages (shared by the one-entity,
fuller-name and linked-by-day tests): extract and store pages, recompute their edges, read
the live conflicts between two sources, or read the pages' facts without a store."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Engine, select
from sqlalchemy.orm import aliased

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.tables import ClaimRow, EdgeRow


def store_documents(engine: Engine, documents: dict[str, str]) -> dict[str, str]:
    """Extract and store ``documents`` ({source id: text}); their version ids."""
    generation, label = current_generation()
    versions: dict[str, str] = {}
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        for source_id, text in documents.items():
            version, _ = SourceRepository(session).add_version(source_id, text)
            claims = extract(text, source_id=source_id, source_version_id=version.id)
            ClaimRepository(session).add_all(claims)
            versions[source_id] = version.id
    return versions


def recompute(
    engine: Engine, keys: set[str] | None = None, namesake_sources: Collection[str] = ()
) -> None:
    """Recompute the edges of ``keys`` (every key when None) in the current generation;
    ``namesake_sources`` are read as reference pages (``build_edges``)."""
    generation, _ = current_generation()
    with transaction(engine) as session:
        recompute_edges(session, generation, keys, namesake_sources=namesake_sources)


def recompute_touched(
    engine: Engine, version_id: str, namesake_sources: Collection[str] = ()
) -> None:
    """Recompute only the keys a newly stored version touches, as an incremental run does."""
    generation, _ = current_generation()
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, version_id, generation)
    recompute(engine, touched, namesake_sources)


def live_conflicts(engine: Engine, a: str, b: str) -> list[str]:
    """The reasons of the live conflicts edges between sources ``a`` and ``b``, sorted."""
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with transaction(engine) as session:
        rows = session.execute(
            select(left.source_id, right.source_id, EdgeRow.reason)
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None), EdgeRow.kind == "conflicts")
        ).all()
    return sorted(reason for x, y, reason in rows if {x, y} == {a, b})


def facts_of(documents: dict[str, str]) -> list[ClaimFacts]:
    """The edge builder's facts of every claim of ``documents``, with no store."""
    return [
        facts_from_claim(claim)
        for source_id, text in documents.items()
        for claim in extract(text, source_id=source_id)
    ]
