"""Moving a claim read from a rewritten text back onto the document's own characters."""

from __future__ import annotations

from claims.documents.model import Block
from claims.extraction.readers.context import ReadContext
from claims.models import Claim, Span


def moved_claim(context: ReadContext, claim: Claim, block: Block, shift: int) -> Claim:
    """``claim`` with its evidence the whole ``block`` and its value span moved by
    ``shift`` characters into the document text; a new id from the new offsets."""
    text = context.text
    span = Span(start=block.start, end=block.end)
    value_span = None
    if claim.value_span is not None:
        value_span = Span(start=claim.value_span.start + shift, end=claim.value_span.end + shift)
    anchor = value_span or span
    claim_id = context.claim_id(
        span.start,
        span.end,
        anchor.start,
        anchor.end if value_span is not None else None,
        claim.kind.value,
        claim.claim_key,
        block.kind.value,
    )
    return claim.model_copy(
        update={
            "id": claim_id,
            "span": span,
            "value_span": value_span,
            "quote": text[span.start : span.end],
            "locator": block.locator,
        }
    )
