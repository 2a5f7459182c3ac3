"""Edges in the store: recompute, incremental recompute, retirement, supersession rows."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from edge_fixtures import claim_from_spec
from sqlalchemy import Engine, select

from claims.edge_refresh import (
    keys_touched_by_sources,
    keys_touched_by_version,
    recompute_edges,
)
from claims.edges import MaterialitySettings, supersession_candidate
from claims.models import EdgeKind, Source, SupersedesRef
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from claims.store.edges import EdgeRepository, SupersessionRepository
from claims.store.migrate import upgrade
from claims.tables import EdgeRow

GEN = "gen-test"
LIMIT = {"key": "output limit|tokens", "unit": "token"}
LEAVE = {"key": "annual leave|days", "unit": "day", "dimension": "[time]"}


def add_version(engine: Engine, source_id: str, text: str, specs: list[dict[str, Any]]) -> str:
    """Store a version of ``source_id`` with hand-built claims; returns the version id."""
    with transaction(engine) as session:
        GenerationRepository(session).ensure(GEN, "test")
        version, _ = SourceRepository(session).add_version(source_id, text)
        claims = [
            claim_from_spec(
                spec
                | {"source": source_id, "version": version.id, "quote": spec.get("quote", text)},
                default_source=source_id,
                generation=GEN,
            )
            for spec in specs
        ]
        ClaimRepository(session).add_all(claims)
        return version.id


def edges_by_kind(engine: Engine) -> dict[str, int]:
    with transaction(engine) as session:
        edges = EdgeRepository(session).active(GEN)
    out: dict[str, int] = {}
    for e in edges:
        out[e.kind.value] = out.get(e.kind.value, 0) + 1
    return out


def snapshot(engine: Engine) -> list[tuple[object, ...]]:
    with transaction(engine) as session:
        rows = session.scalars(select(EdgeRow).order_by(EdgeRow.id))
        return [
            (r.id, r.kind, r.rule, r.reason, r.material, r.materiality, r.created_at, r.retired_at)
            for r in rows
        ]


def test_recompute_stores_a_material_conflict_for_the_review_layer(engine: Engine) -> None:
    add_version(engine, "a", "The output limit is 250 tokens.", [LIMIT | {"value": 250}])
    add_version(engine, "b", "The output limit is 500 tokens.", [LIMIT | {"value": 500}])
    with transaction(engine) as session:
        report = recompute_edges(session, GEN)
    assert report.by_kind == {"conflicts": 1}
    assert report.material_conflicts == 1 and report.inserted == 1
    with transaction(engine) as session:
        conflicts = EdgeRepository(session).conflicts(GEN, material_only=True)
    assert len(conflicts) == 1 and conflicts[0].rule == "value"


def test_identical_rerun_produces_identical_rows(engine: Engine) -> None:
    add_version(engine, "a", "The output limit is 250 tokens.", [LIMIT | {"value": 250}])
    add_version(engine, "b", "The output limit is 500 tokens.", [LIMIT | {"value": 500}])
    add_version(engine, "c", "Leave is 25 days.", [LEAVE | {"value": 25}])
    add_version(
        engine, "d", "Leave is 25 days!", [LEAVE | {"value": 25, "quote": "Leave: 25 days."}]
    )
    with transaction(engine) as session:
        recompute_edges(session, GEN)
    before = snapshot(engine)
    with transaction(engine) as session:
        report = recompute_edges(session, GEN)
    assert snapshot(engine) == before
    assert (report.inserted, report.updated, report.retired) == (0, 0, 0)
    assert report.unchanged == len(before) == 2


def test_new_version_turns_the_conflict_into_supersession_and_retires_it(engine: Engine) -> None:
    add_version(engine, "policy", "Revision 1: the limit is 250 tokens.", [LIMIT | {"value": 250}])
    add_version(engine, "wiki", "The limit is 500 tokens.", [LIMIT | {"value": 500}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
    assert edges_by_kind(engine) == {"conflicts": 1}

    v2 = add_version(
        engine, "policy", "Revision 2: the limit is 500 tokens.", [LIMIT | {"value": 500}]
    )
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, v2, GEN)
        report = recompute_edges(session, GEN, touched)
    assert touched == {"output limit|tokens"}
    assert report.retired == 1  # the old conflict, now superseded
    assert edges_by_kind(engine) == {"supersedes": 1, "corroborates": 1, "compatible": 1}
    with transaction(engine) as session:
        all_edges = EdgeRepository(session).all(GEN)
        assert not EdgeRepository(session).conflicts(GEN)
    retired = [e for e in all_edges if e.retired_at is not None]
    assert [e.kind for e in retired] == [EdgeKind.CONFLICTS]


def test_incremental_recompute_equals_full_recompute(engine: Engine) -> None:
    add_version(engine, "a", "Limit 250.", [LIMIT | {"value": 250}, LEAVE | {"value": 25}])
    add_version(engine, "b", "Limit 500.", [LIMIT | {"value": 500}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
    v = add_version(engine, "c", "Leave 30.", [LEAVE | {"value": 30}])
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, v, GEN)
        incremental = recompute_edges(session, GEN, touched)
    assert touched == {"annual leave|days"}
    # the leave block only: under the office profile no namesake-page judge reads the
    # pages' other claims (the reference profile's does: tests/test_edges_namesake_pages.py)
    assert incremental.claims == 2
    # ... read only: the limit's key is not re-evaluated, so the steps after the edges
    # (statuses, review items) are not told it changed
    assert incremental.touched_keys == {"annual leave|days"}
    after_incremental = [s[:6] for s in snapshot(engine)]
    with transaction(engine) as session:
        full = recompute_edges(session, GEN)
    assert full.inserted == full.updated == full.retired == 0
    assert [s[:6] for s in snapshot(engine)] == after_incremental


@pytest.fixture
def any_engine(migrated_url: str) -> Iterator[Engine]:
    """A migrated store on SQLite and, in turn, on PostgreSQL."""
    engine = make_engine(migrated_url)
    yield engine
    engine.dispose()


def test_materiality_settings_change_the_flag_in_place(any_engine: Engine) -> None:
    engine = any_engine
    add_version(engine, "a", "Dose 500 mg.", [{"key": "drug|dose", "value": 500, "unit": "mg"}])
    add_version(engine, "b", "Dose 510 mg.", [{"key": "drug|dose", "value": 510, "unit": "mg"}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
        assert not EdgeRepository(session).conflicts(GEN, material_only=True)
    with transaction(engine) as session:
        report = recompute_edges(
            session, GEN, materiality=MaterialitySettings(high_risk_predicates=["dose"])
        )
        assert report.updated == 1
        assert len(EdgeRepository(session).conflicts(GEN, material_only=True)) == 1


def test_register_supersedes_writes_version_supersessions(engine: Engine) -> None:
    old = add_version(engine, "hr-2019", "Notice is 30 days.", [LEAVE | {"value": 30}])
    new = add_version(engine, "hr-2026", "Notice is 60 days.", [LEAVE | {"value": 60}])
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(
            Source(
                id="hr-2026",
                supersedes=[SupersedesRef(source_id="hr-2019", effective_from=date(2026, 1, 1))],
            )
        )
    with transaction(engine) as session:
        report = recompute_edges(session, GEN)
        rows = SupersessionRepository(session).all()
    assert [(r.newer_version_id, r.older_version_id, r.origin.value) for r in rows] == [
        (new, old, "register")
    ]
    assert rows[0].effective_from == date(2026, 1, 1)
    assert report.by_kind == {"supersedes": 1}
    # the register entry goes away: so do its rows, and the conflict comes back
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(Source(id="hr-2026"))
    with transaction(engine) as session:
        report = recompute_edges(session, GEN)
        assert SupersessionRepository(session).all() == []
    assert report.by_kind == {"conflicts": 1}


def test_supersession_candidates_are_stored_once_and_never_applied(engine: Engine) -> None:
    v = add_version(engine, "hr-2026", "This policy replaces HR-2019.", [])
    add_version(engine, "hr-2019", "Old policy.", [])
    with transaction(engine) as session:
        sources = SourceRepository(session).all()
        candidate = supersession_candidate(
            v,
            start=0,
            end=29,
            quote="This policy replaces HR-2019.",
            target_text="HR-2019",
            sources=[s for s in sources if s.id != "hr-2026"],
        )
        repo = SupersessionRepository(session)
        assert repo.add_candidates([candidate]) == 1
        assert repo.add_candidates([candidate]) == 0
        stored = repo.candidates()
        assert [(c.target_source_id, c.state.value) for c in stored] == [("hr-2019", "open")]
        recompute_edges(session, GEN)
        assert repo.all() == []  # a mention never becomes a version supersession


@pytest.mark.postgres
def test_incremental_recompute_on_postgresql(postgres_url: str) -> None:
    upgrade(postgres_url)
    engine = make_engine(postgres_url)
    try:
        add_version(engine, "policy", "Revision 1: 250.", [LIMIT | {"value": 250}])
        add_version(engine, "wiki", "500.", [LIMIT | {"value": 500}])
        with transaction(engine) as session:
            assert recompute_edges(session, GEN).by_kind == {"conflicts": 1}
        v2 = add_version(engine, "policy", "Revision 2: 500.", [LIMIT | {"value": 500}])
        with transaction(engine) as session:
            report = recompute_edges(session, GEN, keys_touched_by_version(session, v2, GEN))
        assert report.retired == 1
        assert edges_by_kind(engine) == {"supersedes": 1, "corroborates": 1, "compatible": 1}
        before = snapshot(engine)
        with transaction(engine) as session:
            recompute_edges(session, GEN)
        assert snapshot(engine) == before
    finally:
        engine.dispose()


def test_text_saying_it_replaces_a_document_is_only_a_candidate(engine: Engine) -> None:
    from claims.edge_refresh import record_supersession_candidates

    add_version(engine, "travel-2019", "Travel costs are refunded within 30 days.", [])
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(
            Source(id="travel-2019", title="Travel Policy 2019")
        )
    v = add_version(
        engine,
        "travel-2026",
        "This policy supersedes the Travel Policy 2019. Refunds: 14 days.",
        [],
    )
    with transaction(engine) as session:
        assert record_supersession_candidates(session, v) == 1
        assert record_supersession_candidates(session, v) == 0  # idempotent
        recompute_edges(session, GEN)
        repo = SupersessionRepository(session)
        [candidate] = repo.candidates()
        assert candidate.target_source_id == "travel-2019"
        assert candidate.quote == "This policy supersedes the Travel Policy 2019."
        assert candidate.state.value == "open"
        assert repo.all() == []  # never applied without the register


def test_incremental_recompute_syncs_only_the_sources_it_touches(engine: Engine) -> None:
    add_version(engine, "p", "250.", [LIMIT | {"value": 250}])
    add_version(engine, "p", "500.", [LIMIT | {"value": 500}])
    add_version(engine, "q", "Leave 25.", [LEAVE | {"value": 25}])
    q2 = add_version(engine, "q", "Leave 30.", [LEAVE | {"value": 30}])
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, q2, GEN)
        recompute_edges(session, GEN, touched)
        rows = SupersessionRepository(session).all()
    # only q's lineage was derived; p's rows appear with the next recompute that touches p
    assert {r.newer_version_id for r in rows} == {q2}
    with transaction(engine) as session:
        recompute_edges(session, GEN)
        assert len(SupersessionRepository(session).all()) == 2
    assert edges_by_kind(engine) == {"supersedes": 2}


def test_register_change_reaches_an_incremental_recompute(engine: Engine) -> None:
    old = add_version(engine, "hr-2019", "Notice is 30 days.", [LEAVE | {"value": 30}])
    add_version(engine, "hr-2026", "Notice is 60 days.", [LEAVE | {"value": 60}])
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(
            Source(id="hr-2026", supersedes=[SupersedesRef(source_id="hr-2019")])
        )
    with transaction(engine) as session:
        report = recompute_edges(session, GEN, keys_touched_by_version(session, old, GEN))
    assert report.by_kind == {"supersedes": 1}
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(Source(id="hr-2026"))
    with transaction(engine) as session:
        touched = keys_touched_by_sources(session, ["hr-2026", "hr-2019"], GEN)
        report = recompute_edges(session, GEN, touched)
        assert SupersessionRepository(session).all() == []
    assert touched == {"annual leave|days"}
    assert report.by_kind == {"conflicts": 1} and report.retired == 1


def test_explain_pair_says_why_two_stored_claims_are_not_linked(engine: Engine) -> None:
    from claims.edge_refresh import explain_pair

    add_version(engine, "a", "Q1: 12.", [LIMIT | {"value": 12, "scope": {"period": "q1"}}])
    add_version(engine, "b", "Q2: 15.", [LIMIT | {"value": 15, "scope": {"period": "q2"}}])
    add_version(engine, "c", "Q2 again: 15.", [LIMIT | {"value": 16, "scope": {"period": "q2"}}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
        claims = sorted(ClaimRepository(session).all(GEN), key=lambda c: c.source_id or "")
        a, b, c = claims
        why = explain_pair(session, a.id, c.id)
        assert (why.kind, why.rule) == ("compatible", "scope")
        assert "q1 vs q2" in why.reason
        conflict = explain_pair(session, c.id, b.id)
        assert (conflict.kind, conflict.rule) == ("conflicts", "value")
        assert conflict.edge_id is not None


def test_an_edge_produced_again_is_revived_with_its_original_row(any_engine: Engine) -> None:
    engine = any_engine
    add_version(engine, "hr-2019", "Notice is 30 days.", [LEAVE | {"value": 30}])
    add_version(engine, "hr-2026", "Notice is 60 days.", [LEAVE | {"value": 60}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
        [conflict] = EdgeRepository(session).conflicts(GEN)
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(
            Source(id="hr-2026", supersedes=[SupersedesRef(source_id="hr-2019")])
        )
        assert recompute_edges(session, GEN).retired == 1
        assert EdgeRepository(session).conflicts(GEN) == []
    with transaction(engine) as session:
        SourceRepository(session).apply_register_entry(Source(id="hr-2026"))
        report = recompute_edges(session, GEN)
        assert (report.revived, report.inserted) == (1, 0)
        [again] = EdgeRepository(session).conflicts(GEN)
    assert again.id == conflict.id and again.created_at == conflict.created_at
    assert again.retired_at is None


def test_incremental_recompute_loads_a_coarse_block_only_for_a_near_miss(engine: Engine) -> None:
    # Three keys share the coarse key "limit": "output limit" and "limit" are a near miss,
    # "upload limit" is a near miss of "limit" only. Another subject's limit is not near.
    output = {"key": "output limit", "coarse": "limit", "unit": "token"}
    bare = {"key": "limit", "coarse": "limit", "unit": "token"}
    upload = {"key": "upload limit", "coarse": "limit", "unit": "token"}
    other = {"key": "bodar quota", "coarse": "quota", "unit": "token"}
    add_version(engine, "a", "Output limit 250.", [output | {"value": 250}])
    add_version(engine, "b", "Limit 500.", [bare | {"value": 500}])
    add_version(engine, "c", "Upload limit 900.", [upload | {"value": 900}])
    add_version(engine, "d", "Quota 5.", [other | {"value": 5}])
    with transaction(engine) as session:
        recompute_edges(session, GEN)
    before = snapshot(engine)
    assert any(e[1] in ("ambiguous", "compatible") for e in before)  # the near misses

    v = add_version(engine, "e", "Output limit 300.", [output | {"value": 300}])
    with transaction(engine) as session:
        near = recompute_edges(session, GEN, keys_touched_by_version(session, v, GEN))
    assert near.coarse_keys == 1 and near.claims == 4  # the whole "limit" block
    after_incremental = [s[:6] for s in snapshot(engine)]
    with transaction(engine) as session:
        full = recompute_edges(session, GEN)
    assert full.inserted == full.updated == full.retired == 0
    assert [s[:6] for s in snapshot(engine)] == after_incremental

    v = add_version(engine, "f", "Quota 6.", [other | {"value": 6}])
    with transaction(engine) as session:
        alone = recompute_edges(session, GEN, keys_touched_by_version(session, v, GEN))
    assert alone.coarse_keys == 0 and alone.claims == 2  # no partner: only its own key


def test_inserted_edges_read_back_with_their_exact_values(any_engine: Engine) -> None:
    from datetime import UTC, datetime

    from claims.edges.builder import EdgeRecord

    add_version(any_engine, "a", "Limit 250.", [LIMIT | {"value": 250, "id": "c-a"}])
    add_version(any_engine, "b", "Limit 500.", [LIMIT | {"value": 500, "id": "c-b"}])
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)  # no microseconds: the edge case
    record = EdgeRecord("e-1", "conflicts", "c-a", "c-b", LIMIT["key"], "value", "r", True, 0.5)
    with transaction(any_engine) as session:
        EdgeRepository(session).sync(GEN, [record], None, now=moment)
    with transaction(any_engine) as session:
        row = session.get(EdgeRow, "e-1")
        assert row is not None
        stored = row.created_at if row.created_at.tzinfo else row.created_at.replace(tzinfo=UTC)
        assert (stored, row.material, row.materiality, row.retired_at) == (
            moment,
            True,
            0.5,
            None,
        )
        assert EdgeRepository(session).sync(GEN, [record], None, now=moment).unchanged == 1
