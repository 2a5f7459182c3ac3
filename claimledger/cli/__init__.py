"""The ``claims`` command. Each command group lives in its own module, imported when one of
its commands runs (claimledger/cli/lazy.py: ``COMMANDS`` names them)."""

from __future__ import annotations

import gc
import sys

from claimledger.cli.app import app, storage_full_error
from claimledger.cli.startup import owns_process
from claims.errors import ClaimLedgerError


def main() -> None:
    """Entry point: runs the app and maps domain errors to a message and an exit code once.

    Standalone mode lets Typer report usage errors (unknown option, missing argument) with
    its own message and exit code 2; domain errors are not Click errors, so they reach us.
    """
    try:
        app()
    except ClaimLedgerError as error:
        from rich.markup import escape

        from claimledger.cli.app import err_console

        # Messages quote file names and document text: escape them, never render as markup.
        err_console.print(f"[bold red]error:[/] {escape(str(error))}", markup=True, highlight=False)
        sys.exit(error.exit_code)
    except Exception as error:
        full = storage_full_error(error)
        if full is None:
            raise
        from claimledger.cli.app import err_console

        err_console.print(f"error: {full}", highlight=False)
        sys.exit(full.exit_code)
    finally:
        if owns_process():
            # The process ends here. Python's exit runs the cyclic collector over all that
            # is still alive (Dagster's, spaCy's and SQLAlchemy's objects, a run's claims):
            # 1-2 s of CPU after a `claims run`. Frozen objects are skipped; their memory
            # goes back with the process (docs/PIPELINE.md, "Session 8").
            gc.freeze()


__all__ = ["app", "main"]
