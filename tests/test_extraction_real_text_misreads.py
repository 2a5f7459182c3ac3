"""Misreads of real prose left after session 10 (issue 12 point 5, session 11), one class a
section: a sentence glued to the number before it, a month name misspelt next to a date, a
size written with "x", a number inside a name before a counted noun of the unit lexicon.
Every sentence is our own, written the way pages, reports and news write them.
"""

from __future__ import annotations

from datetime import date

import pytest

from claims.check import check_texts
from claims.extraction import extract, get_pipeline
from claims.extraction.misspelt_months import misspelt_month
from claims.models import Bound, Claim, Relation


def _quantities(text: str) -> list[Claim]:
    return [c for c in extract(text) if c.kind.value == "quantity"]


def _sentences(text: str) -> list[str]:
    return [s.text for s in get_pipeline()(text).sents]


# ------------------------------------------------------------ a sentence glued to a number


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        (
            "The ground seats 41,733The club moved there in 2004.",
            "The ground seats 41,733",
            "The club moved there in 2004.",
        ),
        (
            "Fenwick, p 212In the spring the mill employed 90 hands.",
            "Fenwick, p 212",
            "In the spring the mill employed 90 hands.",
        ),
        (
            "ISBN 0-306-40615-2On 3 May 2011 the library bought 400 copies.",
            "ISBN 0-306-40615-2",
            "On 3 May 2011 the library bought 400 copies.",
        ),
        (
            "Retrieved 2019After the vote the council met twice.",
            "Retrieved 2019",
            "After the vote the council met twice.",
        ),
    ],
)
def test_a_sentence_glued_to_the_number_before_it_starts_a_sentence(
    text: str, first: str, second: str
) -> None:
    assert _sentences(text) == [first, second]


def test_a_glued_sentence_keeps_its_own_date_and_key() -> None:
    claims = extract("The ground seats 41,733The club moved there in 2004.")
    seats = next(c for c in claims if c.value == 41_733)
    assert seats.time is None or "2004" not in (seats.time.text or "")
    assert "club" not in seats.claim_key
    assert "isbn" not in " ".join(
        c.claim_key
        for c in extract("ISBN 0-306-40615-2In 2011 the library bought 400 copies of the atlas.")
    )


@pytest.mark.parametrize(
    "text",
    [
        "Traces of 10Be were found in the core samples.",
        "A 3He detector was fitted to the probe.",
        "Passengers for Terminal 3A should allow 40 minutes.",
        "The 4Kids channel showed 12 episodes.",
        # a month glued on is a date that lost its space, not a new sentence
        "As of 245March 2020, the fund had paid 12 grants.",
    ],
)
def test_a_short_number_with_a_capital_after_it_stays_one_word(text: str) -> None:
    # isotopes, gates and names: fewer than three characters of number, no seam
    assert len(_sentences(text)) == 1


def test_two_revisions_of_a_glued_figure_are_one_slot() -> None:
    result = check_texts(
        "The ground seats 41,733The club moved there in 2004.",
        "The ground seats 40,120The club moved there in 2004.",
    )
    assert result.relation is Relation.CONFLICT


# ------------------------------------------------------------ a misspelt month


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("As of 7 Jume 2019, the film is the year's tenth biggest earner.", date(2019, 6, 7)),
        ("As of 1 Abril 2020, four provinces had reported no case.", date(2020, 4, 1)),
        ("The plant reopened on Febuary 3, 2021 with 40 staff.", date(2021, 2, 3)),
        ("On Septmber 12, 2018 the ferry carried 610 passengers.", date(2018, 9, 12)),
        ("By 30 Novmber 2022 the appeal had raised 12,000 pounds.", date(2022, 11, 30)),
    ],
)
def test_a_misspelt_month_next_to_a_day_and_a_year_is_that_date(text: str, day: date) -> None:
    # "By 30 Novmber 2022" bounds the claim from above: the day is its end
    dated = [c for c in extract(text) if c.time is not None and day in (c.time.start, c.time.end)]
    assert dated, [(c.claim_key, c.time) for c in extract(text)]
    assert all(c.value != float(day.day) for c in _quantities(text))


def test_a_misspelt_month_before_a_year_is_that_month() -> None:
    (claim,) = _quantities("In Jume 2019 the office hired 12 new staff.")
    assert claim.time is not None
    assert (claim.time.start, claim.time.end) == (date(2019, 6, 1), date(2019, 6, 30))


@pytest.mark.parametrize(
    "word", ["June", "Jun", "Mar", "May", "Jane", "Mary", "Marc", "Julie", "Jule", "jume"]
)
def test_a_word_of_its_own_is_never_a_misspelt_month(word: str) -> None:
    # real months and abbreviations are read as such elsewhere; names and common words are
    # no typo; "Jule" is one edit from both June and July; a lowercase word is no month
    assert misspelt_month(word) is None


def test_a_name_before_a_year_is_no_month() -> None:
    (claim,) = _quantities("The Marc 2019 collection sold 40 pieces in a week.")
    assert claim.time is None or claim.time.start is None or claim.time.start.month == 1


def test_a_date_revised_with_a_misspelt_month_stays_one_slot() -> None:
    result = check_texts(
        "As of 31 May 2019, the film has earned 180 crore worldwide.",
        "As of 7 Jume 2019, the film has earned 195 crore worldwide.",
    )
    assert result.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)


# ------------------------------------------------------------ a size written with "x"


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("The promoters agreed on a 24x24ft ring for the bout.", 24 * 24 * 0.09290304, "m2"),
        ("Each meeting room is 3 x 4 m and has a screen.", 12.0, "m2"),
        ("The water tank is 2x2x2 m and sits on the roof.", 8000.0, "L"),
        ("The stall measured 5 × 6 metres at the fair.", 30.0, "m2"),
    ],
)
def test_a_size_with_a_length_unit_is_an_area_or_a_volume(
    text: str, value: float, unit: str
) -> None:
    (claim,) = _quantities(text)
    assert claim.canonical_unit == unit
    assert claim.canonical_value == pytest.approx(value)


def test_a_size_without_a_length_unit_is_no_area() -> None:
    claims = _quantities("The shed is built from 2x4 planks and 12 sheets of board.")
    assert [c.value for c in claims] == [12]


def test_a_size_revised_in_place_is_a_conflict() -> None:
    result = check_texts(
        "The promoters agreed on a 24x24ft ring for the bout.",
        "The promoters agreed on a 20x20ft ring for the bout.",
    )
    assert result.relation is Relation.CONFLICT


def test_a_bound_before_a_size_bounds_the_area() -> None:
    (claim,) = _quantities("The rules ask for a ring of more than 22x22 ft for title bouts.")
    assert claim.bound is Bound.MORE_THAN
    inside = check_texts(
        "The rules ask for a ring of more than 22x22 ft for title bouts.",
        "The rules ask for a ring of 24x24 ft for title bouts.",
    )
    outside = check_texts(
        "The rules ask for a ring of more than 22x22 ft for title bouts.",
        "The rules ask for a ring of 20x20 ft for title bouts.",
    )
    assert inside.relation is not Relation.CONFLICT
    assert outside.relation is Relation.CONFLICT


# ------------------------------------------------------------ a number inside a name


@pytest.mark.parametrize(
    "text",
    [
        "The update reached 400 million Windows 11 users in March.",
        "The patch went out to Windows 11 users first.",
        "Route 66 staff were told on Monday.",
    ],
)
def test_a_number_inside_a_name_counts_no_lexicon_noun_after_it(text: str) -> None:
    assert all(c.value not in (11.0, 66.0) for c in _quantities(text))


def test_a_counted_lexicon_noun_after_a_plain_number_is_still_counted() -> None:
    claims = _quantities("The shop has 11 users and 40 staff on the rota.")
    assert sorted(c.value for c in claims) == [11, 40]


@pytest.mark.parametrize(
    "text",
    [
        "The new panel shows 1920x1080 pixels at 60 frames a second.",
        "Posters print at 1200x1800 pixels by default.",
    ],
)
def test_a_size_without_a_length_unit_is_no_power_of_ten(text: str) -> None:
    # "x1080" after a number of ten or more is a side, not a lost superscript (10^80)
    assert all(c.canonical_value is None or c.canonical_value < 1e9 for c in _quantities(text))


def test_a_mantissa_times_ten_keeps_its_lost_superscript() -> None:
    (claim,) = _quantities("The culture held 3.7 x 106 cells in each millilitre.")
    assert claim.value == pytest.approx(3.7e6)
    # before a length unit too: a density of 1.5 × 10^12 per cm², not a 1.5 by 1012 cm size
    (density,) = _quantities("The film had a defect density of 1.5×1012 cm−2 after etching.")
    assert density.value == pytest.approx(1.5e12)
