"""``claim_edges``: the claim graph, re-evaluated only for the claim keys that changed."""

import dagster as dg
from sqlalchemy.orm import Session

from claims.edge_refresh import EdgeReport
from claims.run_summary import count_table, edge_counts
from claims.store import changes
from pipeline import graph
from pipeline.assets.claims import claims
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_register
from pipeline.changes import touched_keys_metadata
from pipeline.collector import with_collector_paused
from pipeline.resources import ClaimStore, ExtractorResource, configured_policy_file
from review.policy import policy_for_routing


class ClaimEdgesConfig(dg.Config):
    full: bool = False
    """Recompute every claim key (the nightly reconciliation sets this)."""
    incremental_limit: int = 4000
    """Above this many changed claim keys a full recompute is cheaper than key by key."""


CONSUMER = "claim_edges"  # its cursor row in the store's change feed
LIVE_EDGES = "live_edges"  # the cursor state's live edges of the generation by kind
SETTLED = "settled"  # the cursor state: the newest change when this step's last run ended


def _live_edges(
    session: Session, generation: str, todo: changes.Pending, report: EdgeReport
) -> dict[str, int]:
    """Live edges of ``generation`` by kind after this evaluation, without counting the
    store's edges again when the last count is known: a full evaluation says them, an
    incremental one adds its change in the blocks it synced to the count its cursor kept.
    Counted from the table when there is no count of this generation yet, or when another
    writer changed edges since this step last ended (an ``edges`` change after its mark: an
    erasure, a taught synonym re-evaluating the keys it moved)."""
    state = todo.state or {}
    kept = state.get(LIVE_EDGES) if state.get("generation") == generation else None
    settled = state.get(SETTLED)
    outside = settled is None or changes.changed_after(session, int(settled), changes.EDGES)
    if report.full:
        counts = dict(report.live_edges)
    elif isinstance(kept, dict) and not outside:
        counts = {k: int(v) for k, v in kept.items()}
        for kind, change in report.live_edges.items():
            counts[kind] = counts.get(kind, 0) + change
    else:
        counts = edge_counts(session, generation)
    return {kind: count for kind, count in sorted(counts.items()) if count > 0}


@dg.asset(
    deps=[claims, source_register],
    group_name="graph",
    kinds={"sql"},
    owners=OWNERS,
    description="Edges between claims of one claim key: conflicts (with materiality under the "
    "configured authority policy, applied here first), corroborations, ambiguous pairs, "
    "compatible pairs with their reason, and supersession from version lineage and the "
    "register. Only keys touched by claims materialized since the last evaluation, or by "
    "register changes, are recomputed; a new extractor generation or new materiality "
    "settings are computed in full.",
)
@with_collector_paused
def claim_edges(
    context: dg.AssetExecutionContext,
    config: ClaimEdgesConfig,
    store: ClaimStore,
    extractor: ExtractorResource,
) -> dg.MaterializeResult:
    generation, _ = extractor.generation()
    with store.transaction() as session:
        # The configured authority policy is applied before edges are scored, so materiality
        # and routing in one run follow the same policy version.
        policy = policy_for_routing(session, configured_policy_file(), actor="pipeline")
        materiality = policy.materiality_settings()
    fingerprint = graph.materiality_fingerprint(materiality)
    with store.transaction() as session:
        # What to do, the work and the cursor's move share one transaction: a run killed
        # anywhere leaves either all of it or none of it.
        todo = changes.pending(
            session, CONSUMER, kinds={changes.CLAIMS, changes.REGISTER}, generation=generation
        )
        state = todo.state or {}
        if config.full:
            todo.force("configured full")
        elif todo.state is not None and state.get("generation") != generation:
            todo.everything("new extractor generation")
        elif todo.state is not None and state.get("materiality") != fingerprint:
            todo.everything("materiality settings changed")
        elif todo.keys is not None and len(todo.keys) > config.incremental_limit:
            todo.everything(f"more than {config.incremental_limit} changed claim keys")
        claim_keys = todo.keys
        if todo.nothing:  # the change feed says nothing changed: nothing is read
            report = EdgeReport(generation, full=False, touched_keys=set())
        else:
            report = graph.recompute(
                session, generation, claim_keys, materiality, changed_versions=todo.versions
            )
        touched = report.touched_keys
        if touched is None or touched:
            changes.record_edge_changes(
                session,
                [changes.ALL_KEYS] if touched is None else touched,
                report.in_part,
                generation,
            )
        summary = _live_edges(session, generation, todo, report)
        # the mark after this step's own writes: edge changes after it are another writer's
        settled = changes.newest_change_id(session)
        changes.acknowledge(
            session,
            CONSUMER,
            todo.upto,
            {
                "generation": generation,
                "materiality": fingerprint,
                "policy_version": policy.stamp,
                LIVE_EDGES: summary,
                SETTLED: settled,
            },
        )
    full_because = todo.full_because
    mode = "full" if claim_keys is None else "incremental"
    context.log.info(
        f"{mode} edge evaluation of {report.keys} claim keys for generation {generation}"
        + (f" ({full_because})" if mode == "full" else "")
    )
    touched_metadata = (
        {} if touched is None else {"touched_claim_keys": touched_keys_metadata(touched)}
    )
    return dg.MaterializeResult(
        metadata={
            "generation": generation,
            "mode": mode,
            "full_because": full_because if mode == "full" else "-",
            "claim_keys_evaluated": report.keys,
            "claim_keys_evaluated_in_part": report.keys_in_part,
            "claims_compared": report.claims,
            "comparisons": report.comparisons,
            "changes_since_last_run": todo.changes,
            "edges": sum(summary.values()),
            "edges_by_kind": dg.MetadataValue.md(count_table(summary)),
            "conflicts": summary.get("conflicts", 0),
            "material_conflicts": report.material_conflicts,
            "inserted": report.inserted,
            "retired": report.retired,
            "version_supersessions": report.version_supersessions,
            "change_cursor": todo.upto,
            "materiality": fingerprint,
            "policy_version": policy.stamp,
            **touched_metadata,
        }
    )
