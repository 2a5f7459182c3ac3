"""``claims audit``: check that the audit log is whole (hash chain, triggers, anchors) and
keep checkpoints of its head to export elsewhere."""

from __future__ import annotations

import json
import re

import typer

from claimledger.cli.app import app, console, engine
from claims.errors import InputError

audit_app = typer.Typer(help="The append-only audit log.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")
_HASH = re.compile(r"[0-9a-f]{64}")


@audit_app.command("verify")
def verify(
    expect: str | None = typer.Option(
        None,
        "--expect",
        help="A head hash kept elsewhere (an earlier verify's head_hash, or a checkpoint's): "
        "the chain must pass through it.",
    ),
    expect_rows: int | None = typer.Option(
        None,
        "--expect-rows",
        min=0,
        help="The row count that head was taken at: the hash must be exactly that row's; "
        "alone, the log must hold at least that many rows.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Walk the hash chain of every audit row, check the append-only triggers and every
    checkpoint, and print the row count and head hash (keep them elsewhere).

    Exits 1 when a row was edited, a row is missing or was replaced, a trigger is not
    exactly the one the migrations created, or the chain no longer passes through a
    checkpoint or the --expect head; 0 when the log is whole.
    """
    from review.audit import ExpectedHead
    from review.audit import verify as verify_chain

    expected = None
    if expect is not None or expect_rows is not None:
        head = expect.strip().lower() if expect is not None else None
        if head is not None and not _HASH.fullmatch(head):
            raise InputError(
                "--expect: a head hash is 64 hexadecimal characters (the head_hash an earlier "
                "`claims audit verify --json` or `claims audit checkpoints --json` printed)"
            )
        expected = ExpectedHead(head, expect_rows)
    store = engine()
    try:
        with store.connect() as conn:
            report = verify_chain(conn, expect=expected)
    finally:
        store.dispose()
    if as_json:
        console.print(json.dumps(report.as_dict(), indent=2), markup=False, highlight=False)
    else:
        for problem in report.problems:
            console.print(f"audit log: {problem}", markup=False, highlight=False)
        if report.more_problems:
            console.print(f"audit log: ... and {report.more_problems} more", markup=False)
        verdict = "intact" if report.ok else "TAMPERED"
        console.print(
            f"audit log {verdict}: {report.rows} rows checked, head {report.head_hash}, "
            f"{report.checkpoints} checkpoint(s) checked",
            markup=False,
        )
    if not report.ok:
        raise typer.Exit(1)


@audit_app.command("checkpoint")
def checkpoint(as_json: bool = typer.Option(False, "--json", help="Print it as JSON.")) -> None:
    """Record the chain's row count and head hash now (export them with `checkpoints`)."""
    from claims.store import transaction
    from review.audit_checkpoints import write

    store = engine()
    try:
        with transaction(store) as session:
            point = write(session, by="claims audit checkpoint")
    finally:
        store.dispose()
    if as_json:
        console.print(json.dumps(point.as_dict(), indent=2), markup=False, highlight=False)
    else:
        console.print(f"checkpoint: {point.rows} rows, head {point.head_hash}", markup=False)


@audit_app.command("checkpoints")
def checkpoints(as_json: bool = typer.Option(False, "--json", help="Print them as JSON.")) -> None:
    """Every stored checkpoint, oldest first: copy them somewhere the store's writers cannot
    reach, and give one to `claims audit verify --expect HASH --expect-rows N` later."""
    from review.audit_checkpoints import all_checkpoints

    store = engine()
    try:
        with store.connect() as conn:
            points = all_checkpoints(conn)
    finally:
        store.dispose()
    if as_json:
        payload = [p.as_dict() for p in points]
        console.print(json.dumps(payload, indent=2), markup=False, highlight=False)
        return
    for point in points:
        console.print(
            f"{point.as_dict()['at']}\t{point.rows}\t{point.head_hash}\t{point.written_by}",
            markup=False,
        )
