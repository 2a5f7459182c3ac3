"""A phrase fronted before a comma and a subject pronoun (issue 13, session 14): "Alongside
Oak Mill, it is one of only two mills ..." and "Listed in the Domesday Book, it had 40
households" state the pronoun's figures, i.e. the page subject's, not the fronted phrase's
("alongside", "list"). A page whose first sentence is such a fragment ("The County Records
Office in 2011, it had ...": a page cut from the middle of its article) names no subject
there. An aside after the name ("Bina Tal, popularly known as Didi, was ...") is no such
fragment."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, ValueKind


def _figures(text: str) -> list[tuple[str | None, str, float]]:
    claims: list[Claim] = extract(text, source_id="doc01")
    return [
        (c.entity, c.attribute, float(c.value))  # type: ignore[arg-type]
        for c in claims
        if c.kind is ValueKind.QUANTITY
    ]


def test_a_fronted_place_before_it_leaves_the_page_subject_the_figure() -> None:
    text = (
        "Harlow Mill is a watermill in Kent. Alongside Oak Mill, it is one of only two "
        "mills in the county able to grind 40 tons of grain a day."
    )
    assert {entity for entity, _, _ in _figures(text)} == {"harlow mill"}


def test_a_fronted_participle_before_it_names_no_attribute() -> None:
    text = (
        "Kettleby is a market town in Leicestershire. Listed in the Domesday Book, it had "
        "40 households."
    )
    assert ("kettleby", "household", 40.0) in _figures(text)


def test_a_first_sentence_fronted_before_it_names_no_subject() -> None:
    # a page cut from the middle of its article: the words before ", it" are no title
    text = (
        "The Parish Ledger in 2011, it had an estimated total population of 4,800 "
        "of whom 2,300 were men and 2,500 women. The town lies on the border."
    )
    figures = _figures(text)
    assert (None, "population", 4800.0) in figures
    assert all(entity is None for entity, _, _ in figures)


def test_an_aside_after_the_name_still_opens_the_page() -> None:
    # near miss: ", popularly known as Didi," is an aside, not a fronted phrase
    claims = extract(
        "Bina Tal, popularly known as Didi, was an Indian tabla player. He recorded 12 albums.",
        source_id="doc01",
    )
    assert ("bina tal", "occupation") in {(c.entity, c.attribute) for c in claims}
