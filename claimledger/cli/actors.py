"""Who may change what every reviewer works under (the authority policy, taught synonyms):
a reviewer of the reviewers file, or the operator at this terminal."""

from __future__ import annotations

import getpass

from claimledger.cli.app import settings
from claims.errors import InputError
from review.reviewers import load_reviewers

ADMIN = "admin"


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
