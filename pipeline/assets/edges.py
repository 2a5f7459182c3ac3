"""``claim_edges``: the claim graph, re-evaluated only for the claim keys that changed."""

import dagster as dg

from claims.edges.recompute import keys_touched_by_sources
from pipeline import corpus, graph
from pipeline.assets.claims import claims
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_register
from pipeline.changes import audit_changes, newest_audit_id, touched_keys_metadata
from pipeline.collector import with_fewer_collections
from pipeline.resources import ClaimStore, ExtractorResource, configured_policy_file
from pipeline.summary import count_table
from review.policy import policy_for_routing


class ClaimEdgesConfig(dg.Config):
    full: bool = False
    """Recompute every claim key (the nightly reconciliation sets this)."""
    incremental_limit: int = 200
    """Above this many changed versions a full recompute is cheaper than key by key."""


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
@with_fewer_collections
def claim_edges(
    context: dg.AssetExecutionContext,
    config: ClaimEdgesConfig,
    store: ClaimStore,
    extractor: ExtractorResource,
) -> dg.MaterializeResult:
    generation, _ = extractor.generation()
    since = None if config.full else graph.last_evaluation(context.instance, context.asset_key)
    full_because = "configured full" if config.full else ""
    if since is None and not full_because:
        full_because = "first evaluation"
    if since is not None and since.generation != generation:
        since, full_because = None, "new extractor generation"  # no edges yet: all of it
    changes = graph.claims_materialized_since(
        context.instance, claims.key, since.claims_cursor if since else None
    )
    with store.transaction() as session:
        # The configured authority policy is applied before edges are scored, so materiality
        # and routing in one run follow the same policy version.
        policy = policy_for_routing(session, configured_policy_file(), actor="pipeline")
        materiality = policy.materiality_settings()
        audit_cursor = newest_audit_id(session)
    fingerprint = graph.materiality_fingerprint(materiality)
    if since is not None and since.materiality != fingerprint:
        since, full_because = None, "materiality settings changed"
    if since is not None and since.audit_cursor is None:
        since, full_because = None, "no audit cursor recorded"
    if since is not None and len(changes.partition_keys) > config.incremental_limit:
        since, full_because = None, f"more than {config.incremental_limit} new versions"
    claim_keys: set[str] | None = None
    if since is not None:
        with store.transaction() as session:
            versions = corpus.versions_for_keys(session, changes.partition_keys)
            claim_keys = graph.claim_keys_touched(
                session, [v.id for v in versions.values()], generation
            )
            audit = audit_changes(session, since.audit_cursor or 0, audit_cursor)
            if audit.register_sources:  # tiers, supersedes, dates of these sources changed
                claim_keys |= keys_touched_by_sources(session, audit.register_sources, generation)
    with store.transaction() as session:
        report = graph.recompute(session, generation, claim_keys, materiality)
        summary = graph.edge_counts(session, generation)
    mode = "full" if claim_keys is None else "incremental"
    context.log.info(
        f"{mode} edge evaluation of {report.keys} claim keys for generation {generation}"
        + (f" ({full_because})" if mode == "full" else "")
    )
    touched = (
        {}
        if report.touched_keys is None
        else {"touched_claim_keys": touched_keys_metadata(report.touched_keys)}
    )
    return dg.MaterializeResult(
        metadata={
            "generation": generation,
            "mode": mode,
            "full_because": full_because if mode == "full" else "-",
            "claim_keys_evaluated": report.keys,
            "claims_compared": report.claims,
            "comparisons": report.comparisons,
            "versions_since_last_run": len(changes.partition_keys),
            "edges": sum(summary.values()),
            "edges_by_kind": dg.MetadataValue.md(count_table(summary)),
            "conflicts": summary.get("conflicts", 0),
            "material_conflicts": report.material_conflicts,
            "inserted": report.inserted,
            "retired": report.retired,
            "version_supersessions": report.version_supersessions,
            "claims_cursor": changes.cursor,
            "audit_cursor": audit_cursor,
            "materiality": fingerprint,
            "policy_version": policy.stamp,
            **touched,
        }
    )
