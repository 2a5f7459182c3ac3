"""``claims audit``: check that the audit log is whole (hash chain and append-only triggers)."""

from __future__ import annotations

import json

import typer

from claimledger.cli.app import app, console, engine

audit_app = typer.Typer(help="The append-only audit log.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def verify(as_json: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Walk the hash chain of every audit row and check the append-only triggers.

    Exits 1 when a row was edited, a row is missing or was replaced, or a trigger was
    dropped or disabled; 0 when the log is whole.
    """
    from review.audit import verify as verify_chain

    store = engine()
    try:
        with store.connect() as conn:
            report = verify_chain(conn)
    finally:
        store.dispose()
    if as_json:
        payload = {
            "ok": report.ok,
            "rows": report.rows,
            "problems": report.problems,
            "more_problems": report.more_problems,
        }
        console.print(json.dumps(payload, indent=2), markup=False, highlight=False)
    else:
        for problem in report.problems:
            console.print(f"audit log: {problem}", markup=False, highlight=False)
        if report.more_problems:
            console.print(f"audit log: ... and {report.more_problems} more", markup=False)
        verdict = "intact" if report.ok else "TAMPERED"
        console.print(f"audit log {verdict}: {report.rows} rows checked", markup=False)
    if not report.ok:
        raise typer.Exit(1)
