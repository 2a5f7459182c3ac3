"""``review_queue``: material conflicts become review items, the rest are decided by policy."""

from typing import Any

import dagster as dg

from claims.store.changes import EDGES, REVIEW, changed_after, newest_change_id, record_changes
from pipeline.assets.edges import claim_edges
from pipeline.assets.ownership import OWNERS
from pipeline.changes import ROUTING_KINDS, changes_since
from pipeline.collector import with_collector_paused
from pipeline.resources import ClaimStore, configured_policy_file
from review import audit_checkpoints
from review.metrics import review_metrics
from review.policy import policy_for_routing
from review.routing import RoutingReport, route


class ReviewQueueConfig(dg.Config):
    policy_file: str = ""
    """Authority policy to apply before routing; empty: CLAIMS_POLICY_FILE, else the policy
    applied last, else the built-in default (every conflict needs a person)."""
    full: bool = False
    """Route every claim key, not only those whose edges changed (the nightly run sets it)."""


CONSUMER = "review_queue"  # its cursor row in the store's change feed
SETTLED = "settled"  # its cursor state: the newest change when its last pass ended


# New review items one source may open in one routing pass (issue 31.11): a pasted export
# opened 840 at once. The sets over it wait for the next pass, named in the run summary.
MAX_ITEMS_PER_SOURCE = 100


@dg.asset(
    deps=[claim_edges],
    group_name="review",
    kinds={"sql"},
    owners=OWNERS,
    description="Conflict sets routed under the versioned authority policy: material ones (and "
    "every high-risk predicate) wait for a reviewer, the rest are resolved by rule with the "
    "policy version and stay visible as resolved. Reopens decisions that new source versions, "
    "withdrawn winners or a policy change undermine. Only the claim keys whose edges or "
    "sources changed since the last routing are routed again (all of them after a full edge "
    "evaluation or a policy change). Metadata carries the review metrics and the audit chain's "
    "head (a checkpoint is stored too).",
)
@with_collector_paused
def review_queue(
    context: dg.AssetExecutionContext, config: ReviewQueueConfig, store: ClaimStore
) -> dg.MaterializeResult:
    with store.transaction() as session:
        policy = policy_for_routing(
            session, configured_policy_file(config.policy_file), actor="pipeline"
        )
        changes = changes_since(
            session, CONSUMER, full=config.full, kinds=ROUTING_KINDS, policy_stamp=policy.stamp
        )
        report = route(
            session, policy, claim_keys=changes.keys, max_items_per_source=MAX_ITEMS_PER_SOURCE
        )
        # Review changes after the newest change this consumer saw last time are reviewers'
        # (its own routing's come before that mark): they change the queue's figures too.
        settled = (changes.todo.state or {}).get(SETTLED)
        reviewed = settled is None or changed_after(session, int(settled), REVIEW)
        changes.acknowledge(session, {SETTLED: newest_change_id(session)})
        if report.held_back_keys:  # held back: the next pass routes them (after this ack)
            record_changes(session, report.held_back_keys, EDGES)
        # The queue's figures read every item: only when this pass or a reviewer changed
        # something (issue 33: a run with nothing new reads nothing in proportion to the
        # store); otherwise the previous materialization's figures still hold.
        quiet = changes.todo.nothing and not reviewed and not _changed_items(report)
        metrics = None if quiet else review_metrics(session, policy)
        # the audit chain's head after this routing, kept in the store and in Dagster's
        # event log: a copy outside the store anchors `claims audit verify --expect`
        anchor = audit_checkpoints.write(session, by="pipeline")
    context.log.info(
        f"{changes.mode} routing: {report.conflict_sets} conflict sets under policy "
        f"{policy.stamp}: {len(report.opened)} opened, {len(report.auto_resolved)} "
        f"auto-resolved, {len(report.reopened)} reopened"
    )
    figures: dict[str, Any] = {}
    if metrics is not None:
        figures = metrics.as_dict()
        high_risk = figures.pop("open_high_risk_by_predicate")
        by_state = figures.pop("items_by_state")
        table = ["| high-risk predicate | open items |", "|---|---|"]
        table += [f"| `{pattern}` | {count} |" for pattern, count in high_risk.items()]
        figures = {
            **{f"metric_{k}": v for k, v in figures.items() if v is not None},
            "items_by_state": dg.MetadataValue.json(by_state),
            "open_high_risk_by_predicate": dg.MetadataValue.md("\n".join(table)),
        }
    return dg.MaterializeResult(
        metadata={
            **report.as_metadata(),
            **changes.as_metadata(),
            **figures,
            "metrics": "unchanged since the last routing" if metrics is None else "computed",
            "reopened_items": dg.MetadataValue.json(report.reopened),
            "audit_rows": anchor.rows,
            "audit_head_hash": anchor.head_hash,
            "held_back_by_source": dg.MetadataValue.json(report.held_back),
        }
    )


def _changed_items(report: RoutingReport) -> bool:
    """Whether a routing pass changed any review item."""
    return bool(
        report.opened
        or report.auto_resolved
        or report.grown
        or report.reopened
        or report.released_deferrals
        or report.orphaned
        or report.carried_over
    )
