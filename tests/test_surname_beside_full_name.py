"""A surname alone beside a fuller name (issue 13, session 14): a page cut from the middle
of an article names its subject by the surname a text uses after the first mention
("Hartwell died on 4 March 1911"), another page by a fuller name ("Thomas Edwin Hartwell
(2 May 1850 - 9 June 1915)"). The ledger cannot tell whether they are one person, so
neither outranks the other: the answer names both (retrieval/finding.py,
``naming_most`` and ``best_named``). A fuller name that is not the asked one never pulls
a surname down, and a name the question states exactly keeps its fit."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])

SURNAME_ONLY = (
    "after the strike he was released in the following spring. Hartwell died on 4 March "
    "1911 at the age of 62 and was buried in the churchyard at Elmstead."
)
FULL_NAME = (
    "Thomas Edwin Hartwell Thomas Edwin Hartwell (2 May 1850 – 9 June 1915) was an English "
    "engineer and inventor. He built the first tide mill at Harwich."
)
OTHER_FIRST_NAME = (
    "Margaret Hartwell Margaret Hartwell (12 May 1880 – 3 June 1950) was an English painter."
)


def _sides(result: object) -> dict[str, list[str]]:
    return {str(s.value): s.source_ids for s in result.sides or []}  # type: ignore[attr-defined]


def test_a_surname_and_a_fuller_name_of_the_asked_person_are_both_named(engine: Engine) -> None:
    load_documents(engine, {"doc01": SURNAME_ONLY, "doc02": FULL_NAME})
    result = answer(engine, "When did Thomas Hartwell die?", ANYONE)
    # before: the fuller name repeated more of the asked words and answered alone (1915)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert _sides(result) == {"1911-03-04": ["doc01"], "1915-06-09": ["doc02"]}


def test_a_title_and_surname_asked_meets_a_bare_surname_and_a_full_name(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": (
                "the committee met twice that year. Brandt was a Republican member of the "
                "Vermont House of Representatives from 2010 to 2014."
            ),
            "doc02": (
                "Complaint names Democratic Sen. Elena Brandt of Dayton. Retrieved 2023-07-25."
            ),
        },
    )
    result = answer(engine, "What political party is Senator Brandt a member of?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert _sides(result) == {"Republican": ["doc01"], "Democratic": ["doc02"]}


def test_near_miss_a_fuller_name_that_is_not_the_asked_one_leaves_the_surname_alone(
    engine: Engine,
) -> None:
    load_documents(engine, {"doc01": SURNAME_ONLY, "doc02": OTHER_FIRST_NAME})
    result = answer(engine, "When did Thomas Hartwell die?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1911-03-04"
    assert result.citations == ["doc01"]


def test_near_miss_one_value_under_both_names_is_one_answer(engine: Engine) -> None:
    load_documents(
        engine, {"doc01": SURNAME_ONLY.replace("4 March 1911", "9 June 1915"), "doc02": FULL_NAME}
    )
    result = answer(engine, "When did Thomas Hartwell die?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1915-06-09"
    assert sorted(result.citations) == ["doc01", "doc02"]


def test_near_miss_a_longer_name_ending_with_the_asked_place_is_another_thing(
    engine: Engine,
) -> None:
    # "Gmina Larwice" is the commune around the town: it ends with the asked name but fits
    # it by that word alone, so the town's own page still answers alone
    load_documents(
        engine,
        {
            "doc01": (
                "Gmina Larwice Gmina Larwice is a rural gmina (administrative district) in "
                "southern Poland. As of 2006 it had a total population of 17,289."
            ),
            "doc02": (
                "the market square was rebuilt after the fire of 1874. Larwice has a "
                "population of 4,411."
            ),
        },
    )
    result = answer(engine, "What is the population of Larwice?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == 4411
    assert result.citations == ["doc02"]


def test_near_miss_a_common_noun_for_the_thing_is_no_surname(engine: Engine) -> None:
    # "the depot" ends the asked "Marlow Southern Depot" as a surname would, but the
    # sentence writes it as a common noun: the named depot answers, as before
    load_documents(
        engine,
        {
            "doc01": (
                "the line reached the valley in 1896. Built in 1914, the depot is the last "
                "standing railroad building in Alton."
            ),
            "doc02": (
                "The Marlow Southern Railway Depot was built in 1929 in place of the first station."
            ),
        },
    )
    result = answer(engine, "When was the Marlow Southern Depot built?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1929"
    assert result.citations == ["doc02"]
