"""A claim of an article's opening sentence whose subject the sentence parser read with the
title's brackets in it (session 14): "Harbour Lights (album) Harbour Lights (sometimes
subtitled "Songs from the Coast") is a compilation album, released by Tidewater Records on
3 March 2009" gave the release date to "harbour light album sometime subtitle song"; the
opening reader knows the subject is "harbour lights (album)" (claims/extraction/opening.py
``_extends_a_name``). A longer name in a later sentence is another thing."""

from __future__ import annotations

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation

OPENING = (
    'Harbour Lights (album) Harbour Lights (sometimes subtitled "Songs from the Coast, '
    'Volume One") is a compilation album, released by Tidewater Records on {date}. It '
    "collects fourteen songs about the sea."
)


def test_the_release_date_of_an_opening_with_an_aside_is_the_subjects() -> None:
    claims = extract(OPENING.format(date="3 March 2009"), source_id="doc01")
    released = [c for c in claims if c.value == "2009-03-03"]
    assert released, [(c.claim_key, c.value) for c in claims]
    assert {c.entity for c in released} == {"harbour light (album)"}


def test_a_copy_without_the_aside_and_another_date_disputes_the_subjects_date() -> None:
    plain = (
        "Harbour Lights (album) Harbour Lights is a compilation album, released by "
        "Tidewater Records on 1 May 2010. It collects fourteen songs about the sea."
    )
    result = check_texts(OPENING.format(date="3 March 2009"), plain)
    # one slot: the copy states no aside, so the scope is stated on one side only
    assert result.relation in (Relation.CONFLICT, Relation.AMBIGUOUS), result.reason
    assert "2009-03-03" in result.reason and "2010-05-01" in result.reason


def test_near_miss_a_longer_name_after_the_opening_stays_its_own() -> None:
    claims = extract(
        "Harbour Lights (album) Harbour Lights is a compilation album. Harbour Lights "
        "Festival was founded in 1998.",
        source_id="doc01",
    )
    assert "harbour light festival" in {c.entity for c in claims if c.value == "1998"}


def test_a_name_ending_with_a_year_keeps_it_for_the_release_date() -> None:
    # the sentence parser reads the name's "2009" as a time and keys "harbour light"; the
    # opening's subject is the 2009 edition, not the album without a year
    claims = extract(
        "Harbour Lights 2009 Harbour Lights 2009 is the second compilation album in the "
        "series, released by Tidewater Records on 3 March 2009.",
        source_id="doc01",
    )
    released = [c for c in claims if c.value == "2009-03-03"]
    assert {c.entity for c in released} == {"harbour light 2009"}
