"""Domain exceptions. Each message says what is wrong, where, and what to do.

They are mapped once to CLI exit codes (claimledger.cli) and HTTP statuses (claimledger.web).
"""

from __future__ import annotations


class ClaimLedgerError(Exception):
    """Base of every error a user can act on."""

    exit_code = 1
    http_status = 400

    def __init__(self, message: str, *, location: str | None = None) -> None:
        self.location = location
        super().__init__(f"{location}: {message}" if location else message)


class InputError(ClaimLedgerError):
    """A file, field or argument the user supplied is unusable."""

    exit_code = 2
    http_status = 422


class RegisterError(InputError):
    """The source register is invalid (names file, line and field)."""


class PolicyError(InputError):
    """The authority policy is invalid (names file and field)."""


class NotFoundError(ClaimLedgerError):
    """The thing asked for does not exist, or the requester may not see it.

    The two cases share one message and one status on purpose: a requester must not be
    able to tell a hidden thing from a missing one.
    """

    exit_code = 3
    http_status = 404


class ConcurrencyError(ClaimLedgerError):
    """Someone else changed the thing first (stale revision or a lock held by another)."""

    exit_code = 4
    http_status = 409


class AuthError(ClaimLedgerError):
    """Missing or invalid credentials."""

    exit_code = 5
    http_status = 401


class StorageFullError(ClaimLedgerError):
    """The disk (or the database server's disk) holding the store is full; the command's
    unfinished transaction was rolled back, so the store is as it was before it."""

    exit_code = 6
    http_status = 507
