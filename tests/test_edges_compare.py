"""The pairwise edge rules on hand-built claims (tests/fixtures/edges/pairs.yaml)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from edge_fixtures import claim_from_spec, load_yaml, pair_from_spec

from claims.edges import compare
from claims.models import Relation

PAIRS: list[dict[str, Any]] = load_yaml("pairs.yaml")


@pytest.mark.parametrize("case", PAIRS, ids=[c["id"] for c in PAIRS])
def test_pair_gets_the_expected_relation_and_rule(case: dict[str, Any]) -> None:
    left, right = pair_from_spec(case)
    verdict = compare(left, right)
    assert (verdict.relation.value, verdict.rule) == (case["expect"], case["rule"]), verdict.reason
    assert verdict.reason


@pytest.mark.parametrize("case", PAIRS, ids=[c["id"] for c in PAIRS])
def test_both_argument_orders_give_the_same_verdict(case: dict[str, Any]) -> None:
    left, right = pair_from_spec(case)
    assert compare(left, right) == compare(right, left)


def test_fixture_covers_every_domain_relation_and_reason() -> None:
    domains = Counter(c["domain"] for c in PAIRS)
    assert set(domains) == {"finance", "legal", "medical", "sla", "hr"}
    assert all(n >= 8 for n in domains.values())
    assert len(PAIRS) >= 60
    relations = {c["expect"] for c in PAIRS}
    assert relations == {r.value for r in Relation}
    compatible_rules = {c["rule"] for c in PAIRS if c["expect"] == "compatible"}
    # each "not a conflict, and say why" reason of the issue
    assert {"scope", "time", "elaboration", "reported_speech"} <= compatible_rules
    corroboration_rules = {c["rule"] for c in PAIRS if c["expect"] == "corroboration"}
    assert {"conversion", "clone", "value"} <= corroboration_rules
    conflict_rules = {c["rule"] for c in PAIRS if c["expect"] == "conflict"}
    assert {"value", "range", "bound", "polarity", "categorical"} <= conflict_rules
    ambiguous_rules = {c["rule"] for c in PAIRS if c["expect"] == "ambiguous"}
    assert {"unit", "scope", "time"} <= ambiguous_rules


def test_equal_claims_from_one_source_are_not_unrelated() -> None:
    spec = {"key": "notice period|length", "value": 30, "unit": "day"}
    a = claim_from_spec(spec | {"quote": "a"}, default_source="s")
    b = claim_from_spec(spec | {"quote": "b"}, default_source="s")
    assert compare(a, b).relation is Relation.CORROBORATION


def test_reason_names_both_values_of_a_conflict() -> None:
    case = next(c for c in PAIRS if c["id"] == "finance-restated-dividend")
    verdict = compare(*pair_from_spec(case))
    assert "12 cent" in verdict.reason and "30 cent" in verdict.reason
