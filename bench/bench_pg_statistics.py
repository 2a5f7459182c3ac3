"""PostgreSQL: what a batched first build's keyed reads cost with and without the planner
statistics the bulk writer keeps (claims/store/statistics.py).

Usage: scripts/with-postgres.sh .venv/bin/python bench/bench_pg_statistics.py [ROWS ...]
       (default 400000 3400000: the edges of the bench's 10,000 and 100,000 files)

A full edge build writes a store's derived rows in one transaction, a batch of claim keys at
a time, and before writing a batch reads what is stored for its keys (``generation = ? AND
claim_key IN (500 keys)``, the edge and value-group repositories' read). This writes ``ROWS``
value-group slot rows that way (batches of ``PER_BATCH`` rows, ``PER_KEY`` rows a key) into a fresh
database each time, once with the statistics kept and once without (``CHECK_ROWS`` out of reach),
and prints the time of the reads, of the writes, and the plan of the last read.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_pipeline import new_database  # noqa: E402
from sqlalchemy import select, text  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402

from claims.edges.value_groups import SlotGroup  # noqa: E402
from claims.store import statistics  # noqa: E402
from claims.store.bulk import insert_records  # noqa: E402
from claims.store.engine import make_engine, transaction  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402
from claims.tables import ExtractorGenerationRow, ValueGroupSlotRow  # noqa: E402

GEN = "gen-bench"
PER_BATCH = 85_000  # rows a batch writes: about a 50,000-claim batch's edges
PER_KEY = 80  # rows per claim key (the bench corpus at 100,000 files: 84 edges a key)
CHUNK = 500


def _slot(n: int) -> SlotGroup:
    return SlotGroup(f"group-{n:08d}", f"slot-{n // 2:08d}", f"subject {n // PER_KEY} limit", 1.0,
                     None, False, 0.0, 0, None, None, None, None, "")  # fmt: skip


def build(url: str, rows: int, keep_statistics: bool) -> tuple[float, float, str]:
    """(seconds reading, seconds writing, plan of the last read) of one batched build."""
    statistics.CHECK_ROWS = 5000 if keep_statistics else 10**15
    upgrade(url)
    engine = make_engine(url, poolclass=NullPool)
    with transaction(engine) as session:
        session.add(ExtractorGenerationRow(id=GEN, label="bench", status="active",
                                           created_at=datetime.now(UTC)))  # fmt: skip
    c = ValueGroupSlotRow.__table__.c
    reading = writing = 0.0
    per_batch = PER_BATCH
    plan = ""
    with engine.connect() as connection, connection.begin():
        for batch in range(rows // PER_BATCH):
            first = batch * per_batch
            keys = sorted({_slot(n).claim_key for n in range(first, first + per_batch)})
            started = time.perf_counter()
            for start in range(0, len(keys), CHUNK):
                query = select(c.value_group_id, c.value).where(
                    c.generation == GEN, c.claim_key.in_(keys[start : start + CHUNK])
                )
                connection.execute(query).all()
            reading += time.perf_counter() - started
            started = time.perf_counter()
            slots = [_slot(n) for n in range(first, first + per_batch)]
            insert_records(connection, ValueGroupSlotRow.__table__, slots, {"generation": GEN})  # type: ignore[arg-type]
            writing += time.perf_counter() - started
        query = select(c.value_group_id).where(c.generation == GEN, c.claim_key.in_(keys[:CHUNK]))
        compiled = query.compile(connection, compile_kwargs={"literal_binds": True})
        plan = connection.execute(text(f"EXPLAIN {compiled}")).first()[0]  # type: ignore[index]
    engine.dispose()
    return reading, writing, plan


def main() -> None:
    sizes = [int(arg) for arg in sys.argv[1:]] or [400_000, 3_400_000]
    admin = os.environ.get("CLAIMS_TEST_POSTGRES_URL")
    if not admin:
        raise SystemExit("needs CLAIMS_TEST_POSTGRES_URL: run it under scripts/with-postgres.sh")
    for rows in sizes:
        for keep in (False, True):
            with new_database(admin, "bench_statistics", "postgresql+psycopg") as url:
                reading, writing, plan = build(url, rows, keep)
            label = "statistics kept" if keep else "no statistics  "
            print(
                f"{rows:>9,} rows, {label}: keyed reads {reading:6.1f} s, writes "
                f"{writing:6.1f} s; load {os.getloadavg()[0]:.1f}; plan: {plan[:60]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
