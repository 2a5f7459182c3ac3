"""A full edge recompute in batches of whole coarse-key blocks (issue 33: memory flat).

One pass over every claim of a generation held all of them as facts at once (6.35 GB at
100,000 files). ``recompute_in_batches`` reads the claim keys and their coarse keys first
(one grouped query, a row per key), joins keys that share a coarse key (their near-miss
block is evaluated whole, as a full pass does), packs those components into batches of
about ``batch_claims`` claims and recomputes each batch as an incremental recompute of its
keys does (``edge_refresh.recompute_scope``, tested equal to a full pass). The version
supersessions are synced once for the whole store first. Blocks that hold stored edges or
value groups but whose claims are all gone belong to no batch: they are synced to none at
the end, as a full pass retires them.

A coarse key shared by more claim keys than ``MAX_NEAR_MISS_KEYS`` joins nothing: its block
is never searched for near misses (a recompute of any of its keys leaves it out and syncs
its near-miss edges to none, ``edge_refresh._narrow_coarse_keys``), so its keys need not
share a batch. Joined through it, a generic head word made one batch of a tenth of the
store ("period": every subject's notice and retention periods, 360,000 claims at 100,000
bench files), whatever ``batch_claims`` said (issue 33, session 19).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from claims.edge_refresh import EdgeReport, recompute_scope, sync_version_supersessions
from claims.edge_report import SUMMED_COUNTS
from claims.edges.builder import MAX_NEAR_MISS_KEYS, NEAR_MISS_PREFIX
from claims.edges.materiality import MaterialitySettings
from claims.edges.value_groups import UNKNOWN_KEY_PREFIX
from claims.profiles import EdgeJudges, judges_for
from claims.store.edges import EdgeRepository, ValueGroupRepository
from claims.store.sources import profiles_in_use, sources_judged_as_pages
from claims.tables import (
    ClaimRow,
    EdgeRow,
    ValueGroupClaimRow,
    ValueGroupRelationRow,
    ValueGroupSlotRow,
)

# About this many claims per batch: a few hundred MB of facts and edges at most, while each
# batch still holds hundreds of keys (the queries per batch are a few dozen).
BATCH_CLAIMS = 50_000

_SUMMED = ("keys", "coarse_keys", *SUMMED_COUNTS)


def key_batches(session: Session, generation: str, batch_claims: int) -> Iterator[set[str]]:
    """The linked claim keys of ``generation`` in batches of whole coarse-key blocks (those
    small enough to be searched for near misses), about ``batch_claims`` claims each (a
    block larger than that is a batch of its own)."""
    c = ClaimRow.__table__.c
    rows = session.execute(
        select(c.claim_key, c.coarse_key, func.count())
        .where(c.generation == generation, c.claim_key.not_like(UNKNOWN_KEY_PREFIX + "%"))
        .group_by(c.claim_key, c.coarse_key)
    ).all()
    # distinct claim keys per coarse key: a block over the near-miss cap joins nothing
    # (unknown keys are not counted: fewer keys can only keep a block under the cap)
    spread: Counter[str] = Counter(coarse_key for _, coarse_key, _ in rows if coarse_key)
    parent: dict[str, str] = {}  # union-find over keys and "~coarse" nodes

    def find(node: str) -> str:
        root = node
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    sizes: Counter[str] = Counter()
    for claim_key, coarse_key, count in rows:
        sizes[claim_key] += int(count)
        left = find(claim_key)
        if coarse_key and spread[coarse_key] <= MAX_NEAR_MISS_KEYS:
            right = find(NEAR_MISS_PREFIX + coarse_key)
            if left != right:
                parent[max(left, right)] = min(left, right)
    components: dict[str, list[str]] = {}
    for claim_key in sorted(sizes):
        components.setdefault(find(claim_key), []).append(claim_key)
    batch: set[str] = set()
    held = 0
    for root in sorted(components):
        keys = components[root]
        weight = sum(sizes[k] for k in keys)
        if batch and held + weight > batch_claims:
            yield batch
            batch, held = set(), 0
        batch.update(keys)
        held += weight
    if batch:
        yield batch


def recompute_in_batches(
    session: Session,
    generation: str,
    batch_claims: int = BATCH_CLAIMS,
    materiality: MaterialitySettings | None = None,
    judges: EdgeJudges | None = None,
    namesake_sources: Collection[str] | None = None,
) -> EdgeReport:
    """Every block of ``generation`` recomputed, a batch of blocks of about ``batch_claims``
    claims at a time: the stored rows of ``recompute_edges(session, generation)``.
    ``judges`` and ``namesake_sources`` as there (None: the store's)."""
    if judges is None:
        judges = judges_for(profiles_in_use(session))
    if namesake_sources is None:
        namesake_sources = sources_judged_as_pages(session) if judges else ()
    index = sync_version_supersessions(session, None)
    report = EdgeReport(generation=generation, full=True)
    by_kind: Counter[str] = Counter()
    live: Counter[str] = Counter()
    synced: set[str] = set()
    keys: set[str] = set()
    for batch in key_batches(session, generation, batch_claims):
        part = recompute_scope(
            session, generation, batch, materiality, judges, namesake_sources, index
        )
        for name in _SUMMED:
            setattr(report, name, getattr(report, name) + getattr(part, name))
        by_kind.update(part.by_kind)
        live.update(part.live_edges)  # a batch's blocks held no edges before this pass's
        synced |= part.synced_blocks or set()
        keys |= batch
    _sync_gone_blocks(session, generation, synced, keys, report)
    report.by_kind = dict(sorted(by_kind.items()))
    report.version_supersessions = len(index.rows)
    report.live_edges = {kind: count for kind, count in sorted(live.items()) if count > 0}
    report.touched_keys = None
    return report


def _sync_gone_blocks(
    session: Session, generation: str, synced: set[str], keys: set[str], report: EdgeReport
) -> None:
    """Retire the live edges, and drop the value groups, of blocks no batch synced."""
    e = EdgeRow.__table__.c
    stored = session.scalars(
        select(e.claim_key).where(e.generation == generation, e.retired_at.is_(None)).distinct()
    )
    gone = {block for block in stored if block not in synced}
    if gone:
        sync = EdgeRepository(session).sync(generation, [], gone)
        report.retired += sync.retired
        report.compacted += sync.compacted
    grouped: set[str] = set()
    for table in (ValueGroupClaimRow, ValueGroupRelationRow, ValueGroupSlotRow):
        c = table.__table__.c
        grouped.update(
            session.scalars(select(c.claim_key).where(c.generation == generation).distinct())
        )
    if grouped - keys:
        ValueGroupRepository(session).sync(generation, [], [], grouped - keys)
