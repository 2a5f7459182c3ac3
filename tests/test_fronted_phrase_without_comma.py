"""A phrase a preposition opens before the subject ends at the subject's article, with or
without its comma: "On Rotten Tomatoes the film has a rating of 56%" names the site and the
film as "On Rotten Tomatoes, the film has ..." does (claims/extraction/assembly.py,
``_noun_phrase``). Without the comma the site and the film had been read as one name
("rotten tomato film"), another entity than the comma's wording."""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation


def keys(text: str) -> set[str]:
    return {c.claim_key for c in extract(text, source_id="doc", source_version_id="doc@1")}


def test_the_comma_does_not_change_the_key() -> None:
    with_comma = keys("On Metacritic, the album has a score of 74 out of 100.")
    without = keys("On Metacritic the album has a score of 74 out of 100.")
    assert with_comma == without == {"metacritic score"}


def test_a_site_fronted_without_a_comma_is_the_site_of_the_rating() -> None:
    result = check_texts(
        "On Rotten Tomatoes the film has an approval rating of 64% based on 90 reviews.",
        "On Rotten Tomatoes, the film holds an approval rating of 71% based on 96 reviews.",
    )
    assert result.relation is Relation.CONFLICT


def test_a_name_and_its_noun_without_an_article_stay_one_phrase() -> None:
    assert keys("At the Brightwater plant the line produces 400 cars a day.") == {
        "brightwater car"
    }
