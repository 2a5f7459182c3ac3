"""Document text shown to a person: characters that change how text displays, made visible.

A bidi control (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) makes a quote display reversed or
reordered, and a zero-width character hides inside a word. Stored text keeps them exactly
(quotes are evidence); every terminal and HTML rendering shows each as ``<U+XXXX>``
instead, so a reviewer sees that the text holds one and reads the rest in its true order.
"""

from __future__ import annotations

import re

# Explicit bidi formatting (UAX #9: embeddings, overrides, isolates, marks) and the
# invisible characters that can sit inside a word without showing.
SHOWN_AS_CODES = re.compile(
    "["
    "\u061c"  # ARABIC LETTER MARK
    "\u200b-\u200f"  # zero width space / non-joiner / joiner, LRM, RLM
    "\u202a-\u202e"  # LRE, RLE, PDF, LRO, RLO
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # LRI, RLI, FSI, PDI
    "\ufeff"  # zero width no-break space (BOM)
    "]"
)


def code_of(character: str) -> str:
    """``<U+202E>``: how a hidden or reordering character is shown."""
    return f"<U+{ord(character):04X}>"


def show_hidden_characters(text: str) -> str:
    """``text`` with every bidi control and zero-width character shown as ``<U+XXXX>``."""
    if not SHOWN_AS_CODES.search(text):
        return text  # the common case
    return SHOWN_AS_CODES.sub(lambda match: code_of(match.group()), text)


def holds_hidden_characters(text: str) -> bool:
    return SHOWN_AS_CODES.search(text) is not None
