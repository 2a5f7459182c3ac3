"""``claims status``: conflict status of a claim, a source (version, passage) or a claim key."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from claimledger.cli.app import app, console, empty_store_note, engine
from claimledger.cli.ask import confidences
from claimledger.cli.requesters import as_of_options, requester_named
from claims.errors import InputError, NotFoundError

if TYPE_CHECKING:  # the retrieval layer loads with the command, not with every `claims` call
    from retrieval.contract import StatusReport


def _span(raw: str | None) -> tuple[int, int] | None:
    if raw is None:
        return None
    start, sep, end = raw.partition(":")
    if not sep or not start.isdigit() or not end.isdigit():
        raise InputError(f"--span must look like START:END (character offsets), got {raw!r}")
    return int(start), int(end)


@app.command("status")
def status(
    claim: str | None = typer.Option(None, "--claim", help="A claim id."),
    source: str | None = typer.Option(None, "--source", help="A source id."),
    key: str | None = typer.Option(None, "--key", help="A claim key, e.g. 'output limit'."),
    version: int | None = typer.Option(None, "--version", help="Source version number."),
    span: str | None = typer.Option(None, "--span", help="Passage START:END of the source."),
    principal: str | None = typer.Option(None, "--as", help="Principal of the access file."),
    as_json: bool = typer.Option(False, "--json", help="Print the status report as JSON."),
    effective: str | None = typer.Option(None, help="Status at this date (YYYY-MM-DD)."),
    known_at: str | None = typer.Option(None, "--known-at", help="Status as known then (ISO)."),
) -> None:
    """Conflict status: none, contested, under_review, resolved, superseded or ambiguous.

    Hidden and missing things both answer "not found" (exit 3).
    """
    from retrieval.signals import status_with_provenance
    from retrieval.status import status_of_claim, status_of_key, status_of_source

    chosen = [name for name, value in (("--claim", claim), ("--source", source), ("--key", key))]
    given = [name for name, value in zip(chosen, (claim, source, key), strict=True) if value]
    if len(given) != 1:
        raise InputError("give exactly one of --claim, --source, --key")
    if (version is not None or span is not None) and not source:
        raise InputError("--version and --span go with --source")
    requester = requester_named(principal)
    as_of = as_of_options(effective, known_at)
    store = engine()
    try:
        note = empty_store_note(store)
        if note:
            raise NotFoundError(note)
        if claim:
            report = status_of_claim(store, claim, requester, as_of)
        elif key:  # read with the three confidences
            report = status_of_key(store, key, requester, as_of, provenance=True)
        else:
            report = status_of_source(
                store, source or "", requester, version=version, span=_span(span), as_of=as_of
            )
        if not key:
            with store.connect() as conn:  # the three confidences, kept apart
                report = status_with_provenance(conn, report)
    finally:
        store.dispose()
    if as_json:
        print(report.model_dump_json(indent=2))
        return
    show_report(report)


def show_report(report: StatusReport) -> None:
    target = report.target
    where = f"{target.kind.value} {target.id}"
    if target.version is not None:
        where += f" v{target.version}"
    if target.span is not None:
        where += f" [{target.span.start}:{target.span.end}]"
    console.print(f"{escape(where)}: [bold]{report.status.value}[/]", markup=True)
    if report.superseded_by is not None:
        by = report.superseded_by
        console.print(f"superseded by {by.source_id} v{by.version} ({by.origin})", markup=False)
    if report.policy_version:
        console.print(f"policy version: {report.policy_version}", markup=False)
    for item in report.claims:
        unit = f" {item.unit}" if item.unit else ""
        console.print(
            f"- {item.claim_id} [{item.claim_key}] {item.value}{unit}: {item.status.value}",
            markup=False,
        )
        console.print(f"    {confidences(item.citation)}", markup=False)
        if item.resolution is not None:
            stated = item.resolution.confidence
            console.print(
                "    resolution confidence "
                + (f"{stated:.2f}" if stated is not None else "not stated"),
                markup=False,
            )
        for number, side in enumerate(item.sides, start=1):
            sources = ", ".join(side.source_ids)
            if side.source_count > len(side.source_ids):  # a status by key names a page
                sources += f" and {side.source_count - len(side.source_ids)} more"
            unit = f" {side.unit}" if side.unit else ""
            console.print(f"    side {number}: {side.value}{unit} ({sources})", markup=False)
