"""Every claim of a document, each read by the reader of its block kind, with a locator."""

from __future__ import annotations

from bisect import bisect_right

from claims.documents.model import Block, BlockKind
from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.faq import with_questions
from claims.extraction.readers.label_lines import label_line_claims
from claims.extraction.readers.lists import lead_ins, with_lead_ins
from claims.extraction.readers.table_dispatch import table_claims
from claims.models import Claim

# blocks the sentence reader states nothing from: a table's rows and captions (the table
# reader reads them), a question (it asks)
_NOT_PROSE = (BlockKind.TABLE, BlockKind.CAPTION, BlockKind.QUESTION)


def read_blocks(context: ReadContext, prose: list[Claim]) -> list[Claim]:
    """``prose`` (the sentence reader's claims over the whole text) routed by block: claims
    of label lines and tables come from their own readers, list items take their lead-in's
    scope, FAQ answers their question's subject; every claim gets its block's locator."""
    blocks = context.document.blocks
    starts = [b.start for b in blocks]

    def block_at(offset: int) -> Block | None:
        k = bisect_right(starts, offset) - 1
        if k >= 0 and offset <= blocks[k].end:
            return blocks[k]
        return None

    def block_of(claim: Claim) -> Block | None:
        anchor = claim.value_span.start if claim.value_span is not None else claim.span.start
        return block_at(anchor)

    labelled, replaced = label_line_claims(context, list(blocks))
    leads = {lead.start for lead in lead_ins(context).values()}
    kept: list[Claim] = []
    for claim in prose:
        block = block_of(claim)
        if block is None:
            kept.append(claim)
            continue
        if block.kind in _NOT_PROSE or block.start in replaced:
            continue
        if block.start in leads and claim.value_span is None:
            continue  # "Full-time employees are entitled to:" states nothing until its items
        kept.append(claim.model_copy(update={"locator": block.locator}))
    tables = [c for b in blocks if b.kind is BlockKind.TABLE for c in table_claims(context, b)]
    claims = kept + labelled + tables
    claims.sort(key=lambda c: c.span.start)
    claims = with_lead_ins(context, claims, block_of)
    return with_questions(context, claims, block_of)
