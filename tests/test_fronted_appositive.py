"""A phrase describing the subject fronted before a pronoun (issue 13, session 13): "The
only son and heir of John Rowe, he was born on 3 July 1750" dates the pronoun's birth, i.e.
the page's subject, not a "son". A subject with no pronoun after the comma keeps its words."""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, ValueKind


def _dates(text: str, attribute: str) -> list[tuple[str | None, str]]:
    claims: list[Claim] = extract(text, source_id="doc01")
    return [
        (c.entity, str(c.value))
        for c in claims
        if c.attribute == attribute and c.kind is ValueKind.DATE
    ]


def test_a_fronted_description_before_he_leaves_the_page_subject_born() -> None:
    text = (
        "Thomas Rowe was an English banker. The only son and heir of John Rowe, "
        "he was born on 3 July 1750 in Bath."
    )
    assert _dates(text, "born") == [("thomas rowe", "1750-07-03")]


def test_a_fronted_description_before_she_dates_her_death() -> None:
    text = (
        "Agnes Moore was a Scottish poet. The youngest daughter of a Perth weaver, "
        "she died on 9 November 1841 in Glasgow."
    )
    assert _dates(text, "died") == [("agnes moore", "1841-11-09")]


def test_a_described_subject_without_a_pronoun_keeps_its_words() -> None:
    # near miss: the daughter is the one born, and she is not the page's subject
    text = (
        "Thomas Rowe was an English banker. The eldest daughter of John Rowe was born "
        "on 3 July 1750 in Bath."
    )
    assert _dates(text, "born") == [("eldest daughter", "1750-07-03")]
