"""Taught synonyms in the store: the teachings, and claims re-keyed by them.

``active_teachings(executor)`` reads the teachings in force; ``TaughtSynonymRepository``
adds, finds, lists and withdraws them; ``rekey_claims(session, attributes)`` brings every
stored claim of those attributes to the key the active teachings give it (from its
extracted key, kept in ``claim_taught_keys`` while it differs), and ``taught_rows`` does the
same to rows the claim writer is about to insert. The caller owns the transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.orm import Session

from claims.errors import NotFoundError
from claims.store.batches import batches
from claims.store.bulk import insert_rows
from claims.synonyms import Teaching, Teachings
from claims.tables import ClaimRow, ClaimTaughtKeyRow, ExtractorGenerationRow, TaughtSynonymRow

Executor = Session | Connection


def _teaching(row: Any) -> Teaching:
    return Teaching(
        id=row.id,
        relation=row.relation,
        from_attribute=row.from_attribute,
        to_attribute=row.to_attribute,
        split_words=tuple((row.split_words or "").split()),
        kept_words=tuple((row.kept_words or "").split()),
    )


def active_teachings(executor: Executor) -> Teachings:
    """The teachings in force (not withdrawn), oldest first."""
    t = TaughtSynonymRow.__table__.c
    rows = executor.execute(
        select(t.id, t.relation, t.from_attribute, t.to_attribute, t.split_words, t.kept_words)
        .where(t.withdrawn_at.is_(None))
        .order_by(t.id)
    )
    return Teachings([_teaching(row) for row in rows])


class TaughtSynonymRepository:
    """The ``taught_synonyms`` rows, within one session."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def add(self, row: TaughtSynonymRow) -> TaughtSynonymRow:
        self.session.add(row)
        self.session.flush()
        return row

    def get(self, synonym_id: int) -> TaughtSynonymRow:
        row = self.session.get(TaughtSynonymRow, synonym_id)
        if row is None:
            raise NotFoundError(
                f"no taught synonym #{synonym_id}; `claims review synonyms list` shows them"
            )
        return row

    def listed(self, *, withdrawn: bool = True) -> list[TaughtSynonymRow]:
        """Every teaching, newest first (without the withdrawn ones when ``withdrawn`` is
        False)."""
        stmt = select(TaughtSynonymRow).order_by(TaughtSynonymRow.id.desc())
        if not withdrawn:
            stmt = stmt.where(TaughtSynonymRow.withdrawn_at.is_(None))
        return list(self.session.scalars(stmt))

    def withdraw(self, row: TaughtSynonymRow, *, by: str, at: datetime, reason: str) -> None:
        row.withdrawn_by = by
        row.withdrawn_at = at
        row.withdraw_reason = reason
        self.session.flush()


def generation_ids(executor: Executor) -> list[str]:
    """Every extractor generation of the store (a handful: claims are read per generation,
    the leading column of their indexes)."""
    return sorted(executor.execute(select(ExtractorGenerationRow.id)).scalars())


@dataclass(frozen=True)
class KeyMove:
    """One claim moved from one key to another by a teaching (or back by a withdrawal)."""

    claim_id: str
    generation: str
    from_key: str
    to_key: str


_C = ClaimRow.__table__.c
_T = ClaimTaughtKeyRow.__table__.c


def rekey_claims(session: Session, attributes: Collection[str]) -> list[KeyMove]:
    """Give every stored claim whose attribute (as stored or as extracted) is one of
    ``attributes`` the key the active teachings make of its extracted key; returns the moves.

    Reads the claims of those attributes only (indexed), never the whole store.
    """
    teachings = active_teachings(session)
    wanted = sorted(set(attributes))
    ids: set[str] = set()
    generations = generation_ids(session)
    for chunk in batches(wanted):
        ids.update(session.scalars(select(_T.claim_id).where(_T.extracted_attribute.in_(chunk))))
        for generation in generations:  # (generation, attribute) is the index
            ids.update(
                session.scalars(
                    select(_C.id).where(_C.generation == generation, _C.attribute.in_(chunk))
                )
            )
    moves: list[KeyMove] = []
    for chunk in batches(sorted(ids)):
        rows = session.execute(
            select(
                _C.id, _C.generation, _C.claim_key, _C.coarse_key, _C.entity, _C.attribute, _C.quote
            ).where(_C.id.in_(chunk))
        ).all()
        extracted = {
            claim_id: (key, coarse, attribute)
            for claim_id, key, coarse, attribute in session.execute(
                select(
                    _T.claim_id,
                    _T.extracted_claim_key,
                    _T.extracted_coarse_key,
                    _T.extracted_attribute,
                ).where(_T.claim_id.in_(chunk))
            )
        }
        for claim_id, generation, key, coarse, entity, attribute, quote in rows:
            known = extracted.get(claim_id)
            first = known or (key, coarse, attribute)
            taught = teachings.key_for(first[0], entity, first[2], first[1], quote)
            target = (taught.claim_key, taught.coarse_key, taught.attribute) if taught else first
            if target == (key, coarse, attribute):
                continue
            session.execute(
                update(ClaimRow)
                .where(_C.id == claim_id)
                .values(claim_key=target[0], coarse_key=target[1], attribute=target[2])
            )
            if taught is None:
                session.execute(delete(ClaimTaughtKeyRow).where(_T.claim_id == claim_id))
            elif known is None:
                session.add(
                    ClaimTaughtKeyRow(
                        claim_id=claim_id,
                        extracted_claim_key=key,
                        extracted_coarse_key=coarse,
                        extracted_attribute=attribute,
                    )
                )
            moves.append(KeyMove(claim_id, generation, key, target[0]))
    session.flush()
    return moves


@dataclass(frozen=True)
class _Columns:
    key: int
    coarse: int
    entity: int
    attribute: int
    quote: int
    id: int


def taught_rows(
    executor: Executor, columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> tuple[list[tuple[Any, ...]], list[dict[str, Any]]]:
    """``rows`` (claim rows in ``columns`` order) with the active teachings' keys, and the
    ``claim_taught_keys`` rows recording the extracted keys of the rows re-keyed."""
    teachings = active_teachings(executor)
    if not teachings:
        return list(rows), []
    at = _Columns(
        key=columns.index("claim_key"),
        coarse=columns.index("coarse_key"),
        entity=columns.index("entity"),
        attribute=columns.index("attribute"),
        quote=columns.index("quote"),
        id=columns.index("id"),
    )
    out: list[tuple[Any, ...]] = []
    records: list[dict[str, Any]] = []
    for row in rows:
        if row[at.attribute] not in teachings.attributes:
            out.append(row)
            continue
        taught = teachings.key_for(
            row[at.key], row[at.entity], row[at.attribute], row[at.coarse], row[at.quote]
        )
        if taught is None:
            out.append(row)
            continue
        values = list(row)
        values[at.key], values[at.coarse] = taught.claim_key, taught.coarse_key
        values[at.attribute] = taught.attribute
        out.append(tuple(values))
        records.append(
            {
                "claim_id": row[at.id],
                "extracted_claim_key": row[at.key],
                "extracted_coarse_key": row[at.coarse],
                "extracted_attribute": row[at.attribute],
            }
        )
    return out, records


def record_taught_rows(executor: Executor, records: list[dict[str, Any]]) -> None:
    """Store the extracted keys ``taught_rows`` returned (after the claims are written)."""
    if records:
        insert_rows(executor, ClaimTaughtKeyRow.__table__, records)  # type: ignore[arg-type]
