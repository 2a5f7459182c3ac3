"""Notes extracted and stored as a pipeline run stores them, for store-level tests."""

from __future__ import annotations

from sqlalchemy import Engine

from claims.edge_refresh import recompute_edges
from claims.extraction import current_generation, extract
from claims.models import Source
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction


def store_notes(engine: Engine, notes: list[tuple[str, str, list[str]]]) -> str:
    """(source id, text, access groups) per note, extracted and linked like a pipeline run;
    the generation the claims were stored under."""
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for source_id, body, groups in notes:
            version, _ = sources.add_version(source_id, body)
            ClaimRepository(session).add_all(
                extract(body, source_id=source_id, source_version_id=version.id)
            )
            sources.apply_register_entry(Source(id=source_id, access_groups=groups))
        recompute_edges(session, generation)
    return generation
