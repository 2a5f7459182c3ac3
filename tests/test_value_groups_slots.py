"""Slots: many distinct values of one key stored linearly (issue 14.1, distinct values).

Value groups of one key that differ only in an exact value form a *slot*. Between them the
rules can only say "same value" or "conflict (value)", so the store keeps one row per value
group and readers decide who contests whom from the values they may see (the lowest and
highest of each authority tier). Counts here, not timings (bench/ and docs/EDGES.md).
"""

from __future__ import annotations

from typing import Any

from edge_fixtures import claim_from_spec
from hypothesis import given, settings
from hypothesis import strategies as st
from note_store import store_notes
from sqlalchemy import Engine, text

from claims.edges import MaterialitySettings, build_edges, facts_from_claim
from claims.edges.materiality import assess
from claims.edges.value_groups import (
    SlotGroup,
    points_apart,
    slot_disagreements,
    slot_material,
)
from claims.models import Requester
from retrieval.status import status_of_key

FEE = "The visitor parking fee is {v} EUR per day."


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def _fee_key(engine: Engine) -> str:
    with engine.connect() as conn:
        return str(
            conn.execute(
                text("SELECT claim_key FROM claims WHERE quote LIKE '%parking fee%' LIMIT 1")
            ).scalar()
        )


def test_distinct_values_in_one_slot_store_rows_linear_in_the_values(engine: Engine) -> None:
    # 300 branches each post their own fee, twice: 300 value groups of one slot. Compared
    # pair by pair that was 44,850 relations; now one slot row per value group.
    notes = [
        (f"branch/{n:03d}-{copy}", f"Notice to visitors\n\n{FEE.format(v=10 + n)}\n", [])
        for n in range(300)
        for copy in ("a", "b")
    ]
    store_notes(engine, notes)
    key = _fee_key(engine)
    claims = _count(engine, f"SELECT count(*) FROM claims WHERE claim_key = '{key}'")
    assert claims == 600
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    slots = f"FROM value_group_slots WHERE claim_key = '{key}'"
    assert _count(engine, f"SELECT count(*) {slots}") == 300
    assert _count(engine, f"SELECT count(DISTINCT slot_id) {slots}") == 1
    members = f"FROM value_group_claims WHERE claim_key = '{key}'"
    assert _count(engine, f"SELECT count(*) {members}") == 600
    edges = _count(engine, "SELECT count(*) FROM edges WHERE retired_at IS NULL")
    assert edges < 3 * claims
    # review routing reads conflict sets from the edges: the whole slot is one set
    with engine.connect() as conn:
        pairs = conn.execute(
            text("SELECT left_claim_id, right_claim_id FROM edges WHERE kind = 'conflicts'")
        ).all()
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for left, right in pairs:
        parent[root(left)] = root(right)
    assert len(parent) == claims
    assert len({root(node) for node in parent}) == 1
    report = status_of_key(engine, key, Requester(principal="anyone"))
    assert report.status.value == "contested"
    assert {c.status.value for c in report.claims} == {"contested"}
    assert len(report.sides) == 300 and len(report.claims) == 100  # one page


def test_a_reader_who_sees_some_values_gets_the_status_of_those_values(engine: Engine) -> None:
    # Public notes say 100 and 102 EUR (2% apart: rounding, not a material conflict); a
    # legal-only memo says 150 EUR. A public reader must see no contest; a legal reader must.
    store_notes(
        engine,
        [
            ("notes/north", f"North car park\n\n{FEE.format(v=100)}\n", []),
            ("notes/south", f"South car park\n\n{FEE.format(v=102)}\n", []),
            ("memo/legal", f"Legal memo\n\n{FEE.format(v=150)}\n", ["legal"]),
        ],
    )
    key = _fee_key(engine)
    assert _count(engine, "SELECT count(*) FROM value_group_slots") == 3
    public = status_of_key(engine, key, Requester(principal="pat"))
    assert public.status.value == "none"
    assert sorted(s.value for s in public.sides) == [100, 102]
    assert all(not c.reasons for c in public.claims)
    legal = status_of_key(engine, key, Requester(principal="lee", groups=["legal"]))
    assert legal.status.value == "contested"
    assert sorted(s.value for s in legal.sides) == [100, 102, 150]
    contested = {c.value for c in legal.claims if c.status.value == "contested"}
    assert contested == {100, 102, 150}


def _fee(source: str, value: float) -> Any:
    spec = {"key": "parking fee", "unit": "EUR", "dimension": "EUR", "value": value}
    return facts_from_claim(claim_from_spec(spec | {"source": source}, default_source=source))


def _row(name: str, value: float, rank: int | None, policy: MaterialitySettings) -> SlotGroup:
    return SlotGroup(
        name,
        "slot",
        "parking fee",
        value,
        rank,
        False,
        policy.relative_difference_threshold,
        policy.tier_gap_resolvable,
    )


VALUES = st.sampled_from([0.0, -3.0, 1.0, 4.0, 4.1, 5.0, 20.0, 95.0, 100.0, 1000.0])
RANKS = st.sampled_from([None, 0, 1, 2])


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(VALUES, RANKS), min_size=1, max_size=9),
    threshold=st.sampled_from([0.0, 0.05, 0.5, 1.0]),
    gap=st.sampled_from([1, 2]),
)
def test_the_slot_rule_gives_what_every_pair_would(
    rows: list[tuple[float, int | None]], threshold: float, gap: int
) -> None:
    # For each group: contested (some group apart from it) and materially contested (some
    # such pair material under assess) exactly as a comparison with every group says.
    tiers = ["regulator", "official", "internal"]
    policy = MaterialitySettings(
        relative_difference_threshold=threshold, authority_tiers=tiers, tier_gap_resolvable=gap
    )
    groups = [_row(f"g{i}", v, r, policy) for i, (v, r) in enumerate(rows)]
    facts = {g.value_group_id: _fee(g.value_group_id, g.value) for g in groups}
    tier = {g.value_group_id: None if g.tier_rank is None else tiers[g.tier_rank] for g in groups}
    found: dict[str, set[bool]] = {}
    for x, _other, material in slot_disagreements(groups):
        found.setdefault(x.value_group_id, set()).add(material)
    for x in groups:
        pairs = [
            assess(
                facts[x.value_group_id],
                facts[y.value_group_id],
                "value",
                policy,
                tier[x.value_group_id],
                tier[y.value_group_id],
            ).material
            for y in groups
            if y is not x and points_apart(x.value, y.value)
        ]
        assert bool(pairs) == (x.value_group_id in found)
        assert any(pairs) == any(found.get(x.value_group_id, ()))
        for y in groups:
            if y is not x and points_apart(x.value, y.value):
                expected = assess(
                    facts[x.value_group_id],
                    facts[y.value_group_id],
                    "value",
                    policy,
                    tier[x.value_group_id],
                    tier[y.value_group_id],
                ).material
                assert slot_material(x, y) == expected


def test_values_in_one_slot_are_not_compared_pair_by_pair() -> None:
    # 2,000 distinct fees: the builder compares a bounded number of groups per value
    claims = [_fee(f"s{n}", 10 + n) for n in range(2000)]
    build = build_edges(claims, generation="g1")
    assert build.relations == []
    assert len(build.slots) == 2000
    assert build.comparisons < 4 * 2000
    assert len([e for e in build.edges if e.kind == "conflicts"]) < 3 * 2000


def test_a_sentence_repeated_in_one_file_is_not_a_list_of_values(engine: Engine) -> None:
    # A price list that repeats itself: each of 20 fees appears on three lines of one file.
    # Three identical sentences are one statement three times, not an enumeration, so the
    # 20 fees still form one slot (before: every pair of fees got a relation row).
    lines = [FEE.format(v=5 * (1 + n % 20)) for n in range(60)]
    store_notes(engine, [("price/list", "Price list\n\n" + "\n".join(lines) + "\n", [])])
    key = _fee_key(engine)
    assert _count(engine, f"SELECT count(*) FROM claims WHERE claim_key = '{key}'") == 60
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    assert _count(engine, f"SELECT count(*) FROM value_group_slots WHERE claim_key = '{key}'") == 20
