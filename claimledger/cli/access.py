"""``claims access``: bearer tokens for the retrieval API (only their sha256 is stored)."""

from __future__ import annotations

import typer

from claimledger.cli.app import app, console, settings

access_app = typer.Typer(help="Principals and bearer tokens of the retrieval API.")
app.add_typer(access_app, name="access")


@access_app.command("token")
def token(principal: str = typer.Argument(..., help="Principal the token stands for.")) -> None:
    """Print a new random token once, and the line to add to the access file."""
    from retrieval.access import new_token

    value, digest = new_token()
    console.print(f"token (shown once, give it to {principal}): {value}", markup=False)
    console.print(f"add under principals.{principal}.tokens_sha256 in", markup=False)
    console.print(f"{settings().resolved_access_file}:\n  - {digest}", markup=False)
