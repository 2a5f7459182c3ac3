"""Value groups: disagreement inside one claim key stored linearly (issue 14.1).

Inside a block, claims with equal comparable facts already form a group (``builder._groups``).
A *value group* refines it by what else a verdict between two claims reads: the authority
tier of the source (materiality halves across tiers) and, for a sentence that lists several
values of the key, that sentence (``listed_values``). So the verdict between two value
groups holds for every pair of their members, and one ``value_group_relations`` row per
disagreeing pair of value groups plus one ``value_group_claims`` row per claim say as much
as an edge per claim pair did, in rows linear in the claims of the key.

Relations are stored *before* supersession: which version replaces which depends on what a
requester may see, so readers (``retrieval.verdicts``) apply the supersessions they can see.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import NamedTuple

from claims.edges.compare import listed_values
from claims.edges.facts import APPROXIMATE_TOLERANCE, EQUALITY_EPSILON, ClaimFacts
from claims.edges.materiality import MaterialitySettings, assess
from claims.edges.verdict import PairVerdict
from claims.models import EdgeKind, Relation

# Claims whose key names no subject ("12 items", a bare number) are never compared with
# each other: without a subject two numbers say nothing about one thing.
UNKNOWN_KEY_PREFIX = "unknown:"


def is_unknown_key(claim_key: str) -> bool:
    return claim_key.startswith(UNKNOWN_KEY_PREFIX)


class GroupMember(NamedTuple):
    """One ``value_group_claims`` row."""

    claim_id: str
    value_group_id: str
    claim_key: str


class GroupRelation(NamedTuple):
    """One ``value_group_relations`` row: a disagreement between two value groups."""

    id: str
    kind: str
    left_group_id: str
    right_group_id: str
    claim_key: str
    rule: str
    reason: str
    material: bool | None
    materiality: float | None


class ValueGroup(NamedTuple):
    id: str
    members: list[ClaimFacts]  # in block order (claims in force first)


def _canonical(part: object) -> str:
    # frozensets print in hash order, which changes between processes
    if isinstance(part, frozenset):
        return repr(sorted(map(str, part)))
    if isinstance(part, tuple):
        return "(" + ",".join(_canonical(p) for p in part) + ")"
    return repr(part)


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest()


def split_group(
    generation: str,
    origins: Sequence[Sequence[ClaimFacts]],
    mates: Callable[[ClaimFacts], list[ClaimFacts]],
    tiers: Mapping[str, str | None],
) -> list[ValueGroup]:
    """The value groups of one builder group (claims with equal comparable facts)."""
    first = origins[0][0]
    signature = _canonical(first.signature)
    by_context: dict[tuple[str, str, str], list[ClaimFacts]] = {}
    for origin in origins:
        for facts in origin:
            listing = len(mates(facts)) > 1
            context = (
                tiers.get(facts.source_id) or "",
                facts.version_id if listing else "",
                facts.quote_norm if listing else "",
            )
            by_context.setdefault(context, []).append(facts)
    return [
        ValueGroup(
            "vg_" + _digest(generation, first.claim_key, signature, *context),
            members,
        )
        for context, members in by_context.items()
    ]


def relate(
    generation: str,
    x: ValueGroup,
    y: ValueGroup,
    verdict: PairVerdict,
    mates: Callable[[ClaimFacts], list[ClaimFacts]],
    materiality: MaterialitySettings,
    tiers: Mapping[str, str | None],
) -> GroupRelation | None:
    """The stored disagreement between two value groups, or None when they do not disagree.

    ``verdict`` is the builder's verdict between the two builder groups; the list context
    of each value group may still turn it into an elaboration.
    """
    a, b = x.members[0], y.members[0]
    if verdict.relation is Relation.CONFLICT:
        verdict = listed_values(a, b, verdict, mates(a), mates(b))
    elif verdict.relation is Relation.AMBIGUOUS:
        verdict = listed_values(a, b, verdict)
    if verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS):
        return None
    if y.id < x.id:
        x, y, a, b = y, x, b, a
    kind = (
        EdgeKind.CONFLICTS if verdict.relation is Relation.CONFLICT else EdgeKind.AMBIGUOUS
    ).value
    material: bool | None = None
    score: float | None = None
    if verdict.relation is Relation.CONFLICT:
        assessed = assess(
            a, b, verdict.rule, materiality, tiers.get(a.source_id), tiers.get(b.source_id)
        )
        material, score = assessed.material, assessed.score
    return GroupRelation(
        "vgr_" + _digest(generation, kind, x.id, y.id),
        kind,
        x.id,
        y.id,
        a.claim_key,
        verdict.rule,
        verdict.reason,
        material,
        score,
    )


# ----------------------------------------------------------------------------- slots
# A *slot* holds the value groups of one key whose claims differ only in an exact value
# ("The fee is 5 EUR." / "... 9 EUR." / "... 12 EUR."): same entity, attribute, scope, time,
# stance, dimension and predicate, not reported, not one of several values listed in one
# sentence. Between two such groups the rules can only say "same value", "within the stated
# precision" or "conflict (value)", so disagreement inside a slot is decided from the values
# alone and is stored as one row per value group (``value_group_slots``), never as a row per
# pair: a value group is contested for a reader iff some value group of its slot that the
# reader may see lies apart from it, which the highest and the lowest visible value decide
# (per authority tier, which materiality reads). ``slot_disagreements`` is that rule; the
# builder (edges for review routing) and the readers (``retrieval.verdicts``) both call it.
#
# Two kinds of slot, never mixed: *point* slots (exact points, no precision) and
# *approximate* slots ("about 80 EUR": the interval the default approximate tolerance gives,
# 10% of the value either side, all of one sign). Approximate groups are apart when their
# intervals do not meet. Because every interval of an approximate slot is the same fraction
# of its value, ordering by lower end, by upper end and by value agree, and the farthest
# group of a tier is still the most material one (the relative gap between two intervals
# only grows with the distance): the extremes rule stays exact. Intervals of other shapes
# (a stated precision, a mix of points and intervals) break that and stay out of slots.


class SlotGroup(NamedTuple):
    """One ``value_group_slots`` row: a value group of a slot, its value and what the
    materiality of a disagreement with another group of the slot reads."""

    value_group_id: str
    slot_id: str
    claim_key: str
    value: float  # the point (an approximate slot: the stated value), in the canonical unit
    tier_rank: int | None  # position in the policy's authority tiers (None: no tier)
    high_risk: bool
    threshold: float  # the policy's relative difference threshold at build time
    tier_gap: int  # the policy's tier_gap_resolvable at build time
    # an approximate slot's interval (None in a point slot: the interval is the point)
    low: float | None = None
    high: float | None = None

    @property
    def lower(self) -> float:
        return self.value if self.low is None else self.low

    @property
    def upper(self) -> float:
        return self.value if self.high is None else self.high


def slot_signature(facts: ClaimFacts) -> tuple[object, ...] | None:
    """What a claim of a slot shares with every other claim of it (None: not slot-shaped).

    Everything ``compare_facts`` reads except the value: with these equal, two exact points
    either agree or conflict by value (``compare._quantities``), nothing else.
    """
    if (
        facts.kind != "quantity"
        or facts.bound != "exact"
        or facts.reported
        or facts.lo_open
        or facts.hi_open
    ):
        return None
    shape = interval_shape(facts)
    if shape is None:
        return None
    return (
        shape,
        facts.claim_key,
        facts.entity,
        facts.attribute,
        facts.coarse_key,
        facts.dimension,
        facts.stance,
        facts.scope,
        _canonical(facts.residual),
        facts.t_start,
        facts.t_end,
        facts.time_text,
        facts.predicate,
    )


def interval_shape(facts: ClaimFacts) -> str | None:
    """ "point" (an exact point), "about+" / "about-" (an approximate value's interval, by
    sign), or None (another interval: a stated precision, an open or infinite end)."""
    if facts.tol == 0.0 and facts.lo == facts.hi:
        return "point"
    if not (math.isfinite(facts.lo) and math.isfinite(facts.hi)):
        return None
    value = (facts.lo + facts.hi) / 2
    expected = APPROXIMATE_TOLERANCE * abs(value)
    if not _near(facts.tol, expected) or not _near(facts.hi - facts.lo, 2 * expected):
        return None
    return "about+" if value > 0 else "about-"


def _near(x: float, y: float) -> bool:
    return abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1e-300)


def slot_id(generation: str, claim_key: str, signature: tuple[object, ...]) -> str:
    return "vs_" + _digest(generation, claim_key, _canonical(signature))


def tier_rank(tier: str | None, settings: MaterialitySettings) -> int | None:
    """The rank ``materiality.assess`` gives a tier (unknown tiers below all listed ones)."""
    if tier is None:
        return None
    tiers = settings.authority_tiers
    return tiers.index(tier) if tier in tiers else len(tiers)


def points_apart(x: float, y: float) -> bool:
    """Two exact points no value satisfies both of (``compare._close`` is their equality)."""
    if x == y:
        return False
    return abs(x - y) > EQUALITY_EPSILON * max(abs(x), abs(y), 1e-300)


def groups_apart(x: SlotGroup, y: SlotGroup) -> bool:
    """No value lies in both groups' intervals (``compare._disjoint`` on closed intervals;
    for two points, ``points_apart``)."""
    return _below(x.upper, y.lower) or _below(y.upper, x.lower)


def _below(high: float, low: float) -> bool:
    return high < low and points_apart(high, low)


def slot_material(x: SlotGroup, y: SlotGroup) -> bool:
    """``materiality.assess(...).material`` for a value conflict between two slot groups."""
    if x.high_risk:
        return True
    # materiality.relative_difference: the gap between the intervals against the largest end
    scale = max(abs(x.lower), abs(x.upper), abs(y.lower), abs(y.upper))
    gap = max(y.lower - x.upper, x.lower - y.upper, 0.0)
    difference = (1.0 if gap else 0.0) if scale == 0.0 else min(1.0, gap / scale)
    resolvable = (
        x.tier_rank is not None
        and y.tier_rank is not None
        and abs(x.tier_rank - y.tier_rank) >= x.tier_gap
    )
    return difference >= x.threshold and not resolvable


def slot_disagreements(
    groups: Sequence[SlotGroup],
) -> Iterator[tuple[SlotGroup, SlotGroup, bool]]:
    """(group, other, material) for each group of one slot and the groups that contest it.

    ``groups`` are the groups a reader may see. For each authority tier present, only the
    lowest and the highest value are candidates: a point is apart from some group iff it is
    apart from one of those two, and the relative difference (what decides materiality)
    only grows with the distance, so the farthest group of each tier is also the most
    material one. At most two pairs per group and tier: linear in the groups of the slot.
    """
    extremes: dict[int | None, tuple[SlotGroup, SlotGroup]] = {}
    for group in groups:
        # the group reaching lowest and the one starting highest (for points: the lowest
        # and the highest value); a group is apart from some group iff from one of these
        low, high = extremes.get(group.tier_rank, (group, group))
        if (group.upper, group.value_group_id) < (low.upper, low.value_group_id):
            low = group
        if (group.lower, group.value_group_id) > (high.lower, high.value_group_id):
            high = group
        extremes[group.tier_rank] = (low, high)
    ranks = sorted(extremes, key=lambda r: (r is None, r or 0))
    for group in groups:
        for rank in ranks:
            low, high = extremes[rank]
            for other in (low, high) if low is not high else (low,):
                if other is not group and groups_apart(group, other):
                    yield group, other, slot_material(group, other)
