"""One pipeline run per store at a time.

Two ``claims run`` on one store used to redo the same work side by side, and the loser died
on a raw ``IntegrityError`` when both stored the same version. ``run_lock`` serialises them:

- SQLite: an exclusive ``flock`` on ``<database>.run.lock`` beside the file. The kernel
  drops it when the holder exits, however it exits (SIGKILL included), so a crashed run
  never leaves a stale lock. The file records who holds it, for the waiting message.
- PostgreSQL: a session-level advisory lock on a connection kept open for the run; the
  server drops it when that connection ends, for the same reason.

The run's own work uses its usual connections; the lock only keeps a second run out.

Steps of one run that may work side by side (the extraction steps of the ``claims`` asset,
when an executor runs them in several processes or on several Celery workers) hold it
**shared**: they exclude every exclusive holder (another ``claims run``, any other step) and
admit each other. Runs of the pipeline are one at a time anyway (the run queue's limit), so
two runs' shared holders never meet.
"""

from __future__ import annotations

import fcntl
import os
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from claims.errors import ConcurrencyError
from claims.store.engine import make_engine

# Any fixed 64-bit number, the same in every process: "claimledger run" in ASCII, truncated.
_ADVISORY_KEY = int.from_bytes(b"claimrun", "big") & 0x7FFF_FFFF_FFFF_FFFF

Waiting = Callable[[str], None]


@contextmanager
def run_lock(
    database_url: str,
    *,
    wait: bool = True,
    on_wait: Waiting | None = None,
    shared: bool = False,
) -> Iterator[None]:
    """Hold the store's run lock for the block (``shared``: beside other shared holders).

    When another run holds it: with ``wait``, call ``on_wait`` with who holds it and block
    until it is free; without, raise ``ConcurrencyError`` saying so.
    """
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            yield  # a private in-memory store: nobody else can run on it
            return
        with _file_lock(Path(url.database), wait, on_wait, shared):
            yield
    else:
        with _advisory_lock(database_url, wait, on_wait, shared):
            yield


def _busy(holder: str) -> str:
    return f"another `claims run` is working on this store ({holder})"


@contextmanager
def _file_lock(database: Path, wait: bool, on_wait: Waiting | None, shared: bool) -> Iterator[None]:
    path = database.with_name(database.name + ".run.lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
    try:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 512, 0).decode("utf-8", "replace").strip() or "unknown"
            if not wait:
                raise ConcurrencyError(
                    f"{_busy(holder)}; wait for it to finish, or run again without --no-wait "
                    "to wait for it",
                    location=str(database),
                ) from None
            if on_wait is not None:
                on_wait(f"{_busy(holder)}; waiting for it to finish")
            fcntl.flock(fd, mode)
        if not shared:  # shared holders leave the file to whoever holds it alone
            started = datetime.now(UTC).isoformat(timespec="seconds")
            os.ftruncate(fd, 0)
            holder = f"pid {os.getpid()} on {socket.gethostname()}, since {started}"
            os.pwrite(fd, holder.encode(), 0)
        try:
            yield
        finally:
            if not shared:
                os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


@contextmanager
def _advisory_lock(
    database_url: str, wait: bool, on_wait: Waiting | None, shared: bool
) -> Iterator[None]:
    suffix = "_shared" if shared else ""
    engine = make_engine(database_url, pool_size=1, max_overflow=0)
    try:
        with engine.connect() as connection:
            connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            key = {"key": _ADVISORY_KEY}
            if not connection.scalar(text(f"SELECT pg_try_advisory_lock{suffix}(:key)"), key):
                holder = connection.scalar(
                    text(
                        "SELECT 'server process ' || pid FROM pg_locks WHERE "
                        "locktype = 'advisory' AND granted AND "
                        "((classid::bigint << 32) | objid::bigint) = :key LIMIT 1"
                    ),
                    key,
                )
                if not wait:
                    raise ConcurrencyError(
                        f"{_busy(holder or 'another session')}; wait for it to finish, or "
                        "run again without --no-wait to wait for it"
                    )
                if on_wait is not None:
                    on_wait(f"{_busy(holder or 'another session')}; waiting for it to finish")
                connection.execute(text(f"SELECT pg_advisory_lock{suffix}(:key)"), key)
            try:
                yield
            finally:
                connection.execute(text(f"SELECT pg_advisory_unlock{suffix}(:key)"), key)
    finally:
        engine.dispose()
