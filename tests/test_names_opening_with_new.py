"""Names that open with "New" or "Old" (session 14): "new" and "old" are stopwords, so "New
Mexico has a population of 2.1 million" was keyed "mexico population", one key with
Mexico's, and the two countries' figures conflicted; "New England" was read as a region of
the United Kingdom. A capitalised "New"/"Old" before a capitalised word opens a name, in
sources and in questions alike (claims/extraction/assembly.py ``assign_roles``,
claims/extraction/identity.py ``fold_name``)."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.check import check_texts
from claims.extraction import extract, parse_question
from claims.models import Relation, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _entities(text: str) -> set[str | None]:
    return {c.entity for c in extract(text, source_id="doc01")}


def test_a_name_opening_with_new_keeps_it() -> None:
    assert _entities("New Mexico has a population of 2,117,522.") == {"new mexico"}
    assert _entities("The New Zealand team won 5 medals.") == {"new zealand"}
    assert _entities("Old Trafford was opened in 1910.") == {"old trafford"}
    assert parse_question("What is the population of New Mexico?").entity == "new mexico"


def test_new_mexico_and_mexico_are_two_entities() -> None:
    result = check_texts(
        "New Mexico has a population of 2,117,522.", "Mexico has a population of 126,014,024."
    )
    assert result.relation is not Relation.CONFLICT, result.reason


def test_new_england_is_no_region_of_the_united_kingdom() -> None:
    claims = extract("Sales in New England rose 5% in 2020.", source_id="doc01")
    assert all(c.scope.get("region") != "uk" for c in claims)
    claims = extract("Sales in England rose 5% in 2020.", source_id="doc01")
    assert {c.scope.get("region") for c in claims} == {"uk"}


def test_a_question_about_new_mexico_is_not_answered_from_mexico(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": "Mexico has a population of 126,014,024.",
            "doc02": "New Mexico has a population of 2,117,522.",
        },
    )
    result = answer(engine, "What is the population of New Mexico?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == 2117522
    assert result.citations == ["doc02"]


def test_near_miss_a_sentence_opening_with_new_keeps_its_key() -> None:
    # "New" before a lowercase word is the adjective: the key is what the sentence counts
    keys = {c.claim_key for c in extract("New hires get 25 days of leave.", source_id="d")}
    assert not any(k.startswith("new") for k in keys)
