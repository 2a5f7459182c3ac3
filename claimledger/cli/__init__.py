"""The ``claims`` command. Each command group lives in its own module and is registered here."""

from __future__ import annotations

import gc
import sys

from claimledger.cli import access as _access  # noqa: F401  (registers commands)
from claimledger.cli import ask as _ask  # noqa: F401
from claimledger.cli import audit as _audit  # noqa: F401  (registers commands)
from claimledger.cli import check as _check  # noqa: F401  (registers commands)
from claimledger.cli import conflicts as _conflicts  # noqa: F401
from claimledger.cli import db as _db  # noqa: F401
from claimledger.cli import extract as _extract  # noqa: F401
from claimledger.cli import ingest as _ingest  # noqa: F401
from claimledger.cli import metrics as _metrics  # noqa: F401
from claimledger.cli import policy as _policy  # noqa: F401
from claimledger.cli import review as _review  # noqa: F401
from claimledger.cli import run as _run  # noqa: F401
from claimledger.cli import schema as _schema  # noqa: F401
from claimledger.cli import serve as _serve  # noqa: F401
from claimledger.cli import sources as _sources  # noqa: F401
from claimledger.cli import status as _status  # noqa: F401
from claimledger.cli.app import app
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
    finally:
        if _owns_process():
            # The process ends here. Python's exit runs the cyclic collector over all that
            # is still alive (Dagster's, spaCy's and SQLAlchemy's objects, a run's claims):
            # 1-2 s of CPU after a `claims run`. Frozen objects are skipped; their memory
            # goes back with the process (docs/PIPELINE.md, "Session 8").
            gc.freeze()


def _owns_process() -> bool:
    """Whether ``main`` is the program's entry point (the ``claims`` script and
    ``python -m claimledger`` import it into ``__main__``), so the interpreter exits right
    after it; a test runner or another program calling it goes on and keeps its collector."""
    return getattr(sys.modules.get("__main__"), "main", None) is main


__all__ = ["app", "main"]
