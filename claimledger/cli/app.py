"""The root Typer app and shared CLI plumbing (consoles, settings, engine)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text
from typer.core import TyperOption

from claimledger.cli.lazy import LazyCommandGroup
from claimledger.cli.safe_text import strip_terminal_controls

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from claims.errors import ClaimLedgerError
    from claims.settings import Settings

# The settings and the store are imported by the commands that use them (the settings
# bring pydantic, the store SQLAlchemy's ORM and both dialects): `claims --version`, `--help`
# and `claims extract` need neither.
app = typer.Typer(
    cls=LazyCommandGroup,
    name="claims",
    help="claimledger: find, review and serve contradictions in versioned documents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


_display_type_rich = TyperOption.display_type_rich


def _flag_display_type(self: TyperOption, ctx: Any) -> str | None:
    """Help shows a flag as a flag (``--json``), not as an option taking ``<bool>``."""
    return None if self.is_flag else _display_type_rich(self, ctx)


TyperOption.display_type_rich = _flag_display_type  # type: ignore[method-assign]


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("claimledger")
        except PackageNotFoundError:  # a source checkout run without installing
            number = "unknown (not installed)"
        print(f"claimledger {number}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the claimledger version and exit.",
    ),
) -> None:
    """claimledger: find, review and serve contradictions in versioned documents."""


class SafeConsole(Console):
    """A console for document text: no markup unless a call asks (``markup=True``, data
    escaped), no emoji codes, and terminal control sequences stripped from every string it
    renders, table cells included (claimledger/cli/safe_text.py)."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(strip_terminal_controls(text), **options)


console = SafeConsole(highlight=False, soft_wrap=True, markup=False, emoji=False)
err_console = SafeConsole(stderr=True, highlight=False, soft_wrap=True, markup=False, emoji=False)


def print_table(
    columns: list[str],
    rows: list[list[str]],
    *,
    title: str | None = None,
    show_header: bool = True,
) -> None:
    """A table drawn with boxes on a terminal; piped or redirected, plain tab-separated lines
    that `cut`, `awk` or a spreadsheet read (a header line first when the table has one, a
    cell's line breaks and tabs as " / " and a space), so no box characters reach a file."""
    if console.is_terminal:
        table = Table(title=title, show_header=show_header, title_justify="left")
        for column in columns:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return

    def cell(text: str) -> str:
        flat = " / ".join(part for part in text.splitlines() if part.strip())
        return strip_terminal_controls(flat.replace("\t", " "))

    if title:
        print(f"# {cell(title)}")
    if show_header:
        print("\t".join(cell(c) for c in columns))
    for row in rows:
        print("\t".join(cell(c) for c in row))


def settings() -> Settings:
    from claims.settings import get_settings

    return get_settings()


def engine() -> Engine:
    """An engine on the configured store (migrated to head first, so every command just works)."""
    from claims.store.engine import make_engine
    from claims.store.migrate import upgrade

    url = settings().resolved_database_url
    upgrade(url)
    return make_engine(url)


def store_label() -> str:
    """The store a command opened, as a user would look for it (no password)."""
    from sqlalchemy.engine import make_url

    url = make_url(settings().resolved_database_url)
    if url.get_backend_name() == "sqlite" and url.database:
        return f"store {url.database} (SQLite)"
    return f"store {url.render_as_string(hide_password=True)}"


def empty_store_note(store: Engine) -> str | None:
    """Which store was opened and that it is empty, when it holds no source yet (a command
    run in the wrong directory otherwise just prints nothing)."""
    from sqlalchemy import func, select

    from claims.tables import SourceRow

    with store.connect() as conn:
        sources = conn.scalar(select(func.count()).select_from(SourceRow)) or 0
    if sources:
        return None
    return (
        f"{store_label()} is empty: no sources yet. `claims run PATH` reads documents into it; "
        "set CLAIMS_DATA_DIR or CLAIMS_DATABASE_URL to use another store"
    )


def storage_full_error(error: BaseException) -> ClaimLedgerError | None:
    """A full disk as ``StorageFullError`` naming the store and the free space where the
    command writes (exit 6), instead of a database driver's traceback; None for every other
    error (claims/store/disk_full.py)."""
    import os
    from pathlib import Path

    from claims.store.disk_full import storage_full

    data_dir = settings().data_dir.absolute()
    folders = [data_dir, data_dir / "dagster", Path(os.environ.get("DAGSTER_HOME", data_dir))]
    url = settings().resolved_database_url
    if url.startswith("sqlite:///"):
        folders.insert(0, Path(url.removeprefix("sqlite:///").split("?", 1)[0]).absolute().parent)
    return storage_full(error, store=store_label().removeprefix("store "), folders=folders)
