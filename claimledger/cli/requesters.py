"""Who the CLI asks as (``--as``), and the as-of options shared by ``ask`` and ``status``."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from claimledger.cli.app import settings
from claims.errors import InputError

if TYPE_CHECKING:  # the retrieval layer is imported by the commands that ask (ask, status)
    from claims.models import Requester
    from retrieval.evidence import AsOf


def requester_named(principal: str | None) -> Requester:
    """The principal of the access file (default principal, else anonymous: public only)."""
    from retrieval.access import load_access_config

    return load_access_config(settings().resolved_access_file).requester(principal)


def as_of_options(effective: str | None, known_at: str | None) -> AsOf:
    from retrieval.evidence import AsOf

    try:
        day = date.fromisoformat(effective) if effective else None
    except ValueError:
        raise InputError(f"--effective must be a date like 2026-03-01, got {effective!r}") from None
    try:
        moment = datetime.fromisoformat(known_at) if known_at else None
    except ValueError:
        raise InputError(
            f"--known-at must be an ISO time like 2026-03-01T12:00:00Z, got {known_at!r}"
        ) from None
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return AsOf(effective=day, known_at=moment)
