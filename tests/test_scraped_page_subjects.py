"""Scraped reference pages: the subject a page defines further down, the sentences that refer
back to it, and questions that name it by part of its name (issue 13, session 9).

Each class is checked both ways: the case that now finds its subject or answer, and a near
miss that must stay apart (another subject, a namesake, page furniture)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.extraction import extract as extract_any
from claims.models import Claim, EntityRef, Requester
from claims.profiles import profile_named
from retrieval.answer import answer
from retrieval.candidates import entity_fit
from retrieval.contract import AnswerStatus
from retrieval.name_forms import names_read_as

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")
_load = partial(load_any, profile="reference")


@pytest.fixture(autouse=True)
def _names_read_as_reference_pages() -> Iterator[None]:
    """Names matched as the reference profile matches them (familiar forms, spellings)."""
    with names_read_as(profile_named("reference").name_forms):
        yield


ANYONE = Requester(principal="anyone", groups=[])

# a page cut from the middle of an article: menu words and a box before its first sentence
ALBUM_PAGE = (
    "Main menu Navigation Contents Label = Fernhill Records Next album = `` Salt Roads '' "
    "( 2009 ) `` Lantern Season `` is the third studio album by Irish folk group The "
    "Corrib Pipers. It was released in 2007 and reached number 9 in Ireland. The record "
    "sold 25,000 copies. The band toured Canada for 40 days. He was born in 1960."
)


def _claims(text: str, source_id: str = "doc") -> list[Claim]:
    return extract(text, source_id=source_id)


# --- sentences after a late opening that refer back to its subject


def test_it_and_the_album_after_a_late_opening_are_its_subject() -> None:
    claims = _claims(ALBUM_PAGE)
    subject = "lantern season (in doc)"
    released = [c for c in claims if c.value == "2007"]
    copies = [c for c in claims if c.value == 25000.0]
    assert released and all(c.entity == subject for c in released)
    assert copies and all(c.entity == subject for c in copies)  # "The record" is the album


def test_another_subject_or_a_pronoun_of_a_person_after_an_album_is_not_its_subject() -> None:
    claims = _claims(ALBUM_PAGE)
    days = [c for c in claims if c.value == 40.0]  # the band, not the album
    born = [c for c in claims if c.attribute == "born"]  # "He" is no album
    assert days and all(c.entity is None for c in days)
    assert born and all(c.entity is None for c in born)


def test_he_after_a_late_opening_of_a_person_is_that_person() -> None:
    claims = _claims(
        "Contents Early life Career References External links Torvald Prine ( 2 June 1850 "
        "\u2013 9 May 1921 ) was a Norwegian shipowner and politician. He served 12 years "
        "in the Storting. It was a hard winter in 1881."
    )
    served = [c for c in claims if c.value == 12.0]
    assert served and all(c.entity == "torvald prine (in doc)" for c in served)
    winter = [c for c in claims if c.value == "1881" or c.value == 1881.0]
    assert all(c.entity != "torvald prine (in doc)" for c in winter)  # "It" is no person


def test_furniture_before_a_late_opening_is_not_about_its_subject() -> None:
    claims = _claims(
        "Tracks Personnel Chart positions 12 weeks `` Lantern Season `` is the third studio "
        "album by Irish folk group The Corrib Pipers. It was released in 2007."
    )
    weeks = [c for c in claims if c.value == 12.0]
    assert all(c.entity != "lantern season (in doc)" for c in weeks)


def test_a_swapped_year_stated_after_a_late_opening_is_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Lantern Season (album) Lantern Season is the third studio album by "
            "Irish folk group The Corrib Pipers. It was released in 2007.",
            "copy": "Tracks Personnel Next album = `` Salt Roads '' ( 2009 ) `` Lantern "
            "Season `` is the third studio album by Irish folk group The Corrib Pipers. It "
            "was released in 2011.",
        },
    )
    result = answer(engine, 'When was the album "Lantern Season" released?', ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == ["2007", "2011"]
    assert sorted(result.citations) == ["article", "copy"]


def test_the_same_year_stated_after_a_late_opening_is_one_answer(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Lantern Season (album) Lantern Season is the third studio album by "
            "Irish folk group The Corrib Pipers. It was released in 2007.",
            "copy": "Tracks Personnel Next album = `` Salt Roads '' ( 2009 ) `` Lantern "
            "Season `` is the third studio album by Irish folk group The Corrib Pipers. It "
            "was released in 2007.",
        },
    )
    result = answer(engine, 'When was the album "Lantern Season" released?', ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "2007"), result.reason


# --- a question naming its subject by part of the name


def test_a_name_no_dictionary_knows_finds_the_longer_name_it_ends() -> None:
    assert entity_fit("marchetti", "yvonne marchetti") > 0
    assert entity_fit("skyhawk", "vantner skyhawk") > 0
    # ... below the name written out, so a page naming it in full wins over a surname
    assert entity_fit("marchetti", "yvonne marchetti") < entity_fit("marchetti", "marchetti")


def test_a_common_noun_or_furniture_ending_with_the_name_is_not_it() -> None:
    assert entity_fit("mill", "harlow mill") == 0.0  # a dictionary word names no one thing
    assert entity_fit("wkrz", "public file webcast listen live website wkrz") == 0.0
    assert entity_fit("harlow mill", "north harlow mill") == 0.0  # another mill


def test_a_page_named_subject_fits_no_better_than_a_titled_namesake() -> None:
    # the stored reference says the subject is local to its source, as data
    assert entity_fit(
        "lantern season", EntityRef(name="lantern season", local_to="doc03")
    ) == entity_fit("lantern season", EntityRef(name="lantern season", qualifier="album"))
    assert entity_fit("pell street station", EntityRef(name="pell street", local_to="doc01")) > 0
    assert entity_fit("pell street station", EntityRef(name="pell road", local_to="doc01")) == 0.0


def test_a_surname_question_is_answered_from_the_full_name(engine: Engine) -> None:
    _load(
        engine,
        {
            "bio": "Yvonne Marchetti Yvonne Marchetti (born 3 March 1951) is a Canadian "
            "politician. She was elected as a member of the Ontario Liberal Party in 1990.",
            "other": "Oskar Lindqvist (born 1948) is a Swedish politician. He was elected as "
            "a member of the Moderate Party.",
        },
    )
    result = answer(engine, "What political party does Marchetti belong to?", ANYONE)
    assert (result.status, result.citations) == (AnswerStatus.ANSWERED, ["bio"]), result.reason
    assert "Liberal" in str(result.value)


# --- question shapes that name the entity between the question's words


def test_questions_with_a_trailing_qualifier_keep_the_entity_apart() -> None:
    from claims.extraction import parse_question

    sport = parse_question("What sport does Ottilie Brannagh play?")
    assert (sport.entity, sport.attribute) == ("ottilie brannagh", "sport")
    elected = parse_question("When was Ralph Osgood elected to the Vermont Senate?")
    assert (elected.entity, elected.answer_type) == ("ralph osgood", "date")
    census = parse_question("What is the population of Tarrow according to the 2011 census?")
    assert (census.entity, census.attribute) == ("tarrow", "population")
    assert census.time.start is not None and census.time.start.year == 2011
    opened = parse_question("When did Pell Street station open?")
    assert (opened.entity, opened.attribute) == ("pell street station", "opened")


def test_a_place_named_with_its_state_keeps_the_state() -> None:
    from claims.extraction import parse_question

    # "in" before a name is part of where the place is, not a census or a year
    frame = parse_question("What is the population of Tarrow in Kent?")
    assert "kent" in (frame.entity or "") or "kent" in frame.scope_residual


# --- a page cut from its article names its subject only by what it is ("The club")


def test_the_club_on_a_page_with_no_opening_answers_for_the_asked_club(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "reached the county cup final twice . The club was founded in 1968 by "
            "dock workers . Its first ground was a field by the river .",
        },
    )
    result = answer(engine, "When was Harwick Rovers F.C. established?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1968"), result.reason


def test_a_name_of_its_own_never_answers_for_another_club(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "reached the county cup final twice . Dunmore Athletic was founded in "
            "1968 by dock workers . Its first ground was a field by the river .",
        },
    )
    result = answer(engine, "When was Harwick Rovers F.C. established?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, result.reason
    assert entity_fit("harwick rovers f.c", "club") > 0
    assert entity_fit("harwick rovers f.c", "dunmore athletic") == 0.0
