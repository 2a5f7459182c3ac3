"""A new extractor generation re-extracts the same evidence: items and decisions follow it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from review_ledger import (
    DIVIDEND,
    HEADCOUNT,
    LIMIT,
    item_for_key,
    next_generation,
    reviewers,
    routed_ledger,
)
from sqlalchemy import Engine

from claims.models import ResolutionMethod, ReviewState
from claims.store import make_engine, transaction
from review import queue
from review.evidence import item_view
from review.policy import active_policy
from review.resolutions import current_resolution, resolutions_for
from review.routing import route


@pytest.fixture
def engine(migrated_url: str) -> Iterator[Engine]:
    """Both backends: carry-over matches evidence with SQL on SQLite and PostgreSQL."""
    store = make_engine(migrated_url)
    yield store
    store.dispose()


def _resolve_limit(engine: Engine) -> str:
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.resolve(
            session,
            item.id,
            reviewers().get("alice"),
            winners=["c-limit-a"],
            rationale="A is the approved note",
            evidence=["c-limit-a", "assistant-note-a"],
        )
    return item.id


def test_decisions_follow_the_same_evidence_into_a_new_generation(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    limit_id = _resolve_limit(engine)
    dividend_id = item_for_key(engine, DIVIDEND).id
    next_generation(ledger, "gen2")
    with transaction(engine) as session:
        report = route(session, active_policy(session))
    assert report.opened == []
    assert set(report.carried_over) == {limit_id, dividend_id, item_for_key(engine, HEADCOUNT).id}
    assert report.orphaned == []

    assert item_for_key(engine, LIMIT).state is ReviewState.RESOLVED
    with transaction(engine) as session:
        carried = current_resolution(session, limit_id)
        history = resolutions_for(session, limit_id)
        view = item_view(session, dividend_id)
    assert carried is not None
    assert carried.winner_claim_ids == ["gen2:c-limit-a"]
    assert carried.evidence == ["gen2:c-limit-a", "assistant-note-a"]
    assert carried.decided_by == "alice" and carried.method is ResolutionMethod.REVIEWER
    assert len(history) == 2 and history[0].superseded_at is not None
    assert item_for_key(engine, DIVIDEND).state is ReviewState.OPEN
    assert sorted(s.claim.id for s in view.sides) == [
        "gen2:c-div-press",
        "gen2:c-div-report",
        "gen2:c-div-restated",
    ]
    with transaction(engine) as session:
        again = route(session, active_policy(session))
    assert again.carried_over == [] and again.reopened == {} and again.opened == []


def test_a_generation_that_reads_another_value_reopens_the_decision(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    limit_id = _resolve_limit(engine)
    next_generation(ledger, "gen2", values={"c-limit-a": 260})
    with transaction(engine) as session:
        report = route(session, active_policy(session))
    assert report.reopened[limit_id] == "values changed under a new extractor generation"
    assert item_for_key(engine, LIMIT).state is ReviewState.OPEN
    with transaction(engine) as session:
        assert current_resolution(session, limit_id) is None
