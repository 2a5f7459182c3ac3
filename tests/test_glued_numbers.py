"""Numbers glued by a comma in scraped text: a thousands group is three digits, so a comma
before four digits that read as a year separates two numbers ("December 12,1985", "( 1989,
2013 )"), in the tokenizer (claims/extraction/pipeline.py, EXTRA_INFIXES) and in the number
scanner (claims/extraction/mentions.py, _NUMBER). Grouped thousands stay one number."""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract
from claims.extraction.pipeline import get_pipeline
from claims.models import Relation
from claims.settings import get_settings


def values(text: str) -> list[str]:
    return [str(c.value) for c in extract(text, source_id="doc", source_version_id="doc@1")]


def tokens(text: str) -> list[str]:
    return [t.text for t in get_pipeline(get_settings().spacy_model).tokenizer(text)]


def test_two_years_glued_by_a_comma_are_two_tokens() -> None:
    assert tokens("the titles of ( 1998,2004 )")[3:] == ["(", "1998", ",", "2004", ")"]


def test_a_day_glued_to_its_year_is_two_tokens() -> None:
    assert "1985" in tokens("She was born on December 12,1985 in Leeds.")


def test_grouped_thousands_stay_one_token() -> None:
    assert tokens("It had 12,345 residents and 1,234,567 visitors.") == [
        "It",
        "had",
        "12,345",
        "residents",
        "and",
        "1,234,567",
        "visitors",
        ".",
    ]


def test_two_glued_years_are_not_read_as_one_large_number() -> None:
    read = values("The club won two league titles ( 1998,2004 ) under the same coach.")
    assert not any("199800" in v or "1998200" in v for v in read)


def test_grouped_thousands_are_still_one_value() -> None:
    assert any(v.startswith("12345") for v in values("The town had 12,345 residents in 2010."))


def test_a_birth_date_glued_to_its_year_is_revised_like_any_date() -> None:
    result = check_texts(
        "Maya Ellison (born December 12,1985) is an English singer.",
        "Maya Ellison (born December 13,1985) is an English singer.",
    )
    assert result.relation is Relation.CONFLICT
