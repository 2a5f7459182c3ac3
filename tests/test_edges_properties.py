"""Properties of the edge rules over generated claims (hypothesis)."""

from __future__ import annotations

from datetime import date
from typing import Any

from edge_fixtures import claim_from_spec
from hypothesis import given, settings
from hypothesis import strategies as st

from claims.edges import build_edges, compare, facts_from_claim
from claims.models import Claim, Relation

_years = st.sampled_from([None, 2022, 2023, 2024])


@st.composite
def claims(draw: Any) -> Claim:
    spec: dict[str, Any] = {
        "key": draw(st.sampled_from(["limit|tokens", "notice|days"])),
        "coarse": "shared",
        "source": draw(st.sampled_from(["s1", "s2", "s3"])),
        "reported": draw(st.booleans()),
    }
    kind = draw(st.sampled_from(["quantity", "categorical", "polarity"]))
    if kind == "quantity":
        bound = draw(st.sampled_from(["exact", "at_most", "at_least", "less_than", "range"]))
        if bound == "range":
            low = draw(st.integers(0, 10))
            spec |= {"low": low, "high": low + draw(st.integers(0, 5))}
        else:
            spec |= {"value": draw(st.integers(0, 10)), "bound": bound}
        spec["unit"] = draw(st.sampled_from(["day", "token"]))
        spec["approximate"] = draw(st.booleans())
    elif kind == "categorical":
        spec["label"] = draw(st.sampled_from(["german law", "english law"]))
    else:
        spec["action"] = "notify"
        spec["modality"] = draw(
            st.sampled_from(["obligation", "permission", "prohibition", "option", "statement"])
        )
        spec["polarity"] = draw(st.sampled_from(["positive", "negative"]))
    scope = draw(st.sampled_from([{}, {"period": "q1"}, {"period": "q2"}, {"party": "x"}]))
    spec["scope"] = scope
    start, end = draw(_years), draw(_years)
    if start and end and end < start:
        start, end = end, start
    spec["time"] = {
        "start": date(start, 1, 1) if start else None,
        "end": date(end, 12, 31) if end else None,
    }
    spec["quote"] = draw(st.sampled_from(["one sentence", "another sentence"]))
    return claim_from_spec(spec, default_source=spec["source"])


@settings(max_examples=300, deadline=None)
@given(claims(), claims())
def test_compare_is_symmetric(a: Claim, b: Claim) -> None:
    assert compare(a, b) == compare(b, a)


@settings(max_examples=300, deadline=None)
@given(claims(), claims())
def test_no_conflict_without_same_key_scope_time_and_speaker(a: Claim, b: Claim) -> None:
    verdict = compare(a, b)
    if verdict.relation is not Relation.CONFLICT:
        return
    assert a.claim_key == b.claim_key
    # reported speech against the source's own words never conflicts; two reports compare
    assert a.reported_speech == b.reported_speech
    assert a.scope == b.scope  # one-sided or different scope never conflicts
    fa, fb = facts_from_claim(a), facts_from_claim(b)
    assert fa.time_known == fb.time_known
    assert not (fa.t_end < fb.t_start or fb.t_end < fa.t_start)


@settings(max_examples=100, deadline=None)
@given(st.lists(claims(), min_size=2, max_size=8, unique_by=lambda c: c.id), st.randoms())
def test_edges_do_not_depend_on_input_order(batch: list[Claim], rng: Any) -> None:
    facts = [facts_from_claim(c) for c in batch]
    first = sorted(build_edges(facts, generation="g").edges)
    rng.shuffle(facts)
    assert sorted(build_edges(facts, generation="g").edges) == first
