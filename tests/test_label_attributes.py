"""An attribute that names what a thing is or does ("format", "genre", "occupation") asks
for a label, so a figure a sentence states beside it never answers (issue 13 point 4,
session 13): "WKLM (1450 kHz) is a radio station broadcasting a country format" answers
"What is the broadcast format of WKLM?" with the format, not the frequency."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.answer_type import AnswerType, expected_answer_type
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_documents_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
load_documents = partial(load_documents_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What is the broadcast format of WKLM?", "broadcast format"),
        ("What genre is the album?", "genre"),
        ("What was her occupation?", "occupation"),
    ],
)
def test_naming_attributes_ask_for_a_label(question: str, attribute: str) -> None:
    assert expected_answer_type(question, attribute) is AnswerType.LABEL


def test_measured_attributes_keep_their_types() -> None:
    assert expected_answer_type("What is the frequency of WKLM?", "frequency") is AnswerType.ANY
    assert (
        expected_answer_type("What is the population of Lakeview?", "population")
        is AnswerType.COUNT
    )


def test_a_frequency_beside_the_format_is_no_side(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": "WKLM (1450 kHz, is an AM station broadcasting a country format. "
            "It is licensed to Millbrook.",
            "doc02": "WKLM is a radio station in Millbrook. It broadcasts a country format.",
        },
    )
    result = answer(engine, "What is the broadcast format of WKLM?", ANYONE)
    values = {str(side.value) for side in result.sides} | {str(result.value)}
    assert not any("1450" in value for value in values), result
    assert result.status is AnswerStatus.ANSWERED, result
    assert str(result.value).lower() == "country"
