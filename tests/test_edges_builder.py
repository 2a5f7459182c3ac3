"""The edge builder: blocking, groups, surface clones, corroboration and supersession."""

from __future__ import annotations

from typing import Any

from edge_fixtures import claim_from_spec

from claims.edges import (
    NEAR_MISS_PREFIX,
    MaterialitySettings,
    Rule,
    SupersessionIndex,
    build_edges,
    facts_from_claim,
)
from claims.edges.supersession import RegisterSupersedes, VersionRef, derive_version_supersessions
from claims.edges.value_groups import slot_disagreements
from claims.models import Claim, EdgeKind, SupersessionOrigin

DIVIDEND = {"key": "dividend|per share", "unit": "cent", "scale": 0.01, "dimension": "USD"}


def _claim(source: str, value: float, quote: str | None = None, **extra: Any) -> Claim:
    spec: dict[str, Any] = DIVIDEND | {"value": value, "source": source} | extra
    spec["quote"] = quote or f"{source} says the dividend was {value} cents per share."
    return claim_from_spec(spec, default_source=source)


def _kinds(build: Any) -> list[tuple[str, str]]:
    return sorted((e.kind, e.rule) for e in build.edges)


def test_one_sentence_mirrored_five_times_is_one_origin() -> None:
    sentence = "The dividend for the period was 12 cents per share."
    claims = [_claim(f"mirror-{i}", 12, sentence) for i in range(5)]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert _kinds(build) == [("corroborates", "clone")] * 4
    # every clone hangs off the same first claim: one origin, not five
    anchors = {e.left_claim_id for e in build.edges}
    assert len(anchors) == 1


def test_independent_sources_corroborate_and_clones_do_not_inflate() -> None:
    sentence = "The dividend for the period was 12 cents per share."
    claims = [_claim("a", 12, sentence), _claim("b", 12, sentence), _claim("c", 12)]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert _kinds(build) == [("corroborates", "clone"), ("corroborates", "value")]


def test_a_contradiction_is_never_collapsed_into_a_clone() -> None:
    # same words apart from the number: conflict is checked before clone collapsing
    left = _claim("filing-q1", 12, "The dividend for the period was 12 cents per share.")
    right = _claim("filing-q1-restated", 30, "The dividend for the period was 30 cents per share.")
    build = build_edges([facts_from_claim(left), facts_from_claim(right)], generation="g1")
    assert _kinds(build) == [("conflicts", "value")]
    edge = build.edges[0]
    assert edge.material is True and edge.materiality is not None and edge.materiality > 0.5


def test_conflict_edges_join_every_origin_of_both_values() -> None:
    claims = [_claim("a", 12), _claim("b", 12), _claim("c", 30)]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    conflicts = [e for e in build.edges if e.kind == "conflicts"]
    assert len(conflicts) == 2
    assert len([e for e in build.edges if e.kind == "corroborates"]) == 1


def test_edges_are_deterministic_and_independent_of_input_order() -> None:
    claims = [_claim("a", 12), _claim("b", 30), _claim("c", 12), _claim("d", 15, scope={"p": "q2"})]
    facts = [facts_from_claim(c) for c in claims]
    first = build_edges(facts, generation="g1").edges
    second = build_edges(list(reversed(facts)), generation="g1").edges
    assert sorted(first) == sorted(second)
    assert len({e.id for e in first}) == len(first)


def test_different_scope_is_recorded_as_compatible_with_the_reason() -> None:
    claims = [_claim("a", 12, scope={"period": "q1"}), _claim("b", 15, scope={"period": "q2"})]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert _kinds(build) == [("compatible", "scope")]
    assert "q1 vs q2" in build.edges[0].reason


def test_blocking_never_compares_claims_of_different_keys() -> None:
    claims = [
        _claim("a", 12),
        claim_from_spec({"key": "revenue|total", "value": 30}, default_source="b"),
    ]
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert build.edges == [] and build.comparisons == 0


def test_near_miss_on_the_coarse_key_is_ambiguous_never_a_conflict() -> None:
    a = _claim("a", 12, coarse="dividend")
    b = claim_from_spec(
        DIVIDEND | {"key": "dividend|per ordinary share", "coarse": "dividend", "value": 30},
        default_source="b",
    )
    build = build_edges([facts_from_claim(a), facts_from_claim(b)], generation="g1")
    assert _kinds(build) == [("ambiguous", "key")]
    assert build.edges[0].claim_key == NEAR_MISS_PREFIX + "dividend"


def _versions(*refs: tuple[str, str, int]) -> list[VersionRef]:
    return [VersionRef(id=i, source_id=s, number=n) for i, s, n in refs]


def test_newer_version_restating_a_value_supersedes_instead_of_conflicting() -> None:
    old = _claim("policy", 250, version="policy-v1")
    new = _claim("policy", 500, version="policy-v2")
    rows = derive_version_supersessions(
        _versions(("policy-v1", "policy", 1), ("policy-v2", "policy", 2)), []
    )
    assert [(r.newer_version_id, r.older_version_id, r.origin) for r in rows] == [
        ("policy-v2", "policy-v1", SupersessionOrigin.LINEAGE)
    ]
    build = build_edges(
        [facts_from_claim(old), facts_from_claim(new)],
        generation="g1",
        supersessions=SupersessionIndex(rows),
    )
    assert _kinds(build) == [("supersedes", "lineage")]
    edge = build.edges[0]
    assert (edge.left_claim_id, edge.right_claim_id) == (new.id, old.id)
    assert edge.material is None


def test_register_supersession_replaces_another_source() -> None:
    old = _claim("old", 250, version="old-v1")
    new = _claim("new", 500, version="new-v1")
    rows = derive_version_supersessions(
        _versions(("old-v1", "old", 1), ("new-v1", "new", 1)),
        [RegisterSupersedes("new", "old")],
    )
    build = build_edges(
        [facts_from_claim(old), facts_from_claim(new)],
        generation="g1",
        supersessions=SupersessionIndex(rows),
    )
    assert _kinds(build) == [("supersedes", "register")]


def test_superseded_claim_is_not_a_live_conflict_with_a_third_source() -> None:
    old = _claim("policy", 250, version="policy-v1")
    new = _claim("policy", 500, version="policy-v2")
    third = _claim("wiki", 250, version="wiki-v1")
    index = SupersessionIndex(
        derive_version_supersessions(
            _versions(
                ("policy-v1", "policy", 1), ("policy-v2", "policy", 2), ("wiki-v1", "wiki", 1)
            ),
            [],
        )
    )
    build = build_edges(
        [facts_from_claim(c) for c in (old, new, third)], generation="g1", supersessions=index
    )
    kinds = _kinds(build)
    # the wiki still contradicts the current policy; the old version's agreement with the
    # wiki no longer counts as support
    assert ("conflicts", "value") in kinds
    assert ("supersedes", "lineage") in kinds
    assert ("compatible", "superseded") in kinds
    assert ("corroborates", "value") not in kinds
    conflict = next(e for e in build.edges if e.kind == "conflicts")
    assert {conflict.left_claim_id, conflict.right_claim_id} == {new.id, third.id}


def test_register_effective_date_keeps_older_periods_in_force() -> None:
    index = SupersessionIndex(
        derive_version_supersessions(
            _versions(("old-v1", "old", 1), ("new-v1", "new", 1)),
            [
                RegisterSupersedes(
                    "new", "old", effective_from=__import__("datetime").date(2026, 1, 1)
                )
            ],
        )
    )
    before = facts_from_claim(
        _claim("old", 250, version="old-v1", time={"start": "2025-01-01", "end": "2025-12-31"})
    )
    after = facts_from_claim(_claim("old", 250, version="old-v1", quote="another"))
    assert not index.claim_superseded(before)
    assert index.claim_superseded(after)


def test_register_entry_for_one_version_only() -> None:
    rows = derive_version_supersessions(
        _versions(("old-v1", "old", 1), ("old-v2", "old", 2), ("new-v1", "new", 1)),
        [RegisterSupersedes("new", "old", supersedes_version=1)],
    )
    pairs = {(r.newer_version_id, r.older_version_id, r.origin.value) for r in rows}
    assert pairs == {("new-v1", "old-v1", "register"), ("old-v2", "old-v1", "lineage")}


def test_high_risk_predicate_makes_a_small_difference_material() -> None:
    a = claim_from_spec({"key": "drug x|dose", "value": 500, "unit": "mg"}, default_source="a")
    b = claim_from_spec({"key": "drug x|dose", "value": 510, "unit": "mg"}, default_source="b")
    facts = [facts_from_claim(a), facts_from_claim(b)]
    plain = build_edges(facts, generation="g1").edges[0]
    risky = build_edges(
        facts, generation="g1", materiality=MaterialitySettings(high_risk_predicates=["dose"])
    ).edges[0]
    assert plain.kind == risky.kind == "conflicts"
    assert plain.material is False  # 2% apart: below the 5% default threshold
    assert risky.material is True


def test_conflict_between_distant_authority_tiers_is_resolvable_by_policy() -> None:
    a, b = _claim("regulator-doc", 12), _claim("blog", 30)
    settings = MaterialitySettings(authority_tiers=["regulator", "internal", "informal"])
    facts = [facts_from_claim(a), facts_from_claim(b)]
    same_tier = build_edges(
        facts,
        generation="g1",
        materiality=settings,
        tiers={"regulator-doc": "regulator", "blog": "regulator"},
    ).edges[0]
    apart = build_edges(
        facts,
        generation="g1",
        materiality=settings,
        tiers={"regulator-doc": "regulator", "blog": "informal"},
    ).edges[0]
    assert same_tier.material is True
    assert apart.material is False
    assert apart.materiality is not None and same_tier.materiality is not None
    assert apart.materiality < same_tier.materiality


def test_agreement_inside_one_source_is_not_corroboration() -> None:
    a = _claim("handbook", 12, "The dividend was 12 cents.")
    b = _claim("handbook", 12, "Shareholders got 12 cents a share.")
    build = build_edges([facts_from_claim(a), facts_from_claim(b)], generation="g1")
    assert _kinds(build) == [("compatible", Rule.SAME_SOURCE)]


def test_edge_kinds_are_edge_kind_values() -> None:
    build = build_edges(
        [facts_from_claim(_claim("a", 1)), facts_from_claim(_claim("b", 2))], generation="g1"
    )
    assert {e.kind for e in build.edges} <= {k.value for k in EdgeKind}


def test_every_claim_pair_of_a_disagreement_is_covered_by_its_value_groups() -> None:
    # each side can be read alone: a requester who sees only c and e must still find that
    # c and e disagree. Storage is linear: each claim names its value group, and the two
    # groups hold one relation (issue 14.1); readers pair the members they may see.
    sentence = "The dividend for the period was 12 cents per share."
    twelve = [_claim("a", 12, sentence), _claim("b", 12, sentence), _claim("c", 12)]
    thirty = [_claim(s, 30) for s in ("d", "e")]
    build = build_edges([facts_from_claim(c) for c in twelve + thirty], generation="g1")
    group_of = {m.claim_id: m.value_group_id for m in build.members}
    assert set(group_of) == {c.id for c in twelve + thirty}
    assert len({group_of[c.id] for c in twelve}) == 1
    assert len({group_of[c.id] for c in thirty}) == 1
    # two exact values of one slot: no pair row, one slot row per group, and the slot rule
    # (value_groups.slot_disagreements) says they disagree, materially
    assert build.relations == []
    assert {row.value_group_id for row in build.slots} == {
        group_of[twelve[0].id],
        group_of[thirty[0].id],
    }
    assert len({row.slot_id for row in build.slots}) == 1
    found = {(x.value_group_id, y.value_group_id, m) for x, y, m in slot_disagreements(build.slots)}
    assert found == {
        (group_of[twelve[0].id], group_of[thirty[0].id], True),
        (group_of[thirty[0].id], group_of[twelve[0].id], True),
    }


def test_a_disagreement_is_a_star_over_claims_in_the_edge_table() -> None:
    twelve = [_claim(s, 12) for s in ("a", "b", "c")]
    thirty = [_claim(s, 30) for s in ("d", "e")]
    build = build_edges([facts_from_claim(c) for c in twelve + thirty], generation="g1")
    conflicts = [e for e in build.edges if e.kind == "conflicts"]
    assert len(conflicts) == 3 + 2 - 1  # n + m - 1, not n * m
    linked = {e.left_claim_id for e in conflicts} | {e.right_claim_id for e in conflicts}
    assert linked == {c.id for c in twelve + thirty}


def test_old_version_sentence_cloned_elsewhere_is_still_superseded() -> None:
    sentence = "The output limit is 250 tokens."
    old = _claim("policy", 250, sentence, version="policy-v1")
    copy = _claim("aaa-mirror", 250, sentence, version="aaa-mirror-v1")
    new = _claim("policy", 500, version="policy-v2")
    index = SupersessionIndex(
        derive_version_supersessions(
            _versions(
                ("policy-v1", "policy", 1),
                ("policy-v2", "policy", 2),
                ("aaa-mirror-v1", "aaa-mirror", 1),
            ),
            [],
        )
    )
    build = build_edges(
        [facts_from_claim(c) for c in (old, copy, new)], generation="g1", supersessions=index
    )
    kinds = _kinds(build)
    assert ("supersedes", "lineage") in kinds
    assert ("conflicts", "value") in kinds  # the mirror still contradicts the current policy
    supersedes = next(e for e in build.edges if e.kind == "supersedes")
    assert (supersedes.left_claim_id, supersedes.right_claim_id) == (new.id, old.id)


def test_build_converts_to_domain_edges() -> None:
    build = build_edges(
        [facts_from_claim(_claim("a", 12)), facts_from_claim(_claim("b", 30))], generation="g7"
    )
    [edge] = build.as_edges()
    assert edge.kind is EdgeKind.CONFLICTS and edge.generation == "g7"
    assert edge.id == build.edges[0].id and edge.material is True


def test_a_sentence_listing_several_values_elaborates_instead_of_conflicting() -> None:
    listing = "The fee is 10 USD or 15 USD."
    fee = {"key": "fee", "unit": "USD"}
    ten = claim_from_spec(fee | {"value": 10, "quote": listing}, default_source="tariff")
    fifteen = claim_from_spec(fee | {"value": 15, "quote": listing}, default_source="tariff")
    single = claim_from_spec(
        fee | {"value": 10, "quote": "The fee is 10 USD."}, default_source="faq"
    )
    build = build_edges([facts_from_claim(c) for c in (ten, fifteen, single)], generation="g1")
    assert ("conflicts", "value") not in _kinds(build)
    assert _kinds(build).count(("compatible", "elaboration")) == 2  # 15 vs 10 twice
    assert ("corroborates", "value") in _kinds(build)
    other = claim_from_spec(fee | {"value": 12, "quote": "The fee is 12 USD."}, default_source="x")
    build = build_edges([facts_from_claim(c) for c in (ten, fifteen, other)], generation="g1")
    assert _kinds(build).count(("conflicts", "value")) == 2  # 12 is not in the list


def test_register_effective_date_does_not_supersede_an_earlier_period() -> None:
    from datetime import date

    old = _claim("old", 250, version="old-v1", time={"start": "2025-01-01", "end": "2025-12-31"})
    new = _claim("new", 500, version="new-v1")
    index = SupersessionIndex(
        derive_version_supersessions(
            _versions(("old-v1", "old", 1), ("new-v1", "new", 1)),
            [RegisterSupersedes("new", "old", effective_from=date(2026, 1, 1))],
        )
    )
    build = build_edges(
        [facts_from_claim(old), facts_from_claim(new)], generation="g1", supersessions=index
    )
    # the 2025 figure was never replaced; against an undated figure it stays ambiguous
    assert _kinds(build) == [("ambiguous", "time")]


def test_newer_version_narrowing_a_range_supersedes_it() -> None:
    dose = {"key": "drug|dose", "unit": "mg", "source": "label"}
    old = claim_from_spec(
        dose | {"low": 5, "high": 10, "version": "label-v1"}, default_source="label"
    )
    new = claim_from_spec(dose | {"value": 8, "version": "label-v2"}, default_source="label")
    index = SupersessionIndex(
        derive_version_supersessions(
            _versions(("label-v1", "label", 1), ("label-v2", "label", 2)), []
        )
    )
    build = build_edges(
        [facts_from_claim(old), facts_from_claim(new)], generation="g1", supersessions=index
    )
    assert _kinds(build) == [("supersedes", "lineage")]
    # without the version link the same pair is only an elaboration
    other = claim_from_spec(dose | {"value": 8, "source": "leaflet"}, default_source="leaflet")
    build = build_edges(
        [facts_from_claim(old), facts_from_claim(other)], generation="g1", supersessions=index
    )
    assert _kinds(build) == [("compatible", "elaboration")]


def test_a_coarse_key_shared_by_too_many_claim_keys_is_not_searched_for_near_misses() -> None:
    from claims.edges.builder import MAX_NEAR_MISS_KEYS

    def near_pair_plus(extra_keys: int) -> list[Claim]:
        a = _claim("a", 12, coarse="dividend")
        b = claim_from_spec(
            DIVIDEND | {"key": "dividend|per ordinary share", "coarse": "dividend", "value": 30},
            default_source="b",
        )
        others = [
            claim_from_spec(
                {"key": f"unrelated subject {i}|dividend", "coarse": "dividend", "value": i},
                default_source=f"s{i}",
            )
            for i in range(extra_keys)
        ]
        return [a, b, *others]

    small = build_edges([facts_from_claim(c) for c in near_pair_plus(3)], generation="g1")
    generic = build_edges(
        [facts_from_claim(c) for c in near_pair_plus(MAX_NEAR_MISS_KEYS)], generation="g1"
    )
    assert ("ambiguous", "key") in _kinds(small)
    assert generic.near_miss_blocks == 0 and ("ambiguous", "key") not in _kinds(generic)


def test_groups_with_unrelated_qualifier_words_are_not_compared_pairwise() -> None:
    # One key, one group per subject the extractor left among the qualifiers ("the Moallu
    # board declared ..."): subjects are compared with themselves and with the unqualified
    # statement, never with each other (that would be every pair of subjects).
    subjects = [f"entity{i:02d}" for i in range(40)]
    claims = [
        _claim(f"{s}-{v}", v, f"The {s} board declared {v} cents.", residual=[s])
        for s in subjects
        for v in (12, 30)
    ]
    claims.append(_claim("plain", 12, "The board declared 12 cents."))
    build = build_edges([facts_from_claim(c) for c in claims], generation="g1")
    assert build.groups == 81
    assert build.comparisons == 40 + 80  # 12 vs 30 per subject; each group vs the plain one
    conflicts = [e for e in build.edges if e.kind == "conflicts"]
    assert len(conflicts) == 40
    subject_of = {c.id: (c.source_id or "").split("-")[0] for c in claims}
    assert all(subject_of[e.left_claim_id] == subject_of[e.right_claim_id] for e in conflicts)
    # a subject's qualifier is stated on one side only against the plain claim: not a conflict
    assert "plain" not in {subject_of[e.left_claim_id] for e in conflicts}
