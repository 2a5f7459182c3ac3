"""Sentences whose only figure is a date (issue 12, session 6: revision pairs with no claim).

"In June 2011, his wife gave birth to twins" states when something happened; the verb is
in no event list, so the sentence used to give no claim, and a revision that moved the date
("In June 2014, ...") could not be compared. The date is now the value of the act the
clause names.
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.models import ValueKind


def _dates(text: str) -> list:
    return [c for c in extract(text) if c.kind is ValueKind.DATE]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("In June 2011, his wife gave birth to twins.", "2011-06"),
        ("The new timetable was revealed on March 11, 2009.", "2009-03-11"),
        (
            "On 15 March 2019, the council also announced the closure of all libraries.",
            "2019-03-15",
        ),
        ("In December 2009, the band moved into a studio in Leeds.", "2009-12"),
        ("The sisters were reunited in 1998 after decades apart.", "1998"),
    ],
)
def test_a_dated_act_without_an_event_verb_has_its_date_as_value(text: str, value: str) -> None:
    (claim,) = _dates(text)
    assert claim.value == value
    assert not any(ch.isdigit() for ch in claim.claim_key)
    assert claim.time.start is None  # the date is the value, not the time the claim holds


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "In June 2011, his wife gave birth to twins.",
            "In June 2014, his wife gave birth to twins.",
        ),
        (
            "The refurbished pier was handed back to the town on 6 January 2015.",
            "The refurbished pier was handed back to the town on 1 January 2016.",
        ),
        (
            "The following players led the league in points after games played on April 9, 2013.",
            "The following players led the league in points after games played on April 10, 2013.",
        ),
        (
            "On 2 March 2020, Jonathan Reyes and Mia Clarke were chosen to adapt the novel.",
            "On 9 March 2020, Jonathan Reyes and Mia Clarke were chosen to adapt the novel.",
        ),
    ],
)
def test_two_tellings_of_one_act_with_moved_dates_conflict(before: str, after: str) -> None:
    result = check_texts(before, after)
    assert result.relation.value == "conflict", result.reason


def test_the_same_act_dated_more_and_less_precisely_is_no_conflict() -> None:
    result = check_texts(
        "In 2011, his wife gave birth to twins.", "In June 2011, his wife gave birth to twins."
    )
    assert result.relation.value != "conflict", result.reason


def test_an_act_done_by_a_date_is_open_ended_so_two_deadlines_can_both_hold() -> None:
    (claim,) = _dates("By January 2016, Jonathan Reyes had been chosen to adapt the novel.")
    assert claim.value == "/2016-01-31"
    result = check_texts(
        "By January 2016, Jonathan Reyes had been chosen to adapt the novel.",
        "By January 2013, Jonathan Reyes had been chosen to adapt the novel.",
    )
    assert result.relation.value != "conflict", result.reason


def test_a_year_inside_a_name_dates_no_act() -> None:
    assert _dates("After the 1994 Miss Universe pageant, she landed several movie roles.") == []


def test_a_persons_dates_in_brackets_are_no_act_of_the_sentence() -> None:
    claims = _dates("Anna Lindqvist (12 March 1931) was a Swedish ballerina of the late period.")
    assert all(c.attribute in ("born", "died") for c in claims)


def test_a_question_about_a_date_states_none() -> None:
    assert _dates("Was the timetable revealed on March 11, 2009?") == []


def test_a_clause_with_another_value_keeps_it_and_the_date_stays_its_time() -> None:
    claims = extract("In June 2011, the clinic treated 340 patients.")
    assert [c.kind for c in claims] == [ValueKind.QUANTITY]
    assert claims[0].time.start is not None and claims[0].time.start.year == 2011


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The city's theatres are scheduled to reopen on April 13.", "--04-13"),
        ("Georgia also halted all air travel with other countries on 20 March.", "--03-20"),
        ("On November 8th, the band released the studio version of the new song.", "--11-08"),
    ],
)
def test_a_day_without_a_year_is_a_month_day_label(text: str, value: str) -> None:
    claims = extract(text)
    (claim,) = [c for c in claims if c.value == value]
    assert claim.kind is ValueKind.CATEGORICAL
    assert claim.time.text is None  # the day is the value, not the claim's time


def test_two_days_without_a_year_of_one_act_conflict_and_a_dated_day_is_no_conflict() -> None:
    moved = check_texts(
        "The city's theatres are scheduled to reopen on April 13.",
        "The city's theatres are scheduled to reopen on April 14.",
    )
    assert moved.relation.value == "conflict", moved.reason
    same = check_texts(
        "The city's theatres are scheduled to reopen on April 13.",
        "The city's theatres are scheduled to reopen on 13 April.",
    )
    assert same.relation.value == "corroboration", same.reason
    dated = check_texts(
        "The city's theatres are scheduled to reopen on April 13.",
        "The city's theatres are scheduled to reopen on April 14, 2021.",
    )
    assert dated.relation.value != "conflict", dated.reason


def test_a_date_before_a_name_and_an_event_verb_with_an_object_dates_that_event() -> None:
    (claim,) = _dates("On April 12, 1992, Marlowe married the painter Jonas Albright.")
    assert claim.value == "1992-04-12"
    assert claim.entity == "marlowe"
    assert claim.attribute.split()[0] == "married"
    assert "albright" in claim.attribute


def test_a_date_then_a_name_dates_the_act_of_that_name() -> None:
    (claim,) = _dates("On July 10, 1998 Farnsworth retired from the stage at his ranch.")
    assert claim.value == "1998-07-10"
    assert "farnsworth" in claim.claim_key
    (yearless,) = extract(
        "On March 3rd The Harbour Choir performed at the town hall, joined by the youth band."
    )
    assert yearless.value == "--03-03"
    assert "harbour choir" in yearless.claim_key


def test_how_often_a_title_was_won_is_a_count_not_a_label() -> None:
    (claim,) = extract("The club has won the league title 29 times.")
    assert claim.value == 29
    result = check_texts(
        "The club has won the league title 29 times.",
        "The club has won the league title 28 times.",
    )
    assert result.relation.value == "conflict", result.reason
    assert extract("See title 29 of the federal code.") == []


def test_a_year_that_names_an_edition_or_a_heading_year_dates_no_act() -> None:
    # "the 2019 travel policy" names which policy; it says nothing about when it was replaced
    assert _dates("This handbook replaces the 2019 expenses handbook.") == []
    # a Markdown heading with its edition year states no act
    assert _dates("# Expenses handbook (2026)") == []
    # the act's own date still counts
    (claim,) = _dates("The expenses handbook was replaced in March 2026.")
    assert claim.value.startswith("2026")
