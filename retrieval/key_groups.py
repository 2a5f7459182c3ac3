"""The value groups of one claim key and their verdicts, decided per group (issue 14.1).

``retrieval.key_aggregate`` reads a key's visible claims as *cells* (the visible claims of
one value group stating one value the same way) and composes the status of the key from
them. Every member of a visible value group gets the same verdict, except the group's
first visible member, its *anchor* (the centre of the stars ``verdicts.relation_edges``
draws). This module holds the cells and groups and decides those verdicts from the key's
relations and slot rows, without a claim: a reason names the two groups' anchors by the
value they state (``verdicts`` writes it from the value columns only), and reasons are
written only for the groups a report lists (issue 31.1: at 1,200 listed values, a reason
per pair of groups was a third of a status).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from claims.edges.value_groups import SlotGroup, family_disagreements, slot_disagreements
from claims.models import ConflictStatus
from retrieval.evidence import ClaimFact, RelationFact
from retrieval.key_summary import VALUE_COLUMNS
from retrieval.verdicts import family_reason, relation_reason, slot_reason

WIDTH = len(VALUE_COLUMNS)


@dataclass
class Cell:
    """The visible claims of one value group stating one value the same way."""

    group: str
    value: tuple[Any, ...]
    count: int
    source_count: int
    first_id: str
    anchor_source_claims: int = 0
    repeated: set[str] = field(default_factory=set)  # its sources that state the key twice
    citations: list[tuple[str, int, str]] = field(default_factory=list)  # (source, v, id)
    others: list[tuple[str, int, str]] = field(default_factory=list)  # not the anchor's source
    sources: list[str] = field(default_factory=list)


@dataclass
class Group:
    id: str
    anchor: str
    anchor_value: tuple[Any, ...]  # the value columns of the anchor's cell
    anchor_source: str = ""
    anchor_version: int = 0
    cells: list[Cell] = field(default_factory=list)
    # verdict pieces: for every visible member, and for the anchor alone
    marks: set[ConflictStatus] = field(default_factory=set)
    anchor_marks: set[ConflictStatus] = field(default_factory=set)
    reasons: set[str] = field(default_factory=set)
    anchor_reasons: set[str] = field(default_factory=set)
    # groups met: through a relation (each member meets their anchor, the anchor meets them
    # all), as the contested side of a slot pair (each member meets their anchor) and as
    # the contesting side (their members all meet this group's anchor); kept only for the
    # groups a report lists
    relation_partners: set[str] = field(default_factory=set)
    slot_targets: set[str] = field(default_factory=set)
    slot_sources: set[str] = field(default_factory=set)

    @property
    def anchor_fact(self) -> ClaimFact:
        """The anchor as far as a reason reads it: the value it states."""
        return value_fact(self.anchor_value)


def cells_of_rows(rows: Sequence[tuple[Any, ...]]) -> tuple[dict[str, Group], list[Cell]]:
    """Cells and their groups from the grouped read's rows (value group, *value, claims,
    first claim id, ...); a group's anchor is the first claim id of its cells."""
    groups: dict[str, Group] = {}
    cells = []
    for row in rows:
        # a cell's sources are counted as its claims until its repeated sources are known
        count, first_id = row[1 + WIDTH : 3 + WIDTH]
        cell = Cell(row[0], tuple(row[1 : 1 + WIDTH]), count, count, first_id)
        group = groups.get(cell.group)
        if group is None:
            group = groups[cell.group] = Group(cell.group, cell.first_id, cell.value)
        elif cell.first_id < group.anchor:
            group.anchor, group.anchor_value = cell.first_id, cell.value
        group.cells.append(cell)
        cells.append(cell)
    return groups, cells


@lru_cache(maxsize=4096)
def value_fact(value: tuple[Any, ...]) -> ClaimFact:
    """A claim stating ``value`` (the value columns), for the functions that read one."""
    kind, number, text, unit, canonical, canonical_unit, polarity, modality = value
    return ClaimFact(
        "", "", "", "", 0, kind, number, text, unit, canonical, canonical_unit, polarity,
        modality, {}, (), None, None, "", 0, 0,
    )  # fmt: skip


@dataclass
class _Listed:
    """The groups a report lists claims of, and those whose anchor it lists: only they
    need reasons and the groups they meet."""

    groups: set[str]
    anchors: set[str]


def relate(
    groups: dict[str, Group],
    relations: Iterable[RelationFact],
    slots: dict[str, SlotGroup],
    listed: Iterable[tuple[str, str]],
) -> None:
    """What ``verdicts.relation_edges`` and ``evaluate`` give each visible group's members
    and its anchor, decided per group (every member of a group gets the same verdict).
    Marks are set on every group (the key's status reads them all); reasons and the groups
    met only on the groups of the ``listed`` (claim id, value group) pairs."""
    shown = _Listed(
        {group_id for _, group_id in listed},
        {group_id for claim_id, group_id in listed if groups[group_id].anchor == claim_id},
    )
    _relate_relations(groups, relations, shown)
    by_slot: dict[str, list[SlotGroup]] = defaultdict(list)
    for group_id in sorted(groups):
        row = slots.get(group_id)
        if row is not None:
            by_slot[row.slot_id].append(row)
    for x, y in family_disagreements([r for rows in by_slot.values() for r in rows]):
        _contest(groups[x.value_group_id], groups[y.value_group_id], None, shown)
    for _slot, rows in sorted(by_slot.items()):
        if len(rows) < 2:
            continue
        for x, y, material in slot_disagreements(rows):
            _contest(groups[x.value_group_id], groups[y.value_group_id], material, shown)


def _relate_relations(
    groups: dict[str, Group], relations: Iterable[RelationFact], shown: _Listed
) -> None:
    for relation in relations:
        left, right = groups.get(relation.left_group), groups.get(relation.right_group)
        if left is None or right is None:
            continue
        if left.id in shown.groups:
            left.relation_partners.add(right.id)
        if right.id in shown.groups:
            right.relation_partners.add(left.id)
        if relation.kind == "conflicts" and relation.material is False:
            continue  # immaterial: related, no mark
        ambiguous = relation.kind == "ambiguous"
        mark = ConflictStatus.AMBIGUOUS if ambiguous else ConflictStatus.CONTESTED
        reason = None
        for group in (left, right):
            group.marks.add(mark)
            if group.id in shown.groups:
                reason = reason or relation_reason(relation, left.anchor_fact, right.anchor_fact)
                group.reasons.add(reason)


def _contest(gx: Group, gy: Group, material: bool | None, shown: _Listed) -> None:
    """Every member of ``gx`` meets ``gy``'s anchor: ambiguous across two slots of a
    family (``material`` None), contested within a slot unless immaterial."""
    if gx.id in shown.groups:
        gx.slot_targets.add(gy.id)
    if gy.id in shown.groups:
        gy.slot_sources.add(gx.id)
    if material is False:
        return
    mark = ConflictStatus.AMBIGUOUS if material is None else ConflictStatus.CONTESTED
    gx.marks.add(mark)
    gy.anchor_marks.add(mark)
    if gx.id not in shown.groups and gy.id not in shown.anchors:
        return
    why = family_reason if material is None else slot_reason
    reason = why(gx.anchor_fact, gy.anchor_fact)
    if gx.id in shown.groups:
        gx.reasons.add(reason)
    if gy.id in shown.anchors:
        gy.anchor_reasons.add(reason)


def group_status(marks: set[ConflictStatus]) -> ConflictStatus:
    for status in (ConflictStatus.CONTESTED, ConflictStatus.AMBIGUOUS):
        if status in marks:
            return status
    return ConflictStatus.NONE
