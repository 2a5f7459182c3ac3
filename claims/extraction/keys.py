"""Claim-key normalisation: word folding for English, text folding for other scripts.

A claim key is what the edges layer blocks on, so two sentences about the same thing must
fold to the same words: "requests" -> "request", "disclosing" -> "disclose",
"grew" -> "grow": spaCy's lookup lemmatizer (``claims.extraction.identity.lemma``).
"""

from __future__ import annotations

import re
import unicodedata

from claims.extraction.identity import clean, lemma


def fold_word(word: str) -> str:
    """The key form of one English word: cleaned, lowercase, possessive dropped, lemmatised
    by spaCy's lookup table ("grew" -> "grow", "policies" -> "policy"); see ``identity``."""
    return lemma(word)


_STRIP = re.compile(r"\s+")


def fold_text(text: str, trim: tuple[str, ...] = ()) -> str:
    """The key form of non-Latin text: NFKC, lowercase, no punctuation, symbols or digits.

    ``trim`` lists copulas and particles removed as whole words, or from the end of text
    written without spaces (Japanese, Chinese).
    """
    normalized = clean(unicodedata.normalize("NFKC", text)).lower()
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
