"""Every claim of a document, each read by the reader of its block kind, with a locator."""

from __future__ import annotations

import re
from bisect import bisect_right

from claims.documents.model import Block, BlockKind, Document
from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.faq import with_questions
from claims.extraction.readers.label_lines import Rewritten, label_line_claims, label_value
from claims.extraction.readers.lists import lead_ins, with_lead_ins
from claims.extraction.readers.table_dispatch import table_claims
from claims.models import Claim

# blocks the sentence reader states nothing from: a table's rows and captions (the table
# reader reads them), a question (it asks)
_NOT_PROSE = (BlockKind.TABLE, BlockKind.CAPTION, BlockKind.QUESTION)


def prose_text(document: Document) -> str:
    """The document's text with the blocks other readers read (tables, captions, label
    lines) blanked out, character for character (offsets stay those of the text), so the
    sentence reader does not spend its time on text whose claims it would not give."""
    text = document.text
    blanked: list[tuple[int, int]] = []
    for block in document.blocks:
        if block.kind in (BlockKind.TABLE, BlockKind.CAPTION) or (
            block.label is not None and label_value(text, block) is not None
        ):
            blanked.append((block.start, block.end))
    if not blanked:
        return text
    parts: list[str] = []
    at = 0
    for start, end in blanked:
        parts.append(text[at:start])
        parts.append(_BLANK.sub(" ", text[start:end]))
        at = end
    parts.append(text[at:])
    return "".join(parts)


_BLANK = re.compile(r"[^\n]")


def read_blocks(context: ReadContext, read: list[Claim], rewritten: Rewritten) -> list[Claim]:
    """The sentence reader's claims ``read`` over ``prose_text`` followed by the rewritten
    label lines, routed by block: claims of label lines and tables come from their own
    readers, list items take their lead-in's scope, FAQ answers their question's subject;
    every claim gets its block's locator."""
    prose = [c for c in read if c.span.start < rewritten.offset]
    labelled = label_line_claims(
        context, rewritten, [c for c in read if c.span.start >= rewritten.offset]
    )
    replaced = rewritten.starts
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
        update: dict[str, object] = {"locator": block.locator}
        quote = context.text[claim.span.start : claim.span.end]
        if quote != claim.quote:
            update["quote"] = quote  # a sentence that ran up to a blanked block
        kept.append(claim.model_copy(update=update))
    tables = [c for b in blocks if b.kind is BlockKind.TABLE for c in table_claims(context, b)]
    claims = kept + labelled + tables
    claims.sort(key=lambda c: c.span.start)
    claims = with_lead_ins(context, claims, block_of)
    return with_questions(context, claims, block_of)
