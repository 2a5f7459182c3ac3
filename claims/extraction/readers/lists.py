"""List items inherit the lead-in before them.

    Full-time employees are entitled to:
    - 25 days of annual leave        -> leave = 25 days, scope employment full-time
    - a laptop allowance of $1,500   -> laptop allowance = $1,500, same scope

The lead-in is the paragraph right before a list that ends with a colon; a nested item's
lead-in is its parent item when that ends with a colon, else the lead-in of the list it
sits in. The lead-in's scope qualifiers (the scope phrases of data/scope.yaml) are added to
every item's claims for the dimensions the item does not state itself. A lead-in of a few
words that only names something ("Annual leave:") is the attribute of items that name none
("- Full-time staff: 25 days" is annual leave = 25 days, employment full-time).
"""

from __future__ import annotations

from collections.abc import Callable

from claims.documents.model import Block, BlockKind
from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.faq import answered
from claims.models import Claim


def lead_ins(context: ReadContext) -> dict[int, Block]:
    """Each list item's lead-in block, keyed by the item's start offset."""
    text = context.text
    found: dict[int, Block] = {}
    outer: Block | None = None  # the lead-in of the list now read
    parents: dict[int, Block] = {}  # nesting level -> the last item at that level
    for block in context.document.blocks:
        if block.kind is not BlockKind.LIST_ITEM:
            outer = block if _is_lead_in(text, block) else None
            parents.clear()
            continue
        level = block.level or 1
        parents[level] = block
        lead = outer
        parent = parents.get(level - 1)
        if level > 1 and parent is not None and _is_lead_in(text, parent):
            lead = parent
        if lead is not None:
            found[block.start] = lead
    return found


def _is_lead_in(text: str, block: Block) -> bool:
    return block.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM) and text[
        block.start : block.end
    ].rstrip().endswith(":")


def lead_in_scope(context: ReadContext, lead_in: Block) -> dict[str, str]:
    """The scope qualifiers a lead-in states (a dimension stated twice is left out)."""
    doc = context.nlp.make_doc(context.text[lead_in.start : lead_in.end])
    doc = context.nlp.get_pipe("claim_cues")(doc)
    scope: dict[str, str] = {}
    doubled: set[str] = set()
    # the longest phrase wins, as in a sentence: "full-time employees" is no "employees"
    matches = sorted(
        (m for m in doc._.cues or [] if m[2] == "SCOPE"), key=lambda m: (m[0], m[0] - m[1])
    )
    taken = -1
    for start, end, _, ident in matches:
        if start < taken:
            continue
        taken = end
        dim, _, value = ident.partition("=")
        if dim in scope and scope[dim] != value:
            doubled.add(dim)
        scope[dim] = value
    return {dim: value for dim, value in scope.items() if dim not in doubled}


def with_lead_ins(
    context: ReadContext, claims: list[Claim], block_of: Callable[[Claim], Block | None]
) -> list[Claim]:
    """``claims`` with each list item's claims scoped by the item's lead-in."""
    leads = lead_ins(context)
    if not leads:
        return claims
    scopes: dict[int, dict[str, str]] = {}
    out: list[Claim] = []
    for claim in claims:
        block = block_of(claim)
        lead = leads.get(block.start) if block is not None else None
        if lead is None:
            out.append(claim)
            continue
        if lead.start not in scopes:
            scopes[lead.start] = lead_in_scope(context, lead)
        extra = {k: v for k, v in scopes[lead.start].items() if k not in claim.scope}
        claim = claim.model_copy(update={"scope": {**claim.scope, **extra}}) if extra else claim
        out.append(_named_by(context, claim, lead))
    return out


_MAX_NAMING_WORDS = 4


def _named_by(context: ReadContext, claim: Claim, lead: Block) -> Claim:
    """An item that names no attribute ("- Full-time staff: 25 days") under a lead-in that is
    only a name ("Annual leave:") states that attribute, read as the FAQ reader reads a
    question ("What is the annual leave?")."""
    words = context.text[lead.start : lead.end].rstrip().rstrip(":").split()
    if not claim.claim_key.startswith("unknown:") or not 0 < len(words) <= _MAX_NAMING_WORDS:
        return claim
    return answered(claim, f"What is the {' '.join(words)}?")
