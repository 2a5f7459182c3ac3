"""Approximate slots: many distinct approximate values of one key stay linear (issue 14.1).

"The deposit is about N EUR" with thousands of distinct N used to be compared value group
by value group, with a relation row per disagreeing pair. Approximate values of one slot
now keep one slot row per value group holding its interval, and disagreement is decided
from the extremes, as for exact points. Counts here, not timings.
"""

from __future__ import annotations

from typing import Any

from edge_fixtures import claim_from_spec
from hypothesis import given, settings
from hypothesis import strategies as st
from note_store import store_notes
from sqlalchemy import Engine, text

from claims.edges import MaterialitySettings, build_edges, facts_from_claim
from claims.edges.compare import compare_facts
from claims.edges.materiality import assess
from claims.edges.value_groups import slot_disagreements
from claims.models import Relation, Requester
from retrieval.status import status_of_key


def _about(source: str, value: float) -> Any:
    spec = {
        "key": "key deposit",
        "unit": "EUR",
        "dimension": "EUR",
        "value": value,
        "approximate": True,
        "source": source,
    }
    return facts_from_claim(claim_from_spec(spec, default_source=source))


def test_many_distinct_approximate_values_are_not_compared_pair_by_pair() -> None:
    # 3,000 branch notes each give their own rough figure ("about N EUR"), spread so that
    # most pairs do not overlap: pair by pair that was millions of comparisons and as many
    # relation rows; now a bounded number of comparisons and one slot row per value.
    count = 3000
    claims = [_about(f"branch-{n:04d}", 20 + 3 * n) for n in range(count)]
    build = build_edges(claims, generation="g1")
    assert build.relations == []
    assert len(build.slots) == count
    assert len({row.slot_id for row in build.slots}) == 1
    assert all(row.low is not None and row.high is not None for row in build.slots)
    assert build.comparisons < 4 * count
    assert len(build.edges) < 3 * count


# approximate values of both signs (each sign is its own slot) and a few that overlap
VALUES = st.sampled_from([-40.0, -38.0, -10.0, 4.0, 4.3, 5.0, 9.0, 10.0, 11.5, 95.0, 100.0])
RANKS = st.sampled_from([None, 0, 1, 2])
TIERS = ["regulator", "official", "internal"]


@settings(max_examples=150, deadline=None)
@given(
    rows=st.lists(st.tuples(VALUES, RANKS), min_size=2, max_size=9),
    threshold=st.sampled_from([0.0, 0.05, 0.3, 1.0]),
    gap=st.sampled_from([1, 2]),
)
def test_the_approximate_slot_rule_gives_what_every_pair_would(
    rows: list[tuple[float, int | None]], threshold: float, gap: int
) -> None:
    # For each value group: contested (some group of its slot does not overlap it) and
    # materially contested exactly as comparing it with every group of its slot says.
    policy = MaterialitySettings(
        relative_difference_threshold=threshold, authority_tiers=TIERS, tier_gap_resolvable=gap
    )
    claims = [_about(f"s{i}", value) for i, (value, _) in enumerate(rows)]
    tiers = {f"s{i}": None if rank is None else TIERS[rank] for i, (_, rank) in enumerate(rows)}
    build = build_edges(claims, generation="g1", materiality=policy, tiers=tiers)
    members: dict[str, list[Any]] = {}
    for member in build.members:
        members.setdefault(member.value_group_id, []).append(member.claim_id)
    facts = {c.id: c for c in claims}
    first = {group: facts[ids[0]] for group, ids in members.items()}
    by_slot: dict[str, list[Any]] = {}
    for row in build.slots:
        by_slot.setdefault(row.slot_id, []).append(row)
    for slot_rows in by_slot.values():
        found: dict[str, set[bool]] = {}
        for x, _other, material in slot_disagreements(slot_rows):
            found.setdefault(x.value_group_id, set()).add(material)
        for x in slot_rows:
            a = first[x.value_group_id]
            pairs = []
            for y in slot_rows:
                b = first[y.value_group_id]
                verdict = compare_facts(a, b)
                if y is x or verdict.relation is not Relation.CONFLICT:
                    continue
                pairs.append(
                    assess(
                        a, b, verdict.rule, policy, tiers[a.source_id], tiers[b.source_id]
                    ).material
                )
            assert bool(pairs) == (x.value_group_id in found)
            assert any(pairs) == any(found.get(x.value_group_id, ()))


DEPOSIT = "The key deposit for the meeting rooms is about {v} EUR."


def test_a_reader_sees_the_approximate_values_they_may_see(engine: Engine) -> None:
    # Public notes say about 50 and about 52 EUR (their ranges meet: no conflict); a
    # legal-only memo says about 90 EUR, which meets neither.
    notes = [
        ("notes/north", f"North building\n\n{DEPOSIT.format(v=50)}\n", []),
        ("notes/south", f"South building\n\n{DEPOSIT.format(v=52)}\n", []),
        ("memo/legal", f"Legal memo\n\n{DEPOSIT.format(v=90)}\n", ["legal"]),
    ]
    store_notes(engine, notes)
    with engine.connect() as conn:
        key = conn.execute(
            text("SELECT claim_key FROM claims WHERE quote LIKE '%key deposit%' LIMIT 1")
        ).scalar()
        slots = conn.execute(text("SELECT low, high FROM value_group_slots")).all()
        relations = conn.execute(text("SELECT count(*) FROM value_group_relations")).scalar()
    assert len(slots) == 3 and all(low is not None and high is not None for low, high in slots)
    assert relations == 0
    public = status_of_key(engine, str(key), Requester(principal="pat"))
    assert public.status.value == "none"
    legal = status_of_key(engine, str(key), Requester(principal="lee", groups=["legal"]))
    assert legal.status.value == "contested"
    contested = {c.value for c in legal.claims if c.status.value == "contested"}
    assert contested == {50, 52, 90}
