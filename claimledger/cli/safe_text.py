"""Text from documents reaches a terminal as text, never as instructions to it.

A quote, a title or a file name can hold Rich markup (``[bold red]``, ``[/]``) or terminal
control sequences (ESC [ ... for colours and cursor moves, ESC ] ... for window titles and
hyperlinks, their one-byte C1 forms). The CLI's consoles read no markup unless a call asks
for it (and then every piece of data in it is escaped), and every string they render goes
through ``strip_terminal_controls`` first, which also shows bidi controls and zero-width
characters as ``<U+202E>`` (claims/shown_text.py): a quote never displays reversed.
"""

from __future__ import annotations

import re

from claims.shown_text import show_hidden_characters

# ECMA-48: a control sequence (CSI), the string commands (OSC, DCS, SOS, PM, APC) up to
# their terminator (ST, or BEL for OSC) or the end of the text, then any other escape pair.
_SEQUENCES = re.compile(
    r"""
    (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?          # CSI ... final byte
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|$)  # OSC/DCS/SOS/PM/APC
    | \x1b [\x20-\x7e]?                                              # any other ESC pair
    """,
    re.VERBOSE | re.DOTALL,
)
# Whatever control characters are left (tab and newline are layout, kept).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_terminal_controls(text: str) -> str:
    """``text`` without terminal control sequences or control characters (tab, newline kept),
    its bidi controls and zero-width characters shown as ``<U+XXXX>``."""
    if _CONTROLS.search(text):
        text = _CONTROLS.sub("", _SEQUENCES.sub("", text))
    return show_hidden_characters(text)
