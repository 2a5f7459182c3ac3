"""A given name in its familiar form (issue 13, session 15): the question writes "Nicholas
Hill" or "Richard Walsh", the page the person is known by "Nick Hill" or "Rick Walsh". The
pairs of a name and its familiar forms come from the ``nicknames`` package
(claims/extraction/given_names.py); retrieval reads the familiar forms from the entity index
and fits them as part of the full name (retrieval/candidates.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction.given_names import forms_of, name_forms, same_given_name
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])

NICK = (
    "Nick Ashford Nick Ashford (born 5 April 1984) is an American football coach and former "
    "quarterback. He has been the head coach at his old college since 2016."
)
RICK_TITLED = (
    'Rick Walsh (cricketer) Richard Paul "Rick" Walsh (born 2 March 1961) is a former '
    "English cricketer who played for Kent."
)
FRED = "Fred Ashford Fred Ashford (born 1950) is a retired English golfer."


def test_given_names_and_their_familiar_forms_are_one_name() -> None:
    assert same_given_name("Nicholas", "Nick")
    assert same_given_name("rick", "Richard")
    assert "bill" in forms_of("william")
    # two familiar forms of one full name are not one name ("Rick" and "Fred" of Frederick)
    assert not same_given_name("Rick", "Fred")
    # the table lists a few pairs of two full names ("bill" -> "robert"); they are left out
    assert not same_given_name("Bill", "Fred")
    # forms are in key form, as entity words are (a person name is never lemmatised: "nicholas")
    assert ("nick", "ashford") in name_forms(("nicholas", "ashford"))
    assert name_forms(("ashford",)) == []


def test_a_full_given_name_asked_finds_the_page_of_its_familiar_form(engine: Engine) -> None:
    load_documents(engine, {"doc01": NICK})
    result = answer(engine, "What sport is Nicholas Ashford associated with?", ANYONE)
    # before: the entity "nicholas ashford" fitted no claim and the answer was not_found
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "american football"
    assert result.citations == ["doc01"]


def test_a_titled_page_of_the_familiar_form_answers(engine: Engine) -> None:
    load_documents(engine, {"doc01": RICK_TITLED})
    result = answer(engine, "When was Richard Walsh born?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1961-03-02"


def test_near_miss_another_given_name_of_the_surname_is_someone_else(engine: Engine) -> None:
    load_documents(engine, {"doc01": FRED})
    result = answer(engine, "What sport is Nicholas Ashford associated with?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, result.reason


def test_near_miss_the_name_as_asked_outranks_a_familiar_form(engine: Engine) -> None:
    exact = "Nicholas Ashford Nicholas Ashford (born 1979) is an English cricketer."
    load_documents(engine, {"doc01": NICK, "doc02": exact})
    result = answer(engine, "What sport is Nicholas Ashford associated with?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "cricket"
    assert result.citations == ["doc02"]
