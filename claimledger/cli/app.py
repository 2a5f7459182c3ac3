"""The root Typer app and shared CLI plumbing (consoles, settings, engine)."""

from __future__ import annotations

from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from sqlalchemy import Engine

from claimledger.cli.safe_text import strip_terminal_controls
from claims.settings import Settings, get_settings
from claims.store.engine import make_engine

app = typer.Typer(
    name="claims",
    help="claimledger: find, review and serve contradictions in versioned documents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


class SafeConsole(Console):
    """A console for document text: no markup unless a call asks (``markup=True``, data
    escaped), no emoji codes, and terminal control sequences stripped from every string it
    renders, table cells included (claimledger/cli/safe_text.py)."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(strip_terminal_controls(text), **options)


console = SafeConsole(highlight=False, soft_wrap=True, markup=False, emoji=False)
err_console = SafeConsole(
    stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False
)


def settings() -> Settings:
    return get_settings()


def engine() -> Engine:
    """An engine on the configured store (migrated to head first, so every command just works)."""
    from claims.store.migrate import upgrade

    url = settings().resolved_database_url
    upgrade(url)
    return make_engine(url)
