"""Claim extraction: spaCy (blank English + rules from data files) and pint units.

Public surface:

- ``extract(text, *, source_id=None, source_version_id=None, document_subject=None)``
  ``-> list[Claim]``
- ``current_generation() -> (generation id, "gen-<8hex>")``
- ``parse_question(text) -> QuestionFrame`` (claim_key, coarse_key, scope, residual, time)
- ``find_supersession_mentions(text) -> list[SupersessionMention]``
- ``get_pipeline(model=None)`` / ``build_pipeline(model=None)``: the spaCy ``Language``;
  ``nlp(text)._.claims`` holds the claims; ``claims_with(nlp, text, ...)`` is ``extract``
  on a given pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from claims.extraction.spacy_import import import_spacy

import_spacy()  # first, before any module of the package imports spaCy: without its CLI

from claims.documents.model import Document  # noqa: E402
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
    SOURCE_ID,
    SOURCE_VERSION_ID,
    build_pipeline,
    get_pipeline,
)
from claims.extraction.question import QuestionFrame, parse_question  # noqa: E402
from claims.extraction.readers import ReadContext, prose_text, read_blocks  # noqa: E402
from claims.extraction.readers.label_lines import rewrite_label_lines  # noqa: E402
from claims.extraction.supersession import SupersessionMention, find_supersession_mentions  # noqa: E402
from claims.models import Claim  # noqa: E402
from claims.settings import get_settings  # noqa: E402

if TYPE_CHECKING:
    from spacy.language import Language


def extract(
    text: str,
    *,
    source_id: str | None = None,
    source_version_id: str | None = None,
    document_subject: str | None = None,
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

    Raises ``InputError`` only for input that cannot be text at all (not a ``str``) or is
    larger than the pipeline's limit.
    """
    if not isinstance(text, str):
        raise InputError(f"expected text (str), got {type(text).__name__}")
    nlp = get_pipeline(get_settings().spacy_model)
    if len(text) > nlp.max_length:
        raise InputError(
            f"text has {len(text)} characters, more than the extractor's limit of "
            f"{nlp.max_length}; split the source into smaller files"
        )
    return claims_with(
        nlp, text, source_id, source_version_id, document_subject, media_type, document_date
    )


def claims_with(
    nlp: Language,
    text: str,
    source_id: str | None,
    source_version_id: str | None,
    document_subject: str | None,
    media_type: str = "text/markdown",
    document_date: date | None = None,
) -> list[Claim]:
    """``extract`` on a given pipeline (``build_pipeline``), its limits already checked."""
    document = read_structure(text, media_type)
    # one pass of the sentence reader: the prose (other readers' blocks blanked), then the
    # label lines rewritten as sentences, after a blank line (readers.label_lines)
    prose = prose_text(document)
    rewritten = rewrite_label_lines(text, document.blocks, len(prose) + 2)
    whole = prose + "\n\n" + rewritten.text if rewritten.lines else prose
    read = _sentence_claims(
        nlp, whole, source_id, source_version_id, document_subject, _unit_starts(document)
    )
    context = ReadContext(document, nlp, source_id, source_version_id, current_generation()[0])
    return office_claims(read_blocks(context, read, rewritten), document, document_date)


def _unit_starts(document: Document) -> list[int]:
    """Where the line of every block starts: each ends the unit before it (a heading's or
    list item's marker stays with its line, as the sentence reader expects)."""
    text = document.text
    return sorted({text.rfind("\n", 0, b.start) + 1 for b in document.blocks})


def _sentence_claims(
    nlp: Language,
    text: str,
    source_id: str | None,
    source_version_id: str | None,
    document_subject: str | None,
    block_starts: Sequence[int],
) -> list[Claim]:
    doc = nlp.make_doc(text)
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
