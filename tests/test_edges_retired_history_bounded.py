"""Retired edges stay bounded (issue 31, point 2).

A slot of many distinct values joins each value to the lowest and highest one for review
routing, so every new extreme rewrites about one edge per value. Kept as retired rows, those
piled up: five one-line files later a 20,000-claim key held 140,007 edge rows for 40,007
live ones. Edges inside one key are judged from the value groups by every reader (also as of
a past time), so their retired rows are deleted; supersessions and near misses keep theirs.
"""

from __future__ import annotations

from sqlalchemy import Engine, text

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction

FEE = "The locker rental fee is {v} EUR per week."


def _add(engine: Engine, source_id: str, body: str, generation: str) -> None:
    with transaction(engine) as session:
        version, _ = SourceRepository(session).add_version(source_id, body)
        ClaimRepository(session).add_all(
            extract(body, source_id=source_id, source_version_id=version.id)
        )
        recompute_edges(
            session, generation, keys_touched_by_version(session, version.id, generation)
        )


def _rows(engine: Engine) -> tuple[int, int]:
    with engine.connect() as conn:
        total = int(conn.execute(text("SELECT count(*) FROM edges")).scalar() or 0)
        live = conn.execute(text("SELECT count(*) FROM edges WHERE retired_at IS NULL")).scalar()
    return total, int(live or 0)


def test_new_extremes_of_a_large_slot_leave_edge_rows_near_the_live_ones(engine: Engine) -> None:
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
    lines = "\n".join(FEE.format(v=100 + n) for n in range(600))
    _add(engine, "lockers/list", "Locker fees\n\n" + lines + "\n", generation)
    _, first_live = _rows(engine)
    assert first_live > 600
    for n, value in enumerate((50, 900, 20, 1500, 5)):
        _add(engine, f"lockers/memo-{n}", f"Memo\n\n{FEE.format(v=value)}\n", generation)
    total, live = _rows(engine)
    assert live >= first_live
    assert total < 1.1 * live, (total, live)


def test_only_rewired_edges_lose_their_retired_rows(engine: Engine) -> None:
    # One sync retires four edges. The conflict a-b was rewired (a and b both still have a
    # live conflict) and goes; the agreement that ended, the supersession and the near miss
    # stay as retired rows.
    from datetime import UTC, datetime

    from edge_fixtures import claim_from_spec

    from claims.edges.builder import EdgeRecord
    from claims.store.edges import EdgeRepository
    from claims.tables import EdgeRow

    generation = "gen-test"
    key = "locker rental fee"
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, "test")
        for claim_id, value in (("c-a", 30), ("c-b", 45), ("c-c", 60)):
            source = f"lockers/{claim_id}"
            version, _ = SourceRepository(session).add_version(source, f"Fee {value}.")
            spec = {"key": key, "unit": "EUR", "dimension": "EUR", "value": value}
            claim = claim_from_spec(
                spec | {"id": claim_id, "source": source}, default_source=source
            )
            update = {"source_version_id": version.id, "generation": generation}
            ClaimRepository(session).add_all([claim.model_copy(update=update)])

    def edge(edge_id: str, kind: str, left: str, right: str, at: str = key) -> EdgeRecord:
        return EdgeRecord(edge_id, kind, left, right, at, "value", "r", None, None)

    kept = [edge("e-ac", "conflicts", "c-a", "c-c"), edge("e-bc", "conflicts", "c-b", "c-c")]
    first = [
        *kept,
        edge("e-ab", "conflicts", "c-a", "c-b"),
        edge("e-agree", "corroborates", "c-a", "c-b"),
        edge("e-supersedes", "supersedes", "c-b", "c-a"),
        edge("e-near", "ambiguous", "c-a", "c-b", "~fee"),
    ]
    scope = {key, "~fee"}
    moment = datetime(2026, 12, 7, tzinfo=UTC)
    with transaction(engine) as session:
        EdgeRepository(session).sync(generation, first, scope, now=moment)
    with transaction(engine) as session:
        sync = EdgeRepository(session).sync(generation, kept, scope, now=moment)
        assert (sync.retired, sync.compacted) == (4, 1)
    with transaction(engine) as session:
        rows = {row.id: row.retired_at for row in session.query(EdgeRow)}
    assert set(rows) == {"e-ac", "e-bc", "e-agree", "e-supersedes", "e-near"}
    assert {i for i, retired in rows.items() if retired is None} == {"e-ac", "e-bc"}
