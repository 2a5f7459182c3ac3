"""Who a claim is about, as data: the ``EntityRef`` each claim names (its name, the
qualifier that tells it from namesakes, the source it is local to), else its page's subject.

Split from ``retrieval.finding``. Every entity here is read from the claim's stored
reference (``claims.store.claims.entity_ref_of``), never parsed out of the readable entity:
a bracket in a name ("router (model b)") is part of the name, and a subject known only
inside one source says so in ``local_to``, not by a mark in a string.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import Connection, select, text

from claims.models import EntityRef
from claims.store.batches import batches
from claims.store.claims import entity_ref_of
from claims.tables import ClaimRow
from retrieval.answering import entity_references
from retrieval.candidates import entity_fit
from retrieval.evidence import MAX_BLOCK_ROWS, ClaimFact

Named = dict[str, EntityRef | None]  # claim id -> the entity it is about

_REF_COLUMNS = (
    ClaimRow.entity,
    ClaimRow.entity_name,
    ClaimRow.entity_qualifier,
    ClaimRow.entity_local_to,
)
_REF_NAMES = ", ".join(column.key for column in _REF_COLUMNS)


def is_local(ref: EntityRef | None) -> bool:
    """Whether ``ref`` is a subject known only inside one source ("no title tells it from
    its namesakes"): read from the stored reference, never from a mark in its text."""
    return ref is not None and ref.local_to is not None


def is_reference(ref: EntityRef | None) -> bool:
    """Whether ``ref`` names its subject only by what it is ("the club", "the house")."""
    return ref is not None and ref.text in entity_references()


def names_something(ref: EntityRef | None) -> bool:
    """Whether ``ref`` names a thing of its own (not nothing, not only what it is)."""
    return ref is not None and not is_reference(ref)


def text_of(ref: EntityRef | None) -> str:
    """The readable entity (what answers show), "" for none."""
    return ref.text if ref is not None else ""


def claim_entities(conn: Connection, ids: list[str]) -> Named:
    """The entity each claim names, as stored (one indexed read by primary key)."""
    found: Named = {}
    for chunk in batches(ids):
        rows = conn.execute(select(ClaimRow.id, *_REF_COLUMNS).where(ClaimRow.id.in_(chunk)))
        found.update({row.id: entity_ref_of(row) for row in rows})
    return found


def claim_attributes(conn: Connection, ids: list[str]) -> dict[str, str]:
    """The attribute each claim states (its key when it has none)."""
    found: dict[str, str] = {}
    for chunk in batches(ids):
        rows = conn.execute(
            select(ClaimRow.id, ClaimRow.attribute, ClaimRow.claim_key).where(
                ClaimRow.id.in_(chunk)
            )
        )
        found.update({row[0]: row[1] or row[2] for row in rows})
    return found


def _opening_entities(conn: Connection, versions: list[str]) -> list[tuple[str, EntityRef]]:
    """(version, entity) of the claims read from each page's first words, by version and
    readable entity: the entities that may be the page's subject."""
    found: list[tuple[str, EntityRef]] = []
    for chunk in batches(versions):
        rows = conn.execute(
            select(ClaimRow.source_version_id, *_REF_COLUMNS)
            .where(ClaimRow.source_version_id.in_(chunk))
            .where(ClaimRow.span_start == 0)
            .where(ClaimRow.entity.is_not(None))
            .order_by(ClaimRow.source_version_id, ClaimRow.entity)
        )
        for row in rows:
            ref = entity_ref_of(row)
            if ref is not None and names_something(ref):
                found.append((row.source_version_id, ref))
    return found


def page_subjects(conn: Connection, claims: list[ClaimFact]) -> dict[str, EntityRef]:
    """The subject of each claim's page, where the page names it in its opening: the
    entity of a claim read from the page's first words (a title, an opening sentence, a box
    that names its subject). Only the pages of the given claims are read, by version (one
    indexed read each batch); a page cut from the middle of an article has no subject."""
    found: dict[str, EntityRef] = {}
    for version, ref in _opening_entities(conn, sorted({c.version_id for c in claims})):
        found.setdefault(version, ref)
    return {c.id: found[c.version_id] for c in claims if c.version_id in found}


def named_entities(conn: Connection, claims: list[ClaimFact], asked: str | None) -> Named:
    """The entity each claim is about: the one it names, else (it names none, or only what
    the thing is: "the house") its page's subject when that is the asked entity's name. The
    question knows which entity it asks about: "Built in 1912, it was added to the county
    roll" on the page titled "Harlow Courthouse (Nebraska)" is about that
    courthouse, though the sentence names nothing. A page about something else leaves the
    claim unnamed (unknown, not excluded)."""
    named = claim_entities(conn, [c.id for c in claims])
    if not asked:
        return named
    unnamed = [c for c in claims if not names_something(named.get(c.id))]
    if not unnamed:
        return named
    for claim_id, subject in page_subjects(conn, unnamed).items():
        if entity_fit(asked, subject) > 0:
            named[claim_id] = subject
    return named


def entities_about(conn: Connection, claims: list[ClaimFact], asked: str | None) -> Named:
    """``named_entities``, each named claim read as its page names its subject (as
    ``best_named`` reads them): what the answer groups namesakes by."""
    named = named_entities(conn, claims, asked)
    if asked:
        as_their_pages_name_them(conn, claims, named)
    return named


def as_their_pages_name_them(conn: Connection, claims: list[ClaimFact], named: Named) -> set[str]:
    """Read each named claim as its page names its subject; updates ``named`` in place and
    returns the claims whose name is known only inside an untitled page.

    A sentence naming a short form of its page's titled subject ("Princess Mirela was born
    in Lyon" on the page "Princess Mirela Antonovna of Varsenia") is about that subject, as
    well or as badly as the title fits the asked name. A bare name on a page with no title
    ("Irena Valdoro (Greek: ...) was a queen-consort" under a box) is the subject of
    that page only: like a subject stored as local to its source, no title tells it from
    its titled namesakes, so it fits no better than they do and cannot answer alone beside
    them."""
    with_names = [c for c in claims if named.get(c.id)]
    if not with_names:
        return set()
    subjects = page_subjects(conn, with_names)
    untitled: set[str] = set()
    for claim in with_names:
        own = named[claim.id]
        assert own is not None
        subject = subjects.get(claim.id)
        if subject is None:
            if not is_local(own):
                untitled.add(claim.id)
        elif subject != own and entity_fit(own.text, subject) > 0:
            named[claim.id] = subject
    return untitled


def named_in_passing(conn: Connection, claims: list[ClaimFact], named: Named) -> set[str]:
    """The named claims whose page's first words name something else only: "The granary
    was restored and became the Museum of X in 1955" on a page cut from the middle (its
    first claims name "the building"). Like a bare name on an untitled page, no title tells
    that museum from its titled namesakes, so it fits no better than they do (read by
    ``best_named`` only; namesakes are still told apart by their own names). A page whose
    first words name the claim's entity among others ("Tom Ashby Tom Ashby (15 March
    1851 ...) was an Irish American boxer") names it."""
    with_names = [c for c in claims if named.get(c.id) and not is_local(named[c.id])]
    if not with_names:
        return set()
    opening: dict[str, set[EntityRef]] = defaultdict(set)  # version -> its first words' entities
    for version, ref in _opening_entities(conn, sorted({c.version_id for c in with_names})):
        opening[version].add(ref)
    return {
        c.id
        for c in with_names
        if opening.get(c.version_id)
        and not any(entity_fit(text_of(named[c.id]), e) > 0 for e in opening[c.version_id])
    }


def local_subjects(
    conn: Connection, generation: str | None, coarse_key: str, attribute: str
) -> dict[str, EntityRef]:
    """Claim keys of ``attribute`` (in its ``coarse_key`` block) whose claims are about a
    subject stored as local to one source, each with that subject. Read from the block's
    first ``MAX_BLOCK_ROWS`` claims, as the block's keys are (one bounded indexed read:
    filtering by attribute in the statement let the database walk a whole block of a million
    claims when none matched); keys and references only, so nothing about who may see their
    claims."""
    if generation is None:
        return {}
    indexed = " INDEXED BY ix_claims_generation_coarse_key" if conn.dialect.name == "sqlite" else ""
    block = text(
        f"SELECT claim_key, attribute, {_REF_NAMES} FROM claims{indexed} "
        f"WHERE generation = :g AND coarse_key = :c LIMIT {MAX_BLOCK_ROWS}"
    ).bindparams(g=generation, c=coarse_key)
    found: dict[str, EntityRef] = {}
    rows = sorted(
        (row for row in conn.execute(block) if row.attribute == attribute and row.entity_local_to),
        key=lambda row: (row.claim_key, row.entity or ""),
    )
    for row in rows:
        ref = entity_ref_of(row)
        if ref is not None:
            found.setdefault(row.claim_key, ref)
    return found
