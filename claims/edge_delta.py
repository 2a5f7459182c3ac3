"""A large claim key re-evaluated from what changed in it (issue 33: an edit costs what it
changes, not what the key holds).

A boilerplate sentence restated by three notes in four makes one claim key of 75,000
claims at 100,000 files, and one edited note touches it. Re-evaluating such a key whole
reads, compares and syncs every claim of it; here only these claims are read:

- the claims of the key from the source versions that changed (``Pending.versions``: the
  new version and the versions it replaces or is replaced by), and from every version that
  replaces or is replaced by another (their claims are the ones supersession pairs join);
- per *cell* of the key (the claims of one value group with one quote), its first two
  claims in the builder's order that are in force: the first claims of every origin, value
  group and builder group are among the cells' first, so the block's structure (groups,
  anchors, value groups, slots, who meets whom) comes out of the builder as from the whole
  key; the second of each cell is a *witness*;
- every other claim of those claims' versions at this key (sentence mates, what mirrors and
  listed values read).

What the builder gives for these claims is the whole key's result for them. Every other
claim of the key (a plain member: not first of anything, its version not changed) has an
edge to its origin's first claim and one to the first claim of the group its value group
meets first, both decided by claims that are read: if those did not move, its edges did not
change, and its stored rows stay as they are. Whether they moved is what the witnesses say:
each witness is such a member of its cell, so its produced edges must equal its stored live
edges; when one differs (a group's first claim left, a new group now meets its group first)
the key is re-evaluated whole instead (``recompute_scope``), before anything is written.

The rows synced are those between read claims: edges with both ends among them, their
value-group memberships, and the key's relations and slot rows (one per pair of disagreeing
value groups and one per slot group: in number of groups, never of claims). The cells'
first claims come from index seeks per cell on SQLite (``_cell_firsts``; a key of a few
cells reads a few index entries per cell), else from one windowed query over the key's
memberships; no claim beyond those listed is loaded.

Not used (the key is re-evaluated whole) for keys under ``DELTA_MIN_MEMBERS`` stored
members, when more than ``DELTA_MAX_VERSIONS`` versions changed in the run (a load, not an
edit), for keys a change concerned whole (register entries, erasures), for keys in a
near-miss block re-evaluated with them, when reference pages are judged as namesakes (the
judge reads every claim of two groups), and when the read claims are over ``DELTA_MAX_SHARE``
of the key.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from claims.edge_report import EdgeReport
from claims.edges.builder import EdgeRecord, build_edges
from claims.edges.facts import ClaimFacts
from claims.edges.materiality import MaterialitySettings
from claims.edges.supersession import SupersessionIndex
from claims.store.batches import batches
from claims.store.edges import (
    _EDGE_COMPARED,
    _EDGE_UPDATES,
    EdgeRepository,
    ValueGroupRepository,
    sync_rows,
)
from claims.tables import (
    ClaimRow,
    EdgeRow,
    SourceRow,
    ValueGroupClaimRow,
    VersionSupersessionRow,
)

# a key with fewer stored members is re-evaluated whole (as cheap as reading its cells)
DELTA_MIN_MEMBERS = 1000
# reading more than this share of a key's claims: the key is evaluated whole
DELTA_MAX_SHARE = 0.25
# ... or more claims than this (their ids are listed in one query)
DELTA_MAX_READ = 10_000
# more changed versions than this in one evaluation is a load, not an edit: whole keys
DELTA_MAX_VERSIONS = 50


@dataclass
class _Part:
    """The claims of one key read for its delta evaluation."""

    claim_key: str
    facts: list[ClaimFacts]
    witnesses: set[str]


def delta_keys(
    candidates: Collection[str],
    versions: Mapping[str, set[str] | None] | None,
    namesake_sources: Collection[str],
) -> dict[str, set[str]]:
    """The keys worth a delta evaluation, each with the versions that changed there."""
    if versions is None or namesake_sources:
        return {}
    found = {k: v for k in candidates if (v := versions.get(k)) is not None}
    changed = set().union(*found.values()) if found else set()
    if len(changed) > DELTA_MAX_VERSIONS:
        return {}
    return found


def evaluate_deltas(
    session: Session,
    generation: str,
    keys: Mapping[str, set[str]],
    materiality: MaterialitySettings | None,
    sync_supersessions: Callable[[Session, Collection[str]], SupersessionIndex],
    read: ClaimReader,
) -> tuple[list[EdgeReport], set[str]]:
    """Delta-evaluate ``keys`` (key -> its changed versions); returns the deltas done and
    the keys left for a whole evaluation (too small, too much read, a witness moved).
    ``sync_supersessions`` and ``read`` are ``edge_refresh``'s (which calls this)."""
    done: list[EdgeReport] = []
    whole: set[str] = set()
    if not keys:
        return done, whole
    involved = _versions_in_supersessions(session)
    changed = set().union(*keys.values())
    claims_of = _claims_of_versions(session, generation, changed | involved)
    for key in sorted(keys):
        part = _read_part(session, generation, key, claims_of.get(key, set()), read)
        if part is None:
            whole.add(key)
            continue
        index = sync_supersessions(session, sorted({f.source_id for f in part.facts}))
        delta = _evaluate(session, generation, part, materiality, index)
        if delta is None:
            whole.add(key)
        else:
            delta.in_part = {key: set(keys[key])}
            done.append(delta)
    return done, whole


def _versions_in_supersessions(session: Session) -> set[str]:
    """Every version that replaces or is replaced by another (as many as edits made)."""
    t = VersionSupersessionRow.__table__.c
    found: set[str] = set()
    for newer, older in session.execute(select(t.newer_version_id, t.older_version_id)):
        found.update((newer, older))
    return found


def _claims_of_versions(
    session: Session, generation: str, version_ids: Collection[str]
) -> dict[str, set[str]]:
    """key -> ids of the claims of ``version_ids`` at that key (by the version index)."""
    c = ClaimRow.__table__.c
    out: dict[str, set[str]] = {}
    for chunk in batches(sorted(version_ids)):
        rows = session.execute(
            select(c.id, c.claim_key, c.generation).where(c.source_version_id.in_(chunk))
        )
        for claim_id, key, claim_generation in rows:
            if claim_generation == generation:
                out.setdefault(key, set()).add(claim_id)
    return out


def _read_part(
    session: Session, generation: str, key: str, changed_ids: set[str], read: ClaimReader
) -> _Part | None:
    """The claims of ``key`` to evaluate (module doc), or None: re-evaluate it whole."""
    v = ValueGroupClaimRow.__table__.c
    members = session.execute(
        select(func.count())
        .select_from(ValueGroupClaimRow.__table__)
        .where(v.generation == generation, v.claim_key == key)
    ).scalar()
    members = int(members or 0)
    if members < DELTA_MIN_MEMBERS:
        return None  # (counted from the index alone: a small key costs nothing here)
    firsts, witnesses = _cell_firsts(session, generation, key, changed_ids)
    wanted = firsts | witnesses | changed_ids
    facts = _facts(session, generation, wanted, read)
    # the other claims of their versions at this key: sentence mates, stated values
    versions = sorted({f.version_id for f in facts})
    c = ClaimRow.__table__.c
    mates: set[str] = set()
    for chunk in batches(versions):
        rows = session.execute(
            select(c.id, c.claim_key, c.generation).where(c.source_version_id.in_(chunk))
        )
        mates.update(i for i, k, g in rows if k == key and g == generation and i not in wanted)
    if mates:
        facts += _facts(session, generation, mates, read)
    if len(facts) > min(DELTA_MAX_SHARE * members, DELTA_MAX_READ):
        return None
    return _Part(key, sorted(facts, key=lambda f: f.id), witnesses - changed_ids)


# reads claims of a generation matching conditions as facts (``edge_refresh``'s reader)
ClaimReader = Callable[..., list[ClaimFacts]]


def _facts(
    session: Session, generation: str, ids: Collection[str], read: ClaimReader
) -> list[ClaimFacts]:
    out: list[ClaimFacts] = []
    for chunk in batches(sorted(ids)):
        out += read(session, generation, ClaimRow.id.in_(chunk))
    return out


# over this many cells (value groups x quotes) the firsts come from one windowed query
CELL_SEEKS_MAX = 64


def _cell_firsts(
    session: Session, generation: str, key: str, skipped: set[str]
) -> tuple[set[str], set[str]]:
    """(first claims, second claims) of the key's cells: its stored members by value group
    and quote, in the builder's order (source, version, claim id), leaving out ``skipped``
    (the changed claims and those of versions in supersessions: read anyway, and out of
    order, as claims no longer in force sort last).

    On SQLite the key's value groups and quotes are found by index seeks and, with at most
    ``CELL_SEEKS_MAX`` cells, each cell's first ``2 + len(skipped)`` members are a LIMIT
    walk of the cell order index (``claims.store.search.CELL_ORDER_INDEX``): a key of one
    group and one quote costs its cells, not its claims. Otherwise (PostgreSQL, many cells)
    one windowed query over the key's members."""
    take = 2 + len(skipped)
    groups: list[str] = []
    quotes: list[str] = []
    if session.get_bind().dialect.name == "sqlite":  # (the cell order index is SQLite's)
        groups = _distinct(session, ValueGroupClaimRow, "value_group_id", generation, key)
        quotes = _distinct(session, ClaimRow, "quote", generation, key)
    if not groups or not quotes or len(groups) * len(quotes) > CELL_SEEKS_MAX:
        rows = _ranked_cells(session, generation, key, take)
    else:
        rows = [
            (claim_id, group, quote)
            for group in groups
            for quote in quotes
            for claim_id in _cell_head(session, generation, key, group, quote, take)
        ]
    firsts: set[str] = set()
    seconds: set[str] = set()
    taken: Counter[tuple[str, str]] = Counter()
    for claim_id, group, quote in rows:
        if claim_id in skipped:
            continue
        cell = (group, quote)
        taken[cell] += 1
        if taken[cell] == 1:
            firsts.add(claim_id)
        elif taken[cell] == 2:
            seconds.add(claim_id)
    return firsts, seconds


def _builder_order(session: Session) -> list[Any]:
    c = ClaimRow.__table__.c
    order: list[Any] = [c.source_id, c.source_version_id, c.id]
    if session.get_bind().dialect.name == "postgresql":
        order = [column.collate("C") for column in order]  # Python's order: code points
    return order


def _distinct(session: Session, table: Any, column: str, generation: str, key: str) -> list[str]:
    """The distinct non-null values of ``column`` among the key's rows of ``table``, one
    index seek each (a (generation, claim_key, column) index; a skip scan), or [] when
    there are more than ``CELL_SEEKS_MAX``."""
    t = table.__table__.c
    found: list[str] = []
    while len(found) <= CELL_SEEKS_MAX:
        query = select(func.min(t[column])).where(t.generation == generation, t.claim_key == key)
        if found:
            query = query.where(t[column] > found[-1])
        value = session.execute(query).scalar()
        if value is None:
            return found
        found.append(value)
    return []


def _cell_head(
    session: Session, generation: str, key: str, group: str, quote: str, take: int
) -> list[str]:
    """The first ``take`` members of one cell in the builder's order."""
    v = ValueGroupClaimRow.__table__.c
    c = ClaimRow.__table__.c
    query = (
        select(c.id)
        .select_from(ClaimRow.__table__.join(ValueGroupClaimRow.__table__, c.id == v.claim_id))
        .where(c.generation == generation, c.claim_key == key, c.quote == quote)
        .where(v.value_group_id == group)
        .order_by(*_builder_order(session))
        .limit(take)
    )
    return list(session.execute(query).scalars())


def _ranked_cells(
    session: Session, generation: str, key: str, take: int
) -> list[tuple[str, str, str]]:
    """Every cell's first ``take`` members, by one windowed query over the key's members."""
    v = ValueGroupClaimRow.__table__.c
    c = ClaimRow.__table__.c
    ranked = (
        select(
            c.id.label("id"),
            v.value_group_id.label("cell_group"),
            c.quote.label("cell_quote"),
            func.row_number()
            .over(partition_by=[v.value_group_id, c.quote], order_by=_builder_order(session))
            .label("rank"),
        )
        .select_from(ValueGroupClaimRow.__table__.join(ClaimRow.__table__, c.id == v.claim_id))
        .where(v.generation == generation, v.claim_key == key)
        .subquery()
    )
    # the skipped claims are left out in Python rather than in SQL (a long NOT IN compared
    # for every member): each cell's first two others are among its first 2 + len(skipped)
    rows = session.execute(
        select(ranked.c.id, ranked.c.cell_group, ranked.c.cell_quote)
        .where(ranked.c.rank <= take)
        .order_by(ranked.c.cell_group, ranked.c.cell_quote, ranked.c.rank)
    )
    return [(claim_id, group, quote) for claim_id, group, quote in rows]


def _tiers(session: Session, source_ids: Iterable[str]) -> dict[str, str | None]:
    tiers: dict[str, str | None] = {}
    for chunk in batches(sorted(set(source_ids))):
        rows = session.execute(
            select(SourceRow.id, SourceRow.authority_tier).where(SourceRow.id.in_(chunk))
        )
        tiers.update((source_id, tier) for source_id, tier in rows)
    return tiers


_EdgeValues = tuple[Any, ...]  # (rule, reason, material, materiality, claim_key, retired_at)


def _stored_edges(
    session: Session,
    generation: str,
    key: str,
    claim_ids: Collection[str],
    both_ends: bool,
) -> dict[str, tuple[str, str, str, _EdgeValues]]:
    """The stored edges of ``key`` with an end (``both_ends``: both ends) among
    ``claim_ids``: id -> (kind, left, right, values), by the claim indexes. With both ends
    the other end is tested in SQL: a group's first claim meets every member of the group,
    and those edges are not read."""
    e = EdgeRow.__table__.c
    out: dict[str, tuple[str, str, str, _EdgeValues]] = {}
    ordered = sorted(claim_ids)
    columns = (
        e.id,
        e.kind,
        e.left_claim_id,
        e.right_claim_id,
        e.claim_key,
        e.generation,
        e.rule,
        e.reason,
        e.material,
        e.materiality,
        e.retired_at,
    )
    for side, other in ((e.left_claim_id, e.right_claim_id), (e.right_claim_id, e.left_claim_id)):
        for chunk in batches(ordered):
            query = select(*columns).where(side.in_(chunk))
            if both_ends:
                query = query.where(other.in_(bindparam("ids", ordered, expanding=True)))
            for row in session.execute(query):
                edge_id, kind, left, right, edge_key, edge_generation = row[:6]
                if edge_key != key or edge_generation != generation:
                    continue
                rule, reason, material, materiality, retired_at = row[6:]
                values = (rule, reason, material, materiality, edge_key, retired_at)
                out[edge_id] = (kind, left, right, values)
    return out


def _witnesses_hold(
    part: _Part,
    produced: list[EdgeRecord],
    stored: Mapping[str, tuple[str, str, str, _EdgeValues]],
) -> bool:
    """Whether every witness's produced edges are its stored live edges, value for value:
    the claims deciding the unread members' edges did not move."""
    if not part.witnesses:
        return True
    mine: dict[str, set[tuple[object, ...]]] = {w: set() for w in part.witnesses}
    for record in produced:
        for end in (record.left_claim_id, record.right_claim_id):
            if end in mine:
                mine[end].add((record.id, record.kind, *_EDGE_COMPARED(record)))
    before: dict[str, set[tuple[object, ...]]] = {w: set() for w in part.witnesses}
    for edge_id, (kind, left, right, values) in stored.items():
        if values[-1] is not None:
            continue  # retired
        for end in (left, right):
            if end in before:
                before[end].add((edge_id, kind, *values[:-1]))
    return mine == before


def _evaluate(
    session: Session,
    generation: str,
    part: _Part,
    materiality: MaterialitySettings | None,
    index: SupersessionIndex,
) -> EdgeReport | None:
    """Build the part's edges, check the witnesses, sync; None (nothing written) when a
    witness says the key must be re-evaluated whole."""
    key = part.claim_key
    build = build_edges(
        part.facts,
        generation=generation,
        supersessions=index,
        materiality=materiality,
        tiers=_tiers(session, (f.source_id for f in part.facts)),
        keys={key},
        coarse_keys=set(),
    )
    read = {f.id for f in part.facts}
    if not _witnesses_hold(
        part, build.edges, _stored_edges(session, generation, key, part.witnesses, False)
    ):
        return None
    stored = _stored_edges(session, generation, key, read, True)
    now = datetime.now(UTC)
    # in scope: the stored edges between read claims (the others join an unread member
    # to a first claim that did not move: they stay as they are)
    existing = {edge_id: values for edge_id, (_kind, _l, _r, values) in stored.items()}
    live_before = Counter(
        kind
        for edge_id, (kind, _l, _r, values) in stored.items()
        if edge_id in existing and values[-1] is None
    )
    counts = sync_rows(
        session,
        EdgeRow,
        existing,
        build.edges,
        _EDGE_COMPARED,
        _EDGE_UPDATES,
        {"generation": generation},
        now,
    )
    # the unread members' edges to read claims stay live too: asked of the written store
    compacted = EdgeRepository(session).forget_rewired_in_key(counts.retired_ids, generation, key)
    groups = ValueGroupRepository(session)
    groups.sync_part(generation, build.members, build.relations, build.slots, key, read, now)
    after = Counter(kind for kind in {e.id: e.kind for e in build.edges}.values())
    live = Counter({k: after[k] - live_before[k] for k in after | live_before})
    session.flush()
    return EdgeReport(
        generation,
        full=False,
        keys=1,
        claims=len(part.facts),
        comparisons=build.comparisons,
        edges=len(build.edges),
        by_kind=dict(Counter(e.kind for e in build.edges)),
        material_conflicts=sum(1 for e in build.edges if e.kind == "conflicts" and e.material),
        inserted=counts.inserted,
        updated=counts.updated,
        revived=counts.revived,
        retired=counts.retired,
        compacted=compacted,
        unchanged=counts.unchanged,
        value_groups=len({m.value_group_id for m in build.members}),
        group_relations=len(build.relations),
        slot_groups=len(build.slots),
        touched_keys={key},
        live_edges={kind: count for kind, count in live.items() if count},
        synced_blocks={key},
    )
