"""Edges in the store: full and incremental recompute over the claims of one generation.

``recompute_edges(session, generation, claim_keys)`` re-evaluates only the blocks of the
given claim keys (and the coarse-key blocks those claims belong to), then makes the stored
edges of exactly those blocks equal to the result: new edges inserted, changed ones updated,
vanished ones retired. ``claim_keys=None`` recomputes everything. The pipeline's
``claim_edges`` asset calls it with ``keys_touched_by_version`` for each new source version.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict, namedtuple
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import Text, func, literal_column, null, or_, select, type_coerce
from sqlalchemy.orm import Session

from claims.edge_delta import delta_keys, evaluate_deltas
from claims.edge_report import EdgeReport
from claims.edges.builder import MAX_NEAR_MISS_KEYS, NEAR_MISS_PREFIX, build_edges, refine
from claims.edges.compare import compare_facts
from claims.edges.entities import link_candidates
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.edges.materiality import MaterialitySettings
from claims.edges.similarity import attribute_words
from claims.edges.supersession import (
    RegisterSupersedes,
    SupersessionIndex,
    derive_version_supersessions,
    supersession_candidate,
)
from claims.edges.value_groups import UNKNOWN_KEY_PREFIX
from claims.profiles import EdgeJudges, judges_for
from claims.store.claims import stored_claim
from claims.store.edges import EdgeRepository, SupersessionRepository, ValueGroupRepository
from claims.store.sources import SourceRepository, profiles_in_use, sources_judged_as_pages
from claims.tables import (
    ClaimRow,
    EdgeRow,
    SourceRow,
    SourceVersionRow,
    VersionSupersessionRow,
)

_CHUNK = 500


def register_closure(
    source_ids: Collection[str], register: Sequence[RegisterSupersedes]
) -> set[str]:
    """``source_ids`` plus every source linked to them through register entries."""
    neighbours: dict[str, set[str]] = {}
    for entry in register:
        neighbours.setdefault(entry.source_id, set()).add(entry.supersedes_source_id)
        neighbours.setdefault(entry.supersedes_source_id, set()).add(entry.source_id)
    found = set(source_ids)
    frontier = list(found)
    while frontier:
        for other in neighbours.get(frontier.pop(), ()):
            if other not in found:
                found.add(other)
                frontier.append(other)
    return found


def sync_version_supersessions(
    session: Session, source_ids: Collection[str] | None = None
) -> SupersessionIndex:
    """Derive version supersessions from lineage + register, store them, return the index.

    With ``source_ids``, only those sources and the sources the register links them to are
    derived and synced (what an incremental recompute needs; the whole store otherwise).
    """
    repo = SupersessionRepository(session)
    register = repo.register_entries()
    if source_ids is None:
        rows = derive_version_supersessions(repo.version_refs(), register)
        repo.sync(rows)
        return SupersessionIndex(rows)
    scope = register_closure(source_ids, register)
    versions = repo.version_refs(scope)
    register = [e for e in register if e.source_id in scope]
    rows = derive_version_supersessions(versions, register)
    repo.sync(rows, [v.id for v in versions])
    return SupersessionIndex(rows)


def _claims_where(session: Session, generation: str, *conditions: object) -> list[ClaimFacts]:
    # plain rows, not ORM instances: row_to_claim only reads columns by name, and building
    # tracked instances costs more than the edge rules themselves
    table = ClaimRow.__table__
    # claims with no subject are never linked (value_groups.is_unknown_key): not even read
    stmt = select(*_read_columns(table)).where(
        table.c.generation == generation, table.c.claim_key.not_like(UNKNOWN_KEY_PREFIX + "%")
    )
    if conditions:
        stmt = stmt.where(or_(*conditions))  # type: ignore[arg-type]
    rows = session.execute(stmt.order_by(table.c.id))
    # reading 36 attributes by name off a SQLAlchemy Row costs more than building the claim
    # itself; a named tuple of the same values answers them at C speed
    columns = namedtuple("ClaimColumns", rows.keys())  # type: ignore[misc]
    make = columns._make
    converters = [(i, _CONVERT[name]) for i, name in enumerate(rows.keys()) if name in _CONVERT]
    out = []
    for row in rows:
        if converters:
            values = list(row)
            for i, convert in converters:
                values[i] = convert(values[i])
            row = values  # type: ignore[assignment]
        out.append(facts_from_claim(stored_claim(make(row))))
    return out


def _json(value: Any) -> Any:
    # most claims have no scope and no residual: no parser for those
    if isinstance(value, str):
        empty = _EMPTY_JSON.get(value)
        return empty() if empty is not None else json.loads(value)
    return value


def _date(value: Any) -> Any:
    return date.fromisoformat(value) if isinstance(value, str) else value


_EMPTY_JSON: dict[str, Any] = {"{}": dict, "[]": list}
# Columns read as their stored text and converted here: SQLAlchemy's SQLite processors for
# dates (a regular expression per value) and JSON cost more than the rest of the read
# (3 s of a profiled 15.8 s at 2,000 files). Drivers that return the values already typed
# (PostgreSQL) pass them through. The write stamp is not read at all: the claim is only
# turned into facts, which never look at it.
_CONVERT: dict[str, Any] = {
    "scope": _json,
    "scope_residual": _json,
    "time_start": _date,
    "time_end": _date,
}


def _read_columns(table: Any) -> list[Any]:
    out: list[Any] = []
    for column in table.c:
        if column.name in ("created_at", "locator"):
            out.append(null().label(column.name))  # facts never look at either
        elif column.name in _CONVERT:
            out.append(type_coerce(column, Text).label(column.name))
        else:
            out.append(column)
    return out


class _Scope(NamedTuple):
    """What a recompute reads and syncs: the claims, the exact-key blocks and coarse-key
    blocks evaluated (None: every block), and the coarse-key blocks over the near-miss cap
    that a touched key belongs to (nothing is built there, so their stored near-miss edges
    are synced to none, as a full build leaves them)."""

    facts: list[ClaimFacts]
    keys: set[str] | None
    coarse: set[str] | None
    over_cap: set[str]


class _Coarse(NamedTuple):
    """The coarse-key blocks around some claim keys: those re-evaluated with them, those
    over the near-miss cap, and each key's coarse keys."""

    kept: set[str]
    over_cap: set[str]
    of_key: dict[str, set[str]]


# up to this many keys the coarse keys are found by a skip scan per key, else grouped
_COARSE_SEEK_KEYS = 64


def _coarse_scope(session: Session, generation: str, claim_keys: Collection[str]) -> _Coarse:
    keys = sorted(set(claim_keys))
    of_key: dict[str, set[str]]
    if len(keys) <= _COARSE_SEEK_KEYS:
        of_key = {
            key: found for key in keys if (found := _coarse_keys_of(session, generation, key))
        }
    else:
        of_key = _coarse_keys_grouped(session, generation, keys)
    coarse = set().union(*of_key.values()) if of_key else set()
    kept, over_cap = _narrow_coarse_keys(session, generation, coarse, set(keys))
    return _Coarse(kept, over_cap, dict(of_key))


def _coarse_keys_of(session: Session, generation: str, key: str) -> set[str]:
    """The key's coarse keys by a skip scan of the (generation, claim_key, coarse_key) index:
    one seek per coarse key, not a read of the key's every claim (issue 33)."""
    c = ClaimRow.__table__.c
    found: set[str] = set()
    last: str | None = None
    while True:
        query = select(func.min(c.coarse_key)).where(c.generation == generation, c.claim_key == key)
        if last is not None:
            query = query.where(c.coarse_key > last)
        last = session.execute(query).scalar()
        if last is None:
            return found
        if last:
            found.add(last)


def _coarse_keys_grouped(session: Session, generation: str, keys: list[str]) -> dict[str, set[str]]:
    """The coarse keys of many keys, grouped (index-only on the same index)."""
    of_key: dict[str, set[str]] = defaultdict(set)
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        # grouped by claim key: with DISTINCT coarse_key SQLite walks the (generation,
        # coarse_key) index, every claim of the generation, for each chunk (issue 33)
        rows = session.execute(
            select(ClaimRow.claim_key, ClaimRow.coarse_key)
            .where(ClaimRow.generation == generation, ClaimRow.claim_key.in_(chunk))
            .group_by(ClaimRow.claim_key, ClaimRow.coarse_key)
        )
        for key, coarse_key in rows:
            if coarse_key:
                of_key[key].add(coarse_key)
    return of_key


def _load(
    session: Session,
    generation: str,
    claim_keys: Collection[str] | None,
    judges: EdgeJudges,
    around: _Coarse | None = None,
    skip: Collection[str] = (),
) -> _Scope:
    """The claims to evaluate plus the exact-key and coarse-key blocks in scope; the keys
    of ``skip`` (evaluated from part of their claims, ``claims.edge_delta``) are left out
    but for the coarse blocks around them (``around``, computed with them)."""
    if claim_keys is None:
        return _Scope(_claims_where(session, generation), None, None, set())
    if around is None:
        around = _coarse_scope(session, generation, claim_keys)
    coarse, over_cap = set(around.kept), set(around.over_cap)
    keys = sorted(set(claim_keys) - set(skip))
    by_id: dict[str, ClaimFacts] = {}
    for start in range(0, len(keys), _CHUNK):
        for facts in _claims_where(
            session, generation, ClaimRow.claim_key.in_(keys[start : start + _CHUNK])
        ):
            by_id[facts.id] = facts
    coarse_list = sorted(coarse)
    for start in range(0, len(coarse_list), _CHUNK):
        for facts in _claims_where(
            session, generation, ClaimRow.coarse_key.in_(coarse_list[start : start + _CHUNK])
        ):
            by_id[facts.id] = facts
    # a subject named only inside its page joins a namesake by the facts both pages state
    # (claims/edges/entities.py): their other claims are loaded as that evidence, so a
    # recompute of one block links them as a full one does (they form no block here)
    evidence = sorted(link_candidates(by_id.values()))
    for start in range(0, len(evidence), _CHUNK):
        for facts in _claims_where(
            session, generation, ClaimRow.entity.in_(evidence[start : start + _CHUNK])
        ):
            by_id[facts.id] = facts
    # claims naming no entity from pages told apart are no conflict (the reference profile's
    # judge, claims/reference/pages.py): the pages' other claims are that evidence
    pages = sorted(judges.evidence_pages(by_id.values())) if judges.evidence_pages else []
    for start in range(0, len(pages), _CHUNK):
        for facts in _claims_where(
            session, generation, ClaimRow.source_id.in_(pages[start : start + _CHUNK])
        ):
            by_id[facts.id] = facts
    return _Scope([by_id[i] for i in sorted(by_id)], set(keys), coarse, over_cap)


def _narrow_coarse_keys(
    session: Session, generation: str, coarse: set[str], touched: set[str]
) -> tuple[set[str], set[str]]:
    """The coarse-key blocks an incremental recompute must re-evaluate.

    Only blocks small enough to search for near misses (the same cap as a full build,
    ``MAX_NEAR_MISS_KEYS`` distinct claim keys), and among them only those where a touched
    key shares a word with another key of the block: two keys sharing no word are never
    paired (``similarity.similar_key_pairs``), so a block where no touched key shares one
    yields no edge involving the touched claims, before or after. A block that does is
    re-evaluated whole (its stored edges are synced as one).

    Also returns the blocks over the cap: a full build searches none of them, so the
    near-miss edges such a block held while it was under the cap must go when a touched key
    takes it over (issue 31.8: 3,000 new "api N limit" keys ended the near misses of
    "output limit" in a full build but not in the incremental one).
    """
    keys_of: dict[str, set[str]] = {}
    for coarse_key in sorted(coarse):
        # one past the cap is enough to know a block is over it: a generic head word
        # ("period": a tenth of the store) is not walked whole (issue 33, session 18). The
        # DISTINCT is over an expression: over the bare column SQLite walks the
        # (generation, claim_key) index, every claim of the generation, for its order.
        keys_of[coarse_key] = set(
            session.scalars(
                select(ClaimRow.claim_key.concat(literal_column("''")))
                .where(ClaimRow.generation == generation, ClaimRow.coarse_key == coarse_key)
                .distinct()
                .limit(MAX_NEAR_MISS_KEYS + 1)
            )
        )
    kept: set[str] = set()
    over_cap: set[str] = set()
    for coarse_key, block_keys in keys_of.items():
        if len(block_keys) > MAX_NEAR_MISS_KEYS:
            over_cap.add(coarse_key)
            continue
        # a touched key may pair with any key sharing an attribute word (entities and
        # attributes decide the rest in the builder): re-evaluate such blocks whole
        if _shares_a_word(block_keys, touched):
            kept.add(coarse_key)
    return kept, over_cap


def _shares_a_word(block_keys: set[str], touched: set[str]) -> bool:
    """Whether a touched key of the block shares a word with another key of the block."""
    mine = [k for k in block_keys if k in touched]
    if not mine or len(block_keys) < 2:
        return False
    words: dict[str, int] = defaultdict(int)
    for key in block_keys:
        for word in attribute_words(key):
            words[word] += 1
    return any(words[w] > 1 for k in mine for w in attribute_words(k))


def recompute_edges(
    session: Session,
    generation: str,
    claim_keys: set[str] | None = None,
    *,
    materiality: MaterialitySettings | None = None,
    judges: EdgeJudges | None = None,
    namesake_sources: Collection[str] | None = None,
    changed_versions: Mapping[str, set[str] | None] | None = None,
) -> EdgeReport:
    """Re-evaluate the edges of ``claim_keys`` (None: every key) and store the result.

    ``changed_versions``: for each key, the source versions whose claims changed there
    (None for a key that changed whole; the change feed's ``Pending.versions``): a large
    key is then evaluated from those claims and its groups' first claims
    (``claims.edge_delta``), with the same stored rows.

    ``namesake_sources``: the sources read as reference pages (``build_edges``; None: the
    store's sources whose profile lends a namesake judge).

    Identical re-runs change no row; edges no longer produced are retired, not deleted,
    except those inside one claim key that were only rewired
    (``EdgeRepository._forget_rewired``).
    ``judges``: the profiles' (None: those of the profiles the store's sources use).

    A full recompute in batches of coarse-key blocks, whose memory follows a batch rather
    than the store: ``claims.edge_batches.recompute_in_batches``.
    """
    if judges is None:
        judges = judges_for(profiles_in_use(session))
    if namesake_sources is None:
        namesake_sources = sources_judged_as_pages(session) if judges else ()
    return recompute_scope(
        session,
        generation,
        claim_keys,
        materiality,
        judges,
        namesake_sources,
        changed_versions=changed_versions,
    )


def recompute_scope(
    session: Session,
    generation: str,
    claim_keys: set[str] | None,
    materiality: MaterialitySettings | None,
    judges: EdgeJudges,
    namesake_sources: Collection[str],
    index: SupersessionIndex | None = None,
    changed_versions: Mapping[str, set[str] | None] | None = None,
) -> EdgeReport:
    """``recompute_edges`` of ``claim_keys`` (None: every key) in one pass; ``index``: the
    version supersessions already synced for the whole store (a batched full recompute)."""
    around: _Coarse | None = None
    deltas: list[EdgeReport] = []
    if claim_keys is not None and changed_versions is not None:
        around = _coarse_scope(session, generation, claim_keys)
        near = {k for k, found in around.of_key.items() if found & around.kept}
        candidates = delta_keys(set(claim_keys) - near, changed_versions, namesake_sources)
        deltas, _whole = evaluate_deltas(
            session,
            generation,
            candidates,
            materiality,
            sync_version_supersessions,
            _claims_where,
        )
    skipped = {key for d in deltas for key in d.touched_keys or ()}
    facts, keys, coarse, over_cap = _load(session, generation, claim_keys, judges, around, skipped)
    source_ids = sorted({f.source_id for f in facts})
    if index is None:
        index = sync_version_supersessions(session, None if claim_keys is None else source_ids)
    tiers: dict[str, str | None] = {}
    for start in range(0, len(source_ids), _CHUNK):
        chunk = source_ids[start : start + _CHUNK]
        rows = session.execute(
            select(SourceRow.id, SourceRow.authority_tier).where(SourceRow.id.in_(chunk))
        )
        tiers.update((source_id, tier) for source_id, tier in rows)
    build = build_edges(
        facts,
        generation=generation,
        supersessions=index,
        materiality=materiality,
        tiers=tiers,
        keys=keys,
        coarse_keys=coarse,
        judges=judges,
        namesake_sources=namesake_sources,
    )
    scope: set[str] | None = None
    ended: set[str] = set()
    if keys is not None:
        scope = set(keys) | {NEAR_MISS_PREFIX + c for c in coarse or ()}
        capped = {NEAR_MISS_PREFIX + c for c in over_cap}
        ended = _keys_of_live_edges(session, generation, capped)
        scope |= capped
    sync = EdgeRepository(session).sync(generation, build.edges, scope)
    after = Counter(kind for kind in {e.id: e.kind for e in build.edges}.values())
    before = sync.live_before
    live = after if scope is None else Counter({k: after[k] - before[k] for k in after | before})
    ValueGroupRepository(session).sync(
        generation,
        build.members,
        build.relations,
        None if keys is None else set(keys),
        slots=build.slots,
    )
    by_kind = Counter(e.kind for e in build.edges)
    report = EdgeReport(
        generation=generation,
        full=claim_keys is None,
        keys=len(keys) if keys is not None else len({f.claim_key for f in facts}),
        coarse_keys=len(coarse) if coarse is not None else len({f.coarse_key for f in facts}),
        claims=len(facts),
        comparisons=build.comparisons,
        edges=len(build.edges),
        by_kind=dict(sorted(by_kind.items())),
        material_conflicts=sum(1 for e in build.edges if e.kind == "conflicts" and e.material),
        inserted=sync.inserted,
        updated=sync.updated,
        revived=sync.revived,
        retired=sync.retired,
        compacted=sync.compacted,
        unchanged=sync.unchanged,
        version_supersessions=len(index.rows),
        value_groups=len({m.value_group_id for m in build.members}),
        group_relations=len(build.relations),
        slot_groups=len(build.slots),
        touched_keys=(
            None if keys is None else _evaluated_keys(facts, keys, coarse or set()) | ended
        ),
        live_edges={kind: count for kind, count in sorted(live.items()) if count},
        synced_blocks=scope,
    )
    evaluated_whole = set(report.touched_keys or ())
    for delta in deltas:
        report.add(delta, in_part=True)
    for key in evaluated_whole & report.in_part.keys():
        del report.in_part[key]  # also in a block evaluated whole: not confined to the part
    return report


def _keys_of_live_edges(session: Session, generation: str, edge_keys: set[str]) -> set[str]:
    """The claim keys of both sides of the live edges stored under ``edge_keys`` (near-miss
    blocks about to be synced to none: their claims' statuses change)."""
    if not edge_keys:
        return set()
    e = EdgeRow.__table__.c
    ids: set[str] = set()
    listed = sorted(edge_keys)
    for start in range(0, len(listed), _CHUNK):
        rows = session.execute(
            select(e.left_claim_id, e.right_claim_id).where(
                e.generation == generation,
                e.claim_key.in_(listed[start : start + _CHUNK]),
                e.retired_at.is_(None),
            )
        )
        for left, right in rows:
            ids.update((left, right))
    found: set[str] = set()
    claim_ids = sorted(ids)
    for start in range(0, len(claim_ids), _CHUNK):
        found.update(
            session.scalars(
                select(ClaimRow.claim_key)
                .where(ClaimRow.id.in_(claim_ids[start : start + _CHUNK]))
                .distinct()
            )
        )
    return found


def _evaluated_keys(
    facts: Sequence[ClaimFacts], keys: Collection[str], coarse: Collection[str]
) -> set[str]:
    """The claim keys whose stored edges and value groups a recompute of ``keys`` (and of the
    near-miss blocks ``coarse``) may have changed: those keys, and the keys of the claims of
    those near-miss blocks. Not the keys of claims loaded only as evidence: "Limit 250." on
    the page of an edited "Leave 25." is read to tell the pages apart (edges/pages.py), but
    no edge of the limit's key is re-evaluated, so its statuses and review items are left
    alone (a page's other claims are hundreds of keys the next steps would recompute)."""
    found = set(keys)
    found.update(f.claim_key for f in facts if f.coarse_key and f.coarse_key in coarse)
    return found


def keys_touched_by_version(session: Session, source_version_id: str, generation: str) -> set[str]:
    """Claim keys whose edges may change when ``source_version_id`` arrives.

    Its own claims' keys, plus the keys of the versions it replaces or that replace it
    (their claims become superseded, or stop being so).
    """
    source_id = session.scalar(
        select(SourceVersionRow.source_id).where(SourceVersionRow.id == source_version_id)
    )
    if source_id is None:
        return set()
    sync_version_supersessions(session, [source_id])
    related = {source_version_id}
    rows = session.execute(
        select(
            VersionSupersessionRow.newer_version_id, VersionSupersessionRow.older_version_id
        ).where(
            or_(
                VersionSupersessionRow.newer_version_id == source_version_id,
                VersionSupersessionRow.older_version_id == source_version_id,
            )
        )
    )
    for newer, older in rows:
        related.update((newer, older))
    rows = session.execute(
        select(ClaimRow.claim_key, ClaimRow.generation)
        .where(ClaimRow.source_version_id.in_(sorted(related)))
        .distinct()
    )
    # generation compared here: in SQL, SQLite would pick the (generation, claim_key) index
    # and walk every claim of the generation
    return {key for key, claim_generation in rows if claim_generation == generation}


def keys_touched_by_sources(
    session: Session, source_ids: Collection[str], generation: str
) -> set[str]:
    """Claim keys whose edges may change when the register entries of ``source_ids`` change.

    The keys of every claim of those sources and of the sources the register links them to
    (after the change), with the version supersessions of that scope brought up to date.
    """
    scope = register_closure(source_ids, SupersessionRepository(session).register_entries())
    sync_version_supersessions(session, scope)
    return keys_of_sources(session, scope, generation)


def keys_of_sources(session: Session, source_ids: Collection[str], generation: str) -> set[str]:
    """Claim keys stated by any version of ``source_ids`` in ``generation`` (read only)."""
    keys: set[str] = set()
    ordered_scope = sorted(source_ids)
    for start in range(0, len(ordered_scope), _CHUNK):
        chunk = ordered_scope[start : start + _CHUNK]
        rows = session.execute(
            select(ClaimRow.claim_key, ClaimRow.generation)
            .where(ClaimRow.source_id.in_(chunk))
            .distinct()
        )
        keys.update(key for key, claim_generation in rows if claim_generation == generation)
    return keys


def record_supersession_candidates(session: Session, source_version_id: str) -> int:
    """Store "this document replaces X" mentions of a version as reviewer candidates.

    Never applied: only the register creates supersessions. Returns how many were new.
    """
    from claims.extraction import find_supersession_mentions

    sources = SourceRepository(session)
    version = sources.version(source_version_id)
    if version is None:
        from claims.errors import NotFoundError

        raise NotFoundError(f"source version {source_version_id} is not in the store")
    known = sources.all()
    candidates = [
        supersession_candidate(
            version.id,
            start=mention.span.start,
            end=mention.span.end,
            quote=mention.quote,
            target_text=mention.target_text,
            sources=[s for s in known if s.id != version.source_id],
        )
        for mention in find_supersession_mentions(version.text)
    ]
    return SupersessionRepository(session).add_candidates(candidates)


@dataclass(frozen=True)
class PairExplanation:
    """Why two stored claims are (or are not) linked, whether or not an edge was stored."""

    kind: str | None  # the EdgeKind value the pair gets, None when unrelated
    rule: str
    reason: str
    edge_id: str | None  # the live stored edge between them, if the builder stored one


def explain_pair(session: Session, left_claim_id: str, right_claim_id: str) -> PairExplanation:
    """The verdict the edge rules give two stored claims (same rules as the builder).

    Edges join groups by their first claims, so most similar pairs have no stored edge of
    their own; this answers "why were these two not linked?" for any pair.
    """
    from claims.errors import NotFoundError
    from claims.store.claims import ClaimRepository

    claims = ClaimRepository(session)
    left, right = claims.by_id(left_claim_id), claims.by_id(right_claim_id)
    for wanted, found in ((left_claim_id, left), (right_claim_id, right)):
        if found is None:
            raise NotFoundError(f"claim {wanted} is not in the store")
    assert left is not None and right is not None
    x, y = facts_from_claim(left), facts_from_claim(right)
    index = sync_version_supersessions(session, sorted({x.source_id, y.source_id}))
    verdict = compare_facts(x, y)
    draft = refine(x, y, verdict, index)
    stored = [
        e
        for e in EdgeRepository(session).for_claim(left_claim_id)
        if {e.left_claim_id, e.right_claim_id} == {left_claim_id, right_claim_id}
    ]
    if draft is None:
        return PairExplanation(None, verdict.rule, verdict.reason, None)
    return PairExplanation(
        draft.kind.value, draft.rule, draft.reason, stored[0].id if stored else None
    )
