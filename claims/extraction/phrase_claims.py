"""One claim read from a phrase by a reader of its own (``became``, ``abbreviations``): the
quote is the sentence's stretch given, trimmed of blanks, the key the entity and the
attribute, and the value as the reader states it, with no quantity and a plain statement."""

from __future__ import annotations

from typing import Any

from claims.extraction.value_kinds import NO_QUANTITY, plain_statement
from claims.models import Claim, ValueKind
from claims.models import Span as CharSpan
from claims.trusted import trusted


def phrase_claim(
    text: str,
    sentence: tuple[int, int],
    *,
    entity: str,
    attribute: str,
    kind: ValueKind,
    value: str,
    subject: str,
    make_id: Any,
    provenance: tuple[str | None, str | None, str],
    confidence: float,
) -> Claim:
    """The claim; ``provenance`` is (source id, source version id, generation)."""
    source_id, source_version_id, generation = provenance
    s0, s1 = sentence
    while s0 < s1 and text[s0].isspace():
        s0 += 1
    while s1 > s0 and text[s1 - 1].isspace():
        s1 -= 1
    key = f"{entity} {attribute}"
    fields: dict[str, Any] = {
        "id": make_id(s0, s1, key, value),
        "source_version_id": source_version_id,
        "source_id": source_id,
        "generation": generation,
        "subject": subject,
        "predicate": attribute,
        "claim_key": key,
        "coarse_key": attribute,
        "entity": entity,
        "attribute": attribute,
        "kind": kind,
        "value": value,
        **NO_QUANTITY,
        **plain_statement(),
        "span": trusted(CharSpan, {"start": s0, "end": s1}),
        "quote": text[s0:s1],
        "confidence": confidence,
        "created_at": None,
    }
    return trusted(Claim, fields)


def in_document_order(claims: list[Claim], extra: list[Claim]) -> list[Claim]:
    """``claims`` with ``extra`` placed in document order (by where each quote starts)."""
    out = list(claims)
    for claim in extra:
        at = next((k for k, c in enumerate(out) if c.span.start > claim.span.start), len(out))
        out.insert(at, claim)
    return out
