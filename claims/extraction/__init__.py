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

from typing import TYPE_CHECKING

from claims.extraction.spacy_import import import_spacy

import_spacy()  # first, before any module of the package imports spaCy: without its CLI

from claims.documents.model import BlockKind, Document  # noqa: E402
from claims.errors import InputError  # noqa: E402
from claims.extraction.assembly import SUBJECT_KEY, TEXT_KEY  # noqa: E402
from claims.extraction.entity_refs import reading as reading_entity_refs  # noqa: E402
from claims.extraction.entity_refs import with_refs as with_entity_refs  # noqa: E402
from claims.extraction.generation import current_generation  # noqa: E402
from claims.extraction.person_names import reading as reading_person_names  # noqa: E402
from claims.extraction.pipeline import SOURCE_ID, SOURCE_VERSION_ID, build_pipeline, get_pipeline  # noqa: E402
from claims.extraction.question import QuestionFrame, parse_question  # noqa: E402
from claims.extraction.readers import blank_tables, read_table, table_document  # noqa: E402
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
) -> list[Claim]:
    """Every claim in ``text``, in document order, with spans into ``text`` itself.

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
    return claims_with(nlp, text, source_id, source_version_id, document_subject)


def claims_with(
    nlp: Language,
    text: str,
    source_id: str | None,
    source_version_id: str | None,
    document_subject: str | None,
) -> list[Claim]:
    """``extract`` on a given pipeline (``build_pipeline``), its limits already checked.

    Markdown pipe tables are read by the table reader (``claims.extraction.readers``); the
    sentence reader sees the text with the tables blanked out (same offsets)."""
    tables = table_document(text, document_subject)
    prose = blank_tables(text, tables) if tables is not None else text
    doc = nlp.make_doc(prose)
    doc.user_data[SOURCE_ID] = source_id
    doc.user_data[SOURCE_VERSION_ID] = source_version_id
    doc.user_data[TEXT_KEY] = prose
    doc.user_data[SUBJECT_KEY] = document_subject
    with reading_person_names(prose), reading_entity_refs():
        for _, component in nlp.pipeline:
            doc = component(doc)
        claims: list[Claim] = with_entity_refs(doc._.claims or [])
    if tables is None:
        return claims
    return _with_table_claims(claims, tables, source_id, source_version_id)


def _with_table_claims(
    claims: list[Claim],
    document: Document,
    source_id: str | None,
    source_version_id: str | None,
) -> list[Claim]:
    """The sentence reader's claims and every table's, in document order."""
    generation = current_generation()[0]
    read: list[Claim] = []
    number = 0
    for block in document.blocks:
        if block.kind == BlockKind.TABLE:
            number += 1
            read += [
                item.claim
                for item in read_table(
                    document,
                    block,
                    table_number=number,
                    source_id=source_id,
                    source_version_id=source_version_id,
                    generation=generation,
                )
            ]
    merged: list[Claim] = []
    pending = iter(read)
    table_claim = next(pending, None)
    for claim in claims:  # the sentence reader's order is kept; table claims slot in by offset
        while table_claim is not None and table_claim.span.start < claim.span.start:
            merged.append(table_claim)
            table_claim = next(pending, None)
        merged.append(claim)
    if table_claim is not None:
        merged.append(table_claim)
    merged.extend(pending)
    return merged


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
