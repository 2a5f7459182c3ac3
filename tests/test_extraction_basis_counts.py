"""A count that a figure rests on ("a rating of 23% based on 123 reviews") is its own claim.

Session 12 (docs/EXTRACTION.md, "Basis counts"): the count was keyed as the figure itself
("rating = 123 reviews") or under a key holding "base", so two revisions of one rating never
shared the count's slot. Sentences are our own, worded as review sites and surveys word them.
"""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract


def _by_value(text: str) -> dict[str, tuple[str | None, str]]:
    return {
        f"{c.value:g} {c.unit}".strip(): (c.entity, c.attribute)
        for c in extract(text)
        if isinstance(c.value, float)
    }


def test_count_behind_a_rating_is_keyed_by_what_it_counts() -> None:
    claims = _by_value("The film holds a rating of 64 % on Rotten Tomatoes based on 212 reviews .")
    assert claims["212 reviews"][1] == "review"
    assert claims["64 %"][1] != "review"
    # the phrase "based on" is in no key: the rating keeps the site as its entity
    assert claims["64 %"][0] == claims["212 reviews"][0] == "rotten tomato"


def test_noun_named_before_from_is_what_is_counted() -> None:
    claims = _by_value(
        "Aggregator site Critica gives the series an approval rating of 88 % , "
        "based on reviews from 41 critics , with an average rating of 7.9/10 ."
    )
    assert claims["41 critics"][1] == "review"
    assert claims["88 %"][1] != "review"


def test_survey_responses_behind_a_share() -> None:
    claims = _by_value(
        "The poll found that 57 % of tenants back the rent cap , based on 1,350 responses ."
    )
    assert claims["1350 responses"][1] == "response"
    assert claims["57 %"][1] != "response"


def test_near_miss_a_year_after_based_on_is_no_count() -> None:
    # "based on 2019 figures": the number is a year, the sentence counts nothing
    claims = extract("The budget of 4.2 million euros is based on 2019 prices .")
    assert all(c.attribute != "price" for c in claims)


def test_near_miss_a_count_after_a_plain_with_stays_as_it_was() -> None:
    # no basis phrase: the second count follows the first value's key as before
    claims = _by_value("The film holds a rating of 23 % , with 128 reviews .")
    assert claims["128 reviews"][1] == claims["23 %"][1]


def test_two_versions_of_one_review_count_share_a_slot() -> None:
    before = "The film holds a rating of 71 % on Rotten Tomatoes based on 150 reviews ."
    after = "The film holds a rating of 71 % on Rotten Tomatoes based on 163 reviews ."
    result = check_texts(before, after)
    assert result.relation.value in ("conflict", "ambiguous")
    reviews = [
        p
        for p in result.pairs
        if p.left.attribute == p.right.attribute == "review" and p.left.value != p.right.value
    ]
    assert reviews and all(p.relation.value in ("conflict", "ambiguous") for p in reviews)
