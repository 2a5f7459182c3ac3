"""Slots inside a block: finding them, and the claim edges of large slots and families.

Split out of ``builder`` (which calls these per block): value groups of one key that differ
only in value form a slot (``value_groups.slot_signature``), slots that differ only in
dimension a family. Within a slot or a family the readers decide disagreement from the
values (``value_groups.slot_disagreements`` / ``family_disagreements``); the builder stores
one ``value_group_slots`` row per value group and, for review routing and ``claims
conflicts``, claim edges linear in the groups: small slots group by group, large ones by
the slot and family rules. ``disagreement`` is the star of claim edges (and the relation row)
between two disagreeing value groups that every path shares.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claims.edges.compare import compare_facts
from claims.edges.facts import ClaimFacts
from claims.edges.materiality import is_high_risk
from claims.edges.value_groups import (
    SlotGroup,
    ValueGroup,
    family_disagreements,
    family_id,
    relate,
    slot_disagreements,
    slot_id,
    slot_signature,
    tier_rank,
)
from claims.edges.verdict import PairVerdict
from claims.models import Relation

if TYPE_CHECKING:
    from claims.edges.builder import EdgeBuild, _Emitter


def disagreement(
    x: ValueGroup,
    y: ValueGroup,
    verdict: PairVerdict,
    emit: _Emitter,
    build: EdgeBuild,
    claim_key: str,
    *,
    relation: bool = True,
) -> None:
    """Two disagreeing value groups: one relation row, and claim edges for routing.

    The relation (before supersession) is what readers judge per requester: every visible
    member of one group against every visible member of the other. The claim edges only
    keep the edge table's conflict sets connected for those who read them (review routing,
    ``claims conflicts``): the first claims of the two groups meet, and the members of a
    group meet the first claim of the first group it disagrees with (once per group, so a
    key holds about one edge per claim plus one per relation, never one per claim pair).
    """
    rep, other = x.members[0], y.members[0]
    emit.pair(rep, other, verdict, claim_key)
    if relation:
        # (two groups of one slot need no row: readers decide them from the slot's values)
        stored = relate(emit.generation, x, y, verdict, emit.mates, emit.materiality, emit.tiers)
        if stored is None:
            return  # a listing sentence made it an elaboration: that one edge says so
        build.relations.append(stored)
    for group, anchor in ((x, other), (y, rep)):
        if group.id in emit.starred:
            continue
        emit.starred.add(group.id)
        for member in group.members[1:]:
            emit.pair(member, anchor, verdict, claim_key)


def between_pages(
    x: ValueGroup,
    y: ValueGroup,
    together: tuple[tuple[str, str], ...],
    verdict: PairVerdict,
    emit: _Emitter,
    build: EdgeBuild,
    claim_key: str,
    relation: bool,
) -> None:
    """Two disagreeing value groups some of whose pages are namesakes: claim edges join only
    pages not told apart, each page's first claim of the group to the first page of the other
    group it stays with (a star as ``_disagreement`` makes, linear in the pages; a page's
    other claims meet its first by the group's own edges). The relation row stays the
    groups' one dispute for readers (none for two groups of one slot, as there): a page not
    told apart from either side keeps both in question."""
    first_x, first_y = _first_per_page(x), _first_per_page(y)
    partner: dict[tuple[int, str], str] = {}  # (side, page) -> its first page on the other
    for a, b in together:
        if a in first_x and b in first_y:
            partner.setdefault((0, a), b)
            partner.setdefault((1, b), a)
    if not partner:
        return
    if relation:
        stored = relate(emit.generation, x, y, verdict, emit.mates, emit.materiality, emit.tiers)
        if stored is not None:
            build.relations.append(stored)
    for (side, page), other in partner.items():
        if side == 0:
            emit.pair(first_x[page], first_y[other], verdict, claim_key)
        else:
            emit.pair(first_x[other], first_y[page], verdict, claim_key)


def _first_per_page(group: ValueGroup) -> dict[str, ClaimFacts]:
    """Each page's first claim of a value group."""
    first: dict[str, ClaimFacts] = {}
    for facts in group.members:
        first.setdefault(facts.source_id, facts)
    return first


# A slot with more builder groups than this is joined for review routing by its extremes
# (``slot_disagreements``) instead of group by group; smaller ones keep their pairwise
# edges (agreements between groups included). Readers use the slot rule at every size.
SLOT_PAIRWISE_LIMIT = 16


@dataclass
class Slots:
    of: list[str | None]  # builder group -> its slot (None: not in a slot of 2+ groups)
    large_of: list[str | None]  # the same, only for slots above SLOT_PAIRWISE_LIMIT
    large: list[list[tuple[ValueGroup, SlotGroup]]]
    family_of: list[str | None]  # builder group -> its slot's family (value_groups)


def block_slots(
    groups: list[list[list[ClaimFacts]]],
    values: list[list[ValueGroup]],
    emit: _Emitter,
    build: EdgeBuild,
) -> Slots:
    """The slots of a block (``value_groups.slot_signature``) and their ``SlotGroup`` rows."""
    by_slot: dict[str, list[int]] = defaultdict(list)
    family: dict[str, str] = {}
    for index, origins in enumerate(groups):
        first = origins[0][0]
        signature = slot_signature(first)
        if signature is None:
            continue
        if not all(_lists_within(facts, signature, emit) for origin in origins for facts in origin):
            continue  # listed with values of another shape: listed_values decides pairwise
        slot = slot_id(emit.generation, first.claim_key, signature)
        by_slot[slot].append(index)
        family[slot] = family_id(emit.generation, first.claim_key, signature)
    of: list[str | None] = [None] * len(groups)
    family_of: list[str | None] = [None] * len(groups)
    large_of: list[str | None] = [None] * len(groups)
    large: list[list[tuple[ValueGroup, SlotGroup]]] = []
    settings = emit.materiality
    for slot, indices in by_slot.items():
        if len(indices) < 2:
            continue
        rows: list[tuple[ValueGroup, SlotGroup]] = []
        high_risk = is_high_risk(groups[indices[0]][0][0], settings)
        for index in indices:
            of[index] = slot
            family_of[index] = family[slot]
            for value in values[index]:
                first = value.members[0]
                point = first.lo == first.hi  # else an approximate value's interval
                rows.append(
                    (
                        value,
                        SlotGroup(
                            value.id,
                            slot,
                            first.claim_key,
                            first.lo if point else (first.lo + first.hi) / 2,
                            tier_rank(emit.tiers.get(first.source_id), settings),
                            high_risk,
                            settings.relative_difference_threshold,
                            settings.tier_gap_resolvable,
                            None if point else first.lo,
                            None if point else first.hi,
                            _statement(first, emit),
                            family[slot],
                            first.dimension or "",
                        ),
                    )
                )
        build.slots += [row for _, row in rows]
        if len(indices) > SLOT_PAIRWISE_LIMIT:
            large.append(rows)
            for index in indices:
                large_of[index] = slot
    return Slots(of, large_of, large, family_of)


def family_edges(
    members: list[tuple[ValueGroup, SlotGroup]], emit: _Emitter, build: EdgeBuild, claim_key: str
) -> None:
    """Claim edges between large slots of one family (a unit stated on one side only, two
    dimensions): each group meets the lowest and highest group of the other slot it is
    ambiguous with (``value_groups.family_disagreements``), never every pair."""
    value_of = {row.value_group_id: value for value, row in members}
    for x, y in family_disagreements([row for _, row in members]):
        vx, vy = value_of[x.value_group_id], value_of[y.value_group_id]
        build.comparisons += 1
        verdict = compare_facts(vx.members[0], vy.members[0])
        if verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
            disagreement(vx, vy, verdict, emit, build, claim_key, relation=False)
        else:
            emit.pair(vx.members[0], vy.members[0], verdict, claim_key)


def _lists_within(facts: ClaimFacts, signature: tuple[object, ...], emit: _Emitter) -> bool:
    """Whether a claim may join a slot as far as its sentence goes: stated alone, or listed
    with other exact points of the same slot ("The timeout is 3, 5 or 8 ms.": the slot rule
    reads the list as a set, ``value_groups._listed_disagreements``)."""
    if not emit.lists_values(facts):
        return True
    return signature[0] == "point" and all(
        _same_family(slot_signature(mate), signature) for mate in emit.mates(facts)
    )


def _same_family(x: tuple[object, ...] | None, y: tuple[object, ...]) -> bool:
    """Two slot signatures equal but for the dimension (``value_groups.family_id``)."""
    return x is not None and x[:5] == y[:5] and x[6:] == y[6:]


def _statement(facts: ClaimFacts, emit: _Emitter) -> str | None:
    """The listing sentence of a slot row's claims (None: a value stated alone)."""
    if not emit.lists_values(facts):
        return None
    digest = hashlib.blake2b(
        f"{emit.generation}\x1f{facts.version_id}\x1f{facts.quote_norm}".encode(), digest_size=12
    )
    return "st_" + digest.hexdigest()


def slot_edges(
    members: list[tuple[ValueGroup, SlotGroup]], emit: _Emitter, build: EdgeBuild, claim_key: str
) -> None:
    """Claim edges of a large slot for review routing: each group meets the groups that
    contest it by the slot rule (at most two per tier), so the edges stay linear and every
    contested group is in one conflict set (the highest and lowest values meet)."""
    value_of = {row.value_group_id: value for value, row in members}
    for x, y, _material in slot_disagreements([row for _, row in members]):
        vx, vy = value_of[x.value_group_id], value_of[y.value_group_id]
        build.comparisons += 1
        verdict = compare_facts(vx.members[0], vy.members[0])
        if verdict.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
            disagreement(vx, vy, verdict, emit, build, claim_key, relation=False)
        else:
            emit.pair(vx.members[0], vy.members[0], verdict, claim_key)
