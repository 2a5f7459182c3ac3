"""Counterparts under the reference profile (claims/reference/counterparts.py, issue 29).

Two sentences of one page that state one figure of the page's subject in more or fewer
words ("the summit elevation" / "the elevation") are compared as one claim key by the edge
builder, so a changed figure is a conflict, not an ambiguity between similar attributes.
Every pair is two sentences of one page, read as ``claims run`` reads two files whose
register gives them that title and the reference profile (``claims check --subject``).
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.edges.builder import MAX_COUNTERPART_KEYS, build_edges
from claims.edges.facts import ClaimFacts
from claims.models import Relation
from claims.profiles import profile_named

RIDGE = "Kestrel Ridge"
PEAK = "Mount Arven"


def checked(left: str, right: str, subject: str | None, profile: str = "reference") -> Relation:
    return check_texts(left, right, profile, subject).relation


@pytest.mark.parametrize(
    "left,right,subject",
    [
        ("Kestrel Ridge has an elevation of 2,100 m.", "Its summit elevation is 2,350 m.", RIDGE),
        (
            "The summit elevation of Mount Arven is 3,020 m.",
            "Mount Arven has an elevation of 2,870 m.",
            PEAK,
        ),
    ],
)
def test_a_modifier_on_one_side_only_states_one_attribute_and_a_changed_figure_conflicts(
    left: str, right: str, subject: str
) -> None:
    result = check_texts(left, right, "reference", subject)
    assert result.relation is Relation.CONFLICT, result.reason
    assert "counterparts" in result.reason
    # both orders give one verdict
    assert checked(right, left, subject) is Relation.CONFLICT


def test_equal_figures_of_counterparts_are_no_conflict() -> None:
    relation = checked(
        "Kestrel Ridge has an elevation of 2,100 m.", "Its summit elevation is 2,100 m.", RIDGE
    )
    assert relation is not Relation.CONFLICT


def test_the_office_profile_lends_no_counterpart_judge() -> None:
    assert profile_named("office").edge_judges.counterparts is None
    relation = checked(
        "Kestrel Ridge has an elevation of 2,100 m.",
        "Its summit elevation is 2,350 m.",
        RIDGE,
        profile="office",
    )
    assert relation is not Relation.CONFLICT


@pytest.mark.parametrize(
    "left,right",
    [
        # a modifier on each side: two attributes
        ("The approval rating of Mount Arven is 71%.", "The safety rating of Mount Arven is 64%."),
        # a modifier that makes another measure of the head noun
        (
            "The average elevation of Mount Arven is 1,900 m.",
            "Mount Arven has an elevation of 3,020 m.",
        ),
        # two head nouns of one unit
        ("Mount Arven has an elevation of 3,020 m.", "The ascent of Mount Arven is 1,400 m long."),
    ],
)
def test_two_attributes_of_one_subject_stay_apart(left: str, right: str) -> None:
    assert checked(left, right, PEAK) is not Relation.CONFLICT


def _facts(i: int, attribute: str, value: float) -> ClaimFacts:
    return ClaimFacts(
        id=f"c{i:03d}",
        source_id=f"page{i:03d}",
        version_id=f"v{i:03d}",
        claim_key=f"arven {attribute}",
        coarse_key=attribute.split()[-1],
        predicate="is",
        kind="quantity",
        bound="exact",
        lo=value,
        hi=value,
        lo_open=False,
        hi_open=False,
        tol=0.0,
        dimension="[length]",
        unit="m",
        shown=f"{value:g} m",
        label="",
        stance="is",
        scope=(),
        residual=frozenset(),
        t_start=float("-inf"),
        t_end=float("inf"),
        time_known=False,
        time_text="",
        reported=False,
        quote_norm=f"sentence {i}",
        entity="arven",
        attribute=attribute,
    )


def _counterpart_edges(facts: list[ClaimFacts]) -> list[str]:
    judges = profile_named("reference").edge_judges
    build = build_edges(
        facts,
        generation="g",
        judges=judges,
        namesake_sources={f.source_id for f in facts},
    )
    return [e.reason for e in build.edges if "counterparts" in e.reason]


def test_counterparts_are_judged_only_inside_a_bounded_block_of_keys() -> None:
    small = [_facts(0, "elevation", 3020.0), _facts(1, "summit elevation", 2870.0)]
    assert _counterpart_edges(small)
    # more keys of one entity and one dimension than the cap in one near-miss block: the
    # block is not judged pairwise at all
    crowded = small + [
        _facts(i, f"modifier{i:02d} elevation", 1000.0 + i)
        for i in range(2, MAX_COUNTERPART_KEYS + 2)
    ]
    assert not _counterpart_edges(crowded)


def test_counterparts_apply_only_to_sources_read_with_the_reference_profile() -> None:
    facts = [_facts(0, "elevation", 3020.0), _facts(1, "summit elevation", 2870.0)]
    judges = profile_named("reference").edge_judges
    build = build_edges(facts, generation="g", judges=judges, namesake_sources={"page000"})
    assert not [e for e in build.edges if "counterparts" in e.reason]
