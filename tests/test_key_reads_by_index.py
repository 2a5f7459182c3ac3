"""The reads of one key's coarse keys go through the (generation, claim_key) index of a
migrated store, not through the (generation, coarse_key) index that holds every claim of the
store (issue 33: a status read that grew with the store, not with the key)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from retrieval.key_aggregate import _COARSE
from tests.store_template import upgrade


def _plan(database: Path, sql: str) -> str:
    with sqlite3.connect(database) as conn:
        rows = conn.execute(f"EXPLAIN QUERY PLAN {sql}", {"g": "gen", "k": "key", "t": 0})
        return " | ".join(str(row[-1]) for row in rows)


def test_a_keys_coarse_keys_are_read_by_its_claim_key(tmp_path: Path) -> None:
    database = tmp_path / "claims.db"
    upgrade(f"sqlite:///{database}")
    for sql in (_COARSE.now, _COARSE.as_of):
        plan = _plan(database, sql)
        assert "claim_key=?" in plan, plan
        assert "coarse_key" not in plan.split("USING")[1].split("(")[0], plan
