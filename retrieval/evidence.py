"""Evidence groups: the rows one status or answer needs, loaded by claim key, then narrowed.

Loading is blocked by claim key (plus the claims that edges reach from it), so the cost of
a query grows with the size of one conflict set, never with the store. ``narrow`` then
keeps only what a requester may see, at the requested times; every verdict in
``retrieval.verdicts`` is computed from a narrowed group and nothing else, which is what
makes "response over the whole corpus == response over the visible corpus" hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, or_, select

from claims.models import Requester
from claims.tables import (
    ClaimRow,
    EdgeRow,
    ExtractorGenerationRow,
    ResolutionRow,
    ResolutionWinnerRow,
    ReviewItemClaimRow,
    ReviewItemRow,
    SourceGrantRow,
    SourceRow,
    SourceVersionRow,
    VersionSupersessionRow,
)
from retrieval.access import source_visible


@dataclass(frozen=True)
class AsOf:
    """``effective``: the date the facts should hold at (None: no time filter, supersession
    as of today). ``known_at``: the system time the store is read as of (None: now)."""

    effective: date | None = None
    known_at: datetime | None = None

    def supersession_date(self) -> date:
        return self.effective or datetime.now(UTC).date()


NOW = AsOf()


@dataclass(frozen=True)
class SourceFact:
    id: str
    withdrawn: bool
    effective_from: date | None
    effective_to: date | None
    groups: frozenset[str]


@dataclass(frozen=True)
class ClaimFact:
    id: str
    claim_key: str
    source_id: str
    version_id: str
    version_number: int
    kind: str
    value_number: float | None
    value_text: str | None
    unit: str | None
    canonical_value: float | None
    canonical_unit: str | None
    polarity: str | None
    modality: str | None
    scope: dict[str, str]
    scope_residual: tuple[str, ...]
    time_start: date | None
    time_end: date | None
    quote: str
    span_start: int
    span_end: int


@dataclass(frozen=True)
class EdgeFact:
    id: str
    kind: str
    left: str
    right: str
    rule: str
    reason: str
    material: bool | None


@dataclass(frozen=True)
class SupersessionFact:
    """Version ``newer`` replaces version ``older`` (register or lineage)."""

    id: str
    newer_version_id: str
    newer_source_id: str
    newer_number: int
    older_version_id: str
    older_source_id: str
    origin: str
    effective_from: date | None


@dataclass(frozen=True)
class ResolutionFact:
    id: str
    outcome: str
    winners: frozenset[str]
    policy_version: str
    decided_at: datetime


@dataclass(frozen=True)
class ReviewFact:
    id: str
    claim_key: str
    state: str
    claim_ids: frozenset[str]
    resolution: ResolutionFact | None


@dataclass
class EvidenceGroup:
    """Everything about a few claim keys that a verdict may depend on."""

    claims: dict[str, ClaimFact] = field(default_factory=dict)
    sources: dict[str, SourceFact] = field(default_factory=dict)
    edges: list[EdgeFact] = field(default_factory=list)
    supersessions: list[SupersessionFact] = field(default_factory=list)
    reviews: list[ReviewFact] = field(default_factory=list)

    def narrow(self, requester: Requester, as_of: AsOf = NOW) -> EvidenceGroup:
        """The part of this group ``requester`` may see, holding at ``as_of.effective``."""
        visible_sources = {
            sid: s
            for sid, s in self.sources.items()
            if source_visible(s.groups, s.withdrawn, requester) and _source_in_force(s, as_of)
        }
        claims = {
            cid: c
            for cid, c in self.claims.items()
            if c.source_id in visible_sources and _claim_in_force(c, as_of)
        }
        edges = [e for e in self.edges if e.left in claims and e.right in claims]
        supersessions = [
            s
            for s in self.supersessions
            if s.newer_source_id in visible_sources
            and s.older_source_id in visible_sources
            and (s.effective_from is None or s.effective_from <= as_of.supersession_date())
        ]
        reviews = []
        for item in self.reviews:
            members = frozenset(item.claim_ids & claims.keys())
            resolution = item.resolution
            if resolution is not None:
                resolution = replace(resolution, winners=resolution.winners & claims.keys())
            reviews.append(replace(item, claim_ids=members, resolution=resolution))
        return EvidenceGroup(
            claims=claims,
            sources=visible_sources,
            edges=edges,
            supersessions=supersessions,
            reviews=reviews,
        )


def _source_in_force(source: SourceFact, as_of: AsOf) -> bool:
    if as_of.effective is None:
        return True
    if source.effective_from is not None and as_of.effective < source.effective_from:
        return False
    return not (source.effective_to is not None and as_of.effective > source.effective_to)


def _claim_in_force(claim: ClaimFact, as_of: AsOf) -> bool:
    """Unknown time holds at every date (unknown stays unknown, it is not excluded)."""
    if as_of.effective is None:
        return True
    if claim.time_start is not None and as_of.effective < claim.time_start:
        return False
    return not (claim.time_end is not None and as_of.effective > claim.time_end)


# --------------------------------------------------------------------------- loading

_C = ClaimRow.__table__.c
_SV = SourceVersionRow.__table__.c
_E = EdgeRow.__table__.c
_S = SourceRow.__table__.c
_G = SourceGrantRow.__table__.c
_VS = VersionSupersessionRow.__table__.c
_RI = ReviewItemRow.__table__.c
_RIC = ReviewItemClaimRow.__table__.c
_R = ResolutionRow.__table__.c
_RW = ResolutionWinnerRow.__table__.c
_GEN = ExtractorGenerationRow.__table__.c

_CLAIM_COLUMNS = (
    _C.id,
    _C.claim_key,
    _C.source_id,
    _C.source_version_id,
    _SV.number,
    _C.kind,
    _C.value_number,
    _C.value_text,
    _C.unit,
    _C.canonical_value,
    _C.canonical_unit,
    _C.polarity,
    _C.modality,
    _C.scope,
    _C.scope_residual,
    _C.time_start,
    _C.time_end,
    _C.quote,
    _C.span_start,
    _C.span_end,
)


def _claim_fact(row: Any) -> ClaimFact:
    return ClaimFact(
        id=row[0],
        claim_key=row[1],
        source_id=row[2],
        version_id=row[3],
        version_number=row[4],
        kind=row[5],
        value_number=row[6],
        value_text=row[7],
        unit=row[8],
        canonical_value=row[9],
        canonical_unit=row[10],
        polarity=row[11],
        modality=row[12],
        scope={str(k): str(v) for k, v in (row[13] or {}).items()},
        scope_residual=tuple(row[14] or ()),
        time_start=row[15],
        time_end=row[16],
        quote=row[17],
        span_start=row[18],
        span_end=row[19],
    )


def _chunks(values: Sequence[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(values), size):
        yield list(values[start : start + size])


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class EvidenceLoader:
    """Reads evidence groups from the claim store on one connection (read-only)."""

    def __init__(self, conn: Connection, as_of: AsOf = NOW) -> None:
        self.conn = conn
        self.as_of = as_of
        self.known_at = _utc(as_of.known_at)
        self._generation: str | None | bool = False

    # ----------------------------------------------------------------- generation

    def generation(self) -> str | None:
        """The extractor generation readers see (as known at ``known_at``)."""
        if self._generation is not False:
            return self._generation  # type: ignore[return-value]
        if self.known_at is None:
            stmt = select(_GEN.id).where(_GEN.status == "active").limit(1)
        else:
            stmt = (
                select(_GEN.id)
                .where(_GEN.status.in_(("active", "retired")), _GEN.promoted_at <= self.known_at)
                .order_by(_GEN.promoted_at.desc())
                .limit(1)
            )
        found = self.conn.execute(stmt).scalar()
        if found is None:
            # A store nobody promoted yet: read its newest non-failed generation.
            stmt = select(_GEN.id).where(_GEN.status != "failed")
            if self.known_at is not None:
                stmt = stmt.where(_GEN.created_at <= self.known_at)
            found = self.conn.execute(stmt.order_by(_GEN.created_at.desc()).limit(1)).scalar()
        self._generation = found
        return found

    # ----------------------------------------------------------------- lookups

    def claim_key_of(self, claim_id: str) -> str | None:
        gen = self.generation()
        stmt = select(_C.claim_key).where(_C.id == claim_id, _C.generation == gen)
        if self.known_at is not None:
            stmt = stmt.where(_C.created_at <= self.known_at)
        return self.conn.execute(stmt).scalar()

    def source(self, source_id: str) -> SourceFact | None:
        return self._sources([source_id]).get(source_id)

    def versions_of(self, source_id: str) -> list[tuple[str, int]]:
        """(version id, number) of a source, oldest first, as known at ``known_at``."""
        stmt = select(_SV.id, _SV.number).where(_SV.source_id == source_id)
        if self.known_at is not None:
            stmt = stmt.where(_SV.ingested_at <= self.known_at)
        return [(r[0], r[1]) for r in self.conn.execute(stmt.order_by(_SV.number))]

    def keys_of_version(self, version_id: str) -> list[str]:
        gen = self.generation()
        stmt = select(_C.claim_key).where(_C.source_version_id == version_id, _C.generation == gen)
        if self.known_at is not None:
            stmt = stmt.where(_C.created_at <= self.known_at)
        return sorted(set(self.conn.execute(stmt).scalars()))

    # ----------------------------------------------------------------- groups

    def group_for_keys(self, claim_keys: Sequence[str]) -> EvidenceGroup:
        """Claims at these keys, the claims their edges reach, and all that bears on them."""
        group = EvidenceGroup()
        gen = self.generation()
        keys = sorted(set(claim_keys))
        if gen is None or not keys:
            return group
        claims = self._claims(_C.claim_key.in_(bindparam("keys", expanding=True)), keys=keys)
        ids = sorted(claims)
        group.edges = self._edges(ids)
        reached = sorted(
            ({e.left for e in group.edges} | {e.right for e in group.edges}) - claims.keys()
        )
        if reached:
            claims.update(self._claims(_C.id.in_(bindparam("ids", expanding=True)), ids=reached))
        group.claims = claims
        group.reviews = self._reviews(sorted({c.claim_key for c in claims.values()}))
        self._complete(group, {c.version_id for c in claims.values()})
        return group

    def group_for_version(self, version_id: str) -> EvidenceGroup:
        """The groups of every key the version states, plus the version's own supersession."""
        group = self.group_for_keys(self.keys_of_version(version_id))
        self._complete(group, {c.version_id for c in group.claims.values()} | {version_id})
        return group

    def _complete(self, group: EvidenceGroup, version_ids: set[str]) -> None:
        group.supersessions = self._supersessions(sorted(version_ids))
        source_ids = {c.source_id for c in group.claims.values()}
        source_ids |= {s.newer_source_id for s in group.supersessions}
        source_ids |= {s.older_source_id for s in group.supersessions}
        group.sources = self._sources(sorted(source_ids))

    def _claims(self, where: Any, **params: Any) -> dict[str, ClaimFact]:
        gen = self.generation()
        stmt = (
            select(*_CLAIM_COLUMNS)
            .join(SourceVersionRow.__table__, _SV.id == _C.source_version_id)
            .where(where, _C.generation == gen)
        )
        if self.known_at is not None:
            stmt = stmt.where(_C.created_at <= self.known_at, _SV.ingested_at <= self.known_at)
        return {row[0]: _claim_fact(row) for row in self.conn.execute(stmt, params)}

    def _edges(self, claim_ids: list[str]) -> list[EdgeFact]:
        if not claim_ids:
            return []
        gen = self.generation()
        found: dict[str, EdgeFact] = {}
        for chunk in _chunks(claim_ids):
            ids: Any = bindparam("ids", expanding=True)
            touches = or_(_E.left_claim_id.in_(ids), _E.right_claim_id.in_(ids))
            stmt = select(
                _E.id, _E.kind, _E.left_claim_id, _E.right_claim_id, _E.rule, _E.reason, _E.material
            ).where(_E.generation == gen, touches)
            if self.known_at is None:
                stmt = stmt.where(_E.retired_at.is_(None))
            else:
                stmt = stmt.where(
                    _E.created_at <= self.known_at,
                    or_(_E.retired_at.is_(None), _E.retired_at > self.known_at),
                )
            for r in self.conn.execute(stmt, {"ids": chunk}):
                found[r[0]] = EdgeFact(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
        return [found[k] for k in sorted(found)]

    def _supersessions(self, older_version_ids: list[str]) -> list[SupersessionFact]:
        if not older_version_ids:
            return []
        out: list[SupersessionFact] = []
        newer = SourceVersionRow.__table__.alias("newer")
        older = SourceVersionRow.__table__.alias("older")
        for chunk in _chunks(older_version_ids):
            stmt = (
                select(
                    _VS.id,
                    _VS.newer_version_id,
                    newer.c.source_id,
                    newer.c.number,
                    _VS.older_version_id,
                    older.c.source_id,
                    _VS.origin,
                    _VS.effective_from,
                )
                .join(newer, newer.c.id == _VS.newer_version_id)
                .join(older, older.c.id == _VS.older_version_id)
                .where(_VS.older_version_id.in_(bindparam("ids", expanding=True)))
            )
            if self.known_at is not None:
                stmt = stmt.where(
                    _VS.created_at <= self.known_at, newer.c.ingested_at <= self.known_at
                )
            out += [SupersessionFact(*r) for r in self.conn.execute(stmt, {"ids": chunk})]
        return sorted(out, key=lambda s: s.id)

    def _sources(self, source_ids: list[str]) -> dict[str, SourceFact]:
        if not source_ids:
            return {}
        groups: dict[str, set[str]] = {sid: set() for sid in source_ids}
        rows: list[Any] = []
        for chunk in _chunks(source_ids):
            ids: Any = bindparam("ids", expanding=True)
            rows += self.conn.execute(
                select(_S.id, _S.withdrawn, _S.effective_from, _S.effective_to).where(
                    _S.id.in_(ids)
                ),
                {"ids": chunk},
            ).all()
            for sid, name in self.conn.execute(
                select(_G.source_id, _G.group_name).where(_G.source_id.in_(ids)), {"ids": chunk}
            ):
                groups[sid].add(name)
        return {
            r[0]: SourceFact(r[0], bool(r[1]), r[2], r[3], frozenset(groups[r[0]])) for r in rows
        }

    def _reviews(self, claim_keys: list[str]) -> list[ReviewFact]:
        if not claim_keys:
            return []
        stmt = select(_RI.id, _RI.claim_key, _RI.state).where(
            _RI.claim_key.in_(bindparam("keys", expanding=True))
        )
        if self.known_at is not None:
            stmt = stmt.where(_RI.opened_at <= self.known_at)
        items = self.conn.execute(stmt, {"keys": claim_keys}).all()
        if not items:
            return []
        item_ids = [r[0] for r in items]
        members: dict[str, set[str]] = {i: set() for i in item_ids}
        ids: Any = bindparam("ids", expanding=True)
        for item_id, claim_id in self.conn.execute(
            select(_RIC.review_item_id, _RIC.claim_id).where(_RIC.review_item_id.in_(ids)),
            {"ids": item_ids},
        ):
            members[item_id].add(claim_id)
        resolutions = self._resolutions(item_ids)
        out = []
        for item_id, key, state in items:
            out.append(
                ReviewFact(
                    id=item_id,
                    claim_key=key,
                    state=self._state_as_of(state, resolutions.get(item_id)),
                    claim_ids=frozenset(members[item_id]),
                    resolution=resolutions.get(item_id),
                )
            )
        return sorted(out, key=lambda r: r.id)

    def _state_as_of(self, state: str, resolution: ResolutionFact | None) -> str:
        """Past item states are not kept; as of a past time an item is open or decided."""
        if self.known_at is None:
            return state
        return resolution.outcome if resolution is not None else "open"

    def _resolutions(self, item_ids: list[str]) -> dict[str, ResolutionFact]:
        stmt = select(_R.id, _R.review_item_id, _R.outcome, _R.policy_version, _R.decided_at).where(
            _R.review_item_id.in_(bindparam("ids", expanding=True))
        )
        if self.known_at is None:
            stmt = stmt.where(_R.superseded_at.is_(None))
        else:
            stmt = stmt.where(
                _R.decided_at <= self.known_at,
                or_(_R.superseded_at.is_(None), _R.superseded_at > self.known_at),
            )
        rows = self.conn.execute(stmt, {"ids": item_ids}).all()
        if not rows:
            return {}
        winners: dict[str, set[str]] = {r[0]: set() for r in rows}
        for res_id, claim_id in self.conn.execute(
            select(_RW.resolution_id, _RW.claim_id).where(
                _RW.resolution_id.in_(bindparam("ids", expanding=True))
            ),
            {"ids": sorted(winners)},
        ):
            winners[res_id].add(claim_id)
        latest: dict[str, ResolutionFact] = {}
        # The newest decision on an item is the one in force (older ones were reopened).
        for res_id, item_id, outcome, policy, decided in sorted(rows, key=lambda r: (r[4], r[0])):
            latest[item_id] = ResolutionFact(
                res_id, outcome, frozenset(winners[res_id]), policy, decided
            )
        return latest


__all__ = [
    "NOW",
    "AsOf",
    "ClaimFact",
    "EdgeFact",
    "EvidenceGroup",
    "EvidenceLoader",
    "ResolutionFact",
    "ReviewFact",
    "SourceFact",
    "SupersessionFact",
]
