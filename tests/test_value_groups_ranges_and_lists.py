"""Ranges and listed values stored linearly (issue 31, point 1).

"The timeout is between N and N+1 ms." on 600 lines stored a relation and an edge per
disagreeing pair (179,700); "The timeout is A ms, B ms or C ms." on 400 lines did the same
for every pair of listed values. Ranges of one width now form a slot like exact points, and
listed values join the slot of their key with their sentence named, so the rows grow with
the claims. Counts here, not timings (bench/bench_status_key.py has the figures).
"""

from __future__ import annotations

from typing import Any

from edge_fixtures import claim_from_spec
from hypothesis import given, settings
from hypothesis import strategies as st
from note_store import store_notes
from sqlalchemy import Engine, text

from claims.edges import MaterialitySettings, facts_from_claim
from claims.edges.materiality import assess
from claims.edges.value_groups import (
    SlotGroup,
    family_disagreements,
    points_apart,
    slot_disagreements,
)
from claims.models import Requester
from retrieval.status import status_of_key


def _count(engine: Engine, sql: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text(sql)).scalar() or 0)


def _conflict_sets(engine: Engine) -> int:
    with engine.connect() as conn:
        pairs = conn.execute(
            text(
                "SELECT left_claim_id, right_claim_id FROM edges "
                "WHERE kind = 'conflicts' AND retired_at IS NULL"
            )
        ).all()
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    for left, right in pairs:
        parent[root(left)] = root(right)
    return len({root(n) for n in parent})


def _one_key(engine: Engine) -> tuple[str, int]:
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT claim_key, count(*) FROM claims GROUP BY 1")).all()
    assert len(rows) == 1, rows
    return str(rows[0][0]), int(rows[0][1])


def test_ranges_of_one_width_store_rows_linear_in_the_claims(engine: Engine) -> None:
    lines = [f"The retry window is between {n} and {n + 1} seconds." for n in range(0, 1200, 2)]
    store_notes(engine, [("ops/windows", "Retry windows\n\n" + "\n".join(lines) + "\n", [])])
    key, claims = _one_key(engine)
    assert claims == 600
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    slots = f"SELECT count(*) FROM value_group_slots WHERE claim_key = '{key}'"
    assert _count(engine, slots) == 600
    assert _count(engine, "SELECT count(*) FROM edges WHERE retired_at IS NULL") < 3 * claims
    assert _conflict_sets(engine) == 1  # one review item for the whole disagreement


def test_listed_values_store_rows_linear_in_the_claims(engine: Engine) -> None:
    lines = [
        f"The retry window is {n} seconds, {n + 1} seconds or {n + 2} seconds."
        for n in range(0, 1600, 4)
    ]
    store_notes(engine, [("ops/lists", "Retry windows\n\n" + "\n".join(lines) + "\n", [])])
    key, claims = _one_key(engine)
    assert claims == 1200
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    slots = f"SELECT count(*) FROM value_group_slots WHERE claim_key = '{key}'"
    assert _count(engine, slots) == 1200
    assert _count(engine, slots + " AND statement IS NOT NULL") == 1200
    assert _count(engine, "SELECT count(*) FROM edges WHERE retired_at IS NULL") < 3 * claims
    assert _conflict_sets(engine) == 1


def test_a_list_holding_a_value_does_not_contest_it(engine: Engine) -> None:
    # The gate list names 4, 6 and 9 minutes; the leaflet says 6 minutes: an elaboration,
    # not a conflict. A third note saying 30 minutes contests both.
    notes = [
        ("gate/list", "Gates\n\nThe boarding cutoff is 4 minutes, 6 minutes or 9 minutes.\n", []),
        ("gate/leaflet", "Leaflet\n\nThe boarding cutoff is 6 minutes.\n", []),
    ]
    store_notes(engine, notes)
    key, _ = _one_key(engine)
    everyone = Requester(principal="ana", groups=[])
    assert status_of_key(engine, key, everyone).status.value != "contested"
    store_notes(engine, [("gate/memo", "Memo\n\nThe boarding cutoff is 30 minutes.\n", ["ops"])])
    assert status_of_key(engine, key, everyone).status.value != "contested"
    ops = status_of_key(engine, key, Requester(principal="oli", groups=["ops"]))
    assert ops.status.value == "contested"
    contested = {c.value for c in ops.claims if c.status.value == "contested"}
    assert contested == {4, 6, 9, 30}


def _fee(source: str, value: float) -> Any:
    spec = {"key": "parking fee", "unit": "EUR", "dimension": "EUR", "value": value}
    return facts_from_claim(claim_from_spec(spec | {"source": source}, default_source=source))


VALUES = st.sampled_from([1.0, 2.0, 3.0, 5.0, 8.0, 100.0])
STATEMENTS = st.lists(
    st.tuples(st.frozensets(VALUES, min_size=1, max_size=3), st.sampled_from([None, 0, 1])),
    min_size=1,
    max_size=7,
)


@settings(max_examples=300, deadline=None)
@given(statements=STATEMENTS, threshold=st.sampled_from([0.0, 0.05, 0.5]))
def test_the_listed_slot_rule_gives_what_every_pair_would(
    statements: list[tuple[frozenset[float], int | None]], threshold: float
) -> None:
    # Value x of list X and value y of list Y conflict iff x is not in Y and y is not in X
    # (compare.listed_values); a value stated alone is a list of one. The slot rule must
    # find each contested group, and a material contest when some pair is material.
    tiers = ["regulator", "official"]
    policy = MaterialitySettings(relative_difference_threshold=threshold, authority_tiers=tiers)
    groups: list[tuple[SlotGroup, frozenset[float]]] = []
    for n, (values, rank) in enumerate(statements):
        for value in sorted(values):
            groups.append(
                (
                    SlotGroup(
                        f"g{n}-{value}",
                        "slot",
                        "parking fee",
                        value,
                        rank,
                        False,
                        threshold,
                        policy.tier_gap_resolvable,
                        statement=f"s{n}" if len(values) > 1 else None,
                    ),
                    values,
                )
            )
    rows = [g for g, _ in groups]
    found: dict[str, set[bool]] = {}
    for x, y, material in slot_disagreements(rows):
        found.setdefault(x.value_group_id, set()).add(material)
        lists = {g.value_group_id: v for g, v in groups}
        assert x.value not in lists[y.value_group_id]
        assert y.value not in lists[x.value_group_id]
    for x, xs in groups:
        pairs = [
            assess(
                _fee("a", x.value),
                _fee("b", y.value),
                "value",
                policy,
                None if x.tier_rank is None else tiers[x.tier_rank],
                None if y.tier_rank is None else tiers[y.tier_rank],
            ).material
            for y, ys in groups
            if x.value not in ys and y.value not in xs and points_apart(x.value, y.value)
        ]
        assert bool(pairs) == (x.value_group_id in found), (x, found)
        assert any(pairs) == any(found.get(x.value_group_id, ()))


def test_lists_with_the_unit_on_the_last_value_store_rows_linear_in_the_claims(
    engine: Engine,
) -> None:
    # "N, N+1 or N+2 seconds": the extractor gives the unit to the last value only, so each
    # line holds values of two slots (no unit, seconds) that differ only in dimension; every
    # pair across them is ambiguous. They form one family of slots, decided by value.
    lines = [f"The retry window is {n}, {n + 1} or {n + 2} seconds." for n in range(0, 1200, 4)]
    store_notes(engine, [("ops/lists", "Retry windows\n\n" + "\n".join(lines) + "\n", [])])
    key, claims = _one_key(engine)
    assert claims == 900
    assert _count(engine, "SELECT count(*) FROM value_group_relations") == 0
    families = f"SELECT count(DISTINCT family) FROM value_group_slots WHERE claim_key = '{key}'"
    assert _count(engine, families) == 1
    assert _count(engine, "SELECT count(*) FROM edges WHERE retired_at IS NULL") < 5 * claims


FAMILY = st.lists(
    st.tuples(
        st.sampled_from(["", "time"]),  # the slot: no unit, or seconds
        st.sampled_from([1.0, 2.0, 5.0, 9.0]),
        st.sampled_from([None, "s1", "s2"]),  # the listing sentence, if any
    ),
    min_size=1,
    max_size=9,
    unique_by=lambda t: (t[0], t[1], t[2]),
)


@settings(max_examples=300, deadline=None)
@given(rows=FAMILY)
def test_the_family_rule_gives_what_every_pair_would(
    rows: list[tuple[str, float, str | None]],
) -> None:
    # Across two slots of a family every pair is ambiguous (compare._quantities: a unit on
    # one side only), except equal values (one side has no unit: they agree) and two
    # values of one sentence (listed_values). Each group must be found ambiguous exactly
    # when some group of the other slot is, and only with such groups.
    groups = [
        SlotGroup(
            f"g{n}",
            f"slot-{dim or 'none'}",
            "window",
            value,
            None,
            False,
            0.05,
            1,
            statement=sentence,
            family="fam",
            dimension=dim,
        )
        for n, (dim, value, sentence) in enumerate(rows)
    ]

    def ambiguous(x: SlotGroup, y: SlotGroup) -> bool:
        same_sentence = x.statement is not None and x.statement == y.statement
        return x.slot_id != y.slot_id and not same_sentence and x.value != y.value

    found: dict[str, set[str]] = {}
    for x, y in family_disagreements(groups):
        assert ambiguous(x, y), (x, y)
        found.setdefault(x.value_group_id, set()).add(y.value_group_id)
    for x in groups:
        expected = any(ambiguous(x, y) for y in groups)
        assert (x.value_group_id in found) == expected, (x, found)
