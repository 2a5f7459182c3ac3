"""Modal and negation markers of scripts that the English rules cannot read.

The markers come from ``cues.yaml`` (``NON_LATIN_MODAL``). How a marker may sit in a
sentence depends on its script, because a blind substring search finds the Arabic "لا"
inside ordinary words ("خلال", "during"):

* Arabic-script markers are whole words;
* Tamil and Telugu markers end a word (they are suffixes: "வெளியிடலாம்" = "may disclose");
* CJK and kana markers may sit anywhere (those scripts do not separate words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_WORD_END = r"(?![^\W_])"  # no letter or digit follows (combining marks do not count)


@dataclass(frozen=True, slots=True)
class MarkerScan:
    """What the markers of one sentence say, and the sentence with them blanked out."""

    text: str  # same length as the input: every marker character replaced by a space
    modal_id: str | None  # first modal marker's id ("permission", "prohibition", ...)
    negated: bool  # an odd number of plain negation markers
    found: bool


def _script_pattern(marker: str) -> str:
    body = re.escape(marker)
    first = ord(marker[0])
    if 0x0600 <= first <= 0x06FF:  # Arabic
        return rf"(?<![^\W_]){body}{_WORD_END}"
    if 0x0B80 <= first <= 0x0C7F:  # Tamil, Telugu
        return rf"{body}{_WORD_END}"
    return body


@lru_cache(maxsize=8)
def _compiled(markers: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    return tuple((re.compile(_script_pattern(m)), kind) for m, kind in markers)


def scan_markers(sentence: str, markers: tuple[tuple[str, str], ...]) -> MarkerScan:
    """Blank every marker of ``markers`` (longest first) in ``sentence`` and read them."""
    chars = list(sentence)
    modal_id: str | None = None
    negated = found = False
    for pattern, kind in _compiled(markers):
        hits = [m for m in pattern.finditer("".join(chars)) if m.group().strip()]
        if not hits:
            continue
        found = True
        for hit in hits:
            for k in range(hit.start(), hit.end()):
                chars[k] = " "
            if kind == "negation":
                negated = not negated
        if kind != "negation" and modal_id is None:
            modal_id = kind
    return MarkerScan("".join(chars), modal_id, negated, found)
