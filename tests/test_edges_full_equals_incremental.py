"""A full build stores the edges any sequence of incremental runs does (issue 31, point 8).

Adding a file of many "X N limit" keys took the coarse-key block "limit" over the near-miss
cap: a full build then searched it no more and dropped the ambiguous edges between "output
limit" and "reply drafter output limit", while the incremental run, which read only the
blocks under the cap, kept them. Files here are added one at a time, in random orders, each
followed by the incremental recompute of the keys it touched; the live edges must equal the
ones a single full recompute of the same files stores.
"""

from __future__ import annotations

import random

from sqlalchemy import Engine, text
from store_template import upgrade

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.edges.builder import MAX_NEAR_MISS_KEYS
from claims.extraction import current_generation, extract
from claims.models import Claim
from claims.store import (
    ClaimRepository,
    GenerationRepository,
    SourceRepository,
    make_engine,
    transaction,
)

QUEUES = "Queue limits\n\n" + "\n".join(
    f"The batch{n} queue limit is {n + 5} jobs." for n in range(MAX_NEAR_MISS_KEYS + 6)
)
FILES = {
    "notes/drafter": "Drafter notes\n\nThe reply drafter output limit is 400 tokens.\n",
    "notes/output": "Output notes\n\nThe output limit is 300 tokens.\n",
    "notes/output-old": "Old output notes\n\nThe output limit is 250 tokens.\n",
    "notes/windows": "Windows\n\nThe sync window is between 4 and 6 hours.\n"
    "The cooling period is 3 days, 5 days or 8 days.\n",
    "notes/windows-b": "More windows\n\nThe sync window is between 9 and 11 hours.\n"
    "The cooling period is 5 days.\n",
    "ops/queues": QUEUES,
}
# version ids are hashes of source id and bytes: a file's claims are the same in every store
_EXTRACTED: dict[str, list[Claim]] = {}


def _claims(source_id: str, version_id: str) -> list[Claim]:
    if version_id not in _EXTRACTED:
        _EXTRACTED[version_id] = extract(
            FILES[source_id], source_id=source_id, source_version_id=version_id
        )
    return _EXTRACTED[version_id]


def _store(engine: Engine, order: list[str], *, incremental: bool) -> None:
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
    for source_id in order:
        with transaction(engine) as session:
            version, _ = SourceRepository(session).add_version(source_id, FILES[source_id])
            ClaimRepository(session).add_all(_claims(source_id, version.id))
            if incremental:
                keys = keys_touched_by_version(session, version.id, generation)
                recompute_edges(session, generation, keys)
    if not incremental:
        with transaction(engine) as session:
            recompute_edges(session, generation)


def _live_edges(engine: Engine) -> list[tuple[object, ...]]:
    sql = """
        SELECT e.kind, e.rule, e.reason, e.claim_key, e.material,
               l.source_id, l.quote, l.span_start, r.source_id, r.quote, r.span_start
        FROM edges e JOIN claims l ON l.id = e.left_claim_id
                     JOIN claims r ON r.id = e.right_claim_id
        WHERE e.retired_at IS NULL
    """
    with engine.connect() as conn:
        return sorted(tuple(row) for row in conn.execute(text(sql)).all())


def _fresh(tmp_path, name: str) -> Engine:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / name}.db"
    upgrade(url)
    return make_engine(url)


def test_a_block_taken_over_the_near_miss_cap_drops_its_near_misses_either_way(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    order = ["notes/drafter", "notes/output", "ops/queues"]
    incremental, full = _fresh(tmp_path, "inc"), _fresh(tmp_path, "full")
    _store(incremental, order, incremental=True)
    _store(full, order, incremental=False)
    assert _live_edges(incremental) == _live_edges(full)
    # and before the queues arrive, both say the two output limits may be one attribute
    before = _fresh(tmp_path, "before")
    _store(before, order[:2], incremental=True)
    assert any(kind == "ambiguous" for kind, *_ in _live_edges(before))


def test_incremental_runs_in_any_order_store_what_a_full_build_does(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    full = _fresh(tmp_path, "full")
    _store(full, sorted(FILES), incremental=False)
    expected = _live_edges(full)
    assert any(kind == "conflicts" for kind, *_ in expected)
    rng = random.Random(31)
    orders = {tuple(rng.sample(sorted(FILES), len(FILES))) for _ in range(200)}
    for n, order in enumerate(sorted(orders)[:50]):
        engine = _fresh(tmp_path, f"order{n}")
        _store(engine, list(order), incremental=True)
        assert _live_edges(engine) == expected, order
        engine.dispose()
