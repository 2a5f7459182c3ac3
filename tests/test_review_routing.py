"""Routing: conflict sets become review items or rule resolutions; reopen triggers."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from review_ledger import (
    DIVIDEND,
    FIXTURES,
    HEADCOUNT,
    LIMIT,
    ReviewLedger,
    item_for_key,
    reviewers,
    routed_ledger,
)
from sqlalchemy import Engine, func, select

from claims.models import ConflictStatus, DismissReason, ResolutionMethod, ReviewState
from claims.store import make_engine, transaction
from claims.tables import AuditEventRow, ClaimRow, EdgeRow, ResolutionRow, ReviewItemRow
from review import queue
from review.items import ReviewItemRepository
from review.policy import active_policy, apply_policy, load_policy
from review.resolutions import current_resolution, resolutions_for
from review.routing import route
from tests.store_template import upgrade  # a copy of a store migrated once


def _route(engine: Engine) -> dict[str, str]:
    with transaction(engine) as session:
        return route(session, active_policy(session)).reopened


def test_three_way_dividend_disagreement_is_one_review_item(engine: Engine) -> None:
    routed_ledger(engine)
    item = item_for_key(engine, DIVIDEND)
    assert item.claim_ids == ["c-div-press", "c-div-report", "c-div-restated"]
    assert item.state is ReviewState.OPEN
    assert item.high_risk and item.risk == 1.0


def test_non_material_conflict_is_resolved_by_rule_with_the_policy_version(
    engine: Engine,
) -> None:
    routed_ledger(engine)
    policy = load_policy(FIXTURES / "policy.yaml")
    item = item_for_key(engine, HEADCOUNT)
    assert item.state is ReviewState.RESOLVED  # visible as a resolved conflict
    with transaction(engine) as session:
        resolution = current_resolution(session, item.id)
        losers = session.scalar(select(func.count()).where(ClaimRow.id == "c-staff-blog"))
    assert resolution is not None
    assert resolution.method is ResolutionMethod.RULE
    assert resolution.decided_by == "rule:higher-tier"
    assert resolution.winner_claim_ids == ["c-staff-report"]  # board outranks draft
    assert resolution.policy_version == policy.stamp
    assert "board" in resolution.rationale and "draft" in resolution.rationale
    assert losers == 1  # the losing claim is kept


def test_material_conflict_between_equal_tiers_waits_for_a_person(engine: Engine) -> None:
    routed_ledger(engine)
    item = item_for_key(engine, LIMIT)
    assert item.state is ReviewState.OPEN
    assert not item.high_risk and item.risk == 0.7


def test_high_risk_predicate_is_never_auto_resolved(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    ledger.add_source("bank-filing", "The capital ratio is 12.5%.", tier="regulator")
    ledger.add_source("bank-blog", "Our capital ratio is 12.6%.", tier="draft")
    ledger.add_claim(
        id="c-cr-1",
        source="bank-filing",
        key="bank|capital_ratio",
        quote="The capital ratio is 12.5%.",
        value=12.5,
        unit="%",
    )
    ledger.add_claim(
        id="c-cr-2",
        source="bank-blog",
        key="bank|capital_ratio",
        quote="Our capital ratio is 12.6%.",
        value=12.6,
        unit="%",
    )
    ledger.add_conflict(left="c-cr-1", right="c-cr-2", material=False, materiality=0.05)
    _route(engine)
    item = item_for_key(engine, "bank|capital_ratio")
    assert item.state is ReviewState.OPEN and item.high_risk


def test_rerouting_changes_nothing(engine: Engine) -> None:
    routed_ledger(engine)
    with transaction(engine) as session:
        rows = ReviewItemRepository(session).all_rows()
        before_items = [(r.id, r.state, r.revision) for r in rows]
        before_audit = session.scalar(select(func.count()).select_from(AuditEventRow))
    with transaction(engine) as session:
        report = route(session, active_policy(session))
    with transaction(engine) as session:
        rows = ReviewItemRepository(session).all_rows()
        after_items = [(r.id, r.state, r.revision) for r in rows]
        after_audit = session.scalar(select(func.count()).select_from(AuditEventRow))
    assert report.opened == [] and report.auto_resolved == [] and report.reopened == {}
    assert after_items == before_items and len(after_items) == 3
    assert after_audit == before_audit


def test_item_ids_are_the_same_in_two_fresh_stores(tmp_path: Path) -> None:
    ids = []
    for name in ("one", "two"):
        url = f"sqlite:///{tmp_path / name}.db"
        upgrade(url)
        engine = make_engine(url)
        routed_ledger(engine)
        with transaction(engine) as session:
            ids.append(sorted(r.id for r in ReviewItemRepository(session).all_rows()))
        engine.dispose()
    assert ids[0] == ids[1]


def test_new_source_version_joining_the_set_reopens_a_resolved_item(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    alice = reviewers().get("alice")
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-a"], rationale="note A governs")
    ledger.add_version(
        "assistant-note-b", "Update 2. The interactive assistant has a 300-token output limit."
    )
    ledger.add_claim(
        id="c-limit-b2",
        source="assistant-note-b",
        key=LIMIT,
        quote="The interactive assistant has a 300-token output limit.",
        value=300,
    )
    ledger.add_conflict(left="c-limit-a", right="c-limit-b2")
    reopened = _route(engine)
    after = item_for_key(engine, LIMIT)
    assert after.id == item.id and item.id in reopened
    assert after.state is ReviewState.OPEN
    assert after.claim_ids == ["c-limit-a", "c-limit-b", "c-limit-b2"]
    with transaction(engine) as session:
        history = resolutions_for(session, item.id)
        assert current_resolution(session, item.id) is None
    assert len(history) == 1 and history[0].superseded_at is not None  # kept, superseded


def test_newer_version_of_a_source_in_the_set_reopens_even_without_new_conflicts(
    engine: Engine,
) -> None:
    ledger = routed_ledger(engine)
    alice = reviewers().get("alice")
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-b"], rationale="B is newer")
    ledger.add_version("assistant-note-a", "Limits, revised. Nothing about output any more.")
    reopened = _route(engine)
    assert "new source version" in reopened[item.id]
    assert item_for_key(engine, LIMIT).state is ReviewState.OPEN


def test_withdrawn_winning_source_reopens_the_item(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    item = item_for_key(engine, HEADCOUNT)  # auto-resolved: the annual report won
    ledger.withdraw("annual-report-2025")
    reopened = _route(engine)
    assert reopened[item.id] == "winning source withdrawn: annual-report-2025"
    # A withdrawn source cannot win by rule again: the item waits for a person.
    assert item_for_key(engine, HEADCOUNT).state is ReviewState.OPEN
    assert _route(engine) == {}


def test_policy_change_that_alters_an_auto_resolution_reopens_it(engine: Engine) -> None:
    routed_ledger(engine)
    item = item_for_key(engine, HEADCOUNT)
    v2 = load_policy(FIXTURES / "policy_v2_no_rules.yaml")
    with transaction(engine) as session:
        apply_policy(session, v2, actor="admin")
        report = route(session, v2)
    assert item.id in report.reopened and "would decide differently" in report.reopened[item.id]
    after = item_for_key(engine, HEADCOUNT)
    assert after.state is ReviewState.OPEN
    with transaction(engine) as session:
        rows = session.scalars(select(ResolutionRow).where(ResolutionRow.review_item_id == item.id))
        assert [r.superseded_at is not None for r in rows] == [True]
        reopen_event = session.scalars(
            select(AuditEventRow).where(
                AuditEventRow.entity_id == item.id, AuditEventRow.action == "item.reopen"
            )
        ).one()
    assert reopen_event.policy_version == v2.stamp


def test_policy_change_that_keeps_the_winner_leaves_the_resolution_alone(
    engine: Engine, tmp_path: Path
) -> None:
    routed_ledger(engine)
    text = (FIXTURES / "policy.yaml").read_text().replace("version: 1", "version: 1.1")
    (tmp_path / "policy.yaml").write_text(text)
    v11 = load_policy(tmp_path / "policy.yaml")
    with transaction(engine) as session:
        apply_policy(session, v11, actor="admin")
        report = route(session, v11)
    assert report.reopened == {}
    assert item_for_key(engine, HEADCOUNT).state is ReviewState.RESOLVED


def test_conflict_sets_of_different_keys_never_merge(engine: Engine) -> None:
    routed_ledger(engine)
    with transaction(engine) as session:
        keys = sorted(r.claim_key for r in session.scalars(select(ReviewItemRow)))
    assert keys == [DIVIDEND, HEADCOUNT, LIMIT]
    _ = ReviewLedger  # the builder is the only way data gets in


def test_an_item_whose_conflict_is_gone_closes_itself_and_reopens_when_it_returns(
    engine: Engine,
) -> None:
    # the document was corrected and re-run: the conflict edges of the item are retired
    routed_ledger(engine)
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        for edge in session.scalars(select(EdgeRow).where(EdgeRow.claim_key == LIMIT)):
            edge.retired_at = datetime.now(UTC)
    with transaction(engine) as session:
        report = route(session, active_policy(session))
    assert report.orphaned == [item.id]
    assert item_for_key(engine, LIMIT).state is ReviewState.DISMISSED
    with transaction(engine) as session:
        resolution = current_resolution(session, item.id)
        assert resolution is not None
        assert resolution.dismiss_reason is DismissReason.EVIDENCE_CHANGED
        assert (resolution.method, resolution.decided_by) == (ResolutionMethod.RULE, "router")
        audited = session.scalars(
            select(AuditEventRow)
            .where(AuditEventRow.entity_id == item.id)
            .order_by(AuditEventRow.id.desc())
        ).all()
        assert any(a.actor == "router" and a.action == "item.dismissed" for a in audited), [
            (a.actor, a.action) for a in audited
        ]
    with transaction(engine) as session:  # a second pass leaves the closed item alone
        assert route(session, active_policy(session)).orphaned == []
    with transaction(engine) as session:  # the conflict is back
        for edge in session.scalars(select(EdgeRow).where(EdgeRow.claim_key == LIMIT)):
            edge.retired_at = None
    with transaction(engine) as session:
        report = route(session, active_policy(session))
    assert report.reopened == {item.id: "the conflict is back"}
    assert item_for_key(engine, LIMIT).state is ReviewState.OPEN


def test_rules_never_decide_an_item_a_reviewer_reopened(engine: Engine) -> None:
    routed_ledger(engine)
    item = item_for_key(engine, HEADCOUNT)  # resolved by rule
    with transaction(engine) as session:
        queue.reopen_by_reviewer(
            session, item.id, reviewers().get("alice"), reason="the blog is right, check it"
        )
    assert _route(engine) == {}
    assert item_for_key(engine, HEADCOUNT).state is ReviewState.OPEN


def test_routing_limited_to_claim_keys_leaves_other_keys_alone(engine: Engine) -> None:
    ReviewLedger(engine).load()
    policy = load_policy(FIXTURES / "policy.yaml")
    with transaction(engine) as session:
        apply_policy(session, policy, actor="test")
        report = route(session, policy, claim_keys={DIVIDEND})
    assert report.conflict_sets == 1
    with transaction(engine) as session:
        keys = set(session.scalars(select(ReviewItemRow.claim_key)))
    assert keys == {DIVIDEND}  # the limit and headcount conflicts wait for their turn
    with transaction(engine) as session:
        report = route(session, policy, claim_keys={LIMIT, HEADCOUNT, "no|such_key"})
    assert report.conflict_sets == 2
    with transaction(engine) as session:
        keys = set(session.scalars(select(ReviewItemRow.claim_key)))
    assert keys == {DIVIDEND, LIMIT, HEADCOUNT}
    assert _route(engine) == {}  # a full pass afterwards has nothing left to do


def test_a_resolution_wins_over_ambiguity_from_a_similar_key(engine: Engine) -> None:
    # The two output limits were decided; then a note on a similar key ("reply drafter
    # output limit") makes an ambiguous near-miss edge to one of them. That claim's own
    # conflict stays resolved; the ambiguous partner is still listed.
    from note_store import store_notes

    from claims.models import Requester
    from claims.store import GenerationRepository
    from retrieval.status import status_of_claim, status_of_key

    policy = load_policy(FIXTURES / "policy.yaml")
    notes = [
        ("desk/a", "Desk notes\n\nThe output limit is 300 tokens.\n", []),
        ("desk/b", "Desk memo\n\nThe output limit is 500 tokens.\n", []),
    ]
    generation = store_notes(engine, notes)
    with transaction(engine) as session:
        GenerationRepository(session).promote(generation, {})
        apply_policy(session, policy, actor="admin")
        route(session, policy)
    item = item_for_key(engine, "output limit")
    with transaction(engine) as session:
        winner = sorted(ReviewItemRepository(session).current_claim_ids(item.id))[0]
        queue.resolve(
            session, item.id, reviewers().get("alice"), winners=[winner], rationale="memo is old"
        )
    store_notes(
        engine, [("desk/c", "Drafter notes\n\nThe reply drafter output limit is 900 tokens.\n", [])]
    )
    with transaction(engine) as session:
        route(session, policy)
        near = session.scalars(
            select(EdgeRow).where(EdgeRow.kind == "ambiguous", EdgeRow.retired_at.is_(None))
        ).all()
    assert near and all(e.claim_key.startswith("~") for e in near)
    everyone = Requester(principal="ana", groups=[])
    assert status_of_key(engine, "output limit", everyone).status is ConflictStatus.RESOLVED
    touched = {e.left_claim_id for e in near} | {e.right_claim_id for e in near}
    with transaction(engine) as session:
        mine = set(ReviewItemRepository(session).current_claim_ids(item.id))
    assert touched & mine
    for claim_id in touched & mine:
        assert status_of_claim(engine, claim_id, everyone).status is ConflictStatus.RESOLVED
    (other,) = touched - mine  # the similar key's claim itself stays ambiguous
    assert status_of_claim(engine, other, everyone).status is ConflictStatus.AMBIGUOUS


def test_one_source_opens_a_bounded_number_of_items_per_pass(engine: Engine) -> None:
    # A pasted export disagrees with the notices of twelve halls: twelve conflict sets,
    # each with a claim of the export. At most five new items per source and pass; the rest
    # are held back, named by source, and opened by the next passes.
    from note_store import store_notes

    from claims.store import GenerationRepository

    policy = load_policy(FIXTURES / "policy.yaml")
    halls = [
        "Alder",
        "Birch",
        "Cedar",
        "Dogwood",
        "Elm",
        "Fir",
        "Gorse",
        "Hazel",
        "Ivy",
        "Juniper",
        "Larch",
        "Maple",
    ]
    export = "\n".join(f"The {n} hall deposit is {100 + i} EUR." for i, n in enumerate(halls))
    notices = [
        (f"market/hall-{i}", f"Hall notice\n\nThe {n} hall deposit is {300 + i} EUR.\n", [])
        for i, n in enumerate(halls)
    ]
    generation = store_notes(
        engine, [("market/export", "Export\n\n" + export + "\n", [])] + notices
    )
    with transaction(engine) as session:
        GenerationRepository(session).promote(generation, {})
        apply_policy(session, policy, actor="admin")
    opened = []
    for _ in range(4):
        with transaction(engine) as session:
            report = route(session, policy, max_items_per_source=5)
        opened.append(len(report.opened))
        if len(report.opened) == 5:
            assert report.held_back.get("market/export") == 12 - sum(opened)
            assert len(report.held_back_keys) == 12 - sum(opened)
    assert opened == [5, 5, 2, 0]
    with transaction(engine) as session:
        assert session.scalar(select(func.count()).select_from(ReviewItemRow)) == 12
