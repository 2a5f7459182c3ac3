"""A career step in a biography's prose (issue 13, session 13): "..., then became a
professional basketball player" gives the page subject's occupation; a post or a tie
("became a member of ...") and another person's step ("who then became a teacher") give
none."""

from __future__ import annotations

from functools import partial

from claims.extraction import extract as extract_any

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")

OPENING = "Ruth Anders is a German chemist. "


def _occupations(text: str) -> list[tuple[str | None, str]]:
    return [
        (c.entity, str(c.value))
        for c in extract(text, source_id="doc02")
        if c.attribute == "occupation"
    ]


def test_a_career_step_after_a_comma_is_the_subjects_occupation() -> None:
    text = OPENING + "She studied in Bonn during 1950-1954, then became a marine engineer in Kiel."
    assert ("ruth ander", "marine engineer") in _occupations(text)
    text = OPENING + "She taught in Bonn and later became a professional tennis player."
    assert ("ruth ander", "professional tennis player") in _occupations(text)
    assert _occupations("Paul Cole became a football coach.") == [("paul cole", "football coach")]


def test_a_tie_or_another_persons_step_is_no_occupation() -> None:
    assert _occupations(OPENING + "She became a member of the Royal Society.") == [
        ("ruth ander", "chemist")
    ]
    text = OPENING + "She met Hans Roth, who then became a teacher."
    assert _occupations(text) == [("ruth ander", "chemist")]
