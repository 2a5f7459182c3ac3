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

from claims.errors import InputError  # noqa: E402
from claims.extraction.assembly import SUBJECT_KEY, TEXT_KEY  # noqa: E402
from claims.extraction.entity_refs import reading as reading_entity_refs  # noqa: E402
from claims.extraction.entity_refs import with_refs as with_entity_refs  # noqa: E402
from claims.extraction.generation import current_generation  # noqa: E402
from claims.extraction.person_names import reading as reading_person_names  # noqa: E402
from claims.extraction.pipeline import SOURCE_ID, SOURCE_VERSION_ID, build_pipeline, get_pipeline  # noqa: E402
from claims.extraction.question import QuestionFrame  # noqa: E402
from claims.extraction.question import parse_question as _parse_question  # noqa: E402
from claims.extraction.supersession import SupersessionMention, find_supersession_mentions  # noqa: E402
from claims.lookalikes import Folded, fold_key, fold_lookalikes  # noqa: E402
from claims.models import Claim, Span  # noqa: E402
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

    The pipeline reads the text with look-alike letters and invisible characters folded
    (``claims.lookalikes``), so keys, attributes and entities do not split on them; each
    claim's spans and quote are then those of ``text`` itself.
    """
    reading = fold_lookalikes(text)
    doc = nlp.make_doc(reading.text)
    doc.user_data[SOURCE_ID] = source_id
    doc.user_data[SOURCE_VERSION_ID] = source_version_id
    doc.user_data[TEXT_KEY] = reading.text
    doc.user_data[SUBJECT_KEY] = fold_key(document_subject) if document_subject else None
    with reading_person_names(reading.text), reading_entity_refs():
        for _, component in nlp.pipeline:
            doc = component(doc)
        claims: list[Claim] = with_entity_refs(doc._.claims or [])
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
