"""A review item explains itself (issue 16): why it is here in words, the policy it was
judged under, what each side is (tier, access, time, value in the document's own units),
and, once decided, who or which rule decided and which source won."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
from sqlalchemy import Engine
from typer.testing import CliRunner

from claimledger.cli import app
from claims.errors import InputError
from claims.models import Bound, Claim, Modality, Polarity, Span, ValueKind
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.tables import SourceGrantRow
from review import queue
from review.evidence import item_view
from review.items import ReviewItemRepository
from review.policy import active_policy
from review.routing import route
from review.shown_values import converted_text, names_currency, value_text
from tests.store_template import upgrade  # a copy of a store migrated once

runner = CliRunner()


def _view(engine: Engine, key: str):  # type: ignore[no-untyped-def]
    with transaction(engine) as session:
        return item_view(session, item_for_key(engine, key).id)


def test_high_risk_item_names_the_pattern_the_policy_and_each_sides_rule(engine: Engine) -> None:
    routed_ledger(engine)
    view = _view(engine, DIVIDEND)
    explanation = view.explanation
    assert explanation.reasons[0] == (
        "matches high-risk pattern `acme|dividend*` of policy acme-authority: "
        "a person decides, never a rule"
    )
    assert explanation.policy is not None
    assert explanation.policy.policy_id == "acme-authority"
    assert explanation.policy.declared_version == "1"
    assert explanation.policy.stamp == f"1+{explanation.policy.content_hash}"
    assert explanation.conflict == ["values differ under the same scope and time"]
    notes = {s.source_id: s.policy_note for s in view.sides}
    assert notes["restatement-2025"] == (
        "tier 'regulator' (1st of 4 in the policy); high-risk, so no rule decides this side"
    )


def test_tied_tiers_are_named_and_access_groups_shown(engine: Engine) -> None:
    ledger = routed_ledger(engine)
    with transaction(engine) as session:
        session.add(SourceGrantRow(source_id="assistant-note-b", group_name="finance"))
    view = _view(engine, LIMIT)
    reasons = " | ".join(view.explanation.reasons)
    assert "the conflict is material (the edge builder marked it so)" in reasons
    assert "tiers tie: management vs management, no rule decides" in reasons
    access = {s.source_id: s.access_text for s in view.sides}
    assert access == {"assistant-note-a": "public", "assistant-note-b": "visible to finance only"}
    assert ledger.versions["assistant-note-a"] in {s.version_id for s in view.sides}


def test_rule_decision_is_reported_as_the_rule_of_the_policy_with_its_winner(
    engine: Engine,
) -> None:
    routed_ledger(engine)
    view = _view(engine, HEADCOUNT)
    stamp = view.resolution.policy_version if view.resolution else ""
    assert (
        view.explanation.decision == f"decided by rule higher-tier of policy acme-authority {stamp}"
    )
    assert "resolved by review" not in json.dumps(view.as_dict(), default=str)
    assert [w.source_name for w in view.winners] == ["Annual report 2025"]
    assert view.winners[0].quote == "The group employed 12,000 people at year end."
    assert "tier 'board' outranks 'draft'" in " ".join(view.explanation.reasons)
    notes = {s.source_id: s.policy_note for s in view.sides}
    assert notes["careers-blog"].endswith("rule higher-tier would make this side lose")


def test_a_decision_releases_the_lock_and_names_the_winner(engine: Engine) -> None:
    routed_ledger(engine)
    alice = reviewers().get("alice")
    item = item_for_key(engine, LIMIT)
    with transaction(engine) as session:
        queue.claim(session, item.id, alice)
    assert _view(engine, LIMIT).lock_holder == "alice"
    with transaction(engine) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-a"], rationale="A is approved")
    view = _view(engine, LIMIT)
    assert view.item.assignee is None and view.item.lock_expires_at is None
    assert view.lock_holder is None
    assert view.explanation.decision is not None
    assert view.explanation.decision.startswith("resolved by reviewer alice under policy ")
    assert [w.source_name for w in view.winners] == ["Assistant limits note A"]


def test_cents_never_gain_a_currency_the_document_does_not_name(engine: Engine) -> None:
    ledger = ReviewLedger(engine)
    ledger.add_source("interim", "Interim report. The dividend was 12 cents per share.", tier="a")
    ledger.add_source("restated", "Restated. The dividend was USD 0.30 per share.", tier="a")
    ledger.add_claim(
        id="c-cents",
        source="interim",
        key="dividend",
        quote="The dividend was 12 cents per share.",
        value=12,
        unit="cents per share",
        canonical_value=0.12,
        canonical_unit="USD/share",
    )
    ledger.add_claim(
        id="c-usd",
        source="restated",
        key="dividend",
        quote="The dividend was USD 0.30 per share.",
        value=0.30,
        unit="USD per share",
        canonical_unit="USD/share",
    )
    ledger.add_conflict(left="c-cents", right="c-usd")
    routed_ledger(engine)  # applies the fixture policy and routes
    sides = {s.claim.id: s for s in _view(engine, "dividend").sides}
    assert sides["c-cents"].value_text == "12 cents per share"
    assert sides["c-cents"].converted_text is None  # "cents": of which currency, unsaid
    assert sides["c-usd"].converted_text == "30 cents per share"  # its document names USD


def _quantity(value: float, unit: str) -> Claim:
    return Claim(
        id=f"c-{value}-{unit}",
        generation="g",
        claim_key="checkout timeout",
        attribute="timeout",
        kind=ValueKind.QUANTITY,
        value=value,
        unit=unit,
        dimension="time",
        bound=Bound.AT_MOST,
        span=Span(start=0, end=1),
        quote="x",
        confidence=0.9,
    )


def test_a_conversion_uses_a_unit_another_side_writes() -> None:
    millis, seconds = _quantity(500, "ms"), _quantity(2, "s")
    assert converted_text(millis, "a timeout", ["ms", "s"]) == "at most 0.5 s"
    assert converted_text(seconds, "a timeout", ["ms", "s"]) == "at most 2,000 ms"
    assert converted_text(millis, "a timeout", ["ms", "ms"]) is None  # same unit: nothing to add
    assert names_currency("paid in U.S. dollars", "USD") and names_currency("$12", "USD")
    assert not names_currency("12 cents per share", "USD")


@pytest.mark.parametrize(
    ("modality", "polarity", "expected"),
    [
        (Modality.OBLIGATION, Polarity.POSITIVE, "required: enter lab"),
        (Modality.OBLIGATION, Polarity.NEGATIVE, "not required: enter lab"),
        (Modality.PROHIBITION, Polarity.POSITIVE, "prohibited: enter lab"),
    ],
)
def test_polarity_sides_name_their_stance(
    modality: Modality, polarity: Polarity, expected: str
) -> None:
    claim = Claim(
        id="c-lab",
        generation="g",
        claim_key="visitor enter lab",
        attribute="enter lab",
        kind=ValueKind.POLARITY,
        value="enter lab",
        polarity=polarity,
        modality=modality,
        span=Span(start=0, end=1),
        quote="x",
        confidence=0.9,
    )
    assert value_text(claim) == expected


@pytest.fixture
def cli_store(cli_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(FIXTURES / "reviewers.yaml"))
    monkeypatch.setenv("CLAIMS_REVIEWER", "alice")
    get_settings.cache_clear()
    url = get_settings().resolved_database_url
    upgrade(url)
    engine = make_engine(url)
    routed_ledger(engine)
    engine.dispose()
    return cli_env


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_review_show_prints_reasons_claim_ids_and_history_prints_rationales(
    cli_store: Path,
) -> None:
    items = {i["claim_key"]: i for i in json.loads(_run("review", "list", "--json"))}
    item_id = items[LIMIT]["id"]
    shown = _run("review", "show", item_id)
    assert "why here: the conflict is material (the edge builder marked it so)" in shown
    assert "tiers tie: management vs management, no rule decides" in shown
    assert "policy acme-authority version 1 (hash " in shown
    assert "  claim c-limit-a, " in shown and "  claim c-limit-b, " in shown
    assert "tier management, public" in shown
    _run("review", "claim", item_id)
    assert "claimed by alice until " in _run("review", "show", item_id)
    _run(
        "review",
        "resolve",
        item_id,
        "--winner",
        "c-limit-a",
        "--rationale",
        "A is approved.",
        "--confidence",
        "0.8",
    )
    shown = _run("review", "show", item_id)
    assert "claimed by" not in shown
    assert "resolved by reviewer alice under policy acme-authority 1+" in shown
    assert 'winner: Assistant limits note A (c-limit-a): "The interactive assistant has' in shown
    assert "resolution confidence: 0.80, set by alice" in shown
    assert "  claim c-limit-a, extraction confidence 0.90" in shown
    history = _run("review", "history", item_id)
    assert "(A is approved.)" in history
    as_json = json.loads(_run("review", "show", item_id, "--json"))
    assert as_json["explanation"]["decision"].startswith("resolved by reviewer alice")
    assert {s["claim_id"] for s in as_json["sides"]} == {"c-limit-a", "c-limit-b"}


def test_an_item_a_reviewer_reopened_says_the_rule_no_longer_decides_it(engine: Engine) -> None:
    routed_ledger(engine)
    with transaction(engine) as session:
        (row,) = [r for r in ReviewItemRepository(session).all_rows() if r.claim_key == HEADCOUNT]
        item_id = row.id
        queue.reopen_by_reviewer(session, item_id, reviewers().get("bob"), reason="blog is newer")
    with transaction(engine) as session:
        route(session, active_policy(session))  # a reviewer acted: routing leaves it open
        view = item_view(session, item_id)
    assert view.item.state.value == "open"
    assert view.explanation.reasons[-1] == (
        "rule higher-tier would decide it, but a reviewer has acted on it, "
        "so rules no longer decide it"
    )
    notes = {s.source_id: s.policy_note for s in view.sides}
    assert notes["annual-report-2025"].endswith("rule higher-tier would make this side win")


def test_the_item_names_each_sides_value_in_its_own_words(engine: Engine) -> None:
    routed_ledger(engine)
    view = _view(engine, LIMIT)
    assert view.explanation.values == ["250 tokens", "500 tokens"]


def test_three_confidences_are_kept_apart_and_the_resolution_carries_its_own(
    engine: Engine,
) -> None:
    routed_ledger(engine)
    rule_view = _view(engine, HEADCOUNT)
    assert rule_view.resolution is not None and rule_view.resolution.confidence == 1.0
    assert (
        rule_view.resolution_confidence_text == "1.00, set by the rule (it follows from the policy)"
    )
    alice = reviewers().get("alice")
    item = item_for_key(engine, LIMIT)
    too_sure = pytest.raises(InputError, match="confidence: 1.5 is not between 0 and 1")
    with too_sure, transaction(engine) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-a"], rationale="A", confidence=1.5)
    with transaction(engine) as session:
        queue.resolve(session, item.id, alice, winners=["c-limit-a"], rationale="A", confidence=0.7)
    view = _view(engine, LIMIT)
    assert view.resolution is not None and view.resolution.confidence == 0.7
    assert view.resolution_confidence_text == "0.70, set by alice"
    side = view.sides[0]
    assert (side.claim.confidence, side.authority_tier) == (0.9, "management")  # unchanged
