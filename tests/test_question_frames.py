"""Question frames: reference questions ("When was X born?", "What is the population of X?")
read as entity + attribute + answer type, and answered from real extraction of articles."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.extraction import parse_question
from claims.extraction.question_frames import match_frame
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


@pytest.mark.parametrize(
    ("question", "entity", "attribute", "answer_type"),
    [
        ("When was General Hartigan born?", "general hartigan", "born", "date"),
        ("When did Louis Marchetti die?", "louis marchetti", "died", "date"),
        ("When was the City of Harlow Bay established?", "harlow bay", "founded", "date"),
        ("When was the Grey Mill built?", "grey mill", "built", "date"),
        ("What is the birth date of Maura Keane?", "maura keane", "born", "date"),
        ("How many people live in Lakeview?", "lakeview", "population", "count"),
        ("What is the population of Springfield, Illinois?", "springfield, illinois",
         "population", "count"),
        ("What is the median age in Fort Carrow?", "fort carrow", "age", "duration"),
        ('Who is the director of the film "A Quiet Harbour"?', "quiet harbour", "director",
         "label"),
        ("Who directed Quiet Harbour?", "quiet harbour", "director", "label"),
        ("What sport is Dana Whitcombe associated with?", "dana whitcombe", "sport", "label"),
        ("What political party was Senator Orme affiliated with?", "senator orme",
         "political party", "label"),
        ("What is the engine size of the K-Trail?", "k trail", "engine size", None),
        # session 15: a count a thing has
        ("How many branch offices does the Harlow Savings Bank have?", "harlow saving bank",
         "branch office", "count"),
    ],
)  # fmt: skip
def test_reference_questions_read_entity_attribute_and_type(
    question: str, entity: str, attribute: str, answer_type: str | None
) -> None:
    frame = parse_question(question)
    assert (frame.entity, frame.attribute, frame.answer_type) == (entity, attribute, answer_type)
    assert frame.claim_key == attribute


def test_a_question_of_no_known_shape_is_left_to_the_parser() -> None:
    assert match_frame("How long is the notice period in the first year?") is None
    assert match_frame("Who is Dana Whitcombe?") is None  # no attribute to ask for
    # the parser's qualifiers stay qualifiers, not part of the name or the attribute
    frame = parse_question("What was Moallu's Q1 dividend?")
    assert (frame.entity, frame.claim_key, frame.scope) == ("moallu", "dividend", {"period": "q1"})
    frame = parse_question("What is the interactive assistant's output limit?")
    assert frame.claim_key == "output limit"
    assert frame.scope == {"request_type": "interactive"}


def test_a_place_name_word_is_a_name_not_a_scope() -> None:
    frame = parse_question("What sport is China Harbour FC associated with?")
    assert frame.scope == {}
    assert frame.entity is not None and frame.entity.startswith("china harbour")


TOWN = (
    "Millbrook, Vermont\n\n"
    "Millbrook is a town in Example County, Vermont. The population was 2,415 at the 2010 "
    "census, up from 2,180 at the 2000 census. As of the census of 2000, there were 2,180 "
    "people, 901 households, and 610 families residing in the town. The median age in the "
    "town was 41.3 years. Of residents 21.4% were under the age of 18 and 17.0% were 65 "
    "years of age or older."
)
GENERAL = (
    "Edwin Hartigan\n\n"
    "General Edwin Marlowe Hartigan was a United States Army officer who served in the "
    "Second World War. Hartigan was born in Dover, Delaware on {born}. He retired in 1958."
)


@pytest.mark.parametrize(
    "question",
    [
        "What is the population of Millbrook?",
        "How many people live in Millbrook?",
        "What is the population of Millbrook, Vermont?",
    ],
)
def test_a_town_article_answers_its_population_with_the_latest_census(
    engine: Engine, question: str
) -> None:
    _load(engine, {"millbrook-article": TOWN})
    result = answer(engine, question, ANYONE)
    # 2,180 is the 2000 figure (history, not a disagreement); 901 counts households
    assert (result.status, result.value, result.unit) == (AnswerStatus.ANSWERED, 2415, None)
    assert result.citations == ["millbrook-article"]


def test_the_median_age_is_the_measure_asked_not_another_age(engine: Engine) -> None:
    _load(engine, {"millbrook-article": TOWN})
    result = answer(engine, "What is the median age in Millbrook?", ANYONE)
    # "65 years of age or older" is an age too, but not the median the question names
    assert (result.status, result.value, result.unit) == (AnswerStatus.ANSWERED, 41.3, "years")


def test_a_short_name_in_the_text_answers_for_the_full_name_and_both_sides_are_cited(
    engine: Engine,
) -> None:
    _load(
        engine,
        {
            "hartigan-article": GENERAL.format(born="March 3, 1902"),
            "hartigan-copy": GENERAL.format(born="June 9, 1906"),
        },
    )
    result = answer(engine, "When was General Hartigan born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(result.citations) == ["hartigan-article", "hartigan-copy"]
    assert sorted(str(side.value) for side in result.sides) == ["1902-03-03", "1906-06-09"]


def test_a_question_about_another_name_is_not_answered_by_this_article(engine: Engine) -> None:
    _load(engine, {"hartigan-article": GENERAL.format(born="March 3, 1902")})
    result = answer(engine, "When was General Fairweather born?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, result.reason


def test_a_general_no_and_a_narrower_yes_are_both_cited(engine: Engine) -> None:
    _load(
        engine,
        {
            "staff-handbook": "Locker keys are transferable between employees, as long as "
            "reception is told.",
            "facilities-email": "Hello all. Please note: locker keys are not transferable.",
        },
    )
    result = answer(engine, "Are locker keys transferable?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(result.citations) == ["facilities-email", "staff-handbook"]
    # the negated sentence is shown negated, never as a bare "transferable"
    assert sorted(str(side.value) for side in result.sides) == [
        "not transferable",
        "transferable",
    ]


def test_a_direction_asked_as_a_choice_names_both_directions(engine: Engine) -> None:
    _load(
        engine,
        {
            "board-note": "Staff turnover went down in June, after the pay review.",
            "hr-email": "Staff turnover went up in June, mostly in the support team, and we "
            "are looking into the reasons with the team leads.",
        },
    )
    result = answer(engine, "Did staff turnover go up or down in June?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(result.citations) == ["board-note", "hr-email"]


def test_a_longer_name_that_ends_with_the_asked_one_is_another_thing(engine: Engine) -> None:
    _load(
        engine,
        {
            "harlow-mill": "Harlow Mill\n\nHarlow Mill is a watermill in Kent. It was built "
            "about 1835 and it is a two-storey brick building.",
            "north-harlow-mill": "North Harlow Mill was built in 1790 by the Parr family.",
        },
    )
    result = answer(engine, "When was Harlow Mill built?", ANYONE)
    # "north harlow mill" is another mill: it neither answers nor hides the article's claim
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1835"), result.reason
    assert result.citations == ["harlow-mill"]


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("What is the population of Winston-Salem?", "Winston-Salem had 249,545 residents."),
        ("What is the battery life of the K-7?", "The K-7 battery lasts 9 hours."),
    ],
)
def test_a_hyphenated_name_in_a_frame_is_folded_as_the_claims_fold_it(
    question: str, sentence: str
) -> None:
    from claims.extraction import extract

    (claim,) = [c for c in extract(sentence) if c.kind.value == "quantity"]
    assert parse_question(question).entity == claim.entity


def test_a_count_a_thing_has_is_answered(engine: Engine) -> None:
    # session 15: before, "how many branch offices does X have" folded the name into the key
    _load(
        engine,
        {
            "doc01": (
                "Harlow Savings Bank\nHarlow Savings Bank is a mutual savings bank in Essex. "
                "As of 2020, there are 14 branch offices across the county."
            )
        },
    )
    result = answer(engine, "How many branch offices does the Harlow Savings Bank have?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == 14
