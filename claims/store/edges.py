"""Edge repository (claim edges) and supersession repository (version rows and candidates).

Edges are never deleted: a recompute that no longer produces an edge sets its
``retired_at``; one that produces it again clears it. Re-running on unchanged claims changes
no row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import attrgetter
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from claims.edges.builder import NEAR_MISS_PREFIX, EdgeRecord
from claims.edges.supersession import RegisterSupersedes, VersionRef
from claims.edges.value_groups import GroupMember, GroupRelation, SlotGroup
from claims.models import (
    CandidateState,
    Edge,
    EdgeKind,
    SourceVersionSupersession,
    Span,
    SupersessionCandidate,
    SupersessionOrigin,
)
from claims.store.batches import batches
from claims.store.bulk import insert_records
from claims.store.deferred_indexes import first_build
from claims.tables import (
    EdgeRow,
    SourceSupersedesRow,
    SourceVersionRow,
    SupersessionCandidateRow,
    ValueGroupClaimRow,
    ValueGroupRelationRow,
    ValueGroupSlotRow,
    VersionSupersessionRow,
)


def row_to_edge(row: EdgeRow) -> Edge:
    return Edge(
        id=row.id,
        kind=EdgeKind(row.kind),
        left_claim_id=row.left_claim_id,
        right_claim_id=row.right_claim_id,
        claim_key=row.claim_key,
        rule=row.rule,
        reason=row.reason,
        material=row.material,
        materiality=row.materiality,
        generation=row.generation,
        created_at=row.created_at,
        retired_at=row.retired_at,
    )


@dataclass
class EdgeSync:
    """What one ``EdgeRepository.sync`` changed."""

    inserted: int = 0
    updated: int = 0
    revived: int = 0
    retired: int = 0
    unchanged: int = 0
    # retired rows deleted at once: only rewired (``EdgeRepository._forget_rewired``)
    compacted: int = 0
    retired_ids: list[str] = field(default_factory=list, repr=False)
    # live edges in the synced scope before the sync, by kind
    live_before: Counter[str] = field(default_factory=Counter, repr=False)


# kinds of an edge inside one claim key whose history readers take from the value groups
_REWIRED_KINDS = ("conflicts", "ambiguous", "corroborates", "compatible")
# columns a sync rewrites in place when a stored row's compared values changed
_EDGE_UPDATES = ("rule", "reason", "material", "materiality", "claim_key")
_RELATION_UPDATES = ("rule", "reason", "material", "materiality")
# a stored row's compared values, in the order the sync reads them back
_EDGE_COMPARED = attrgetter("rule", "reason", "material", "materiality", "claim_key")
_RELATION_COMPARED = attrgetter("kind", "rule", "reason", "material", "materiality")


def sync_rows(
    session: Session,
    row_class: type[EdgeRow] | type[ValueGroupRelationRow],
    existing: Mapping[str, tuple[Any, ...]],
    produced: Iterable[Any],
    compared: Callable[[Any], tuple[Any, ...]],
    updated: Sequence[str],
    shared: Mapping[str, Any],
    now: datetime,
) -> EdgeSync:
    """Make the live rows of an append-and-retire table equal to ``produced``.

    ``existing`` maps each stored id in scope to its ``compared`` values followed by
    ``retired_at``; each produced record is a named tuple of the row's own columns (id
    first), ``shared`` the columns every row of the write has (its generation). New rows are
    inserted, changed or retired ones rewritten in place (``updated`` columns) and revived,
    vanished ones retired; rows are never deleted.
    """
    counts = EdgeSync()
    fresh: list[Any] = []
    changes: list[dict[str, object]] = []
    seen: set[str] = set()
    for record in produced:
        row_id = record[0]
        if row_id in seen:
            continue
        seen.add(row_id)
        stored = existing.get(row_id) if existing else None
        if stored is None:
            fresh.append(record)
            continue
        if stored[-1] is not None:
            counts.revived += 1
        elif stored[:-1] != compared(record):
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        changes.append(
            {"id": row_id, **{c: getattr(record, c) for c in updated}, "retired_at": None}
        )
    gone = sorted(i for i, stored in existing.items() if i not in seen and stored[-1] is None)
    counts.retired = len(gone)
    counts.retired_ids = gone
    if changes:
        session.execute(update(row_class), changes)  # bulk UPDATE by primary key
    for chunk in batches(gone):
        session.execute(
            update(row_class).where(row_class.id.in_(chunk)).values(retired_at=now),
            execution_options={"synchronize_session": False},
        )
    # in id order: the primary-key index is filled front to back, not at random pages
    fresh.sort()
    table: Any = row_class.__table__
    _insert_fresh(session, table, fresh, {**shared, "created_at": now, "retired_at": None})
    counts.inserted = len(fresh)
    return counts


def _insert_fresh(
    session: Session, table: Any, rows: Sequence[Any], shared: Mapping[str, Any]
) -> None:
    """``insert_records``; into an empty table (a first full build) with its indexes built
    after the rows (``claims.store.deferred_indexes``)."""
    with first_build(session, table.name, len(rows)):
        insert_records(session, table, rows, shared)


class EdgeRepository:
    """Edges of one store, within one session (the caller owns the transaction)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def _stored_in_scope(
        self, generation: str, claim_keys: Collection[str] | None, live: Counter[str]
    ) -> dict[str, tuple[str, str, bool | None, float | None, str, datetime | None]]:
        """id -> (rule, reason, material, materiality, claim_key, retired_at), as plain rows;
        counts the live ones by kind into ``live``."""
        base = select(
            EdgeRow.id,
            EdgeRow.rule,
            EdgeRow.reason,
            EdgeRow.material,
            EdgeRow.materiality,
            EdgeRow.claim_key,
            EdgeRow.retired_at,
            EdgeRow.kind,
        ).where(EdgeRow.generation == generation)
        chunks = [None] if claim_keys is None else list(batches(sorted(claim_keys)))
        out = {}
        for chunk in chunks:
            query = base if chunk is None else base.where(EdgeRow.claim_key.in_(chunk))
            for r in self.session.execute(query):
                out[r[0]] = tuple(r[1:7])
                if r[6] is None:
                    live[r[7]] += 1
        return out  # type: ignore[return-value]

    def sync(
        self,
        generation: str,
        produced: Iterable[EdgeRecord],
        claim_keys: Collection[str] | None,
        *,
        now: datetime | None = None,
    ) -> EdgeSync:
        """Make the stored edges of ``claim_keys`` (all keys if None) equal to ``produced``.

        New edges are inserted, changed ones updated in place, vanished ones retired.
        """
        now = now or datetime.now(UTC)
        live: Counter[str] = Counter()
        existing = self._stored_in_scope(generation, claim_keys, live)
        produced = list(produced)
        counts = sync_rows(
            self.session,
            EdgeRow,
            existing,
            produced,
            _EDGE_COMPARED,
            _EDGE_UPDATES,
            {"generation": generation},
            now,
        )
        counts.compacted = self._forget_rewired(counts.retired_ids, produced)
        counts.live_before = live
        self.session.flush()
        return counts

    def forget_rewired_in_key(self, retired: Sequence[str], generation: str, key: str) -> int:
        """``_forget_rewired`` after a sync of part of one key done by the caller
        (``claims.edge_delta``): whether a claim still has a live edge of a kind is asked
        of the stored edges of the key (the sync is written), one indexed lookup each, so a
        group's first claim met by every member is not read whole."""
        e = EdgeRow.__table__.c

        def standing(claim_id: str, kind: str) -> bool:
            for side in (e.left_claim_id, e.right_claim_id):
                found = self.session.execute(
                    select(e.id)
                    .where(
                        side == claim_id,
                        e.kind == kind,
                        e.retired_at.is_(None),
                        e.claim_key == key,
                        e.generation == generation,
                    )
                    .limit(1)
                ).first()
                if found is not None:
                    return True
            return False

        return self._forget_rewired(retired, (), standing)

    def _forget_rewired(
        self,
        retired: Sequence[str],
        live: Sequence[EdgeRecord],
        standing: Callable[[str, str], bool] | None = None,
    ) -> int:
        """Delete the just-retired edges that were only rewired (issue 31.2).

        An edge inside one claim key (not a ``~`` near miss, not a supersession) whose two
        claims both still have a live edge of its kind said nothing that ended: a slot joins
        each value to its lowest and highest value for review routing, and a new extreme
        rewires every value to it. Kept as retired rows, those piled up (140,007 rows for
        40,007 live ones after five new extremes of a 20,000-claim key). Readers judge such
        pairs from the value groups (also as of a past time), review routing and ``claims
        conflicts`` read live edges, and an edge that ended (a conflict turned into a
        supersession, a corrected value) keeps its retired row.
        """
        if not retired:
            return 0
        if standing is None:
            ends = {(e.left_claim_id, e.kind) for e in live}
            ends.update((e.right_claim_id, e.kind) for e in live)
            standing = lambda claim_id, kind: (claim_id, kind) in ends  # noqa: E731
        doomed: list[str] = []
        for chunk in batches(list(retired)):
            rows = self.session.execute(
                select(
                    EdgeRow.id, EdgeRow.kind, EdgeRow.left_claim_id, EdgeRow.right_claim_id
                ).where(
                    EdgeRow.id.in_(chunk),
                    EdgeRow.kind.in_(_REWIRED_KINDS),
                    EdgeRow.claim_key.not_like(NEAR_MISS_PREFIX + "%"),
                )
            )
            doomed += [
                edge_id
                for edge_id, kind, left, right in rows
                if standing(left, kind) and standing(right, kind)
            ]
        for chunk in batches(doomed):
            self.session.execute(
                delete(EdgeRow).where(EdgeRow.id.in_(chunk)),
                execution_options={"synchronize_session": False},
            )
        return len(doomed)

    def active(
        self,
        generation: str | None = None,
        *,
        kinds: Collection[EdgeKind] | None = None,
        claim_keys: Collection[str] | None = None,
    ) -> list[Edge]:
        """Edges not retired, optionally of some kinds / keys, ordered by key then id."""
        stmt = select(EdgeRow).where(EdgeRow.retired_at.is_(None))
        if generation is not None:
            stmt = stmt.where(EdgeRow.generation == generation)
        if kinds is not None:
            stmt = stmt.where(EdgeRow.kind.in_([k.value for k in kinds]))
        stmt = stmt.order_by(EdgeRow.claim_key, EdgeRow.id)
        if claim_keys is None:
            return [row_to_edge(r) for r in self.session.scalars(stmt)]
        out: list[Edge] = []
        for chunk in batches(sorted(claim_keys)):
            out += [
                row_to_edge(r)
                for r in self.session.scalars(stmt.where(EdgeRow.claim_key.in_(chunk)))
            ]
        return sorted(out, key=lambda e: (e.claim_key, e.id))

    def conflicts(
        self, generation: str | None = None, *, material_only: bool = False
    ) -> list[Edge]:
        """Live conflict edges (what the review layer routes), optionally only material ones."""
        edges = self.active(generation, kinds=[EdgeKind.CONFLICTS])
        return [e for e in edges if e.material] if material_only else edges

    def all(self, generation: str | None = None) -> list[Edge]:
        """Every edge including retired ones (audit and tests)."""
        stmt = select(EdgeRow).order_by(EdgeRow.id)
        if generation is not None:
            stmt = stmt.where(EdgeRow.generation == generation)
        return [row_to_edge(r) for r in self.session.scalars(stmt)]

    def for_claim(self, claim_id: str) -> list[Edge]:
        stmt = (
            select(EdgeRow)
            .where(EdgeRow.retired_at.is_(None))
            .where(or_(EdgeRow.left_claim_id == claim_id, EdgeRow.right_claim_id == claim_id))
            .order_by(EdgeRow.id)
        )
        return [row_to_edge(r) for r in self.session.scalars(stmt)]


@dataclass
class GroupSync:
    """What one ``ValueGroupRepository.sync`` changed."""

    members_written: int = 0
    members_removed: int = 0
    relations: EdgeSync | None = None
    slots_written: int = 0
    slots_removed: int = 0


class ValueGroupRepository:
    """Value-group memberships and relations (claims/edges/value_groups.py), per block.

    Memberships are derived and carry no history (a claim's group only changes with its
    source's tier): they are rewritten where they differ. Relations are retired, never
    deleted, like edges, so reads as of a past time see the disagreements of that time.
    """

    def __init__(self, session: Session) -> None:
        self.session = session

    def sync(
        self,
        generation: str,
        members: Iterable[GroupMember],
        relations: Iterable[GroupRelation],
        claim_keys: Collection[str] | None,
        *,
        slots: Iterable[SlotGroup] = (),
        now: datetime | None = None,
    ) -> GroupSync:
        """Make the stored groups of ``claim_keys`` (all keys if None) equal to the build's."""
        now = now or datetime.now(UTC)
        wanted = {m.claim_id: m for m in members}
        table = ValueGroupClaimRow.__table__
        base = select(table.c.claim_id, table.c.value_group_id).where(
            table.c.generation == generation
        )
        stored: dict[str, str] = {}
        if claim_keys is None:
            stored.update((r[0], r[1]) for r in self.session.execute(base))
        else:
            for chunk in batches(sorted(claim_keys)):
                rows = self.session.execute(base.where(table.c.claim_key.in_(chunk)))
                stored.update((r[0], r[1]) for r in rows)
        report = self._sync_members(generation, wanted, stored)
        report.relations = self._sync_relations(generation, relations, claim_keys, now)
        report.slots_written, report.slots_removed = self._sync_slots(generation, slots, claim_keys)
        self.session.flush()
        return report

    def sync_part(
        self,
        generation: str,
        members: Iterable[GroupMember],
        relations: Iterable[GroupRelation],
        slots: Iterable[SlotGroup],
        claim_key: str,
        claim_ids: Collection[str],
        now: datetime,
    ) -> GroupSync:
        """``sync`` of one key evaluated from part of its claims (``claims.edge_delta``): the
        memberships of ``claim_ids`` only (the others' did not move), the key's relations
        and slot rows whole (the build gives them all: they are per value group)."""
        wanted = {m.claim_id: m for m in members}
        table = ValueGroupClaimRow.__table__
        stored: dict[str, str] = {}
        for chunk in batches(sorted(claim_ids)):
            rows = self.session.execute(
                select(table.c.claim_id, table.c.value_group_id).where(table.c.claim_id.in_(chunk))
            )
            stored.update((r[0], r[1]) for r in rows)
        report = self._sync_members(generation, wanted, stored)
        report.relations = self._sync_relations(generation, relations, [claim_key], now)
        report.slots_written, report.slots_removed = self._sync_slots(
            generation, slots, [claim_key]
        )
        self.session.flush()
        return report

    def _sync_members(
        self, generation: str, wanted: Mapping[str, GroupMember], stored: Mapping[str, str]
    ) -> GroupSync:
        """Rewrite the memberships that differ: ``stored`` (claim id -> group) to ``wanted``."""
        stale = sorted(
            cid
            for cid, group in stored.items()
            if wanted.get(cid) is None or wanted[cid].value_group_id != group
        )
        for chunk in batches(stale):
            self.session.execute(
                delete(ValueGroupClaimRow).where(ValueGroupClaimRow.claim_id.in_(chunk))
            )
        fresh = [m for cid, m in sorted(wanted.items()) if stored.get(cid) != m.value_group_id]
        _insert_fresh(self.session, ValueGroupClaimRow.__table__, fresh, {"generation": generation})
        return GroupSync(members_written=len(fresh), members_removed=len(stale))

    def _sync_slots(
        self, generation: str, slots: Iterable[SlotGroup], claim_keys: Collection[str] | None
    ) -> tuple[int, int]:
        """Slot rows are derived (no history): rewrite those that differ, drop the rest."""
        wanted = {row.value_group_id: row for row in slots}
        table = ValueGroupSlotRow.__table__
        c = table.c
        base = select(*_slot_columns()).where(c.generation == generation)
        stored: dict[str, SlotGroup] = {}
        if claim_keys is None:
            stored.update((r[0], SlotGroup(*r)) for r in self.session.execute(base))
        else:
            for chunk in batches(sorted(claim_keys)):
                for r in self.session.execute(base.where(c.claim_key.in_(chunk))):
                    stored[r[0]] = SlotGroup(*r)
        stale = sorted(i for i, row in stored.items() if wanted.get(i) != row)
        for chunk in batches(stale):
            self.session.execute(
                delete(ValueGroupSlotRow).where(ValueGroupSlotRow.value_group_id.in_(chunk))
            )
        fresh = [row for i, row in sorted(wanted.items()) if stored.get(i) != row]
        insert_records(self.session, table, fresh, {"generation": generation})  # type: ignore[arg-type]
        return len(fresh), len(stale)

    def slots(self, generation: str) -> list[SlotGroup]:
        """Every slot row of ``generation`` (tests and reports)."""
        c = ValueGroupSlotRow.__table__.c
        rows = self.session.execute(
            select(*_slot_columns())
            .where(c.generation == generation)
            .order_by(c.claim_key, c.value_group_id)
        )
        return [SlotGroup(*r) for r in rows]

    def _sync_relations(
        self,
        generation: str,
        relations: Iterable[GroupRelation],
        claim_keys: Collection[str] | None,
        now: datetime,
    ) -> EdgeSync:
        table = ValueGroupRelationRow.__table__
        c = table.c
        base = select(
            c.id, c.kind, c.rule, c.reason, c.material, c.materiality, c.retired_at
        ).where(c.generation == generation)
        existing: dict[str, tuple[object, ...]] = {}
        if claim_keys is None:
            existing.update((r[0], tuple(r[1:])) for r in self.session.execute(base))
        else:
            for chunk in batches(sorted(claim_keys)):
                for r in self.session.execute(base.where(c.claim_key.in_(chunk))):
                    existing[r[0]] = tuple(r[1:])
        return sync_rows(
            self.session,
            ValueGroupRelationRow,
            existing,
            relations,
            _RELATION_COMPARED,
            _RELATION_UPDATES,
            {"generation": generation},
            now,
        )

    def live_relations(self, generation: str) -> list[GroupRelation]:
        """Relations not retired (tests and reports)."""
        c = ValueGroupRelationRow.__table__.c
        rows = self.session.execute(
            select(
                c.id,
                c.kind,
                c.left_group_id,
                c.right_group_id,
                c.claim_key,
                c.rule,
                c.reason,
                c.material,
                c.materiality,
            )
            .where(c.generation == generation, c.retired_at.is_(None))
            .order_by(c.claim_key, c.id)
        )
        return [GroupRelation(*r) for r in rows]

    def members(self, generation: str) -> dict[str, str]:
        """claim id -> value group id."""
        t = ValueGroupClaimRow.__table__.c
        rows = self.session.execute(
            select(t.claim_id, t.value_group_id).where(t.generation == generation)
        )
        return {r[0]: r[1] for r in rows}


class SupersessionRepository:
    """Version supersessions (derived from lineage and register) and text candidates."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def version_refs(self, source_ids: Collection[str] | None = None) -> list[VersionRef]:
        """Identity of every version (of ``source_ids`` only, when given)."""
        stmt = select(SourceVersionRow.id, SourceVersionRow.source_id, SourceVersionRow.number)
        if source_ids is None:
            rows = list(self.session.execute(stmt))
        else:
            rows = []
            for chunk in batches(sorted(source_ids)):
                rows += self.session.execute(stmt.where(SourceVersionRow.source_id.in_(chunk)))
        return [VersionRef(id=i, source_id=s, number=n) for i, s, n in rows]

    def register_entries(self) -> list[RegisterSupersedes]:
        rows = self.session.scalars(select(SourceSupersedesRow))
        return [
            RegisterSupersedes(
                source_id=r.source_id,
                supersedes_source_id=r.supersedes_source_id,
                supersedes_version=r.supersedes_version,
                effective_from=r.effective_from,
            )
            for r in rows
        ]

    def all(self) -> list[SourceVersionSupersession]:
        rows = self.session.scalars(
            select(VersionSupersessionRow).order_by(VersionSupersessionRow.id)
        )
        return [
            SourceVersionSupersession(
                id=r.id,
                newer_version_id=r.newer_version_id,
                older_version_id=r.older_version_id,
                origin=SupersessionOrigin(r.origin),
                effective_from=r.effective_from,
                created_at=r.created_at,
            )
            for r in rows
        ]

    def _stored(self, version_ids: Collection[str] | None) -> dict[str, VersionSupersessionRow]:
        table = VersionSupersessionRow
        if version_ids is None:
            return {r.id: r for r in self.session.scalars(select(table))}
        out: dict[str, VersionSupersessionRow] = {}
        for chunk in batches(sorted(version_ids)):
            stmt = select(table).where(
                or_(table.newer_version_id.in_(chunk), table.older_version_id.in_(chunk))
            )
            out.update((r.id, r) for r in self.session.scalars(stmt))
        return out

    def sync(
        self,
        derived: Sequence[SourceVersionSupersession],
        version_ids: Collection[str] | None = None,
    ) -> tuple[int, int]:
        """Store exactly ``derived``: insert new rows, drop rows the register no longer implies.

        With ``version_ids`` only rows touching those versions are compared (a scoped sync).
        Returns (inserted, removed). Unchanged rows keep their ``created_at``.
        """
        wanted = {r.id: r for r in derived}
        existing = self._stored(version_ids)
        removed = [
            row_id
            for row_id, row in existing.items()
            if row_id not in wanted
            or (row.origin, row.effective_from)
            != (wanted[row_id].origin.value, wanted[row_id].effective_from)
        ]
        for chunk in batches(removed):
            self.session.execute(
                delete(VersionSupersessionRow).where(VersionSupersessionRow.id.in_(chunk))
            )
        self.session.flush()
        now = datetime.now(UTC)
        inserted = 0
        for row_id, row in sorted(wanted.items()):
            if row_id in existing and row_id not in removed:
                continue
            self.session.add(
                VersionSupersessionRow(
                    id=row.id,
                    newer_version_id=row.newer_version_id,
                    older_version_id=row.older_version_id,
                    origin=row.origin.value,
                    effective_from=row.effective_from,
                    created_at=now,
                )
            )
            inserted += 1
        self.session.flush()
        return inserted, len(removed) - sum(1 for r in removed if r in wanted)

    def add_candidates(self, candidates: Iterable[SupersessionCandidate]) -> int:
        """Insert candidates not stored yet (a reviewer's state on known ones is kept)."""
        batch = list(candidates)
        known: set[str] = set()
        for chunk in batches([c.id for c in batch]):
            known.update(
                self.session.scalars(
                    select(SupersessionCandidateRow.id).where(
                        SupersessionCandidateRow.id.in_(chunk)
                    )
                )
            )
        now = datetime.now(UTC)
        fresh = [c for c in batch if c.id not in known]
        self.session.add_all(
            SupersessionCandidateRow(
                id=c.id,
                source_version_id=c.source_version_id,
                target_text=c.target_text,
                target_source_id=c.target_source_id,
                span_start=c.span.start,
                span_end=c.span.end,
                quote=c.quote,
                state=c.state.value,
                created_at=now,
            )
            for c in fresh
        )
        self.session.flush()
        return len(fresh)

    def candidates(self, state: CandidateState | None = None) -> list[SupersessionCandidate]:
        stmt = select(SupersessionCandidateRow).order_by(SupersessionCandidateRow.id)
        if state is not None:
            stmt = stmt.where(SupersessionCandidateRow.state == state.value)
        return [
            SupersessionCandidate(
                id=r.id,
                source_version_id=r.source_version_id,
                target_text=r.target_text,
                target_source_id=r.target_source_id,
                span=Span(start=r.span_start, end=r.span_end),
                quote=r.quote,
                state=CandidateState(r.state),
                created_at=r.created_at,
            )
            for r in self.session.scalars(stmt)
        ]


def _slot_columns() -> tuple[Any, ...]:
    """The columns of a slot row in SlotGroup's field order."""
    c = ValueGroupSlotRow.__table__.c
    return (
        c.value_group_id,
        c.slot_id,
        c.claim_key,
        c.value,
        c.tier_rank,
        c.high_risk,
        c.threshold,
        c.tier_gap,
        c.low,
        c.high,
        c.statement,
        c.family,
        c.dimension,
    )
