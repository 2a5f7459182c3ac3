"""Why a question got its answer: the question frame and the candidate keys with scores.

What ``claims ask --explain`` prints. Built from the same visible-only reads as the answer,
so it obeys the same rule: for a requester, the explanation over the whole corpus equals
the explanation over the corpus without the sources the requester cannot see (ranks and
scores included).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import Engine

from claims.models import Requester
from claims.store.search import search_words
from retrieval.answer import answer_frame, asked_type, check_question
from retrieval.candidates import candidate_keys
from retrieval.contract import Answer
from retrieval.evidence import NOW, AsOf, EvidenceLoader


class FrameOut(BaseModel):
    """The question as the extractor reads it."""

    claim_key: str
    entity: str | None
    attribute: str
    attribute_class: str | None
    answer_type: str
    scope: dict[str, str] = Field(default_factory=dict)
    qualifiers: list[str] = Field(default_factory=list)
    time: str | None = None


class CandidateOut(BaseModel):
    """One candidate key, its rank and score, and how it was found."""

    rank: int
    claim_key: str
    entity: str | None
    attribute: str
    score: float
    attribute_score: float
    entity_fit: float
    found_by: str


class Explanation(BaseModel):
    question: str
    frame: FrameOut
    candidates: list[CandidateOut]
    answer: Answer


def explain(
    store: Engine, question: str, requester: Requester, as_of: AsOf = NOW, **limits: Any
) -> Explanation:
    """The frame, the ranked candidate keys the requester's visible claims offer, the answer."""
    text = check_question(question, **limits)
    from claims.extraction import parse_question

    frame = parse_question(text)
    attribute = frame.attribute or frame.claim_key
    asked = asked_type(frame, text)
    with store.connect() as conn:
        generation = EvidenceLoader(conn, as_of).generation()
        candidates = (
            candidate_keys(
                conn,
                entity=frame.entity,
                attribute=attribute,
                attribute_class=frame.coarse_key,
                words=search_words(text),
                asked=asked,
                generation=generation,
                groups=requester.groups,
                qualifiers=frame.scope_residual,
            )
            if generation and attribute
            else []
        )
    result = answer_frame(store, frame, requester, question=text, as_of=as_of)
    return Explanation(
        question=text,
        frame=FrameOut(
            claim_key=frame.claim_key,
            entity=frame.entity,
            attribute=attribute,
            attribute_class=frame.coarse_key,
            answer_type=asked.value,
            scope=dict(frame.scope),
            qualifiers=list(frame.scope_residual),
            time=frame.time.text if frame.time else None,
        ),
        candidates=[
            CandidateOut(
                rank=rank,
                claim_key=c.claim_key,
                entity=c.entity,
                attribute=c.attribute,
                score=c.score,
                attribute_score=c.attribute_score,
                entity_fit=c.entity_fit,
                found_by=c.found_by,
            )
            for rank, c in enumerate(candidates, start=1)
        ],
        answer=result,
    )
