"""An attribute that answers another only when nothing states the asked one (issue 13,
session 10): a school that "opened in 1961" answers "When was it established?" when no page
gives its founding, and never turns a founding and an opening into a conflict."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.answering import answering_attributes, standing_in_for
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as _load  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def test_an_opening_stands_in_for_a_founding_only_as_a_fallback() -> None:
    assert "opened" in standing_in_for("founded")
    assert "opened" not in answering_attributes("founded")  # never read beside it
    assert standing_in_for("population") == ()


def test_the_year_a_school_opened_answers_when_it_was_established(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Marsh Valley High School is a public secondary school in Dalton, Georgia. "
            "The school opened in 1961 and serves 1,200 students.",
        },
    )
    result = answer(engine, "When was Marsh Valley High School established?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1961"), result.reason


def test_a_founding_and_a_later_opening_are_no_conflict(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Marsh Valley High School is a public secondary school in Dalton, Georgia. "
            "The school was established in 1958. The school opened in 1961.",
        },
    )
    result = answer(engine, "When was Marsh Valley High School established?", ANYONE)
    assert (result.status, str(result.value)) == (AnswerStatus.ANSWERED, "1958"), result.reason


def test_another_school_that_opened_does_not_answer(engine: Engine) -> None:
    _load(
        engine,
        {
            "page": "Cedar Ridge Academy is a private school in Dalton, Georgia. Cedar Ridge "
            "Academy opened in 1975.",
        },
    )
    result = answer(engine, "When was Marsh Valley High School established?", ANYONE)
    assert result.status is AnswerStatus.NOT_FOUND, (result.value, result.reason)
