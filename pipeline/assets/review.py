"""``review_queue``: material conflicts become review items, the rest are decided by policy."""

from pathlib import Path

import dagster as dg

from claims.settings import get_settings
from pipeline.assets.edges import claim_edges
from pipeline.assets.ownership import OWNERS
from pipeline.resources import ClaimStore
from review.metrics import review_metrics
from review.policy import policy_for_routing
from review.routing import route


class ReviewQueueConfig(dg.Config):
    policy_file: str = ""
    """Authority policy to apply before routing; empty: CLAIMS_POLICY_FILE, else the policy
    applied last, else the built-in default (every conflict needs a person)."""


@dg.asset(
    deps=[claim_edges],
    group_name="review",
    kinds={"sql"},
    owners=OWNERS,
    description="Conflict sets routed under the versioned authority policy: material ones (and "
    "every high-risk predicate) wait for a reviewer, the rest are resolved by rule with the "
    "policy version and stay visible as resolved. Reopens decisions that new source versions, "
    "withdrawn winners or a policy change undermine. Metadata carries the review metrics.",
)
def review_queue(
    context: dg.AssetExecutionContext, config: ReviewQueueConfig, store: ClaimStore
) -> dg.MaterializeResult:
    configured = config.policy_file or get_settings().policy_file
    policy_file = Path(configured).expanduser() if configured else None
    with store.transaction() as session:
        policy = policy_for_routing(session, policy_file, actor="pipeline")
        report = route(session, policy)
        metrics = review_metrics(session, policy)
    context.log.info(
        f"routed {report.conflict_sets} conflict sets under policy {policy.stamp}: "
        f"{len(report.opened)} opened, {len(report.auto_resolved)} auto-resolved, "
        f"{len(report.reopened)} reopened"
    )
    figures = metrics.as_dict()
    high_risk = figures.pop("open_high_risk_by_predicate")
    by_state = figures.pop("items_by_state")
    table = ["| high-risk predicate | open items |", "|---|---|"]
    table += [f"| `{pattern}` | {count} |" for pattern, count in high_risk.items()]
    return dg.MaterializeResult(
        metadata={
            **report.as_metadata(),
            **{f"metric_{k}": v for k, v in figures.items() if v is not None},
            "items_by_state": dg.MetadataValue.json(by_state),
            "open_high_risk_by_predicate": dg.MetadataValue.md("\n".join(table)),
            "reopened_items": dg.MetadataValue.json(report.reopened),
        }
    )
