"""``claims review synonyms``: list, teach and withdraw the synonyms reviewers taught.

A teaching says two attributes are one thing (``add heft weight``) or two
(``add holiday vacation --different``); it re-keys the claims at once, re-evaluates their
edges, routes their conflicts and prints what changed (kept in the audit log). Who may
teach: whoever may apply a policy (``--as`` a reviewer of the reviewers file, or ``admin``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import typer

from claimledger.cli.actors import as_option, in_one_transaction, policy_actor
from claimledger.cli.app import console, engine
from claimledger.cli.review import review_app
from claims.store import transaction

if TYPE_CHECKING:
    from review.synonyms import SynonymImpact

synonyms_app = typer.Typer(
    help="Synonyms reviewers taught: two attributes are one thing, or two.", no_args_is_help=True
)
review_app.add_typer(synonyms_app, name="synonyms")

AS_OPTION = as_option("Who teaches")
REASON_OPTION = typer.Option(..., "--reason", help="Why (kept with it and in the audit log).")
DRY_RUN_OPTION = typer.Option(False, "--dry-run", help="Show what it would change; write nothing.")
JSON_OPTION = typer.Option(False, "--json", help="Print JSON.")


@synonyms_app.command("list")
def list_synonyms(
    all_of_them: bool = typer.Option(False, "--all", help="Withdrawn ones too."),
    as_json: bool = JSON_OPTION,
) -> None:
    """The taught synonyms, newest first: who taught what, when and why."""
    from claims.store.taught_synonyms import TaughtSynonymRepository
    from review.synonyms import describe, synonym_as_dict

    with transaction(engine()) as session:
        rows = TaughtSynonymRepository(session).listed(withdrawn=all_of_them)
        listed = [synonym_as_dict(r) for r in rows]
        words = [describe(r) for r in rows]
    if as_json:
        print(json.dumps(listed, indent=2))
        return
    if not listed:
        console.print("no taught synonyms: `claims review synonyms add WORD OTHER --reason ...`")
    for entry, said in zip(listed, words, strict=True):
        gone = (
            f"  WITHDRAWN by {entry['withdrawn_by']} {entry['withdrawn_at'][:10]}: "
            f"{entry['withdraw_reason']}"
            if entry["withdrawn_at"]
            else ""
        )
        console.print(
            f"#{entry['id']}  {said}  by {entry['taught_by']} {entry['taught_at'][:10]}: "
            f"{entry['reason']}{gone}",
            markup=False,
            highlight=False,
        )


@synonyms_app.command("add")
def add(
    left: str = typer.Argument(..., help="A word or phrase as documents write it ('heft')."),
    right: str = typer.Argument(..., help="The other ('weight')."),
    different: bool = typer.Option(
        False, "--different", help="They are two things (their claims must not pair)."
    ),
    reason: str = REASON_OPTION,
    as_user: str | None = AS_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Teach that LEFT and RIGHT name one attribute (or two, with --different).

    Applied at once: keys merge or split, edges and review items follow."""
    from claims.synonyms import DIFFERENT, SAME
    from review.synonyms import describe, teach

    actor = policy_actor(as_user)
    relation = DIFFERENT if different else SAME

    def run(session: Any) -> tuple[str, SynonymImpact]:
        row, impact = teach(
            session, left, right, relation=relation, reason=reason, actor=actor, record=not dry_run
        )
        return f"#{row.id} {describe(row)}", impact

    said, impact = in_one_transaction(run, dry_run)
    _report("would teach" if dry_run else "taught", said, impact, as_json)


@synonyms_app.command("withdraw")
def withdraw_command(
    synonym_id: int = typer.Argument(..., help="The number `list` shows."),
    reason: str = REASON_OPTION,
    as_user: str | None = AS_OPTION,
    dry_run: bool = DRY_RUN_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Withdraw a taught synonym: its claims get their earlier keys back.

    Edges and review items follow; the teaching stays listed with --all, as withdrawn."""
    from review.synonyms import describe, withdraw

    actor = policy_actor(as_user)

    def run(session: Any) -> tuple[str, SynonymImpact]:
        row, impact = withdraw(session, synonym_id, reason=reason, actor=actor, record=not dry_run)
        return f"#{row.id} {describe(row)}", impact

    said, impact = in_one_transaction(run, dry_run)
    _report("would withdraw" if dry_run else "withdrew", said, impact, as_json)


def _report(head: str, said: str, impact: SynonymImpact, as_json: bool) -> None:
    from review.policy_impact import ItemChange
    from review.synonyms import SYNONYM_CHANGE_TITLES

    if as_json:
        print(json.dumps({"synonym": said, **impact.as_dict()}, indent=2, default=str))
        return
    console.print(f"{head} {said}", markup=False, highlight=False)
    for key in impact.keys:
        console.print(
            f"  key {key['change']}: {key['from_key']} -> {key['to_key']} ({key['claims']} claims)",
            markup=False,
            highlight=False,
        )
    if not impact.keys:
        console.print("  no stored claim changes key (claims written later will)")
    console.print(
        "  edges added: "
        + _counts(impact.edges_added)
        + "; removed: "
        + _counts(impact.edges_removed)
    )
    for change in impact.items:
        assert isinstance(change, ItemChange)
        console.print(
            f"  {SYNONYM_CHANGE_TITLES[change.kind]}: {change.item_id} {change.claim_key}: "
            f"{(change.before or {}).get('state', '(new)')} -> {change.after['state']}",
            markup=False,
            highlight=False,
        )
    if impact.dry_run:
        console.print("dry run: nothing was written")


def _counts(by_kind: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in by_kind.items()) or "none"
