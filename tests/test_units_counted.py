"""Counted nouns the lexicon does not list still normalise, so every unit has a canonical unit."""

from __future__ import annotations

import pytest

from claims.check import check_texts
from claims.extraction import extract
from claims.units.counted import counted_unit, singular


@pytest.mark.parametrize(
    ("sentence", "canonical_unit"),
    [
        ("The warehouse holds 1200 pallets.", "pallet"),
        ("The box contains 12 bottles.", "bottle"),
        ("Each agent handles 40 tickets per day.", "ticket"),
        ("The library lends 300 copies.", "copy"),
    ],
)
def test_counted_nouns_get_a_canonical_unit(sentence: str, canonical_unit: str) -> None:
    (claim,) = [c for c in extract(sentence) if c.unit]
    assert claim.canonical_unit == canonical_unit
    assert claim.dimension == f"count:{canonical_unit}"
    assert claim.canonical_value == claim.value


def test_a_counted_rate_divides_by_the_time_unit() -> None:
    entry = counted_unit("tickets per day")
    assert entry is not None
    assert entry.dimension == "count:ticket/time"
    assert entry.factor == pytest.approx(1 / 86400)


def test_only_a_single_plain_word_counts() -> None:
    assert counted_unit("x") is None
    assert counted_unit("two words") is None
    assert counted_unit("日") is None
    assert singular("boxes") == "box" and singular("class") == "class"


def test_different_counted_things_are_never_a_conflict() -> None:
    same = check_texts("The depot holds 1200 pallets.", "The depot holds 1500 pallets.")
    other = check_texts("The depot holds 1200 pallets.", "The depot holds 1500 crates.")
    assert same.relation.value == "conflict"
    assert other.relation.value != "conflict"
