"""Who may change what every reviewer works under (the authority policy, taught synonyms):
a reviewer of the reviewers file, or the operator at this terminal; and the one transaction
such a change is applied in (or rolled back whole, for a dry run)."""

from __future__ import annotations

import getpass
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from claimledger.cli.app import engine, settings
from claims.errors import InputError
from claims.store.engine import session_factory
from review.reviewers import load_reviewers

ADMIN = "admin"
T = TypeVar("T")


def as_option(who: str) -> Any:
    """The ``--as`` option of a command that changes what every reviewer works under;
    ``who`` says what the named person does ("Who teaches", "Who applies it")."""
    return typer.Option(
        None,
        "--as",
        help=f"{who}: a reviewer of the reviewers file, or `admin` (the operator at this "
        "terminal, recorded with the OS account). Default CLAIMS_REVIEWER, then admin.",
    )


def policy_actor(name: str | None) -> str:
    """The audit actor: a known reviewer, or the local administrator; never a made-up name.

    The audit log is where a policy change is traced to a person, so an unknown name is an
    error (it would otherwise be recorded as if that person had acted).
    """
    name = name or settings().reviewer or ADMIN
    if name == ADMIN:
        return f"{ADMIN}:{getpass.getuser()}"
    directory = load_reviewers(settings().resolved_reviewers_file)
    if name not in directory.names:
        known = ", ".join(directory.names) or "none: no reviewers file is configured"
        raise InputError(
            f"--as {name!r} is neither a reviewer of the reviewers file (known: {known}) nor "
            f"{ADMIN!r}; name one of them, or add {name!r} to the reviewers file"
        )
    return directory.get(name).name


def in_one_transaction(run: Callable[[Any], T], dry_run: bool) -> T:
    """``run(session)`` committed at once (the change, every re-routed item and the audit
    rows together), or rolled back whole for a dry run: nothing of it is kept."""
    store = engine()
    session = session_factory(store)()
    try:
        result = run(session)
        if dry_run:
            session.rollback()
        else:
            session.commit()
        return result
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
        store.dispose()
