"""``claims metrics``: figures of the conflict machinery (definitions in docs/REVIEW.md)."""

from __future__ import annotations

import json

import typer
from sqlalchemy import Connection

from claimledger.cli.app import app, console, engine
from claims.errors import NotFoundError
from claims.store import transaction
from review.metrics import review_metrics
from review.policy import active_policy


def retrieval_figures(conn: Connection) -> dict[str, dict[str, object]]:
    """Visible-evidence coverage and citations per side for every principal of the access
    file (anonymous when it lists none); definitions in docs/RETRIEVAL.md."""
    from claimledger.cli.app import settings
    from retrieval.access import ANONYMOUS, load_access_config
    from retrieval.metrics import retrieval_metrics

    principals = load_access_config(settings().resolved_access_file).principals
    requesters = list(principals.values()) or [ANONYMOUS]
    return {r.principal: retrieval_metrics(conn, r).as_dict() for r in requesters}


@app.command("metrics")
def metrics(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Conflict candidates, confirmed precision, unresolved age, high-risk backlog, auto share."""
    with transaction(engine()) as session:
        try:
            policy = active_policy(session)
        except NotFoundError:
            policy = None
        figures = review_metrics(session, policy)
        visible = retrieval_figures(session.connection())
    if as_json:
        print(json.dumps({**figures.as_dict(), "retrieval": visible}, indent=2, sort_keys=True))
        return

    def show(value: float | None, suffix: str = "") -> str:
        return "n/a" if value is None else f"{value}{suffix}"

    console.print(f"conflict candidates (edges): {figures.conflict_candidates}")
    console.print(f"conflict sets (review items): {figures.conflict_sets}")
    states = ", ".join(f"{k} {v}" for k, v in figures.items_by_state.items())
    console.print(f"items by state: {states}")
    console.print(
        f"confirmed precision: {show(figures.confirmed_precision)} "
        f"({figures.confirmed} confirmed, {figures.dismissed} dismissed as not a conflict)"
    )
    console.print(
        f"unresolved: {figures.unresolved}, "
        f"age median {show(figures.unresolved_age_median_hours, ' h')}, "
        f"max {show(figures.unresolved_age_max_hours, ' h')}"
    )
    for predicate, count in figures.open_high_risk_by_predicate.items():
        console.print(f"open high-risk items for {predicate}: {count}")
    console.print(
        f"decided by rule {figures.auto_resolved} ({show(figures.share_auto_resolved)}), "
        f"by reviewers {figures.reviewed} ({show(figures.share_reviewed)})"
    )
    for principal, seen in visible.items():
        console.print(
            f"{principal}: visible-evidence coverage {show(seen['visible_evidence_coverage'])} "
            f"({seen['visible_claims']} of {seen['total_claims']} claims), "
            f"visible unresolved conflicts {seen['visible_conflicts']}, "
            f"citations per side {show(seen['citations_per_side_mean'])} "
            f"(min {show(seen['citations_per_side_min'])}), "
            f"high-risk keys short of independent origins "
            f"{seen.get('high_risk_keys_short_of_origins', 0)}",
            markup=False,
        )
