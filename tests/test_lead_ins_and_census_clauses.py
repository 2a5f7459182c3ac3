"""Sentence openings that are not the subject, and census sentences that state several
figures (issue 13, session 10).

"A graduate of ..., he was elected in 1954", "As of the 1991 census, Oakvale had a
population of ...": the opening describes the subject or dates the count, and read as the
subject it made "graduate" or "census" the entity. "The gmina covers an area of ..., and
its total population is ... (out of which the population of Brzeg amounts to ...)": each
clause states its own figure. Each class is checked both ways."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract
from claims.models import Claim, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])

PERSON_PAGE = (
    "Harold Quimby (March 3, 1911 \u2013 June 9, 1988) was a Republican member of the "
    "Vermont House of Representatives. A graduate of Middlebury College and Dartmouth "
    "College, he was first elected to the House in {year} to represent Addison County, "
    "Vermont, and served four terms."
)

TOWN_PAGE = (
    "Oakvale Upazila Oakvale is an upazila of Tarn District in Bangladesh. It has 30,100 "
    "households. As of the 1991 Bangladesh census, Oakvale had a population of {people}. "
    "Males constituted 51.2% of the population."
)

GMINA_PAGE = (
    "Gmina Brzeg Mały Gmina Brzeg Mały is a rural gmina in southern Poland. The gmina covers "
    "an area of 120 square kilometres, and as of 2006 its total population is 15,800 (out "
    "of which the population of Lesko Dolne amounts to {town}, and the population of the "
    "country part of the gmina is 9,600)."
)


def _claims(text: str) -> list[Claim]:
    return extract(text, source_id="doc")


# --- an appositive opening ("A graduate of ..., he ...")


def test_a_graduate_opening_leaves_the_person_as_the_subject() -> None:
    claims = _claims(PERSON_PAGE.format(year=1954))
    elected = [c for c in claims if c.value == "1954"]
    assert elected and all(c.entity == "harold quimby" for c in elected)
    # neither the opening's words nor the place after the date are the subject
    assert all(c.entity not in ("graduate", "vermont", "county vermont") for c in claims)


def test_the_page_says_he_was_elected_in_one_year_and_a_copy_in_another(
    engine: Engine,
) -> None:
    _load(
        engine,
        {"article": PERSON_PAGE.format(year=1954), "copy": PERSON_PAGE.format(year=1962)},
    )
    question = "When was Harold Quimby elected to the Vermont House of Representatives?"
    result = answer(engine, question, ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == ["1954", "1962"]


def test_a_sentence_whose_subject_follows_a_plain_comma_keeps_its_subject() -> None:
    # "In the town of Marlow, ...": no lead-in of lead_ins.yaml; the town names the count
    claims = _claims("In the town of Marlow, there were 640 people in 1990.")
    people = [c for c in claims if c.value == 640.0]
    assert people and all(c.entity == "marlow" for c in people)


# --- a census opening ("As of the 1991 census, X had ...")


def test_the_place_after_a_census_opening_is_the_subject() -> None:
    claims = _claims(TOWN_PAGE.format(people="212,400"))
    counted = [c for c in claims if c.value == 212400.0]
    # the page's subject ("oakvale upazila"), the name the sentence uses
    assert counted and all(c.entity in ("oakvale", "oakvale upazila") for c in counted)
    assert all(c.attribute == "population" for c in counted)
    assert not [c for c in claims if c.entity and "census" in c.entity]


def test_a_census_opening_answers_the_population_question(engine: Engine) -> None:
    _load(engine, {"page": TOWN_PAGE.format(people="212,400")})
    result = answer(engine, "What is the population of Oakvale?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, 212400.0), result.reason


def test_two_copies_with_different_census_figures_are_a_conflict(engine: Engine) -> None:
    _load(
        engine,
        {"page": TOWN_PAGE.format(people="212,400"), "copy": TOWN_PAGE.format(people="98,000")},
    )
    result = answer(engine, "What is the population of Oakvale?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(float(str(side.value)) for side in result.sides) == [98000.0, 212400.0]


def test_a_date_opening_without_a_census_keeps_its_words() -> None:
    # "In the winter of 1990, Marlow had ...": only a census opening is dropped as a source
    claims = _claims("In the spring of the Marlow fair, the hall had 45 stalls.")
    stalls = [c for c in claims if c.value == 45.0]
    assert stalls and all("fair" in (c.claim_key or "") for c in stalls)


# --- several clauses, each with its own figure


def test_a_bracket_of_which_states_the_town_figure_under_the_town() -> None:
    claims = _claims(GMINA_PAGE.format(town="6,200"))
    town = [c for c in claims if c.value == 6200.0]
    assert [(c.entity, c.attribute) for c in town] == [("lesko dolne", "population")]
    total = [c for c in claims if c.value == 15800.0]
    assert [c.attribute for c in total] == ["population"]
    assert all(c.entity != "lesko dolne" for c in total)  # the gmina's, not the town's


def test_the_town_population_question_gets_the_town_figure(engine: Engine) -> None:
    _load(engine, {"page": GMINA_PAGE.format(town="6,200")})
    result = answer(engine, "What is the population of Lesko Dolne?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, 6200.0), result.reason


def test_a_list_of_counts_joined_by_and_stays_one_clause() -> None:
    claims = _claims(
        "As of the census of 2000, there were 4,120 people, 1,630 households, and 1,105 "
        "families residing in the city."
    )
    people = [c for c in claims if c.value == 4120.0]
    families = [c for c in claims if c.value == 1105.0]
    assert people and people[0].attribute == "population"
    assert families and families[0].attribute != "population"


# --- the figures of a census paragraph that are not the population


def test_an_age_group_count_is_not_the_population() -> None:
    claims = _claims(
        TOWN_PAGE.format(people="212,400") + " This Upazila's eighteen up population is 101,300."
    )
    adults = [c for c in claims if c.value == 101300.0]
    assert adults and all(c.attribute != "population" for c in adults)
    total = [c for c in claims if c.value == 212400.0]
    assert total and all(c.attribute == "population" for c in total)


def test_an_age_group_count_never_answers_the_population_question(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Oakvale Upazila Oakvale is an upazila of Tarn District in Bangladesh. "
            "This Upazila's eighteen up population is 101,300.",
        },
    )
    result = answer(engine, "What is the population of Oakvale Upazila?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)


def test_a_census_that_counted_people_answers_the_population_question(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Ashby Township, Lorne County, Ohio Ashby Township is one of the twelve "
            "townships of Lorne County, Ohio, United States. Its 2010 census counted 2,215 "
            "people in the township.",
        },
    )
    result = answer(engine, "What is the population of Ashby Township, Ohio?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, 2215.0), result.reason


def test_a_census_that_counted_households_does_not_answer_it(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Ashby Township, Lorne County, Ohio Ashby Township is one of the twelve "
            "townships of Lorne County, Ohio, United States. Its 2010 census counted 830 "
            "households in the township.",
        },
    )
    result = answer(engine, "What is the population of Ashby Township, Ohio?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)


# --- a change restated in brackets, a name with a possessive


def test_a_count_in_brackets_after_a_change_is_the_change() -> None:
    claims = _claims(
        "Ferrow is a commune in Chile. The population grew by 12.4% (2,310 persons) between "
        "the 1992 and 2002 censuses."
    )
    grown = [c for c in claims if c.value == 2310.0]
    assert grown and all(c.attribute == "population change" for c in grown)


def test_a_count_in_brackets_after_a_level_stays_a_level() -> None:
    claims = _claims("Ferrow is a commune in Chile. The population was 18,420 (2,310 households).")
    level = [c for c in claims if c.value == 18420.0]
    assert level and all(c.attribute == "population" for c in level)
    assert all(c.attribute != "population change" for c in claims)


def test_an_opening_name_with_a_possessive_is_the_subject() -> None:
    claims = _claims(
        "People's Unity Movement The People's Unity Movement is a political party in Fiji. "
        "It was founded in 1984."
    )
    founded = [c for c in claims if c.attribute == "founded"]
    assert founded and all(c.entity == "people unity movement" for c in founded)


def test_a_possessive_phrase_starting_a_sentence_is_no_subject() -> None:
    claims = _claims("Before the war's end, the mill was bombed. It was rebuilt in 1950.")
    assert all(c.entity is None or "war" not in c.entity for c in claims)


# --- a unit named after its seat


SEAT_PAGE = (
    "Oakvale Oakvale is an upazila of Tarn District in Bangladesh. As of the 1991 "
    "Bangladesh census, Oakvale had a population of 212,400."
)


def test_an_upazila_question_finds_the_page_naming_its_seat(engine: Engine) -> None:
    _load(engine, {"page": SEAT_PAGE})
    result = answer(engine, "What is the population of Oakvale Upazila?", ANYONE)
    assert (result.status, result.value) == (AnswerStatus.ANSWERED, 212400.0), result.reason


def test_a_township_of_the_same_name_is_another_place(engine: Engine) -> None:
    _load(engine, {"page": SEAT_PAGE})
    result = answer(engine, "What is the population of Oakvale Township?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)


def test_a_share_of_the_population_over_an_age_is_read_without_error() -> None:
    # the attribute comes from the of-phrase: no attribute word to look before
    claims = _claims("In Marlow, 12% of the population are over 65.")
    assert [c.value for c in claims if c.unit == "%"] == [12.0]
