"""`claims check` matches the claims of two texts by what they describe (claims.edges.pairing).

The two texts are the block: a figure worded differently on each side ("reported 1,500
cases" / "1,565 cases were reported") is still compared, while a sentence that lists
several figures of one unit never contradicts a claim through the figure it was not about.
Each sentence below is our own, written the way news, reports and office mail put it.
"""

from __future__ import annotations

import pytest

from claims.edges.check import check_texts
from claims.edges.compare import compare_facts
from claims.edges.facts import facts_from_claim
from claims.edges.pairing import distinct_attributes, one_context
from claims.extraction import extract
from claims.models import Relation

# (left, right): the same measured thing worded differently, different values
WORDED_APART = [
    pytest.param(
        "Lisbon reported more than 1,500 confirmed cases of measles this spring.",
        "The city has 1,230 cases of measles.",
        id="verb-glued-on-one-side",
    ),
    pytest.param(
        "The documentary earned less than $4 million at the box office worldwide.",
        "Against a budget of $2 million, the documentary grossed $6.5 million worldwide.",
        id="earned-vs-grossed",
    ),
    pytest.param(
        "Harbour Rail carried 12 million passengers last year.",
        "Last year the operator moved 9.4 million passengers.",
        id="carried-vs-moved",
    ),
]

# (left, right): the other text states the left figure too, next to other figures
LISTED_ELSEWHERE = [
    pytest.param(
        "The documentary grossed more than $6 million worldwide.",
        "The documentary grossed $1.2 million at home and $5.3 million abroad, for a "
        "worldwide total of $6.5 million.",
        id="worldwide-total-listed-last",
    ),
    pytest.param(
        "Lisbon reported 1,230 confirmed cases of measles.",
        "Lisbon has 1,230 confirmed cases, 48 of them in hospital and 3 in intensive care.",
        id="count-among-counts",
    ),
]


@pytest.mark.parametrize(("left", "right"), WORDED_APART)
def test_one_thing_worded_apart_is_a_conflict(left: str, right: str) -> None:
    result = check_texts(left, right)
    assert result.relation is Relation.CONFLICT, result.reason
    assert "describe one thing" in result.reason or "worded differently" in result.reason
    assert check_texts(right, left).relation is Relation.CONFLICT


@pytest.mark.parametrize(("left", "right"), LISTED_ELSEWHERE)
def test_a_figure_the_other_text_also_states_raises_nothing(left: str, right: str) -> None:
    result = check_texts(left, right)
    assert result.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS), result.reason
    assert check_texts(right, left).relation is result.relation


def test_two_attributes_the_lexicon_names_are_never_matched() -> None:
    result = check_texts("The notice period is 30 days.", "The probation period is 6 months.")
    assert result.relation is Relation.UNRELATED, result.reason


def test_different_units_are_never_counterparts() -> None:
    result = check_texts(
        "The festival sold 40,000 tickets.",
        "Ticket revenue for the festival reached 1.8 million euros.",
    )
    assert result.relation is not Relation.CONFLICT, result.reason


def test_different_named_entities_are_never_counterparts() -> None:
    result = check_texts(
        "The Kestrel K2 logger weighs 450 g.",
        "The Kestrel K3 logger weighs 620 g.",
    )
    assert result.relation is not Relation.CONFLICT, result.reason


def test_a_subject_named_on_one_side_is_the_other_texts_subject_too() -> None:
    result = check_texts(
        "The battery life of the Kestrel K2 is 14 hours in continuous logging mode.",
        "In continuous logging mode the battery lasts 10 hours.",
    )
    assert result.relation is Relation.CONFLICT, result.reason


def test_a_condition_named_on_one_side_stays_ambiguous() -> None:
    # a scope-lexicon condition ("in the first year") is not context the other text implies
    result = check_texts(
        "The notice period is 30 days.", "In the first year, the notice period is 60 days."
    )
    assert result.relation is Relation.AMBIGUOUS
    assert result.rule == "scope"


def test_different_places_still_keep_two_figures_apart() -> None:
    result = check_texts(
        "In Germany the subscription costs 12 euros a month.",
        "In France the subscription costs 15 euros a month.",
    )
    assert result.relation is not Relation.CONFLICT, result.reason


def test_one_context_gives_the_named_entity_to_the_bare_side() -> None:
    named = facts_from_claim(
        extract("The Kestrel K2 battery lasts 14 hours.", source_id="a", source_version_id="a@1")[0]
    )
    bare = facts_from_claim(
        extract("The battery lasts 10 hours.", source_id="b", source_version_id="b@1")[0]
    )
    x, y = one_context(named, bare)
    assert x.entity == y.entity == named.entity
    assert compare_facts(x, y).relation is Relation.CONFLICT


@pytest.mark.parametrize(
    ("a", "b", "distinct"),
    [
        ("notice period", "probation period", True),
        ("approval rate", "average rate", True),
        ("revenue", "net income", True),
        ("confirm case", "case", False),
        ("battery life", "battery life", False),
        ("gross worldwide", "gross", False),
    ],
)
def test_distinct_attributes(a: str, b: str, distinct: bool) -> None:
    assert distinct_attributes(a, b) is distinct
    assert distinct_attributes(b, a) is distinct


def test_two_reports_of_one_figure_stay_comparable() -> None:
    result = check_texts(
        "According to the finance team, the warehouse move will cost £340,000.",
        "According to the project sponsor, the warehouse move will cost £410,000.",
    )
    assert result.relation is Relation.CONFLICT, result.reason
    assert "both sides report" in result.reason


def test_a_report_against_a_sources_own_figure_stays_compatible() -> None:
    result = check_texts(
        "According to the finance team, the warehouse move will cost £340,000.",
        "The warehouse move will cost £410,000.",
    )
    assert result.relation is Relation.COMPATIBLE
    assert result.rule == "reported_speech"


def test_a_bare_number_counts_what_its_words_name() -> None:
    # "reached 1,021" has no unit, but its own words say it counts confirmed cases
    result = check_texts(
        "Porto has fewer than 1,000 confirmed cases of mumps.",
        "By Friday the confirmed cases reached 1,021, and 12 people were in hospital.",
    )
    assert result.relation is Relation.CONFLICT, result.reason


def test_a_verb_on_one_side_is_not_a_narrower_attribute() -> None:
    # "confirmed" is glued to one key ("confirm") and the other names "confirm case": the
    # word one attribute adds is in the other's description, so they name one thing
    result = check_texts(
        "Health officials in Porto confirmed more than 690 cases.",
        "The confirmed cases in Porto reached 654.",
    )
    assert result.relation is Relation.CONFLICT, result.reason
