"""Normalization of a value written in some unit into its dimension's canonical unit."""

from __future__ import annotations

import math
from typing import NamedTuple

from claims.units.lexicon import UnitEntry, lookup


class NormalizedQuantity(NamedTuple):
    """A value in the canonical unit of its dimension ("30 days" -> 2592000.0, "s", "time")."""

    canonical_value: float
    canonical_unit: str
    dimension: str


# surface -> entry; a plain dict in front of the lru_cache keeps the hot path to one lookup.
_HOT: dict[str, UnitEntry | None] = {}


def conversion(unit: str) -> UnitEntry | None:
    """The cached conversion for a unit surface, or None if the lexicon does not know it."""
    try:
        return _HOT[unit]
    except KeyError:
        entry = lookup(unit)
        if len(_HOT) < 65536:
            _HOT[unit] = entry
        return entry


def normalize(value: float, unit: str) -> NormalizedQuantity | None:
    """``value`` expressed in the canonical unit, or None for unknown units or non-finite values.

    After the first call for a surface this is a dictionary hit and a multiply.
    """
    try:
        entry = _HOT[unit]
    except KeyError:
        entry = conversion(unit)
    if entry is None:
        return None
    canonical = value * entry.factor + entry.offset
    if not math.isfinite(canonical):
        return None
    return NormalizedQuantity(canonical, entry.canonical_unit, entry.dimension)
