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
from collections import defaultdict
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
    # an approximate slot's or a range slot's interval (None in a point slot: the interval
    # is the point)
    low: float | None = None
    high: float | None = None
    # the sentence that lists this value among others of the slot ("3, 5 or 8 ms"), None
    # for a value stated alone: a listed value is never contested by its own list's values
    statement: str | None = None
    # the slots of one key that differ only in their dimension ("3, 4 or 5 ms": 3 and 4
    # carry no unit) share a family (``family_disagreements``); None: not computed
    family: str | None = None
    dimension: str = ""

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
        or facts.bound not in ("exact", "range")
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
    sign), "range+W" / "range-W" (a closed range "between 5 and 6 ms" of width W, by sign),
    or None (another interval: a stated precision, an open or infinite end, a range across
    zero)."""
    if facts.bound == "range":
        return _range_shape(facts)
    if facts.tol == 0.0 and facts.lo == facts.hi:
        return "point"
    if not (math.isfinite(facts.lo) and math.isfinite(facts.hi)):
        return None
    value = (facts.lo + facts.hi) / 2
    expected = APPROXIMATE_TOLERANCE * abs(value)
    if not _near(facts.tol, expected) or not _near(facts.hi - facts.lo, 2 * expected):
        return None
    return "about+" if value > 0 else "about-"


def _range_shape(facts: ClaimFacts) -> str | None:
    """A range's shape: its width and sign. Ranges of one width and sign order alike by
    lower end, upper end and middle, and the relative gap between two of them only grows
    with their distance, so the extremes rule of a slot stays exact for them (as for
    approximate values); ranges of different widths stay out of slots."""
    if facts.tol != 0.0 or not (math.isfinite(facts.lo) and math.isfinite(facts.hi)):
        return None
    if not facts.lo < facts.hi:
        return None
    if facts.lo >= 0.0:
        sign = "+"
    elif facts.hi <= 0.0:
        sign = "-"
    else:
        return None
    return f"range{sign}{facts.hi - facts.lo:.9g}"


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
    x_low, x_high, y_low, y_high = x.lower, x.upper, y.lower, y.upper
    scale = max(abs(x_low), abs(x_high), abs(y_low), abs(y_high))
    gap = max(y_low - x_high, x_low - y_high, 0.0)
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
    A slot holding values that sentences list (``SlotGroup.statement``) is decided by
    ``_listed_disagreements``, the same rule with each list read as a set.
    """
    if any(group.statement is not None for group in groups):
        yield from _listed_disagreements(groups)
        return
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
    ranks = _ranks(extremes)
    for group in groups:
        for rank in ranks:
            low, high = extremes[rank]
            for other in (low, high) if low is not high else (low,):
                if other is not group and groups_apart(group, other):
                    yield group, other, slot_material(group, other)


def _ranks(by_rank: Mapping[int | None, object]) -> list[int | None]:
    return sorted(by_rank, key=lambda r: (r is None, r or 0))


# ------------------------------------------------------------------ listed values
# A sentence listing several values of a slot ("The timeout is 3, 5 or 8 ms.") is a
# *statement*: a set of points. ``compare.listed_values`` makes value x of statement X and
# value y of statement Y a conflict iff x is not in Y and y is not in X (a value stated
# alone is a statement of one). So x is contested iff some statement Y lacks x and holds a
# value outside X, and the farthest such value below and above x are the most material
# (the extremes rule of points). Found per value x by walking the distinct values from each
# end and skipping those whose every statement holds x: a skipped value shares a statement
# with x, so the walk costs at most the values x is listed with, and the rows stay linear
# in the listed values (never a pair of statements).


class _Statements:
    """The statements of one authority tier of a slot, indexed by value."""

    def __init__(self, groups: Sequence[SlotGroup]) -> None:
        self.values_of: dict[str, frozenset[float]] = {}
        self.by_value: dict[float, list[tuple[str, SlotGroup]]] = defaultdict(list)
        for group in sorted(groups, key=lambda g: g.value_group_id):
            key = _statement_key(group)
            self.by_value[group.value].append((key, group))
        grouped: dict[str, set[float]] = defaultdict(set)
        for value, entries in self.by_value.items():
            for key, _group in entries:
                grouped[key].add(value)
        self.values_of = {key: frozenset(values) for key, values in grouped.items()}
        self.ordered = sorted(self.by_value)
        # value -> direction -> [(value, witness group)] found so far, and the walk's next index
        self._found: dict[tuple[float, int], tuple[list[tuple[float, SlotGroup]], int]] = {}

    def witnesses(self, value: float, step: int) -> Iterator[tuple[float, SlotGroup]]:
        """Values (from the lowest, step 1, or the highest, step -1) that a statement
        lacking ``value`` holds, each with a group of such a statement; computed once per
        value and direction, extended on demand."""
        found, position = self._found.get((value, step), ([], 0))
        index = 0
        while True:
            while index < len(found):
                yield found[index]
                index += 1
            if position >= len(self.ordered):
                return
            other = self.ordered[position if step == 1 else len(self.ordered) - 1 - position]
            position += 1
            for key, group in self.by_value[other]:
                if value not in self.values_of[key]:
                    found.append((other, group))
                    break
            self._found[(value, step)] = (found, position)


def _statement_key(group: SlotGroup) -> str:
    return group.statement if group.statement is not None else group.value_group_id


def _listed_disagreements(
    groups: Sequence[SlotGroup],
) -> Iterator[tuple[SlotGroup, SlotGroup, bool]]:
    by_rank: dict[int | None, list[SlotGroup]] = defaultdict(list)
    for group in groups:
        by_rank[group.tier_rank].append(group)
    tiers = {rank: _Statements(members) for rank, members in by_rank.items()}
    own: dict[str, frozenset[float]] = {}
    for statements in tiers.values():
        own.update(statements.values_of)
    ranks = _ranks(tiers)
    for group in groups:
        mine = own[_statement_key(group)]
        for rank in ranks:
            seen: set[str] = set()
            for step in (1, -1):
                for value, other in tiers[rank].witnesses(group.value, step):
                    if value in mine:
                        continue  # a value of the group's own list: look further
                    if other.value_group_id not in seen and groups_apart(group, other):
                        seen.add(other.value_group_id)
                        yield group, other, slot_material(group, other)
                    break


# ------------------------------------------------------------------ families of slots
# Slots of one key whose signatures differ only in the dimension form a *family*: "The
# timeout is 3, 4 or 5 ms." puts 3 and 4 (no unit) in one slot and 5 ms in another. Between
# two slots of a family ``compare._quantities`` says "ambiguous" (a unit stated on one side
# only, or two dimensions) for every pair, except a unitless value equal to the other's
# (then they agree) and two values of one sentence (``listed_values``: an enumeration).
# Compared group by group, 400 such lines gave 719,400 edges; the rule below finds, for each
# group, the lowest and highest group of each other slot of its family that it is ambiguous
# with, skipping at most the equal value and the group's own sentence: linear in the groups.


def family_id(generation: str, claim_key: str, signature: tuple[object, ...]) -> str:
    """The family of a slot: its signature with the dimension left out."""
    return "vf_" + _digest(generation, claim_key, _canonical(signature[:5] + signature[6:]))


def family_disagreements(groups: Sequence[SlotGroup]) -> Iterator[tuple[SlotGroup, SlotGroup]]:
    """(group, other) for each group and the groups of the other slots of its family it is
    ambiguous with (the lowest and the highest such group of each slot)."""
    families: dict[str, dict[str, list[SlotGroup]]] = defaultdict(lambda: defaultdict(list))
    for group in groups:
        if group.family is not None:
            families[group.family][group.slot_id].append(group)
    for slots in families.values():
        if len(slots) < 2:
            continue
        ladders = {slot: _Ladder(rows) for slot, rows in slots.items()}
        for slot, rows in sorted(slots.items()):
            for other_slot, ladder in sorted(ladders.items()):
                if other_slot == slot:
                    continue
                for group in rows:
                    yield from ladder.ambiguous_with(group)


class _Ladder:
    """The groups of one slot by interval, for ``family_disagreements``."""

    def __init__(self, rows: Sequence[SlotGroup]) -> None:
        by_interval: dict[tuple[float, float], list[SlotGroup]] = defaultdict(list)
        for row in sorted(rows, key=lambda g: g.value_group_id):
            by_interval[(row.lower, row.upper)].append(row)
        self.steps = [by_interval[k] for k in sorted(by_interval)]
        self.unitless = bool(rows) and rows[0].dimension == ""

    def ambiguous_with(self, group: SlotGroup) -> Iterator[tuple[SlotGroup, SlotGroup]]:
        equal_agrees = self.unitless or group.dimension == ""
        found: list[SlotGroup] = []
        for steps in (self.steps, self.steps[::-1]):
            for step in steps:
                if equal_agrees and _same_interval(group, step[0]):
                    continue  # a unitless value equal to the other's: they agree
                other = next(
                    (g for g in step if g.statement is None or g.statement != group.statement),
                    None,
                )
                if other is not None:  # else every group here is of the group's own sentence
                    if other not in found:
                        found.append(other)
                    break
        for other in found:
            yield group, other


def _same_interval(x: SlotGroup, y: SlotGroup) -> bool:
    return not points_apart(x.lower, y.lower) and not points_apart(x.upper, y.upper)
