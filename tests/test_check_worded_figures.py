"""``claims check`` on one sentence revised, session 8: figures written in words compared by
value, figures replaced by a vague amount, and a sentence revised and extended
(claims/edges/figure_words.py, alignment.py, revision.py). Each class both ways: the class
found, and a near miss that must stay out of one slot."""

from __future__ import annotations

from check_pairs import both_ways

from claims.edges.alignment import align
from claims.edges.check import check_texts
from claims.edges.figure_words import read_figure, read_vague, vague_change, worded_change
from claims.edges.verdict import Rule
from claims.models import Relation

SLOT = (Relation.CONFLICT, Relation.AMBIGUOUS)


def _words(text: str) -> list[str]:
    return text.casefold().split()


# ------------------------------------------------------------------ reading figures in words


def test_number_words_are_read_by_value() -> None:
    assert read_figure(_words("twenty three")).value == 23  # type: ignore[union-attr]
    assert read_figure(_words("three hundred and twelve")).value == 312  # type: ignore[union-attr]
    fifth = read_figure(_words("fifth"))
    assert fifth is not None and fifth.value == 5 and fifth.ordinal
    assert read_figure(_words("about 600,000 people")).value == 600000  # type: ignore[union-attr]
    assert read_figure(_words("a dozen")).value == 12  # type: ignore[union-attr]
    assert read_figure(_words("a")) is None  # an article alone counts nothing
    assert read_figure(_words("the old harbour")) is None


def test_one_value_written_two_ways_is_no_change() -> None:
    assert worded_change(_words("thirteen"), _words("13")) is None
    assert worded_change(_words("ninth"), _words("9th")) is None
    assert worded_change(_words("five"), _words("four")) is not None
    # an ordinal never changes into a count
    assert worded_change(_words("fifth"), _words("6")) is None


def test_vague_amounts_come_from_the_lexicon() -> None:
    assert read_vague(_words("many")) == ("many", "")
    assert read_vague(_words("a number of volunteers")) == ("a number of", "volunteer")
    assert read_vague(_words("the volunteers")) is None
    # two counted nouns that differ are two things, not one figure made vague
    assert vague_change(_words("40 volunteers"), _words("several donors")) is None


# ------------------------------------------------------------------ number words by value


def test_a_count_rewritten_in_words_with_another_value_is_one_slot() -> None:
    relation, _, reason = both_ways(
        "The village still has five working wells and a chapel.",
        "The village still has four working wells and a chapel.",
    )
    assert relation in SLOT, reason


def test_an_ordinal_in_words_against_one_in_digits_is_one_slot() -> None:
    relation, _, reason = both_ways(
        "By passenger numbers, Leeds Bradford is the fifth busiest airport in the north.",
        "By passenger numbers, Leeds Bradford is the 6th busiest airport in the north.",
    )
    assert relation in SLOT, reason


def test_the_same_number_in_words_and_digits_is_not_a_change() -> None:
    relation, rule, reason = both_ways(
        "The ferry crossing takes thirteen minutes in calm weather.",
        "The ferry crossing takes 13 minutes in calm weather.",
    )
    assert relation not in SLOT, reason
    relation, rule, reason = both_ways(
        "Our team finished ninth in the regional quiz league this spring.",
        "Our team finished 9th in the regional quiz league this spring.",
    )
    assert relation not in SLOT, reason


def test_a_count_only_the_digits_side_reads_is_still_shown() -> None:
    relation, rule, reason = both_ways(
        "She scored a try in the last ten minutes of the final.",
        "She scored 2 tries in the last ten minutes of the final.",
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
    assert "a figure written in words, 1 -> 2" in reason


# ------------------------------------------------------------------ a figure made vague


def test_a_figure_replaced_by_a_vague_amount_is_ambiguous_and_named() -> None:
    left = "About 4,000 residents left the valley before the floods reached the town."
    right = "Many residents left the valley before the floods reached the town."
    relation, rule, reason = both_ways(left, right)
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
    assert "the figure 4000 replaced by the vague amount 'many'" in check_texts(left, right).reason
    assert "the vague amount 'many' replaced by the figure 4000" in check_texts(right, left).reason


def test_a_vague_amount_made_precise_is_ambiguous() -> None:
    relation, _, reason = both_ways(
        "The storm closed several schools in the district on Monday.",
        "The storm closed 14 schools in the district on Monday.",
    )
    assert relation is Relation.AMBIGUOUS, reason


def test_a_vague_amount_both_versions_keep_is_no_change() -> None:
    # the amount stays "many"; only the place changed, and no figure is involved
    result = check_texts(
        "Many residents left the valley before the floods reached the town.",
        "Many residents left the valley before the floods reached the city.",
    )
    assert "vague amount" not in result.reason
    assert result.relation is not Relation.CONFLICT


def test_sentences_written_apart_never_get_the_vague_amount_reading() -> None:
    result = check_texts(
        "About 4,000 residents left the valley before the floods.",
        "Many shops on the high street stayed shut for a week after the storm had passed.",
    )
    assert "vague amount" not in result.reason


# ------------------------------------------------------------------ revised and extended


def test_a_sentence_revised_and_extended_compares_the_changed_figure() -> None:
    short = "As of Friday, the county clinic had vaccinated 1,240 children against measles."
    long = (
        "As of Friday, the county clinic had vaccinated 1,310 children against measles, "
        "most of them at the two school sessions held in the spring term."
    )
    alignment = align(short, long)
    assert alignment.ratio < 0.75 and alignment.revision
    relation, _, reason = both_ways(short, long)
    assert relation in SLOT, reason


def test_an_extension_that_only_adds_a_figure_is_not_one_slot() -> None:
    short = "As of Friday, the county clinic had vaccinated 1,240 children against measles."
    long = (
        "As of Friday, the county clinic had vaccinated 1,240 children against measles, "
        "and 85 adults had booked a first dose for the coming week."
    )
    relation, _, reason = both_ways(short, long)
    assert relation not in SLOT, reason


def test_a_few_words_inside_a_longer_text_are_not_a_revision() -> None:
    # a short phrase is inside many texts; the shorter side must be a sentence
    alignment = align(
        "The fee is 40 euros.",
        "The fee is 45 euros for members who join after the spring meeting of the club.",
    )
    assert not alignment.revision


# ------------------------------------------------------------------ one event, keys read twice


def test_a_date_revised_with_the_name_shortened_is_one_slot() -> None:
    # the revision dropped the first name: the extractor keys "nils brodeur" and "brodeur"
    relation, _, reason = both_ways(
        "Nils Brodeur was found unconscious in his cabin on 13 November 2005.",
        "Brodeur was found unconscious in his cabin on 14 November 2005.",
    )
    assert relation in SLOT, reason


def test_a_date_revised_with_another_named_subject_stays_apart() -> None:
    # a different person in the changed sentence: two events, never one slot
    relation, _, reason = both_ways(
        "Maria Lindqvist was appointed head coach of the club on 3 June 2011.",
        "Henrik Dahl was appointed head coach of the club on 9 June 2011.",
    )
    assert relation is not Relation.CONFLICT, reason


# ------------------------------------------------------------------ a date made vague


def test_a_date_replaced_by_a_relative_time_is_ambiguous_and_named() -> None:
    left = "On March 8, the council confirmed that the market square would close for repairs."
    right = (
        "The following day, the council confirmed that the market square would close for repairs."
    )
    relation, rule, reason = both_ways(left, right)
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
    assert "a date replaced by the time 'the following day'" in check_texts(left, right).reason


def test_a_vague_time_made_a_year_is_ambiguous() -> None:
    relation, _, reason = both_ways(
        "The company plans to open a second plant in the near future, its chair said.",
        "The company plans to open a second plant in 2031, its chair said.",
    )
    assert relation is Relation.AMBIGUOUS, reason


def test_one_date_written_the_other_way_round_is_not_made_vague() -> None:
    left = "On March 8, the council confirmed that the market square would close for repairs."
    right = "On 8 March, the council confirmed that the market square would close for repairs."
    relation, _, reason = both_ways(left, right)
    assert relation not in SLOT, reason
