"""Counted things the lexicon does not name ("1200 pallets", "40 tickets per day").

A count of a plain noun is still a measurement: its canonical unit is the singular noun and
its dimension ``count:<noun>``, so 40 tickets and 45 tickets compare, while 40 tickets and
40 bottles never do. Only a single Latin word qualifies; anything else stays unknown.
Extraction applies this to the word after a number; ``claims.units.normalize`` stays
lexicon-only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.units.lexicon import UnitEntry, fold_surface, lookup

_NOUN = re.compile(r"[a-z][a-z-]{2,31}")
_PER = re.compile(r"\s*(?:/|\bper\b)\s*")


def singular(noun: str) -> str:
    """A plain English singular ("bottles" -> "bottle", "entries" -> "entry")."""
    if noun.endswith("ies") and len(noun) > 4:
        return noun[:-3] + "y"
    if noun.endswith(("sses", "xes", "zzes", "ches", "shes")):
        return noun[:-2]  # classes, boxes, batches; but cases -> case, houses -> house
    if noun.endswith("s") and not noun.endswith("ss"):
        return noun[:-1]
    return noun


# nouns that count people: one dimension with the lexicon's employees, staff and workers
_PEOPLE = frozenset(
    ["people", "persons", "individuals", "personnel", "residents", "inhabitants", "adults"]
    + ["attendees", "participants", "members", "colleagues", "volunteers", "visitors"]
)


def _count(noun: str) -> UnitEntry | None:
    if not _NOUN.fullmatch(noun):
        return None
    if noun in _PEOPLE:
        return UnitEntry(noun, "person_count", "people", "people", 1.0, 0.0)
    name = singular(noun)
    return UnitEntry(noun, name, f"count:{name}", name, 1.0, 0.0)


@lru_cache(maxsize=16384)
def counted_unit(surface: str) -> UnitEntry | None:
    """The counted-noun unit for ``surface`` ("pallets", "tickets per day"), or None."""
    key = fold_surface(surface).lower()
    parts = [p for p in _PER.split(key) if p]
    if len(parts) == 1:
        return _count(parts[0])
    if len(parts) != 2:
        return None
    numerator = _count(parts[0])
    denominator = lookup(parts[1])
    if numerator is None or denominator is None or denominator.offset:
        return None
    return UnitEntry(
        key,
        numerator.pint_name,
        f"{numerator.dimension}/{denominator.dimension}",
        f"{numerator.canonical_unit}/{denominator.canonical_unit}",
        1.0 / denominator.factor,
        0.0,
    )
