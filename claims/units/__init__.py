"""Units: one pint registry, a surface lexicon, cached conversions to canonical units.

Public surface:

- ``normalize(value, unit) -> NormalizedQuantity | None``: canonical value, unit, dimension.
- ``lookup(surface) -> UnitEntry | None``: what a surface string ("ms", "cents per share",
  "日") names, with its cached conversion factor.
- ``conversion(unit)``: the cached ``UnitEntry`` used by ``normalize``.
- ``currency_for_prefix("$") -> "USD"``.
- ``application_registry()``: the pint registry (pint's defaults + project definitions).
"""

from claims.units.lexicon import UnitEntry, currency_for_prefix, lookup, surfaces
from claims.units.normalize import NormalizedQuantity, conversion, normalize
from claims.units.registry import application_registry

__all__ = [
    "NormalizedQuantity",
    "UnitEntry",
    "application_registry",
    "conversion",
    "currency_for_prefix",
    "lookup",
    "normalize",
    "surfaces",
]
