"""A building named after its owner, asked without the given name (issue 13, session 15):
"Who was the owner of the Marsh House?" about the "Elias P. Marsh House". A given name
(and initials) before the asked name makes the same thing (retrieval/candidates.py,
``_named_after_a_person``); any other word before it makes another thing ("North Harlow
Mill" is not "Harlow Mill"), and a bare surname never takes every person of that name."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.candidates import NAME_PART, entity_fit
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])

HOUSE = (
    "Elias P. Marsh House The Elias P. Marsh House is a historic house in Dayton, Ohio. "
    "The house's first owner, Elias Porter Marsh, made his money trading lumber."
)


def test_a_given_name_before_the_asked_name_is_the_same_thing() -> None:
    assert entity_fit("marsh house", "elias p marsh house") == NAME_PART
    assert entity_fit("mason house", "john mason house") == NAME_PART
    # another word before it is another thing; a surname alone takes no one
    assert entity_fit("harlow mill", "north harlow mill") == 0.0
    assert entity_fit("smith", "john smith") == 0.0


def test_the_owner_of_a_house_named_after_him_is_answered(engine: Engine) -> None:
    load_documents(engine, {"doc01": HOUSE})
    result = answer(engine, "Who was the owner of the Marsh House?", ANYONE)
    # before: "marsh house" fitted no claim and the answer was not_found
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "Elias Porter Marsh"
