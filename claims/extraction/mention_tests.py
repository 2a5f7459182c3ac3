"""Small tests of a number's surroundings the scanners share (an hour, a counted unit, a
ratio, a time unit)."""

from __future__ import annotations

import re

from claims.units.lexicon import lookup


def _is_hour(number: str) -> bool:
    """Whether a number can be a time of day before "am"/"pm": 1-12, with minutes ("7.30"):
    "1600 AM" is a radio frequency."""
    hours, _, minutes = number.partition(".")
    return (
        hours.isdigit()
        and 1 <= int(hours) <= 12
        and (not minutes or (len(minutes) == 2 and int(minutes) < 60))
    )


def _lost_exponent_of_size(times_ten: re.Match[str], value: float) -> bool:
    """Whether "x10NN" after ``value`` is a size's other side, not a power of ten whose
    superscript was lost: scientific notation writes a mantissa below ten ("3.7 × 106"),
    so "1920x1080" and "24x100" are sizes; a caret or superscript digits keep the power."""
    written = times_ten.group(0)
    plain = "^" not in written and "**" not in written and times_ten.group(2).isascii()
    return plain and abs(value) >= 10


def _is_counted_unit(surface: str) -> bool:
    """Whether a lexicon unit is a counted noun ("users", "staff"): a word whose dimension
    is what it counts, not a measure ("km", "GB", "percent" have other canonical units or
    symbols)."""
    entry = lookup(surface)
    return (
        entry is not None
        and surface[:1].islower()
        and surface.isalpha()
        and entry.dimension == entry.canonical_unit
        and entry.dimension not in ("percent", "dosage")
    )


def _is_count(dimension: str) -> bool:
    return "/" not in dimension and not dimension.isupper()


def _is_ratio(surface: str) -> bool:
    entry = lookup(surface)
    return entry is not None and entry.dimension in ("percent", "dosage")


def _is_time(surface: str) -> bool:
    entry = lookup(surface)
    return entry is not None and entry.dimension == "time"
