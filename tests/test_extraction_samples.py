"""The bundled sample corpus (samples/corpus) extracts into the claims its cases need:
shared keys where sources talk about the same thing, scopes where they do not."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims.extraction import extract, find_supersession_mentions
from claims.models import Claim, ValueKind

CORPUS = Path(__file__).parent.parent / "samples" / "corpus"


def quantities(name: str) -> list[Claim]:
    text = (CORPUS / name).read_text(encoding="utf-8")
    claims = [c for c in extract(text) if c.kind == ValueKind.QUANTITY]
    for claim in claims:
        assert text[claim.span.start : claim.span.end] == claim.quote
    return claims


def one(name: str) -> Claim:
    (claim,) = quantities(name)
    return claim


@pytest.mark.parametrize(
    ("left", "right", "same_scope"),
    [
        ("finance/filing-q1.txt", "finance/filing-q1-restated.txt", True),
        ("finance/dividend-q1.txt", "finance/dividend-q2.txt", False),
        ("assistant/output-limit-note-a.txt", "assistant/output-limit-note-b.txt", True),
        ("assistant/drafter-limit-r1.txt", "assistant/drafter-limit-r2.txt", True),
        ("assistant/search-interactive.txt", "assistant/search-batch.txt", False),
        ("hr/ja/notice-period-handbook.txt", "hr/ja/notice-period-intranet.txt", True),
    ],
)
def test_sample_pairs_share_a_key_and_differ_only_where_the_case_says(
    left: str, right: str, same_scope: bool
) -> None:
    a, b = one(left), one(right)
    assert a.claim_key == b.claim_key
    assert a.canonical_unit == b.canonical_unit
    assert a.canonical_value != b.canonical_value
    assert (a.scope == b.scope) is same_scope


def test_first_year_terms_add_a_period_scope_to_the_notice_period() -> None:
    plain = one("hr/notice-period.md")
    scoped = one("hr/first-year-terms.md")
    assert plain.claim_key == scoped.claim_key == "notice period"
    assert plain.scope == {} and scoped.scope == {"period": "year 1"}


def test_travel_policies_state_the_same_keys_with_new_values() -> None:
    old = {
        c.claim_key: c.canonical_value for c in quantities("policies/travel_policy_2019_FINAL.md")
    }
    new = {c.claim_key: c.canonical_value for c in quantities("policies/travel-2026.md")}
    guide = {c.claim_key: c.canonical_value for c in quantities("policies/travel-team-guide.md")}
    shared = set(old) & set(new)
    assert len(shared) >= 2 and all(old[k] != new[k] for k in shared)
    assert set(guide) <= set(old) and all(guide[k] != old[k] for k in guide)


def test_the_team_guide_claims_to_replace_the_2019_policy() -> None:
    text = (CORPUS / "policies/travel-team-guide.md").read_text(encoding="utf-8")
    (mention,) = find_supersession_mentions(text)
    assert "2019 travel policy" in mention.target_text


def test_service_claims_split_percentiles_and_corroborate_timeouts() -> None:
    slo = quantities("service/checkout-slo.md")
    latency = [c for c in slo if c.claim_key.endswith("latency")]
    assert {c.scope["metric"] for c in latency} == {"median", "p99"}
    timeouts = [
        c for c in slo + quantities("service/checkout-runbook.md") if "timeout" in c.claim_key
    ]
    assert len(timeouts) == 2
    assert {c.claim_key for c in timeouts} == {timeouts[0].claim_key}
    assert {c.canonical_value for c in timeouts} == {0.5}


def test_dosing_claims_differ_by_population() -> None:
    adult, child = quantities("medical/examplamine-dosing.md")
    assert adult.claim_key == child.claim_key
    assert adult.scope["population"] == "adult" and child.scope["population"] == "child"
