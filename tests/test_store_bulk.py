"""Bulk inserts (claims.store.bulk) store exactly what the ORM would, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine

from claims.extraction import extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.store.engine import make_engine

TEXT = (
    "From 1 March 2024, the interactive assistant output limit for enterprise customers is "
    "at most about 500 tokens. The EU refund window must not exceed 30 days in 2025."
)


@pytest.fixture
def any_engine(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    yield engine
    engine.dispose()


def test_claims_read_back_equal_to_what_was_extracted(any_engine: Engine) -> None:
    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("policy", TEXT)
        claims = extract(TEXT, source_id="policy", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
    moment = datetime(2026, 2, 3, 4, 5, 6, tzinfo=UTC)  # no microseconds
    claims = [c.model_copy(update={"created_at": moment}) for c in claims]
    assert any(c.time.start for c in claims) and any(c.scope for c in claims)
    with transaction(any_engine) as session:
        assert ClaimRepository(session).add_all(claims) == len(claims)
    with transaction(any_engine) as session:
        repository = ClaimRepository(session)
        stored = [repository.by_id(c.id) for c in claims]
        assert repository.add_all(claims) == 0  # idempotent
    read_back = [s.model_copy(update={"created_at": _utc(s.created_at)}) for s in stored if s]
    assert read_back == claims


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def test_stored_claim_equals_the_validated_read(any_engine: Engine) -> None:
    from sqlalchemy import select

    from claims.store.claims import row_to_claim, stored_claim
    from claims.tables import ClaimRow

    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("policy", TEXT)
        claims = extract(TEXT, source_id="policy", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
        ClaimRepository(session).add_all(claims)
    with transaction(any_engine) as session:
        rows = session.execute(select(ClaimRow.__table__)).all()
        orm = {r.id: row_to_claim(r) for r in session.scalars(select(ClaimRow))}
    fast = {r.id: stored_claim(r) for r in rows}
    assert fast == orm
    assert {type(c.kind) for c in fast.values()} == {type(next(iter(orm.values())).kind)}
    assert any(c.time.granularity is not None for c in fast.values())


def test_one_claim_twice_in_a_batch_is_stored_once(any_engine: Engine) -> None:
    # an extractor that emits one claim twice must not make the store refuse the batch
    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("policy", TEXT)
        claims = extract(TEXT, source_id="policy", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
    with transaction(any_engine) as session:
        assert ClaimRepository(session).add_all([*claims, claims[0]]) == len(claims)
    with transaction(any_engine) as session:
        assert ClaimRepository(session).by_id(claims[0].id) is not None
