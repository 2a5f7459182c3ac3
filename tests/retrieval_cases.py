"""Seed 004's cases (tests/fixtures/retrieval/conflict_cases.json) loaded into a real store:
real extraction, the register, edge recompute and review routing under the default policy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from claims.edge_refresh import recompute_edges
from claims.extraction import current_generation, extract
from claims.models import Requester, Source, SupersedesRef
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.store.sources import record_profiles
from review.policy import DEFAULT_POLICY_FILE, apply_policy, load_policy
from review.routing import route

CASES_FILE = Path(__file__).parent / "fixtures" / "retrieval" / "conflict_cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))
CASE_IDS = [case["id"] for case in CASES]


def load_case(
    engine: Engine,
    case: dict[str, Any],
    groups: dict[str, list[str]] | None = None,
    *,
    profile: str | None = None,
) -> None:
    """Ingest the case's documents (with access ``groups`` per source id), extract, link,
    route; every document read with ``profile`` (None: office), as the register would."""
    groups = groups or {}
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        sources = SourceRepository(session)
        for document in case["documents"]:
            version, _ = sources.add_version(document["id"], document["text"])
            claims = extract(
                document["text"],
                source_id=document["id"],
                source_version_id=version.id,
                profile=profile,
            )
            ClaimRepository(session).add_all(claims)
        if profile is not None:
            record_profiles(session, {d["id"]: profile for d in case["documents"]})
        for document in case["documents"]:
            olders = case["supersedes"].get(document["id"], [])
            sources.apply_register_entry(
                Source(
                    id=document["id"],
                    access_groups=groups.get(document["id"], []),
                    supersedes=[SupersedesRef(source_id=o) for o in olders],
                )
            )
    with transaction(engine) as session:
        recompute_edges(session, generation)
        GenerationRepository(session).promote(generation, {})
    with transaction(engine) as session:
        policy = load_policy(DEFAULT_POLICY_FILE)
        apply_policy(session, policy, actor="test")
        route(session, policy)


def load_documents(
    engine: Engine, documents: dict[str, str], *, profile: str | None = None
) -> None:
    """``load_case`` for documents given as {source id: text}, public, none superseding."""
    load_case(
        engine,
        {"documents": [{"id": k, "text": v} for k, v in documents.items()], "supersedes": {}},
        profile=profile,
    )


def answer_sides(engine: Engine, question: str, requester: Requester) -> tuple[Any, ...]:
    """The status, value and sides of the answer: each side as (value, its source ids)."""
    from retrieval.answer import answer

    result = answer(engine, question, requester)
    sides = sorted((str(s.value), tuple(sorted(s.source_ids))) for s in result.sides)
    return result.status.value, result.value, sides


def check_response(case: dict[str, Any], response: dict[str, Any]) -> list[str]:
    """Seed 004's checker: status, typed value, unique known citations, required evidence."""
    expected = case["expected"]
    failures = []
    if response.get("status") != expected["status"]:
        failures.append("status")
    value = response.get("value")
    if (
        "value" not in response
        or type(value) is not type(expected["value"])
        or value != expected["value"]
    ):
        failures.append("value")
    citations = response.get("citations")
    if not isinstance(citations, list) or len(citations) != len(set(citations)):
        failures.append("citation_shape")
    else:
        known = {doc["id"] for doc in case["documents"]}
        if set(citations) - known:
            failures.append("unknown_citation")
        if not set(expected["required_citations"]).issubset(citations):
            failures.append("missing_evidence")
    return failures
