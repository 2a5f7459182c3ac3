"""``conflict_status``: the claim_status read model, and the known-conflict probe check."""

from pathlib import Path

import dagster as dg

from claims.settings import get_settings
from claims.store.changes import prune
from pipeline.assets.edges import CONSUMER as EDGES_CONSUMER
from pipeline.assets.ownership import OWNERS
from pipeline.assets.review import CONSUMER as REVIEW_CONSUMER
from pipeline.assets.review import review_queue
from pipeline.changes import STATUS_KINDS, changes_since
from pipeline.collector import with_collector_paused
from pipeline.resources import ClaimStore
from retrieval.probes import BUNDLED_PROBES, load_probes, run_probes
from retrieval.read_model import build_claim_status


class ConflictStatusConfig(dg.Config):
    full: bool = False
    """Rebuild every claim's row, not only the changed keys' (the nightly run sets it)."""


CONSUMER = "conflict_status"  # its cursor row in the store's change feed


@dg.asset(
    deps=[review_queue],
    group_name="retrieval",
    kinds={"sql"},
    owners=OWNERS,
    description="Requester-independent conflict status of every claim (none, contested, "
    "under_review, resolved, superseded, ambiguous) with its review item, resolution, "
    "policy version and replacing version. Only the claim keys whose edges, sources or "
    "review items changed since the last build are rewritten. Per-requester answers narrow "
    "the same evidence at query time.",
)
@with_collector_paused
def conflict_status(
    context: dg.AssetExecutionContext, config: ConflictStatusConfig, store: ClaimStore
) -> dg.MaterializeResult:
    with store.engine.begin() as conn:
        changes = changes_since(conn, CONSUMER, full=config.full, kinds=STATUS_KINDS)
        # a key whose edges were evaluated from its changed versions' claims goes in part
        counts = build_claim_status(conn, changes.keys, changed_versions=changes.todo.versions)
        changes.acknowledge(conn)  # with the rows it rewrote, in one transaction
        # the last consumer of a run: what every consumer has processed can go
        prune(conn, (EDGES_CONSUMER, REVIEW_CONSUMER, CONSUMER))
    scope = changes.full_because if changes.keys is None else f"{len(changes.keys)} keys"
    context.log.info(f"claim_status: {changes.mode} rebuild ({scope}): {counts}")
    table = ["| status | claims rewritten |", "|---|---|"]
    table += [f"| {k} | {v} |" for k, v in counts.items()]
    return dg.MaterializeResult(
        metadata={
            **changes.as_metadata(),
            "claims_rewritten": sum(counts.values()),
            **{f"status_{k}": v for k, v in counts.items()},
            "by_status": dg.MetadataValue.md("\n".join(table)),
        }
    )


@dg.asset_check(
    asset=conflict_status,
    blocking=True,
    description="Asks the known-conflict probes (retrieval/known_conflicts.yaml or "
    "CLAIMS_PROBES_FILE) through the answer contract: a change in indexing or extraction "
    "that silently answers a known conflict, or cites hidden evidence, fails the run.",
)
def known_conflicts_answered_as_expected(store: ClaimStore) -> dg.AssetCheckResult:
    configured = get_settings().probes_file
    probes = load_probes(Path(configured) if configured else BUNDLED_PROBES)
    results = run_probes(store.engine, probes)
    ran = [r for r in results if r.ran]
    failed = [r for r in ran if r.failures]
    lines = ["| probe | result |", "|---|---|"] + [
        f"| {r.probe.id} | {'; '.join(r.failures) or 'ok'} |" for r in ran
    ]
    return dg.AssetCheckResult(
        passed=not failed,
        severity=dg.AssetCheckSeverity.ERROR,
        metadata={
            "probes_run": len(ran),
            "probes_skipped": len(results) - len(ran),
            "probes_failed": len(failed),
            "results": dg.MetadataValue.md("\n".join(lines)),
        },
    )
