"""Claim repository: claims in and out of the store, read like sentences."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.documents.model import Locator
from claims.models import (
    Bound,
    Claim,
    EffectiveTime,
    EntityRef,
    Modality,
    Polarity,
    Span,
    TimeGranularity,
    ValueKind,
)
from claims.store.bulk import insert_tuples
from claims.store.quotes import quote_ids
from claims.store.taught_synonyms import record_taught_rows, taught_rows
from claims.tables import ClaimRow
from claims.trusted import trusted


def claim_to_values(claim: Claim, *, now: datetime | None = None) -> dict[str, Any]:
    """The column values of ``claim``'s row (for bulk inserts without ORM objects)."""
    if claim.source_version_id is None or claim.source_id is None:
        raise ValueError(f"claim {claim.id} has no source version; only stored claims have one")
    is_number = isinstance(claim.value, int | float) and not isinstance(claim.value, bool)
    return dict(
        id=claim.id,
        source_version_id=claim.source_version_id,
        source_id=claim.source_id,
        generation=claim.generation,
        subject=claim.subject,
        predicate=claim.predicate,
        claim_key=claim.claim_key,
        coarse_key=claim.coarse_key,
        entity=claim.entity,
        attribute=claim.attribute or claim.claim_key,
        kind=claim.kind.value,
        value_number=float(claim.value) if is_number else None,  # type: ignore[arg-type]
        value_text=None if is_number or claim.value is None else str(claim.value),
        low=claim.low,
        high=claim.high,
        bound=claim.bound.value,
        approximate=claim.approximate,
        precision=claim.precision,
        unit=claim.unit,
        canonical_value=claim.canonical_value,
        canonical_low=claim.canonical_low,
        canonical_high=claim.canonical_high,
        canonical_unit=claim.canonical_unit,
        dimension=claim.dimension,
        polarity=claim.polarity.value if claim.polarity else None,
        modality=claim.modality.value if claim.modality else None,
        scope=dict(claim.scope),
        scope_residual=list(claim.scope_residual),
        time_start=claim.time.start,
        time_end=claim.time.end,
        time_granularity=claim.time.granularity.value if claim.time.granularity else None,
        time_text=claim.time.text,
        time_year_inferred=claim.time.year_inferred,
        reported_speech=claim.reported_speech,
        span_start=claim.span.start,
        span_end=claim.span.end,
        value_start=claim.value_span.start if claim.value_span else None,
        value_end=claim.value_span.end if claim.value_span else None,
        entity_name=claim.entity_ref.name if claim.entity_ref else None,
        entity_qualifier=claim.entity_ref.qualifier if claim.entity_ref else None,
        entity_local_to=claim.entity_ref.local_to if claim.entity_ref else None,
        quote=claim.quote,
        confidence=claim.confidence,
        locator=claim.locator.to_dict() if claim.locator is not None else None,
        created_at=claim.created_at or now or datetime.now(UTC),
    )


# The columns of ``claim_row``'s tuples, in order (``claim_to_values``' keys).
CLAIM_COLUMNS = (
    "id", "source_version_id", "source_id", "generation", "subject", "predicate",
    "claim_key", "coarse_key", "entity", "attribute", "kind", "value_number", "value_text",
    "low", "high", "bound", "approximate", "precision", "unit", "canonical_value",
    "canonical_low", "canonical_high", "canonical_unit", "dimension", "polarity", "modality",
    "scope", "scope_residual", "time_start", "time_end", "time_granularity", "time_text",
    "time_year_inferred", "reported_speech", "span_start", "span_end", "value_start",
    "value_end", "entity_name", "entity_qualifier", "entity_local_to", "quote", "confidence",
    "locator", "created_at",
)  # fmt: skip
_ID, _VERSION, _GENERATION, _KIND = 0, 1, 3, 10
_QUOTE, _CREATED_AT = CLAIM_COLUMNS.index("quote"), len(CLAIM_COLUMNS) - 1
_WRITE_COLUMNS = (*CLAIM_COLUMNS, "quote_id")


def claim_row(claim: Claim) -> tuple[Any, ...]:
    """``claim_to_values`` as a plain tuple in ``CLAIM_COLUMNS`` order, ``created_at`` as the
    claim has it (None for a new claim: the writer stamps it). Cheap to send between
    processes: the extraction workers send these, not ``Claim`` objects, whose unpickling
    cost more than a third of their extraction (docs/PIPELINE.md, "Session 9")."""
    values = claim_to_values(claim, now=_UNSET)
    row = tuple(values[name] for name in CLAIM_COLUMNS)
    return row if claim.created_at is not None else row[:_CREATED_AT] + (None,)


def row_kind(row: tuple[Any, ...]) -> str:
    return str(row[_KIND])


def claim_from_row(row: tuple[Any, ...]) -> Claim:
    """The ``Claim`` a ``claim_row`` tuple was made from (validated; for previews)."""
    return row_to_claim(SimpleNamespace(**dict(zip(CLAIM_COLUMNS, row, strict=True))))  # type: ignore[arg-type]


_UNSET = datetime(1970, 1, 1, tzinfo=UTC)  # replaced by None in claim_row


def claim_to_row(claim: Claim, *, now: datetime | None = None) -> ClaimRow:
    return ClaimRow(**claim_to_values(claim, now=now))


def entity_ref_of(row: Any) -> EntityRef | None:
    """The stored entity reference (a row written before 0018 holds the entity as its name)."""
    if row.entity_name is not None:
        return trusted(
            EntityRef,
            {
                "name": row.entity_name,
                "qualifier": row.entity_qualifier,
                "local_to": row.entity_local_to,
            },
        )
    if not row.entity:
        return None
    return trusted(EntityRef, {"name": row.entity, "qualifier": None, "local_to": None})


def row_to_claim(row: ClaimRow) -> Claim:
    value: float | str | None = row.value_number if row.value_number is not None else row.value_text
    return Claim(
        id=row.id,
        source_version_id=row.source_version_id,
        source_id=row.source_id,
        generation=row.generation,
        subject=row.subject,
        predicate=row.predicate,
        claim_key=row.claim_key,
        coarse_key=row.coarse_key,
        entity=row.entity,
        entity_ref=entity_ref_of(row),
        attribute=row.attribute or row.claim_key,
        kind=ValueKind(row.kind),
        value=value,
        low=row.low,
        high=row.high,
        bound=Bound(row.bound),
        approximate=row.approximate,
        precision=row.precision,
        unit=row.unit,
        canonical_value=row.canonical_value,
        canonical_low=row.canonical_low,
        canonical_high=row.canonical_high,
        canonical_unit=row.canonical_unit,
        dimension=row.dimension,
        polarity=Polarity(row.polarity) if row.polarity else None,
        modality=Modality(row.modality) if row.modality else None,
        scope=dict(row.scope or {}),
        scope_residual=list(row.scope_residual or []),
        time=EffectiveTime(
            start=row.time_start,
            end=row.time_end,
            granularity=row.time_granularity,
            text=row.time_text,
            year_inferred=bool(row.time_year_inferred),
        ),
        reported_speech=row.reported_speech,
        span=Span(start=row.span_start, end=row.span_end),
        value_span=(
            Span(start=row.value_start, end=row.value_end)
            if row.value_start is not None and row.value_end is not None
            else None
        ),
        quote=row.quote,
        confidence=row.confidence,
        locator=_locator(row.locator),
        created_at=row.created_at,
    )


def _locator(stored: dict[str, Any] | None) -> Locator | None:
    return Locator.from_dict(stored) if stored else None


def stored_claim(row: Any) -> Claim:
    """``row_to_claim`` without re-validating what was validated when it was written.

    For the hot paths that read many claims back (the edge recompute): each value is given
    the type validation would produce (enums, nested spans and time). Tested to equal
    ``row_to_claim`` on every claim of the extraction table (tests/test_store_bulk.py).
    """
    value: float | str | None = row.value_number if row.value_number is not None else row.value_text
    time = trusted(
        EffectiveTime,
        {
            "start": row.time_start,
            "end": row.time_end,
            "granularity": TimeGranularity(row.time_granularity) if row.time_granularity else None,
            "text": row.time_text,
            "year_inferred": bool(getattr(row, "time_year_inferred", False)),
        },
    )
    value_span = (
        trusted(Span, {"start": row.value_start, "end": row.value_end})
        if row.value_start is not None and row.value_end is not None
        else None
    )
    return trusted(
        Claim,
        {
            "id": row.id,
            "source_version_id": row.source_version_id,
            "source_id": row.source_id,
            "generation": row.generation,
            "subject": row.subject,
            "predicate": row.predicate,
            "claim_key": row.claim_key,
            "coarse_key": row.coarse_key,
            "entity": row.entity,
            "entity_ref": entity_ref_of(row),
            "attribute": row.attribute or row.claim_key,
            "kind": ValueKind(row.kind),
            "value": value,
            "low": row.low,
            "high": row.high,
            "bound": Bound(row.bound),
            "approximate": row.approximate,
            "precision": row.precision,
            "unit": row.unit,
            "canonical_value": row.canonical_value,
            "canonical_low": row.canonical_low,
            "canonical_high": row.canonical_high,
            "canonical_unit": row.canonical_unit,
            "dimension": row.dimension,
            "polarity": Polarity(row.polarity) if row.polarity else None,
            "modality": Modality(row.modality) if row.modality else None,
            "scope": dict(row.scope or {}),
            "scope_residual": list(row.scope_residual or []),
            "time": time,
            "reported_speech": row.reported_speech,
            "span": trusted(Span, {"start": row.span_start, "end": row.span_end}),
            "value_span": value_span,
            "quote": row.quote,
            "confidence": row.confidence,
            "locator": _locator(getattr(row, "locator", None)),
            "created_at": row.created_at,
        },
    )


class ClaimRepository:
    """Claims of the store, within one session (the caller owns the transaction)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._version_has_claims: dict[tuple[str, str], bool] = {}

    def add_all(self, claims: Iterable[Claim]) -> int:
        """Insert claims whose id is not stored yet; returns how many were new (idempotent)."""
        return self.add_rows([claim_row(claim) for claim in claims])

    def add_rows(self, rows: Sequence[tuple[Any, ...]]) -> int:
        """``add_all`` for claims already turned into ``claim_row`` tuples."""
        if not rows:
            return 0
        known = self._existing_ids(
            [r[_ID] for r in rows if self._may_exist(r[_VERSION], r[_GENERATION])]
        )
        now = datetime.now(UTC)
        fresh = []
        for row in rows:
            if row[_ID] not in known:
                known.add(row[_ID])  # one id twice in the batch is one claim, not a refusal
                fresh.append(row)
        if not fresh:
            return 0
        # reviewers' taught synonyms re-key what they name, as they did the stored claims
        fresh, taught = taught_rows(self.session, CLAIM_COLUMNS, fresh)
        # tuples all the way to the driver: no dict per claim (the writer's hot path)
        ids = quote_ids(
            self.session,
            {(row[_VERSION], row[_QUOTE]) for row in fresh},
            [row[_VERSION] for row in fresh],
        )
        stamped = []
        for row in fresh:
            written = (*row[:_CREATED_AT], row[_CREATED_AT] or now)
            quote_id = () if ids is None else (ids[(row[_VERSION], row[_QUOTE])],)
            stamped.append((*written, *quote_id))
        columns = CLAIM_COLUMNS if ids is None else _WRITE_COLUMNS
        insert_tuples(self.session, ClaimRow.__table__, columns, stamped)  # type: ignore[arg-type]
        record_taught_rows(self.session, taught)
        for row in rows:
            self._version_has_claims[(row[_VERSION], row[_GENERATION])] = True
        return len(fresh)

    def by_id(self, claim_id: str) -> Claim | None:
        row = self.session.get(ClaimRow, claim_id)
        return row_to_claim(row) if row else None

    def for_key(self, claim_key: str, generation: str) -> list[Claim]:
        return self._select(ClaimRow.claim_key == claim_key, ClaimRow.generation == generation)

    def for_keys(self, claim_keys: Sequence[str], generation: str) -> list[Claim]:
        out: list[Claim] = []
        keys = list(dict.fromkeys(claim_keys))
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            out += self._select(ClaimRow.claim_key.in_(chunk), ClaimRow.generation == generation)
        return out

    def for_version(self, source_version_id: str, generation: str) -> list[Claim]:
        return self._select(
            ClaimRow.source_version_id == source_version_id, ClaimRow.generation == generation
        )

    def all(self, generation: str) -> list[Claim]:
        return self._select(ClaimRow.generation == generation)

    def _select(self, *where: object) -> list[Claim]:
        stmt = select(ClaimRow).where(*where).order_by(ClaimRow.id)  # type: ignore[arg-type]
        return [row_to_claim(r) for r in self.session.scalars(stmt)]

    def prime_versions(self, version_ids: Sequence[str], generation: str) -> None:
        """Find out in one query which of these versions already have claims of
        ``generation`` (what ``add_all`` would otherwise ask once per version)."""
        ids = sorted(set(version_ids))
        with_claims: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            # generation is compared here, not in SQL: with it in the WHERE clause SQLite
            # picks the (generation, claim_key) index and walks every claim of the generation
            rows = self.session.execute(
                select(ClaimRow.source_version_id, ClaimRow.generation)
                .where(ClaimRow.source_version_id.in_(chunk))
                .distinct()
            )
            with_claims.update(version for version, gen in rows if gen == generation)
        for version_id in ids:
            self._version_has_claims[(version_id, generation)] = version_id in with_claims

    def _may_exist(self, version_id: str, generation: str) -> bool:
        """False when the version has no claim of ``generation`` stored yet (the usual case
        for a new version: ids are derived from version and generation)."""
        scope = (version_id, generation)
        cached = self._version_has_claims.get(scope)
        if cached is None:
            stmt = select(ClaimRow.generation).where(ClaimRow.source_version_id == version_id)
            cached = generation in set(self.session.scalars(stmt.distinct()))
            self._version_has_claims[scope] = cached
        return cached

    def _existing_ids(self, ids: list[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            found.update(self.session.scalars(select(ClaimRow.id).where(ClaimRow.id.in_(chunk))))
        return found
