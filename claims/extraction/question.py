"""Questions read with the same key and scope machinery as claims.

"What is the interactive assistant's output limit?" -> key "output limit",
scope {request_type: interactive}; "What was the Q1 dividend per share?" -> key
"dividend", scope {period: q1}. The retrieval layer looks claims up by these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claims.extraction.assembly import (
    PUNCT,
    UNIT,
    WH,
    assign_roles,
    drop_lead_ins,
    fallback_attribute,
    read_frame,
)
from claims.extraction.effective_time import effective_time
from claims.extraction.keys import fold_text, fold_word
from claims.extraction.mentions import Mentions
from claims.extraction.person_names import reading as reading_person_names
from claims.extraction.pipeline import get_pipeline
from claims.extraction.question_frames import FrameMatch, match_frame
from claims.extraction.resources import Resources, resources
from claims.models import EffectiveTime
from claims.settings import get_settings
from claims.units.normalize import conversion


@dataclass
class QuestionFrame:
    """What a question asks about, in claim-key terms."""

    text: str
    claim_key: str
    coarse_key: str | None
    scope: dict[str, str] = field(default_factory=dict)
    scope_residual: list[str] = field(default_factory=list)
    time: EffectiveTime = field(default_factory=EffectiveTime)
    subject: str | None = None
    predicate: str | None = None
    unit_dimension: str | None = None
    entity: str | None = None  # the thing asked about, normalised as claims' entities are
    attribute: str = ""  # the attribute asked for, synonyms folded as in claims
    answer_type: str | None = None  # set by a question frame ("when was X born": date)


def parse_question(text: str) -> QuestionFrame:
    """The claim key, coarse key, scope, residual qualifiers and time a question asks about.

    Person names are keyed as written, as the documents' are (``person_names``)."""
    with reading_person_names(text):
        return _parse_question(text)


def _parse_question(text: str) -> QuestionFrame:
    res = resources()
    nlp = get_pipeline(get_settings().spacy_model)
    with nlp.select_pipes(disable=["claim_assembler"]):
        doc = nlp(text)
    mentions: Mentions = doc._.mentions or Mentions()
    when = effective_time(text, mentions.times)
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    other = sum(1 for ch in text if ch.isalpha() and ord(ch) > 0x24F)
    if other > latin:
        key = _non_latin_key(text, mentions, res)
        return QuestionFrame(
            text=text,
            claim_key=key,
            coarse_key=key or None,
            time=when,
            subject=key or None,
            attribute=key,
        )
    roles = assign_roles(doc, mentions, res, text)
    drop_lead_ins(roles, 0, len(doc))
    words = res.question_words
    idxs: list[int] = []
    for i in range(len(doc)):
        if roles.role[i] in (PUNCT, WH):
            continue
        if roles.lower[i] in words and not idxs:
            continue  # leading "how long", "what", "does"
        idxs.append(i)
    frame = read_frame(doc, roles, idxs, res, mentions.times)
    entity_words = [w for w in frame.entity_words if w not in words]
    attribute_words = [w for w in frame.attribute_words if w not in words]
    if not attribute_words:
        # "How many people does Acme employ?": the verb names what is counted
        counted = [roles.lower[i + 1] for i in range(len(doc) - 1) if roles.lower[i] == "many"]
        attribute_words = fallback_attribute(frame, [fold_word(w) for w in counted[:1]])
        attribute_words = [w for w in attribute_words if w not in words]
    # The key a question looks up is its attribute; the entity it names travels as residual
    # qualifiers, which retrieval matches against the entity words of wider claim keys
    # ("What was Moallu's Q1 dividend?" finds "moallu board dividend").
    key_words = [w for w in attribute_words if w not in entity_words] or attribute_words
    key = " ".join(key_words)
    residual = [w for w in entity_words if w not in key_words]
    residual += [w for w in frame.residual if w not in words and w not in residual]
    # the unit a question names ("per share", "in days", "how many tokens") hints the dimension
    hints = [q.unit_key for q in mentions.quantities if q.unit_key]
    hints += [roles.lower[i] for i in range(len(doc)) if roles.role[i] == UNIT]
    hints += [
        roles.lower[i + 1]
        for i in range(len(doc) - 1)
        if roles.lower[i] == "many" and roles.lower[i + 1] in res.unit_words
    ]
    unit_dimension = None
    for hint in hints:
        entry = conversion(hint)
        if entry is not None:
            unit_dimension = entry.dimension
            break
    shape = match_frame(text)
    if shape is not None:
        return _framed(text, shape, frame.scope, when, frame, unit_dimension)
    return QuestionFrame(
        text=text,
        claim_key=key,
        coarse_key=attribute_words[-1] if attribute_words else None,  # the attribute class
        scope=frame.scope,
        scope_residual=residual,
        time=when,
        subject=frame.subject,
        predicate=frame.predicate,
        unit_dimension=unit_dimension,
        entity=" ".join(entity_words) or None,
        attribute=" ".join(attribute_words) or key,
    )


def _framed(
    text: str,
    shape: FrameMatch,
    scope: dict[str, str],
    when: EffectiveTime,
    read: Any,
    unit_dimension: str | None,
) -> QuestionFrame:
    """The question as its frame reads it: the frame's entity and attribute, the parser's
    scope and time. A scope the parser read inside the name ("China" in "China Clipper")
    is part of the name, not a qualifier; the parser's qualifiers are dropped from the
    frame's words ("the interactive assistant's output limit": scope interactive, entity
    "assistant"; "Moallu's Q1 dividend": scope q1, attribute "dividend")."""
    entity_words = list(shape.entity_words)
    capitalised = {w.casefold() for w in text.split()[1:] if w[:1].isupper()}
    scope = {
        dim: value
        for dim, value in scope.items()
        if not (set(value.replace("_", " ").split()) <= set(entity_words) & capitalised)
    }
    stated = {w for value in scope.values() for w in value.replace("_", " ").split()}
    entity_words = [w for w in entity_words if w not in stated] or entity_words
    attribute_words = [w for w in shape.attribute.split() if w not in stated]
    attribute = " ".join(attribute_words or shape.attribute.split())
    return QuestionFrame(
        text=text,
        claim_key=attribute,
        coarse_key=attribute.split()[-1],
        scope={**scope, **shape.scope},
        scope_residual=entity_words,
        time=when,
        subject=getattr(read, "subject", None),
        predicate=getattr(read, "predicate", None),
        unit_dimension=unit_dimension,
        entity=shape.entity if entity_words == list(shape.entity_words) else " ".join(entity_words),
        attribute=attribute,
        answer_type=shape.answer_type,
    )


def _non_latin_key(text: str, mentions: Mentions, res: Resources) -> str:
    chars = list(text)
    for q in mentions.quantities:
        for k in range(q.cue_start, q.end):
            chars[k] = " "
    return fold_text(
        "".join(chars),
        res.non_latin_trim + ("何日", "何", "ですか", "か", "吗", "多少", "ما", "هي", "என்ன"),
    )
