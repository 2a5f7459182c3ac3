"""Claim extraction: spaCy (blank English + rules from data files) and pint units.

Public surface:

- ``extract(text, *, source_id=None, source_version_id=None, document_subject=None,
  profile=None) -> list[Claim]`` (``profile``: a name of ``claims.profiles``; None: office)
- ``current_generation() -> (generation id, "gen-<8hex>")``
- ``parse_question(text) -> QuestionFrame`` (claim_key, coarse_key, scope, residual, time)
- ``find_supersession_mentions(text) -> list[SupersessionMention]``
- ``get_pipeline(model=None, profile="office")`` / ``build_pipeline(...)``: the spaCy ``Language``;
  ``nlp(text)._.claims`` holds the claims; ``claims_with(nlp, text, ...)`` is ``extract``
  on a given pipeline.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from claims.extraction.spacy_import import import_spacy

import_spacy()  # first, before any module of the package imports spaCy: without its CLI

from claims.documents.model import BlockKind, Document  # noqa: E402
from claims.documents.structure import read_structure  # noqa: E402
from claims.errors import InputError  # noqa: E402
from claims.extraction.assembly import SUBJECT_KEY, TEXT_KEY  # noqa: E402
from claims.extraction.entity_refs import reading as reading_entity_refs  # noqa: E402
from claims.extraction.entity_refs import with_refs as with_entity_refs  # noqa: E402
from claims.extraction.generation import current_generation  # noqa: E402
from claims.extraction.office_prose import office_claims  # noqa: E402
from claims.extraction.person_names import reading as reading_person_names  # noqa: E402
from claims.extraction.pipeline import (  # noqa: E402
    BLOCK_STARTS,
    GENERATION,
    SOURCE_ID,
    SOURCE_VERSION_ID,
    build_pipeline,
    get_pipeline,
)
from claims.extraction.question import QuestionFrame  # noqa: E402
from claims.extraction.question import parse_question as _parse_question  # noqa: E402
from claims.extraction.readers import ReadContext, prose_text, read_blocks  # noqa: E402
from claims.extraction.readers.label_lines import rewrite_label_lines  # noqa: E402
from claims.extraction.supersession import SupersessionMention, find_supersession_mentions  # noqa: E402
from claims.lookalikes import Folded, fold_key, fold_lookalikes  # noqa: E402
from claims.models import Claim, Span  # noqa: E402
from claims.profiles import DEFAULT_PROFILE  # noqa: E402
from claims.settings import get_settings  # noqa: E402

if TYPE_CHECKING:
    from spacy.language import Language


def extract(
    text: str,
    *,
    source_id: str | None = None,
    source_version_id: str | None = None,
    document_subject: str | None = None,
    profile: str | None = None,
    generation: str | None = None,
    media_type: str = "text/markdown",
    document_date: date | None = None,
) -> list[Claim]:
    """Every claim in ``text``, in document order, with spans into ``text`` itself.

    The text is read by its structure first (``claims.documents.structure``): headings,
    paragraphs, list items, label lines, FAQ questions and tables each go to their reader,
    and every claim carries the ``locator`` of its block. ``media_type`` "text/plain" also
    reads a short line between blank lines as a heading. ``document_date`` (the register's
    effective date) gives a year to dates written without one when the document states no
    date of its own.

    ``document_subject`` is what the document is about (its register title): a sentence
    that says "it", "we" or "the company" states a claim about the entity it names. Without
    it, the text's first Markdown heading or title line serves.

    ``profile`` names the readers to add to the core (``claims.profiles``): None or
    ``office`` reads with the core alone, ``reference`` adds the encyclopedia-page readers.
    ``generation`` is the generation the claims are made in (None: ``current_generation``;
    the pipeline gives the one that includes the register's profile choices).

    Raises ``InputError`` only for input that cannot be text at all (not a ``str``) or is
    larger than the pipeline's limit.
    """
    if not isinstance(text, str):
        raise InputError(f"expected text (str), got {type(text).__name__}")
    nlp = get_pipeline(get_settings().spacy_model, profile or DEFAULT_PROFILE)
    if len(text) > nlp.max_length:
        raise InputError(
            f"text has {len(text)} characters, more than the extractor's limit of "
            f"{nlp.max_length}; split the source into smaller files"
        )
    return claims_with(
        nlp,
        text,
        source_id,
        source_version_id,
        document_subject,
        media_type,
        document_date,
        generation=generation,
    )


def claims_with(
    nlp: Language,
    text: str,
    source_id: str | None,
    source_version_id: str | None,
    document_subject: str | None,
    media_type: str = "text/markdown",
    document_date: date | None = None,
    *,
    generation: str | None = None,
) -> list[Claim]:
    """``extract`` on a given pipeline (``build_pipeline``), its limits already checked;
    the claims made in ``generation`` (None: ``current_generation``).

    Every reader reads the text with look-alike letters and invisible characters folded
    (``claims.lookalikes``), so keys, attributes and entities do not split on them; each
    claim's spans and quote are then those of ``text`` itself.
    """
    reading = fold_lookalikes(text)
    folded = reading.text
    document = read_structure(folded, media_type)
    # one pass of the sentence reader: the prose (other readers' blocks blanked), then the
    # label lines rewritten as sentences, after a blank line (readers.label_lines)
    prose = prose_text(document)
    rewritten = rewrite_label_lines(folded, document.blocks, len(prose) + 2)
    whole = prose + "\n\n" + rewritten.text if rewritten.lines else prose
    generation = generation or current_generation()[0]
    read = _sentence_claims(
        nlp,
        whole,
        source_id,
        source_version_id,
        fold_key(document_subject) if document_subject else None,
        _unit_starts(document),
        generation,
    )
    context = ReadContext(document, nlp, source_id, source_version_id, generation)
    claims = office_claims(read_blocks(context, read, rewritten), document, document_date)
    if reading.changed:
        claims = [_exact(claim, text, reading) for claim in claims]
    return claims


def _exact(claim: Claim, text: str, reading: Folded) -> Claim:
    """``claim`` with its spans and quote in the original ``text`` (it was read folded)."""
    start, end = reading.original_span(claim.span.start, claim.span.end)
    update: dict[str, object] = {"span": Span(start=start, end=end), "quote": text[start:end]}
    if claim.value_span is not None:
        v_start, v_end = reading.original_span(claim.value_span.start, claim.value_span.end)
        update["value_span"] = Span(start=v_start, end=v_end)
    return claim.model_copy(update=update)


def parse_question(text: str) -> QuestionFrame:
    """The claim key, coarse key, scope, residual qualifiers and time a question asks about,
    read with look-alike letters and invisible characters folded, as sources are."""
    return _parse_question(fold_key(text))


def _unit_starts(document: Document) -> list[int]:
    """Where the line of every block starts: each ends the unit before it (a heading's or
    list item's marker stays with its line, as the sentence reader expects); a list item
    that a bullet glyph opens inside a line starts at its glyph."""
    text = document.text
    starts = {text.rfind("\n", 0, b.start) + 1 for b in document.blocks}
    for block in document.blocks:
        inline = _INLINE_BULLET.search(text, max(0, block.start - 8), block.start)
        if block.kind is BlockKind.LIST_ITEM and inline is not None:
            starts.add(inline.start(1))
    return sorted(starts)


# the glyph of an item opening inside a line ("...; • a decrease"), right before its text
_INLINE_BULLET = re.compile(r"\S[ \t]+([^\w\s])[ \t]+\Z")


def _sentence_claims(
    nlp: Language,
    text: str,
    source_id: str | None,
    source_version_id: str | None,
    document_subject: str | None,
    block_starts: Sequence[int],
    generation: str,
) -> list[Claim]:
    doc = nlp.make_doc(text)
    doc.user_data[GENERATION] = generation
    doc.user_data[SOURCE_ID] = source_id
    doc.user_data[SOURCE_VERSION_ID] = source_version_id
    doc.user_data[TEXT_KEY] = text
    doc.user_data[SUBJECT_KEY] = document_subject
    doc.user_data[BLOCK_STARTS] = block_starts
    with reading_person_names(text), reading_entity_refs():
        for _, component in nlp.pipeline:
            doc = component(doc)
        claims: list[Claim] = with_entity_refs(doc._.claims or [])
    return claims


__all__ = [
    "QuestionFrame",
    "SupersessionMention",
    "build_pipeline",
    "claims_with",
    "current_generation",
    "extract",
    "find_supersession_mentions",
    "get_pipeline",
    "parse_question",
]
