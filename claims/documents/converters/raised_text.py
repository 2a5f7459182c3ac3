"""How a raised small piece of text reads inline, in every format that marks one (an HTML
``sup``, a Word run set superscript, a PDF run set smaller above the baseline).

A unit's power after a letter is a power (``m`` + ``2`` -> ``m²``), a power of ten after
``10`` is an exponent (``10^6``), a short mark elsewhere is a footnote mark and is left
out (``$4,411`` + ``1`` must not read as 4,4111).
"""

from __future__ import annotations

import re

_FOOTNOTE_MARK = re.compile(r"^[0-9a-z*\u2020\u2021\u00a7]{1,3}$", re.IGNORECASE)
_POWERS = {"2": "\u00b2", "3": "\u00b3"}
_EXPONENT = re.compile(r"[-\u2212]?\d{1,3}")


def raised_reads_as(text: str, before: str) -> str | None:
    """``text`` (raised, right after ``before``) as it reads inline; None when it is no
    power and no footnote mark (it then reads as itself)."""
    if text in _POWERS and before[-1:].isalpha():
        return _POWERS[text]
    if before.endswith("10") and _EXPONENT.fullmatch(text):
        return "^" + text
    if _FOOTNOTE_MARK.match(text):
        return ""
    return None
