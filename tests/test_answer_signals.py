"""Answers carry their evidence signals and keep three confidences apart (issue 16, D 1-3):
the extractor's per claim, the source's authority tier, the deciding resolution's."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from review_ledger import (
    FIXTURES,
    HEADCOUNT,
    LIMIT,
    ReviewLedger,
    item_for_key,
    reviewers,
    routed_ledger,
)
from sqlalchemy import Engine, select, update
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claims.extraction.question import QuestionFrame
from claims.models import Requester
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.tables import ClaimRow, EdgeRow, SourceVersionRow
from retrieval.answer import answer_frame
from retrieval.contract import Answer, AnswerStatus
from retrieval.metrics import retrieval_metrics
from review import queue
from review.policy import apply_policy, load_policy
from review.routing import route
from tests.store_template import upgrade  # a copy of a store migrated once

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
    # the same three confidences in --json (what scripts and the HTTP API read)
    data = json.loads(
        CliRunner().invoke(cli_app, ["status", "--claim", "c-staff-report", "--json"]).output
    )
    citation = data["claims"][0]["citation"]
    assert citation["extraction_confidence"] == 0.9
    assert (citation["tier"], citation["tier_rank"]) == ("board", 1)
    assert len(citation["checksum"]) == 64
    assert data["claims"][0]["resolution"]["confidence"] == 1.0


RATIO = "acme|capital_ratio"  # high-risk in the review fixtures' policy ("*|capital_ratio")
RATIO_SENTENCE = "Acme's capital ratio stood at 14% at the end of the year."


def _diversity_store(engine: Engine, tmp_path: Path, *, independent: bool) -> None:
    """One filing, a verbatim copy of it under another source id (a surface clone) and,
    when ``independent``, an analyst's note stating the same ratio in its own words."""
    ledger = ReviewLedger(engine)
    ledger.add_source("filing", f"Annual filing. {RATIO_SENTENCE}", tier="regulator")
    ledger.add_source("filing-mirror", f"Mirror copy. {RATIO_SENTENCE}", tier="draft")
    for claim_id, source in (("c-ratio-filing", "filing"), ("c-ratio-mirror", "filing-mirror")):
        ledger.add_claim(
            id=claim_id, source=source, key=RATIO, quote=RATIO_SENTENCE, value=14, unit="%"
        )
    with transaction(engine) as session:
        session.add(
            EdgeRow(
                id="edge-ratio-clone",
                kind="corroborates",
                left_claim_id="c-ratio-mirror",
                right_claim_id="c-ratio-filing",
                claim_key=RATIO,
                rule="clone",
                reason="surface clone: the same sentence under two source ids",
                material=None,
                materiality=None,
                generation=ledger.generation,
                created_at=datetime.now(UTC),
            )
        )
    if independent:
        note = "Our analysts put Acme's capital ratio at 14% for the year."
        ledger.add_source("analyst-note", note, tier="management")
        ledger.add_claim(
            id="c-ratio-note", source="analyst-note", key=RATIO, quote=note, value=14, unit="%"
        )
    policy = yaml.safe_load((FIXTURES / "policy.yaml").read_text(encoding="utf-8"))
    policy["min_independent_origins"] = 2
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(yaml.safe_dump(policy), encoding="utf-8")
    loaded = load_policy(policy_file)
    with transaction(engine) as session:
        apply_policy(session, loaded, actor="test")
        route(session, loaded)


def test_a_high_risk_key_from_one_origin_and_its_clone_is_not_answered(
    engine: Engine, tmp_path: Path
) -> None:
    _diversity_store(engine, tmp_path, independent=False)
    result = _ask(engine, RATIO, "What is Acme's capital ratio?")
    assert result.status is AnswerStatus.NOT_FOUND and result.value is None
    assert "asks for 2 independent origins and 1 state the value" in result.reason
    assert result.signals is not None and result.signals.too_few_origins
    assert (result.signals.independent_origins, result.signals.min_independent_origins) == (1, 2)
    # the evidence is still shown: both copies cited, counted as one origin
    assert sorted(result.sides[0].source_ids) == ["filing", "filing-mirror"]


def test_a_high_risk_key_with_two_independent_origins_is_answered(
    engine: Engine, tmp_path: Path
) -> None:
    _diversity_store(engine, tmp_path, independent=True)
    result = _ask(engine, RATIO, "What is Acme's capital ratio?")
    assert result.status is AnswerStatus.ANSWERED and result.value == 14
    assert result.signals is not None and not result.signals.too_few_origins
    assert result.signals.independent_origins == 2 and result.signals.supporting_sources == 3


def test_a_policy_without_a_minimum_keeps_its_version_stamp() -> None:
    plain = load_policy(FIXTURES / "policy.yaml")
    assert plain.min_independent_origins is None
    assert '"min_independent_origins"' not in plain.canonical_json()
    strict = plain.model_copy(update={"min_independent_origins": 2})
    assert strict.stamp != plain.stamp  # a minimum changes what answers: a new stamp


@pytest.mark.parametrize(("independent", "short"), [(False, 1), (True, 0)])
def test_metrics_count_high_risk_keys_short_of_origins(
    engine: Engine, tmp_path: Path, independent: bool, short: int
) -> None:
    _diversity_store(engine, tmp_path, independent=independent)
    with engine.connect() as conn:
        figures = retrieval_metrics(conn, ANYONE)
    assert figures.high_risk_keys_short_of_origins == short
