"""One name spelt otherwise in Latin letters (issue 13, session 15): a question asks about
"Abdullah Rahim" or the film "Vasantha", the page is "Abdulla Rahim" or "Vasanta (1941 film)". The
romanisation's optional letters (an "h" of aspiration after a stop, a final "h" after a
vowel, a doubled letter) are dropped from words no English dictionary knows
(claims/extraction/name_spellings.py), and retrieval fits such a name as part of the name
(retrieval/candidates.py, ``entity_fit``)."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction.name_spellings import spelling_key, spelling_keys
from claims.models import Requester
from retrieval.answer import answer
from retrieval.candidates import NAME_PART, entity_fit
from retrieval.contract import Answer, AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def test_romanised_spellings_share_a_key() -> None:
    assert spelling_key("vasantha") == spelling_key("vasanta")
    assert spelling_key("siddharth") == spelling_key("sidharth")
    assert spelling_key("abdullah") == spelling_key("abdulla")
    assert spelling_keys("vasantha (1941 film)") == "vasanta (1941 film)"
    # a dictionary word keeps its spelling: "bath" is not "bat"
    assert spelling_key("bath") == "bath"


def test_a_name_spelt_otherwise_fits_as_part_of_the_name() -> None:
    assert entity_fit("vasantha", "vasanta (1941 film)") == NAME_PART
    assert entity_fit("sidharth rao", "siddharth rao") == NAME_PART
    # another name is still another thing
    assert entity_fit("vasantha", "devika (1941 film)") == 0.0


MUSICIAN = {"doc01": "Kanhaiya Vashisth (1931 – 2004) was an Indian sarangi player and teacher."}


def _asked_about(engine: Engine, name: str) -> Answer:
    load_documents(engine, MUSICIAN)
    return answer(engine, f"What is the primary instrument played by {name}?", ANYONE)


def test_a_question_with_another_spelling_finds_the_page(engine: Engine) -> None:
    result = _asked_about(engine, "Kanhaiya Vashist")
    # before: "kanhaiya vashist" fitted no claim and the answer was not_found
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "sarangi"


def test_near_miss_a_name_of_other_letters_is_not_found(engine: Engine) -> None:
    result = _asked_about(engine, "Kanhaiya Varma")
    assert result.status is AnswerStatus.NOT_FOUND, result.reason
