"""``claim_edges``: the claim graph, re-evaluated only for the claim keys that changed."""


import dagster as dg

from pipeline import corpus, graph
from pipeline.assets.claims import claims
from pipeline.assets.ownership import OWNERS
from pipeline.assets.sources import source_register
from pipeline.resources import ClaimStore, ExtractorResource
from pipeline.summary import count_table


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
    description="Edges between claims of one claim key: conflicts (with materiality), "
    "corroborations, ambiguous pairs, compatible pairs with their reason, and supersession "
    "from version lineage and the register. Only keys touched by claims materialized since "
    "the last evaluation are recomputed; a new extractor generation is computed in full.",
)
def claim_edges(
    context: dg.AssetExecutionContext,
    config: ClaimEdgesConfig,
    store: ClaimStore,
    extractor: ExtractorResource,
) -> dg.MaterializeResult:
    generation, _ = extractor.generation()
    since = None if config.full else graph.last_evaluation(context.instance, context.asset_key)
    if since is not None and since.generation != generation:
        since = None  # a new generation has no edges yet: evaluate all of it
    changes = graph.claims_materialized_since(
        context.instance, claims.key, since.claims_cursor if since else None
    )
    claim_keys: set[str] | None = None
    if since is not None and len(changes.partition_keys) <= config.incremental_limit:
        with store.transaction() as session:
            versions = corpus.versions_for_keys(session, changes.partition_keys)
            claim_keys = graph.claim_keys_touched(
                session, [v.id for v in versions.values()], generation
            )
    with store.transaction() as session:
        report = graph.recompute(session, generation, claim_keys)
        summary = graph.edge_counts(session, generation)
    mode = "full" if claim_keys is None else "incremental"
    context.log.info(
        f"{mode} edge evaluation of {report.keys} claim keys for generation {generation}"
    )
    return dg.MaterializeResult(
        metadata={
            "generation": generation,
            "mode": mode,
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
        }
    )
