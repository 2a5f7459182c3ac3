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

from claims.units.registry import DATA_DIR, conversion_factor

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
    # the C loader when PyYAML has it (read at every start; the Python one is slow)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    data: dict[str, Any] = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
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
    """(factor, offset) from ``pint_name`` to ``canonical_pint``; computed once by pint
    (and kept across processes: ``registry.conversion_factor``)."""
    return conversion_factor(pint_name, canonical_pint)


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
    if len(parts) == 1:
        return _powers(key)
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


# A unit raised to a power as science writes it: "cm−3", "s-1", "m²", "cm^-1".
_POWER = re.compile(r"^(.+?)(?:\^|\*\*)?([-\u2212\u207b]?)([1-4\u00b9\u00b2\u00b3\u2074])$")
_SUPERSCRIPT = str.maketrans("\u00b9\u00b2\u00b3\u2074\u207b", "1234-")
# length^2 and length^3 are the area and volume dimensions (so "m3" meets "L")
_LENGTH_POWERS = {2: "area", 3: "volume"}
# only physical units are raised to powers
_POWERED_DIMENSIONS = frozenset(
    {"time", "data", "mass", "length", "volume", "area", "frequency", "power", "angle"}
    | {"pressure", "voltage", "current", "energy", "substance", "magnetic_field"}
)


def _power_part(part: str) -> tuple[UnitEntry, int] | None:
    """("cm", -3) for "cm−3": a lexicon unit and its exponent (1 without one)."""
    simple = lookup(part) if _simple(part) is not None else None
    if simple is not None:
        return simple, 1
    m = _POWER.match(part)
    if m is None:
        return None
    base = _simple(m.group(1))
    if base is None:
        return None
    exponent = int(m.group(3).translate(_SUPERSCRIPT))
    if m.group(2):
        exponent = -exponent
    entry = lookup(m.group(1))
    if entry is None or entry.dimension not in _POWERED_DIMENSIONS:
        return None  # "euros^3" is a footnote, not cubic euros
    return entry, exponent


def _powers(key: str) -> UnitEntry | None:
    """A product of powers of lexicon units ("g cm−3", "m s−1", "cm−1", "Mg ha−1 yr−1"):
    positive powers form the numerator, negative ones the denominator. None when a part is
    unknown, has an offset (°C) or nothing is raised to a power."""
    parts = key.replace("\u00b7", " ").split(" ")
    if len(parts) > 4:
        return None
    read = [_power_part(p) for p in parts]
    if any(r is None for r in read) or all(r[1] == 1 for r in read if r):
        return None
    lex = lexicon()
    num: list[tuple[str, str]] = []
    den: list[tuple[str, str]] = []
    factor = 1.0
    for entry, exponent in (r for r in read if r is not None):
        if entry.offset:
            return None
        dimension, display = entry.dimension, entry.canonical_unit
        unit_factor = entry.factor
        if dimension == "length" and abs(exponent) in _LENGTH_POWERS:
            dimension = _LENGTH_POWERS[abs(exponent)]
            pint_name, display = lex.dimensions[dimension]
            unit_factor = _factor(f"({entry.pint_name}) ** {abs(exponent)}", pint_name)[0]
            exponent = 1 if exponent > 0 else -1
        elif abs(exponent) != 1:
            dimension, display = f"{dimension}^{abs(exponent)}", f"{display}^{abs(exponent)}"
            unit_factor = unit_factor ** abs(exponent)
        if exponent > 0:
            num.append((dimension, display))
            factor *= unit_factor
        else:
            den.append((dimension, display))
            factor /= unit_factor
    numerator = "*".join(d for d, _ in num) or "1"
    shown = "*".join(u for _, u in num) or "1"
    dimension = numerator + ("/" + "/".join(d for d, _ in den) if den else "")
    canonical = shown + ("/" + "/".join(u for _, u in den) if den else "")
    return UnitEntry(key, key, dimension, canonical, factor, 0.0)


def currency_for_prefix(prefix: str) -> str | None:
    """ISO code for a currency symbol or code written before a number ("$" -> "USD")."""
    return lexicon().currency_prefixes.get(fold_surface(prefix))
