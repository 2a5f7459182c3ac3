"""Long id lists read in batches: one ``IN (...)`` of at most ``BATCH`` values per query, so
no statement exceeds a database's bound-parameter limit (SQLite's is the lowest)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
BATCH = 500


def batches(values: Sequence[T], size: int = BATCH) -> Iterator[list[T]]:
    """``values`` in order, ``size`` at a time."""
    for start in range(0, len(values), size):
        yield list(values[start : start + size])
