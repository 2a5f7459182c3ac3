"""The ``claims`` group loads a command's module when that command is asked for.

Each module under ``claimledger/cli/`` registers its commands on the root Typer app when
imported, and those modules import what their commands need (the store, the review layer,
the retrieval layer): importing all of them made every command, ``claims --version``
included, pay for every other (docs/PIPELINE.md, "Session 10"). The group below knows the
command names from ``COMMANDS`` and imports a module the first time one of its commands is
resolved; ``claims --help`` (which shows every command's summary) imports them all.
tests/test_cli_lazy_commands.py checks the table against what the modules register.
"""

from __future__ import annotations

import importlib
from typing import Any

from typer.core import TyperGroup

# command name -> module under claimledger.cli that registers it, in the order ``--help``
# lists them (single commands first, then the groups, as Typer orders them).
COMMANDS: dict[str, str] = {
    "ask": "ask",
    "check": "check",
    "conflicts": "conflicts",
    "extract": "extract",
    "ingest": "ingest",
    "metrics": "metrics",
    "run": "run",
    "ui": "run",
    "schema": "schema",
    "serve": "serve",
    "status": "status",
    "access": "access",
    "audit": "audit",
    "db": "db",
    "policy": "policy",
    "review": "review",
    "sources": "sources",
}


def load_all_commands() -> None:
    """Import every command module (what the eager CLI did at start-up)."""
    for module in dict.fromkeys(COMMANDS.values()):
        importlib.import_module(f"claimledger.cli.{module}")


class LazyCommandGroup(TyperGroup):
    """A Typer group whose commands are built from their module on first use."""

    def list_commands(self, ctx: Any) -> list[str]:
        built = super().list_commands(ctx)
        return list(COMMANDS) + [name for name in built if name not in COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            from claimledger.cli.startup import loading

            with loading():
                importlib.import_module(f"claimledger.cli.{COMMANDS[cmd_name]}")
                self._add_registered_commands()
        return super().get_command(ctx, cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        if args and args[0] not in COMMANDS and args[0] not in self.commands:
            # an unknown name: Typer suggests close ones from the commands it has built
            load_all_commands()
            self._add_registered_commands()
        return super().resolve_command(ctx, args)

    def _add_registered_commands(self) -> None:
        # The module registered its commands on the Typer app; build the click commands
        # the way Typer built the group (same options, help and markup), take the new ones.
        import typer.main

        from claimledger.cli.app import app

        built = typer.main.get_group(app)
        for name, command in built.commands.items():
            self.commands.setdefault(name, command)
