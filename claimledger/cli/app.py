"""The root Typer app and shared CLI plumbing (consoles, settings, engine)."""

from __future__ import annotations

import typer
from rich.console import Console
from sqlalchemy import Engine

from claims.settings import Settings, get_settings
from claims.store.engine import make_engine

app = typer.Typer(
    name="claims",
    help="claimledger: find, review and serve contradictions in versioned documents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console(highlight=False, soft_wrap=True)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def settings() -> Settings:
    return get_settings()


def engine() -> Engine:
    """An engine on the configured store (migrated to head first, so every command just works)."""
    from claims.store.migrate import upgrade

    url = settings().resolved_database_url
    upgrade(url)
    return make_engine(url)
