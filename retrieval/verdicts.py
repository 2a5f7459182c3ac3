"""Per-claim conflict status over one narrowed evidence group (pure; no database).

Order of precedence for one claim: superseded > contested > under_review > ambiguous >
resolved > none. Only edges whose two ends are visible count, and a resolution counts only
through winners the requester can see: when every winner is hidden, withdrawn or out of
force, the conflict is reported as unresolved for that requester (it never silently
becomes "resolved" in favour of something they cannot see).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from claims.edges.value_groups import SlotGroup, family_disagreements, slot_disagreements
from claims.models import ConflictStatus
from retrieval.evidence import (
    ClaimFact,
    EdgeFact,
    EvidenceGroup,
    RelationFact,
    ResolutionFact,
    ReviewFact,
    SupersessionFact,
)

_CLAIM_PRECEDENCE = (
    ConflictStatus.SUPERSEDED,
    ConflictStatus.CONTESTED,
    ConflictStatus.UNDER_REVIEW,
    ConflictStatus.AMBIGUOUS,
    ConflictStatus.RESOLVED,
    ConflictStatus.NONE,
)
_LIVE_PRECEDENCE = _CLAIM_PRECEDENCE[1:]


@dataclass(frozen=True)
class Replacement:
    """What replaces a superseded claim: a newer version (register/lineage) or claim."""

    source_id: str
    version_id: str
    version_number: int
    origin: str
    claim_id: str | None = None


@dataclass(slots=True)
class Verdict:
    """Everything the requester may learn about one claim's standing."""

    claim: ClaimFact
    status: ConflictStatus = ConflictStatus.NONE
    superseded_by: Replacement | None = None
    contested_with: set[str] = field(default_factory=set)
    ambiguous_with: set[str] = field(default_factory=set)
    resolved_with: set[str] = field(default_factory=set)
    corroborated_by: set[str] = field(default_factory=set)
    immaterial_with: set[str] = field(default_factory=set)
    resolution: ResolutionFact | None = None
    review_item_id: str | None = None
    reasons: list[str] = field(default_factory=list)
    _marks: set[ConflictStatus] = field(default_factory=set)
    # ambiguity from the claim's own key (or an item marked ambiguous), not only from a
    # similar key: a resolution of the claim's own conflict wins over the latter
    _ambiguous_in_key: bool = False

    @property
    def related(self) -> set[str]:
        return (
            self.contested_with
            | self.ambiguous_with
            | self.resolved_with
            | self.corroborated_by
            | self.immaterial_with
        )


def _best_supersession(versions: list[SupersessionFact]) -> SupersessionFact:
    # Register decisions first, then the newest replacing version; ties by id.
    return sorted(versions, key=lambda s: (s.origin != "register", -s.newer_number, s.id))[0]


def _as_replacement(best: SupersessionFact) -> Replacement:
    return Replacement(best.newer_source_id, best.newer_version_id, best.newer_number, best.origin)


def version_replacement(group: EvidenceGroup, version_id: str) -> Replacement | None:
    """The visible version that replaces ``version_id``, if any."""
    versions = [s for s in group.supersessions if s.older_version_id == version_id]
    return _as_replacement(_best_supersession(versions)) if versions else None


class _GroupIndex:
    """Lookups of one group built once, so a verdict pass is linear in claims and edges."""

    def __init__(self, group: EvidenceGroup) -> None:
        by_older: dict[str, list[SupersessionFact]] = {}
        for fact in group.supersessions:
            by_older.setdefault(fact.older_version_id, []).append(fact)
        self.version_replacement = {
            version: _as_replacement(_best_supersession(facts))
            for version, facts in by_older.items()
        }
        # A claim-level supersedes edge reads "left supersedes right"; the first one wins.
        self.superseding_edge: dict[str, EdgeFact] = {}
        for edge in group.edges:
            if edge.kind == "supersedes" and edge.left in group.claims:
                self.superseding_edge.setdefault(edge.right, edge)
        self.items_of: dict[str, list[ReviewFact]] = {}
        for item in group.reviews:
            for claim_id in item.claim_ids:
                self.items_of.setdefault(claim_id, []).append(item)

    def replacement(self, group: EvidenceGroup, claim: ClaimFact) -> Replacement | None:
        by_version = self.version_replacement.get(claim.version_id)
        if by_version is not None:
            return by_version
        edge = self.superseding_edge.get(claim.id)
        if edge is None:
            return None
        newer = group.claims[edge.left]
        return Replacement(
            newer.source_id, newer.version_id, newer.version_number, "claim", newer.id
        )

    def item_for(self, left: str, right: str) -> ReviewFact | None:
        """The first review item (in the group's order) holding both claims."""
        for item in self.items_of.get(left, ()):
            if right in item.claim_ids:
                return item
        return None


def evaluate(group: EvidenceGroup) -> dict[str, Verdict]:
    """A verdict for every claim of a (narrowed) group."""
    index = _GroupIndex(group)
    verdicts = {cid: Verdict(claim=c) for cid, c in sorted(group.claims.items())}
    for verdict in verdicts.values():
        verdict.superseded_by = index.replacement(group, verdict.claim)
        if verdict.superseded_by is not None:
            verdict._marks.add(ConflictStatus.SUPERSEDED)
    live = {cid for cid, v in verdicts.items() if v.superseded_by is None}
    for edge in group.edges:
        if edge.left not in live or edge.right not in live:
            continue
        _apply_edge(edge, verdicts, index)
    for edge in relation_edges(group, live):
        _apply_edge(edge, verdicts, index)
    for verdict in verdicts.values():
        marks = verdict._marks
        if ConflictStatus.RESOLVED in marks and not verdict._ambiguous_in_key:
            # a similar key's ambiguity does not undo the decision of the claim's own
            # conflict (issue 31.13); the ambiguous partners stay listed
            marks.discard(ConflictStatus.AMBIGUOUS)
        verdict.status = next(
            s for s in _CLAIM_PRECEDENCE if s in marks or s is ConflictStatus.NONE
        )
    return verdicts


def relation_edges(group: EvidenceGroup, live: set[str]) -> Iterator[EdgeFact]:
    """The value-group relations of ``group`` as edges between the live claims it holds.

    Each relation joins every member of one group to the other group's first member (by
    claim id) and back: a star over exactly the claims this requester may see, built the
    same way whatever else the store holds, so a response over the whole corpus equals the
    response over the visible one. The reason is written from those claims alone.
    Members of one group corroborate its first member, unless they come from the same
    source (agreement inside one document is not independent support).
    """
    if not group.value_groups:
        return
    members: dict[str, list[str]] = {}
    for claim_id in sorted(live & group.value_groups.keys()):
        members.setdefault(group.value_groups[claim_id], []).append(claim_id)
    for group_id, claim_ids in sorted(members.items()):
        anchor = group.claims[claim_ids[0]]
        for claim_id in claim_ids[1:]:
            if group.claims[claim_id].source_id != anchor.source_id:
                yield EdgeFact(
                    f"{group_id}:{anchor.id}:{claim_id}",
                    "corroborates",
                    anchor.id,
                    claim_id,
                    "value",
                    "states the same value",
                    None,
                )
    for relation in group.relations:
        left, right = members.get(relation.left_group), members.get(relation.right_group)
        if not left or not right:
            continue
        reason = relation_reason(relation, group.claims[left[0]], group.claims[right[0]])
        for claim_id in left:
            yield _relation_edge(relation, claim_id, right[0], reason)
        for claim_id in right[1:]:
            yield _relation_edge(relation, left[0], claim_id, reason)
    if group.slots:
        yield from _slot_edges(group, members)


def _slot_edges(group: EvidenceGroup, members: dict[str, list[str]]) -> Iterator[EdgeFact]:
    """Disagreements inside slots, from the value groups this requester sees alone.

    Each visible group meets the visible groups that contest it under the slot rule (the
    lowest and highest value of each authority tier, ``value_groups.slot_disagreements``):
    its members meet their first visible member. The status this gives each claim is the
    one a comparison with every visible group would give, at a cost linear in the groups.
    """
    by_slot: dict[str, list[SlotGroup]] = {}
    for group_id in sorted(members):
        row = group.slots.get(group_id)
        if row is not None:
            by_slot.setdefault(row.slot_id, []).append(row)
    yield from _family_edges(group, members, [r for rows in by_slot.values() for r in rows])
    for _slot, rows in sorted(by_slot.items()):
        if len(rows) < 2:
            continue
        for x, y, material in slot_disagreements(rows):
            left, right = members[x.value_group_id], members[y.value_group_id]
            anchor = group.claims[right[0]]
            reason = slot_reason(group.claims[left[0]], anchor)
            for claim_id in left:
                yield EdgeFact(
                    f"{x.value_group_id}:{y.value_group_id}:{claim_id}",
                    "conflicts",
                    claim_id,
                    anchor.id,
                    "value",
                    reason,
                    material,
                )


def _family_edges(
    group: EvidenceGroup, members: dict[str, list[str]], rows: list[SlotGroup]
) -> Iterator[EdgeFact]:
    """Ambiguities between slots of one family (a unit stated on one side only, two
    dimensions: ``value_groups.family_disagreements``), from the groups this requester
    sees: each group's members meet the first visible member of the lowest and highest
    group of the other slot it is ambiguous with."""
    for x, y in family_disagreements(rows):
        left, right = members[x.value_group_id], members[y.value_group_id]
        anchor = group.claims[right[0]]
        reason = family_reason(group.claims[left[0]], anchor)
        for claim_id in left:
            yield EdgeFact(
                f"{x.value_group_id}:{y.value_group_id}:{claim_id}",
                "ambiguous",
                claim_id,
                anchor.id,
                "unit",
                reason,
                None,
            )


def family_reason(left: ClaimFact, right: ClaimFact) -> str:
    """The reason of an ambiguity between two slots of one family."""
    return f"{_shown(left)} vs {_shown(right)}: the units differ or one side states none (unit)"


def _relation_edge(relation: RelationFact, left: str, right: str, reason: str) -> EdgeFact:
    return EdgeFact(
        f"{relation.id}:{left}:{right}",
        relation.kind,
        left,
        right,
        relation.rule,
        reason,
        relation.material,
    )


def _shown(claim: ClaimFact) -> str:
    if claim.value_text:
        return claim.value_text
    if claim.value_number is not None:
        return f"{claim.value_number:g} {claim.unit or ''}".strip()
    return claim.polarity or ""


def relation_reason(relation: RelationFact, left: ClaimFact, right: ClaimFact) -> str:
    """The reason of a relation's edges, written from the two groups' first visible members."""
    what = "cannot both hold" if relation.kind == "conflicts" else "cannot be reconciled"
    return f"{_shown(left)} vs {_shown(right)}: the values {what} ({relation.rule})"


def slot_reason(left: ClaimFact, right: ClaimFact) -> str:
    """The reason of a slot disagreement, from the two groups' first visible members."""
    return f"{_shown(left)} vs {_shown(right)}: the values cannot both hold (value)"


def _apply_edge(edge: EdgeFact, verdicts: dict[str, Verdict], index: _GroupIndex) -> None:
    left, right = verdicts[edge.left], verdicts[edge.right]
    pair = ((left, right.claim.id), (right, left.claim.id))
    if edge.kind == "corroborates":
        for verdict, other in pair:
            verdict.corroborated_by.add(other)
        return
    if edge.kind not in ("conflicts", "ambiguous"):
        return
    item = index.item_for(edge.left, edge.right)
    resolution = item.resolution if item is not None else None
    if resolution is not None and resolution.outcome == "dismissed":
        return
    if resolution is not None and resolution.outcome == "resolved" and resolution.winners:
        for verdict, other in pair:
            verdict._marks.add(ConflictStatus.RESOLVED)
            verdict.resolved_with.add(other)
            verdict.resolution = resolution
            verdict.review_item_id = item.id if item else None
        return
    if edge.kind == "ambiguous" or (resolution is not None and resolution.outcome == "ambiguous"):
        in_key = left.claim.claim_key == right.claim.claim_key or edge.kind != "ambiguous"
        for verdict, other in pair:
            verdict._marks.add(ConflictStatus.AMBIGUOUS)
            verdict._ambiguous_in_key |= in_key
            verdict.ambiguous_with.add(other)
            verdict.reasons.append(edge.reason)
        return
    if edge.material is False:
        for verdict, other in pair:
            verdict.immaterial_with.add(other)
        return
    mark = (
        ConflictStatus.UNDER_REVIEW
        if item is not None and resolution is None and item.state == "claimed"
        else ConflictStatus.CONTESTED
    )
    for verdict, other in pair:
        verdict._marks.add(mark)
        verdict.contested_with.add(other)
        verdict.reasons.append(edge.reason)
        if item is not None:
            verdict.review_item_id = item.id


def aggregate(verdicts: Iterable[Verdict]) -> ConflictStatus:
    """The status of several claims (a key, a version, a passage).

    Live claims decide; "superseded" only when every claim is superseded.
    """
    items = list(verdicts)
    live = {v.status for v in items if v.status is not ConflictStatus.SUPERSEDED}
    if not live:
        return ConflictStatus.SUPERSEDED if items else ConflictStatus.NONE
    return next(s for s in _LIVE_PRECEDENCE if s in live or s is ConflictStatus.NONE)
