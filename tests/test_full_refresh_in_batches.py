"""A full refresh a batch of blocks at a time stores the rows one pass does (issue 33).

The full edge recompute reads the store a batch of whole coarse-key blocks at a time
(``claims.edge_batches``), and the status read model a batch of keys at a time, so their
memory follows a batch, not the store. Here a generated corpus (subjects restating and
contradicting ten facts, a boilerplate sentence in most notes, near-miss keys sharing a
head word) is stored twice; one copy is refreshed in one pass, the other in batches of a
few dozen claims, and every stored row must be the same: edges (live and retired), value
groups, relations and slots, claim statuses and the review items routing opens from them.
A full routing pass goes a batch of keys at a time too (``review.routing``: a few conflict
edges per batch here), with the items, resolutions and audit actions of one pass.
"""

from __future__ import annotations

import random
from pathlib import Path

from sqlalchemy import Engine, text
from store_template import upgrade

from claims.edge_batches import key_batches, recompute_in_batches
from claims.edge_refresh import recompute_edges
from claims.edges.builder import MAX_NEAR_MISS_KEYS
from claims.extraction import current_generation, extract
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)
from retrieval.read_model import build_claim_status
from review.conflict_edges import conflict_key_batches
from review.policy import policy_for_routing
from review.routing import RoutingReport, route

ONE_PASS = 10**9  # edges per routing batch: every key in one
ROUTE_BATCH = 6  # a few conflict edges per routing batch

FACTS = [
    ("The {s} deployment freeze lasts {n} days.", (3, 5, 7)),
    ("The {s} backup copies are kept for {n} weeks.", (4, 6, 8)),
    ("The {s} login lockout starts after {n} failed attempts.", (3, 5)),
    ("The {s} help desk answers within {n} hours.", (4, 8, 24)),
    ("The {s} archive quota is {n} GB.", (50, 100, 200)),
    ("The {s} laptop refresh cycle is {n} years.", (3, 4)),
]
BOILERPLATE = [
    "This page was checked by the records team in March.",
    "Send corrections to the service owner by email.",
]
SUBJECTS = ["Nordwind", "Kestrel", "Halvard", "Ostara", "Brightmoor", "Quillon", "Tarnby"]


def _corpus(count: int, seed: int = 5) -> dict[str, str]:
    rng = random.Random(seed)
    truth = {(s, i): rng.choice(v) for s in SUBJECTS for i, (_, v) in enumerate(FACTS)}
    notes = {}
    for index in range(count):
        sentences = []
        for _ in range(5):
            subject, fact = rng.choice(SUBJECTS), rng.randrange(len(FACTS))
            template, values = FACTS[fact]
            value = truth[(subject, fact)]
            if rng.random() < 0.2:  # a note that disagrees with the others
                value = rng.choice([v for v in values if v != value])
            sentences.append(template.format(s=subject, n=value))
        if rng.random() < 0.7:
            sentences.append(rng.choice(BOILERPLATE))
        notes[f"desk/note-{index:03d}"] = f"Desk note {index}\n\n" + " ".join(sentences) + "\n"
    return notes


def _fresh(tmp_path: Path, name: str) -> Engine:
    url = f"sqlite:///{tmp_path / name}.db"
    upgrade(url)
    return make_engine(url)


def _load(engine: Engine, notes: dict[str, str]) -> str:
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        GenerationRepository(session).promote(generation, {})  # routing reads the active one
        for source_id, body in sorted(notes.items()):
            version, _ = SourceRepository(session).add_version(source_id, body)
            claims = extract(body, source_id=source_id, source_version_id=version.id)
            ClaimRepository(session).add_all(claims)
    return generation


def _refresh(
    engine: Engine, generation: str, batch_claims: int | None, per_source: int = 100
) -> RoutingReport:
    with transaction(engine) as session:
        if batch_claims is None:
            recompute_edges(session, generation)
        else:
            recompute_in_batches(session, generation, batch_claims)
        policy = policy_for_routing(session, None, actor="pipeline")
        batch_edges = ONE_PASS if batch_claims is None else ROUTE_BATCH
        report = route(
            session,
            policy,
            claim_keys=None,
            max_items_per_source=per_source,
            batch_edges=batch_edges,
        )
    with engine.begin() as conn:
        build_claim_status(conn, None)
    return report


ROWS = {
    "edges": "SELECT id, kind, rule, reason, claim_key, material, retired_at IS NULL FROM edges",
    "value_group_claims": "SELECT claim_id, value_group_id, claim_key FROM value_group_claims",
    "value_group_relations": "SELECT id, kind, rule, claim_key, material, retired_at IS NULL "
    "FROM value_group_relations",
    "value_group_slots": "SELECT * FROM value_group_slots",
    "version_supersessions": "SELECT id, newer_version_id, older_version_id, origin, "
    "effective_from FROM version_supersessions",
    "claim_status": "SELECT claim_id, claim_key, status, review_item_id, resolution_id, "
    "superseded_by_version_id, policy_version FROM claim_status",
    "review_items": "SELECT ri.id, ri.claim_key, ri.state, ric.claim_id FROM review_items ri "
    "JOIN review_item_claims ric ON ric.review_item_id = ri.id",
    "resolutions": "SELECT review_item_id, method, outcome, dismiss_reason, rationale, "
    "decided_by FROM resolutions",
    "audit_actions": "SELECT entity_id, actor, action FROM audit_events",
}


def _rows(engine: Engine) -> dict[str, list[tuple[object, ...]]]:
    with engine.connect() as conn:
        return {
            name: sorted(tuple(map(str, row)) for row in conn.execute(text(sql)))
            for name, sql in ROWS.items()
        }


def test_a_full_refresh_in_batches_stores_the_rows_of_one_pass(tmp_path: Path) -> None:
    notes = _corpus(60)
    one_pass, batched = _fresh(tmp_path, "one"), _fresh(tmp_path, "batched")
    generation = _load(one_pass, notes)
    _load(batched, notes)
    with transaction(batched) as session:
        batches = list(key_batches(session, generation, 40))
    assert len(batches) > 5  # the corpus really is split
    _refresh(one_pass, generation, None)
    _refresh(batched, generation, 40)
    with transaction(batched) as session:
        assert len(list(conflict_key_batches(session, ROUTE_BATCH))) > 5  # routing is split
    expected = _rows(one_pass)
    assert expected["edges"] and expected["claim_status"] and expected["review_items"]
    assert any(row[1] == "conflicts" for row in expected["edges"])
    assert _rows(batched) == expected


def test_routing_in_batches_holds_back_what_one_pass_holds_back(tmp_path: Path) -> None:
    """The bound on the items one source opens is per pass, not per batch of keys."""
    notes = _corpus(40, seed=3)
    one_pass, batched = _fresh(tmp_path, "one"), _fresh(tmp_path, "batched")
    generation = _load(one_pass, notes)
    _load(batched, notes)
    expected = _refresh(one_pass, generation, None, per_source=1)
    found = _refresh(batched, generation, 30, per_source=1)
    assert expected.held_back and expected.held_back_keys
    assert (found.held_back, found.held_back_keys) == (expected.held_back, expected.held_back_keys)
    assert (found.opened, found.conflict_edges) == (expected.opened, expected.conflict_edges)
    assert _rows(batched) == _rows(one_pass)


def test_keys_sharing_a_head_word_land_in_one_batch(tmp_path: Path) -> None:
    engine = _fresh(tmp_path, "heads")
    generation = _load(engine, _corpus(40))
    with transaction(engine) as session:
        batches = list(key_batches(session, generation, 1))
        coarse = dict(
            session.execute(
                text("SELECT DISTINCT claim_key, coarse_key FROM claims WHERE generation = :g"),
                {"g": generation},
            ).all()
        )
    batch_of = {key: n for n, batch in enumerate(batches) for key in batch}
    assert sorted(batch_of) == sorted(k for k in coarse if not k.startswith("unknown:"))
    by_head: dict[str, set[int]] = {}
    for key, head in coarse.items():
        if head and key in batch_of:
            by_head.setdefault(head, set()).add(batch_of[key])
    assert all(len(found) == 1 for found in by_head.values())
    assert any(len([k for k in coarse if coarse[k] == head]) > 1 for head in by_head)


def test_a_batched_refresh_retires_what_one_pass_retires_after_an_edit(tmp_path: Path) -> None:
    notes = _corpus(50, seed=9)
    one_pass, batched = _fresh(tmp_path, "one"), _fresh(tmp_path, "batched")
    generation = _load(one_pass, notes)
    _load(batched, notes)
    _refresh(one_pass, generation, None)
    _refresh(batched, generation, 30)
    # a note rewritten: its new version replaces the old one, whose claims stop standing
    edited = {"desk/note-007": "Desk note 7\n\nThe Nordwind archive quota is 999 GB.\n"}
    for engine in (one_pass, batched):
        _load(engine, edited)
    _refresh(one_pass, generation, None)
    _refresh(batched, generation, 30)
    expected = _rows(one_pass)
    assert any(row[-1] == "0" for row in expected["edges"])  # something was retired
    assert _rows(batched) == expected


def _route_again(engine: Engine, batch_edges: int) -> RoutingReport:
    with transaction(engine) as session:
        policy = policy_for_routing(session, None, actor="pipeline")
        return route(session, policy, claim_keys=None, batch_edges=batch_edges)


def test_a_batched_pass_closes_the_items_whose_conflicts_went_as_one_pass_does(
    tmp_path: Path,
) -> None:
    """Items at keys left without a live conflict edge (none of them in any batch) and at
    keys still in conflict are closed alike."""
    notes = _corpus(40, seed=4)
    one_pass, batched = _fresh(tmp_path, "one"), _fresh(tmp_path, "batched")
    generation = _load(one_pass, notes)
    _load(batched, notes)
    _refresh(one_pass, generation, None)
    _refresh(batched, generation, 30)
    with one_pass.connect() as conn:
        keys = sorted(
            k for (k,) in conn.execute(text("SELECT DISTINCT claim_key FROM review_items"))
        )
    gone = keys[::3]  # their conflicts go: a corrected document, say
    assert gone
    for engine in (one_pass, batched):
        with engine.begin() as conn:
            for key in gone:
                conn.execute(
                    text(
                        "UPDATE edges SET retired_at = CURRENT_TIMESTAMP "
                        "WHERE kind = 'conflicts' AND claim_key = :k"
                    ),
                    {"k": key},
                )
    expected = _route_again(one_pass, ONE_PASS)
    found = _route_again(batched, ROUTE_BATCH)
    assert expected.orphaned and found.orphaned == expected.orphaned
    rows = _rows(one_pass)
    assert {row[1] for row in rows["review_items"] if row[2] == "dismissed"} == set(gone)
    assert _rows(batched) == rows


def _crowded_head_word(count: int, seed: int = 8) -> dict[str, str]:
    """Notes about more subjects than the near-miss cap, each stating its tool-room quota and
    its parking quota (keys "<subject> ... quota": one head word, over the cap), beside
    the usual facts of a few subjects."""
    rng = random.Random(seed)
    syllables = ["ka", "lo", "mi", "ran", "tu", "vel", "zo", "per", "dal", "gin"]
    names: set[str] = set()
    while len(names) < MAX_NEAR_MISS_KEYS:
        names.add("".join(rng.choice(syllables) for _ in range(3)).capitalize())
    crowd = sorted(names)
    notes = _corpus(count, seed=seed)
    for index, name in enumerate(crowd):
        tools, parking = rng.choice((20, 40)), rng.choice((3, 5))
        notes[f"crowd/note-{index:03d}"] = (
            f"Crowd note {index}\n\nThe {name} tool room quota is {tools} items. "
            f"The {name} parking quota is {parking} spaces.\n"
        )
        if index % 3 == 0:  # a second note that disagrees on one of them
            notes[f"crowd/again-{index:03d}"] = (
                f"Crowd again {index}\n\nThe {name} tool room quota is {tools + 5} items.\n"
            )
    return notes


def test_a_head_word_over_the_near_miss_cap_joins_no_batch(tmp_path: Path) -> None:
    """Keys whose only shared block is too large to be searched for near misses may go to
    different batches (one generic head word made a batch of a tenth of the store), and the
    rows are still those of one pass."""
    notes = _crowded_head_word(30)
    one_pass, batched = _fresh(tmp_path, "one"), _fresh(tmp_path, "batched")
    generation = _load(one_pass, notes)
    _load(batched, notes)
    with transaction(batched) as session:
        keys_of_quota = set(
            session.scalars(
                text("SELECT DISTINCT claim_key FROM claims WHERE coarse_key = 'quota'")
            )
        )
        batches = list(key_batches(session, generation, 40))
    assert len(keys_of_quota) > MAX_NEAR_MISS_KEYS  # the block is over the cap
    holding = [batch for batch in batches if batch & keys_of_quota]
    assert len(holding) > 1  # its keys are not held in one batch
    assert max(len(batch) for batch in batches) < len(keys_of_quota)
    _refresh(one_pass, generation, None)
    _refresh(batched, generation, 40)
    expected = _rows(one_pass)
    assert any(row[1] == "conflicts" and "quota" in row[4] for row in expected["edges"])
    assert _rows(batched) == expected
