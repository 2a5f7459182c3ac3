"""Claim-key normalisation: word folding for English, text folding for other scripts.

A claim key is what the edges layer blocks on, so two sentences about the same thing must
fold to the same words: "requests" -> "request", "disclosing" -> "disclose",
"policies" -> "policy". The folding is deliberately simple and deterministic (no model).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# After stripping -ed/-ing, these endings usually lost an "e" ("disclos" -> "disclose").
_RESTORE_E = (
    "at",
    "bl",
    "iz",
    "os",
    "ir",
    "ur",
    "as",
    "uc",
    "iv",
    "ag",
    "rg",
    "dg",
    "ov",
    "ac",
    "ens",
    "ns",
    "rs",
    "ut",
    "ud",
    "ag",
    "u",
)
_KEEP_DOUBLE = ("l", "s", "z")


@lru_cache(maxsize=65536)
def fold_word(word: str) -> str:
    """The key form of one English word: lowercase, possessive, plural and -ed/-ing folded."""
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    elif w.endswith("'"):
        w = w[:-1]
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "shes", "ches", "xes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is", "ous", "ics")):
        w = w[:-1]
    stem = None
    if w.endswith("ing") and len(w) > 5:
        stem = w[:-3]
    elif w.endswith("ed") and len(w) > 4 and not w.endswith("eed"):
        stem = w[:-2]
    if stem is None:
        return w
    if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in _KEEP_DOUBLE:
        return stem[:-1]
    if stem.endswith(_RESTORE_E):
        return stem + "e"
    return stem


_STRIP = re.compile(r"\s+")


def fold_text(text: str, trim: tuple[str, ...] = ()) -> str:
    """The key form of non-Latin text: NFKC, lowercase, no punctuation, symbols or digits.

    ``trim`` lists copulas and particles removed as whole words, or from the end of text
    written without spaces (Japanese, Chinese).
    """
    normalized = unicodedata.normalize("NFKC", text).lower()
    kept = []
    for ch in normalized:
        cat = unicodedata.category(ch)
        if "\u064b" <= ch <= "\u065f" or ch == "\u0670":
            continue  # Arabic short-vowel marks are optional in writing: never part of a key
        if cat[0] in "PSNCZ":
            kept.append(" ")
        else:
            kept.append(ch)
    words = _STRIP.sub(" ", "".join(kept)).strip().split(" ")
    trimset = set(trim)
    words = [w for w in words if w and w not in trimset]
    changed = True
    while words and changed:  # "何日ですか" loses "ですか", then "何日"
        changed = False
        last = words[-1]
        for particle in trim:
            if last.endswith(particle) and len(last) > len(particle):
                words[-1] = last[: -len(particle)]
                changed = True
                break
    return " ".join(words)
