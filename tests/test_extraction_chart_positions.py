"""Chart and table positions written "number 5", "No. 5" or "#5" (issue 12, session 6).

"The single peaked at number 12 on the national chart" used to give no claim: "number" is
no unit and no ordinal, so a revision to "number 9" could not be compared. After a
charting verb the position is a rank, a bare number like "placed fifth".
"""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Polarity, ValueKind


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The single peaked at number 12 on the national chart.", 12),
        ("Her second album debuted at #3 on the album chart.", 3),
        ("The band's cover version reached No. 5 in Ireland.", 5),
        ("He is currently ranked # 2 in the middleweight division.", 2),
        ("In Canada, the song debuted and peaked at number three.", 3),
    ],
)
def test_a_chart_position_after_a_charting_verb_is_a_rank(text: str, value: int) -> None:
    claims = [c for c in extract(text) if c.kind is ValueKind.QUANTITY]
    assert [c.value for c in claims] == [value]
    assert claims[0].unit is None
    assert claims[0].polarity is Polarity.POSITIVE  # "No." abbreviates "number"


@pytest.mark.parametrize(
    "text",
    [
        "He wore a number 5 shirt in his first season.",
        "Number 10 Downing Street is the prime minister's residence.",
    ],
)
def test_number_without_a_charting_verb_is_no_rank(text: str) -> None:
    assert [c for c in extract(text) if c.kind is ValueKind.QUANTITY] == []


def test_a_moved_chart_position_conflicts_and_the_same_one_does_not() -> None:
    moved = check_texts(
        "The single peaked at number 12 on the national chart.",
        "The single peaked at number 9 on the national chart.",
    )
    assert moved.relation.value == "conflict", moved.reason
    same = check_texts(
        "The single peaked at number 12 on the national chart.",
        "The single peaked at No. 12 on the national chart.",
    )
    # "No. 12" leaves a qualifier word the other side lacks: compatible, not corroboration
    assert same.relation.value in ("corroboration", "compatible"), same.reason
