"""``claims policy``: validate and apply the authority policy file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from claimledger.cli.actors import as_option, in_one_transaction
from claimledger.cli.actors import policy_actor as _actor
from claimledger.cli.app import app, console, empty_store_note, engine
from claims.errors import InputError, NotFoundError
from claims.store import transaction
from claims.tables import AuthorityPolicyRow
from review.policy import (
    active_policy_row,
    apply_policy,
    describe_policy,
    load_policy,
    policy_from_row,
    policy_versions,
)

if TYPE_CHECKING:  # the impact report loads with the commands that print one
    from review.policy_impact import PolicyImpact

policy_app = typer.Typer(
    help="Validate, apply and list authority policy versions.", no_args_is_help=True
)
app.add_typer(policy_app, name="policy")

AS_OPTION = as_option("Who applies it")


@policy_app.command("validate")
def validate(file: Path = typer.Argument(..., help="The policy.yaml to check.")) -> None:
    """Check FILE; print its version stamp, or the file and field that are wrong."""
    policy = load_policy(file)
    first, *rest = describe_policy(policy)
    console.print(f"{file}: valid, {first}")
    for line in rest:
        console.print(f"  {line}")


@policy_app.command("apply")
def apply(
    file: Path = typer.Argument(..., help="The policy.yaml to apply."),
    as_user: str | None = AS_OPTION,
    reroute: bool = typer.Option(
        True, "--route/--no-route", help="Re-route conflicts under the new policy right away."
    ),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="Show what applying FILE would change; write nothing."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the impact as JSON."),
) -> None:
    """Make FILE the active policy (every earlier version is kept), re-evaluate every open and
    rule-decided item under it at once, and print what changed (kept in the audit log)."""
    from review.policy_impact import apply_with_impact

    actor = _actor(as_user)
    policy = load_policy(file)
    if not reroute:
        if dry_run:
            raise InputError("--dry-run shows the re-routing; it cannot go with --no-route")
        with transaction(engine()) as session:
            version, changed = apply_policy(session, policy, actor=actor)
        verb = "applied" if changed else "already active:"
        console.print(f"{verb} policy {version.policy_id} version {version.version} (not routed)")
        return

    def run(session: Any) -> PolicyImpact:
        return apply_with_impact(session, policy, actor=actor, record=not dry_run)[1]

    # the policy, every re-routed item and the diff at once; nothing of a dry run is kept
    impact = in_one_transaction(run, dry_run)
    if as_json:
        print(json.dumps(impact.as_dict(), indent=2, default=str))
        return
    print_impact(impact)


def print_impact(impact: PolicyImpact) -> None:
    from review.policy_impact import CHANGE_TITLES

    if not impact.applied:
        head = "already active:"  # nothing new to store; the re-routing may still change items
    else:
        head = "would apply" if impact.dry_run else "applied"
    console.print(
        f"{head} policy {impact.policy_id} version {impact.to_version}"
        f" (was {impact.from_version or 'none'})"
    )
    routing = impact.routing
    console.print(
        f"{'would route' if impact.dry_run else 'routed'} {routing.get('conflict_sets', 0)} "
        "conflict sets: " + ", ".join(f"{n} {CHANGE_TITLES[k]}" for k, n in impact.counts().items())
    )
    for change in impact.changes:
        console.print(
            f"  {CHANGE_TITLES[change.kind]}: {change.item_id} {change.claim_key}: "
            f"{_outcome(change.before)} -> {_outcome(change.after)}"
        )
    if impact.dry_run:
        console.print("dry run: nothing was written")


def _outcome(outcome: dict[str, Any] | None) -> str:
    if outcome is None:
        return "(new)"
    text = str(outcome["state"])
    if outcome.get("decided_by"):
        text += f" by {outcome['decided_by']}"
    if outcome.get("winners"):
        text += f", winner {', '.join(outcome['winners'])}"
    if outcome.get("high_risk"):
        text += ", high-risk"
    return f"{text}, risk {outcome['risk']:.2f}" if "risk" in outcome else text


@policy_app.command("show")
def show(
    version: str | None = typer.Argument(None, help="A version stamp; default the active one."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """A stored policy version: its rules, and the impact recorded when it was applied."""
    from review.policy_impact import CHANGE_TITLES, recorded_impacts

    with transaction(engine()) as session:
        row = session.get(AuthorityPolicyRow, version) if version else active_policy_row(session)
        if row is None:
            raise NotFoundError(
                f"no applied policy version {version!r}; `claims policy list` shows them"
                if version
                else "no authority policy has been applied; run `claims policy apply FILE`"
            )
        policy = policy_from_row(row)
        impacts = [
            i
            for i in recorded_impacts(session, policy.policy_id)
            if i.get("to_version") == row.version
        ]
    if as_json:
        print(
            json.dumps(
                {"policy": row.content, "version": row.version, "impacts": impacts},
                indent=2,
                default=str,
            )
        )
        return
    for line in describe_policy(policy):
        console.print(line)
    for impact in impacts[:1]:
        console.print(
            f"applied {impact['at']:%Y-%m-%d %H:%M} UTC by {impact['actor']}: "
            + ", ".join(f"{n} {CHANGE_TITLES[k]}" for k, n in impact["counts"].items())
        )


@policy_app.command("list")
def list_versions(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every applied policy version, the active one first."""
    store = engine()
    with transaction(store) as session:
        versions = policy_versions(session)
    if as_json:
        print(json.dumps([v.model_dump(mode="json") for v in versions], indent=2))
        return
    if not versions:
        console.print(
            empty_store_note(store)
            or "no policy applied yet: `claims policy apply FILE` (or `claims run --policy FILE`)"
        )
    for index, version in enumerate(versions):
        marker = "*" if index == 0 else " "
        console.print(
            f"{marker} {version.version}  {version.policy_id}  "
            f"applied {version.applied_at:%Y-%m-%d %H:%M} by {version.applied_by}"
        )
