"""Claims of different keys are compared by attribute similarity, not by string equality."""

from __future__ import annotations

import dataclasses

import pytest

from claims.check import check_texts
from claims.edges import build_edges
from claims.edges.compare import compare_facts
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.edges.similarity import (
    DIFFERENT,
    SAME,
    SIMILAR,
    match_attributes,
    similar_key_pairs,
    word_weight,
)
from claims.extraction import extract
from claims.models import EdgeKind, Relation


def _facts(text: str, source: str, **changes: str) -> ClaimFacts:
    claims = extract(text, source_id=source, source_version_id=f"{source}-v1")
    assert claims, text
    facts = facts_from_claim(claims[0])
    return dataclasses.replace(facts, **changes) if changes else facts


def test_rare_words_weigh_more_than_common_ones() -> None:
    assert word_weight("probation") > word_weight("period")
    assert word_weight("dividend") > word_weight("board")
    # a word no frequency list knows (a product name, a code) weighs the most
    assert word_weight("zentrovax") >= word_weight("dividend")


def test_score_is_symmetric_and_names_the_shared_words() -> None:
    left = match_attributes("output limit", "limit")
    right = match_attributes("limit", "output limit")
    assert left == right
    assert left.matched == ("limit",)
    assert 0 < left.score < 1
    assert "limit" in left.describe() and f"{left.score:.2f}" in left.describe()


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("notice period", "notice period", SAME),
        ("refund window", "refund windows", SAME),  # an inflection is the same word
        ("battery life", "battery", SIMILAR),
        ("output limit", "limit", SIMILAR),
        # sharing only a generic head is not the same attribute
        ("notice period", "probation period", DIFFERENT),
        ("storage limit", "rate of pay", DIFFERENT),
    ],
)
def test_bands(a: str, b: str, expected: str) -> None:
    assert match_attributes(a, b).band == expected


def test_only_a_shared_generic_word_is_unrelated() -> None:
    verdict = check_texts(
        "The notice period for contractors is 30 days.",
        "The probation period for contractors is 6 months.",
    )
    assert verdict.relation is Relation.UNRELATED


def test_similar_attributes_that_disagree_are_ambiguous_with_score_in_reason() -> None:
    a = _facts("The upload limit is 250 MB.", "wiki")
    b = _facts("The limit is 500 MB.", "faq")
    assert a.claim_key != b.claim_key
    verdict = compare_facts(a, b)
    assert verdict.relation is Relation.AMBIGUOUS
    assert "similar attributes" in verdict.reason
    assert "attribute similarity" in verdict.reason and "limit" in verdict.reason


def test_different_entities_never_conflict() -> None:
    a = _facts("The battery lasts 11 hours.", "spec-a", entity="p-9 router")
    b = _facts("The battery lasts 7 hours.", "spec-b", entity="p-7 router")
    verdict = compare_facts(a, b)
    assert verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS)
    assert "different entities" in verdict.reason
    # the same entity on both sides: the values disagree
    c = dataclasses.replace(b, entity="p-9 router")
    assert compare_facts(a, c).relation is Relation.CONFLICT


def test_same_attribute_under_two_keys_compares_values() -> None:
    a = _facts("The refund window is 30 days.", "terms")
    b = dataclasses.replace(
        _facts("The refund windows are 14 days.", "faq"), claim_key="refund windows"
    )
    verdict = compare_facts(a, b)
    assert verdict.relation is Relation.CONFLICT
    assert "worded differently" in verdict.reason


def test_entity_on_one_side_only_is_ambiguous_not_conflict() -> None:
    a = _facts("The dividend for the period was 12 cents per share.", "filing")
    b = dataclasses.replace(
        _facts("The dividend for the period was 30 cents per share.", "restated"),
        entity="moallu",
        claim_key="moallu dividend",
    )
    verdict = compare_facts(a, b)
    assert verdict.relation is Relation.AMBIGUOUS
    assert "entity stated on one side only" in verdict.reason


def test_key_pairs_come_from_shared_words_and_skip_other_entities() -> None:
    keys = {
        "upload limit": ("", "upload limit"),
        "limit": ("", "limit"),
        "rate of pay": ("", "rate of pay"),
        "acme upload limit": ("acme", "upload limit"),
        "globex upload limit": ("globex", "upload limit"),
    }
    pairs = {(x, y): m.band for x, y, m in similar_key_pairs(keys)}
    assert ("limit", "upload limit") in pairs
    assert pairs[("acme upload limit", "upload limit")] == SAME
    # two named entities are never paired, and keys sharing no word are never scored
    assert ("acme upload limit", "globex upload limit") not in pairs
    assert not any("rate of pay" in pair for pair in pairs)


def test_builder_links_similar_attributes_across_keys() -> None:
    claims = [
        _facts("The upload limit is 250 MB.", "wiki"),
        _facts("The limit is 500 MB.", "faq"),
        _facts("The notice period is 30 days.", "handbook"),
    ]
    build = build_edges(claims, generation="gen-test")
    ambiguous = [e for e in build.as_edges() if e.kind is EdgeKind.AMBIGUOUS]
    assert len(ambiguous) == 1
    assert "similar attributes" in ambiguous[0].reason
    assert {ambiguous[0].left_claim_id, ambiguous[0].right_claim_id} == {
        claims[0].id,
        claims[1].id,
    }
