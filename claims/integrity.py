"""Store integrity rules the asset checks enforce (plain functions over a session)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, delete, func, or_, select
from sqlalchemy.orm import Session, aliased

from claims.ids import sha256_hex
from claims.store.changes import CLAIMS, forget_extractions, record_changes
from claims.tables import ClaimRow, EdgeRow, SourceVersionRow


@dataclass(frozen=True)
class Problem:
    """One violation, worded for the operator who has to fix it."""

    where: str
    what: str


def quote_problems(
    session: Session, version_ids: Sequence[str] | None, generation: str, limit: int = 50
) -> tuple[int, list[Problem]]:
    """Claims whose quote is not the version text at their span, and versions whose text no
    longer matches their checksum. Returns (claims checked, problems)."""
    checked, problems = 0, []
    for versions in _chunks(session, version_ids):
        by_id = {version.id: version for version in versions}
        for version in versions:
            expected = version.text_sha256 or version.sha256  # a converted text has its own
            if not _text_matches_checksum(version.text, expected):
                problems.append(
                    Problem(
                        version.id,
                        f"text of {version.source_id} v{version.number} does not match its sha256",
                    )
                )
        rows = session.execute(
            select(
                ClaimRow.id,
                ClaimRow.source_version_id,
                ClaimRow.span_start,
                ClaimRow.span_end,
                ClaimRow.quote,
                ClaimRow.generation,
            ).where(ClaimRow.source_version_id.in_(list(by_id)))  # generation: see below
        )
        for claim_id, version_id, start, end, quote, claim_generation in rows:
            if claim_generation != generation:
                continue
            checked += 1
            version = by_id[version_id]
            if version.text[start:end] != quote:
                problems.append(
                    Problem(
                        claim_id,
                        f"quote differs from {version.source_id} v{version.number}[{start}:{end}]",
                    )
                )
        if len(problems) >= limit:
            return checked, problems[:limit]
    return checked, problems


def _text_matches_checksum(text: str, sha256: str) -> bool:
    """The checksum covers the file's exact bytes; ingest drops a UTF-8 byte order mark from
    the text (offsets must not count it), so the text matches with or without the mark."""
    data = text.encode("utf-8")
    return sha256_hex(data) == sha256 or sha256_hex(UTF8_BOM + data) == sha256


UTF8_BOM = b"\xef\xbb\xbf"


# Queries by version ids compare the generation in Python: with ``generation = ?`` next to
# ``source_version_id IN (...)``, SQLite picks the (generation, claim_key) index and walks
# every claim of the generation for each chunk of versions.


def unit_problems(
    session: Session, version_ids: Sequence[str] | None, generation: str, limit: int = 50
) -> tuple[int, list[Problem]]:
    """Quantity claims with a unit as written but no canonical unit."""
    checked, problems = 0, []
    for ids in _id_chunks(session, version_ids):
        where: list[ColumnElement[bool]] = [ClaimRow.unit.is_not(None)]
        if ids is not None:
            where.append(ClaimRow.source_version_id.in_(ids))  # generation: see below
        else:
            where.append(ClaimRow.generation == generation)
        for claim_id, unit, canonical, claim_generation in session.execute(
            select(ClaimRow.id, ClaimRow.unit, ClaimRow.canonical_unit, ClaimRow.generation).where(
                *where
            )
        ):
            if claim_generation != generation:
                continue
            checked += 1
            if not canonical:
                problems.append(Problem(claim_id, f"unit {unit!r} has no canonical unit"))
                if len(problems) >= limit:
                    return checked, problems
    return checked, problems


def dangling_edges(
    session: Session,
    generation: str,
    limit: int = 50,
    claim_keys: Sequence[str] | None = None,
) -> tuple[int, list[Problem]]:
    """Live edges of ``generation`` (at ``claim_keys`` if given) whose left or right claim
    does not exist."""
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    total = 0
    problems: list[Problem] = []
    keys = sorted(set(claim_keys)) if claim_keys is not None else None
    chunks = [keys[i : i + 500] for i in range(0, len(keys), 500)] if keys is not None else [None]
    for chunk in chunks:
        live = [EdgeRow.generation == generation, EdgeRow.retired_at.is_(None)]
        if chunk is not None:
            live.append(EdgeRow.claim_key.in_(chunk))
        total += session.scalar(select(func.count()).select_from(EdgeRow).where(*live)) or 0
        rows = session.execute(
            select(EdgeRow.id, EdgeRow.left_claim_id, EdgeRow.right_claim_id, left.id, right.id)
            .outerjoin(left, left.id == EdgeRow.left_claim_id)
            .outerjoin(right, right.id == EdgeRow.right_claim_id)
            .where(*live, or_(left.id.is_(None), right.id.is_(None)))
            .limit(limit)
        )
        problems += [
            Problem(edge_id, f"points to missing claim {l_id if found_l is None else r_id}")
            for edge_id, l_id, r_id, found_l, _found_r in rows
        ]
    return total, problems[:limit]


def _id_chunks(session: Session, version_ids: Sequence[str] | None) -> Iterator[list[str] | None]:
    if version_ids is None:
        yield None
        return
    ids = list(version_ids)
    for start in range(0, len(ids), 500):
        yield ids[start : start + 500]


def _chunks(
    session: Session, version_ids: Sequence[str] | None
) -> Iterator[list[SourceVersionRow]]:
    for ids in _id_chunks(session, version_ids):
        stmt = select(SourceVersionRow)
        if ids is not None:
            stmt = stmt.where(SourceVersionRow.id.in_(ids))
        yield list(session.scalars(stmt))


def versions_of_problems(session: Session, problems: Sequence[Problem]) -> set[str]:
    """The source version ids the problems are about (a problem names a claim or a version)."""
    named = {p.where for p in problems}
    versions = set(
        session.scalars(select(SourceVersionRow.id).where(SourceVersionRow.id.in_(named)))
    )
    versions |= set(
        session.scalars(select(ClaimRow.source_version_id).where(ClaimRow.id.in_(named)))
    )
    return versions


def quarantine_claims(session: Session, version_ids: Sequence[str], generation: str) -> int:
    """Delete the ``generation`` claims of these versions, so the graph never reads them.

    Only claims that nothing points to yet can go (a claim that failed its check never
    reached the graph: ids are deterministic, so a claim that had passed would pass again);
    if anything does point to one, the database refuses and the caller keeps blocking.
    """
    rows = session.execute(
        select(ClaimRow.id, ClaimRow.claim_key).where(
            ClaimRow.source_version_id.in_(list(version_ids)),
            ClaimRow.generation == generation,
        )
    ).all()
    ids = [claim_id for claim_id, _ in rows]
    for start in range(0, len(ids), 500):
        session.execute(delete(ClaimRow).where(ClaimRow.id.in_(ids[start : start + 500])))
    # the store now says: not extracted (the next run plans them again), keys changed
    forget_extractions(session, version_ids, generation)
    record_changes(session, {key for _, key in rows}, CLAIMS, generation)
    return len(ids)
