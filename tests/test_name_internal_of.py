"""An "of" inside a capitalised name in a predicate (issue 13, session 14): "It was listed
on the Provincial Register of Heritage Buildings on 27 May 1983" dates the listing of the
page's subject; "Heritage Buildings" is part of the register's name, not the thing listed (it
was the entity of every such sentence, so two buildings' listings were one key). An "of"
in the subject still names the thing measured ("the population of Lakeview")."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, ValueKind


def _dates(text: str) -> list[tuple[str | None, str, str]]:
    claims: list[Claim] = extract(text, source_id="doc01")
    return [(c.entity, c.attribute, str(c.value)) for c in claims if c.kind is ValueKind.DATE]


def test_a_listing_on_a_named_register_is_the_page_subjects() -> None:
    text = (
        "Kettleby Hall is a country house in Leicestershire. It was listed on the Provincial "
        "Register of Heritage Buildings on 27 May 1983."
    )
    assert ("kettleby hall", "list", "1983-05-27") in _dates(text)


def test_a_named_subject_added_to_a_named_register_keeps_its_name() -> None:
    text = (
        "Red Brick is a former school in Lakeview. Red Brick was added "
        "to the Provincial Register of Heritage Buildings in 1998."
    )
    assert [e for e, a, _ in _dates(text) if a == "add"] == ["red brick"]


def test_an_of_name_in_the_subject_still_names_the_thing() -> None:
    # near miss: "of" after a lowercase head in the subject names what is measured
    claims = extract("The population of Lakeview was 5,000 in 2010.", source_id="doc01")
    assert "lakeview" in {c.entity for c in claims if c.kind is ValueKind.QUANTITY}
