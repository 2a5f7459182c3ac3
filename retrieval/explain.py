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
from retrieval.evidence_rank import Ranked, rank, winners
from retrieval.finding import Ask
from retrieval.question_reading import Reading, read_question
from retrieval.table_cells import CellReading, named_cells
from retrieval.taught_questions import with_taught_synonyms


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


class ReadingOut(BaseModel):
    """What the question asks for (issue 32): kind and dimension of value, entity, time,
    scope, and the content words the evidence is ranked by."""

    kind: str | None
    dimensions: list[str]
    cue: str | None
    entity: str | None
    time: str | None
    scope: dict[str, str] = Field(default_factory=dict)
    terms: list[str] = Field(default_factory=list)


class EvidenceOut(BaseModel):
    """One visible claim of the asked kind, its score and the question words it carries."""

    rank: int
    claim_id: str
    claim_key: str
    source_id: str
    value: float | str | None
    unit: str | None
    score: float
    matched: list[str]


class TableCellOut(BaseModel):
    """A table cell the question names by its row and column (issue 32, table questions)."""

    claim_id: str
    claim_key: str
    source_id: str
    value: float | str | None
    unit: str | None


class TableReadingOut(BaseModel):
    """What the table reading found, and what decided it (a cell, or why none answers)."""

    cells: list[TableCellOut] = Field(default_factory=list)
    why: str


class Explanation(BaseModel):
    question: str
    frame: FrameOut
    candidates: list[CandidateOut]
    reading: ReadingOut | None = None
    evidence: list[EvidenceOut] = Field(default_factory=list)
    # why the evidence ranking chose what it chose (it answers when no key the question
    # names reaches a claim of the asked kind)
    winner: str | None = None
    # the table reading (it runs first: a question naming a table's row and column)
    table: TableReadingOut | None = None
    answer: Answer


def explain(
    store: Engine, question: str, requester: Requester, as_of: AsOf = NOW, **limits: Any
) -> Explanation:
    """The frame, the ranked candidate keys the requester's visible claims offer, the answer."""
    text = check_question(question, **limits)
    from claims.extraction import parse_question

    frame = parse_question(text)
    with store.connect() as conn:
        frame = with_taught_synonyms(conn, frame)  # the frame as answered (reviewers' words)
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
        reading, ranked, why, table = ranked_evidence(conn, frame, requester, as_of, text)
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
        reading=ReadingOut(**reading.as_dict()),
        evidence=[
            EvidenceOut(
                rank=rank,
                claim_id=r.claim.id,
                claim_key=r.claim.claim_key,
                source_id=r.claim.source_id,
                value=r.claim.value_number
                if r.claim.value_number is not None
                else r.claim.value_text,
                unit=r.claim.unit,
                score=r.score,
                matched=list(r.matched),
            )
            for rank, r in enumerate(ranked[:MAX_SHOWN], start=1)
        ],
        winner=why,
        table=TableReadingOut(
            cells=[
                TableCellOut(
                    claim_id=c.id,
                    claim_key=c.claim_key,
                    source_id=c.source_id,
                    value=c.value_number if c.value_number is not None else c.value_text,
                    unit=c.unit,
                )
                for c in table.cells
            ],
            why=table.why,
        ),
        answer=result,
    )


MAX_SHOWN = 10  # evidence rows an explanation lists


def ranked_evidence(
    conn: Any, frame: Any, requester: Requester, as_of: AsOf, question: str
) -> tuple[Reading, list[Ranked], str | None, CellReading]:
    """The question's reading, the visible claims of the asked kind ranked by the whole
    evidence, why the best won (the same reads as ``answer``'s evidence stage), and the
    table reading's cells (``retrieval.table_cells``)."""
    from dataclasses import replace

    start = frame.time.start if frame.time else None
    end = frame.time.end if frame.time else None
    if as_of.effective is None and (start or end):
        as_of = replace(as_of, reference=end or start)
    ask = Ask(
        conn=conn,
        loader=EvidenceLoader(conn, as_of),
        as_of=as_of,
        frame=frame,
        asked=asked_type(frame, question),
        requester=requester,
        key=frame.claim_key or "",
        scope=dict(frame.scope or {}),
        start=start,
        end=end,
        asked_words=frozenset(frame.scope_residual or ()),
    )
    reading = read_question(question, frame)
    ranked, _ = rank(ask, reading)
    chosen, why = winners(ranked, reading)
    if chosen:
        values = sorted({str(c.value_number or c.value_text) for c in chosen})
        why = f"{', '.join(values)}: {why}"
    return reading, ranked, why, named_cells(ask)
