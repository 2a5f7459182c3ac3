"""The sentence cache (claims.extraction.sentence_cache) gives exactly the claims a cold run
gives: same ids, spans, quotes, keys, values and times, whatever document, place, source
version or document subject the repeated sentence comes with."""

from __future__ import annotations

import random
from typing import Any

import pytest
from spacy.language import Language

from claims.extraction import build_pipeline, claims_with
from claims.models import Claim

HANDBOOK = """# Harbourside Clinic staff handbook

The notice period is 30 days for permanent staff. Contractors are paid within 45 days of
the invoice date. Staff must not share patient records outside the clinic.

## Leave

Annual leave is 25 days a year. It was founded in 1998. The notice period is 30 days for
permanent staff. From 1 April 2026 the on-call allowance is £40 per night.
"""

RUNBOOK = """P-9 Router runbook

It lasts 11 hours on a full charge. The notice period is 30 days for permanent staff.
The p99 latency of the status page is 300 ms. Contractors are paid within 45 days of the
invoice date.
"""

EMAIL = """Hi all,

Quick reminder: the notice period is 30 days for permanent staff. Staff must not share
patient records outside the clinic. Annual leave is 25 days a year.
The on-call rota is not optional. It lasts 11 hours on a full charge.
Thanks, Priya
"""

SPEC = """Q-7 Router specification

It lasts 11 hours on a full charge. The upload limit is 250 MB. The upload limit is 250 MB.
Between 2021 and 2023 the upload limit was 100 MB.
"""

DOCUMENTS = [
    (HANDBOOK, "handbook", "v1", None),
    (RUNBOOK, "runbook", "v1", None),
    (EMAIL, "email-1", "v3", None),
    (EMAIL, "email-2", "v1", "Harbourside Clinic"),
    (SPEC, "spec", None, None),
    (RUNBOOK, "runbook", "v2", "Q-7 Router user guide"),
    ("   " + HANDBOOK, "handbook", "v2", None),  # the same text moved by three characters
]


def _run(
    nlp: Language, text: str, source: str, version: str | None, subject: str | None
) -> list[Claim]:
    return claims_with(nlp, text, source, version, subject)


def _dump(claims: list[Claim]) -> list[dict[str, Any]]:
    return [claim.model_dump(mode="json") for claim in claims]


@pytest.fixture(scope="module")
def pipelines() -> tuple[Language, Language]:
    cached = build_pipeline()
    cold = build_pipeline()
    cold.get_pipe("claim_assembler").assembler.sentences = None
    return cached, cold


def test_cached_claims_equal_a_cold_run_in_any_order(pipelines: tuple[Language, Language]) -> None:
    cached, cold = pipelines
    cache = cached.get_pipe("claim_assembler").assembler.sentences
    cache.clear()
    expected = {i: _dump(_run(cold, *doc)) for i, doc in enumerate(DOCUMENTS)}
    assert sum(len(v) for v in expected.values()) > 25  # the documents do state claims
    order = list(range(len(DOCUMENTS))) * 3
    random.Random(7).shuffle(order)
    for i in order:
        assert _dump(_run(cached, *DOCUMENTS[i])) == expected[i], DOCUMENTS[i][1]
    assert cache.hits > 20  # the repeated sentences were replayed, not read again


def test_a_replayed_claim_points_into_its_own_text(pipelines: tuple[Language, Language]) -> None:
    cached, _ = pipelines
    text = HANDBOOK + "\n" + HANDBOOK
    claims = _run(cached, text, "twice", "v1", None)
    notice = [c for c in claims if "notice" in c.claim_key]
    assert len(notice) == 4
    assert len({c.span.start for c in notice}) == 4
    assert len({c.id for c in notice}) == 4
    for claim in claims:
        assert text[claim.span.start : claim.span.end] == claim.quote
        if claim.value_span is not None:
            assert claim.value_span.start >= claim.span.start
            assert claim.value_span.end <= claim.span.end


def test_editing_a_claim_leaves_later_replays_alone(pipelines: tuple[Language, Language]) -> None:
    cached, cold = pipelines
    expected = _dump(_run(cold, SPEC, "spec", "v1", None))
    for _ in range(3):
        claims = _run(cached, SPEC, "spec", "v1", None)
        for claim in claims:
            claim.scope["edited"] = "yes"
            claim.scope_residual.append("edited")
            claim.time.text = "edited"
            claim.span.start = -1
    assert _dump(_run(cached, SPEC, "spec", "v1", None)) == expected


def test_it_names_each_documents_own_subject(pipelines: tuple[Language, Language]) -> None:
    cached, cold = pipelines
    sentence = "It lasts 11 hours on a full charge.\n"
    entities = set()
    for title in ("P-9 Router user guide", "Q-7 Router user guide", "P-9 Router user guide"):
        text = f"# {title}\n\n{sentence}"
        got = _run(cached, text, "guide", "v1", None)
        assert _dump(got) == _dump(_run(cold, text, "guide", "v1", None))
        entities.update(c.entity for c in got)
    assert len(entities) == 2


def test_each_source_version_gets_its_own_ids(pipelines: tuple[Language, Language]) -> None:
    cached, _ = pipelines
    first = _run(cached, RUNBOOK, "runbook", "v10", None)
    second = _run(cached, RUNBOOK, "runbook", "v11", None)
    assert [c.claim_key for c in first] == [c.claim_key for c in second]
    assert not {c.id for c in first} & {c.id for c in second}
    assert {c.source_version_id for c in second} == {"v11"}
