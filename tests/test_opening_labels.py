"""The opening sentence of a reference article: its subject and the labels it states
(claims.extraction.opening), read by the real extraction and asked through ``answer``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.extraction import extract
from claims.models import Claim, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _labels(text: str) -> dict[str, tuple[str | None, str]]:
    """attribute -> (entity, value) of the claims the opening reader adds."""
    found: dict[str, tuple[str | None, str]] = {}
    for claim in extract(text, source_id="doc"):
        if claim.predicate == claim.attribute and claim.subject is not None:
            found.setdefault(claim.attribute, (claim.entity, str(claim.value)))
    return found


def _claims(text: str) -> list[Claim]:
    return extract(text, source_id="doc")


def test_a_film_article_names_its_subject_medium_language_genre_and_director() -> None:
    labels = _labels(
        "Harbour Lights (1998 film) Harbour Lights is a 1998 Welsh-language drama film "
        "directed by Gwen Rees. The film was shot in Cardiff over six weeks."
    )
    entity = "harbour light (1998 film)"
    assert labels["medium"] == (entity, "film")
    assert labels["language"] == (entity, "Welsh-language")
    assert labels["genre"] == (entity, "drama film")
    assert labels["director"] == (entity, "Gwen Rees")


def test_a_person_with_dates_in_brackets_has_birth_death_occupation_and_sport() -> None:
    labels = _labels(
        "Tomik Vell Tomik Arvid Vell (3 March 1921 \u2013 9 October 1990) was a Norwegian "
        "cross-country skier and coach. He won two national titles."
    )
    assert labels["born"] == ("tomik vell", "1921-03-03")
    assert labels["died"] == ("tomik vell", "1990-10-09")
    assert labels["occupation"] == ("tomik vell", "cross-country skier and coach")
    assert labels["sport"] == ("tomik vell", "skiing")


def test_a_month_and_year_life_and_a_born_bracket_keep_their_precision() -> None:
    labels = _labels(
        'Ned Corrie (footballer) Edward "Ned" Corrie (June 1890 \u2013 April 1951) was an '
        "English footballer who played as a goalkeeper."
    )
    assert labels["born"] == ("ned corrie (footballer)", "1890-06")
    assert labels["died"] == ("ned corrie (footballer)", "1951-04")
    assert labels["sport"] == ("ned corrie (footballer)", "football")
    labels = _labels("Ida Brandt (born 14 May 1979) is a Danish singer and songwriter.")
    assert labels["born"] == ("ida brandt", "1979-05-14")
    assert labels["occupation"] == ("ida brandt", "singer and songwriter")


def test_an_album_by_a_band_names_the_band_not_its_description() -> None:
    labels = _labels(
        "Quiet Hours is the second studio album by Scottish folk band The Lowland Reeds, "
        "released in 2004 on Tidewater Records."
    )
    assert labels["artist"] == ("quiet hour", "The Lowland Reeds")
    assert labels["medium"] == ("quiet hour", "album")


def test_a_place_based_in_a_city_has_that_location() -> None:
    labels = _labels(
        "Coastline Air Coastline Air was an airline based in Galway, Ireland. It flew "
        "turboprops to the islands."
    )
    assert labels["location"] == ("coastline air", "Galway, Ireland")


def test_a_page_cut_from_the_middle_of_an_article_has_no_subject() -> None:
    claims = _claims(
        "the team won silver at the regional games in 2008 and was relegated. It has a "
        "population of 4,411."
    )
    assert all(c.subject is None or c.predicate != c.attribute for c in claims)
    population = [c for c in claims if c.attribute == "population"]
    assert population and all(c.entity is None for c in population)


def test_a_claim_naming_no_entity_is_about_the_articles_subject() -> None:
    claims = _claims("Pilzno is a town in southern Poland. It has a population of 4,411.")
    population = [c for c in claims if c.attribute == "population"]
    assert [(c.entity, c.claim_key, c.value) for c in population] == [
        ("pilzno", "pilzno population", 4411.0)
    ]


def test_a_label_no_value_cue_marks_answers_the_question(engine: Engine) -> None:
    _load(
        engine,
        {
            "film": "Harbour Lights (1998 film) Harbour Lights is a 1998 Welsh drama film "
            "directed by Gwen Rees. It was shot in Cardiff.",
            "album": "Quiet Hours Quiet Hours is the second studio album by Scottish folk "
            "band The Lowland Reeds, released in 2004.",
        },
    )
    result = answer(engine, 'Who is the director of the film "Harbour Lights"?', ANYONE)
    assert (result.status, result.value, result.citations) == (
        AnswerStatus.ANSWERED,
        "Gwen Rees",
        ["film"],
    ), result.reason
    result = answer(engine, 'Who is the artist of the album "Quiet Hours"?', ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, "The Lowland Reeds")


@pytest.mark.parametrize(
    "question",
    ["When was General Hartigan born?", "When was Brendan Hartigan born?"],
)
def test_a_person_asked_by_title_and_surname_or_first_and_last_name(
    engine: Engine, question: str
) -> None:
    _load(
        engine,
        {
            "bio": "Brendan P. Hartigan Lieutenant General Brendan Patrick Hartigan (4 May "
            "1902 \u2013 1 June 1979) was an Irish Army officer.",
        },
    )
    result = answer(engine, question, ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, "1902-05-04"), result.reason


def test_a_swapped_value_in_a_copy_of_the_article_is_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Harbour Lights (1998 film) Harbour Lights is a 1998 Welsh drama film "
            "directed by Gwen Rees.",
            "copy": "Harbour Lights (1998 film) Harbour Lights is a 1998 Welsh drama film "
            "directed by Owen Pryce.",
        },
    )
    result = answer(engine, "Who directed Harbour Lights?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == ["Gwen Rees", "Owen Pryce"]


def test_two_films_of_one_name_are_two_entities_not_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "film-1941": "Devika (1941 film) Devika is a 1941 Telugu drama film directed by "
            "R. Subba Rao.",
            "film-1978": "Devika (1978 film) Devika is a 1978 Hindi film directed by "
            "K. Mohan.",
        },
    )
    result = answer(engine, 'What is the language of the film "Devika"?', ANYONE)
    # the question does not say which film: each film is answered, as two entities
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None
    assert "devika (1941 film)" in result.reason and "devika (1978 film)" in result.reason
    assert {side.entity for side in result.sides} == {"devika (1941 film)", "devika (1978 film)"}
    with engine.connect() as conn:
        from sqlalchemy import text

        conflicts = conn.execute(
            text("SELECT count(*) FROM edges WHERE kind = 'conflicts'")
        ).scalar_one()
    assert conflicts == 0


def test_a_politicians_party_is_read_from_the_phrase_only_when_capitalised() -> None:
    labels = _labels(
        "Orla Fenwick Orla Fenwick (born 2 June 1961) is a Republican member of the Vermont "
        "House of Representatives."
    )
    assert labels["political party"] == ("orla fenwick", "Republican")
    labels = _labels(
        "Silvan Orme (9 May 1841 \u2013 3 March 1911) was a British Liberal Party politician."
    )
    assert labels["political party"] == ("silvan orme", "Liberal Party")
    labels = _labels("Dana Pell (born 1970) is a liberal economist and author.")
    assert "political party" not in labels


@pytest.mark.parametrize(
    "text",
    [
        "Contractors are paid within 45 days of the invoice date.",
        "There were 40 people in the meeting room.",
        "Thanks, the notice period is 30 days.",
    ],
)
def test_a_capitalised_first_word_is_no_subject(text: str) -> None:
    claims = _claims(text)
    assert claims
    assert all(c.entity is None for c in claims if c.kind.value == "quantity")


def test_a_lead_in_phrase_is_no_subject() -> None:
    claims = _claims("In the EU, the retention period is 30 days.")
    assert [(c.entity, c.claim_key) for c in claims] == [(None, "retention period")]


def test_an_article_opening_after_page_furniture_states_its_labels() -> None:
    # a scraped page: menu words and an infobox dump before the article's first sentence
    text = (
        "Main menu Navigation Contents Released 14 March 2004 Label = Tidewater Records "
        "Next album = `` Low Tide '' ( 2006 ) `` Quiet Hours `` is the second studio album "
        "by Scottish folk band The Lowland Reeds. The band toured Europe for 40 days."
    )
    labels = _labels(text)
    # no title tells this album from its namesakes: its subject is the one named in this page
    assert labels["artist"] == ("quiet hour (in doc)", "The Lowland Reeds")
    assert labels["medium"] == ("quiet hour (in doc)", "album")
    claims = _claims(text)
    # a later sentence about another subject (the band, not "it" or "the album"): no entity
    days = [c for c in claims if c.value == 40.0]
    assert days and all(c.entity is None for c in days)


def test_a_person_opening_after_headings_has_the_dates_of_a_life() -> None:
    labels = _labels(
        "Contents Early life Career Later life References External links Silvan Orme ( 9 "
        "May 1841 \u2013 3 March 1911 ) was a British Liberal Party politician. He sat for "
        "Hexham."
    )
    assert labels["born"] == ("silvan orme (in doc)", "1841-05-09")
    assert labels["died"] == ("silvan orme (in doc)", "1911-03-03")
    assert labels["political party"] == ("silvan orme (in doc)", "Liberal Party")


def test_a_description_in_the_middle_of_a_page_is_no_late_opening() -> None:
    # no label (a bare role) and a pronoun subject: nothing to read as an opening
    claims = _claims(
        "the team won the regional games in 2008. He was a member of the club for ten years. "
        "It has a population of 4,411."
    )
    assert all(c.entity is None for c in claims if c.attribute == "population")
    assert not [c for c in claims if c.attribute in ("occupation", "medium", "born")]


def test_a_swapped_value_in_an_opening_after_furniture_is_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "article": "Quiet Hours (album) Quiet Hours is the second studio album by "
            "Scottish folk band The Lowland Reeds.",
            "copy": "Tracks Personnel Released : March 14, 2004 Quiet Hours is the second "
            "studio album by Scottish folk band The Harbour Choir.",
        },
    )
    result = answer(engine, 'Who is the artist of the album "Quiet Hours"?', ANYONE)
    # the copy's subject is not known to be the titled album, nor another one: both named
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == [
        "The Harbour Choir",
        "The Lowland Reeds",
    ]


def test_two_pages_naming_namesakes_without_a_title_are_no_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "footballer": "From Wikipedia, the free encyclopedia Frederick Groves ( 6 May "
            "1892 \u2013 31 December 1980 ) was an English footballer.",
            "politician": "From Wikipedia, the free encyclopedia Frederick Groves ( 28 "
            "January 1924 \u2013 28 January 1995 ) was an English politician.",
        },
    )
    with engine.connect() as conn:
        from sqlalchemy import text

        conflicts = conn.execute(
            text("SELECT count(*) FROM edges WHERE kind = 'conflicts'")
        ).scalar_one()
    assert conflicts == 0
    result = answer(engine, "When was Frederick Groves born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert "frederick groves (in footballer)" in result.reason


def test_a_singers_voice_type_is_her_occupation() -> None:
    # no dates in brackets: only the head noun says the subject is a person with a trade
    labels = _labels(
        "Marta Lindqvist Marta Lindqvist is a Swedish operatic mezzo-soprano. She sang Carmen "
        "at the Royal Opera in Stockholm."
    )
    assert labels["occupation"] == ("marta lindqvist", "operatic mezzo-soprano")
    labels = _labels("Erik Dahl is a Norwegian tenor who sang at the Oslo opera house.")
    assert labels["occupation"] == ("erik dahl", "tenor")


def test_a_voice_type_set_against_another_trade_is_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "doc01": "Marta Lindqvist Marta Lindqvist is a Swedish operatic mezzo-soprano.",
            "doc02": "Marta Lindqvist is a Swedish professional basketball player.",
        },
    )
    result = answer(engine, "What is the profession of Marta Lindqvist?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert {s.value: s.source_ids for s in result.sides} == {
        "operatic mezzo-soprano": ["doc01"],
        "professional basketball player": ["doc02"],
    }
