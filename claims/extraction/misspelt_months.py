"""Month names misspelt in real text, read only before a year (time.yaml,
``misspelt_month_max_zipf``): "7 Jume 2019" is 7 June 2019, "Abril 2020" April 2020.

A variant is one edit (Damerau: a letter changed, added, dropped, or two neighbours
swapped) from exactly one full month name; a word that is a month or an abbreviation
itself, or a common English word or name ("Jane", "Marc", "Julie"), is never one. The
variants are built once (about 6,000 strings); the word frequency is looked up only for a
word that is a variant, so ordinary text pays one dict lookup per date-shaped match.
"""

from __future__ import annotations

import string
from functools import lru_cache

from claims.extraction.resources import read_yaml, resources

_MIN_NAME = 4  # "May" has no variants: one edit of three letters is too many words


def _one_edit(word: str) -> set[str]:
    letters = string.ascii_lowercase
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    out = {a + b[1:] for a, b in splits if b}
    out |= {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    out |= {a + c + b[1:] for a, b in splits if b for c in letters}
    out |= {a + c + b for a, b in splits for c in letters}
    out.discard(word)
    return out


@lru_cache(maxsize=1)
def _variants() -> dict[str, int]:
    months = resources().months
    full: dict[int, str] = {}
    for name, number in months.items():
        if len(name) > len(full.get(number, "")):
            full[number] = name
    seen: dict[str, set[int]] = {}
    for number, name in full.items():
        if len(name) < _MIN_NAME:
            continue
        for variant in _one_edit(name):
            seen.setdefault(variant, set()).add(number)
    return {
        v: next(iter(numbers))
        for v, numbers in seen.items()
        if len(numbers) == 1 and v not in months
    }


@lru_cache(maxsize=1)
def _max_zipf() -> float:
    return float(read_yaml("time.yaml")["misspelt_month_max_zipf"])


@lru_cache(maxsize=4096)
def misspelt_month(word: str) -> int | None:
    """The month a capitalised ``word`` misspells, or None (see the module docstring)."""
    if not word[:1].isupper():
        return None
    number = _variants().get(word.lower())
    if number is None:
        return None
    from wordfreq import zipf_frequency  # loaded only when a variant is met

    if zipf_frequency(word.lower(), "en") >= _max_zipf():
        return None
    return number
