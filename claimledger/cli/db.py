"""``claims db``: migrate the claim store."""

from __future__ import annotations

import typer

from claimledger.cli.app import app, console, engine, settings
from claims.store import migrate, transaction
from claims.store.search import rebuild_search_index

db_app = typer.Typer(help="Create or migrate the claim store.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("upgrade")
def upgrade(revision: str = typer.Argument("head", help="Target revision.")) -> None:
    """Migrate the store up to REVISION (default: head)."""
    url = settings().resolved_database_url
    note = migrate.upgrade(url, revision)
    if note:
        console.print(note)
    console.print(f"database at revision {migrate.current_revision(url)}")


@db_app.command("downgrade")
def downgrade(revision: str = typer.Argument("base", help="Target revision.")) -> None:
    """Migrate the store down to REVISION (default: base, which drops every table)."""
    url = settings().resolved_database_url
    migrate.downgrade(url, revision)
    console.print(f"database at revision {migrate.current_revision(url) or 'base'}")


@db_app.command("current")
def current() -> None:
    """Print the store's current revision."""
    console.print(migrate.current_revision(settings().resolved_database_url) or "base")


@db_app.command("reindex")
def reindex() -> None:
    """Rebuild the full-text index over claim quotes (on SQLite, after a VACUUM)."""
    store = engine()
    try:
        with transaction(store) as session:
            rebuild_search_index(session)
    finally:
        store.dispose()
    console.print("full-text index over claim quotes rebuilt")
