"""Retention: erasing a source on request (a data-subject or legal request), and re-admitting it.

``erase`` removes, in the caller's transaction, everything that holds text of the source or
depends on it: its versions (text, origin path), their claims (quotes, values, the full-text
index rows the claims' triggers keep), supersession candidates, version supersessions,
extraction marks, value-group memberships and the ``claim_status`` rows of its claims.
What depended on those claims is taken apart the same way:

- edges between an erased claim and any other reference the claim (a foreign key), so they
  are deleted; value-group relations whose group lost every member are retired (kept, as
  they hold no text of the source) unless their reason quotes it, then deleted;
- review items that included an erased claim are deleted with their resolutions: a
  resolution's rationale is a reviewer's free text that may quote the source, and the
  item's remaining conflict (if any) is opened again by the next routing, for a decision
  made without the erased evidence. The audit log keeps their history by id.

The source row itself stays (its register metadata is the register's, not the document's),
so the register can keep naming it. The claim keys the source stated are recorded in the
change feed, so the edge builder, review routing and the status read model recompute them.

The audit log keeps a tombstone (action ``source.erase``): who, when, why, the review items
and resolutions affected, the sha256 and size of each erased version, counts; no text. The
tombstone is also what keeps the source out: ``erased_versions`` lists the (source, sha256)
pairs a run or an ingest must skip until ``readmit`` appends a ``source.readmit`` event. A
file whose content changed has another sha256 and is ingested as usual (docs/DATA_MODEL.md,
"Retention").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, or_, select, text, update
from sqlalchemy.orm import Session

from claims import audit_log
from claims.errors import InputError
from claims.store.batches import batches
from claims.store.changes import CLAIMS, EDGES, record_changes
from claims.store.search import FTS_TABLE
from claims.tables import (
    AuditEventRow,
    ClaimRow,
    ClaimStatusRow,
    EdgeRow,
    ResolutionRow,
    ResolutionWinnerRow,
    ReviewItemClaimRow,
    ReviewItemRow,
    SourceRow,
    SourceVersionRow,
    SupersessionCandidateRow,
    ValueGroupClaimRow,
    ValueGroupRelationRow,
    ValueGroupSlotRow,
    VersionExtractionRow,
    VersionSupersessionRow,
)

ERASE = "source.erase"
READMIT = "source.readmit"
ENTITY = "source"


@dataclass
class Erasure:
    """What one ``erase`` removed and retired (the tombstone's content, without text)."""

    source_id: str
    reason: str
    actor: str
    at: datetime
    versions: list[dict[str, Any]] = field(default_factory=list)  # number, sha256, size
    claims: int = 0
    claim_keys: set[str] = field(default_factory=set)  # for the change feed, not the tombstone
    edges_deleted: int = 0
    relations_retired: int = 0
    relations_deleted: int = 0
    memberships_deleted: int = 0
    review_items: list[str] = field(default_factory=list)
    resolutions: list[dict[str, Any]] = field(default_factory=list)  # id, item, method, outcome
    audit_id: int | None = None

    def tombstone(self) -> dict[str, Any]:
        """The audit row's ``after``: who/when/why live in the row's own columns."""
        return {
            "reason": self.reason,
            "versions": self.versions,
            "claims": self.claims,
            "claim_keys": len(self.claim_keys),
            "edges_deleted": self.edges_deleted,
            "value_group_relations_retired": self.relations_retired,
            "value_group_relations_deleted": self.relations_deleted,
            "value_group_memberships_deleted": self.memberships_deleted,
            "review_items_deleted": self.review_items,
            "resolutions_affected": self.resolutions,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "source_id": self.source_id,
            "actor": self.actor,
            "at": self.at.isoformat(),
            "audit_id": self.audit_id,
            **self.tombstone(),
        }


@dataclass(frozen=True)
class ErasedVersion:
    """A version the tombstones keep out: its file is skipped until the source is readmitted."""

    source_id: str
    sha256: str
    erased_at: datetime


def _chunks(values: Iterable[str]) -> Iterator[list[str]]:
    """Distinct ``values`` in sorted batches (one ``IN`` list each)."""
    return batches(sorted(set(values)))


def erase(
    session: Session,
    source_id: str,
    *,
    reason: str,
    actor: str,
    now: datetime | None = None,
) -> Erasure:
    """Erase ``source_id`` in the caller's transaction (see the module docstring).

    Refuses (``InputError``) an unknown source, an empty reason and a source with nothing
    left to erase; nothing is written then.
    """
    reason = reason.strip()
    if not reason:
        raise InputError("say why the source is erased (--reason TEXT); it goes in the audit log")
    if session.get(SourceRow, source_id) is None:
        raise InputError(
            f"no source {source_id!r} in this store; `claims sources list` shows the ids",
            location="SOURCE",
        )
    versions = session.execute(
        select(
            SourceVersionRow.id,
            SourceVersionRow.number,
            SourceVersionRow.sha256,
            SourceVersionRow.size_bytes,
        )
        .where(SourceVersionRow.source_id == source_id)
        .order_by(SourceVersionRow.number)
    ).all()
    if not versions:
        raise InputError(
            f"source {source_id!r} has no stored text to erase (already erased, or only named "
            "by the register); `claims audit` shows its history",
            location="SOURCE",
        )
    _overwrite_deleted_pages(session)
    erasure = Erasure(source_id=source_id, reason=reason, actor=actor, at=now or datetime.now(UTC))
    erasure.versions = [
        {"number": number, "sha256": sha, "size_bytes": size} for _, number, sha, size in versions
    ]
    version_ids = [vid for vid, *_ in versions]
    claim_rows = session.execute(
        select(ClaimRow.id, ClaimRow.claim_key, ClaimRow.quote).where(
            or_(ClaimRow.source_id == source_id, ClaimRow.source_version_id.in_(version_ids))
        )
    ).all()
    claim_ids = [cid for cid, _, _ in claim_rows]
    quotes = [quote for _, _, quote in claim_rows if quote]
    erasure.claims = len(claim_ids)
    erasure.claim_keys = {key for _, key, _ in claim_rows}

    _drop_review_items(session, claim_ids, erasure)
    _drop_edges(session, claim_ids, erasure)
    _drop_value_groups(session, claim_ids, quotes, erasure)
    _drop_claims(session, claim_ids, version_ids)
    _drop_versions(session, version_ids)
    _purge_search_index(session)

    # Whatever read these keys recomputes them: the edge builder (claims), then routing and
    # the status read model (edges), in every generation.
    record_changes(session, erasure.claim_keys, CLAIMS)
    record_changes(session, erasure.claim_keys, EDGES)
    row = audit_log.append(
        session,
        at=erasure.at,
        actor=actor,
        action=ERASE,
        entity_type=ENTITY,
        entity_id=source_id,
        before=None,
        after=erasure.tombstone(),
    )
    erasure.audit_id = row.id
    return erasure


def readmit(
    session: Session, source_id: str, *, reason: str, actor: str, now: datetime | None = None
) -> list[str]:
    """Let the erased files of ``source_id`` be ingested again; returns their sha256s.

    Appends a ``source.readmit`` audit event; the tombstone itself stays (the log is
    append-only). Refuses a source that is not erased.
    """
    reason = reason.strip()
    if not reason:
        raise InputError("say why the source is readmitted (--reason TEXT)")
    erased = [v.sha256 for v in erased_versions(session) if v.source_id == source_id]
    if not erased:
        raise InputError(
            f"source {source_id!r} is not erased; nothing to readmit", location="SOURCE"
        )
    audit_log.append(
        session,
        at=now,
        actor=actor,
        action=READMIT,
        entity_type=ENTITY,
        entity_id=source_id,
        before=None,
        after={"reason": reason, "sha256": erased},
    )
    return erased


def erased_versions(session: Session) -> list[ErasedVersion]:
    """The versions kept out: those of every erase not followed by a readmit of its source."""
    rows = session.execute(
        select(AuditEventRow.entity_id, AuditEventRow.action, AuditEventRow.at, AuditEventRow.after)
        .where(AuditEventRow.entity_type == ENTITY, AuditEventRow.action.in_((ERASE, READMIT)))
        .order_by(AuditEventRow.id)
    ).all()
    kept: dict[str, dict[str, datetime]] = {}
    for source_id, action, at, after in rows:
        if action == READMIT:
            kept.pop(source_id, None)
            continue
        shas = kept.setdefault(source_id, {})
        for version in (after or {}).get("versions", []):
            shas[str(version["sha256"])] = at
    return [
        ErasedVersion(source_id, sha, at)
        for source_id, shas in sorted(kept.items())
        for sha, at in sorted(shas.items())
    ]


def erased_pairs(session: Session) -> set[tuple[str, str]]:
    """(source id, sha256) of every erased version, for skipping files on disk."""
    return {(v.source_id, v.sha256) for v in erased_versions(session)}


def skip_message(source_id: str, path: str) -> str:
    """What a run or an ingest says about a file it skips because its source was erased."""
    return (
        f"{path}: source {source_id!r} was erased with this content; to ingest it "
        f"again run `claims sources readmit {source_id} --reason TEXT` (a changed file is "
        "ingested as usual)"
    )


# --------------------------------------------------------------------------- the steps


def _overwrite_deleted_pages(session: Session) -> None:
    """SQLite keeps deleted rows' bytes in free pages; make it zero them as it deletes."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text("PRAGMA secure_delete = ON"))


def _drop_review_items(session: Session, claim_ids: Collection[str], erasure: Erasure) -> None:
    items: set[str] = set()
    for chunk in _chunks(claim_ids):
        items.update(
            session.execute(
                select(ReviewItemClaimRow.review_item_id).where(
                    ReviewItemClaimRow.claim_id.in_(chunk)
                )
            ).scalars()
        )
    erasure.review_items = sorted(items)
    for chunk in _chunks(items):
        resolutions = session.execute(
            select(
                ResolutionRow.id,
                ResolutionRow.review_item_id,
                ResolutionRow.method,
                ResolutionRow.outcome,
                ResolutionRow.superseded_at,
            )
            .where(ResolutionRow.review_item_id.in_(chunk))
            .order_by(ResolutionRow.review_item_id, ResolutionRow.decided_at)
        ).all()
        erasure.resolutions += [
            {
                "id": rid,
                "review_item_id": item,
                "method": method,
                "outcome": outcome,
                "current": superseded is None,
            }
            for rid, item, method, outcome, superseded in resolutions
        ]
        resolution_ids = [r[0] for r in resolutions]
        for ids in _chunks(resolution_ids):
            session.execute(
                delete(ResolutionWinnerRow).where(ResolutionWinnerRow.resolution_id.in_(ids))
            )
            session.execute(delete(ResolutionRow).where(ResolutionRow.id.in_(ids)))
        session.execute(
            delete(ReviewItemClaimRow).where(ReviewItemClaimRow.review_item_id.in_(chunk))
        )
        session.execute(
            update(ClaimStatusRow)
            .where(ClaimStatusRow.review_item_id.in_(chunk))
            .values(review_item_id=None, resolution_id=None)
        )
        session.execute(delete(ReviewItemRow).where(ReviewItemRow.id.in_(chunk)))
    # A resolution of another item may name an erased claim as its winner.
    for chunk in _chunks(claim_ids):
        session.execute(delete(ResolutionWinnerRow).where(ResolutionWinnerRow.claim_id.in_(chunk)))


def _drop_edges(session: Session, claim_ids: Collection[str], erasure: Erasure) -> None:
    for chunk in _chunks(claim_ids):
        result = session.execute(
            delete(EdgeRow).where(
                or_(EdgeRow.left_claim_id.in_(chunk), EdgeRow.right_claim_id.in_(chunk))
            )
        )
        erasure.edges_deleted += int(result.rowcount or 0)  # type: ignore[attr-defined]


def _drop_value_groups(
    session: Session, claim_ids: Collection[str], quotes: list[str], erasure: Erasure
) -> None:
    groups: set[str] = set()
    for chunk in _chunks(claim_ids):
        groups.update(
            session.execute(
                select(ValueGroupClaimRow.value_group_id).where(
                    ValueGroupClaimRow.claim_id.in_(chunk)
                )
            ).scalars()
        )
        result = session.execute(
            delete(ValueGroupClaimRow).where(ValueGroupClaimRow.claim_id.in_(chunk))
        )
        erasure.memberships_deleted += int(result.rowcount or 0)  # type: ignore[attr-defined]
    emptied = set(groups)
    for chunk in _chunks(groups):
        emptied -= set(
            session.execute(
                select(ValueGroupClaimRow.value_group_id).where(
                    ValueGroupClaimRow.value_group_id.in_(chunk)
                )
            ).scalars()
        )
    for chunk in _chunks(emptied):
        session.execute(
            delete(ValueGroupSlotRow).where(ValueGroupSlotRow.value_group_id.in_(chunk))
        )
        relations = session.execute(
            select(ValueGroupRelationRow.id, ValueGroupRelationRow.reason).where(
                or_(
                    ValueGroupRelationRow.left_group_id.in_(chunk),
                    ValueGroupRelationRow.right_group_id.in_(chunk),
                )
            )
        ).all()
        quoting = {rid for rid, reason in relations if _quotes_any(reason or "", quotes)}
        retire = [rid for rid, _ in relations if rid not in quoting]
        for ids in _chunks(quoting):
            session.execute(delete(ValueGroupRelationRow).where(ValueGroupRelationRow.id.in_(ids)))
        for ids in _chunks(retire):
            session.execute(
                update(ValueGroupRelationRow)
                .where(
                    ValueGroupRelationRow.id.in_(ids), ValueGroupRelationRow.retired_at.is_(None)
                )
                .values(retired_at=erasure.at)
            )
        erasure.relations_deleted += len(quoting)
        erasure.relations_retired += len(retire)


def _quotes_any(reason: str, quotes: list[str]) -> bool:
    """Whether ``reason`` carries a quote of the source (or a long part of one)."""
    return any(quote in reason or (len(reason) >= 24 and reason in quote) for quote in quotes)


def _drop_claims(session: Session, claim_ids: Collection[str], version_ids: list[str]) -> None:
    for chunk in _chunks(claim_ids):
        session.execute(delete(ClaimStatusRow).where(ClaimStatusRow.claim_id.in_(chunk)))
    for chunk in _chunks(version_ids):
        session.execute(
            update(ClaimStatusRow)
            .where(ClaimStatusRow.superseded_by_version_id.in_(chunk))
            .values(superseded_by_version_id=None)
        )
    for chunk in _chunks(claim_ids):
        # the SQLite full-text rows go with them (the claims' delete trigger)
        session.execute(delete(ClaimRow).where(ClaimRow.id.in_(chunk)))


def _drop_versions(session: Session, version_ids: list[str]) -> None:
    for chunk in _chunks(version_ids):
        session.execute(
            delete(VersionExtractionRow).where(VersionExtractionRow.source_version_id.in_(chunk))
        )
        session.execute(
            delete(VersionSupersessionRow).where(
                or_(
                    VersionSupersessionRow.newer_version_id.in_(chunk),
                    VersionSupersessionRow.older_version_id.in_(chunk),
                )
            )
        )
        session.execute(
            delete(SupersessionCandidateRow).where(
                SupersessionCandidateRow.source_version_id.in_(chunk)
            )
        )
        session.execute(delete(SourceVersionRow).where(SourceVersionRow.id.in_(chunk)))


def _purge_search_index(session: Session) -> None:
    """Merge the SQLite full-text index so the deleted quotes' terms leave its pages too
    (a delete only adds a marker until segments merge). PostgreSQL's index is an
    expression index over ``claims`` and loses the rows with them."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('optimize')"))


def drop_version_claims(session: Session, version_ids: Collection[str], *, at: datetime) -> Erasure:
    """Take out every claim of these versions, in every generation, with what depended on
    them (edges, review items and their resolutions, value-group memberships, supersession
    candidates, extraction marks) the way ``erase`` does, but keep the versions: their text
    was re-derived by a newer converter (claims/rederive.py), so the old claims' spans no
    longer point into it and the next extraction makes them anew. Records the claim keys in
    the change feed. Returns the counts (``source_id`` and ``reason`` are not set)."""
    ids = sorted(set(version_ids))
    erasure = Erasure(source_id="", reason="", actor="", at=at)
    claim_rows = [
        row
        for chunk in _chunks(ids)
        for row in session.execute(
            select(ClaimRow.id, ClaimRow.claim_key, ClaimRow.quote).where(
                ClaimRow.source_version_id.in_(chunk)
            )
        ).all()
    ]
    claim_ids = [cid for cid, _, _ in claim_rows]
    erasure.claims = len(claim_ids)
    erasure.claim_keys = {key for _, key, _ in claim_rows}
    _drop_review_items(session, claim_ids, erasure)
    _drop_edges(session, claim_ids, erasure)
    _drop_value_groups(session, claim_ids, [q for _, _, q in claim_rows if q], erasure)
    _drop_claims(session, claim_ids, [])
    for chunk in _chunks(ids):
        session.execute(
            delete(VersionExtractionRow).where(VersionExtractionRow.source_version_id.in_(chunk))
        )
        session.execute(
            delete(SupersessionCandidateRow).where(
                SupersessionCandidateRow.source_version_id.in_(chunk)
            )
        )
    record_changes(session, erasure.claim_keys, CLAIMS)
    record_changes(session, erasure.claim_keys, EDGES)
    return erasure
