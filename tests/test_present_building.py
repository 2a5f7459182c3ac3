""" "The present church", "the current building", "the existing bridge" (issue 13, session
15): a page refers to its subject by what it is with a word saying it is the one standing
now. Before, "present church" was keyed as an entity of its own, which no question names;
now the modifier is no part of the entity (``words.yaml`` ``generic_heads``), so the claim
refers back to the page's subject like "the church" does. "The original church" is an
earlier building and keeps its word."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _entities(text: str, attribute: str) -> list[str | None]:
    return [c.entity for c in extract(text, source_id="doc01") if c.attribute == attribute]


def test_a_word_for_the_one_standing_now_is_no_part_of_the_entity() -> None:
    assert _entities("The present church was completed by 1755.", "built") == ["church"]
    assert _entities("The existing bridge was built in 1931.", "built") == ["bridge"]
    # an earlier building is another thing
    assert _entities("The original church was built in 1250.", "built") == ["original church"]


def test_the_present_church_answers_for_the_pages_church(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": (
                "St Aldric's Church, Hexford\nSt Aldric's Church is a parish church in "
                "Hexford. The present church and its tower were completed by 1755, after a "
                "fire destroyed the older building."
            )
        },
    )
    result = answer(engine, "When was St Aldric's Church completed?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1755"
