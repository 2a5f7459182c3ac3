"""A picture's caption in square brackets before a sentence (session 14): scraped pages keep
"[Close up view of the Alder House, May 2016] The house was built in 1895", and the
caption glued onto the sentence made "close up view" the subject of the house's year. A
caption is a sentence of its own, and furniture no claim is read from
(claims/extraction/captions.py); a reference mark ("[12]") or an edit link stays a mark."""

from __future__ import annotations

import pytest

from claims.extraction import extract
from claims.extraction.captions import caption_spans


def _keys(text: str) -> list[tuple[str, object]]:
    return [(c.claim_key, c.value) for c in extract(text, source_id="doc01")]


def test_a_caption_before_a_sentence_is_not_its_subject() -> None:
    text = (
        "[Close up view of the Alder House, May 2016] The house was built in 1895 for "
        "Walter and Ruth Alder, who lived there until their deaths."
    )
    assert _keys(text) == [("house built", "1895")]


def test_a_caption_after_a_sentence_on_a_page_states_nothing() -> None:
    text = (
        "The mill was built in 1822. [Photo of the sails, taken in 1990] The sails were "
        "removed in 1923."
    )
    claims = extract(text, source_id="doc01")
    assert all("photo" not in c.claim_key for c in claims)
    assert all(not c.quote.startswith("[") for c in claims)
    assert ("mill built", "1822") in [(c.claim_key, c.value) for c in claims]


@pytest.mark.parametrize(
    "text",
    [
        "The mill was built in 1822. [12] The sails were removed in 1923.",
        "Early life [ edit ] Ruth Alder was born in 1901.",
        "He said the mill [which had been closed since 1990] Reopened in 2001.",
        "See [a] The note.",
    ],
)
def test_near_miss_marks_and_inline_brackets_are_no_captions(text: str) -> None:
    assert caption_spans(text) == []
