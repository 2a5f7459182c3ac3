"""``claims sources``: what the store holds, per source: versions, tier, groups, supersedes."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager

import typer
from rich.markup import escape

from claimledger.cli.app import app, console, engine, err_console
from claimledger.cli.policy import _actor as audit_actor
from claims.retention import erase, erased_versions, readmit
from claims.store import transaction
from claims.store.locks import run_lock

sources_app = typer.Typer(
    help="Inspect stored sources and their versions; erase a source on request.",
    no_args_is_help=True,
)
AS_OPTION = typer.Option(
    None,
    "--as",
    help="Who does it: a reviewer of the reviewers file, or `admin` (the operator at this "
    "terminal, recorded with the OS account). Default CLAIMS_REVIEWER, then admin.",
)
app.add_typer(sources_app, name="sources")


@sources_app.command("list")
def list_sources(
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List every source with its versions, authority tier, access groups and supersedes."""
    from claims.sources import source_listing

    store = engine()
    try:
        with transaction(store) as session:
            listing = source_listing(session)
            erased: dict[str, list[str]] = {}
            for version in erased_versions(session):
                erased.setdefault(version.source_id, []).append(version.erased_at.isoformat())
    finally:
        store.dispose()
    for item in listing:
        # when it was erased (one time per erased version), none when it is not
        item["erased_at"] = sorted(set(erased.get(item["id"], [])))
    if as_json:
        print(json.dumps(listing, indent=2, ensure_ascii=False))
        return
    if not listing:
        console.print("no sources yet; add some with `claims ingest PATH`")
        return
    # One block per source, never truncated (ids are long and terminals narrow); ids,
    # titles and group names are data: escaped in the one styled line, plain elsewhere (the
    # console reads no markup unless asked).
    for item in listing:
        groups = ", ".join(item["access_groups"]) or "public"
        head = f"[bold]{escape(item['id'])}[/]  tier={escape(item['tier'] or '-')}"
        head += f"  groups={escape(groups)}"
        if item["withdrawn"]:
            head += "  [red]withdrawn[/]"
        console.print(head, markup=True)
        if item["title"]:
            console.print(f"  title      {item['title']}")
        if item["effective_from"] or item["effective_to"]:
            console.print(
                f"  effective  {item['effective_from'] or '…'} to {item['effective_to'] or '…'}"
            )
        for ref in item["supersedes"]:
            line = f"  supersedes {ref['source_id']}"
            if ref["version"]:
                line += f" v{ref['version']}"
            if ref["effective_from"]:
                line += f" from {ref['effective_from']}"
            console.print(line)
        for v in item["versions"]:
            ingested = v["ingested_at"][:19].replace("T", " ")
            console.print(f"  v{v['number']:<9} {v['sha256'][:12]}  {ingested} UTC")
        if item["erased_at"]:
            console.print(
                f"  erased     {item['erased_at'][-1][:19].replace('T', ' ')} UTC; a run skips "
                f"its file until `claims sources readmit {item['id']} --reason TEXT`"
            )
        elif not item["versions"]:
            console.print("  (no versions yet: named by the register only)")
    console.print(f"{len(listing)} sources, {sum(len(i['versions']) for i in listing)} versions")


def _progress(line: str) -> None:
    """One step of an erasure, on stderr (stdout is the result, or JSON)."""
    err_console.print(f"erasing: {line}", markup=False, highlight=False)


@sources_app.command("erase")
def erase_source(
    source: str = typer.Argument(..., help="The source id (`claims sources list` shows them)."),
    reason: str = typer.Option(..., "--reason", help="Why (a data-subject or legal request)."),
    actor: str | None = AS_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print what was erased as JSON."),
) -> None:
    """Erase a source's text, versions and claims, in one transaction (docs/DATA_MODEL.md,
    "Retention").

    Edges, value-group relations and review items that depended on its claims are retired or
    deleted, the affected answers are recomputed, and the audit log keeps a tombstone (who,
    when, why, affected resolutions, hashes of the erased versions; no text). A later run
    skips the same file until `claims sources readmit SOURCE`.
    """
    from retrieval.read_model import build_claim_status

    who = audit_actor(actor)
    store = engine()
    try:
        # not in the middle of a run: it could be extracting the very version being erased
        with _no_run(), transaction(store) as session:
            # the steps on stderr for a person; --json is for scripts: the result alone
            steps = None if as_json else _progress
            erasure = erase(session, source, reason=reason, actor=who, progress=steps)
            # the read model of the affected keys, now rather than at the next run
            build_claim_status(session.connection(), erasure.claim_keys)
        if store.dialect.name == "sqlite":
            # the write-ahead log still holds the pages as they were before: empty it now
            with store.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        store.dispose()
    if as_json:
        print(json.dumps(erasure.to_dict(), indent=2, ensure_ascii=False))
        return
    versions = ", ".join(f"v{v['number']} {v['sha256'][:12]}" for v in erasure.versions)
    print(f"erased source {source}: {len(erasure.versions)} versions ({versions})")
    print(
        f"  {erasure.claims} claims, {erasure.edges_deleted} edges, "
        f"{erasure.memberships_deleted} value-group memberships removed; "
        f"{erasure.relations_retired} value-group relations retired, "
        f"{erasure.relations_deleted} deleted"
    )
    print(
        f"  {len(erasure.review_items)} review items and {len(erasure.resolutions)} resolutions "
        f"removed; {len(erasure.claim_keys)} claim keys recomputed"
    )
    print(f"  tombstone: audit event {erasure.audit_id} by {who}")
    print(f"  a run skips this file until `claims sources readmit {source} --reason TEXT`")


def _no_run() -> AbstractContextManager[None]:
    """The store's run lock: waits for a `claims run` on this store to finish."""
    from claimledger.cli.run import _absolute_database_url

    return run_lock(
        _absolute_database_url(),
        on_wait=lambda message: err_console.print(f"note: {message}; waiting for it"),
    )


@sources_app.command("readmit")
def readmit_source(
    source: str = typer.Argument(..., help="An erased source id."),
    reason: str = typer.Option(..., "--reason", help="Why it may be ingested again."),
    actor: str | None = AS_OPTION,
) -> None:
    """Let an erased source's files be ingested again (the next run or ingest stores them)."""
    who = audit_actor(actor)
    store = engine()
    try:
        with transaction(store) as session:
            hashes = readmit(session, source, reason=reason, actor=who)
    finally:
        store.dispose()
    print(
        f"readmitted source {source}: {len(hashes)} erased versions may be ingested again "
        "by the next `claims run` or `claims ingest`"
    )
