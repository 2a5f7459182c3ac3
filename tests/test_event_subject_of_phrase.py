"""A name with an of-phrase as the subject of an event date (session 14): "The University of
Northfield was founded in 1904" keyed the date "university founded", so every university's
founding year shared one key and the asked one was lost. An "of" between two capitalised
words is part of the name (claims/extraction/assembly.py ``_name_of_phrase``); a lowercase
head keeps its of-phrase a qualifier."""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation


@pytest.mark.parametrize(
    ("sentence", "entity"),
    [
        ("The University of Northfield was founded in 1904.", "university northfield"),
        ("The Town of Ashby was incorporated in 1850.", "town ashby"),
        ("The Museum of Coastal Life opened in 1982.", "museum coastal life"),
        ("The Church of St Aldric was built in 1250.", "church st aldric"),
    ],
)
def test_an_of_phrase_inside_a_name_stays_in_the_entity(sentence: str, entity: str) -> None:
    dated = [c for c in extract(sentence, source_id="doc01") if c.kind.value == "date"]
    assert [c.entity for c in dated] == [entity]


def test_two_universities_founded_in_different_years_are_no_conflict() -> None:
    result = check_texts(
        "The University of Northfield was founded in 1904.",
        "The University of Eastbrook was founded in 1911.",
    )
    assert result.relation is not Relation.CONFLICT, result.reason


def test_near_miss_a_lowercase_head_keeps_its_of_phrase_a_qualifier() -> None:
    dated = [
        c
        for c in extract("The first branch of Barclays opened in 1896.", source_id="doc01")
        if c.kind.value == "date"
    ]
    assert [c.entity for c in dated] == ["branch"]
