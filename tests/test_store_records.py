"""Rows written by ``claims.store.bulk`` (the claim and edge stores' fast paths) are the rows
the ORM writes: same stored text for timestamps, same integers for booleans, NULLs kept."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, text

from claims.edges.builder import EdgeRecord
from claims.extraction import extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.store.bulk import insert_records
from claims.store.engine import make_engine
from claims.tables import EdgeRow

NOTE = "The Gamma plan notice period is 30 days. The Gamma plan refund window is 14 days."


@pytest.fixture
def any_engine(migrated_url: str) -> Iterator[Engine]:
    engine = make_engine(migrated_url)
    yield engine
    engine.dispose()


def _edge(edge_id: str, left: str, right: str, material: bool | None) -> EdgeRecord:
    return EdgeRecord(
        edge_id,
        "conflicts" if material is not None else "corroborates",
        left,
        right,
        "gamma plan notice period",
        "value",
        "30 days vs 14 days",
        material,
        0.533333 if material is not None else None,
    )


def test_records_are_stored_as_the_orm_stores_them(any_engine: Engine) -> None:
    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("hr/gamma", NOTE)
        claims = extract(NOTE, source_id="hr/gamma", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
        ClaimRepository(session).add_all(claims)
    generation = claims[0].generation
    left, right = claims[0].id, claims[1].id
    moment = datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=UTC)
    cases = {"yes": True, "no": False, "none": None}
    with transaction(any_engine) as session:
        insert_records(
            session,
            EdgeRow.__table__,  # type: ignore[arg-type]
            [_edge(f"edge_fast_{name}", left, right, value) for name, value in cases.items()],
            {"generation": generation, "created_at": moment, "retired_at": None},
        )
        for name, value in cases.items():
            orm = _edge(f"edge_orm_{name}", left, right, value)._asdict()
            session.add(EdgeRow(**orm, generation=generation, created_at=moment, retired_at=None))
    columns = "kind, left_claim_id, right_claim_id, claim_key, rule, reason, material, "
    columns += "materiality, generation, created_at, retired_at"
    with any_engine.connect() as conn:
        if conn.dialect.name == "sqlite":  # the stored text and storage class, not a parse
            columns = (
                ", ".join(f"{c}, typeof({c})" for c in ("material", "created_at", "retired_at"))
                + ", "
                + columns
            )
        rows = {
            r[0]: tuple(r[1:])
            for r in conn.execute(text(f"SELECT id, {columns} FROM edges ORDER BY id"))
        }
    for name in cases:
        assert rows[f"edge_fast_{name}"] == rows[f"edge_orm_{name}"]
    assert len(rows) == 6


def test_claims_written_in_bulk_store_timestamps_as_the_orm_does(any_engine: Engine) -> None:
    """The claim writer's tuples go through the same converters: a claim's ``created_at``
    is stored as the ORM stores it (on SQLite the driver alone would add "+00:00")."""
    from claims.store.claims import claim_to_row

    moment = datetime(2026, 12, 2, 3, 4, 5, 678901, tzinfo=UTC)
    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("hr/gamma", NOTE)
        claims = extract(NOTE, source_id="hr/gamma", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
        fast, orm = (c.model_copy(update={"created_at": moment}) for c in claims[:2])
        ClaimRepository(session).add_all([fast])
        session.add(claim_to_row(orm))
    with any_engine.connect() as conn:  # on SQLite the stored text itself, not a parse
        rows = dict(
            conn.execute(
                text("SELECT id, created_at FROM claims WHERE id IN (:a, :b)"),
                {"a": fast.id, "b": orm.id},
            ).all()
        )
    assert rows[fast.id] == rows[orm.id]


def test_text_with_tabs_newlines_backslashes_and_a_scope_stores_as_the_orm_does(
    any_engine: Engine,
) -> None:
    """On PostgreSQL the bulk writer streams rows through COPY, whose text format gives tabs,
    newlines and backslashes a meaning (``\\N`` is NULL): values holding them, and a JSON
    scope, must come back as the ORM stores them."""
    from claims.store.claims import claim_to_row

    awkward = "Notice:\tthirty days\nsee C:\\policies\\N and \\\\ twice"
    scope = {"region": "north\tand\\south", "term": "line one\nline two"}
    with transaction(any_engine) as session:
        version, _ = SourceRepository(session).add_version("hr/gamma", NOTE)
        claims = extract(NOTE, source_id="hr/gamma", source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
        update = {"subject": awkward, "scope": scope, "scope_residual": ["a\tb", "\\N"]}
        fast, orm = (c.model_copy(update=update) for c in claims[:2])
        ClaimRepository(session).add_all([fast])
        session.add(claim_to_row(orm))
    with any_engine.connect() as conn:
        rows = {
            claim_id: (value, json.loads(scoped), json.loads(residual))
            for claim_id, value, scoped, residual in conn.execute(
                text(
                    "SELECT id, subject, CAST(scope AS TEXT), CAST(scope_residual AS TEXT) "
                    "FROM claims WHERE id IN (:a, :b)"
                ),
                {"a": fast.id, "b": orm.id},
            )
        }
    assert rows[fast.id] == rows[orm.id] == (awkward, scope, ["a\tb", "\\N"])
