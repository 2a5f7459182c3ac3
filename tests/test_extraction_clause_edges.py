"""Where a value's clause starts and ends (session 12, docs/EXTRACTION.md).

- a fronted place or source ("On the review site, the film holds 64% and ...") serves each
  value of the clause as it would standing after it, so the subject is still read;
- a clause after ", which" / ", but" / ", although" with no value of its own is not the
  value's: its negation does not deny the value and its words do not key it.

Sentences are our own, worded as news, reviews and reports word them.
"""

from __future__ import annotations

from claims.extraction import extract
from claims.models import Claim, Polarity


def _quantities(text: str) -> list[Claim]:
    return [c for c in extract(text) if isinstance(c.value, float)]


def _one(text: str) -> Claim:
    claims = _quantities(text)
    assert len(claims) == 1, [c.claim_key for c in claims]
    return claims[0]


def test_fronted_source_keeps_the_subject_of_each_value() -> None:
    fronted = _quantities(
        "On the review site Critica , the series holds a score of 64 % and a rating of 7 ."
    )
    assert [c.attribute.startswith("unknown") for c in fronted] == [False, False]
    # the descriptor before the name is not the entity (session 13): the site is "Critica"
    assert fronted[0].entity == "critica"


def test_fronted_and_trailing_source_key_a_rating_alike() -> None:
    fronted = _quantities(
        "On Rotten Tomatoes , the documentary holds a rating of 64 % , based on 80 reviews ."
    )
    trailing = _quantities(
        "The documentary holds a rating of 64 % on Rotten Tomatoes based on 80 reviews ."
    )
    assert [c.claim_key for c in fronted] == [c.claim_key for c in trailing]


def test_near_miss_a_fronted_time_stays_a_lead() -> None:
    # "In 2019," is a time, not a place: the keys read as before, the time is the claim's
    claims = _quantities("In 2019 , the club had 300 members and 20 coaches .")
    assert [c.attribute for c in claims] == ["member", "coach"]
    assert all(c.time.start is not None and c.time.start.year == 2019 for c in claims)


def test_trailing_which_clause_neither_negates_nor_keys_the_value() -> None:
    claim = _one("Nearly 3,000 homes were flooded in the storm , which did not reach the coast .")
    assert claim.polarity is not Polarity.NEGATIVE
    assert "coast" not in claim.claim_key and "reach" not in claim.claim_key


def test_trailing_contrast_clause_is_cut_off() -> None:
    claim = _one("The team scored 3 goals , although it did not win the match .")
    assert "match" not in claim.claim_key and "win" not in claim.claim_key
    assert claim.polarity is not Polarity.NEGATIVE


def test_near_miss_restrictive_clause_stays_with_its_value() -> None:
    # no comma: "books that are not available online" is what the number counts
    claim = _one("The library holds 20,000 books that are not available online .")
    assert "available" in claim.claim_key


def test_near_miss_trailing_clause_with_its_own_value_is_read_as_before() -> None:
    claims = _quantities("The plant employs 400 people , which is 10 % of the town .")
    assert sorted(c.value for c in claims) == [10.0, 400.0]
