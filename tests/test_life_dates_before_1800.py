"""Dates of a life before 1800 (session 14): the time scanner took a four-digit number for a
year only from 1800 on, so an article about an eighteenth-century peer lost its subject's
birth and death ("(27 April 1699 - 8 February 1774)" gave no date at all, "(1577 - 18 April
1653)" a stray figure 1577). A day and a month name make the number after them a year in
any century; a year standing alone on one side of a life's span is that side's year; a bare
year elsewhere stays a number ("founded in 1542" is the event-date reader's)."""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation


def _read(text: str) -> dict[str, object]:
    return {c.attribute: c.value for c in extract(text, source_id="doc01")}


@pytest.mark.parametrize(
    ("dates", "born", "died"),
    [
        ("27 April 1699 – 8 February 1774", "1699-04-27", "1774-02-08"),
        ("3 May 1601 – 8 June 1660", "1601-05-03", "1660-06-08"),
        ("April 27, 1699 – February 8, 1774", "1699-04-27", "1774-02-08"),
        ("1577 – 18 April 1653", "1577", "1653-04-18"),
        ("c. 1627 – 31 December 1700", "1627", "1700-12-31"),
        ("1577 – 1653", "1577", "1653"),
    ],
)
def test_a_life_before_1800_has_its_dates(dates: str, born: str, died: str) -> None:
    read = _read(f"Edmund Calloway, 1st Baron Ashby ({dates}) was an English landowner.")
    assert read["born"] == born
    assert read["died"] == died
    # the year is the life's, not a figure of the description
    assert not any(isinstance(v, float) for v in read.values()), read


def test_a_death_date_in_prose_before_1800_is_a_date() -> None:
    claims = extract(
        "The old baron died at his house in Stamford on 1 December 1737.", source_id="doc01"
    )
    assert [(c.attribute, c.value) for c in claims if c.attribute == "died"] == [
        ("died", "1737-12-01")
    ]


def test_two_pages_giving_another_birth_day_of_one_peer_conflict() -> None:
    left = "Edmund Calloway (27 April 1699 – 8 February 1774) was an English landowner."
    right = "Edmund Calloway (12 May 1699 – 8 February 1774) was an English landowner."
    result = check_texts(left, right)
    assert result.relation is Relation.CONFLICT, result.reason


def test_near_miss_a_bare_early_year_in_prose_is_still_a_number() -> None:
    # no day or month before it: the count of a village's houses is not a year
    claims = extract("The village had 1577 houses in 1890.", source_id="doc01")
    assert [(c.attribute, c.value) for c in claims if c.value == 1577.0]
