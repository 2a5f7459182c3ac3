"""Answers carry their evidence signals and keep three confidences apart (issue 16, D 1-3):
the extractor's per claim, the source's authority tier, the deciding resolution's."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from review_ledger import HEADCOUNT, LIMIT, item_for_key, reviewers, routed_ledger
from sqlalchemy import Engine, select, update
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claims.extraction.question import QuestionFrame
from claims.models import Requester
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.store.migrate import upgrade
from claims.tables import ClaimRow, SourceVersionRow
from retrieval.answer import answer_frame
from retrieval.contract import Answer, AnswerStatus
from review import queue

ANYONE = Requester(principal="anyone", groups=[])


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    routed_ledger(engine)
    yield engine
    engine.dispose()


def _ask(store: Engine, key: str, question: str) -> Answer:
    frame = QuestionFrame(text=question, claim_key=key, coarse_key=key, attribute=key)
    return answer_frame(store, frame, ANYONE, question=question)


def test_a_rule_decision_is_reported_as_the_rule_never_as_a_review(store: Engine) -> None:
    result = _ask(store, HEADCOUNT, "How many people does Acme employ?")
    assert result.status is AnswerStatus.ANSWERED and result.value == 12000
    assert result.reason.startswith("decided by rule higher-tier of policy acme-authority ")
    assert "review" not in result.reason
    signals = result.signals
    assert signals is not None
    assert (signals.decided_by, signals.rule_id, signals.resolution_confidence) == (
        "rule",
        "higher-tier",
        1.0,
    )


def test_a_reviewer_decision_says_review_and_keeps_the_reviewers_confidence(
    store: Engine,
) -> None:
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.resolve(
            session,
            item.id,
            reviewers().get("alice"),
            winners=["c-limit-a"],
            rationale="note A is the approved one",
            confidence=0.8,
        )
    result = _ask(store, LIMIT, "What is the assistant's output limit?")
    assert result.status is AnswerStatus.ANSWERED and result.value == 250
    assert result.reason.startswith("resolved by review: 250 tokens")
    assert result.signals is not None
    assert result.signals.decided_by == "reviewer" and result.signals.rule_id is None
    assert result.signals.resolution_confidence == 0.8


def test_every_citation_carries_its_provenance_and_its_own_confidences(store: Engine) -> None:
    with store.begin() as conn:
        conn.execute(update(ClaimRow).where(ClaimRow.id == "c-limit-b").values(confidence=0.55))
    result = _ask(store, LIMIT, "What is the assistant's output limit?")
    assert result.status is AnswerStatus.CONFLICT
    cites = {c.claim_id: c for side in result.sides for c in side.citations}
    assert set(cites) == {"c-limit-a", "c-limit-b"}
    assert cites["c-limit-b"].extraction_confidence == 0.55
    assert cites["c-limit-a"].extraction_confidence == 0.9
    with store.connect() as conn:
        texts = dict(conn.execute(select(SourceVersionRow.id, SourceVersionRow.text)).all())
    for cite in cites.values():
        assert cite.tier == "management" and cite.tier_rank == 2  # 3rd of the policy's tiers
        assert cite.checksum == hashlib.sha256(texts[cite.version_id].encode()).hexdigest()
        assert cite.span.end > cite.span.start and cite.version == 1


def test_conflict_signals_count_documents_and_sides_and_support_nothing(store: Engine) -> None:
    result = _ask(store, LIMIT, "What is the assistant's output limit?")
    signals = result.signals
    assert signals is not None
    assert signals.distinct_documents == 2 and signals.conflicts_detected == 1
    assert signals.supporting_sources == 0  # nothing is supported while unresolved
    assert (signals.highest_tier, signals.highest_tier_rank) == ("management", 2)
    assert signals.decided_by is None and signals.resolution_confidence is None


def test_answered_signals_name_the_highest_tier_and_the_supporting_sources(
    store: Engine,
) -> None:
    result = _ask(store, HEADCOUNT, "How many people does Acme employ?")
    signals = result.signals
    assert signals is not None and result.status is AnswerStatus.ANSWERED
    assert signals.supporting_sources == 1 and signals.distinct_documents == 1
    assert (signals.highest_tier, signals.highest_tier_rank) == ("board", 1)
    assert signals.conflicts_detected == 0


def test_not_found_carries_no_signals(store: Engine) -> None:
    result = _ask(store, "acme|number_of_moons", "How many moons does Acme have?")
    assert result.status is AnswerStatus.NOT_FOUND and result.signals is None


def test_claims_status_prints_the_three_confidences_apart(cli_env: Path) -> None:
    url = get_settings().resolved_database_url
    upgrade(url)
    engine = make_engine(url)
    try:
        routed_ledger(engine)
    finally:
        engine.dispose()
    run = CliRunner().invoke(cli_app, ["status", "--claim", "c-staff-report"])
    assert run.exit_code == 0, run.output
    assert "extraction confidence 0.90; source tier board, policy rank 1; sha256 " in run.output
    assert "resolution confidence 1.00" in run.output
