"""``claims sources``: what the store holds, per source: versions, tier, groups, supersedes."""

from __future__ import annotations

import json

import typer
from rich.markup import escape

from claimledger.cli.app import app, console, engine
from claims.sources import source_listing
from claims.store import transaction

sources_app = typer.Typer(help="Inspect stored sources and their versions.", no_args_is_help=True)
app.add_typer(sources_app, name="sources")


@sources_app.command("list")
def list_sources(
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """List every source with its versions, authority tier, access groups and supersedes."""
    store = engine()
    try:
        with transaction(store) as session:
            listing = source_listing(session)
    finally:
        store.dispose()
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
        if not item["versions"]:
            console.print("  (no versions yet: named by the register only)")
    console.print(f"{len(listing)} sources, {sum(len(i['versions']) for i in listing)} versions")
