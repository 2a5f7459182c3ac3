"""Review lifecycle on both backends: claim, lock expiry, optimistic concurrency, decisions,
bad input that changes nothing, reopen."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from review_ledger import DIVIDEND, FIXTURES, LIMIT, item_for_key, reviewers, routed_ledger
from sqlalchemy import Engine, func, select

from claims.errors import ConcurrencyError, InputError, NotFoundError
from claims.models import DismissReason, ResolutionMethod, ReviewState
from claims.store import make_engine, transaction
from claims.tables import AuditEventRow, ClaimRow, ResolutionRow, ReviewItemRow
from review import queue
from review.items import ReviewItemRepository
from review.policy import load_policy
from review.resolutions import current_resolution, resolutions_for

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    routed_ledger(engine)
    yield engine
    engine.dispose()


def _counts(engine: Engine) -> tuple[int, int, int]:
    with transaction(engine) as session:
        return (
            session.scalar(select(func.count()).select_from(AuditEventRow)) or 0,
            session.scalar(select(func.count()).select_from(ResolutionRow)) or 0,
            session.scalar(select(func.sum(ReviewItemRow.revision))) or 0,
        )


def test_claim_then_resolve_records_winner_rationale_reviewer_and_policy_version(
    store: Engine,
) -> None:
    alice = reviewers().get("alice")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        claimed = queue.claim(session, item.id, alice, now=T0)
        assert claimed.state is ReviewState.CLAIMED and claimed.assignee == "alice"
        assert claimed.lock_expires_at == T0 + timedelta(minutes=30)
        queue.resolve(
            session,
            item.id,
            alice,
            winners=["c-limit-a"],
            rationale="Note A is the approved limit for interactive use.",
            evidence=["c-limit-a", "assistant-note-a"],
            expected_revision=claimed.revision,
            now=T0 + timedelta(minutes=5),
        )
    with transaction(store) as session:
        resolution = current_resolution(session, item.id)
        losers = session.scalar(select(func.count()).where(ClaimRow.id == "c-limit-b"))
    assert resolution is not None
    assert resolution.method is ResolutionMethod.REVIEWER
    assert resolution.decided_by == "alice"
    assert resolution.winner_claim_ids == ["c-limit-a"]
    assert resolution.evidence == ["c-limit-a", "assistant-note-a"]
    assert resolution.policy_version == load_policy(FIXTURES / "policy.yaml").stamp
    assert item_for_key(store, LIMIT).state is ReviewState.RESOLVED
    assert losers == 1


def test_second_reviewer_acting_on_a_stale_revision_gets_a_conflict_error(store: Engine) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)  # both loaded revision 1
    with transaction(store) as session:
        queue.claim(session, item.id, alice, expected_revision=item.revision, now=T0)
    before = _counts(store)
    with (
        pytest.raises(ConcurrencyError, match="changed since you loaded it"),
        transaction(store) as session,
    ):
        queue.dismiss(
            session,
            item.id,
            bob,
            reason=DismissReason.DIFFERENT_SCOPE,
            rationale="different modes",
            expected_revision=item.revision,
            now=T0,
        )
    assert _counts(store) == before
    assert item_for_key(store, LIMIT).assignee == "alice"


def test_two_sessions_racing_on_one_item_let_only_the_first_win(store: Engine) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)
    with transaction(store) as bob_session:
        bob_row = bob_session.get(ReviewItemRow, item.id)  # bob reads revision 1 ...
        assert bob_row is not None
        with transaction(store) as alice_session:  # ... alice claims and commits meanwhile
            queue.claim(alice_session, item.id, alice, now=T0)
        with pytest.raises(ConcurrencyError, match="changed by someone else"):
            queue.change_item(
                bob_session,
                bob_row,
                actor=bob.name,
                action="item.claim",
                changes={"state": "claimed", "assignee": bob.name},
                now=T0,
            )
    after = item_for_key(store, LIMIT)
    assert after.assignee == alice.name and after.revision == item.revision + 1


def test_live_lock_refuses_another_reviewer_and_expired_lock_can_be_taken_over(
    store: Engine,
) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.claim(session, item.id, alice, now=T0)
    with pytest.raises(ConcurrencyError, match="claimed by alice"), transaction(store) as session:
        queue.claim(session, item.id, bob, now=T0 + timedelta(minutes=10))
    with transaction(store) as session:
        taken = queue.claim(session, item.id, bob, now=T0 + timedelta(minutes=31))
    assert taken.assignee == "bob" and taken.state is ReviewState.CLAIMED
    with transaction(store) as session:
        actions = [e.action for e in queue.audit.history(session, item.id)]
    assert actions[-2:] == ["item.claim", "item.takeover"]


def test_acting_on_a_lock_someone_took_over_or_that_expired_is_refused(store: Engine) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.claim(session, item.id, alice, now=T0)
    before = _counts(store)
    with pytest.raises(ConcurrencyError, match="stale lock"), transaction(store) as session:
        queue.resolve(
            session,
            item.id,
            alice,
            winners=["c-limit-a"],
            rationale="too late",
            now=T0 + timedelta(hours=2),
        )
    assert _counts(store) == before
    with transaction(store) as session:
        queue.claim(session, item.id, bob, now=T0 + timedelta(hours=2))
    with pytest.raises(ConcurrencyError, match="claimed by bob"), transaction(store) as session:
        queue.resolve(
            session,
            item.id,
            alice,
            winners=["c-limit-a"],
            rationale="mine",
            now=T0 + timedelta(hours=2, minutes=1),
        )


@pytest.mark.parametrize(
    ("winners", "rationale", "evidence", "message"),
    [
        (["c-div-report"], "wrong item", [], "winner: claim 'c-div-report' is not part of"),
        (["c-limit-a"], "   ", [], "rationale: a reason is required"),
        ([], "no winner", [], "winner: name at least one"),
        (["c-limit-a"], "cites a stranger", ["restatement-2025"], "evidence: 'restatement-2025'"),
    ],
)
def test_bad_resolution_input_is_refused_and_changes_nothing(
    store: Engine, winners: list[str], rationale: str, evidence: list[str], message: str
) -> None:
    alice = reviewers().get("alice")
    item = item_for_key(store, LIMIT)
    before = _counts(store)
    with pytest.raises(InputError, match=message), transaction(store) as session:
        queue.resolve(
            session, item.id, alice, winners=winners, rationale=rationale, evidence=evidence
        )
    assert _counts(store) == before
    assert item_for_key(store, LIMIT).state is ReviewState.OPEN


def test_unknown_reviewer_and_unknown_item_are_clear_errors(store: Engine) -> None:
    with pytest.raises(InputError, match="unknown reviewer 'mallory'"):
        reviewers().get("mallory")
    with (
        pytest.raises(NotFoundError, match="no review item 'ri_nope'"),
        transaction(store) as session,
    ):
        queue.claim(session, "ri_nope", reviewers().get("alice"))


def test_dismiss_needs_a_reason_and_counts_as_not_a_conflict(store: Engine) -> None:
    alice = reviewers().get("alice")
    item = item_for_key(store, DIVIDEND)
    with transaction(store) as session:
        resolution = queue.dismiss(
            session,
            item.id,
            alice,
            reason=DismissReason.EXTRACTION_ERROR,
            rationale="the press release figure was misread",
        )
    assert resolution.outcome is ReviewState.DISMISSED
    assert resolution.dismiss_reason is DismissReason.EXTRACTION_ERROR
    assert resolution.winner_claim_ids == []
    assert item_for_key(store, DIVIDEND).state is ReviewState.DISMISSED


def test_deferred_item_returns_to_the_queue_on_its_date(store: Engine) -> None:
    alice = reviewers().get("alice")
    item = item_for_key(store, LIMIT)
    with pytest.raises(InputError, match="not in the future"), transaction(store) as session:
        queue.defer(session, item.id, alice, until=T0.date(), now=T0)
    with transaction(store) as session:
        deferred = queue.defer(
            session, item.id, alice, until=date(2026, 11, 5), rationale="waiting on legal", now=T0
        )
    assert deferred.state is ReviewState.DEFERRED and deferred.deferred_until == date(2026, 11, 5)
    with transaction(store) as session:
        assert queue.release_due_deferrals(session, now=T0 + timedelta(days=1)) == []
        assert queue.release_due_deferrals(session, now=T0 + timedelta(days=3)) == [item.id]
    assert item_for_key(store, LIMIT).state is ReviewState.OPEN


def test_reviewer_reopen_supersedes_the_resolution_and_keeps_it(store: Engine) -> None:
    alice, bob = reviewers().get("alice"), reviewers().get("bob")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.mark_ambiguous(session, item.id, alice, rationale="both notes are current")
    with pytest.raises(InputError, match="reason"), transaction(store) as session:
        queue.reopen_by_reviewer(session, item.id, bob, reason=" ")
    with transaction(store) as session:
        reopened = queue.reopen_by_reviewer(session, item.id, bob, reason="owner answered")
        kept = resolutions_for(session, item.id)
    assert reopened.state is ReviewState.OPEN and reopened.assignee is None
    assert len(kept) == 1 and kept[0].superseded_at is not None
    assert kept[0].outcome is ReviewState.AMBIGUOUS


def test_deciding_a_closed_item_asks_to_reopen_it_first(store: Engine) -> None:
    alice = reviewers().get("alice")
    item = item_for_key(store, LIMIT)
    with transaction(store) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-b"], rationale="B wins")
    with pytest.raises(InputError, match="reopen it"), transaction(store) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-a"], rationale="A wins")
    with transaction(store) as session:
        assert ReviewItemRepository(session).get(item.id).state is ReviewState.RESOLVED
