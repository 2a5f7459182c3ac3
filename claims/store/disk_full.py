"""A full disk, told apart from other failures and said in words an operator can act on.

SQLite reports a full disk as ``database or disk is full`` (SQLITE_FULL) or, when a journal
write fails, ``disk I/O error`` (SQLITE_IOERR); PostgreSQL as SQLSTATE 53100 ``disk_full``;
file writes (Dagster's storage, logs) as ``OSError`` ENOSPC or EDQUOT. ``storage_full``
finds any of them in an exception's chain and returns a ``StorageFullError`` naming the
store, the folders it writes to and their free space, and what to do. The transaction that
hit the full disk was rolled back by the database: the store keeps what it held before.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from claims.errors import StorageFullError

SQLITE_FULL = 13
SQLITE_IOERR = 10
POSTGRES_DISK_FULL = "53100"
_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}
_FULL_WORDS = ("database or disk is full", "no space left on device", "disk quota exceeded")


def _chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, what it wraps (SQLAlchemy's ``orig``) and its causes, each once."""
    pending, seen = [error], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        for inner in (
            getattr(current, "orig", None),
            getattr(current, "user_exception", None),  # Dagster's step errors
            current.__cause__,
            current.__context__,
        ):
            if isinstance(inner, BaseException):
                pending.append(inner)


def _kind(error: BaseException) -> str | None:
    """ "full" for a full disk, "io" for SQLite's disk I/O error, None for anything else."""
    if isinstance(error, OSError) and error.errno in _FULL_ERRNOS:
        return "full"
    if getattr(error, "sqlstate", None) == POSTGRES_DISK_FULL:
        return "full"
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if code == SQLITE_FULL:
            return "full"
        if code == SQLITE_IOERR:
            return "io"
    text = str(error).lower()
    if any(words in text for words in _FULL_WORDS):
        return "full"
    return "io" if "disk i/o error" in text else None


def _free_space(folders: Iterable[Path]) -> list[str]:
    """ "N bytes free in FOLDER" once per file system among ``folders`` that exist."""
    lines, devices = [], set()
    for folder in folders:
        existing = next((p for p in [folder, *folder.parents] if p.exists()), None)
        if existing is None:
            continue
        device = os.stat(existing).st_dev
        if device in devices:
            continue
        devices.add(device)
        usage = shutil.disk_usage(existing)
        lines.append(f"{usage.free:,} bytes free of {usage.total:,} in {existing}")
    return lines


def storage_full(
    error: BaseException, *, store: str, folders: Iterable[Path] = ()
) -> StorageFullError | None:
    """The ``StorageFullError`` to report for ``error``, or None when it is not a full disk.

    ``store`` names the store as a user knows it (``.claims/claims.db (SQLite)``);
    ``folders`` are where the command writes (the store's folder, Dagster's home).
    """
    kinds = [kind for kind in map(_kind, _chain(error)) if kind is not None]
    if not kinds:
        return None
    space = _free_space(folders)
    what = (
        "the disk is full"
        if "full" in kinds
        else "a disk I/O error (most often a full disk, else a failing one)"
    )
    return StorageFullError(
        f"{what}: {store} (or a file the command writes beside it) could not be written"
        + (f" ({'; '.join(space)})" if space else "")
        + ". Nothing of the unfinished write was kept: the database rolled it back and the "
        "store holds what it held before. Free space there (or move the store to a disk "
        "with room: CLAIMS_DATA_DIR, CLAIMS_DATABASE_URL) and run the command again"
    )
