"""The facts an evidence group holds (claims, sources, edges, supersessions, reviews,
resolutions) and the group itself, narrowed to what a requester may see at a time.

Split from ``retrieval.evidence``, which loads them by claim key; every verdict in
``retrieval.verdicts`` is computed from a narrowed group and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime

from claims.edges.value_groups import SlotGroup
from claims.models import Requester
from retrieval.access import source_visible


@dataclass(frozen=True)
class AsOf:
    """``effective``: the date the facts should hold at (None: no time filter, supersession
    as of today). ``known_at``: the system time the store is read as of (None: now).
    ``reference``: a date for supersession and source register dates only, leaving claims
    unfiltered (an answer to "... in 2019" uses the end of 2019, see retrieval.answer)."""

    effective: date | None = None
    known_at: datetime | None = None
    reference: date | None = None

    def supersession_date(self) -> date:
        return self.effective or self.reference or datetime.now(UTC).date()

    def source_date(self) -> date | None:
        return self.effective or self.reference


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
class RelationFact:
    """A disagreement between two value groups of one claim key, before supersession
    (``claims/edges/value_groups.py``): it holds between every member of one group and
    every member of the other, so a reader pairs the members it may see."""

    id: str
    claim_key: str
    left_group: str
    right_group: str
    kind: str
    rule: str
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
    # claim id -> value group id, and the disagreements between value groups
    value_groups: dict[str, str] = field(default_factory=dict)
    relations: list[RelationFact] = field(default_factory=list)
    # value group id -> its slot row, for groups that differ from others only in value
    # (disagreement decided from the values the reader sees: value_groups.slot_disagreements)
    slots: dict[str, SlotGroup] = field(default_factory=dict)

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
            value_groups={c: g for c, g in self.value_groups.items() if c in claims},
            relations=self.relations,
            slots=self.slots,
        )


def _source_in_force(source: SourceFact, as_of: AsOf) -> bool:
    day = as_of.source_date()
    if day is None:
        return True
    if source.effective_from is not None and day < source.effective_from:
        return False
    return not (source.effective_to is not None and day > source.effective_to)


def _claim_in_force(claim: ClaimFact, as_of: AsOf) -> bool:
    """Unknown time holds at every date (unknown stays unknown, it is not excluded)."""
    if as_of.effective is None:
        return True
    if claim.time_start is not None and as_of.effective < claim.time_start:
        return False
    return not (claim.time_end is not None and as_of.effective > claim.time_end)
