"""Two "as of" readings of one running figure at different dates are one slot (ambiguous:
the later may update the earlier); genuinely different periods stay compatible."""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.models import Relation


def _relations(left: str, right: str) -> list[tuple[Relation, str]]:
    return [(p.relation, p.reason) for p in check_texts(left, right).pairs]


def test_two_as_of_snapshots_with_different_figures_are_one_slot() -> None:
    ((relation, reason),) = _relations(
        "As of 9 March 2020, the health ministry had confirmed 30 cases in Saxony.",
        "As of 10 March 2020, the health ministry had confirmed 34 cases in Saxony.",
    )
    assert relation is Relation.AMBIGUOUS
    assert "later snapshot" in reason


def test_two_as_of_snapshots_with_the_same_figure_are_no_conflict() -> None:
    # the figure did not move between the readings: two times, one value, no dispute
    ((relation, _reason),) = _relations(
        "As of 9 March 2020, the health ministry had confirmed 30 cases in Saxony.",
        "As of 10 March 2020, the health ministry had confirmed 30 cases in Saxony.",
    )
    assert relation is Relation.COMPATIBLE


def test_two_as_of_snapshots_with_the_same_figure_in_two_wordings_are_compatible() -> None:
    # not one sentence revised: two sources, two readings of a figure that did not move
    relations = [
        r
        for r, _ in _relations(
            "As of 9 March 2020, the health ministry had confirmed 30 cases in Saxony.",
            "Saxony still counted 30 confirmed cases as of 10 March 2020, a spokesperson said.",
        )
    ]
    assert Relation.CONFLICT not in relations and Relation.AMBIGUOUS not in relations


@pytest.mark.parametrize(
    ("left", "right"),
    [
        (
            "In 2019, the museum welcomed 120,000 visitors.",
            "In 2020, the museum welcomed 40,000 visitors.",
        ),
        (
            "As of the census of 2000, Millbrook had 2,950 residents.",
            "As of the census of 2010, Millbrook had 3,292 residents.",
        ),
    ],
)
def test_different_periods_and_two_censuses_are_not_one_slot(left: str, right: str) -> None:
    relations = [r for r, _ in _relations(left, right)]
    assert relations and all(r is Relation.COMPATIBLE for r in relations)


def test_a_snapshot_after_another_time_word_is_still_a_snapshot() -> None:
    ((relation, _),) = _relations(
        "Currently, as of 24 March 2020, ten regional hospitals have reported cases.",
        "Currently, as of 25 March 2020, twelve regional hospitals have reported cases.",
    )
    assert relation is Relation.AMBIGUOUS
