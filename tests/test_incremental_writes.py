"""An edited note rewrites the derived rows of its own keys only, and ends where a full
rebuild of the same claims ends (edges, value groups, slots, claim_status, review items)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.extraction import current_generation, extract
from claims.models import Source
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from retrieval.read_model import build_claim_status
from review.policy import policy_for_routing
from review.routing import route
from tests.store_template import upgrade  # a copy of a store migrated once

NOTICE = "The Alpha plan notice period is {} days."
RETENTION = "The Beta plan invoice retention period is {} years."
ALPHA = "alpha plan notice period"
BETA = "beta plan invoice retention period"

# every derived row of a key, with SQLite's rowid: a row deleted and written again gets a
# new one, so equal rowids and stamps mean the row was left alone
DERIVED = {
    "edges": "SELECT rowid, id, created_at, retired_at FROM edges WHERE claim_key = :k",
    "value_group_claims": "SELECT rowid, claim_id, value_group_id FROM value_group_claims "
    "WHERE claim_key = :k",
    "value_group_relations": "SELECT rowid, id, created_at, retired_at "
    "FROM value_group_relations WHERE claim_key = :k",
    "value_group_slots": "SELECT rowid, value_group_id FROM value_group_slots WHERE claim_key = :k",
    "claim_status": "SELECT rowid, claim_id, status, computed_at FROM claim_status "
    "WHERE claim_key = :k",
    "review_items": "SELECT rowid, id, state, revision, updated_at FROM review_items "
    "WHERE claim_key = :k",
}


def _store(tmp_path: Path) -> tuple[Engine, str]:
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    return make_engine(url), current_generation()[0]


def _add(engine: Engine, source_id: str, body: str) -> str:
    """Store a version of ``source_id`` and its claims; the version id."""
    generation, label = current_generation()
    with transaction(engine) as session:
        generations = GenerationRepository(session)
        generations.ensure(generation, label)
        if generations.active() is None:
            generations.promote(generation, {})  # routing reads the active generation
        sources = SourceRepository(session)
        version, _ = sources.add_version(source_id, body)
        ClaimRepository(session).add_all(
            extract(body, source_id=source_id, source_version_id=version.id)
        )
        sources.apply_register_entry(Source(id=source_id, access_groups=[]))
        return version.id


def _derive(engine: Engine, generation: str, keys: set[str] | None) -> None:
    """What the pipeline's claim_edges, review_queue and conflict_status steps do."""
    with transaction(engine) as session:
        report = recompute_edges(session, generation, keys)
        policy = policy_for_routing(session, None, actor="pipeline")
        route(session, policy, claim_keys=report.touched_keys)
    with engine.begin() as conn:
        build_claim_status(conn, report.touched_keys)


def _rows(engine: Engine, key: str) -> dict[str, list[tuple[object, ...]]]:
    with engine.connect() as conn:
        return {
            table: sorted(tuple(r) for r in conn.execute(text(sql), {"k": key}))
            for table, sql in DERIVED.items()
        }


def _full_rebuild_changes_nothing(engine: Engine, generation: str) -> None:
    """A full recompute over the incremental result finds every row already right."""
    keys = {ALPHA, BETA}
    before = {key: _rows(engine, key) for key in keys}
    with transaction(engine) as session:
        report = recompute_edges(session, generation, None)
    assert (report.inserted, report.updated, report.revived, report.retired) == (0, 0, 0, 0)
    with engine.begin() as conn:
        build_claim_status(conn, None)
    with transaction(engine) as session:
        routed = route(session, policy_for_routing(session, None, actor="pipeline"))
    assert not routed.opened and not routed.grown and not routed.reopened
    assert {key: _rows(engine, key) for key in keys} == before


def test_an_edited_note_leaves_the_other_keys_rows_as_they_were(tmp_path: Path) -> None:
    engine, generation = _store(tmp_path)
    _add(engine, "hr/alpha-1", NOTICE.format(30))
    _add(engine, "hr/alpha-2", NOTICE.format(60) + " " + RETENTION.format(5))
    _add(engine, "fin/beta-1", RETENTION.format(7))
    _add(engine, "fin/beta-2", RETENTION.format(10))
    _derive(engine, generation, None)
    beta_before = _rows(engine, BETA)
    alpha_before = _rows(engine, ALPHA)
    assert beta_before["edges"] and beta_before["review_items"]  # the beta notes disagree

    # the first alpha note is edited: a new version of its source, another value
    version = _add(engine, "hr/alpha-1", NOTICE.format(90))
    with transaction(engine) as session:
        keys = keys_touched_by_version(session, version, generation)
    assert keys == {ALPHA}
    _derive(engine, generation, keys)

    assert _rows(engine, BETA) == beta_before  # not one beta row rewritten
    alpha_after = _rows(engine, ALPHA)
    assert alpha_after["edges"] != alpha_before["edges"]
    # the alpha note that did not change keeps its status row (60 days is still contested)
    with engine.connect() as conn:
        kept = conn.execute(
            text(
                "SELECT count(*) FROM claim_status s JOIN claims c ON c.id = s.claim_id "
                "WHERE c.source_id = 'hr/alpha-2' AND s.claim_key = :k"
            ),
            {"k": ALPHA},
        ).scalar()
    unchanged = set(alpha_before["claim_status"]) & set(alpha_after["claim_status"])
    assert kept == 1 and len(unchanged) == 1
    _full_rebuild_changes_nothing(engine, generation)


NOTES = st.lists(
    st.tuples(st.sampled_from([14, 30, 60, 90]), st.sampled_from([5, 7, 10])),
    min_size=2,
    max_size=4,
)
EDITS = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from([14, 21, 30, 60]), st.booleans()),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(notes=NOTES, edits=EDITS)
def test_incremental_runs_end_where_a_full_rebuild_ends(
    tmp_path_factory: object, notes: list[tuple[int, int]], edits: list[tuple[int, int, bool]]
) -> None:
    tmp = tmp_path_factory.mktemp("incremental")  # type: ignore[attr-defined]
    engine, generation = _store(tmp)
    for index, (days, years) in enumerate(notes):
        _add(engine, f"n/{index}", NOTICE.format(days) + " " + RETENTION.format(years))
    _derive(engine, generation, None)
    for note, days, keep_retention in edits:
        index = note % len(notes)
        body = NOTICE.format(days)
        if keep_retention:
            body += " " + RETENTION.format(notes[index][1])
        version = _add(engine, f"n/{index}", body)
        with transaction(engine) as session:
            keys = keys_touched_by_version(session, version, generation)
        _derive(engine, generation, keys)
    _full_rebuild_changes_nothing(engine, generation)
    engine.dispose()
