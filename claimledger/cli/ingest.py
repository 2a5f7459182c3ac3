"""``claims ingest``: files and directories become versioned sources; the register is applied."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from sqlalchemy.exc import IntegrityError

from claimledger.cli.app import app, console, engine, err_console, settings
from claims.documents.converters import SUFFIXES
from claims.errors import ConcurrencyError, InputError
from claims.ingest import IngestReport, ingest, rejection_error, scan_sources
from claims.register import load_register
from claims.store import transaction


@app.command("ingest")
def ingest_command(
    paths: list[Path] = typer.Argument(
        None, help="Files and directories (.txt, .md). May be omitted with --register."
    ),
    register_file: Path | None = typer.Option(
        None,
        "--register",
        "-r",
        help="Source register (YAML) to apply; default $CLAIMS_REGISTER_FILE.",
    ),
    keep_going: bool = typer.Option(
        False,
        "--keep-going",
        "-k",
        help="Ingest the valid files even if some are bad; still exits non-zero if any is.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Store new versions of the given files (same bytes again: nothing happens).

    The whole command is one transaction: on any error nothing is written, unless
    --keep-going is given, in which case the valid files are stored and every bad one is
    reported. A bad register always stops the command.
    """
    register_path = register_file or settings().register_file
    if not paths and register_path is None:
        raise InputError("name files or directories to ingest, or a register with --register")
    register = load_register(register_path) if register_path is not None else None
    scan = scan_sources(paths or [], register, max_source_bytes=settings().max_source_bytes)
    if not keep_going:
        scan.raise_for_rejected()
    store = engine()
    try:
        with transaction(store) as session:
            report = ingest(
                session, scan.files, register, rejected=scan.rejected, not_read=scan.not_read
            )
    except IntegrityError:
        # Two ingests added a version of the same source at once; ours was rolled back whole.
        raise ConcurrencyError(
            "another command stored versions of the same sources at the same time; nothing "
            "was written by this one. Run it again (ingest is idempotent)"
        ) from None
    finally:
        store.dispose()
    _print(report, as_json)
    error = rejection_error(report)
    if error is not None:
        raise error
    if report.not_read and not report.files and not report.erased:
        raise InputError(
            f"none of the {len(report.not_read)} file(s) found is of a type claims reads "
            f"({', '.join(SUFFIXES)}); save them in one of these formats"
        )


def _print(report: IngestReport, as_json: bool) -> None:
    # Source ids and paths come from file names: the console reads no markup (app.py).
    if as_json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    for message in report.erased:
        err_console.print(f"skipped: {message}")
    for path in report.not_read:
        err_console.print(f"not read   {path}: not a type claims reads")
    for item in report.files:
        if item.created:
            console.print(f"new        {item.source_id} v{item.number} ({item.sha256[:12]})")
        elif item.matches_older_version:
            err_console.print(
                f"warning: {item.path} has the bytes of {item.source_id} "
                f"v{item.number}, not of "
                f"its newest version v{item.latest_number}; nothing stored (versions are never "
                "reordered)"
            )
    console.print(f"ingested   {report.summary()}")
