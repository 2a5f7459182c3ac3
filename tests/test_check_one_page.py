"""``claims check`` reads its two texts as two versions of one page (session 9): a subject
named in either is one entity, and a name the revision only reworded stays one name
(claims/edges/check.py ``one_page``, claims/edges/revision.py ``one_slot``)."""

from __future__ import annotations

from functools import partial

from check_pairs import both_ways as both_ways_any

from claims.edges.check import LEFT_SOURCE, one_page
from claims.edges.check import check_texts as check_any
from claims.extraction import extract as extract_any
from claims.models import Relation

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")
check_texts = partial(check_any, profile="reference")
both_ways = partial(both_ways_any, profile="reference")

# a page cut below its furniture: the subject is read late, with no title to tell it from
# its namesakes on other pages
LATE = (
    "Contents Early life Helena Marsh Voigt ( 3 May {born} – 2 June 2008 ) was a Canadian "
    "botanist and author ."
)


def test_a_late_subject_is_tagged_with_its_page_when_extracted_alone() -> None:
    claims = extract(LATE.format(born=1931), source_id=LEFT_SOURCE)
    assert {c.entity for c in claims} == {"helena marsh voigt (in left)"}
    # ... and claims check drops the tag: both texts are one page
    assert {c.entity for c in one_page(claims, LEFT_SOURCE)} == {"helena marsh voigt"}
    assert all(c.claim_key.startswith("helena marsh voigt ") for c in one_page(claims, "left"))


def test_a_late_subject_is_one_entity_across_the_two_texts() -> None:
    relation, rule, reason = both_ways(LATE.format(born=1931), LATE.format(born=1932))
    assert relation is Relation.CONFLICT, reason
    assert "1931" in reason and "1932" in reason


def test_a_late_subject_and_the_same_name_opening_the_other_text_are_one_entity() -> None:
    opened = "Helena Marsh Voigt ( 3 May 1932 – 2 June 2008 ) was a Canadian botanist and author ."
    relation, _, reason = both_ways(LATE.format(born=1931), opened)
    assert relation is Relation.CONFLICT, reason


def test_near_miss_a_late_subject_renamed_by_the_revision_stays_two_entities() -> None:
    other = LATE.format(born=1932).replace("Voigt", "Vogel")
    relation, _, reason = both_ways(LATE.format(born=1931), other)
    assert relation is Relation.UNRELATED, reason


def test_near_miss_one_late_subject_with_the_same_dates_is_no_conflict() -> None:
    result = check_texts(LATE.format(born=1931), LATE.format(born=1931))
    assert result.relation is Relation.CORROBORATION, result.reason


# ------------------------------------------------ a name reworded, not renamed


def test_a_name_whose_word_was_derived_another_way_is_one_entity() -> None:
    relation, _, reason = both_ways(
        "The review aggregator website CritiCount gives the series an approval rating of "
        "64 % , based on 22 reviews .",
        "On review aggregation website CritiCount , the series has an approval rating of "
        "71 % , based on 22 reviews .",
    )
    assert relation is Relation.CONFLICT, reason
    assert "64 %" in reason and "71 %" in reason


def test_a_name_the_revision_shortened_is_one_entity() -> None:
    relation, _, reason = both_ways(
        "On the review aggregation website CritiCount , the series holds an approval rating "
        "of 64 % based on 118 reviews .",
        "On CritiCount the series holds an approval rating of 64 % based on 121 reviews .",
    )
    # the descriptor before the name is no part of the entity (keys.named_after_descriptor),
    # so both texts name one site outright and the changed count is a conflict
    assert relation is Relation.CONFLICT, reason
    assert "118" in reason and "121" in reason


def test_near_miss_a_model_renamed_in_place_stays_two_entities() -> None:
    relation, _, reason = both_ways(
        "The K2 logger from Larsen Instruments weighs 450 g.",
        "The K3 logger from Larsen Instruments weighs 620 g.",
    )
    assert relation is Relation.UNRELATED, reason


def test_near_miss_a_record_holder_replaced_by_another_stays_two_entities() -> None:
    relation, _, reason = both_ways(
        "In the 2019 season Okafor kept 14 clean sheets , more than any other goalkeeper in "
        "the league .",
        "In the 2019 season Brandt kept 17 clean sheets , more than any other goalkeeper in "
        "the league .",
    )
    assert relation is Relation.UNRELATED, reason


# ------------------------------------------------ labels that narrow one another


def test_a_label_and_a_closer_description_of_it_are_no_conflict() -> None:
    relation, rule, reason = both_ways(
        "Harbour Lights is a series .",
        "Harbour Lights is a Welsh television series set in a fishing town .",
    )
    assert relation is not Relation.CONFLICT, reason
    relation, _, reason = both_ways(
        "Copper Lane is a comedy film .", "Copper Lane is a 2014 Irish fantasy comedy film ."
    )
    assert relation is not Relation.CONFLICT, reason
    # "movie" names the medium "film" (the extractor's opening lexicon)
    relation, _, reason = both_ways(
        "Copper Lane is a comedy movie .", "Copper Lane is a 2014 Irish fantasy comedy film ."
    )
    assert relation is not Relation.CONFLICT, reason


def test_near_miss_two_labels_with_other_words_still_conflict() -> None:
    relation, _, reason = both_ways(
        "Copper Lane is a horror film .", "Copper Lane is a 2014 Irish fantasy comedy film ."
    )
    assert relation is Relation.CONFLICT, reason


def test_near_miss_a_label_denied_is_no_narrower_label() -> None:
    relation, _, reason = both_ways(
        "The Harwick Accord is a trade agreement .",
        "The Harwick Accord is not a trade agreement .",
    )
    assert relation is Relation.CONFLICT, reason
