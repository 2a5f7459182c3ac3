"""Surface strings ("ms", "cents per share", "日") mapped to units through a data file.

pint never sees raw text: a surface is looked up in ``data/lexicon.yaml`` and only the
pint name stored there is handed to pint, once, to compute a conversion factor that is
then cached. Compound surfaces ("requests per minute", "mg/kg", "USD/share") are split on
"per" or "/" and each side is looked up on its own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from claims.units.registry import DATA_DIR, application_registry

LEXICON_FILE = DATA_DIR / "lexicon.yaml"


@dataclass(frozen=True, slots=True)
class UnitEntry:
    """A known unit: how to turn a value written in it into the canonical unit.

    ``canonical = value * factor + offset`` (offset is non-zero only for temperatures).
    """

    surface: str
    pint_name: str
    dimension: str
    canonical_unit: str
    factor: float
    offset: float = 0.0


@dataclass(frozen=True, slots=True)
class _Lexicon:
    exact: dict[str, tuple[str, str]]  # surface -> (pint name, dimension)
    folded: dict[str, tuple[str, str]]  # lowercased surface -> (pint name, dimension)
    dimensions: dict[str, tuple[str, str]]  # dimension -> (pint name, display)
    currency_prefixes: dict[str, str]  # "$" -> "USD"
    non_latin: frozenset[str]  # surfaces written in a script without word boundaries


_SPACES = re.compile(r"\s+")
_PER = re.compile(r"\s*(?:/|\bper\b|\ba\b)\s*", re.IGNORECASE)


def fold_surface(surface: str) -> str:
    """The lookup form of a surface: NFKC, single spaces, trimmed."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", surface)).strip()


def is_non_latin(surface: str) -> bool:
    return any(ord(ch) > 0x24F and unicodedata.category(ch).startswith("L") for ch in surface)


def _load(path: Path) -> _Lexicon:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    dimensions = {
        str(name): (str(spec["pint"]), str(spec["display"]))
        for name, spec in data["dimensions"].items()
    }
    exact: dict[str, tuple[str, str]] = {}
    folded: dict[str, tuple[str, str]] = {}
    non_latin: set[str] = set()
    for entry in data["units"]:
        dim = str(entry["dimension"])
        if dim not in dimensions:
            raise ValueError(f"{path}: unit {entry['pint']!r} names unknown dimension {dim!r}")
        target = (str(entry["pint"]), dim)
        for surface in entry.get("surfaces", []):
            key = fold_surface(str(surface))
            folded.setdefault(key.lower(), target)
            if is_non_latin(key):
                non_latin.add(key)
        for surface in entry.get("exact", []):
            exact[fold_surface(str(surface))] = target
    prefixes = {str(k): str(v) for k, v in data.get("currency_prefixes", {}).items()}
    for code in prefixes.values():
        if code not in dimensions:
            raise ValueError(f"{path}: currency prefix maps to unknown dimension {code!r}")
    return _Lexicon(exact, folded, dimensions, prefixes, frozenset(non_latin))


@lru_cache(maxsize=1)
def lexicon() -> _Lexicon:
    """The parsed lexicon data file (cached per process)."""
    return _load(LEXICON_FILE)


def surfaces() -> tuple[list[str], list[str]]:
    """(case-insensitive surfaces, case-sensitive surfaces), longest first, for matchers."""
    lex = lexicon()
    insensitive = sorted(lex.folded, key=lambda s: (-len(s), s))
    sensitive = sorted(lex.exact, key=lambda s: (-len(s), s))
    return insensitive, sensitive


def _simple(surface: str) -> tuple[str, str] | None:
    lex = lexicon()
    return lex.exact.get(surface) or lex.folded.get(surface.lower())


@lru_cache(maxsize=4096)
def _factor(pint_name: str, canonical_pint: str) -> tuple[float, float]:
    """(factor, offset) from ``pint_name`` to ``canonical_pint``; computed once by pint."""
    registry = application_registry()
    unit = registry.parse_units(pint_name)
    target = registry.parse_units(canonical_pint)
    zero = registry.Quantity(0.0, unit).to(target).magnitude
    one = registry.Quantity(1.0, unit).to(target).magnitude
    return float(one - zero), float(zero)


@lru_cache(maxsize=65536)
def lookup(surface: str) -> UnitEntry | None:
    """The unit a surface string names, or None when the lexicon does not know it.

    Accepts simple surfaces ("ms", "cents", "日") and compounds built from them
    ("cents per share", "requests/min", "USD per user"). Results are cached, so a repeated
    lookup is a dictionary hit.
    """
    key = fold_surface(surface)
    if not key:
        return None
    lex = lexicon()
    simple = _simple(key)
    if simple is not None:
        pint_name, dim = simple
        canonical_pint, display = lex.dimensions[dim]
        factor, offset = _factor(pint_name, canonical_pint)
        return UnitEntry(key, pint_name, dim, display, factor, offset)
    if key in lex.currency_prefixes:
        code = lex.currency_prefixes[key]
        canonical_pint, display = lex.dimensions[code]
        return UnitEntry(key, canonical_pint, code, display, 1.0, 0.0)
    parts = [p for p in _PER.split(key) if p]
    if len(parts) != 2:
        return None
    numerator, denominator = (lookup(p) for p in parts)
    if numerator is None or denominator is None:
        return None
    if numerator.offset or denominator.offset:
        return None  # "degC per hour" is a rate of change, not something we normalise
    return UnitEntry(
        key,
        f"({numerator.pint_name}) / ({denominator.pint_name})",
        f"{numerator.dimension}/{denominator.dimension}",
        f"{numerator.canonical_unit}/{denominator.canonical_unit}",
        numerator.factor / denominator.factor,
        0.0,
    )


def currency_for_prefix(prefix: str) -> str | None:
    """ISO code for a currency symbol or code written before a number ("$" -> "USD")."""
    return lexicon().currency_prefixes.get(fold_surface(prefix))
