"""Value kinds beyond quantities (issue 12, point 4): event dates, direction of change,
negation and antonyms keyed like the positive form, labels that can both hold.

Every pair goes through ``check_texts``, the code path of ``claims check``; each class has
its conflict and its non-conflict.
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Polarity, Relation, ValueKind


def _relation(left: str, right: str) -> Relation:
    return check_texts(left, right).relation


def _kinds(text: str) -> list[ValueKind]:
    return [c.kind for c in extract(text)]


# ----------------------------------------------------------------- event dates

EVENT_CONFLICTS = [
    ("The travel policy came into force in 2017.", "The travel policy came into force in 2022."),
    ("The rowing club was established in 1871.", "The rowing club was established in 1889."),
    ("Our Leeds office opened in March 2015.", "Our Leeds office opened in June 2016."),
    (
        "The framework agreement was signed on 3 May 2021.",
        "The framework agreement was signed on 9 May 2021.",
    ),
    ("Marta was born on 3 May 1970.", "Marta was born on 14 November 1972."),
]


@pytest.mark.parametrize(("left", "right"), EVENT_CONFLICTS)
def test_two_dates_of_one_event_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is Relation.CONFLICT


@pytest.mark.parametrize(
    ("left", "right"),
    [
        # the same year, said twice
        ("The rowing club was established in 1871.", "The rowing club was established in 1871."),
        # a year and a day inside it: the second only says more
        (
            "The travel policy came into force in 2017.",
            "The travel policy came into force on 1 April 2017.",
        ),
        # different events of one subject
        ("The rowing club was established in 1871.", "The rowing club was dissolved in 1889."),
        # different subjects
        ("The rowing club was established in 1871.", "The cricket club was established in 1889."),
    ],
)
def test_dates_that_can_both_hold_do_not_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is not Relation.CONFLICT


def test_an_event_date_is_the_value_not_the_effective_time() -> None:
    (claim,) = extract("Marta was born on 3 May 1970.")
    assert claim.kind is ValueKind.DATE
    assert claim.value == "1970-05-03"
    assert not claim.time.is_known  # the sentence holds now; 1970 is what it says
    (year,) = extract("The rowing club was established in 1871.")
    assert year.value == "1871" and "club" in year.claim_key


def test_a_plain_year_stays_the_time_of_a_quantity() -> None:
    (claim,) = extract("In 2023 the rowing club had 240 members.")
    assert claim.kind is ValueKind.QUANTITY
    assert claim.time.is_known and claim.time.start is not None
    assert claim.time.start.year == 2023


def test_an_event_and_a_quantity_in_one_sentence() -> None:
    claims = extract("The depot opened in 2009 and employs 120 people.")
    dates = [c for c in claims if c.kind is ValueKind.DATE]
    counts = [c for c in claims if c.kind is ValueKind.QUANTITY]
    assert [c.value for c in dates] == ["2009"]
    assert [c.value for c in counts] == [120]
    assert not counts[0].time.is_known  # "in 2009" belongs to the opening


# ----------------------------------------------------------------- direction of change


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Attrition went up in May.", "Attrition went down in May."),
        (
            "Staff turnover rose in the second quarter.",
            "Staff turnover fell in the second quarter.",
        ),
        ("Sales climbed 7% in the third quarter.", "Sales dropped 7% in the third quarter."),
        ("Ticket revenue increased by 12% in 2024.", "Ticket revenue decreased by 12% in 2024."),
        ("Sales rose to 5% in 2023.", "Sales fell to 3% in 2023."),
        # a direction without a number against a number that moved the other way
        ("Attrition went up in May.", "Attrition fell 2% in May."),
    ],
)
def test_opposite_directions_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is Relation.CONFLICT


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("Sales climbed 7% in the third quarter.", "Sales rose 7% in the third quarter."),
        ("Attrition went up in May.", "Attrition rose 2% in May."),
        # a change and a level are different values of different attributes
        ("Sales rose 5% in 2023.", "Sales rose to 5% in 2023."),
    ],
)
def test_same_direction_or_change_against_level_does_not_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is not Relation.CONFLICT


def test_change_and_level_are_told_apart() -> None:
    (change,) = extract("Sales dropped 7% in the third quarter.")
    (level,) = extract("Sales fell to 3% in the third quarter.")
    assert change.claim_key.endswith("change") and change.predicate == "down"
    assert not level.claim_key.endswith("change")


def test_a_server_that_is_down_is_no_change() -> None:
    assert all(c.kind is not ValueKind.CATEGORICAL or c.value not in ("up", "down")
               for c in extract("The build server is down."))  # fmt: skip


# ----------------------------------------------------------------- negation


NEGATION_PAIRS = [
    ("The licence is transferable.", "The licence is not transferable."),
    (
        "The seminar is a prerequisite for the course.",
        "The seminar is not a prerequisite for the course.",
    ),
    ("The room rate includes breakfast.", "The room rate does not include breakfast."),
    ("The buyer is liable for stamp duty.", "The buyer is not liable for stamp duty."),
    ("The canteen accepts cash.", "The canteen no longer accepts cash."),
    ("The hotel offers free parking.", "The hotel never offers free parking."),
    ("The helpdesk stores call recordings.", "The helpdesk doesn't store call recordings."),
]


@pytest.mark.parametrize(("positive", "negative"), NEGATION_PAIRS)
def test_negation_keeps_the_key_and_flips_polarity(positive: str, negative: str) -> None:
    pos = [c for c in extract(positive) if c.kind is ValueKind.POLARITY]
    neg = [c for c in extract(negative) if c.kind is ValueKind.POLARITY]
    assert pos and neg
    assert {c.claim_key for c in pos} & {c.claim_key for c in neg}
    assert all(c.polarity is Polarity.POSITIVE for c in pos)
    assert all(c.polarity is Polarity.NEGATIVE for c in neg)
    assert _relation(positive, negative) is Relation.CONFLICT


def test_neither_nor_negates_once() -> None:
    (claim,) = [c for c in extract("Neither the hotel nor the hostel offers free parking.")
                if c.kind is ValueKind.POLARITY]  # fmt: skip
    assert claim.polarity is Polarity.NEGATIVE


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("The licence is not transferable.", "The licence is not transferable."),
        # denied for one thing, affirmed for another
        ("The room rate does not include breakfast.", "The room rate includes parking."),
        ("The licence is transferable.", "The permit is not transferable."),
    ],
)
def test_negation_of_something_else_is_no_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is not Relation.CONFLICT


def test_a_value_stated_as_not_held_is_denied() -> None:
    assert _relation("The notice period is 30 days.", "The notice period is not 30 days.") is (
        Relation.CONFLICT
    )
    assert _relation("The notice period is 60 days.", "The notice period is not 30 days.") is not (
        Relation.CONFLICT
    )


# ----------------------------------------------------------------- antonyms


ANTONYM_PAIRS = [
    ("The museum accepts card payments.", "The museum declines card payments."),
    ("The portal is open on Sundays.", "The portal is closed on Sundays."),
    ("The lease allows pets.", "The lease forbids pets."),
    ("The warranty includes accidental damage.", "The warranty excludes accidental damage."),
    ("The council approved the extension.", "The council rejected the extension."),
    ("Attendance at the briefing is mandatory.", "Attendance at the briefing is voluntary."),
    ("The visitor badge is valid.", "The visitor badge is invalid."),
    ("Contractors are eligible for the bonus.", "Contractors are ineligible for the bonus."),
    ("Remote logins are enabled.", "Remote logins are disabled."),
]


@pytest.mark.parametrize(("left", "right"), ANTONYM_PAIRS)
def test_antonyms_are_one_attribute_with_opposite_values(left: str, right: str) -> None:
    assert _relation(left, right) is Relation.CONFLICT


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("The museum accepts card payments.", "The museum accepts cash."),
        ("The portal is closed on Sundays.", "The portal is closed on Sundays."),
        ("The museum declines card payments.", "The museum does not accept card payments."),
    ],
)
def test_antonyms_that_agree_or_differ_in_object_do_not_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is not Relation.CONFLICT


# ----------------------------------------------------------------- labels that can both hold


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("The hotel offers free parking.", "The hotel offers airport transfers."),
        ("The course is taught in English.", "The course is graded pass/fail."),
        ("The licence is transferable.", "The licence is renewable."),
        (
            "The feature was switched on in the pilot region.",
            "The feature was switched off in the other regions.",
        ),
    ],
)
def test_labels_that_can_both_hold_are_no_conflict(left: str, right: str) -> None:
    assert _relation(left, right) is not Relation.CONFLICT


def test_a_single_valued_label_still_conflicts() -> None:
    assert (
        _relation("The governing law is German law.", "The governing law is English law.")
        is Relation.CONFLICT
    )


@pytest.mark.parametrize(
    ("left", "right", "relation"),
    [
        # a bound on the date: "after 1987" is from 1 January 1988 on
        ("Dana Whitlock was born after 1987.", "Dana Whitlock (born 9 January 1987) sings.",
         Relation.CONFLICT),
        ("Dana Whitlock was born after 1986.", "Dana Whitlock (born 9 January 1987) sings.",
         Relation.COMPATIBLE),
        ("The depot opened before 2010.", "The depot opened in 2012.", Relation.CONFLICT),
        # a date written with the comma set apart, as tokenised text has it
        ("Dana Whitlock was born on October 18 , 1984 .",
         "Dana Whitlock ( born October 19 , 1984 ) is a bass player .", Relation.CONFLICT),
    ],
)  # fmt: skip
def test_event_dates_with_bounds_and_split_dates(left: str, right: str, relation: Relation) -> None:
    assert _relation(left, right) is relation


def test_a_participle_phrase_first_takes_its_subject_from_the_main_clause() -> None:
    left = "The Harbour Choir was founded before 1990."
    right = "Founded in 1996 in Cork, the Harbour Choir gave its first concert a year later."
    (claim,) = [c for c in extract(right) if c.kind is ValueKind.DATE]
    assert "harbour choir" in claim.claim_key
    assert _relation(left, right) is Relation.CONFLICT
    assert _relation("The Harbour Choir was founded after 1990.", right) is not Relation.CONFLICT


@pytest.mark.parametrize(
    ("positive", "negative"),
    [
        ("The league announced the fixtures in June 2024.",
         "The league failed to announce the fixtures in June 2024."),
        ("The supplier accepted the addendum.", "The supplier refused to accept the addendum."),
    ],
)  # fmt: skip
def test_failing_or_refusing_to_act_denies_the_act(positive: str, negative: str) -> None:
    assert _relation(positive, negative) is Relation.CONFLICT


@pytest.mark.parametrize(
    ("left", "right", "relation"),
    [
        # the passive with its agent is keyed like the active
        ("The council approved the budget.", "The budget was not approved by the council.",
         Relation.CONFLICT),
        ("The board rejected the merger.", "The merger was approved by the board.",
         Relation.CONFLICT),
        ("The board approved the merger.", "The merger was approved by the board.",
         Relation.CORROBORATION),
        # a verb with its particle: "switched off" is "switched on" denied
        ("The feature was switched on in the pilot region.",
         "The feature was switched off in the pilot region.", Relation.CONFLICT),
    ],
)  # fmt: skip
def test_passive_and_particle_verbs(left: str, right: str, relation: Relation) -> None:
    assert _relation(left, right) is relation


@pytest.mark.parametrize(
    ("left", "right", "relation"),
    [
        # the date may open the sentence
        ("The rowing club was established in 1871.", "In 1889, the rowing club was established.",
         Relation.CONFLICT),
        ("The rowing club was established in 1871.", "In 1871, the rowing club was established.",
         Relation.CORROBORATION),
        # a class noun before a name is not part of the entity
        ("The film Harbour Lights was released before 2017.",
         "Harbour Lights was released by Northgate Pictures on 16 December 2018.",
         Relation.CONFLICT),
    ],
)  # fmt: skip
def test_event_date_word_order_and_named_subjects(
    left: str, right: str, relation: Relation
) -> None:
    assert _relation(left, right) is relation


def test_a_passive_drop_is_a_removal_not_a_decrease() -> None:
    claims = extract("The legacy export format was dropped.")
    assert not [c for c in claims if c.value in ("up", "down")]


@pytest.mark.parametrize(
    ("left", "right", "relation"),
    [
        # years before 1800 are bare numbers to the time rules; after an event they are dates
        ("The abbey was built in 1120.", "The abbey was built in 1135.", Relation.CONFLICT),
        ("The town was officially founded in 1550.",
         "The town was officially founded on March 3, 1547 by settlers.", Relation.CONFLICT),
        ("The town was founded in 1547.", "The town was founded on 3 March 1547.",
         Relation.COMPATIBLE),
    ],
)  # fmt: skip
def test_early_years_after_an_event_are_dates(left: str, right: str, relation: Relation) -> None:
    assert _relation(left, right) is relation


def test_an_early_year_is_not_also_a_count() -> None:
    claims = extract("The abbey was built in 1120 and has 40 monks.")
    assert sorted(str(c.value) for c in claims) == ["1120", "40.0"]
