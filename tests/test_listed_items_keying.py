"""Items of a list in one sentence share one key and one set of qualifiers (issue 12 point 5),
and comparison idioms after a value are never its scope (issue 13 office target).

Sentences written for these tests, the way specs, price lists and board updates put them.
"""

from __future__ import annotations

import pytest

from claims.extraction import extract
from claims.models import Claim


def _quantities(text: str) -> list[Claim]:
    return [c for c in extract(text) if c.kind.value == "quantity"]


@pytest.mark.parametrize(
    ("sentence", "key", "values"),
    [
        # the noun after the last item names what every item is
        (
            "The Kestrel K2 is available in 16 GB, 32 GB and 64 GB versions.",
            "kestrel k2 available",
            [16, 32, 64],
        ),
        (
            "The Osprey desk comes in 120 cm, 140 cm or 160 cm widths.",
            "osprey desk come",
            [120, 140, 160],
        ),
        # a currency sign before each item: "£15 and £20" are two items, not a range
        (
            "Parking permits cost £12, £15 and £20 a month.",
            "park permit price",
            [12, 15, 20],
        ),
        # a scale word on each item
        (
            "The research grants are worth £950m, £1.1bn and £1.2bn respectively.",
            None,
            [950e6, 1.1e9, 1.2e9],
        ),
    ],
)
def test_every_item_of_a_list_gets_the_key_of_the_list(
    sentence: str, key: str | None, values: list[float]
) -> None:
    claims = _quantities(sentence)
    assert [c.value for c in claims] == pytest.approx(values)
    keys = {c.claim_key for c in claims}
    assert len(keys) == 1, keys
    if key is not None:
        assert keys == {key}
    assert all(c.low is None and c.high is None for c in claims)  # no item is a range


def test_qualifiers_said_once_hold_for_every_item() -> None:
    claims = _quantities("Parking permits at the Leeds office cost £12, £15 and £20 a month.")
    assert len({(tuple(sorted(c.scope.items())), tuple(c.scope_residual)) for c in claims}) == 1
    assert all(c.scope.get("period") == "monthly" for c in claims)


def test_items_naming_different_qualifiers_keep_their_own() -> None:
    claims = _quantities("Tickets cost £10 for adults and £5 for children.")
    assert [c.scope.get("population") for c in claims] == ["adult", "child"]


def test_a_second_value_after_a_comma_and_keeps_its_qualifier_to_itself() -> None:
    # ", and" between two values starts a second statement, not a list of two
    for sentence in (
        "The standard warranty is 12 months, and 24 months for business customers.",
        "Refunds take 5 days, or 10 days for international orders.",
    ):
        first, second = _quantities(sentence)
        assert first.scope == {} and first.scope_residual == [], sentence
        assert second.scope or second.scope_residual, sentence


@pytest.mark.parametrize(
    ("sentence", "low"),
    [("The fee is between £15 and £20.", 15), ("Prices range from $10 to $20.", 10)],
)
def test_a_range_stays_a_range(sentence: str, low: float) -> None:
    [claim] = _quantities(sentence)
    assert (claim.low, claim.high) == (pytest.approx(low), pytest.approx(20))


def test_a_different_unit_after_and_is_not_the_list_noun() -> None:
    # "3 weeks standby" is another attribute, not a fourth battery life
    claims = _quantities("The battery lasts 14 hours, and 3 weeks standby.")
    assert claims[0].claim_key != claims[1].claim_key


@pytest.mark.parametrize(
    "sentence",
    [
        "Annual revenue reached £1.2bn, in line with the plan.",
        "Annual revenue reached £1.2bn in line with the plan.",
        "Annual revenue was £1.2bn, ahead of the forecast.",
        "Annual revenue was £1.2bn, behind the budget.",
        "Annual revenue was £1.2bn, compared with the budget.",
        "Annual revenue was £1.2bn and on track for the plan.",
        "Annual revenue of £1.2bn was in line with expectations.",
    ],
)
def test_a_comparison_idiom_is_never_a_scope(sentence: str) -> None:
    [claim] = _quantities(sentence)
    assert claim.claim_key == "revenue"
    assert claim.scope == {"period": "annual"}
    assert claim.scope_residual == []


def test_a_comparison_with_another_value_keeps_that_value_apart() -> None:
    claims = _quantities("Revenue was $5m, compared with $4m a year earlier.")
    assert [c.value for c in claims] == [5e6, 4e6]
    assert claims[0].scope_residual == []
    # the earlier figure is not read as a second revenue of the same slot
    assert (claims[1].claim_key, claims[1].scope_residual) != (claims[0].claim_key, [])


def test_the_plan_still_qualifies_a_claim_about_the_plan() -> None:
    # the idiom is dropped, not the word: "the plan's target" is what this sentence states
    [claim] = _quantities("The hiring plan targets 40 new engineers.")
    assert "plan" in claim.claim_key or "plan" in claim.scope_residual
