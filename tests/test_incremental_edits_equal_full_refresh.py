"""An incremental run after edits stores the rows a full refresh stores (issue 33).

Large claim keys are re-evaluated from the claims that changed and the first claims of
their groups (``claims.edge_delta``), not whole. Here two copies of one generated store
(subjects restating and contradicting facts, boilerplate sentences in most notes) take the
same sequence of edits: one is brought up to date incrementally after each edit, from the
change feed as the pipeline does (the key threshold lowered so this small store's keys are
evaluated in part), the other refreshed in full. Every stored row must be the same after
every edit: edges live and retired, value groups, relations, slots, version supersessions,
claim statuses and review items. The edits are the cases the delta path must get right:
a claim joining a group, a claim leaving one, a group's first claim leaving, a new group,
a group vanishing, and random sequences of rewritten and new notes (seeded, so a failure
names its sequence; each step extracts text with spaCy, which keeps hypothesis's
shrinking out of reach here).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, text
from store_template import upgrade
from test_full_refresh_in_batches import _fresh, _load, _refresh, _rows

import claims.edge_delta as edge_delta
import retrieval.read_model as read_model
from claims.edge_refresh import EdgeReport, recompute_edges
from claims.store import changes, make_engine, transaction
from claims.store.sources import SourceRepository
from pipeline.changes import STATUS_KINDS
from retrieval.read_model import build_claim_status
from retrieval.status_delta import KeyPart
from review.policy import policy_for_routing
from review.routing import route
from tests.conftest import _postgres_admin_url, create_postgres_database, drop_postgres_database

FACTS = [
    ("The {s} vendor review takes {n} days.", (10, 15, 20)),
    ("The {s} badge renewal is due every {n} months.", (6, 12)),
]
BOILERPLATE = [
    "Printed copies of this memo are not controlled.",
    "Comments on this memo go to the quality lead.",
]
SUBJECTS = ["Varnholt"]  # one subject: its keys share no near-miss block


def _note(rng: random.Random, index: int, boilerplate: bool = True) -> str:
    sentences = []
    for template, values in FACTS:  # each fact once (a repeated sentence is a group of its own)
        if rng.random() < 0.8:
            sentences.append(template.format(s=rng.choice(SUBJECTS), n=rng.choice(values[:2])))
    if boilerplate:
        sentences += BOILERPLATE
    return f"Quality memo {index}\n\n" + " ".join(sentences) + "\n"


def _corpus(count: int, seed: int) -> dict[str, str]:
    rng = random.Random(seed)
    return {f"qa/memo-{i:03d}": _note(rng, i) for i in range(count)}


STATUS = "status-test"  # the status step's cursor in these stores' change feed


def _incremental(engine: Engine, generation: str) -> EdgeReport:
    """What the pipeline's graph steps do after new versions: edges from the change feed
    (recording the keys they touched, those evaluated in part with their versions), then
    routing of the keys whose edges changed, then the statuses of the keys the feed names
    for the status step (in part where the feed gives their versions)."""
    with transaction(engine) as session:
        todo = changes.pending(session, "test", kinds={changes.CLAIMS}, generation=generation)
        assert todo.keys is not None
        report = recompute_edges(session, generation, todo.keys, changed_versions=todo.versions)
        touched = report.touched_keys or set()
        changes.record_edge_changes(session, touched, report.in_part, generation)
        changes.acknowledge(session, "test", todo.upto)
        policy = policy_for_routing(session, None, actor="pipeline")
        route(session, policy, claim_keys=touched, max_items_per_source=100)
    with engine.begin() as conn:
        status = changes.pending(conn, STATUS, kinds=STATUS_KINDS)
        assert status.keys is not None
        build_claim_status(conn, status.keys, changed_versions=status.versions)
        changes.acknowledge(conn, STATUS, status.upto)
    return report


def _edit(engine: Engine, generation: str, notes: dict[str, str]) -> None:
    """New versions of ``notes``, recorded in the change feed as the claims step does."""
    _load(engine, notes)
    with transaction(engine) as session:
        sources = SourceRepository(session)
        latest = [sources.latest_version(source_id) for source_id in sorted(notes)]
        changes.record_version_changes(session, [v.id for v in latest if v is not None], generation)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engines(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Engine, Engine]]:
    """Two empty migrated stores of one backend."""
    if request.param == "sqlite":
        yield _fresh(tmp_path, "part"), _fresh(tmp_path, "whole")
        return
    admin = _postgres_admin_url()
    urls = [create_postgres_database(admin) for _ in range(2)]
    made = []
    try:
        for url in urls:
            upgrade(url)
            made.append(make_engine(url))
        yield made[0], made[1]
    finally:
        for engine in made:
            engine.dispose()
        for url in urls:
            drop_postgres_database(admin, url)


@pytest.fixture
def parts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys whose statuses went in part (``part_of_key`` called through, recorded)."""
    found: list[str] = []

    def recorded(*args: object) -> KeyPart | None:
        part = read_model_part_of_key(*args)  # type: ignore[arg-type]
        if part is not None:
            found.append(part.claim_key)
        return part

    monkeypatch.setattr(read_model, "part_of_key", recorded)
    return found


read_model_part_of_key = read_model.part_of_key


@pytest.fixture
def stores(engines: tuple[Engine, Engine], monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(edge_delta, "DELTA_MIN_MEMBERS", 8)
    monkeypatch.setattr(edge_delta, "DELTA_MAX_SHARE", 0.9)
    notes = _corpus(40, seed=3)
    part, whole = engines
    generation = _load(part, notes)
    _load(whole, notes)
    for engine in (part, whole):
        _refresh(engine, generation, None)
    with transaction(part) as session:  # the feed's consumers start after the first load
        for consumer in ("test", STATUS):
            changes.acknowledge(session, consumer, changes.newest_change_id(session))
    return part, whole, generation


def _step(stores, notes: dict[str, str]) -> EdgeReport:  # type: ignore[no-untyped-def]
    part, whole, generation = stores
    for engine in (part, whole):
        _edit(engine, generation, notes)
    report = _incremental(part, generation)
    _refresh(whole, generation, None)
    assert _rows(part) == _rows(whole)
    return report


def test_named_edits_store_the_rows_of_a_full_refresh(stores, parts: list[str]) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    body = _note(rng, 12)
    # a claim joins each boilerplate group (a new note restating them)
    report = _step(stores, {"qa/memo-900": _note(rng, 900)})
    assert report.keys_in_part >= 2  # a boilerplate key and a fact's key went in part
    assert set(parts) & set(report.in_part)  # ... and so did the statuses of a key
    parts.clear()
    # claims leave their groups: a note rewritten without its boilerplate
    report = _step(stores, {"qa/memo-012": body.split("Printed")[0] + "\n"})
    assert report.keys_in_part >= 1
    assert parts
    # a group's first claim leaves: the first note in order rewritten without boilerplate
    _step(stores, {"qa/memo-000": "Quality memo 0\n\nThe Varnholt vendor review takes 10 days.\n"})
    # a new group: a value no note stated yet, in a key evaluated in part
    _step(
        stores, {"qa/memo-901": "Quality memo 901\n\nThe Varnholt vendor review takes 20 days.\n"}
    )
    # ... and it vanishes again
    _step(
        stores, {"qa/memo-901": "Quality memo 901\n\nThe Varnholt vendor review takes 10 days.\n"}
    )
    # a group's first claim comes back in force (the first note restates the boilerplate)
    _step(stores, {"qa/memo-000": _note(rng, 0)})
    # a conflict appears in a boilerplate key (a note states the opposite) and goes again:
    # every member's edge to the other side moves, so the key's edges and statuses go whole
    part = stores[0]
    report = _step(stores, {"qa/memo-902": "Quality memo 902\n\n" + OPPOSITE + "\n"})
    (key,) = _keys_with_live_relations(part) & set(report.touched_keys or ())
    assert _contested(part, key)
    _step(stores, {"qa/memo-902": "Quality memo 902\n\n" + BOILERPLATE[1] + "\n"})
    assert not _contested(part, key)


OPPOSITE = "Printed copies of this memo are controlled."  # against BOILERPLATE[0]


def _keys_with_live_relations(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        sql = "SELECT claim_key FROM value_group_relations WHERE retired_at IS NULL"
        return set(conn.execute(text(sql)).scalars())


def _contested(engine: Engine, key: str) -> int:
    with engine.connect() as conn:
        sql = "SELECT count(*) FROM claim_status WHERE claim_key = :k AND status = 'contested'"
        return int(conn.execute(text(sql), {"k": key}).scalar() or 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_edit_sequences_store_the_rows_of_a_full_refresh(stores, seed: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    in_part = 0
    for _ in range(5):
        notes = {}
        for _note_index in range(rng.choice((1, 1, 2))):
            index = rng.randrange(45)  # mostly rewrites, some new notes
            notes[f"qa/memo-{index:03d}"] = _note(rng, index, boilerplate=rng.random() < 0.7)
        in_part += _step(stores, notes).keys_in_part
    assert in_part > 0
