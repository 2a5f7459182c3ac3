"""FAQ answers inherit their question's subject.

    ### How long is the notice period?
    30 days.                         -> notice period = 30 days

The structure reader puts a question in the heading path of the blocks that answer it. A
claim of an answer that names no attribute of its own (``unknown:*``) takes the question's
entity and attribute (read by the question parser, the same key machinery as claims); one
that names no entity takes the question's entity; the question's scope fills the
dimensions the answer does not state.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from claims.documents.model import Block, BlockKind
from claims.extraction.readers.context import ReadContext
from claims.models import Claim, EntityRef


@lru_cache(maxsize=256)
def _frame(question: str) -> tuple[str | None, str, dict[str, str]]:
    from claims.extraction.question import parse_question

    frame = parse_question(question)
    return frame.entity, frame.attribute or "", dict(frame.scope)


def with_questions(
    context: ReadContext, claims: list[Claim], block_of: Callable[[Claim], Block | None]
) -> list[Claim]:
    """``claims`` with each FAQ answer's claims completed from its question."""
    out: list[Claim] = []
    for claim in claims:
        block = block_of(claim)
        path = block.locator.heading_path if block is not None else ()
        if (
            block is None
            or block.kind is BlockKind.QUESTION
            or not path
            or not path[-1].endswith("?")
        ):
            out.append(claim)
            continue
        out.append(answered(claim, path[-1]))
    return out


def answered(claim: Claim, question: str) -> Claim:
    """``claim`` completed from ``question``: its attribute when the claim names none, its
    entity when the claim names none, its scope where the claim states none."""
    entity, attribute, scope = _frame(question)
    update: dict[str, object] = {}
    unknown = claim.claim_key.startswith("unknown:") or not claim.attribute
    if unknown and attribute and not attribute.startswith("unknown:"):
        update["attribute"] = attribute
        update["coarse_key"] = attribute.split()[-1]
    if claim.entity is None and entity:
        update["entity"] = entity
        update["entity_ref"] = EntityRef(name=entity)
    extra = {k: v for k, v in scope.items() if k not in claim.scope}
    if extra:
        update["scope"] = {**claim.scope, **extra}
    if "attribute" in update or "entity" in update:
        new_entity = update.get("entity", claim.entity)
        new_attribute = str(update.get("attribute", claim.attribute))
        update["claim_key"] = f"{new_entity} {new_attribute}" if new_entity else new_attribute
    return claim.model_copy(update=update) if update else claim
