"""The unit written after a number ("250 tokens", "5 km/h", "10^6 m"), and number
parsing (digits, powers, number words)."""

from __future__ import annotations

import math
import re

from claims.extraction.mention_tests import _is_ratio, _is_time
from claims.extraction.mention_words import _JOINER, _PER
from claims.extraction.resources import Resources
from claims.units.lexicon import lookup


def _unit_at(res: Resources, folded: str, pos: int) -> re.Match[str] | None:
    """The longest lexicon unit starting exactly at ``pos``."""
    a = res.unit_sensitive.match(folded, pos)
    b = res.unit_insensitive.match(folded, pos)
    if a is None:
        return b
    if b is None:
        return a
    return a if a.end() >= b.end() else b


def _unit_after(res: Resources, folded: str, pos: int) -> tuple[int, str] | None:
    """(end, unit surface) of a unit written after a number ending at ``pos``, with "per X"."""
    joiner = _JOINER.match(folded, pos)
    start = joiner.end() if joiner else pos
    m = _unit_at(res, folded, start)
    if m is None:
        return None
    end = m.end()
    surface = folded[start:end]
    powered = _powered_unit(res, folded, start, end)
    if powered is not None:
        return powered
    per = _PER.match(folded, end)
    if per is not None and folded[end : per.end()].strip():
        den = _unit_at(res, folded, per.end())
        # "3% per year" is an annual rate (a period scope), not percent per second
        if den is not None and not (
            (_is_ratio(surface) or _is_time(surface)) and _is_time(den.group(0))
        ):
            combined = f"{surface} per {folded[per.end() : den.end()]}"
            if lookup(combined) is not None:
                return den.end(), folded[start : den.end()]
    return end, surface


_UNIT_EXPONENT = re.compile(r"\^?-?[1-4](?![0-9A-Za-z])|⁻?[¹²³⁴]")


def _powered_unit(res: Resources, folded: str, start: int, end: int) -> tuple[int, str] | None:
    """(end, surface) of a unit written with powers, as science writes it: "cm-3",
    "m s-1", "g cm-3", "Mg ha-1 yr-1" (the minus sign is already folded to "-")."""
    pos = end
    exponent = _UNIT_EXPONENT.match(folded, pos)
    powered = exponent is not None
    if exponent is not None:
        pos = exponent.end()
    for _ in range(3):
        if folded[pos : pos + 1] not in (" ", "·"):
            break
        nxt = _unit_at(res, folded, pos + 1)
        if nxt is None:
            break
        inverse = _UNIT_EXPONENT.match(folded, nxt.end())
        if inverse is None or inverse.group(0).lstrip("^")[:1] not in ("-", "⁻"):
            break
        pos = inverse.end()
        powered = True
    if not powered or lookup(folded[start:pos]) is None:
        return None
    return pos, folded[start:pos]


def _parse_number(text: str) -> float:
    return float(text.replace(",", ""))


def _apply_power(base: float, chain: str) -> float:
    """Right-associative ``base^a^b`` in floats; anything past float range is ``inf``."""
    exponents = [float(x) for x in chain.split("^") if x]
    value = exponents[-1]
    try:
        for e in reversed(exponents[:-1]):
            value = e**value
        return float(base**value)
    except OverflowError:
        return math.inf


def _number_words_value(res: Resources, text: str) -> float | None:
    vocab = res.numbers
    key = " ".join(text.lower().replace("-", " ").split())
    if key in vocab.dozen_words:
        return float(vocab.dozen_words[key])
    total, current, seen = 0, 0, False
    for word in key.split():
        if word == "and":
            continue
        if word in vocab.units_words:
            current += vocab.units_words[word]
        elif word in vocab.tens_words:
            current += vocab.tens_words[word]
        elif word in vocab.scale_words:
            scale = vocab.scale_words[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None
