"""Routing: conflict edges become review items (conflict sets), or rule resolutions.

A caller gets ``route(session, policy)`` -> ``RoutingReport``. It reads the live conflict
edges (``edges.kind='conflicts'``, not retired, of an active extractor generation), blocks
them by claim key, and takes the connected components inside each key as conflict sets:
an N-way disagreement is one item, never N*(N-1)/2. Then:

- a material set (or one whose key the policy calls high-risk) waits for a person;
- a non-material set is decided by the first auto-resolution rule that applies, recorded
  as a resolution by rule with the policy version, and stays visible as a resolved item;
- a set no rule can decide waits for a person too: nothing is decided silently.

Item ids are a hash of the key and the first member set, and existing items are matched by
shared claims, so re-routing is idempotent. Routing reopens a closed item when new claims
join its set, when a source in the set gets a newer version after the decision, when its
winning source is withdrawn, and when the policy would now decide a rule resolution
differently.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import not_, or_, select
from sqlalchemy.orm import Session

from claims import audit_log
from claims.ids import stable_id
from claims.models import DismissReason, ResolutionMethod, ReviewState
from claims.store.batches import batches
from claims.store.changes import record_review_changes
from claims.tables import (
    AuditEventRow,
    ClaimRow,
    ReviewItemRow,
    SourceRow,
    SourceVersionRow,
)
from review.conflict_edges import (
    ConflictEdge,
    conflict_key_batches,
    items_without_live_conflicts,
    live_conflict_edges,
)
from review.items import CLOSED_STATES, ReviewItemRepository, as_utc, snapshot
from review.policy import AuthorityPolicy, RuleKind
from review.queue import SYSTEM_ACTOR, change_item, release_due_deferrals, reopen
from review.resolutions import current_resolution, record_resolution, supersede_current
from review.self_closing import close_without_conflict, sources_of_claims

ROUTER_ACTOR = "router"
# A rule's decision follows from the policy with certainty; what it is worth is the
# authority of the policy and the tiers, shown beside it, not a doubt of the rule's.
RULE_CONFIDENCE = 1.0
_CLOSED = tuple(s.value for s in CLOSED_STATES)


@dataclass(frozen=True)
class ConflictSet:
    """One claim key, the claims that cannot all hold, and the edges that say so."""

    claim_key: str
    claim_ids: frozenset[str]
    edges: tuple[ConflictEdge, ...]


@dataclass(frozen=True)
class RuleDecision:
    rule_id: str
    winners: tuple[str, ...]
    rationale: str


@dataclass
class RoutingReport:
    """What one routing pass did (counts become Dagster metadata)."""

    policy_version: str
    conflict_edges: int = 0
    conflict_sets: int = 0
    opened: list[str] = field(default_factory=list)
    auto_resolved: list[str] = field(default_factory=list)
    grown: list[str] = field(default_factory=list)
    reopened: dict[str, str] = field(default_factory=dict)
    released_deferrals: list[str] = field(default_factory=list)
    # Unresolved items none of whose claims is in a live conflict set any more (edges
    # retired: a corrected document, or a new extractor generation): closed by this pass,
    # dismissed with reason ``evidence_changed`` by ``router`` (audited); they reopen when
    # their conflict comes back.
    orphaned: list[str] = field(default_factory=list)
    # Items whose set reappeared under a new extractor generation (same evidence spans).
    carried_over: list[str] = field(default_factory=list)
    # New conflict sets not opened as items this pass because a source already opened
    # ``max_items_per_source`` (source id -> sets held back) and their claim keys, which
    # the pipeline records as changed again so the next pass routes them
    held_back: dict[str, int] = field(default_factory=dict)
    held_back_keys: set[str] = field(default_factory=set)

    def as_metadata(self) -> dict[str, int | str]:
        return {
            "policy_version": self.policy_version,
            "conflict_edges": self.conflict_edges,
            "conflict_sets": self.conflict_sets,
            "opened": len(self.opened),
            "auto_resolved": len(self.auto_resolved),
            "grown": len(self.grown),
            "reopened": len(self.reopened),
            "released_deferrals": len(self.released_deferrals),
            "orphaned": len(self.orphaned),
            "carried_over": len(self.carried_over),
            "held_back": sum(self.held_back.values()),
        }


# --------------------------------------------------------------------------- conflict sets


def conflict_sets(edges: Iterable[ConflictEdge]) -> list[ConflictSet]:
    """Connected components of the conflict graph inside each claim key (union-find)."""
    by_key: dict[str, list[ConflictEdge]] = defaultdict(list)
    for edge in edges:
        by_key[edge.claim_key].append(edge)
    sets: list[ConflictSet] = []
    for key in sorted(by_key):
        parent: dict[str, str] = {}
        for edge in by_key[key]:
            left = _find(parent, edge.left_claim_id)
            right = _find(parent, edge.right_claim_id)
            if left != right:
                parent[max(left, right)] = min(left, right)
        members: dict[str, set[str]] = defaultdict(set)
        for node in list(parent):
            members[_find(parent, node)].add(node)
        edges_of: dict[str, list[ConflictEdge]] = defaultdict(list)
        for edge in by_key[key]:
            edges_of[_find(parent, edge.left_claim_id)].append(edge)
        for root in sorted(members):
            sets.append(ConflictSet(key, frozenset(members[root]), tuple(edges_of[root])))
    return sets


def _find(parent: dict[str, str], node: str) -> str:
    """Union-find root of ``node`` (with path halving)."""
    while parent.setdefault(node, node) != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def edge_is_material(edge: ConflictEdge, policy: AuthorityPolicy) -> bool:
    """The edge's own verdict when it has one; else its score against the policy threshold."""
    if edge.material is not None:
        return bool(edge.material)
    if edge.materiality is None:
        return True  # unknown materiality: a person decides
    return edge.materiality >= policy.materiality.min_score


def set_risk(conflict: ConflictSet, policy: AuthorityPolicy) -> tuple[bool, float]:
    """(material, risk in 0..1) of a conflict set; high-risk keys are material with risk 1."""
    scores = [
        e.materiality
        if e.materiality is not None
        else (1.0 if edge_is_material(e, policy) else 0.0)
        for e in conflict.edges
    ]
    risk = max(scores, default=0.0)
    if policy.is_high_risk(conflict.claim_key):
        return True, 1.0
    return any(edge_is_material(e, policy) for e in conflict.edges), risk


# --------------------------------------------------------------------------- rules


def rule_decision(
    session: Session,
    policy: AuthorityPolicy,
    conflict: ConflictSet,
    *,
    material: bool,
    tiers: dict[str, tuple[str | None, bool]] | None = None,
) -> RuleDecision | None:
    """The first auto-resolution rule that decides the set, or None (a person decides).

    ``tiers`` (claim id -> (tier, withdrawn)) may be preloaded for many sets at once.
    """
    if policy.is_high_risk(conflict.claim_key):
        return None
    if tiers is None or not conflict.claim_ids <= tiers.keys():
        tiers = _tiers_of(session, conflict.claim_ids)
    for rule in policy.auto_resolution:
        if material and not rule.material_conflicts:
            continue
        if rule.kind is RuleKind.HIGHER_TIER_WINS:
            decision = _higher_tier_wins(policy, rule.id, rule.min_tier_gap, conflict, tiers)
            if decision is not None:
                return decision
    return None


def _tiers_of(session: Session, claim_ids: Iterable[str]) -> dict[str, tuple[str | None, bool]]:
    """Claim id -> (authority tier of its source, source withdrawn?)."""
    ids = sorted(set(claim_ids))
    found: dict[str, tuple[str | None, bool]] = {}
    for start in range(0, len(ids), 500):
        stmt = (
            select(ClaimRow.id, SourceRow.authority_tier, SourceRow.withdrawn)
            .join(SourceRow, SourceRow.id == ClaimRow.source_id)
            .where(ClaimRow.id.in_(ids[start : start + 500]))
        )
        found.update((c, (tier, bool(gone))) for c, tier, gone in session.execute(stmt))
    return found


def _higher_tier_wins(
    policy: AuthorityPolicy,
    rule_id: str,
    min_gap: int,
    conflict: ConflictSet,
    tiers: dict[str, tuple[str | None, bool]],
) -> RuleDecision | None:
    ranks = {c: policy.tier_rank(tiers.get(c, (None, False))[0]) for c in conflict.claim_ids}
    if any(rank is None for rank in ranks.values()):
        return None  # a source without a listed tier cannot be ranked
    best = min(r for r in ranks.values() if r is not None)
    top = sorted(c for c, r in ranks.items() if r == best)
    rest = [r for c, r in ranks.items() if r is not None and r != best]
    if not rest or min(rest) - best < min_gap:
        return None
    if any(tiers[c][1] for c in top):
        return None  # a withdrawn source cannot win by rule; a person decides
    top_set = set(top)
    if any(e.left_claim_id in top_set and e.right_claim_id in top_set for e in conflict.edges):
        return None  # the top tier disagrees with itself
    best_tier = policy.tiers[best]
    runner_up = policy.tiers[min(rest)]
    return RuleDecision(
        rule_id=rule_id,
        winners=tuple(top),
        rationale=(
            f"rule {rule_id}: tier '{best_tier}' outranks '{runner_up}' in policy "
            f"{policy.policy_id} {policy.stamp}; the conflict is not material and its "
            "claim key is not a high-risk predicate"
        ),
    )


# --------------------------------------------------------------------------- routing


# A full pass routes the keys with live conflict edges a batch at a time, each batch's keys
# holding about this many edges (a key is never split): its memory follows the batch, not
# the store (issue 33). The order of the work is the one pass's (keys in order).
ROUTE_BATCH_EDGES = 20_000


def route(
    session: Session,
    policy: AuthorityPolicy,
    *,
    now: datetime | None = None,
    claim_keys: Collection[str] | None = None,
    max_items_per_source: int | None = None,
    batch_edges: int = ROUTE_BATCH_EDGES,
) -> RoutingReport:
    """Bring review items in line with the live conflict edges and ``policy`` (idempotent).

    ``policy`` must already be applied (its version is a foreign key of every resolution).
    Routing acts as ``router``; an item a reviewer has acted on is never decided by rule.
    ``claim_keys`` limits the pass to those keys (the pipeline passes the keys whose edges
    changed since it last routed); ``None`` routes every key, in batches of keys holding
    about ``batch_edges`` live conflict edges (``conflict_key_batches``), with the result
    of one batch. Due deferrals are released either way. ``max_items_per_source`` bounds
    the new items one source opens in a pass (issue 31.11: one pasted export opened 840);
    the sets over it are held back (``RoutingReport.held_back``) for the next pass.
    """
    now = now or datetime.now(UTC)
    report = RoutingReport(policy_version=policy.stamp)
    report.released_deferrals = release_due_deferrals(session, now=now)
    pass_ = _Pass(policy, now, max_items_per_source, report)
    if claim_keys is not None:
        pass_.route_keys(session, claim_keys)
        orphaned = _orphaned(session, pass_.live, claim_keys, pass_.opened_now)
    else:
        for keys in conflict_key_batches(session, batch_edges):
            pass_.route_keys(session, keys)
            orphaned_here = _orphaned(session, pass_.live, keys, pass_.opened_now)
            pass_.orphaned.update(orphaned_here)
            pass_.live.clear()  # the next batch's keys hold other claims
        orphaned = sorted(pass_.orphaned | set(items_without_live_conflicts(session)))
    # closed after every set is routed, in item order, as one pass over every key does
    report.orphaned = orphaned
    for item_id in report.orphaned:
        close_without_conflict(session, item_id, policy, now, actor=ROUTER_ACTOR)
    return report


@dataclass
class _Pass:
    """One routing pass over batches of claim keys: what carries from batch to batch."""

    policy: AuthorityPolicy
    now: datetime
    max_items_per_source: int | None
    report: RoutingReport
    opened_now: set[str] = field(default_factory=set)
    opened_by_source: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    live: set[str] = field(default_factory=set)  # the claims of the last batch's sets
    orphaned: set[str] = field(default_factory=set)

    def route_keys(self, session: Session, claim_keys: Collection[str]) -> None:
        edges = live_conflict_edges(session, claim_keys)
        self.report.conflict_edges += len(edges)
        sets = conflict_sets(edges)
        del edges
        self.report.conflict_sets += len(sets)
        self.live = {c for s in sets for c in s.claim_ids}
        _route_sets(session, sets, self)


def _route_sets(session: Session, sets: list[ConflictSet], pass_: _Pass) -> None:
    """Route ``sets`` (the sets of some claim keys, in key order)."""
    actor = ROUTER_ACTOR
    policy, now, report = pass_.policy, pass_.now, pass_.report
    max_items_per_source, opened_by_source = pass_.max_items_per_source, pass_.opened_by_source
    opened_now, live = pass_.opened_now, pass_.live
    repo = ReviewItemRepository(session)
    existing_rows = repo.rows_for_keys([s.claim_key for s in sets])
    members = repo.claim_ids_for([r.id for r in existing_rows])
    by_key: dict[str, list[ReviewItemRow]] = defaultdict(list)
    for row in existing_rows:
        by_key[row.claim_key].append(row)
    tiers = _tiers_of(session, (c for s in sets for c in s.claim_ids))
    opening = _Opening()
    sources_of = sources_of_claims(session, live) if max_items_per_source is not None else {}
    # only the router writes during the pass, and its events are a machine's: read up front
    touched = _touched_by_people(session, [row.id for row in existing_rows])

    for conflict in sets:
        material, risk = set_risk(conflict, policy)
        high_risk = policy.is_high_risk(conflict.claim_key)
        matches = [
            r for r in by_key[conflict.claim_key] if conflict.claim_ids & set(members.get(r.id, []))
        ]
        predecessor = None if matches else _predecessor(session, conflict, by_key, members, live)
        if predecessor is not None:
            row = predecessor
            _carry_over(session, row, conflict, members, now, report)
        elif not matches:
            sources = {sources_of[c] for c in conflict.claim_ids if c in sources_of}
            if max_items_per_source is not None and any(
                opened_by_source[source] >= max_items_per_source for source in sources
            ):
                for source in sources:
                    if opened_by_source[source] >= max_items_per_source:
                        report.held_back[source] = report.held_back.get(source, 0) + 1
                report.held_back_keys.add(conflict.claim_key)
                continue
            for source in sources:
                opened_by_source[source] += 1
            row = _open_item(session, conflict, policy, risk, high_risk, actor, now, opening)
            by_key[conflict.claim_key].append(row)
            members[row.id] = sorted(conflict.claim_ids)
            report.opened.append(row.id)
            opened_now.add(row.id)
        if matches:
            row = matches[0]  # lowest id: the oldest identity of this set
            known = set(members.get(row.id, []))
            fresh = conflict.claim_ids - known
            if fresh:
                _grow(session, row, known, fresh, actor, now, policy)
                members[row.id] = sorted(known | fresh)
                report.grown.append(row.id)
                if row.state in _CLOSED or row.state == ReviewState.DEFERRED.value:
                    reopen(
                        session,
                        row.id,
                        actor,
                        reason=_growth_reason(session, fresh, row),
                        now=now,
                        policy_version=policy.stamp,
                    )
                    report.reopened[row.id] = "new claims joined the conflict set"
            if (row.risk, row.high_risk) != (risk, high_risk):
                change_item(
                    session,
                    row,
                    actor=actor,
                    action="item.rescore",
                    changes={"risk": risk, "high_risk": high_risk},
                    now=now,
                    policy_version=policy.stamp,
                )
            _check_closed_item(session, row, conflict, policy, material, actor, now, report, tiers)
        fresh_item = row.id in opened_now  # opened by this pass: no person touched it
        if row.state == ReviewState.OPEN.value and (fresh_item or row.id not in touched):
            decision = rule_decision(session, policy, conflict, material=material, tiers=tiers)
            if decision is not None:
                opening.write(session)  # the item's claims are stored before it is decided
                _auto_resolve(session, row, decision, policy, now)
                report.auto_resolved.append(row.id)
    opening.write(session)


@dataclass
class _Opening:
    """Claim rows and change-feed keys of the items a pass opened, written in one statement
    each (once per item, they cost more than opening the items themselves)."""

    claims: list[tuple[str, frozenset[str]]] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    def write(self, session: Session) -> None:
        if self.claims:
            ReviewItemRepository(session).add_claims_of(self.claims)
        if self.keys:
            record_review_changes(session, self.keys)
        self.claims.clear()
        self.keys.clear()


Fingerprint = tuple[str, int, int]  # source version, span start, span end


def _evidence(session: Session, claim_ids: Iterable[str]) -> dict[str, tuple[Fingerprint, object]]:
    """Claim id -> (where its evidence is, what value it read there)."""
    ids = sorted(set(claim_ids))
    found: dict[str, tuple[Fingerprint, object]] = {}
    for start in range(0, len(ids), 500):
        stmt = select(
            ClaimRow.id,
            ClaimRow.source_version_id,
            ClaimRow.span_start,
            ClaimRow.span_end,
            ClaimRow.canonical_value,
            ClaimRow.canonical_unit,
            ClaimRow.value_number,
            ClaimRow.value_text,
            ClaimRow.polarity,
        ).where(ClaimRow.id.in_(ids[start : start + 500]))
        for claim_id, version, begin, end, *value in session.execute(stmt):
            found[claim_id] = ((version, begin, end), tuple(value))
    return found


def _predecessor(
    session: Session,
    conflict: ConflictSet,
    by_key: dict[str, list[ReviewItemRow]],
    members: dict[str, list[str]],
    live: set[str],
) -> ReviewItemRow | None:
    """An item of the same key whose claims (all of an older extractor generation) cite
    exactly the evidence spans of this set: the same conflict, re-extracted."""
    candidates = [
        r for r in by_key[conflict.claim_key] if not live.intersection(members.get(r.id, []))
    ]
    if not candidates:
        return None
    wanted = {fp for fp, _ in _evidence(session, conflict.claim_ids).values()}
    for row in candidates:
        old = _evidence(session, members.get(row.id, []))
        if old and {fp for fp, _ in old.values()} == wanted:
            return row
    return None


def _carry_over(
    session: Session,
    row: ReviewItemRow,
    conflict: ConflictSet,
    members: dict[str, list[str]],
    now: datetime,
    report: RoutingReport,
) -> None:
    """Move an item to the new generation's claims; carry its decision if the values held."""
    old_ids = members.get(row.id, [])
    old = _evidence(session, old_ids)
    new = _evidence(session, conflict.claim_ids)
    by_place = {fp: claim_id for claim_id, (fp, _) in new.items()}
    claim_map = {old_id: by_place[fp] for old_id, (fp, _) in old.items() if fp in by_place}
    changed = sorted(
        old_id for old_id, new_id in claim_map.items() if old[old_id][1] != new[new_id][1]
    )
    ReviewItemRepository(session).add_claims(row.id, conflict.claim_ids)
    members[row.id] = sorted(set(old_ids) | conflict.claim_ids)
    change_item(
        session,
        row,
        actor=ROUTER_ACTOR,
        action="item.carry_over",
        changes={},
        now=now,
        detail={"claim_map": dict(sorted(claim_map.items())), "values_changed": changed},
    )
    report.carried_over.append(row.id)
    resolution = current_resolution(session, row.id)
    if row.state not in _CLOSED or resolution is None:
        return
    if changed:
        reopen(
            session,
            row.id,
            ROUTER_ACTOR,
            reason="a new extractor generation reads different values: " + ", ".join(changed),
            now=now,
        )
        report.reopened[row.id] = "values changed under a new extractor generation"
        return
    supersede_current(session, row.id, now=now)
    record_resolution(
        session,
        item_id=row.id,
        item_revision=row.revision,
        method=resolution.method,
        outcome=resolution.outcome,
        winners=[claim_map.get(w, w) for w in resolution.winner_claim_ids],
        rationale=resolution.rationale,
        evidence=[claim_map.get(e, e) for e in resolution.evidence],
        decided_by=resolution.decided_by,
        policy_version=resolution.policy_version,
        dismiss_reason=resolution.dismiss_reason,
        now=now,
        audit_actor=ROUTER_ACTOR,
        audit_action="resolution.carry_over",
        confidence=resolution.confidence,
    )


def _touched_by_a_person(session: Session, item_id: str) -> bool:
    """Whether a reviewer ever acted on the item: from then on rules never decide it."""
    return bool(_touched_by_people(session, [item_id]))


def _touched_by_people(session: Session, item_ids: Collection[str]) -> set[str]:
    """The items among ``item_ids`` a reviewer ever acted on, read in batches: a query per
    item cost a round trip each, which on PostgreSQL under load was most of an incremental
    routing pass (docs/PIPELINE.md, "Session 18: PostgreSQL")."""
    machine = or_(
        AuditEventRow.actor.in_([ROUTER_ACTOR, SYSTEM_ACTOR]),
        AuditEventRow.actor.startswith("rule:"),
    )
    touched: set[str] = set()
    for chunk in batches(sorted(set(item_ids))):
        stmt = select(AuditEventRow.entity_id).where(
            AuditEventRow.entity_id.in_(chunk),
            AuditEventRow.entity_type == "review_item",
            not_(machine),
        )
        touched.update(session.scalars(stmt.distinct()))
    return touched


touched_by_a_person = _touched_by_a_person  # review.explain says why rules stopped deciding


def _orphaned(
    session: Session,
    live: set[str],
    claim_keys: Collection[str],
    opened_now: Collection[str] = (),
) -> list[str]:
    """Unresolved items at ``claim_keys`` none of whose claims is in ``live`` (the claims of
    the pass's conflict sets at those keys)."""
    unresolved = [s.value for s in (ReviewState.OPEN, ReviewState.CLAIMED, ReviewState.DEFERRED)]
    keys = sorted(set(claim_keys))
    candidates: list[str] = []
    for start in range(0, len(keys), 500):
        stmt = select(ReviewItemRow.id).where(
            ReviewItemRow.state.in_(unresolved),
            ReviewItemRow.claim_key.in_(keys[start : start + 500]),
        )
        # an item this pass opened holds the claims of a live set: not orphaned, not read back
        candidates += [i for i in session.scalars(stmt) if i not in opened_now]
    members = ReviewItemRepository(session).claim_ids_for(candidates)
    return sorted(i for i in candidates if not live.intersection(members.get(i, [])))


def _open_item(
    session: Session,
    conflict: ConflictSet,
    policy: AuthorityPolicy,
    risk: float,
    high_risk: bool,
    actor: str,
    now: datetime,
    opening: _Opening,
) -> ReviewItemRow:
    """A new item for ``conflict``; its claim rows and change-feed key are left to
    ``opening`` (written before anything reads them: a decision, the orphan check)."""
    item_id = stable_id("ri", conflict.claim_key, *sorted(conflict.claim_ids))
    row = ReviewItemRow(
        id=item_id,
        claim_key=conflict.claim_key,
        state=ReviewState.OPEN.value,
        risk=risk,
        high_risk=high_risk,
        revision=1,
        policy_version=policy.stamp,
        opened_at=now,
        updated_at=now,
    )
    session.add(row)  # flushed with its audit row by the next query (one flush for many)
    opening.claims.append((item_id, conflict.claim_ids))
    audit_log.append(  # written and chained with the next flush, with the other items
        session,
        actor=actor,
        action="item.open",
        entity_type="review_item",
        entity_id=item_id,
        before=None,
        after={**snapshot(row, conflict.claim_ids), "edges": [e.id for e in conflict.edges]},
        policy_version=policy.stamp,
        at=now,
        flush=False,
    )
    opening.keys.append(conflict.claim_key)
    return row


def _grow(
    session: Session,
    row: ReviewItemRow,
    known: set[str],
    fresh: set[str] | frozenset[str],
    actor: str,
    now: datetime,
    policy: AuthorityPolicy,
) -> None:
    ReviewItemRepository(session).add_claims(row.id, fresh)
    change_item(
        session,
        row,
        actor=actor,
        action="item.add_claims",
        changes={},
        now=now,
        policy_version=policy.stamp,
        detail={"claim_ids": sorted(known | set(fresh)), "added": sorted(fresh)},
    )


def _growth_reason(session: Session, fresh: Iterable[str], row: ReviewItemRow) -> str:
    versions = sorted(
        set(session.scalars(select(ClaimRow.source_version_id).where(ClaimRow.id.in_(list(fresh)))))
    )
    return f"new claims joined the conflict set (source versions {', '.join(versions)})"


def _check_closed_item(
    session: Session,
    row: ReviewItemRow,
    conflict: ConflictSet,
    policy: AuthorityPolicy,
    material: bool,
    actor: str,
    now: datetime,
    report: RoutingReport,
    tiers: dict[str, tuple[str | None, bool]],
) -> None:
    """Reopen a closed item whose decision no longer stands."""
    if row.state not in _CLOSED:
        return
    resolution = current_resolution(session, row.id)
    if resolution is None:
        return
    reason: str | None = None
    if resolution.dismiss_reason is DismissReason.EVIDENCE_CHANGED:
        reopen(
            session,
            row.id,
            actor,
            reason="the conflict is back",
            now=now,
            policy_version=policy.stamp,
        )
        report.reopened[row.id] = "the conflict is back"
        return
    withdrawn = _withdrawn_winners(session, resolution.winner_claim_ids)
    if withdrawn:
        reason = f"winning source withdrawn: {', '.join(withdrawn)}"
    if reason is None:
        newer = _versions_after(session, conflict.claim_ids, as_utc(resolution.decided_at) or now)
        if newer:
            reason = f"new source version after the decision: {', '.join(newer)}"
    if reason is None and resolution.method is ResolutionMethod.RULE:
        decision = rule_decision(session, policy, conflict, material=material, tiers=tiers)
        winners = tuple(sorted(resolution.winner_claim_ids))
        if decision is None or decision.winners != winners:
            reason = (
                f"policy {policy.stamp} would decide differently than {resolution.policy_version}"
            )
    if reason is not None:
        reopen(session, row.id, actor, reason=reason, now=now, policy_version=policy.stamp)
        report.reopened[row.id] = reason


def _withdrawn_winners(session: Session, winner_ids: list[str]) -> list[str]:
    if not winner_ids:
        return []
    stmt = (
        select(SourceRow.id)
        .join(ClaimRow, ClaimRow.source_id == SourceRow.id)
        .where(ClaimRow.id.in_(winner_ids), SourceRow.withdrawn.is_(True))
    )
    return sorted(set(session.scalars(stmt)))


def _versions_after(session: Session, claim_ids: Iterable[str], moment: datetime) -> list[str]:
    """Versions of the set's sources ingested after ``moment`` and not already in the set."""
    ids = list(claim_ids)
    sources = select(ClaimRow.source_id).where(ClaimRow.id.in_(ids))
    in_set = select(ClaimRow.source_version_id).where(ClaimRow.id.in_(ids))
    stmt = select(SourceVersionRow.id, SourceVersionRow.ingested_at).where(
        SourceVersionRow.source_id.in_(sources), SourceVersionRow.id.not_in(in_set)
    )
    return sorted(v for v, at in session.execute(stmt) if (as_utc(at) or moment) > moment)


def _auto_resolve(
    session: Session,
    row: ReviewItemRow,
    decision: RuleDecision,
    policy: AuthorityPolicy,
    now: datetime,
) -> None:
    change_item(
        session,
        row,
        actor=f"rule:{decision.rule_id}",
        action="item.auto_resolve",
        changes={
            "state": ReviewState.RESOLVED.value,
            "policy_version": policy.stamp,
            "assignee": None,
            "lock_expires_at": None,
        },
        now=now,
        policy_version=policy.stamp,
    )
    record_resolution(
        session,
        item_id=row.id,
        item_revision=row.revision,
        method=ResolutionMethod.RULE,
        outcome=ReviewState.RESOLVED,
        winners=decision.winners,
        rationale=decision.rationale,
        evidence=list(decision.winners),
        decided_by=f"rule:{decision.rule_id}",
        policy_version=policy.stamp,
        now=now,
        confidence=RULE_CONFIDENCE,
    )


__all__ = [
    "ConflictSet",
    "RoutingReport",
    "RuleDecision",
    "conflict_sets",
    "edge_is_material",
    "live_conflict_edges",
    "route",
    "rule_decision",
    "SYSTEM_ACTOR",
]
