"""Sentence boundaries in documents as people type them (issue 12 point 5).

Handbooks, runbooks and emails use Markdown headings, bullets and numbered items, wrap
lines, and end lines with a unit abbreviation. Every text here is our own.
"""

from __future__ import annotations

import pytest

from claims.extraction import extract
from claims.extraction.pipeline import get_pipeline


def _sentences(text: str) -> list[str]:
    return [s.text.strip() for s in get_pipeline()(text).sents if s.text.strip()]


def test_unit_abbreviation_at_a_line_end_ends_the_sentence() -> None:
    text = "The backup job restarts in 2 min.\nThe next step takes 10 min.\nThen page the lead."
    assert _sentences(text) == [
        "The backup job restarts in 2 min.",
        "The next step takes 10 min.",
        "Then page the lead.",
    ]
    quotes = [c.quote.strip() for c in extract(text)]
    assert quotes == ["The backup job restarts in 2 min.", "The next step takes 10 min."]


def test_millisecond_abbreviation_is_not_a_title() -> None:
    text = "Median latency is 200 ms.\nThe p99 latency is 900 ms."
    assert _sentences(text) == ["Median latency is 200 ms.", "The p99 latency is 900 ms."]


def test_heading_is_its_own_sentence() -> None:
    text = "## Leave\nStaff get 25 days of annual leave.\n## Sick pay\nSick pay lasts 6 weeks."
    assert _sentences(text) == [
        "## Leave",
        "Staff get 25 days of annual leave.",
        "## Sick pay",
        "Sick pay lasts 6 weeks.",
    ]
    claims = extract(text)
    assert [c.quote.strip() for c in claims] == [
        "Staff get 25 days of annual leave.",
        "Sick pay lasts 6 weeks.",
    ]


def test_heading_never_glues_into_a_quote() -> None:
    text = '# What HR told us\n"Everyone gets 25 days of leave," the HR lead wrote.'
    sentences = _sentences(text)
    assert sentences[0] == "# What HR told us"
    assert sentences[1].startswith('"Everyone gets 25 days')
    (claim,) = extract(text)
    assert "#" not in claim.quote and "HR told us" not in claim.quote


@pytest.mark.parametrize("bullet", ["-", "*", "•", "+"])
def test_bullets_start_sentences(bullet: str) -> None:
    text = f"Benefits:\n{bullet} 25 days of leave\n{bullet} 10 sick days\n{bullet} 3 personal days"
    # the marker is a sentence of its own, so no claim quote starts with it
    assert _sentences(text) == [
        "Benefits:",
        bullet,
        "25 days of leave",
        bullet,
        "10 sick days",
        bullet,
        "3 personal days",
    ]
    claims = extract(text)
    assert [c.value for c in claims] == [25.0, 10.0, 3.0]
    assert [c.quote.strip() for c in claims] == [
        "25 days of leave",
        "10 sick days",
        "3 personal days",
    ]


def test_numbered_items_start_sentences_and_their_numbers_are_no_values() -> None:
    text = (
        "Before you leave:\n1. Hand in your laptop within 5 days\n2) Return the badge\n3. Sign out"
    )
    assert _sentences(text) == [
        "Before you leave:",
        "1.",
        "Hand in your laptop within 5 days",
        "2)",
        "Return the badge",
        "3.",
        "Sign out",
    ]
    assert [c.value for c in extract(text) if c.kind.value == "quantity"] == [5.0]


def test_blank_lines_separate_paragraphs_without_full_stops() -> None:
    text = "Notice period for staff 30 days\n\nNotice period for contractors 14 days"
    assert _sentences(text) == [
        "Notice period for staff 30 days",
        "Notice period for contractors 14 days",
    ]


def test_wrapped_lines_stay_one_sentence() -> None:
    text = "Contractors are paid within 45 days of the\ninvoice date, as agreed with finance."
    assert len(_sentences(text)) == 1


def test_abbreviations_before_numbers_and_names_do_not_end_sentences() -> None:
    text = "Refunds take approx. 10 days, as Fig. 3 shows. Dr. Patel signs them off."
    assert _sentences(text) == [
        "Refunds take approx. 10 days, as Fig. 3 shows.",
        "Dr. Patel signs them off.",
    ]


def test_closing_quotes_and_opening_brackets() -> None:
    text = 'She wrote "the fee is 5 dollars." (That was in May.) Nobody replied.'
    assert _sentences(text) == [
        'She wrote "the fee is 5 dollars."',
        "(That was in May.)",
        "Nobody replied.",
    ]


def test_non_latin_full_stops_still_split() -> None:
    assert len(_sentences("通知期間は30日です。返金は14日以内です。")) == 2
