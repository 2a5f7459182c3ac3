"""A first full build of edges, value groups and claim status into empty tables builds their
indexes after the rows (claims.store.deferred_indexes.py): the rows are those of the ordinary
path, the indexes are the same afterwards and survive a failed build, and an incremental
build over the result agrees with a full one. The read model's text-free evidence read
gives the statuses the full read gives."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, event, text

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.extraction import extract
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    deferred_indexes,
    transaction,
)
from claims.store.deferred_indexes import indexes_built_after
from retrieval.evidence import AsOf, EvidenceLoader
from retrieval.read_model import build_claim_status, everyone
from retrieval.verdicts import evaluate

PLANS = ["Orion", "Vega", "Lyra", "Atlas", "Nova"]
FACTS = [
    ("The {p} plan notice period is {n} days.", [30, 45, 60]),
    ("The {p} plan refund window is {n} days.", [14, 21, 28]),
    ("The monthly fee of the {p} plan is {n} EUR.", [9, 12, 15]),
]
DERIVED = ("edges", "value_group_claims", "value_group_relations", "value_group_slots")
# every column but the write stamps, which say when a row was written, not what it says
COLUMNS = {
    "edges": "id, kind, left_claim_id, right_claim_id, claim_key, rule, reason, material, "
    "materiality, generation, retired_at IS NULL",
    "value_group_claims": "*",
    "value_group_relations": "id, kind, left_group_id, right_group_id, claim_key, rule, "
    "reason, material, materiality, generation, retired_at IS NULL",
    "value_group_slots": "*",
    "claim_status": "claim_id, claim_key, status, review_item_id, resolution_id, "
    "superseded_by_version_id, policy_version",
}


def _note(rng: random.Random, number: int) -> str:
    sentences = []
    for _ in range(6):
        template, values = rng.choice(FACTS)
        sentences.append(template.format(p=rng.choice(PLANS), n=rng.choice(values)))
    return f"Team note {number}\n\n" + " ".join(sentences) + "\n"


def _add(engine: Engine, source_id: str, note: str) -> tuple[str, str]:
    """Store a version of ``source_id`` with its extracted claims: (version id, generation)."""
    with transaction(engine) as session:
        version, _ = SourceRepository(session).add_version(source_id, note)
        claims = extract(note, source_id=source_id, source_version_id=version.id)
        GenerationRepository(session).ensure(claims[0].generation, "test")
        ClaimRepository(session).add_all(claims)
    return version.id, claims[0].generation


@pytest.fixture
def corpus(engine: Engine) -> str:
    """30 notes about five plans, agreeing and contradicting each other; the generation."""
    rng = random.Random(7)
    generation = ""
    for number in range(30):
        _, generation = _add(engine, f"notes/team-{number % 12:02d}", _note(rng, number))
    return generation


def _build(engine: Engine, generation: str) -> None:
    with transaction(engine) as session:
        recompute_edges(session, generation, None)
    with engine.begin() as conn:
        build_claim_status(conn, None)


def _rows(engine: Engine, live_only: bool = False) -> dict[str, list[tuple[Any, ...]]]:
    out = {}
    with engine.connect() as conn:
        for table, columns in COLUMNS.items():
            where = " WHERE retired_at IS NULL" if live_only and "retired_at" in columns else ""
            sql = f"SELECT {columns} FROM {table}{where} ORDER BY 1"
            out[table] = [tuple(r) for r in conn.execute(text(sql))]
    return out


def _indexes(engine: Engine) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL "
                "AND tbl_name IN ('edges', 'value_group_claims', 'value_group_relations', "
                "'value_group_slots', 'claim_status') ORDER BY name"
            )
        )
        return [(r[0], r[1]) for r in rows]


def _empty_derived(engine: Engine) -> None:
    with engine.begin() as conn:
        for table in (*DERIVED, "claim_status"):
            conn.execute(text(f"DELETE FROM {table}"))


@pytest.fixture
def statements(engine: Engine) -> Iterator[list[str]]:
    """Every SQL statement the store's connections run (SQLite's own trace)."""
    seen: list[str] = []

    def trace(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(seen.append)

    event.listen(engine, "connect", trace)
    engine.dispose()  # new connections get the trace
    yield seen
    event.remove(engine, "connect", trace)


def test_first_build_writes_the_rows_of_the_ordinary_path(
    engine: Engine, corpus: str, statements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    indexes = _indexes(engine)
    assert len(indexes) >= 6  # edges' four, value groups', claim_status's
    monkeypatch.setattr(deferred_indexes, "MIN_ROWS", 10**9)  # every build the ordinary way
    _build(engine, corpus)
    ordinary = _rows(engine)
    assert not [s for s in statements if s.startswith("DROP INDEX")]
    assert len(ordinary["edges"]) > 100 and len(ordinary["claim_status"]) > 100

    _empty_derived(engine)
    monkeypatch.setattr(deferred_indexes, "MIN_ROWS", 10)
    statements.clear()
    _build(engine, corpus)
    dropped = {s.split('"')[1] for s in statements if s.startswith("DROP INDEX")}
    assert {"ix_edges_left_claim_id", "ix_claim_status_claim_key"} <= dropped
    assert "ix_value_group_claims_value_group_id" in dropped
    assert _rows(engine) == ordinary
    assert _indexes(engine) == indexes


def test_a_second_full_build_writes_through_the_indexes(
    engine: Engine, corpus: str, statements: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deferred_indexes, "MIN_ROWS", 10)
    _build(engine, corpus)
    first = _rows(engine)
    statements.clear()
    _build(engine, corpus)  # the tables hold rows now: nothing to gain, nothing dropped
    assert not [s for s in statements if s.startswith("DROP INDEX")]
    assert _rows(engine) == first


def test_a_failed_build_leaves_the_indexes_and_no_rows(engine: Engine, corpus: str) -> None:
    indexes = _indexes(engine)
    with (
        pytest.raises(RuntimeError, match="stopped mid-build"),
        transaction(engine) as session,
        indexes_built_after(session, "edges"),
    ):
        recompute_edges(session, corpus, None)  # writes through the open drop
        raise RuntimeError("stopped mid-build")
    assert _indexes(engine) == indexes
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM edges")).scalar() == 0


def test_an_incremental_build_agrees_with_a_full_one(
    engine: Engine, corpus: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deferred_indexes, "MIN_ROWS", 10)
    _build(engine, corpus)  # the first build, indexes after the rows
    edited = (
        "Team note 3, revised\n\nThe Orion plan notice period is 90 days. "
        "The Vega plan refund window is 14 days. The monthly fee of the Lyra plan is 12 EUR.\n"
    )
    version, generation = _add(engine, "notes/team-03", edited)
    with transaction(engine) as session:
        keys = keys_touched_by_version(session, version, generation)
        recompute_edges(session, generation, keys)
    with engine.begin() as conn:
        build_claim_status(conn, keys)
    incremental = _rows(engine, live_only=True)
    _empty_derived(engine)
    _build(engine, generation)
    assert _rows(engine, live_only=True) == incremental
    statuses = {r[2] for r in incremental["claim_status"]}
    assert {"contested", "superseded"} <= statuses


def test_the_read_models_text_free_read_gives_the_same_statuses(
    engine: Engine, corpus: str
) -> None:
    _build(engine, corpus)
    with engine.connect() as conn:
        keys = sorted(set(conn.execute(text("SELECT claim_key FROM claims")).scalars()))
        reader = everyone(conn)
        found = []
        for with_text in (True, False):
            loader = EvidenceLoader(conn, with_reasons=False, with_text=with_text)
            verdicts = evaluate(loader.group_for_keys(keys).narrow(reader))
            found.append({cid: v.status.value for cid, v in verdicts.items()})
            quotes = {v.claim.quote for v in verdicts.values()}
            assert (quotes == {""}) is not with_text
    assert found[0] == found[1]
    assert "contested" in found[0].values()
    with engine.connect() as conn, pytest.raises(ValueError, match="effective date"):
        EvidenceLoader(conn, AsOf(effective=AsOf().supersession_date()), with_text=False)
