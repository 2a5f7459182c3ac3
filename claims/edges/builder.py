"""Turn a set of claims into edges, block by block (never all pairs).

Claims are blocked by claim key. Inside a block, claims with identical comparable facts form
one *group* (they get identical verdicts, so the rules run once per pair of groups, not per
pair of claims); inside a group, claims with the same normalised sentence form one *origin*
(surface clones). Edges then join:

- clones to the first claim of their origin (``corroborates``, rule ``clone``);
- origins of one group to the group's first origin (``corroborates``);
- agreeing groups by their first claims (``corroborates``), compatible groups likewise
  (``compatible``, with the reason they are not linked);
- disagreeing groups (``conflicts`` or ``ambiguous``) as one value-group relation per pair
  of value groups (``value_groups.py``: what readers judge per requester) and a star of
  claim edges (linear in the claims, for review routing), unless one side's version
  replaces the other's (``supersedes``, newer on the left) or one side's version is
  replaced (``compatible``, rule ``superseded``); a replaced version's claims are also
  linked to every differing claim of the replacing version;
- a conflict inside one sentence, or with one value of a sentence that lists several, is an
  elaboration (``listed_values``).

A second pass over coarse-key (attribute class) blocks compares claims whose keys name the
same or a similar attribute (``similarity.similar_key_pairs``); those edges carry the coarse
key prefixed with ``~``, and only the ``same`` band can make them conflicts. In the same
blocks, claims of subjects found to be one entity across pages (``entities.link_entities``:
a subject named only inside its page that agrees with a namesake's page on other facts) are
compared as one slot (``_linked_block``); their edges carry the ``~`` key too and a reason
that names the link.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, NamedTuple

from claims.edges.comparable_groups import comparable_pairs
from claims.edges.compare import compare_as_one_key, compare_facts, listed_values, ordered
from claims.edges.entities import EntityLinks, link_entities
from claims.edges.facts import ClaimFacts
from claims.edges.materiality import MaterialitySettings, assess
from claims.edges.mirrors import StatedIndex, mirrored
from claims.edges.similarity import similar_key_pairs
from claims.edges.slot_edges import (
    between_pages,
    block_slots,
    disagreement,
    family_edges,
    slot_edges,
)
from claims.edges.supersession import SupersessionIndex
from claims.edges.value_groups import (
    GroupMember,
    GroupRelation,
    SlotGroup,
    is_unknown_key,
    split_group,
)
from claims.edges.verdict import PairVerdict, Rule
from claims.models import Edge, EdgeKind, Relation, SupersessionOrigin
from claims.profiles import NO_JUDGES, EdgeJudges, NamesakeJudge

NEAR_MISS_PREFIX = "~"
# A coarse key shared by more distinct claim keys than this is too generic to say two keys
# may name the same thing ("period" spans every subject): its block is not searched for near
# misses, which also keeps near-miss work linear in the number of claims.
MAX_NEAR_MISS_KEYS = 64

_KIND = {
    Relation.CONFLICT: EdgeKind.CONFLICTS,
    Relation.AMBIGUOUS: EdgeKind.AMBIGUOUS,
    Relation.CORROBORATION: EdgeKind.CORROBORATES,
    Relation.COMPATIBLE: EdgeKind.COMPATIBLE,
}
# relations kept between claims of two keys with the same or similar attributes
_KEPT_ACROSS_KEYS = (Relation.CONFLICT, Relation.AMBIGUOUS, Relation.CORROBORATION)
_NO_SUPERSESSIONS = SupersessionIndex()
_DEFAULT_MATERIALITY = MaterialitySettings()


class EdgeDraft(NamedTuple):
    """The edge one pair of claims gets, before it has an id (see ``refine``)."""

    kind: EdgeKind
    rule: str
    reason: str
    left: ClaimFacts
    right: ClaimFacts


class EdgeRecord(NamedTuple):
    """One edge as stored (lean form of ``claims.models.Edge``)."""

    id: str
    kind: str
    left_claim_id: str
    right_claim_id: str
    claim_key: str
    rule: str
    reason: str
    material: bool | None
    materiality: float | None


@dataclass
class EdgeBuild:
    """The edges of a set of claims plus counts for reports and benchmarks."""

    edges: list[EdgeRecord] = field(default_factory=list)
    # value groups (claims/edges/value_groups.py): one member row per claim of a key with
    # a subject, one relation per disagreeing pair of value groups
    members: list[GroupMember] = field(default_factory=list)
    relations: list[GroupRelation] = field(default_factory=list)
    # value groups of a slot (exact points differing only in value): one row per group,
    # disagreement decided from the values (value_groups.slot_disagreements), no pair rows
    slots: list[SlotGroup] = field(default_factory=list)
    claims: int = 0
    blocks: int = 0
    groups: int = 0
    comparisons: int = 0
    near_miss_blocks: int = 0

    generation: str = ""

    def count(self, kind: EdgeKind) -> int:
        return sum(1 for e in self.edges if e.kind == kind.value)

    def as_edges(self) -> list[Edge]:
        """The edges as domain models (for callers that want ``claims.models.Edge``)."""
        return [
            Edge(
                id=e.id,
                kind=EdgeKind(e.kind),
                left_claim_id=e.left_claim_id,
                right_claim_id=e.right_claim_id,
                claim_key=e.claim_key,
                rule=e.rule,
                reason=e.reason,
                material=e.material,
                materiality=e.materiality,
                generation=self.generation,
            )
            for e in self.edges
        ]


def edge_id(generation: str, kind: str, left_id: str, right_id: str) -> str:
    """Deterministic edge id (one hash call: this runs once per edge at a million claims)."""
    digest = hashlib.blake2b(
        f"{generation}\x1f{kind}\x1f{left_id}\x1f{right_id}".encode(), digest_size=12
    )
    return f"edge_{digest.hexdigest()}"


# compatible verdicts whose values differ: a replacing version stating one of these has
# restated the claim with another value (different scope or time is another claim)
_VALUE_CHANGES = {Rule.ELABORATION, Rule.PRECISION, Rule.RANGE, Rule.BOUND, Rule.MODALITY}


def restates_differently(verdict: PairVerdict) -> bool:
    """Whether the pair states the same claim with another value (what a version replaces)."""
    if verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
        return True
    return verdict.relation is Relation.COMPATIBLE and verdict.rule in _VALUE_CHANGES


def refine(
    x: ClaimFacts,
    y: ClaimFacts,
    verdict: PairVerdict,
    supersessions: SupersessionIndex = _NO_SUPERSESSIONS,
) -> EdgeDraft | None:
    """The edge a compared pair gets once clones, sources and supersession are considered.

    This is the one place that turns a verdict into an edge; ``claims check`` and the builder
    both go through it. ``None`` for unrelated pairs.
    """
    if verdict.relation is Relation.UNRELATED:
        return None
    left, right = ordered(x, y)
    newer_older = _supersession(left, right, supersessions)
    if newer_older is not None and not supersessions.claim_superseded(newer_older[1]):
        # a register replacement from a date leaves the older claim in force before it
        newer_older = None
    if newer_older is not None and restates_differently(verdict):
        newer, older, origin = newer_older
        rule = Rule.LINEAGE if origin is SupersessionOrigin.LINEAGE else Rule.REGISTER
        how = "a newer version" if rule == Rule.LINEAGE else "the source register"
        return EdgeDraft(
            EdgeKind.SUPERSEDES,
            rule,
            f"{older.shown} in {older.source_id} is replaced by {newer.shown} in "
            f"{newer.source_id} ({how}); {verdict.reason}",
            newer,
            older,
        )
    if (
        verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)
        and supersessions
        and (supersessions.claim_superseded(left) or supersessions.claim_superseded(right))
    ):
        gone = left if supersessions.claim_superseded(left) else right
        return EdgeDraft(
            EdgeKind.COMPATIBLE,
            Rule.SUPERSEDED,
            f"the version of {gone.source_id} stating {gone.shown} is superseded; "
            f"not a live conflict ({verdict.reason})",
            left,
            right,
        )
    if verdict.relation is Relation.CORROBORATION:
        if newer_older is not None:
            newer, older, origin = newer_older
            return EdgeDraft(
                EdgeKind.COMPATIBLE,
                Rule.LINEAGE if origin is SupersessionOrigin.LINEAGE else Rule.REGISTER,
                f"restated unchanged by the replacing version ({verdict.reason})",
                newer,
                older,
            )
        if (
            supersessions
            and verdict.rule != Rule.CLONE
            and (supersessions.claim_superseded(left) or supersessions.claim_superseded(right))
        ):
            # a replaced version no longer asserts anything: its agreement is not support
            # (clone edges stay: they say where a mirrored sentence came from)
            gone = left if supersessions.claim_superseded(left) else right
            return EdgeDraft(
                EdgeKind.COMPATIBLE,
                Rule.SUPERSEDED,
                f"the version of {gone.source_id} stating {gone.shown} is superseded; its "
                f"agreement no longer counts as support ({verdict.reason})",
                left,
                right,
            )
        if left.source_id and left.source_id == right.source_id:
            return EdgeDraft(
                EdgeKind.COMPATIBLE,
                Rule.SAME_SOURCE,
                f"agreement inside one source ({left.source_id}) is not independent "
                f"corroboration ({verdict.reason})",
                left,
                right,
            )
    return EdgeDraft(_KIND[verdict.relation], verdict.rule, verdict.reason, left, right)


def _supersession(
    a: ClaimFacts, b: ClaimFacts, index: SupersessionIndex
) -> tuple[ClaimFacts, ClaimFacts, SupersessionOrigin] | None:
    if a.version_id == b.version_id or not (
        index.replaced(a.version_id) or index.replaced(b.version_id)
    ):
        return None
    link = index.link(a.version_id, b.version_id)
    if link is not None:
        return a, b, link.origin
    link = index.link(b.version_id, a.version_id)
    if link is not None:
        return b, a, link.origin
    return None


class _Emitter:
    def __init__(
        self,
        generation: str,
        supersessions: SupersessionIndex,
        materiality: MaterialitySettings,
        tiers: Mapping[str, str | None],
        build: EdgeBuild,
        pages: NamesakeJudge | None = None,
        counterparts: Callable[[ClaimFacts, ClaimFacts], str | None] | None = None,
        judged: Collection[str] = (),
    ) -> None:
        self.generation = generation
        # the profile's judge of two keys of one attribute class naming one attribute, for
        # claims of the sources read with the profile (``judged``)
        self.counterparts = counterparts
        self.judged = judged
        # what each page states, to tell namesake pages of one template apart (the
        # profile's judge: claims/reference/pages.py)
        self.pages = pages
        self.supersessions = supersessions
        self.materiality = materiality
        self.tiers = tiers
        self.build = build
        self._emitted: set[tuple[str, str]] = set()
        # value groups of this block whose members already meet another group's first claim
        self.starred: set[str] = set()
        self._members: list[ClaimFacts] = []
        self._sentences: dict[tuple[str, str], list[ClaimFacts]] | None = None
        self._stated: StatedIndex | None = None
        self._lists: dict[tuple[str, str], bool] = {}
        # materiality by its inputs (see ``assess``); the settings are fixed for a build
        self._assessed: dict[tuple[object, ...], tuple[bool, float]] = {}

    def start_block(self, members: list[ClaimFacts]) -> None:
        self._emitted.clear()
        self._members = members
        self._sentences = None
        self._stated = None
        self._lists.clear()
        self.starred.clear()

    def mates(self, facts: ClaimFacts) -> list[ClaimFacts]:
        """Claims of this block in the same sentence of the same version (built on demand)."""
        if self._sentences is None:
            self._sentences = defaultdict(list)
            for member in self._members:
                self._sentences[(member.version_id, member.quote_norm)].append(member)
        return self._sentences.get((facts.version_id, facts.quote_norm), [])

    def stated(self) -> StatedIndex:
        """Which versions of this block state which claims (``mirrors``, built on demand)."""
        if self._stated is None:
            self._stated = StatedIndex(self._members)
        return self._stated

    def lists_values(self, facts: ClaimFacts) -> bool:
        """Whether the claim's sentence states other values of the key (an enumeration).

        A sentence repeated word for word in one version is not a list: its mates all
        state the same thing (a file of 20,000 "The fee is N EUR." lines repeats each).
        """
        sentence = (facts.version_id, facts.quote_norm)
        found = self._lists.get(sentence)
        if found is None:
            found = len({mate.signature for mate in self.mates(facts)}) > 1
            self._lists[sentence] = found
        return found

    def assess(self, draft: EdgeDraft) -> tuple[bool, float]:
        """``materiality.assess`` of a conflict edge, once per distinct input.

        A star of claim edges repeats one pair of values (every member of a value group
        meets the same anchor), and assess reads only the two sides' intervals, keys,
        predicates and tiers: the repeats are looked up, not computed again.
        """
        left, right = draft.left, draft.right
        tier_left, tier_right = self.tiers.get(left.source_id), self.tiers.get(right.source_id)
        if not (left.lo and left.hi and right.lo and right.hi):
            # 0.0 and -0.0 are one key but may give scores of either sign: not looked up
            assessed = assess(left, right, draft.rule, self.materiality, tier_left, tier_right)
            return assessed.material, assessed.score
        key = (
            draft.rule,
            left.lo,
            left.hi,
            left.claim_key,
            left.predicate,
            tier_left,
            right.lo,
            right.hi,
            right.claim_key,
            right.predicate,
            tier_right,
        )
        found = self._assessed.get(key)
        if found is None:
            assessed = assess(left, right, draft.rule, self.materiality, tier_left, tier_right)
            found = self._assessed[key] = (assessed.material, assessed.score)
        return found

    def pair(self, x: ClaimFacts, y: ClaimFacts, verdict: PairVerdict, claim_key: str) -> None:
        if verdict.relation is Relation.CONFLICT:
            verdict = listed_values(x, y, verdict, self.mates(x), self.mates(y))
        elif verdict.relation is Relation.AMBIGUOUS:
            verdict = listed_values(x, y, verdict)
        if verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
            verdict = mirrored(x, y, verdict, self.stated())
        draft = refine(x, y, verdict, self.supersessions)
        if draft is None:
            return
        pair = (draft.left.id, draft.right.id)
        if pair in self._emitted:
            return
        self._emitted.add(pair)
        material: bool | None = None
        score: float | None = None
        if draft.kind is EdgeKind.CONFLICTS:
            material, score = self.assess(draft)
        kind = draft.kind.value
        self.build.edges.append(
            EdgeRecord(
                edge_id(self.generation, kind, draft.left.id, draft.right.id),
                kind,
                draft.left.id,
                draft.right.id,
                claim_key,
                draft.rule,
                draft.reason,
                material,
                score,
            )
        )


def _groups(members: list[ClaimFacts]) -> list[list[list[ClaimFacts]]]:
    """Members (sorted) -> groups of identical facts -> origins (lists of surface clones)."""
    by_signature: dict[tuple[object, ...], dict[str, list[ClaimFacts]]] = {}
    for facts in members:
        origins = by_signature.setdefault(facts.signature, {})
        origins.setdefault(facts.quote_norm, []).append(facts)
    return [list(origins.values()) for origins in by_signature.values()]


def _sort_members(members: list[ClaimFacts], index: SupersessionIndex) -> None:
    # live claims first, so every group and origin is represented by a claim still in force
    if index:
        members.sort(key=lambda f: (index.claim_superseded(f), f.order_key))
    else:
        members.sort(key=lambda f: f.order_key)


def _clone_and_group_edges(
    groups: list[list[list[ClaimFacts]]], emit: _Emitter, claim_key: str, build: EdgeBuild
) -> None:
    for origins in groups:
        anchor = origins[0][0]
        same: PairVerdict | None = None
        for origin in origins:
            for clone in origin[1:]:
                build.comparisons += 1
                emit.pair(origin[0], clone, compare_facts(origin[0], clone), claim_key)
            if origin is origins[0]:
                continue
            if same is None:
                build.comparisons += 1
                same = compare_facts(anchor, origin[0])
            emit.pair(anchor, origin[0], same, claim_key)


def _block(members: list[ClaimFacts], emit: _Emitter, build: EdgeBuild) -> None:
    claim_key = members[0].claim_key
    if is_unknown_key(claim_key):
        # no subject: two bare numbers say nothing about one thing (and a file of 20,000
        # numbers must not cost 20,000^2), so they are never linked, not even as clones
        return
    _sort_members(members, emit.supersessions)
    groups = _groups(members)
    build.groups += len(groups)
    emit.start_block(members)
    _clone_and_group_edges(groups, emit, claim_key, build)
    values = [split_group(emit.generation, origins, emit.mates, emit.tiers) for origins in groups]
    build.members += [
        GroupMember(facts.id, value.id, claim_key)
        for split in values
        for value in split
        for facts in value.members
    ]
    slots = block_slots(groups, values, emit, build)
    disagreeing: dict[tuple[int, int], PairVerdict] = {}
    group_pages: dict[int, Any] = {}  # read once per group, when it disagrees
    for i, j in comparable_pairs(groups, slots.large_of, slots.family_of):
        first, second = groups[i], groups[j]
        rep, other = first[0][0], second[0][0]
        build.comparisons += 1
        verdict = compare_facts(rep, other)
        apart: Any = None
        if emit.pages is not None and verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
            for index in (i, j):
                if index not in group_pages:
                    group_pages[index] = emit.pages.group_pages(
                        f for origin in groups[index] for f in origin
                    )
            apart = _namesakes(first, second, (group_pages[i], group_pages[j]), emit)
            if apart is not None and not apart.together:
                verdict = PairVerdict(
                    Relation.COMPATIBLE, Rule.NAMESAKES, f"{apart.reason} ({verdict.reason})"
                )
        if restates_differently(verdict):
            disagreeing[(i, j)] = verdict  # replaced versions: see _supersession_pairs
        if verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS):
            emit.pair(rep, other, verdict, claim_key)
            continue
        same_slot = slots.of[i] is not None and slots.of[i] == slots.of[j]
        # two slots of one family: readers decide them by value_groups.family_disagreements
        same_slot |= slots.family_of[i] is not None and slots.family_of[i] == slots.family_of[j]
        for x in values[i]:
            for y in values[j]:
                if apart is not None:  # some pages are namesakes: edges between the others
                    between_pages(
                        x, y, apart.together, verdict, emit, build, claim_key, not same_slot
                    )
                    continue
                disagreement(x, y, verdict, emit, build, claim_key, relation=not same_slot)
    for slot_rows in slots.large:
        slot_edges(slot_rows, emit, build, claim_key)
    if len(slots.large) > 1:
        family_edges([row for rows in slots.large for row in rows], emit, build, claim_key)
    if emit.supersessions and (disagreeing or slots.large):
        _supersession_pairs(groups, disagreeing, emit, claim_key, slots.of)


def _namesakes(
    first: list[list[ClaimFacts]],
    second: list[list[ClaimFacts]],
    pages: tuple[Any, Any],
    emit: _Emitter,
) -> Any:
    """The pages of two disagreeing groups told apart (the profile's ``namesakes`` judge):
    "The average household size was 2.22." on a page of one town and "... 2.83." on a page
    of its namesake, cut from the middle of two census sections, or "Hale was born in 1869."
    on the pages titled "Andrew Hale (Royal Navy officer)" and "Edmund Hale (bishop)". A page
    that replaces the other (lineage or register) restates it: that stays the supersession
    it is, never namesakes."""
    assert emit.pages is not None
    x, y = pages
    if x is None or y is None:
        return None
    apart = emit.pages.namesakes(x, y)
    if apart is not None and emit.supersessions:
        versions_x = {f.version_id: f for origin in first for f in origin}.values()
        versions_y = {f.version_id: f for origin in second for f in origin}.values()
        if any(_supersession(a, b, emit.supersessions) for a in versions_x for b in versions_y):
            return None
    return apart


def _supersession_pairs(
    groups: list[list[list[ClaimFacts]]],
    disagreeing: dict[tuple[int, int], PairVerdict],
    emit: _Emitter,
    claim_key: str,
    slot_of: Sequence[str | None],
) -> None:
    """Link every claim of a replaced version to the replacing version's differing claims.

    Pairs inside a large slot were never compared group by group: they are compared here,
    claim by claim, for the versions that replace one another (a handful of claims each).
    """
    index = emit.supersessions
    by_version: dict[str, list[tuple[int, ClaimFacts]]] = defaultdict(list)
    for g, origins in enumerate(groups):
        for origin in origins:
            for facts in origin:
                by_version[facts.version_id].append((g, facts))
    for older, olds in by_version.items():
        if not index.replaced(older):
            continue
        for newer in index.newer_versions(older) & by_version.keys():
            for g_old, x in olds:
                for g_new, y in by_version[newer]:
                    verdict = disagreeing.get((min(g_old, g_new), max(g_old, g_new)))
                    slot = slot_of[g_old]
                    if verdict is None and g_old != g_new and slot and slot == slot_of[g_new]:
                        found = compare_facts(x, y)
                        verdict = found if restates_differently(found) else None
                    if verdict is not None:
                        emit.pair(x, y, verdict, claim_key)


def _near_miss_block(members: list[ClaimFacts], emit: _Emitter, build: EdgeBuild) -> None:
    _sort_members(members, emit.supersessions)
    claim_key = NEAR_MISS_PREFIX + members[0].coarse_key
    by_key: dict[str, list[ClaimFacts]] = defaultdict(list)
    for facts in members:
        by_key[facts.claim_key].append(facts)
    # an index over attribute words, not all pairs of keys; other entities never pair
    identity = {key: (facts[0].entity, facts[0].attribute) for key, facts in by_key.items()}
    similar = {(a, b) for a, b, _match in similar_key_pairs(identity)}
    one_attribute = _counterpart_pairs(by_key, emit) if emit.counterparts else {}
    if not similar and not one_attribute:
        return
    emit.start_block(members)
    groups = {key: _groups(claims) for key, claims in by_key.items()}
    for key_a, key_b in sorted(similar | one_attribute.keys()):
        why = one_attribute.get((key_a, key_b))
        for group_a in groups[key_a]:
            for group_b in groups[key_b]:
                if _one_version(group_a, group_b):
                    # one document naming two things differently ("short-term" and
                    # "long-term deferred commissions") means two things, not a near miss
                    continue
                rep, other = group_a[0][0], group_b[0][0]
                one = _counterparts(rep, other, emit) if why is not None else None
                if one is not None:
                    verdict = compare_as_one_key(rep, other, one)
                elif (key_a, key_b) in similar:
                    verdict = compare_facts(rep, other)
                else:
                    continue
                build.comparisons += 1
                # only the matches worth a look are kept: disagreements and agreements
                if verdict.relation in _KEPT_ACROSS_KEYS or (
                    verdict.relation is Relation.COMPATIBLE and verdict.rule == Rule.KEY
                ):
                    emit.pair(rep, other, verdict, claim_key)


# Most claim keys of one entity and one kind of value in a near-miss block that
# the profile's counterpart judge compares pairwise; a larger sub-block is not judged (its
# pairs grow with the square of its keys), so the work stays linear in the claims.
MAX_COUNTERPART_KEYS = 16


def _counterpart_pairs(
    by_key: Mapping[str, list[ClaimFacts]], emit: _Emitter
) -> dict[tuple[str, str], str]:
    """Pairs of claim keys (a < b) of a near-miss block that the profile's judge holds to
    state one attribute, with why: judged only among the keys of one entity and one kind
    of value (claims of the sources read with the profile), at most
    ``MAX_COUNTERPART_KEYS`` keys per such sub-block."""
    assert emit.counterparts is not None
    blocks: dict[tuple[str, str], dict[str, ClaimFacts]] = defaultdict(dict)
    for key, claims in by_key.items():
        for facts in claims:
            if facts.entity and facts.source_id in emit.judged:
                blocks[(facts.entity, facts.kind)].setdefault(key, facts)
    found: dict[tuple[str, str], str] = {}
    for reps in blocks.values():
        if not 2 <= len(reps) <= MAX_COUNTERPART_KEYS:
            continue
        for a, b in combinations(sorted(reps), 2):
            why = emit.counterparts(reps[a], reps[b])
            if why is not None:
                found[(a, b)] = why
    return found


def _counterparts(x: ClaimFacts, y: ClaimFacts, emit: _Emitter) -> str | None:
    """Why the judge holds two groups' first claims for one attribute too, or None (a key's
    claims may state values of another kind or dimension than the claim it was judged by)."""
    assert emit.counterparts is not None
    if x.source_id not in emit.judged or y.source_id not in emit.judged:
        return None
    return emit.counterparts(x, y)


def _one_version(*groups: list[list[ClaimFacts]]) -> bool:
    """Whether every claim of these groups comes from one and the same source version."""
    versions = {facts.version_id for group in groups for origin in group for facts in origin}
    return len(versions) == 1 and "" not in versions


def _linked_block(
    members: list[ClaimFacts], links: EntityLinks, emit: _Emitter, build: EdgeBuild
) -> None:
    """Claims of one attribute class whose subjects are one entity (``links``), compared
    subject against subject as one slot: a conflict, an agreement or an ambiguity as inside
    one key, with the link in the reason. Only the groups of linked subjects meet (a
    handful of pages per name), so the work stays linear in the claims."""
    by_slot: dict[tuple[str, str], dict[str, list[ClaimFacts]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for facts in members:
        if facts.entity in links.canonical:
            name = links.canonical[facts.entity]
            by_slot[(name, facts.attribute)][facts.entity].append(facts)
    claim_key = NEAR_MISS_PREFIX + members[0].coarse_key
    for (name, attribute), subjects in sorted(by_slot.items()):
        if len(subjects) < 2:
            continue
        # one key for the slot, so the claims compare as values of one claim key
        slot_key = f"{name} {attribute}"
        as_one: dict[str, list[ClaimFacts]] = {}
        for entity, stated in sorted(subjects.items()):
            _sort_members(stated, emit.supersessions)
            as_one[entity] = [
                replace(group[0][0], entity=name, claim_key=slot_key) for group in _groups(stated)
            ]
        emit.start_block([f for reps in as_one.values() for f in reps])
        for a, b in combinations(sorted(as_one), 2):
            why = links.reason(a, b)
            for rep in as_one[a]:
                for other in as_one[b]:
                    build.comparisons += 1
                    verdict = compare_facts(rep, other)
                    if verdict.relation in _KEPT_ACROSS_KEYS:
                        verdict = replace(verdict, reason=f"{why}; {verdict.reason}")
                        emit.pair(rep, other, verdict, claim_key)


def build_edges(
    claims: Iterable[ClaimFacts],
    *,
    generation: str,
    supersessions: SupersessionIndex | None = None,
    materiality: MaterialitySettings | None = None,
    tiers: Mapping[str, str | None] | None = None,
    keys: Collection[str] | None = None,
    coarse_keys: Collection[str] | None = None,
    judges: EdgeJudges = NO_JUDGES,
    namesake_sources: Collection[str] = (),
) -> EdgeBuild:
    """Every edge among ``claims``, blocked by claim key (and coarse key for near misses).

    ``keys`` / ``coarse_keys`` restrict which blocks are evaluated (an incremental
    recompute passes the keys a new source version touches); ``None`` means all.
    ``judges`` are the profiles' (``claims.profiles.judges_for``): the reference profile's
    tells namesake pages apart; the office profile lends none. ``namesake_sources`` are the
    sources read as reference pages, the only ones that judge may tell apart; office documents
    (the default) are never namesakes: two documents about one thing that disagree on k
    figures give k conflicts.
    Deterministic: the same claims give the same edges with the same ids.
    """
    build = EdgeBuild(generation=generation)
    claims = list(claims)
    links = link_entities(claims)
    named = frozenset(namesake_sources)
    pages = (
        judges.namesake_pages(claims, links.name_of, named.__contains__)
        if judges.namesake_pages and named
        else None
    )
    emit = _Emitter(
        generation,
        supersessions or _NO_SUPERSESSIONS,
        materiality or _DEFAULT_MATERIALITY,
        tiers or {},
        build,
        pages,
        judges.counterparts if named else None,
        named,
    )
    blocks: dict[str, list[ClaimFacts]] = defaultdict(list)
    coarse: dict[str, list[ClaimFacts]] = defaultdict(list)
    for facts in claims:
        build.claims += 1
        if keys is None or facts.claim_key in keys:
            blocks[facts.claim_key].append(facts)
        if (
            facts.coarse_key
            and (coarse_keys is None or facts.coarse_key in coarse_keys)
            and not is_unknown_key(facts.claim_key)
        ):
            coarse[facts.coarse_key].append(facts)
    for members in blocks.values():
        build.blocks += 1
        if len(members) > 1:
            _block(members, emit, build)
    for members in coarse.values():
        if len(members) > 1 and near_miss_block_size_ok(members):
            build.near_miss_blocks += 1
            _near_miss_block(members, emit, build)
        if links and len(members) > 1:
            _linked_block(members, links, emit, build)
    return build


def near_miss_block_size_ok(members: Sequence[ClaimFacts]) -> bool:
    """True when a coarse block holds at least two claim keys and no more than the cap."""
    return 2 <= len({m.claim_key for m in members}) <= MAX_NEAR_MISS_KEYS
