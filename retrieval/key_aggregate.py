"""Status of a claim key from its value groups, without reading every claim (issue 14.1).

A key of 10,000 claims whose disagreements are all said by value groups (memberships,
relations, slots) needs no per-claim work: every member of a visible value group gets the
same verdict, except the group's first visible member (the anchor of the stars that
``verdicts.relation_edges`` draws). So one SQL read over the visible claims of the key
returns, per *cell* (the visible claims of one value group stating one value the same way):
how many claims and sources it holds, its first claims by citation order, its first sources,
the group's anchor, and the claims of the requested page. Verdicts, sides and the page are
composed from those cells and from the few claims cited; nothing else is loaded.

The reading is exact, not an estimate: for every requester it gives the report that
``status.status_of_key`` builds from the whole evidence group (tested equal in
``tests/test_retrieval_status_aggregate.py``). Where the groups do not say everything, it
declines (returns None) and the caller reads the key claim by claim:

- a past or future reading (``as_of`` other than now);
- a claim of the key without a value group, or an edge the groups do not express
  (supersedes, near misses, anything but the kinds groups say), or a relation kind other
  than conflicts / ambiguous;
- a review item at the key (items and resolutions qualify single claims);
- a supersession of one of the key's versions that the requester can see, or a
  claim-level supersession between two claims they can see;
- two ways of stating one value among the visible claims (``1 h`` and ``60 min``): a side's
  value would depend on which of its claims come first.

A source may hold claims in two cells of one value (a note stating the fee twice in two
sentences): such sources are read by name (only sources stating the key more than once can)
and counted once per side.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection

from claims.edges.builder import NEAR_MISS_PREFIX
from claims.edges.value_groups import SlotGroup
from claims.errors import NotFoundError
from claims.models import ConflictStatus, EdgeKind, Requester
from claims.store.batches import batches
from retrieval.access import source_visible
from retrieval.contract import (
    AsOfOut,
    Citation,
    ClaimStatus,
    PageOut,
    Side,
    SpanOut,
    StatusReport,
    Target,
    TargetKind,
)
from retrieval.evidence import NOW, AsOf, ClaimFact, EvidenceLoader, RelationFact, statement
from retrieval.key_groups import Cell, Group, cells_of_rows, group_status, relate, value_fact
from retrieval.key_summary import VALUE_COLUMNS, KeySummaries, KeySummary
from retrieval.signals import policy_tiers, tier_ranks
from retrieval.status import citation_order, stated_value, value_key

# ----------------------------------------------------------------------------- reads
# The columns a side reads of a claim's value (value_key, stated_value, unit): claims equal
# in these state one value the same way.
_VALUE_COLUMNS = VALUE_COLUMNS
_VALUE = ", ".join(f"c.{col}" for col in _VALUE_COLUMNS)
_WIDTH = len(_VALUE_COLUMNS)
# The visible claims of the key: a source the requester may see (not withdrawn; no grants
# or a granted group), the same rule as retrieval.access.source_visible.
_VISIBLE = (
    "FROM claims c JOIN sources s ON s.id = c.source_id {join} "
    "WHERE c.generation = :g AND c.claim_key = :k AND s.withdrawn = :no "
    "AND (NOT EXISTS (SELECT 1 FROM source_grants x WHERE x.source_id = s.id) "
    "OR EXISTS (SELECT 1 FROM source_grants x WHERE x.source_id = s.id "
    "AND x.group_name IN :groups))"
)
_MEMBER = "value_group_claims m ON m.claim_id = c.id AND m.generation = :g AND m.claim_key = :k"
# Per cell: claims, first claim by id, its coarse keys (lowest and highest: near misses are
# looked for in their blocks), and whether a version is replaced. A claim without a
# value group comes out as a cell of group NULL. Sources are not counted here: a cell's
# sources are its claims less the second claims of sources stating the key twice
# (_find_repeated_sources), and count(DISTINCT) sorted every claim of the key once more.
_CELLS = statement(
    f"SELECT m.value_group_id, {_VALUE}, count(*), "
    "min(c.id{C}), min(c.coarse_key), max(c.coarse_key), "
    "max(CASE WHEN EXISTS (SELECT 1 FROM version_supersessions vs "
    "WHERE vs.older_version_id = c.source_version_id) THEN 1 ELSE 0 END) "
    + _VISIBLE.replace("{join}", "LEFT JOIN " + _MEMBER)
    + f" GROUP BY m.value_group_id, {_VALUE}"
)
# The claims listed on the page, by claim id.
_PAGE = statement(
    "SELECT c.id, m.value_group_id "
    + _VISIBLE.replace("{join}", "JOIN " + _MEMBER)
    + " ORDER BY c.id{C} LIMIT :limit OFFSET :offset"
)
# A reader who sees every claim of the key (by the kept summary's count) pages through the
# key's index alone: a deep page skips index entries, not claims joined with their sources.
_PAGE_OF_ALL = statement(
    "SELECT id FROM claims WHERE generation = :g AND claim_key = :k "
    "ORDER BY id{C} LIMIT :limit OFFSET :offset"
)
_GROUPS_OF = statement(
    "SELECT claim_id, value_group_id FROM value_group_claims WHERE claim_id IN :ids"
)
# Every visible claim in source order, read only until each cell has its first claims and
# sources (citation order is source, version, claim: sorted per source as read).
_BY_SOURCE = statement(
    f"SELECT c.id, c.source_id, sv.number, m.value_group_id, {_VALUE} "
    + _VISIBLE.replace(
        "{join}", "JOIN " + _MEMBER + " JOIN source_versions sv ON sv.id = c.source_version_id"
    )
    + " ORDER BY c.source_id{C}"
)
# Claims of the anchors' sources per cell (an anchor's corroborators are its group less its
# own source); a source of a visible claim is visible, so no visibility test.
_OF_SOURCES = statement(
    f"SELECT m.value_group_id, {_VALUE}, c.source_id, count(*) FROM claims c JOIN "
    + _MEMBER
    + " WHERE c.generation = :g AND c.claim_key = :k AND c.source_id IN :sources "
    f"GROUP BY m.value_group_id, {_VALUE}, c.source_id"
)
# A source with claims in two of these value groups (cells of one value must not share one).
# Sources stating the key more than once (read from the index alone), and the cells of
# their visible claims: only they can be counted in two parts of one side.
_SOURCES_TWICE = statement(
    "SELECT source_id FROM claims WHERE generation = :g AND claim_key = :k "
    "GROUP BY source_id HAVING count(*) > 1"
)
_CELLS_OF_SOURCES = statement(
    f"SELECT m.value_group_id, {_VALUE}, c.source_id, count(*) "
    + _VISIBLE.replace("{join}", "JOIN " + _MEMBER)
    + f" AND c.source_id IN :sources GROUP BY m.value_group_id, {_VALUE}, c.source_id"
)
# Group kinds the loader reads from value groups; any other edge in the key's block, or any
# edge of a near-miss block touching the key, is something the groups do not say.
_OTHER_EDGES = statement(
    "SELECT e.kind, l.source_id, r.source_id FROM edges e "
    "JOIN claims l ON l.id = e.left_claim_id JOIN claims r ON r.id = e.right_claim_id "
    "WHERE e.generation = :g AND e.claim_key = :k AND e.kind IN :kinds "
    "AND e.retired_at IS NULL"
)
_NOT_FROM_GROUPS = sorted(
    kind.value
    for kind in EdgeKind
    if kind.value not in ("conflicts", "ambiguous", "corroborates", "compatible")
)
# (No "coarse_key IS NOT NULL" here: SQLite then walked the (generation, coarse_key) index,
# every claim of the store with a coarse key, instead of the key's claims.)
_COARSE = statement(
    "SELECT DISTINCT coarse_key FROM claims WHERE generation = :g AND claim_key = :k"
)
_NEAR_EDGES = tuple(
    statement(
        f"SELECT 1 FROM edges e JOIN claims c ON c.id = e.{end} WHERE e.generation = :g "
        "AND e.claim_key IN :blocks AND e.retired_at IS NULL AND c.claim_key = :k LIMIT 1"
    )
    for end in ("left_claim_id", "right_claim_id")
)
_REVIEW = statement("SELECT 1 FROM review_items WHERE claim_key = :k LIMIT 1")
_SUPERSEDED = statement(
    "SELECT DISTINCT n.source_id, o.source_id, vs.effective_from "
    "FROM version_supersessions vs JOIN source_versions n ON n.id = vs.newer_version_id "
    "JOIN source_versions o ON o.id = vs.older_version_id WHERE vs.older_version_id IN "
    "(SELECT DISTINCT source_version_id FROM claims WHERE generation = :g AND claim_key = :k)"
)
# What a side reads of an anchor it does not list, and what a citation shows of a claim.
_ANCHORS = statement(
    "SELECT c.id, c.source_id, sv.number FROM claims c "
    "JOIN source_versions sv ON sv.id = c.source_version_id WHERE c.id IN :ids"
)
_CITED = statement(
    "SELECT c.id, c.source_id, sv.number, c.source_version_id, c.quote, c.span_start, "
    "c.span_end, c.confidence, s.authority_tier, sv.sha256 FROM claims c "
    "JOIN source_versions sv ON sv.id = c.source_version_id "
    "JOIN sources s ON s.id = c.source_id WHERE c.id IN :ids"
)
_RELATIONS = statement(
    "SELECT id, claim_key, left_group_id, right_group_id, kind, rule, material "
    "FROM value_group_relations WHERE generation = :g AND claim_key = :k "
    "AND retired_at IS NULL ORDER BY id{C}"
)
_SLOTS = statement(
    "SELECT value_group_id, slot_id, claim_key, value, tier_rank, high_risk, threshold, "
    "tier_gap, low, high, statement, family, dimension FROM value_group_slots "
    "WHERE generation = :g AND claim_key = :k"
)


def _collated(query: Any, dialect: str) -> Any:
    # ids and source ids are ordered as Python orders strings (code points): PostgreSQL's
    # default collation may follow a locale, SQLite's BINARY is already code point order.
    mark = ' COLLATE "C"' if dialect == "postgresql" else ""
    return statement(query.now.replace("{C}", mark))


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _day(value: Any) -> date:
    return date.fromisoformat(value) if isinstance(value, str) else value


# ----------------------------------------------------------------------------- cells


@dataclass
class _Part:
    """Claims of one value that a side counts: a cell, a cell less its anchor's source, or
    one claim. Parts of one side never share a claim; a source they share is one of
    ``repeated`` (a source stating the key twice), counted once."""

    value: tuple[Any, ...]
    count: int
    source_count: int
    sources: list[str]
    citations: list[tuple[str, int, str]]  # (source, version number, claim id)
    repeated: set[str]  # its sources that may be in another part too


@dataclass
class _SidePlan:
    """A side before its cited claims are read: ``citations`` are claim ids."""

    value: tuple[Any, ...]
    claim_count: int
    source_count: int
    source_ids: list[str]
    citations: list[str]


# ----------------------------------------------------------------------------- the reading


class _Read:
    """The reads of one aggregate status, on one connection."""

    def __init__(self, conn: Connection, claim_key: str, requester: Requester) -> None:
        self.loader = EvidenceLoader(conn)
        self.dialect = conn.dialect.name
        self.key = claim_key
        self.requester = requester
        self.gen = self.loader.generation()

    def run(self, query: Any, **params: Any) -> Any:
        return self.loader.run(_collated(query, self.dialect), g=self.gen, k=self.key, **params)

    def visible(self, query: Any, **params: Any) -> Any:
        return self.run(query, no=False, groups=sorted(self.requester.groups), **params)

    def visible_stream(self, query: Any) -> Any:
        return self.loader.stream(
            _collated(query, self.dialect),
            g=self.gen,
            k=self.key,
            no=False,
            groups=sorted(self.requester.groups),
        )


def aggregate_status_of_key(
    conn: Connection,
    claim_key: str,
    requester: Requester,
    as_of: AsOf,
    offset: int,
    limit: int,
    claim_side_limit: int,
    summaries: KeySummaries | None = None,
    *,
    provenance: bool = False,
) -> StatusReport | None:
    """The status of ``claim_key`` from its value groups, or None when they do not say
    everything (the caller then reads the key claim by claim). NotFoundError when no
    claim of the key is visible. With ``summaries``, the cells come from the key's kept
    summary (``retrieval.key_summary``) instead of a read over every claim of the key.
    With ``provenance``, each citation carries its provenance, read with it (the report
    ``signals.status_with_provenance`` makes of the one without)."""
    if as_of != NOW:
        return None
    read = _Read(conn, claim_key, requester)
    if read.gen is None or read.run(_REVIEW) or _edges_seen(read):
        return None
    summary = None if summaries is None else summaries.summary(read.loader, read.gen, claim_key)
    rows = read.visible(_CELLS) if summary is None else summary.cells(requester)
    if not rows:
        raise NotFoundError(f"no claims found for key {claim_key!r}")
    if _near_misses(read, _coarse_keys(read, rows)):
        return None
    if any(row[0] is None for row in rows):
        return None  # a visible claim without a value group
    if any(row[-1] for row in rows) and _supersession_seen(read):
        return None
    relations = [
        RelationFact(r[0], r[1], r[2], r[3], r[4], r[5], _flag(r[6])) for r in read.run(_RELATIONS)
    ]
    if any(r.kind not in ("conflicts", "ambiguous") for r in relations):
        return None
    groups, cells = cells_of_rows(rows)
    if not _one_way_per_value(cells):
        return None
    _find_repeated_sources(read, cells, summary)
    _read_anchors(read, groups)
    _count_anchor_sources(read, groups)
    side_limit = min(limit, claim_side_limit)
    _first_of_cells(read, groups, limit, side_limit)
    listed = _page(read, rows, summary, offset, limit)
    facts = read.loader.claims_by_ids(sorted({c for c, _ in listed}))
    slots = {r[0]: SlotGroup(*r[:5], bool(r[5]), *r[6:12], r[12] or "") for r in read.run(_SLOTS)}
    relate(groups, relations, slots, listed)
    ranks = tier_ranks(policy_tiers(conn, None)) if provenance else None
    return _report(read, groups, cells, listed, facts, (offset, limit, side_limit), ranks)


def _read_anchors(read: _Read, groups: dict[str, Group]) -> None:
    """Each group's anchor's source and version number (all a side reads of an anchor that
    is not listed: its value is its cell's)."""
    by_anchor = {group.anchor: group for group in groups.values()}
    for chunk in batches(sorted(by_anchor)):
        for claim_id, source_id, number in read.loader.run(_ANCHORS, ids=chunk):
            group = by_anchor[claim_id]
            group.anchor_source, group.anchor_version = source_id, number


def _citations(
    read: _Read, claim_ids: Iterable[str], ranks: dict[str, int] | None
) -> dict[str, Citation]:
    """The citations of these claims, from the columns a citation shows; with ``ranks``
    (the policy's rank of each tier), with their provenance as
    ``signals.status_with_provenance`` adds it."""
    found = {}
    for chunk in batches(sorted(claim_ids)):
        for row in read.loader.run(_CITED, ids=chunk):
            claim_id, source_id, number, version_id, quote, start, end = row[:7]
            shown: dict[str, Any] = {}
            if ranks is not None:
                confidence, tier, checksum = row[7:]
                shown = {
                    "extraction_confidence": confidence,
                    "tier": tier,
                    "tier_rank": None if tier is None else ranks.get(tier),
                    "checksum": checksum,
                }
            found[claim_id] = Citation(
                source_id=source_id,
                version=number,
                version_id=version_id,
                claim_id=claim_id,
                quote=quote,
                span=SpanOut(start=start, end=end),
                **shown,
            )
    return found


def _page(
    read: _Read,
    rows: Sequence[tuple[Any, ...]],
    summary: KeySummary | None,
    offset: int,
    limit: int,
) -> list[tuple[str, str]]:
    """The listed claims (id, value group), in claim id order."""
    if summary is not None and sum(row[1 + _WIDTH] for row in rows) == summary.claims:
        ids = read.run(_PAGE_OF_ALL, limit=limit, offset=offset).scalars()
        groups = dict(read.run(_GROUPS_OF, ids=ids)) if ids else {}
        if all(groups.get(claim_id) for claim_id in ids):
            return [(claim_id, groups[claim_id]) for claim_id in ids]
    return [(r[0], r[1]) for r in read.visible(_PAGE, limit=limit, offset=offset)]


def _coarse_keys(read: _Read, rows: Iterable[tuple[Any, ...]]) -> list[str]:
    """The coarse keys of the key's visible claims, from the cells when each has one (else
    read: those of every claim of the key). A near miss touching a visible claim sits in
    the block of that claim's coarse key; one touching only hidden claims changes nothing
    the reader is shown (the claim-by-claim reading drops an edge with a hidden end)."""
    found = set()
    for row in rows:
        low, high = row[3 + _WIDTH], row[4 + _WIDTH]
        if low != high:
            return sorted(c for c in read.run(_COARSE).scalars() if c is not None)
        if low is not None:
            found.add(low)
    return sorted(found)


def _near_misses(read: _Read, coarse: list[str]) -> bool:
    blocks = sorted(NEAR_MISS_PREFIX + c for c in coarse)
    return bool(blocks) and any(read.run(q, blocks=blocks) for q in _NEAR_EDGES)


def _edges_seen(read: _Read) -> bool:
    """Whether the key's block holds an edge the groups do not say that the requester sees
    (a claim-level supersession counts only when both its claims are visible)."""
    found = read.run(_OTHER_EDGES, kinds=_NOT_FROM_GROUPS)
    if any(kind != EdgeKind.SUPERSEDES.value for kind, *_ in found):
        return True
    sources = read.loader.sources_by_ids([r[1] for r in found] + [r[2] for r in found])
    return any(
        all(
            (source := sources.get(end)) is not None
            and source_visible(source.groups, source.withdrawn, read.requester)
            for end in (left, right)
        )
        for _kind, left, right in found
    )


def _supersession_seen(read: _Read) -> bool:
    """Whether the requester sees a supersession of a version of the key (in force today)."""
    found = read.run(_SUPERSEDED)
    sources = read.loader.sources_by_ids([r[0] for r in found] + [r[1] for r in found])
    day = NOW.supersession_date()
    for newer, older, effective_from in found:
        seen = [sources.get(newer), sources.get(older)]
        if all(
            s is not None and source_visible(s.groups, s.withdrawn, read.requester) for s in seen
        ) and (effective_from is None or _day(effective_from) <= day):
            return True
    return False


def _one_way_per_value(cells: Iterable[Cell]) -> bool:
    """True when each side's value is stated one way (``1 h`` and ``60 min`` are one side
    stated two ways: then a side's value depends on which claims it holds)."""
    ways: dict[tuple[str, ...], set[tuple[Any, ...]]] = defaultdict(set)
    for cell in cells:
        ways[_key_of(cell.value)].add(cell.value)
    return all(len(found) == 1 for found in ways.values())


def _find_repeated_sources(
    read: _Read, cells: Iterable[Cell], summary: KeySummary | None = None
) -> None:
    """Each cell's sources stating the key more than once, and its source count: its claims
    less the claims of one source past the first (only such sources can have them)."""
    if summary is not None:
        found = summary.cells_of_repeated_sources(read.requester)
    else:
        twice = read.run(_SOURCES_TWICE).scalars()
        found = [
            row
            for chunk in batches(sorted(twice))
            for row in read.visible(_CELLS_OF_SOURCES, sources=chunk)
        ]
    if not found:
        return
    by_cell = {(cell.group, cell.value): cell for cell in cells}
    for row in found:
        cell = by_cell.get((row[0], tuple(row[1 : 1 + _WIDTH])))
        if cell is not None:
            cell.repeated.add(row[1 + _WIDTH])
            cell.source_count -= row[2 + _WIDTH] - 1


def _count_anchor_sources(read: _Read, groups: dict[str, Group]) -> None:
    anchors = {(g.id, g.anchor_source) for g in groups.values()}
    by_cell = {(cell.group, cell.value): cell for g in groups.values() for cell in g.cells}
    rows = read.run(_OF_SOURCES, sources=sorted({source for _, source in anchors}))
    for row in rows:
        cell = by_cell.get((row[0], tuple(row[1 : 1 + _WIDTH])))
        if cell is not None and (row[0], row[1 + _WIDTH]) in anchors:
            cell.anchor_source_claims = row[2 + _WIDTH]


def _first_of_cells(read: _Read, groups: dict[str, Group], limit: int, side_limit: int) -> None:
    """Each cell's first ``limit`` claims by citation order, its first claims not from its
    anchor's source, and its first sources, reading claims in source order until all are
    known (a few hundred rows at a key of four values, not the whole key)."""
    top_sources = max(limit, side_limit + 1)
    by_cell = {(cell.group, cell.value): cell for g in groups.values() for cell in g.cells}
    wants = {
        key: (
            min(cell.count, limit),
            min(cell.count - cell.anchor_source_claims, side_limit),
            min(cell.source_count, top_sources),
        )
        for key, cell in by_cell.items()
    }
    open_cells = {key for key, (c, o, s) in wants.items() if c or o or s}

    def take(block: list[tuple[Any, ...]]) -> None:
        for row in sorted(block, key=lambda r: (r[2], r[0])):
            key = (row[3], tuple(row[4 : 4 + _WIDTH]))
            cell = by_cell[key]
            cited, other, sourced = wants[key]
            order = (row[1], row[2], row[0])
            if len(cell.citations) < cited:
                cell.citations.append(order)
            if row[1] != groups[cell.group].anchor_source and len(cell.others) < other:
                cell.others.append(order)
            if len(cell.sources) < sourced and (not cell.sources or cell.sources[-1] != row[1]):
                cell.sources.append(row[1])
            if (len(cell.citations), len(cell.others), len(cell.sources)) == wants[key]:
                open_cells.discard(key)

    cursor = read.visible_stream(_BY_SOURCE)
    # SQLite steps through the rows as they are fetched: a first small batch, then larger
    # ones (a page of 25 at a key of four values needs about a hundred rows; a fixed batch
    # of 512 read five times that, a quarter of a status call)
    size = 64
    try:
        block: list[tuple[Any, ...]] = []
        while open_cells:
            rows = cursor.fetchmany(size)
            size = min(size * 2, 1024)
            for row in rows:
                if block and row[1] != block[0][1]:
                    take(block)  # a source's claims are complete: cite them in order
                    block = []
                    if not open_cells:
                        break
                block.append(row)
            if not rows:
                take(block)
                break
    finally:
        cursor.close()


# ----------------------------------------------------------------------------- sides


def _sides(parts: Iterable[_Part], limit: int) -> list[_SidePlan]:
    """``status.sides_of`` over the claims of ``parts`` (disjoint in claims and sources),
    with claim ids for citations."""
    by_key: dict[tuple[str, ...], list[_Part]] = defaultdict(list)
    for part in parts:
        if part.count:
            by_key[_key_of(part.value)].append(part)
    out = []
    for key in sorted(by_key):
        found = by_key[key]
        if len(found) == 1:  # most sides of a listed claim: one claim, or one cell
            (part,) = found
            out.append(
                _SidePlan(
                    part.value,
                    part.count,
                    part.source_count,
                    _smallest(limit, set(part.sources)),
                    [c[2] for c in _smallest(limit, part.citations)],
                )
            )
            continue
        first = min(found, key=lambda p: p.citations[0])
        members = heapq.nsmallest(limit, (c for p in found for c in p.citations))
        # a source in k parts is counted k times by the parts' counts
        repeats = sum(len(p.repeated) for p in found) - len(
            set().union(*(p.repeated for p in found))
        )
        out.append(
            _SidePlan(
                first.value,
                sum(p.count for p in found),
                sum(p.source_count for p in found) - repeats,
                heapq.nsmallest(limit, {s for p in found for s in p.sources}),
                [c[2] for c in members],
            )
        )
    return out


def _smallest(limit: int, items: Collection[Any]) -> list[Any]:
    # most sides hold one claim or a few: sorting them beats heapq's general case
    return sorted(items)[:limit] if len(items) <= limit else heapq.nsmallest(limit, items)


@lru_cache(maxsize=4096)
def _key_of(value: tuple[Any, ...]) -> tuple[str, ...]:
    """``value_key`` of a claim stating ``value`` (a report asks it per side it builds)."""
    return value_key(value_fact(value))


@lru_cache(maxsize=4096)
def _stated(value: tuple[Any, ...]) -> tuple[Any, str | None]:
    # one way of stating each side's value (_one_way_per_value): the value as stated
    stated = value_fact(value)
    return stated_value(stated), stated.unit


def _side(plan: _SidePlan, cite: Callable[[str], Citation]) -> Side:
    value, unit = _stated(plan.value)
    return Side(
        value=value,
        unit=unit,
        source_ids=plan.source_ids,
        citations=[cite(c) for c in plan.citations],
        claim_count=plan.claim_count,
        source_count=plan.source_count,
    )


def _one(claim: ClaimFact, repeated: set[str]) -> _Part:
    source = claim.source_id
    mine = {source} & repeated if repeated else set()
    return _Part(_value_of(claim), 1, 1, [source], [citation_order(claim)], mine)


def _value_of(claim: ClaimFact) -> tuple[Any, ...]:
    return tuple(getattr(claim, col) for col in _VALUE_COLUMNS)


class _Parts:
    """The parts a listed claim's sides count: its own claim, its group's anchor, other
    groups' anchors and cells (whole, or less the anchor's source); an anchor is one part
    of most listed claims' sides, made once."""

    def __init__(
        self, groups: dict[str, Group], cells: list[Cell], facts: dict[str, ClaimFact]
    ) -> None:
        self.groups = groups
        self.facts = facts
        self.repeated: set[str] = set().union(*(cell.repeated for cell in cells))
        self.ones: dict[str, _Part] = {}

    def of_listed(
        self, claim_id: str, group_id: str
    ) -> tuple[ClaimFact, set[ConflictStatus], set[str], list[_Part]]:
        """A listed claim, its marks and reasons, and the parts of its sides."""
        group, claim = self.groups[group_id], self.facts[claim_id]
        parts = [self.one(claim_id)]
        if claim_id == group.anchor:
            marks, reasons = group.marks | group.anchor_marks, group.reasons | group.anchor_reasons
            wholes = group.relation_partners | group.slot_sources
            parts += [self.less_anchor_source(group, cell) for cell in group.cells]
            parts += [_whole(cell) for other in sorted(wholes) for cell in self.groups[other].cells]
            met = group.slot_targets - wholes
        else:
            marks, reasons = group.marks, group.reasons
            met = group.relation_partners | group.slot_targets
            if claim.source_id != group.anchor_source:
                parts.append(self.anchor(group))
        parts += [self.anchor(self.groups[other]) for other in sorted(met)]
        return claim, marks, reasons, parts

    @staticmethod
    def less_anchor_source(group: Group, cell: Cell) -> _Part:
        # the anchor's corroborators: members of its group from another source
        has = 1 if cell.anchor_source_claims else 0
        return _Part(
            cell.value,
            cell.count - cell.anchor_source_claims,
            cell.source_count - has,
            [s for s in cell.sources if s != group.anchor_source],
            cell.others,
            cell.repeated - {group.anchor_source},
        )

    def one(self, claim_id: str) -> _Part:
        found = self.ones.get(claim_id)
        if found is None:
            found = self.ones[claim_id] = _one(self.facts[claim_id], self.repeated)
        return found

    def anchor(self, group: Group) -> _Part:
        # a listed anchor is read in full; another one is its cell's value, source, version
        found = self.ones.get(group.anchor)
        if found is None:
            source = group.anchor_source
            found = self.ones[group.anchor] = _Part(
                group.anchor_value,
                1,
                1,
                [source],
                [(source, group.anchor_version, group.anchor)],
                {source} & self.repeated,
            )
        return found


def _whole(cell: Cell) -> _Part:
    return _Part(
        cell.value, cell.count, cell.source_count, cell.sources, cell.citations, cell.repeated
    )


def _report(
    read: _Read,
    groups: dict[str, Group],
    cells: list[Cell],
    listed: list[tuple[str, str]],
    facts: dict[str, ClaimFact],
    page: tuple[int, int, int],
    ranks: dict[str, int] | None,
) -> StatusReport:
    """The report of the listed claims and the key's sides; with ``ranks`` (the policy's
    tiers), citations with their provenance."""
    offset, limit, side_limit = page
    parts = _Parts(groups, cells, facts)
    planned = []
    for claim_id, group_id in listed:
        claim, marks, reasons, of_claim = parts.of_listed(claim_id, group_id)
        planned.append((claim, marks, reasons, _sides(of_claim, side_limit)))
    key_sides = _sides([_whole(cell) for cell in cells], limit)
    # read only the claims that are cited (and the listed ones)
    cited = {c for plan in key_sides for c in plan.citations}
    cited |= {c for *_, plans in planned for plan in plans for c in plan.citations}
    # an anchor is cited by most listed claims: one citation object per claim
    citations = _citations(read, cited | facts.keys(), ranks)
    # the side of another group's anchor is the same in every listed claim that meets it:
    # one Side object per distinct side
    built: dict[tuple[Any, ...], Side] = {}

    def side(plan: _SidePlan) -> Side:
        key = (
            plan.value,
            plan.claim_count,
            plan.source_count,
            tuple(plan.source_ids),
            tuple(plan.citations),
        )
        found = built.get(key)
        if found is None:
            found = built[key] = _side(plan, citations.__getitem__)
        return found

    claims = [
        ClaimStatus(
            claim_id=claim.id,
            claim_key=claim.claim_key,
            status=group_status(marks),
            value=stated_value(claim),
            unit=claim.unit,
            citation=citations[claim.id],
            sides=[side(plan) for plan in plans],
            superseded_by=None,
            resolution=None,
            review_item_id=None,
            reasons=sorted(reasons),
        )
        for claim, marks, reasons, plans in planned
    ]
    total = sum(cell.count for cell in cells)
    every_mark: set[ConflictStatus] = set()
    for group in groups.values():
        every_mark |= group.marks
        every_mark |= group.anchor_marks
    return StatusReport(
        target=Target(kind=TargetKind.KEY, id=read.key),
        status=group_status(every_mark),
        superseded_by=None,
        policy_version=None,
        sides=[side(plan) for plan in key_sides],
        claims=claims,
        page=PageOut(
            offset=offset,
            limit=limit,
            total=total,
            next_offset=offset + limit if offset + limit < total else None,
        ),
        as_of=AsOfOut(effective=None, known_at=None),
    )
