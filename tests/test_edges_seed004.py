"""Seed 004's three acceptance cases end to end: real extraction, real store, recompute."""

from __future__ import annotations

from sqlalchemy import Engine

from claims.edge_refresh import recompute_edges
from claims.extraction import current_generation, extract
from claims.models import EdgeKind, Source, SupersedesRef
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.store.edges import EdgeRepository


def _ingest(engine: Engine, documents: dict[str, str], register: tuple[Source, ...] = ()) -> str:
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for source_id, text in documents.items():
            version, _ = sources.add_version(source_id, text)
            claims = extract(text, source_id=source_id, source_version_id=version.id)
            assert claims, f"no claim extracted from {text!r}"
            ClaimRepository(session).add_all(claims)
        for entry in register:
            sources.apply_register_entry(entry)
    return generation


def _edges(engine: Engine, generation: str) -> list[tuple[str, str]]:
    with transaction(engine) as session:
        recompute_edges(session, generation)
        return sorted((e.kind.value, e.rule) for e in EdgeRepository(session).active(generation))


def test_unresolved_limits_are_a_material_conflict(engine: Engine) -> None:
    generation = _ingest(
        engine,
        {
            "a": "The interactive assistant has a 250-token output limit.",
            "b": "The interactive assistant has a 500-token output limit.",
        },
    )
    assert _edges(engine, generation) == [("conflicts", "value")]
    with transaction(engine) as session:
        [conflict] = EdgeRepository(session).conflicts(generation, material_only=True)
    assert conflict.kind is EdgeKind.CONFLICTS


def test_register_supersession_is_never_a_conflict(engine: Engine) -> None:
    generation = _ingest(
        engine,
        {
            "old": "Revision 1: interactive output limit is 250 tokens.",
            "new": "Revision 2: interactive output limit is 500 tokens.",
        },
        [Source(id="new", supersedes=[SupersedesRef(source_id="old")])],
    )
    assert _edges(engine, generation) == [("supersedes", "register")]
    with transaction(engine) as session:
        assert EdgeRepository(session).conflicts(generation) == []


def test_different_request_types_are_compatible(engine: Engine) -> None:
    generation = _ingest(
        engine,
        {
            "interactive": "Interactive requests have a 250-token output limit.",
            "batch": "Batch evaluation requests have a 500-token output limit.",
        },
    )
    assert _edges(engine, generation) == [("compatible", "scope")]
