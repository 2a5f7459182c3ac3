"""The reference profile's spaCy components, over the tokenization and the claims the core
made (``Doc._.claims``), in the order ``profile.REFERENCE`` adds them:

    reference_relations  ties stated in passing ("the son of ...", prose_relations.py)
    reference_records    records and their holders ("X is the largest ...", records.py)
    reference_became     what an institution became and when (became.py)
    ... the core's abbreviation reader ...
    reference_opening    the page's subject and labels, placed on every claim naming no
                         entity (opening.py): last, as it reads every claim
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from claims.extraction.mentions import Mentions
from claims.extraction.pipeline import ClaimContext, claim_context, sentence_offsets
from claims.extraction.roles import SUBJECT_KEY
from claims.ids import stable_id_maker
from claims.models import Claim
from claims.reference.became import became_claims
from claims.reference.opening import opening_claims
from claims.reference.page_attributes import page_attributes
from claims.reference.page_title import described_claims, page_title, titled_scope
from claims.reference.prose_relations import relation_claims, with_relations
from claims.reference.records import record_claims, with_records


def _claims(doc: Doc) -> list[Claim]:
    claims: list[Claim] = doc._.claims or []
    return claims


class RelationReader:
    """Ties stated in passing, read from the sentence reader's token roles."""

    def __call__(self, doc: Doc) -> Doc:
        roles, at = doc._.roles, claim_context(doc)
        if roles is None:
            return doc
        prose = relation_claims(
            doc, at.text, roles.lower, roles.idx, roles.end,
            at.source_id, at.version_id, at.generation,
        )  # fmt: skip
        doc._.claims = with_relations(_claims(doc), prose)
        return doc


class RecordReader:
    """Records and their holders; before the opening reader, which puts a page's subject on
    them as on every claim naming no entity, so two pages' "the largest city is ..." are two
    scopes."""

    def __call__(self, doc: Doc) -> Doc:
        at = claim_context(doc)
        records = record_claims(
            at.text, sentence_offsets(doc), stable_id_maker("cl", at.version_id, at.generation),
            at.source_id, at.version_id, at.generation,
        )  # fmt: skip
        doc._.claims = with_records(_claims(doc), records)
        return doc


class BecameReader:
    """ "The building became the Museum of X in 1980": when the museum began."""

    def __call__(self, doc: Doc) -> Doc:
        at = claim_context(doc)
        mentions: Mentions = doc._.mentions or Mentions()
        became = became_claims(
            at.text, sentence_offsets(doc), mentions.times,
            at.source_id, at.version_id, at.generation,
        )  # fmt: skip
        if became:
            doc._.claims = with_relations(_claims(doc), became)
        return doc


class OpeningReader:
    """A reference article's opening: its subject and labels; the page's title (the
    register's, when it gives one) for a text cut from a page."""

    def __call__(self, doc: Doc) -> Doc:
        at: ClaimContext = claim_context(doc)
        mentions: Mentions = doc._.mentions or Mentions()
        page = page_title(doc.user_data.get(SUBJECT_KEY))
        claims = opening_claims(
            doc, at.text, mentions, _claims(doc), at.source_id, at.version_id, at.generation,
            page.opening if page is not None else None,
        )  # fmt: skip
        if page is not None:
            claims = page_attributes(titled_scope(described_claims(claims, page), page), page)
        doc._.claims = claims
        return doc


@Language.factory("reference_relations")
def make_relation_reader(nlp: Language, name: str) -> RelationReader:
    return RelationReader()


@Language.factory("reference_records")
def make_record_reader(nlp: Language, name: str) -> RecordReader:
    return RecordReader()


@Language.factory("reference_became")
def make_became_reader(nlp: Language, name: str) -> BecameReader:
    return BecameReader()


@Language.factory("reference_opening")
def make_opening_reader(nlp: Language, name: str) -> OpeningReader:
    return OpeningReader()
