"""Login throttling: growing waits per account and per client address, kept in the store.

Every login attempt that gets as far as checking a password is first written down as a
failure (``login_failures``) and only forgiven when the password turns out right, so
parallel guesses are counted too. Within ``WINDOW``, an account may fail
``ACCOUNT_FREE`` times and an address ``ADDRESS_FREE`` times; after that each further
failure doubles the wait (``FIRST_WAIT``, twice that, ... at most ``MAX_WAIT``) counted from
the latest failure. While a wait runs the login answers 429 with ``Retry-After`` and the
password is not even checked, so the right password is refused too. Refused attempts do
not lengthen the wait (an attacker cannot lock an account forever by hammering it; the
wait grows only with passwords actually tried). Rows older than ``KEEP`` are pruned.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from claims.tables import LoginFailureRow
from review.items import as_utc

WINDOW = timedelta(minutes=15)
KEEP = timedelta(days=1)
ACCOUNT_FREE = 3
ADDRESS_FREE = 10
FIRST_WAIT = 15.0  # seconds
MAX_WAIT = 900.0
ACCOUNT_MAX = 256
ADDRESS_MAX = 64


def wait_after(failures: int, free: int) -> float:
    """Seconds to wait after ``failures`` recent failures (0 while still free)."""
    if failures < free:
        return 0.0
    return min(FIRST_WAIT * 2 ** (failures - free), MAX_WAIT)


def _remaining(session: Session, column: object, value: str, free: int, now: datetime) -> float:
    count, last = session.execute(
        select(func.count(), func.max(LoginFailureRow.at)).where(
            column == value,  # type: ignore[operator]
            LoginFailureRow.at > now - WINDOW,
        )
    ).one()
    latest = as_utc(last)
    if not count or latest is None:
        return 0.0
    until = latest + timedelta(seconds=wait_after(int(count), free))
    return max(0.0, (until - now).total_seconds())


def retry_after(session: Session, account: str, address: str, now: datetime) -> int | None:
    """Whole seconds before this account may try again from this address, or None."""
    wait = max(
        _remaining(session, LoginFailureRow.account, account[:ACCOUNT_MAX], ACCOUNT_FREE, now),
        _remaining(session, LoginFailureRow.address, address[:ADDRESS_MAX], ADDRESS_FREE, now),
    )
    return math.ceil(wait) if wait > 0 else None


def record_attempt(session: Session, account: str, address: str, now: datetime) -> int:
    """Count this attempt as a failure until it proves right; returns the account's
    recent failures including this one."""
    session.execute(delete(LoginFailureRow).where(LoginFailureRow.at < now - KEEP))
    session.add(
        LoginFailureRow(at=now, account=account[:ACCOUNT_MAX], address=address[:ADDRESS_MAX])
    )
    session.flush()
    return int(
        session.scalar(
            select(func.count()).where(
                LoginFailureRow.account == account[:ACCOUNT_MAX],
                LoginFailureRow.at > now - WINDOW,
            )
        )
        or 0
    )


def forgive(session: Session, account: str, address: str) -> None:
    """The right password: this account's failures from this address no longer count
    (failures from elsewhere, perhaps someone guessing, still do)."""
    session.execute(
        delete(LoginFailureRow).where(
            LoginFailureRow.account == account[:ACCOUNT_MAX],
            LoginFailureRow.address == address[:ADDRESS_MAX],
        )
    )


def now_utc() -> datetime:
    return datetime.now(UTC)
