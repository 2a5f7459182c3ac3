"""How a question's name fits the name a claim states (retrieval.candidates.entity_fit):
the ways reference questions name people and places that articles name in full."""

from __future__ import annotations

import pytest

from claims.models import EntityRef
from retrieval.candidates import entity_fit


@pytest.mark.parametrize(
    ("asked", "stated"),
    [
        ("general hartigan", "brendan p hartigan"),  # a title and the surname
        ("justice dunn", "charles j dunn"),
        ("horace rumbold", "sir horace rumbold, 8th baronet"),  # the title's own title aside
        ("john williams", "john hartley williams"),  # first and last name
        ("c mayer", "christa mayer"),  # an initial for the first name
        ("admiral morgan", "henry sturgis morgan jr"),  # the suffix of a son's name aside
        ("blue lake township, michigan", "blue lake township, kalkaska county, michigan"),
        ("maryborough", EntityRef(name="city maryborough", qualifier="queensland")),
        ("devata", EntityRef(name="devata", qualifier="1941 film")),  # a title, its qualifier
    ],
)
def test_a_name_asked_as_people_ask_it_fits_the_articles_full_name(
    asked: str, stated: str | EntityRef
) -> None:
    assert entity_fit(asked, stated) > 0


@pytest.mark.parametrize(
    ("asked", "stated"),
    [
        ("harlow mill", "north harlow mill"),  # a longer head is another thing
        ("john smith", "mary smith"),
        ("hartigan", "brendan p hartigan junior school"),
        ("general hartigan", "brendan p hartigan junior school"),
        ("blue lake township, michigan", "blue lake township, muskegon county, ohio"),
    ],
)
def test_another_thing_with_a_shared_word_does_not_fit(asked: str, stated: str) -> None:
    assert entity_fit(asked, stated) == 0


def test_the_closer_name_fits_better() -> None:
    exact = entity_fit("devata", "devata")
    assert (
        exact
        > entity_fit("devata", EntityRef(name="devata", qualifier="1941 film"))
        > entity_fit("general hartigan", "brendan p hartigan")
    )
