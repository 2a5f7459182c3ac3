"""PostgreSQL plans the reads of a table one long transaction fills on statistics kept up with it
(claims/store/statistics.py): a first full build writes every edge of the store in one
transaction, and reads them back a batch of keys at a time."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select, text
from sqlalchemy.pool import NullPool

from claims.edges.value_groups import SlotGroup
from claims.store import statistics
from claims.store.bulk import insert_records
from claims.store.engine import make_engine, transaction
from claims.store.migrate import upgrade
from claims.tables import ExtractorGenerationRow, ValueGroupSlotRow

pytestmark = pytest.mark.postgres

GEN = "gen-statistics"
KEYS = 20_000  # two slot rows each


@pytest.fixture
def pg_engine(postgres_url: str) -> Iterator[Engine]:
    upgrade(postgres_url)
    engine = make_engine(postgres_url, poolclass=NullPool)  # a new driver connection each
    with transaction(engine) as session:
        session.add(
            ExtractorGenerationRow(
                id=GEN, label="test", status="active", created_at=datetime.now(UTC)
            )
        )
    try:
        yield engine
    finally:
        engine.dispose()


def _slots(start: int, count: int) -> list[SlotGroup]:
    """``count`` slot rows, two per claim key."""
    return [
        SlotGroup(
            value_group_id=f"group-{n:07d}",
            slot_id=f"slot-{n // 10:06d}",
            claim_key=f"service {n // 2 % KEYS} notice period",
            value=float(n % 10),
            tier_rank=None,
            high_risk=False,
            threshold=0.0,
            tier_gap=0,
            low=None,
            high=None,
            statement=None,
            family=None,
            dimension="",
        )
        for n in range(start, start + count)
    ]


def _write(connection, start: int, count: int, batch: int = 2000) -> None:  # type: ignore[no-untyped-def]
    table = ValueGroupSlotRow.__table__
    for first in range(start, start + count, batch):
        rows = _slots(first, min(batch, start + count - first))
        insert_records(connection, table, rows, {"generation": GEN})  # type: ignore[arg-type]


def _keyed_read_plan(connection) -> str:  # type: ignore[no-untyped-def]
    """The plan of a batch's read of its keys' slot rows, as ``ValueGroupRepository`` asks."""
    c = ValueGroupSlotRow.__table__.c
    keys = [f"service {k} notice period" for k in range(0, KEYS, 200)]  # 100 keys
    query = select(c.value_group_id).where(c.generation == GEN, c.claim_key.in_(keys))
    compiled = query.compile(connection, compile_kwargs={"literal_binds": True})
    return "\n".join(row[0] for row in connection.execute(text(f"EXPLAIN {compiled}")))


def _key_in_index_condition(plan: str) -> bool:
    return any("Index Cond" in line and "claim_key" in line for line in plan.splitlines())


def test_a_table_filled_in_one_transaction_is_read_through_its_key_index(
    pg_engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without statistics the planner reads every row of the generation for each batch of
    # keys: the key is only a filter on what the generation's index (or the table) returned
    monkeypatch.setattr(statistics, "CHECK_ROWS", 10**12)
    with pg_engine.connect() as connection:
        attempt = connection.begin()
        _write(connection, 0, 40_000)
        blind = _keyed_read_plan(connection)
        attempt.rollback()
    assert not _key_in_index_condition(blind), blind.splitlines()[0]

    monkeypatch.setattr(statistics, "CHECK_ROWS", 5000)
    with pg_engine.connect() as connection, connection.begin():
        _write(connection, 0, 40_000)
        plan = _keyed_read_plan(connection)
    assert _key_in_index_condition(plan), plan.splitlines()[0]


def test_statistics_are_gathered_again_once_the_table_has_doubled(pg_engine: Engine) -> None:
    with pg_engine.connect() as connection, connection.begin():
        driver = connection.connection.driver_connection
        _write(connection, 0, 2000)  # a few pages: read whole in no time, left alone
        assert not statistics.refresh_if_stale(driver, "value_group_slots")
        _write(connection, 2000, 38_000)
        analyzed = _analyzed_rows(connection)  # the bulk writer analyzed it as it grew
        assert analyzed > 10_000
        _write(connection, 40_000, 2 * analyzed, batch=analyzed)  # past double: gathered again
        assert _analyzed_rows(connection) > 2 * analyzed
        assert not statistics.refresh_if_stale(driver, "value_group_slots")


def _analyzed_rows(connection) -> int:  # type: ignore[no-untyped-def]
    """The row count the planner was last told (``ANALYZE`` in this transaction included)."""
    return int(
        connection.execute(
            text("SELECT reltuples FROM pg_class WHERE oid = 'value_group_slots'::regclass")
        ).scalar()
    )
