"""The start of a playing career (issue 13, session 15): "Ledbury made his first-class debut
for Kent against Sussex in 1898" dates the debut, and "When did Tom Ledbury begin his
career in cricket?" asks for it (claims/extraction/data/value_kinds.yaml event ``debut``,
question_frames.yaml). Event phrases are split at hyphens as the tokenizer splits the text,
so "first-class" and "co-founded" are read (before, a hyphenated phrase never matched)."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract as extract_any
from claims.extraction import parse_question
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_documents_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")
load_documents = partial(load_documents_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])

BIO = (
    "Tom Ledbury (1875 – 1931) was an English cricketer. Ledbury made his first-class debut "
    "for Kent against Sussex in 1898 at the St Lawrence Ground."
)


def _read(text: str) -> list[tuple[str | None, str, object]]:
    return [(c.entity, c.attribute, c.value) for c in extract(text, source_id="doc01")]


def test_a_debut_is_dated() -> None:
    # the surname a biography uses after the first mention is the page's subject
    assert ("tom ledbury", "debut", "1898") in _read(BIO)
    professional = "Dale Hurst made his professional debut for Crewe Alexandra on 12 August 2009."
    assert ("dale hurst", "debut", "2009-08-12") in _read(professional)
    # a debut album is a release, not the start of a career
    assert [a for _, a, _ in _read("Her debut album was released in 2001.")] == ["launched"]


def test_a_hyphenated_event_phrase_is_read() -> None:
    assert (None, "founded", "1998") in _read("The firm was co-founded in 1998 by two engineers.")
    assert parse_question("When was Acme co-founded?").attribute == "founded"


def test_questions_about_the_start_of_a_career_ask_for_the_debut() -> None:
    for question in (
        "When did Tom Ledbury begin his career in cricket?",
        "When did Tom Ledbury start his professional career?",
        "In what year did Tom Ledbury make his first-class debut?",
    ):
        frame = parse_question(question)
        assert (frame.entity, frame.attribute) == ("tom ledbury", "debut"), question


def test_the_debut_answers_when_a_career_began(engine: Engine) -> None:
    load_documents(engine, {"doc01": BIO})
    result = answer(engine, "When did Tom Ledbury begin his career in cricket?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1898"
