"""Metrics of the conflict machinery, against a scenario with known answers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from review_ledger import FIXTURES, LIMIT, ReviewLedger, item_for_key, reviewers
from sqlalchemy import Engine

from claims.models import DismissReason
from claims.store import transaction
from review import queue
from review.metrics import review_metrics
from review.policy import apply_policy, load_policy
from review.routing import route

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def test_metrics_count_candidates_precision_ages_high_risk_and_auto_share(engine: Engine) -> None:
    policy = load_policy(FIXTURES / "policy.yaml")
    ledger = ReviewLedger(engine).load()
    with transaction(engine) as session:
        apply_policy(session, policy, actor="admin", now=T0)
        route(session, policy, now=T0)
    ledger.add_source("bank-filing", "The capital ratio is 12.5%.", tier="regulator")
    ledger.add_source("bank-deck", "Capital ratio: 14%.", tier="regulator")
    ledger.add_claim(
        id="c-cr-1",
        source="bank-filing",
        key="bank|capital_ratio",
        quote="The capital ratio is 12.5%.",
        value=12.5,
    )
    ledger.add_claim(
        id="c-cr-2",
        source="bank-deck",
        key="bank|capital_ratio",
        quote="Capital ratio: 14%.",
        value=14.0,
    )
    ledger.add_conflict(left="c-cr-1", right="c-cr-2")
    alice = reviewers().get("alice")
    with transaction(engine) as session:
        route(session, policy, now=T0 + timedelta(hours=8))
        queue.resolve(
            session,
            item_for_key(engine, LIMIT).id,
            alice,
            winners=["c-limit-a"],
            rationale="A approved",
            now=T0 + timedelta(hours=9),
        )
        metrics = review_metrics(session, policy, now=T0 + timedelta(hours=10))

    assert metrics.conflict_candidates == 6
    assert metrics.conflict_sets == 4
    assert metrics.confirmed == 1 and metrics.dismissed == 0
    assert metrics.confirmed_precision == 1.0
    assert metrics.unresolved == 2
    assert metrics.unresolved_age_median_hours == 6.0  # 10 h and 2 h
    assert metrics.unresolved_age_max_hours == 10.0
    assert metrics.open_high_risk_by_predicate == {"*|capital_ratio": 1, "acme|dividend*": 1}
    assert metrics.auto_resolved == 1 and metrics.reviewed == 1
    assert metrics.share_auto_resolved == 0.5 and metrics.share_reviewed == 0.5

    with transaction(engine) as session:
        queue.dismiss(
            session,
            item_for_key(engine, "bank|capital_ratio").id,
            alice,
            reason=DismissReason.DIFFERENT_DEFINITION,
            rationale="the deck reports CET1, the filing the total ratio",
            now=T0 + timedelta(hours=11),
        )
        after = review_metrics(session, policy, now=T0 + timedelta(hours=12))
    assert after.confirmed_precision == 0.5  # 1 confirmed / (1 confirmed + 1 dismissed)
    assert after.unresolved == 1 and after.unresolved_age_max_hours == 12.0
    assert after.open_high_risk_by_predicate == {"acme|dividend*": 1}
    assert after.items_by_state["dismissed"] == 1


def test_metrics_of_an_empty_store_have_no_ratios(engine: Engine) -> None:
    with transaction(engine) as session:
        metrics = review_metrics(session, None)
    assert metrics.conflict_candidates == 0
    assert metrics.confirmed_precision is None
    assert metrics.unresolved_age_median_hours is None
    assert metrics.share_auto_resolved is None
