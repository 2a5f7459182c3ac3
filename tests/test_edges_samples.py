"""The bundled sample corpus end to end: ingest, extract, edges; every case as samples/README.md
describes it, and no conflict beyond the three real ones (precision)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from claims.edge_refresh import recompute_edges, record_supersession_candidates
from claims.extraction import current_generation, extract
from claims.ingest import ingest, scan_sources
from claims.models import Edge
from claims.register import load_register
from claims.store import ClaimRepository, GenerationRepository, transaction
from claims.store.edges import EdgeRepository, SupersessionRepository
from claims.tables import SourceVersionRow

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
Corpus = tuple[list[Edge], dict[str, str]]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    from claims.store import make_engine
    from claims.store.migrate import upgrade

    url = f"sqlite:///{tmp_path_factory.mktemp('samples') / 'claims.db'}"
    upgrade(url)
    engine: Engine = make_engine(url)
    register = load_register(SAMPLES / "register.yaml")
    scan = scan_sources([SAMPLES / "corpus"], register)
    assert not scan.rejected
    generation, label = current_generation()
    with transaction(engine) as session:
        ingest(session, scan.files, register)
        GenerationRepository(session).ensure(generation, label)
        for version in session.scalars(select(SourceVersionRow)):
            claims = extract(
                version.text, source_id=version.source_id, source_version_id=version.id
            )
            ClaimRepository(session).add_all(claims)
            record_supersession_candidates(session, version.id)
        recompute_edges(session, generation)
    with transaction(engine) as session:
        edges = EdgeRepository(session).active(generation)
        source_of = {c.id: c.source_id or "" for c in ClaimRepository(session).all(generation)}
        candidates = SupersessionRepository(session).candidates()
        applied = SupersessionRepository(session).all()
    engine.dispose()
    source_of["candidates"] = repr([(c.target_text, c.quote) for c in candidates])
    source_of["applied"] = repr(sorted({r.origin.value for r in applied}))
    yield edges, source_of


def _between(corpus: Corpus, a: str, b: str) -> set[tuple[str, str]]:
    edges, source_of = corpus
    return {
        (e.kind.value, e.rule)
        for e in edges
        if {source_of[e.left_claim_id], source_of[e.right_claim_id]} == {a, b}
    }


def test_only_the_four_real_contradictions_are_conflicts(corpus: Corpus) -> None:
    edges, source_of = corpus
    conflicts = {
        frozenset({source_of[e.left_claim_id], source_of[e.right_claim_id]})
        for e in edges
        if e.kind.value == "conflicts"
    }
    assert conflicts == {
        frozenset({"finance/filing-q1", "finance/filing-q1-restated"}),
        frozenset({"assistant/output-limit-note-a", "assistant/output-limit-note-b"}),
        frozenset({"hr/ja/notice-period-handbook", "hr/ja/notice-period-intranet"}),
        # The guide's taxi limit contradicts the 2026 policy; the superseded 2019 one does not.
        frozenset({"policies/travel-team-guide", "policies/travel-2026"}),
    }
    taxi = {"policies/travel-team-guide", "policies/travel-2026"}
    assert all(
        e.material
        for e in edges
        if e.kind.value == "conflicts"
        and {source_of[e.left_claim_id], source_of[e.right_claim_id]} != taxi
    )


def test_quarters_request_types_and_populations_are_different_scopes(corpus: Corpus) -> None:
    assert _between(corpus, "finance/dividend-q1", "finance/dividend-q2") == {
        ("compatible", "scope")
    }
    assert _between(corpus, "assistant/search-interactive", "assistant/search-batch") == {
        ("compatible", "scope")
    }
    assert ("compatible", "scope") in _between(
        corpus, "medical/examplamine-dosing", "medical/examplamine-dosing"
    )
    assert ("compatible", "scope") in _between(
        corpus, "service/checkout-slo", "service/checkout-slo"
    )  # p50 vs p99


def test_register_supersession_replaces_instead_of_conflicting(corpus: Corpus) -> None:
    assert _between(corpus, "assistant/drafter-limit-r1", "assistant/drafter-limit-r2") == {
        ("supersedes", "register")
    }
    travel = _between(corpus, "policies/travel-2019", "policies/travel-2026")
    assert travel == {("supersedes", "register")}


def test_text_claiming_to_replace_a_policy_is_only_a_candidate(corpus: Corpus) -> None:
    edges, source_of = corpus
    assert "This policy replaces the 2019 travel policy." in source_of["candidates"]
    assert not any(
        e.kind.value == "supersedes" and source_of[e.left_claim_id] == "policies/travel-team-guide"
        for e in edges
    )


def test_added_scope_is_ambiguous_and_conversion_corroborates(corpus: Corpus) -> None:
    assert _between(corpus, "hr/notice-period", "hr/first-year-terms") == {("ambiguous", "scope")}
    assert _between(corpus, "service/checkout-slo", "service/checkout-runbook") == {
        ("corroborates", "conversion")
    }
