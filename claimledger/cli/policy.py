"""``claims policy``: validate and apply the authority policy file."""

from __future__ import annotations

import getpass
import json
from pathlib import Path

import typer

from claimledger.cli.app import app, console, engine, settings
from claims.errors import InputError
from claims.store import transaction
from review.policy import apply_policy, load_policy, policy_versions
from review.reviewers import load_reviewers
from review.routing import route

policy_app = typer.Typer(
    help="Validate, apply and list authority policy versions.", no_args_is_help=True
)
app.add_typer(policy_app, name="policy")

AS_OPTION = typer.Option(
    None,
    "--as",
    help="Who applies it: a reviewer of the reviewers file, or `admin` (the operator at this "
    "terminal, recorded with the OS account). Default CLAIMS_REVIEWER, then admin.",
)
ADMIN = "admin"


def _actor(name: str | None) -> str:
    """The audit actor: a known reviewer, or the local administrator; never a made-up name.

    The audit log is where a policy change is traced to a person, so an unknown name is an
    error (it would otherwise be recorded as if that person had acted).
    """
    name = name or settings().reviewer or ADMIN
    if name == ADMIN:
        return f"{ADMIN}:{getpass.getuser()}"
    directory = load_reviewers(settings().resolved_reviewers_file)
    if name not in directory.names:
        known = ", ".join(directory.names) or "none: no reviewers file is configured"
        raise InputError(
            f"--as {name!r} is neither a reviewer of the reviewers file (known: {known}) nor "
            f"{ADMIN!r}; name one of them, or add {name!r} to the reviewers file"
        )
    return directory.get(name).name


@policy_app.command("validate")
def validate(file: Path = typer.Argument(..., help="The policy.yaml to check.")) -> None:
    """Check FILE; print its version stamp, or the file and field that are wrong."""
    policy = load_policy(file)
    console.print(f"{file}: valid, policy {policy.policy_id} version {policy.stamp}")
    console.print(f"  tiers (highest first): {', '.join(policy.tiers)}")
    console.print(f"  high-risk predicates: {', '.join(policy.high_risk_predicates) or '(none)'}")
    rules = ", ".join(f"{r.id} ({r.kind.value})" for r in policy.auto_resolution)
    console.print(f"  auto-resolution rules: {rules or '(none: every conflict needs a person)'}")


@policy_app.command("apply")
def apply(
    file: Path = typer.Argument(..., help="The policy.yaml to apply."),
    as_user: str | None = AS_OPTION,
    reroute: bool = typer.Option(
        True, "--route/--no-route", help="Re-route conflicts under the new policy right away."
    ),
) -> None:
    """Make FILE the active policy (every earlier version is kept) and re-route conflicts."""
    actor = _actor(as_user)
    policy = load_policy(file)
    with transaction(engine()) as session:
        version, changed = apply_policy(session, policy, actor=actor)
        report = route(session, policy) if reroute else None
    verb = "applied" if changed else "already active:"
    console.print(f"{verb} policy {version.policy_id} version {version.version}")
    if report is not None:
        console.print(
            f"routed {report.conflict_sets} conflict sets: {len(report.opened)} opened, "
            f"{len(report.auto_resolved)} auto-resolved, {len(report.reopened)} reopened"
        )


@policy_app.command("list")
def list_versions(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """Every applied policy version, the active one first."""
    with transaction(engine()) as session:
        versions = policy_versions(session)
    if as_json:
        print(json.dumps([v.model_dump(mode="json") for v in versions], indent=2))
        return
    for index, version in enumerate(versions):
        marker = "*" if index == 0 else " "
        console.print(
            f"{marker} {version.version}  {version.policy_id}  "
            f"applied {version.applied_at:%Y-%m-%d %H:%M} by {version.applied_by}"
        )
