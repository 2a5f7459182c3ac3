"""Records and superlatives as claims (claims/extraction/records.py, session 11): the record
is the slot, its holder the value. Two versions of a sentence naming two holders of one
record are one slot (a conflict); one holder restated corroborates; a record never meets a
claim of another kind by its words. Every sentence is our own.
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.edges.builder import build_edges
from claims.edges.facts import facts_from_claim
from claims.extraction import extract
from claims.models import Claim, Relation, ValueKind


def _records(text: str) -> list[Claim]:
    return [c for c in extract(text) if c.predicate == "record holder"]


@pytest.mark.parametrize(
    ("text", "attribute", "holder"),
    [
        (
            "In the north the largest credit union is Moorside Mutual, founded in 1962.",
            "largest credit union",
            "Moorside Mutual",
        ),
        (
            "The most recent cup final was between Ashby Town and Kelso Rovers in 2021.",
            "most recent cup final",
            "Ashby Town and Kelso Rovers",
        ),
        (
            "Tarrow is the capital and largest town of the Vale district.",
            "largest town of vale district",
            "Tarrow",
        ),
        (
            "Northfield Hospital has become the region's busiest trauma centre.",
            "region busiest trauma centre",
            "Northfield Hospital",
        ),
        (
            "Greywater Studios is now Halden's second biggest employer.",
            "halden second biggest employer",
            "Greywater Studios",
        ),
        (
            "Marta Lind scored more goals than any other player in the 2019 season.",
            "most goals of any player",
            "Marta Lind",
        ),
        (
            "Van Der Berg kept more clean sheets than any other goalkeeper that year.",
            "most clean sheets of any goalkeeper",
            "Van Der Berg",
        ),
    ],
)
def test_a_record_is_a_claim_of_its_holder(text: str, attribute: str, holder: str) -> None:
    (record,) = _records(text)
    assert record.kind is ValueKind.CATEGORICAL
    assert (record.attribute, record.value) == (attribute, holder)
    assert record.value_span is not None
    assert text[record.value_span.start : record.value_span.end] == holder


@pytest.mark.parametrize(
    "text",
    [
        "It is the largest town in the valley.",  # a pronoun holds nothing by name
        "The first case was confirmed on 27 January.",  # an event, no holder
        "BBX is the largest and covers 14 countries.",  # a record of no named kind
        "The interest rate rose to 4% in the west of the county.",  # -est words, no record
        "On 8 March the council confirmed its first two grants.",
    ],
)
def test_no_record_without_a_named_holder_and_a_named_record(text: str) -> None:
    assert _records(text) == []


def test_two_holders_of_one_record_conflict() -> None:
    result = check_texts(
        "The most recent cup final was between Ashby Town and Kelso Rovers in 2021.",
        "The most recent cup final was between Dunmore United and Ashby Town in 2022.",
    )
    assert result.relation is Relation.CONFLICT


def test_a_record_holder_replaced_in_place_is_a_conflict() -> None:
    result = check_texts(
        "Marta Lind scored more goals than any other player in the 2019 season.",
        "Ines Varga scored more goals than any other player in the 2019 season.",
    )
    assert result.relation is Relation.CONFLICT


def test_one_holder_restated_is_no_conflict() -> None:
    result = check_texts(
        "Tarrow is the capital and largest town of the Vale district.",
        "Tarrow, a market town, is the largest town of the Vale district.",
    )
    assert result.relation is not Relation.CONFLICT


def test_a_record_and_a_figure_of_similar_words_are_two_slots() -> None:
    # the record's words ("most visited museum") meet the count's ("visitors") by
    # similarity alone; a record is compared with records only
    result = check_texts(
        "The Harbour Museum is the most visited museum in the county.",
        "The Harbour Museum had 2 million visitors in 2023.",
    )
    with_record = [
        p
        for p in result.pairs
        if "record holder" in (p.left.predicate, p.right.predicate)
        and p.left.predicate != p.right.predicate
    ]
    assert with_record == [] or all(p.relation is Relation.UNRELATED for p in with_record)
    assert result.relation is not Relation.CONFLICT


def _conflicts(claims: list[Claim]) -> list[object]:
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    return [edge for edge in build.edges if str(edge.kind) == "conflicts"]


def test_a_record_of_two_pages_subjects_is_two_scopes() -> None:
    # "its largest employer" is the page subject's: two towns' employers never conflict
    lakeview = extract(
        "Lakeview is a market town in the Ostria valley. Its largest employer is Harbin Mills.",
        source_id="lakeview",
        source_version_id="lakeview-v1",
    )
    brampton = extract(
        "Brampton is a market town in the Ostria valley. Its largest employer is Corvel Foods.",
        source_id="brampton",
        source_version_id="brampton-v1",
    )
    records = [c for c in lakeview + brampton if c.predicate == "record holder"]
    assert {c.entity for c in records} == {"lakeview", "brampton"}
    assert _conflicts(lakeview + brampton) == []


def test_a_record_of_one_subject_in_two_editions_conflicts() -> None:
    first = extract(
        "Lakeview is a market town in the Ostria valley. Its largest employer is Harbin Mills.",
        source_id="guide",
        source_version_id="guide-2023",
    )
    second = extract(
        "Lakeview is a market town in the Ostria valley. Its largest employer is Corvel Foods.",
        source_id="town-report",
        source_version_id="town-report-2024",
    )
    assert len(_conflicts(first + second)) == 1
