"""``claims review``: the reviewer's queue from the terminal.

Every write names the reviewer with ``--as USER`` (default: ``CLAIMS_REVIEWER``), who must be
listed in the reviewers file; ``--revision N`` makes a write fail if the item changed since
the reviewer looked at it (optimistic concurrency, as in the web UI).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

import typer

from claimledger.cli.app import app, console, empty_store_note, engine, settings
from claims.errors import InputError
from claims.models import DismissReason, ReviewItem, ReviewState
from claims.store import transaction
from review import queue
from review.items import ReviewItemRepository
from review.policy import active_policy
from review.reviewers import Reviewer, hash_password, load_reviewers
from review.routing import route

if TYPE_CHECKING:  # an item's evidence view loads with the commands that show one
    from review.evidence import ItemView

review_app = typer.Typer(help="List, claim and decide review items.", no_args_is_help=True)
app.add_typer(review_app, name="review")

AS_OPTION = typer.Option(None, "--as", help="Reviewer name (default: CLAIMS_REVIEWER).")
REVISION_OPTION = typer.Option(
    None, "--revision", help="Fail if the item is no longer at this revision."
)
JSON_OPTION = typer.Option(False, "--json", help="Print JSON.")
CONFIDENCE_OPTION = typer.Option(
    None,
    "--confidence",
    min=0.0,
    max=1.0,
    help="How sure you are, 0 to 1 (stored on the resolution; default: not stated).",
)


def _reviewer(name: str | None) -> Reviewer:
    directory = load_reviewers(settings().resolved_reviewers_file)
    return directory.get(name or settings().reviewer)


def _row(item: ReviewItem) -> str:
    flag = "HIGH" if item.high_risk else "    "
    # Only a claimed item is held (items decided before decisions cleared it keep a name).
    held = item.assignee if item.state is ReviewState.CLAIMED else None
    who = f" @{held}" if held else ""
    until = f" until {item.deferred_until}" if item.deferred_until else ""
    hours = (datetime.now(UTC) - item.opened_at).total_seconds() / 3600 if item.opened_at else 0
    age = f"{hours:.0f}h" if hours < 48 else f"{hours / 24:.0f}d"
    return (
        f"{item.id}  {item.state.value:<9} {flag} risk {item.risk:.2f} age {age:>4}  "
        f"{item.claim_key}  ({len(item.claim_ids)} claims){who}{until}"
    )


@review_app.command("list")
def list_items(
    state: list[ReviewState] = typer.Option(
        None, "--state", help="Only these states (repeatable); default open, claimed, deferred."
    ),
    mine: bool = typer.Option(False, "--mine", help="Only items assigned to me."),
    all_states: bool = typer.Option(False, "--all", help="Every state."),
    as_user: str | None = AS_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The queue: high-risk first, then by risk, then oldest first."""
    states = (
        None
        if all_states
        else (state or [ReviewState.OPEN, ReviewState.CLAIMED, ReviewState.DEFERRED])
    )
    assignee = _reviewer(as_user).name if mine else None
    store = engine()
    with transaction(store) as session:
        items = ReviewItemRepository(session).search(states=states, assignee=assignee)
    if as_json:
        print(json.dumps([i.model_dump(mode="json") for i in items], indent=2))
        return
    if not items:
        console.print(empty_store_note(store) or "no review items")
    for item in items:
        console.print(_row(item))


def _print_view(view: ItemView) -> None:
    item = view.item
    explanation = view.explanation
    console.print(_row(item))
    console.print(f"revision {item.revision}, opened {item.opened_at:%Y-%m-%d %H:%M} UTC")
    if explanation.policy is not None:
        ref = explanation.policy
        console.print(f"policy {ref.label}, stamp {ref.stamp} (`claims policy show {ref.stamp}`)")
    if explanation.values:
        console.print("values: " + " vs ".join(explanation.values))
    if explanation.conflict:
        console.print("conflict: " + "; ".join(explanation.conflict))
    for reason in explanation.reasons:
        console.print(f"why here: {reason}")
    if view.resolution is None and view.lock_holder:
        console.print(
            f"claimed by {view.lock_holder} until {item.lock_expires_at:%Y-%m-%d %H:%M} UTC"
        )
    for number, side in enumerate(view.sides, start=1):
        converted = f" (= {side.converted_text})" if side.converted_text else ""
        gone = ", WITHDRAWN" if side.withdrawn else ""
        won = "  WINNER" if side.winner else ""
        console.print("")
        console.print(f"side {number}: {side.value_text}{converted}{won}")
        console.print(
            f"  claim {side.claim.id}, extraction confidence {side.claim.confidence:.2f}"
        )
        console.print(
            f'  source "{side.source_name}" ({side.source_id}) v{side.version_number} '
            f"({side.version_id}), tier {side.authority_tier or '(none)'}{gone}, "
            f"{side.access_text}"
        )
        console.print(
            f"  source effective: {side.source_effective}; claim time: {side.time_text}; "
            f"scope: {side.scope_text}"
        )
        if side.policy_note:
            console.print(f"  policy: {side.policy_note}")
        if side.taught_note:
            console.print(f"  key: {side.taught_note}", markup=False)
        if side.claim.locator is not None:
            console.print(f"  where: {side.claim.locator.describe()}")
        console.print(f'  "{side.quote}"')
        if side.lookalike_note:
            console.print(f"  note: {side.lookalike_note}")
    if view.resolution:
        _print_decision(view)


def _print_decision(view: ItemView) -> None:
    r = view.resolution
    assert r is not None
    console.print("")
    console.print(
        f"{view.explanation.decision or r.outcome.value} at {r.decided_at:%Y-%m-%d %H:%M} UTC"
    )
    for side in view.winners:
        console.print(f'  winner: {side.source_name} ({side.claim.id}): "{side.quote}"')
    if r.dismiss_reason:
        console.print(f"  reason: {r.dismiss_reason.value}")
    console.print(f"  resolution confidence: {view.resolution_confidence_text}")
    console.print(f"  rationale: {r.rationale}")


@review_app.command("show")
def show(item_id: str = typer.Argument(...), as_json: bool = JSON_OPTION) -> None:
    """One item: every side's quote, source, version, tier, scope, time, value; its decision."""
    from review.evidence import item_view

    with transaction(engine()) as session:
        view = item_view(session, item_id, with_history=as_json)
    if as_json:
        print(json.dumps(view.as_dict(), indent=2, default=str))
    else:
        _print_view(view)


@review_app.command("claim")
def claim(
    item_id: str = typer.Argument(...),
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Take the item (a lock for the policy's lock_minutes); renews your own lock."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        item = queue.claim(session, item_id, reviewer, expected_revision=revision)
    console.print(f"claimed {item.id} until {item.lock_expires_at:%Y-%m-%d %H:%M} UTC")


@review_app.command("release")
def release(
    item_id: str = typer.Argument(...),
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Give a claimed item back to the queue."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        queue.release(session, item_id, reviewer, expected_revision=revision)
    console.print(f"released {item_id}")


@review_app.command("resolve")
def resolve(
    item_id: str = typer.Argument(...),
    winner: list[str] = typer.Option(..., "--winner", help="Winning claim id (repeatable)."),
    rationale: str = typer.Option(..., "--rationale", help="Why this side wins (required)."),
    evidence: list[str] = typer.Option(
        None, "--evidence", help="Claim, source version or source id cited (repeatable)."
    ),
    confidence: float | None = CONFIDENCE_OPTION,
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Decide the item: WINNER claims win; the others stay stored as losing evidence."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        resolution = queue.resolve(
            session,
            item_id,
            reviewer,
            winners=winner,
            rationale=rationale,
            evidence=evidence or [],
            expected_revision=revision,
            confidence=confidence,
        )
    console.print(
        f"resolved {item_id}: winners {', '.join(resolution.winner_claim_ids)} "
        f"(policy {resolution.policy_version})"
    )


@review_app.command("dismiss")
def dismiss(
    item_id: str = typer.Argument(...),
    reason: DismissReason = typer.Option(..., "--reason", help="Why it is not a conflict."),
    rationale: str = typer.Option(..., "--rationale", help="Explain it (required)."),
    confidence: float | None = CONFIDENCE_OPTION,
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Not a conflict: different scope, different time, different definition, extraction error."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        queue.dismiss(
            session,
            item_id,
            reviewer,
            reason=reason,
            rationale=rationale,
            expected_revision=revision,
            confidence=confidence,
        )
    console.print(f"dismissed {item_id} ({reason.value})")


@review_app.command("ambiguous")
def ambiguous(
    item_id: str = typer.Argument(...),
    rationale: str = typer.Option(..., "--rationale", help="Why no side can win (required)."),
    confidence: float | None = CONFIDENCE_OPTION,
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """A real conflict nobody can decide from the evidence: it stays visible as ambiguous."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        queue.mark_ambiguous(
            session,
            item_id,
            reviewer,
            rationale=rationale,
            expected_revision=revision,
            confidence=confidence,
        )
    console.print(f"marked {item_id} ambiguous")


@review_app.command("defer")
def defer(
    item_id: str = typer.Argument(...),
    until: str = typer.Option(..., "--until", help="Date it comes back, YYYY-MM-DD."),
    rationale: str = typer.Option("", "--rationale", help="Why it waits."),
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Put the item aside until a date; it returns to the open queue then."""
    try:
        day = date.fromisoformat(until)
    except ValueError:
        raise InputError(f"--until: {until!r} is not a date; use YYYY-MM-DD") from None
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        queue.defer(
            session, item_id, reviewer, until=day, rationale=rationale, expected_revision=revision
        )
    console.print(f"deferred {item_id} until {day}")


@review_app.command("reopen")
def reopen(
    item_id: str = typer.Argument(...),
    reason: str = typer.Option("reopened by a reviewer", "--reason", help="Why."),
    as_user: str | None = AS_OPTION,
    revision: int | None = REVISION_OPTION,
) -> None:
    """Send a decided or deferred item back to the queue; its resolution is kept, superseded."""
    reviewer = _reviewer(as_user)
    with transaction(engine()) as session:
        queue.reopen_by_reviewer(
            session, item_id, reviewer, reason=reason, expected_revision=revision
        )
    console.print(f"reopened {item_id}")


@review_app.command("history")
def history(item_id: str = typer.Argument(...), as_json: bool = JSON_OPTION) -> None:
    """The item's audit trail: who did what, when, before and after."""
    from review.evidence import item_view

    with transaction(engine()) as session:
        view = item_view(session, item_id)
    if as_json:
        print(json.dumps([e.model_dump(mode="json") for e in view.history], indent=2))
        return
    for event in view.history:
        before = (event.before or {}).get("state", "-")
        after = event.after or {}
        state = after.get("state", after.get("outcome", "-"))
        notes = [str(after[k]) for k in ("reason", "rationale") if after.get(k)]
        extra = "".join(f"  ({note})" for note in notes)
        console.print(
            f"{event.at:%Y-%m-%d %H:%M:%S}  {event.actor:<20} {event.action:<22} "
            f"{before} -> {state}  policy {event.policy_version or '-'}{extra}"
        )


@review_app.command("route")
def route_conflicts(as_json: bool = JSON_OPTION) -> None:
    """Route conflict edges under the active policy (what the review_queue asset does)."""
    with transaction(engine()) as session:
        report = route(session, active_policy(session))
    if as_json:
        print(json.dumps(report.as_metadata(), indent=2))
        return
    console.print(
        f"{report.conflict_sets} conflict sets from {report.conflict_edges} conflict edges: "
        f"{len(report.opened)} opened, {len(report.auto_resolved)} auto-resolved, "
        f"{len(report.grown)} grown, {len(report.reopened)} reopened"
    )
    for item_id, reason in report.reopened.items():
        console.print(f"  reopened {item_id}: {reason}")
    for item_id in report.orphaned:
        console.print(f"  closed {item_id}: evidence changed (no live conflict edge any more)")


@review_app.command("hash-password")
def hash_password_command(
    password: str | None = typer.Option(
        None,
        "--password",
        help="Hash this instead of asking (it then stays in your shell history; "
        "leave it out to be asked twice, hidden).",
        show_default=False,
    ),
) -> None:
    """Ask for a password (twice, hidden) and print its scrypt hash for the reviewers file.

    Put the printed line under the reviewer as `password_hash: "scrypt$..."`
    (README, section Review).
    """
    if password is None:
        # Prompts go to stderr, so `... > hash.txt` captures the hash alone.
        password = typer.prompt("Password", hide_input=True, confirmation_prompt=True, err=True)
    print(hash_password(password))


# ``claims review synonyms ...`` (its module adds the group to review_app)
from claimledger.cli import synonyms as _synonyms  # noqa: E402,F401
