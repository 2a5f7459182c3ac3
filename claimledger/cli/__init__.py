"""The ``claims`` command. Each command group lives in its own module and is registered here."""

from __future__ import annotations

import sys

from claimledger.cli import check as _check  # noqa: F401  (registers commands)
from claimledger.cli import conflicts as _conflicts  # noqa: F401
from claimledger.cli import db as _db  # noqa: F401
from claimledger.cli import extract as _extract  # noqa: F401
from claimledger.cli import schema as _schema  # noqa: F401
from claimledger.cli.app import app
from claims.errors import ClaimLedgerError


def main() -> None:
    """Entry point: runs the app and maps domain errors to a message and an exit code once."""
    try:
        app(standalone_mode=False)
    except ClaimLedgerError as error:
        from claimledger.cli.app import err_console

        err_console.print(f"[bold red]error:[/] {error}", markup=True, highlight=False)
        sys.exit(error.exit_code)
    except SystemExit:
        raise
    except Exception as error:  # click's own usage errors arrive here in non-standalone mode
        import click

        if isinstance(error, click.exceptions.ClickException):
            error.show()
            sys.exit(error.exit_code)
        if isinstance(error, click.exceptions.Abort):
            sys.exit(130)
        raise


__all__ = ["app", "main"]
