"""``claims check`` on two versions of one sentence: the figure a revision changed in place
is compared with the figure it replaced (claims/edges/alignment.py, revision.py)."""

from __future__ import annotations

import pytest
from check_pairs import both_ways

from claims.edges.alignment import NEAR_IDENTICAL, align
from claims.edges.check import check_texts
from claims.edges.verdict import Rule
from claims.models import Relation

# ------------------------------------------------------------------ the alignment


def test_a_revised_sentence_aligns_and_its_changed_figures_are_the_changes() -> None:
    alignment = align(
        "The launch clip drew more than 275 million plays as of June 8, 2017.",
        "The launch clip drew more than 280 million plays as of June 13, 2017.",
    )
    assert alignment.revision
    assert [(c.left_text, c.right_text) for c in alignment.changes] == [
        ("275", "280"),
        ("8", "13"),
    ]
    assert all(c.numeric for c in alignment.changes)
    assert not alignment.reworded


def test_two_sentences_written_apart_are_not_a_revision() -> None:
    alignment = align(
        "Lisbon reported more than 1,500 confirmed cases by the end of the week.",
        "The city has 1,230 cases of measles, the health office said.",
    )
    assert alignment.ratio < NEAR_IDENTICAL
    assert not alignment.revision


def test_a_model_name_with_digits_is_one_token_and_a_word_change() -> None:
    alignment = align("The K2 logger weighs 450 g.", "The K3 logger weighs 620 g.")
    assert [c.left_text for c in alignment.changes] == ["K2", "450"]
    assert alignment.reworded  # "K2" holds letters: more than numbers changed


def test_a_day_moved_to_the_other_side_of_its_month_is_one_change() -> None:
    # "by March 27" / "by 26 March": difflib drops 27 after "March" and adds 26 before it
    alignment = align(
        "The lab had run 6,450 tests by March 27.", "The lab had run 6,450 tests by 26 March."
    )
    assert [(c.left_text, c.right_text) for c in alignment.changes] == [("27", "26")]
    assert alignment.changes[0].numeric


def test_one_date_written_the_other_way_round_is_no_change() -> None:
    alignment = align(
        "The theatres reopen on April 13 after the works.",
        "The theatres reopen on 13 April after the works.",
    )
    assert not alignment.changes


def test_a_figure_added_next_to_kept_words_is_no_change() -> None:
    alignment = align(
        "Dorset had 525 cases and two deaths.",
        "Dorset had 525 cases, 61 admissions and two deaths.",
    )
    assert alignment.revision
    assert not alignment.changes


def test_a_place_maps_through_kept_words_and_changes() -> None:
    left = "The fee was 10 USD in 2019 and 12 USD in 2020."
    right = "The fee was 10 USD in 2019 and 15 USD in 2020."
    alignment = align(left, right)
    twelve = left.index("12")
    assert alignment.place("left", twelve, twelve + 2) == (right.index("15"), right.index("15") + 2)
    ten = left.index("10")
    assert alignment.place("left", ten, ten + 2) == (right.index("10"), right.index("10") + 2)


# ------------------------------------------------------------------ figures changed in place


def test_the_changed_figure_conflicts_even_where_the_other_text_states_it_elsewhere() -> None:
    # the old Europe figure is the new text's total, and 3.1 stays: the aligned places decide
    relation, rule, reason = both_ways(
        "The tour grossed $12.4 million in Europe and $3.1 million in Asia, "
        "for a total of $15.5 million.",
        "The tour grossed $15.5 million in Europe and $3.1 million in Asia, "
        "for a total of $18.6 million.",
    )
    assert relation is Relation.CONFLICT, reason
    assert "revised in place" in reason


def test_an_unchanged_figure_corroborates_but_never_hides_the_changed_one() -> None:
    result = check_texts(
        "The clinic in Harrow treated 1,240 patients in March, up from 980 in February.",
        "The clinic in Harrow treated 1,310 patients in March, up from 980 in February.",
    )
    assert result.relation is Relation.CONFLICT, result.reason
    relations = {p.relation for p in result.pairs}
    assert Relation.CORROBORATION in relations  # 980 against 980


def test_figures_at_different_places_of_one_revised_sentence_are_not_one_slot() -> None:
    result = check_texts(
        "The tour grossed $12.4 million in Europe and $3.1 million in Asia, "
        "for a total of $15.5 million.",
        "The tour grossed $15.5 million in Europe and $3.1 million in Asia, "
        "for a total of $18.6 million.",
    )
    europe_against_total = [
        p for p in result.pairs if p.left.value == 12_400_000 and p.right.value == 18_600_000
    ]
    assert europe_against_total
    for pair in europe_against_total:
        assert pair.relation is Relation.COMPATIBLE, pair.reason
        assert pair.rule == Rule.REVISION


def test_an_as_of_date_moved_with_its_figure_is_one_slot_updated() -> None:
    relation, rule, reason = both_ways(
        "As of 4 May, the petition had more than 12,000 signatures.",
        "As of 9 May, the petition had more than 15,000 signatures.",
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.TIME
    assert "later snapshot" in reason


def test_an_as_of_date_moved_with_an_exact_figure_is_ambiguous_not_a_conflict() -> None:
    # no year, so neither date resolves to a day: the words "as of" still say snapshot
    relation, _, reason = both_ways(
        "As of 4 May, the petition had 12,000 signatures.",
        "As of 9 May, the petition had 12,400 signatures.",
    )
    assert relation is Relation.AMBIGUOUS, reason


def test_the_same_statement_moved_to_another_date_is_ambiguous() -> None:
    relation, rule, reason = both_ways(
        "The ferry carried 300 passengers on 3 August 2019.",
        "The ferry carried 300 passengers on 5 August 2019.",
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.TIME
    assert "another time" in reason


def test_a_date_rewritten_in_another_format_and_moved_is_ambiguous() -> None:
    relation, _, reason = both_ways(
        "The lab had run 6,450 tests by March 27.", "The lab had run 6,450 tests by 26 March."
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert (
        "'27' -> '26'"
        in check_texts(
            "The lab had run 6,450 tests by March 27.", "The lab had run 6,450 tests by 26 March."
        ).reason
    )


def test_a_closure_moved_to_another_year_is_ambiguous() -> None:
    relation, _, reason = both_ways(
        "The mill closed in 1987 after a fire.", "The mill closed in 1989 after a fire."
    )
    assert relation is Relation.AMBIGUOUS, reason


# ------------------------------------------------------------------ what stays apart


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        # two quarters are two slots, whatever the alignment says
        (
            "The Q1 dividend was 12 cents per share.",
            "The Q2 dividend was 15 cents per share.",
            Relation.COMPATIBLE,
        ),
        # a figure only made more precise elaborates the other (issue 4)
        ("The recommended dose is 5-10 mg.", "The recommended dose is 8 mg.", Relation.COMPATIBLE),
        (
            "The reply is at most 500 tokens long.",
            "The reply is 300 tokens long.",
            Relation.COMPATIBLE,
        ),
        # a denial the revision turned into the value: what it is, where it said what it
        # is not
        (
            "The notice period for contractors is not 30 days.",
            "The notice period for contractors is 60 days.",
            Relation.COMPATIBLE,
        ),
        # two named products are two things
        (
            "The Kestrel K2 logger weighs 450 g.",
            "The Kestrel K3 logger weighs 620 g.",
            Relation.UNRELATED,
        ),
        # a new period with its own figure (the mission's time rule: no conflict)
        (
            "In 2019, the museum welcomed 120,000 visitors.",
            "In 2020, the museum welcomed 40,000 visitors.",
            Relation.COMPATIBLE,
        ),
    ],
)
def test_revisions_that_are_not_one_slot_changed(left: str, right: str, expected: Relation) -> None:
    relation, _, reason = both_ways(left, right)
    assert relation is expected, reason


# ------------------------------------------------------------------ changed, though both hold


@pytest.mark.parametrize(
    ("left", "right", "named"),
    [
        # two descriptive lower bounds: both hold by logic, but the figure was revised
        (
            "The co-op has more than 1,000 members.",
            "The co-op has more than 5,000 members.",
            "bound revised: more than 1000 members -> more than 5000 members",
        ),
        (
            "The town council forbids meetings of more than 100 people in the old square.",
            "The town council forbids meetings of more than 50 people in the old square.",
            "bound revised: more than 100 people -> more than 50 people",
        ),
        (
            "The trailer has been watched over 800 million times on YouTube.",
            "The trailer has been watched over 810 million times on YouTube.",
            "bound revised",
        ),
        # a range moved, and a rounded figure restated
        (
            "The recommended dose is 5-10 mg.",
            "The recommended dose is 6-12 mg.",
            "range revised: 5-10 mg -> 6-12 mg",
        ),
        (
            "The town has about 11,060 inhabitants.",
            "The town has about 11,500 inhabitants.",
            "figure revised",
        ),
        # a date that only narrows ("by January 2016" holds if "by January 2013" does)
        (
            "By January 2016, Ann Reyes and Tom Hale had been chosen to direct the film.",
            "By January 2013, Ann Reyes and Tom Hale had been chosen to direct the film.",
            "date revised",
        ),
    ],
)
def test_a_revised_figure_both_readings_allow_is_ambiguous_and_named(
    left: str, right: str, named: str
) -> None:
    relation, rule, reason = both_ways(left, right)
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
    assert named in check_texts(left, right).reason


def test_the_same_figure_at_another_as_of_date_is_ambiguous() -> None:
    # one running figure that did not move between two readings, or a corrected date: the
    # revised sentence dates its figure differently, and a reviewer sees it
    relation, rule, reason = both_ways(
        "As of 9 March 2020, the depot held 30 buses.",
        "As of 10 March 2020, the depot held 30 buses.",
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.TIME
    assert "the same figure" in reason


def test_the_same_figure_at_another_as_of_day_without_a_year_is_ambiguous() -> None:
    relation, _, reason = both_ways(
        "As of 24 March, 6,016 people were in quarantine in the province.",
        "As of 25 March, 6,016 people were in quarantine in the province.",
    )
    assert relation is Relation.AMBIGUOUS, reason


# ------------------------------------------------------------------ figures no claim reads


@pytest.mark.parametrize(
    ("left", "right", "shown"),
    [
        (
            "The county side won the series 3-1 after the fourth match.",
            "The county side won the series 2-1 after the fourth match.",
            "'3-1' -> '2-1' (a score or a range)",
        ),
        (
            "She scored the winner for Norway in the 57th minute.",
            "She scored the winner for Norway in the 58th minute.",
            "'57th' -> '58th' (an ordinal)",
        ),
        (
            "The last train left the station at 8:28 pm.",
            "The last train left the station at 8:21 pm.",
            "'8:28' -> '8:21' (a time of day)",
        ),
        # the year of a work inside its label phrase: the labels ("film") drop it
        (
            "Harbour Lights is a 2013 British-Irish thriller film directed by Ann Reyes.",
            "Harbour Lights is a 2012 British-Irish thriller film directed by Ann Reyes.",
            "'2013' -> '2012' (a year)",
        ),
        (
            "He was picked by the Hawks with the 37th overall pick in the draft.",
            "He was picked by the Hawks with the 36th overall pick in the draft.",
            "'37th' -> '36th' (an ordinal)",
        ),
    ],
)
def test_a_changed_figure_no_claim_reads_is_still_shown(left: str, right: str, shown: str) -> None:
    relation, rule, reason = both_ways(left, right)
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
    assert shown in check_texts(left, right).reason


def test_a_changed_name_with_digits_is_not_an_unread_figure() -> None:
    # "Route 9" / "Route 9A" and "K2" / "K3" are names: the figure rule leaves them alone
    result = check_texts(
        "The bus to the airport leaves from stop B2 every morning.",
        "The bus to the airport leaves from stop B4 every morning.",
    )
    assert "no claim reads" not in result.reason


def test_sentences_written_apart_never_get_the_unread_figure_reading() -> None:
    result = check_texts(
        "The county side won the series 3-1 after the fourth match.",
        "After a wet summer the club finished the league in 2nd place, two points clear.",
    )
    assert "no claim reads" not in result.reason
    assert result.relation is not Relation.AMBIGUOUS or result.rule != Rule.REVISION


def test_words_added_next_to_the_figure_keep_a_narrower_attribute_ambiguous() -> None:
    # "output" narrows "limit": one slot at most, never a conflict
    relation, _, reason = both_ways("The limit is 500 tokens.", "The output limit is 250 tokens.")
    assert relation is Relation.AMBIGUOUS, reason


def test_texts_that_are_not_a_revision_get_no_revision_reading() -> None:
    result = check_texts(
        "Attendance at the Harbour Festival reached 48,000 in 2022.",
        "Organisers said about 52,000 people came to the festival in 2022, a record.",
    )
    assert not align(
        "Attendance at the Harbour Festival reached 48,000 in 2022.",
        "Organisers said about 52,000 people came to the festival in 2022, a record.",
    ).revision
    assert all("revised" not in p.reason for p in result.pairs)


def test_one_as_of_day_written_two_ways_is_not_a_moved_snapshot() -> None:
    # "9th March" and "9 March" are one day: the figure changed at one reading, a conflict
    relation, _, reason = both_ways(
        "As of 9th March 2020, the depot held 30 buses.",
        "As of 9 March 2020, the depot held 34 buses.",
    )
    assert relation is Relation.CONFLICT, reason


def test_a_bound_turned_around_in_a_revised_sentence_conflicts() -> None:
    relation, _, reason = both_ways(
        "The choir sold fewer than 2,000 tickets for the winter concert.",
        "The choir has sold more than 3,000 tickets for the winter concert.",
    )
    assert relation is Relation.CONFLICT, reason
    assert "revised in place" in reason


# ------------------------------------------------------------------ the extractor's readings


def test_one_entity_read_two_ways_in_a_revised_sentence_is_one_slot() -> None:
    # the revision changed two figures, not the film; the extractor named the entity
    # differently in the two versions, and the words of both names stand in both texts
    relation, _, reason = both_ways(
        "Of the 25 reviews that Rotten Tomatoes collected, Quiet Harbour received a 80% rating.",
        "Of the 29 reviews that Rotten Tomatoes collected, Quiet Harbour received a 79% rating.",
    )
    assert relation is Relation.CONFLICT, reason
    assert "revised in place" in reason


def test_a_figure_revised_with_the_words_around_it_is_ambiguous() -> None:
    relation, rule, reason = both_ways(
        "The sequel drew lukewarm notices and sold well, taking in over $400 million.",
        "The sequel drew lukewarm notices but sold strongly, taking in over $415.2 million.",
    )
    assert relation is Relation.AMBIGUOUS, reason
    assert rule == Rule.REVISION
