"""The live conflict edges routing reads (``edges.kind='conflicts'``, not retired, of an
active extractor generation): by claim key, counted, and the keys that hold them in batches
of about a number of edges, for a full routing pass that holds a batch at a time."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Any, Protocol

from sqlalchemy import and_, func, not_, select
from sqlalchemy.orm import Session

from claims.models import ReviewState
from claims.tables import EdgeRow, ExtractorGenerationRow, ReviewItemRow


class ConflictEdge(Protocol):
    """The columns of a live conflict edge that routing reads."""

    id: str
    claim_key: str
    left_claim_id: str
    right_claim_id: str
    material: bool | None
    materiality: float | None


_EDGES = EdgeRow.__table__.c
_LIVE_EDGE_COLUMNS = (
    _EDGES.id,
    _EDGES.claim_key,
    _EDGES.left_claim_id,
    _EDGES.right_claim_id,
    _EDGES.material,
    _EDGES.materiality,
)


def live_conflicts(claim_keys: Sequence[str] | None = None) -> Any:
    active = select(ExtractorGenerationRow.id).where(ExtractorGenerationRow.status == "active")
    condition = and_(
        _EDGES.kind == "conflicts",
        _EDGES.retired_at.is_(None),
        _EDGES.generation.in_(active),
    )
    if claim_keys is not None:
        condition = and_(condition, _EDGES.claim_key.in_(claim_keys))
    return condition


def live_conflict_edges(
    session: Session, claim_keys: Collection[str] | None = None
) -> list[ConflictEdge]:
    """Live conflict edges of the active generation (only at ``claim_keys`` when given).

    Plain rows with the columns routing reads (attribute access like ``EdgeRow``): at a
    million edges, building tracked ORM instances cost more than routing itself.
    """
    if claim_keys is None:
        stmt = select(*_LIVE_EDGE_COLUMNS).where(live_conflicts())
        return list(session.execute(stmt.order_by(_EDGES.claim_key, _EDGES.id)))
    keys = sorted(set(claim_keys))
    edges: list[ConflictEdge] = []
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        stmt = select(*_LIVE_EDGE_COLUMNS).where(live_conflicts(chunk))
        edges += session.execute(stmt.order_by(_EDGES.claim_key, _EDGES.id))
    return edges


def count_live_conflict_edges(session: Session) -> int:
    stmt = select(func.count()).select_from(EdgeRow).where(live_conflicts())
    return int(session.scalar(stmt) or 0)


def conflict_key_batches(session: Session, batch_edges: int) -> Iterator[list[str]]:
    """The claim keys with live conflict edges, in order, in batches of about
    ``batch_edges`` edges (one grouped query, a row per key; a key is never split)."""
    stmt = (
        select(_EDGES.claim_key, func.count())
        .where(live_conflicts())
        .group_by(_EDGES.claim_key)
        .order_by(_EDGES.claim_key)
    )
    counts = session.execute(stmt).all()
    batch: list[str] = []
    edges = 0
    for key, count in counts:
        if batch and edges + count > batch_edges:
            yield batch
            batch, edges = [], 0
        batch.append(key)
        edges += count
    if batch:
        yield batch


def items_without_live_conflicts(session: Session) -> list[str]:
    """Unresolved items at keys without any live conflict edge (after a full pass: orphaned,
    since an item's claims are all of its key)."""
    unresolved = [s.value for s in (ReviewState.OPEN, ReviewState.CLAIMED, ReviewState.DEFERRED)]
    live_key = (
        select(_EDGES.id)
        .where(live_conflicts(), _EDGES.claim_key == ReviewItemRow.claim_key)
        .exists()
    )
    stmt = select(ReviewItemRow.id).where(ReviewItemRow.state.in_(unresolved), not_(live_key))
    return list(session.scalars(stmt))
