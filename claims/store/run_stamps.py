"""Run stamps: what the last clean run over a set of paths left (``claims.run_stamp``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from claims.tables import RunStampRow, SourceVersionRow, VersionExtractionRow


def stamp_of(session: Session, scope: str) -> tuple[str, dict[str, Any]] | None:
    """(digest, state) kept for ``scope``, or None."""
    row = session.execute(
        select(RunStampRow.digest, RunStampRow.state).where(RunStampRow.scope == scope)
    ).first()
    return (str(row[0]), dict(row[1] or {})) if row is not None else None


def keep_stamp(session: Session, scope: str, digest: str, state: dict[str, Any]) -> None:
    """Keep ``digest`` and ``state`` as ``scope``'s stamp (replacing the one kept before)."""
    session.execute(delete(RunStampRow).where(RunStampRow.scope == scope))
    session.execute(
        insert(RunStampRow).values(
            scope=scope, digest=digest, state=state, recorded_at=datetime.now(UTC)
        )
    )


def forget_stamp(session: Session, scope: str) -> None:
    session.execute(delete(RunStampRow).where(RunStampRow.scope == scope))


def store_counts(session: Session, generation: str) -> tuple[int, int]:
    """(stored versions, versions extracted in ``generation``): two counts by index."""
    versions = session.scalar(select(func.count()).select_from(SourceVersionRow)) or 0
    extracted = (
        session.scalar(
            select(func.count())
            .select_from(VersionExtractionRow)
            .where(VersionExtractionRow.generation == generation)
        )
        or 0
    )
    return int(versions), int(extracted)
