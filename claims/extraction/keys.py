"""Claim-key normalisation: word folding for English, text folding for other scripts.

A claim key is what the edges layer blocks on, so two sentences about the same thing must
fold to the same words: "requests" -> "request", "disclosing" -> "disclose",
"grew" -> "grow": spaCy's lookup lemmatizer (``claims.extraction.identity.lemma``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.identity import clean, lemma
from claims.extraction.resources import read_yaml


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


@dataclass(frozen=True, slots=True)
class BasisCount:
    """A count that another figure of the sentence rests on ("based on 123 reviews")."""

    start: int  # token index of the phrase's first word ("based")
    counted: str | None  # the noun named inside the phrase ("reviews" in "reviews from")


@lru_cache(maxsize=1)
def _basis_words() -> tuple[tuple[tuple[str, ...], ...], frozenset[str]]:
    words = read_yaml("words.yaml")
    phrases = tuple(tuple(str(w) for w in p) for p in words["basis_phrases"])
    return phrases, frozenset(str(w) for w in words["basis_sources"])


def basis_count(lower: Sequence[str], at: int, low: int = 0) -> BasisCount | None:
    """Whether the value whose first token is ``at`` is a basis count: the tokens before
    it (not before ``low``) end with a phrase of ``basis_phrases``, or with one, a noun and
    a source word ("based on reviews from 131 critics")."""
    phrases, sources = _basis_words()
    for phrase in phrases:
        n = len(phrase)
        if at - n >= low and tuple(lower[at - n : at]) == phrase:
            return BasisCount(at - n, None)
        if (
            at - n - 2 >= low
            and lower[at - 1] in sources
            and lower[at - 2].isalpha()
            and tuple(lower[at - n - 2 : at - 2]) == phrase
        ):
            return BasisCount(at - n - 2, lower[at - 2])
    return None


@lru_cache(maxsize=1)
def _descriptor_words() -> tuple[frozenset[str], frozenset[str]]:
    words = read_yaml("words.yaml")
    titles = frozenset(str(w) for w in words["name_titles"])
    return titles, frozenset(str(w) for w in words["name_connectors"])


def _capitalised(word: str) -> bool:
    """A word written as (part of) a name: a capital first, or digits then letters ("76ers")."""
    if not word:
        return False
    return word[0].isupper() or (word[0].isdigit() and any(c.isalpha() for c in word))


def named_after_descriptor(written: Sequence[str]) -> int:
    """How many leading words of an entity, as written, only describe the name that closes
    it: "review aggregator Rotten Tomatoes" -> 2, "the British band Coldplay" (without
    "the") -> 2, "Governor Pellow" -> 1; 0 when no name closes the entity ("the P-9
    router", "Acme board") or nothing stands before it. A descriptor is a lowercase word
    right before the name (a noun phrase in apposition before a proper name), with what
    precedes it, or a title (``name_titles``) written before the name; lowercase words
    that join parts of one name (``name_connectors``: "Ludwig van Beethoven") are not."""
    titles, connectors = _descriptor_words()
    n = len(written)
    start = n
    while start > 0:
        word = written[start - 1]
        if _capitalised(word) and word.lower().rstrip(".") not in titles:
            start -= 1
        elif (
            word.lower() in connectors
            and start < n
            and start >= 2
            and _capitalised(written[start - 2])
        ):
            start -= 1  # "Catherine of Aragon": the connector stays inside the name
        else:
            break
    while start < n and not _capitalised(written[start]):
        start += 1  # a connector cannot open a name
    if start >= n or start == 0:
        return 0
    name = {w.casefold() for w in written[start:]}
    if any(_capitalised(w) and w.casefold() in name for w in written[:start]):
        # "Harlow Courthouse (Nebraska) The present Harlow Courthouse": a page's heading
        # glued before its first sentence repeats the name; what stands before is no
        # descriptor of it, and the entity stays as read (the heading is the page's subject)
        return 0
    before = written[start - 1]
    lowered = before.lower().rstrip(".")
    if lowered in titles or (before.islower() and any(c.isalpha() for c in before)):
        return start  # "preacher", "second-team", "Governor"
    return 0
