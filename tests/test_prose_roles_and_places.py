"""A role's holder and a place named in an appositive (issue 13, session 12): "The house's
first owner, John Long, was ...", "Red Brick, located in Dover, Ohio, was ...". Each shape
found and a near miss kept apart (another thing's role, an appositive that does not close
on the name, a located clause that is no appositive)."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim


def _label(text: str, attribute: str) -> list[tuple[str | None, str]]:
    claims: list[Claim] = extract(text, source_id="doc03")
    return [(c.entity, str(c.value)) for c in claims if c.attribute == attribute]


OPENING = "The Harlan Mill House is a historic house in Dover, Ohio, built in the 1840s. "


def test_the_first_owner_named_in_an_appositive_is_the_page_subjects_owner() -> None:
    text = OPENING + "The house's first owner, Amos Harlan, was a miller from Zanesville."
    assert _label(text, "owner") == [("harlan mill house", "Amos Harlan")]


def test_its_architect_named_in_an_appositive_is_the_page_subjects_architect() -> None:
    text = OPENING + "Its architect, Mary Colter, also drew the barn behind it."
    assert _label(text, "architect") == [("harlan mill house", "Mary Colter")]


def test_another_things_role_and_an_unclosed_appositive_give_nothing() -> None:
    # the band is not the house
    assert not _label(OPENING + "The band's producer, Amos Harlan, was a miller.", "producer")
    # "The house's owner, a miller, ...": no name closes the appositive
    assert not _label(OPENING + "The house's owner, a miller from Ohio, sold it.", "owner")
    # no opening names the page: whose house is unknown
    alone = _label("The house's first owner, Amos Harlan, was a miller.", "owner")
    assert not [entity for entity, _ in alone if entity]


def test_a_name_located_in_an_appositive_has_that_place() -> None:
    text = (
        "The building was used for storage after 1993. Red Brick, located in Dover, Ohio, "
        "was added to the Provincial Register of Heritage Buildings in 1998."
    )
    assert ("red brick", "Dover, Ohio") in _label(text, "location")


def test_a_located_clause_that_is_no_appositive_gives_no_place_of_the_name() -> None:
    text = (
        "The building was used for storage after 1993. Residents of Red Brick located in "
        "Dover a new home for the archive."
    )
    assert ("red brick", "Dover") not in _label(text, "location")
    assert not [e for e, _ in _label(text, "location") if e == "red brick"]


# --- a party named before an office's title in news prose ("Democratic Sen. Jack Tate")


def test_a_party_before_an_office_title_is_that_persons_party() -> None:
    text = (
        "The Courier reported the vote on Tuesday. Leaders said complaints against "
        "Democratic Sen. Ray Odell did not amount to harassment, and Labour MP Jo Reed agreed."
    )
    found = _label(text, "political party")
    assert ("ray odell", "Democratic") in found
    assert ("jo reed", "Labour") in found


def test_a_lowercase_party_word_or_a_surname_alone_gives_no_party() -> None:
    assert not _label("She voted with the liberal senator Tom Hale on the bill.", "political party")
    # "Sen. Odell" alone: which Odell is not told
    assert not _label("Later that week Democratic Sen. Odell spoke again.", "political party")
