"""How alike two attributes are: IDF-weighted overlap of their normalised words.

Two claims can name one attribute in different words after every normalisation the extractor
applies ("output limit" / "limit", "battery life" / "battery"). String equality of claim keys
misses those; treating any shared word as a match invents conflicts ("notice period" /
"probation period" share only the generic "period"). So each word weighs what it tells:
a rare word ("probation", "dividend") weighs much more than a common one ("period", "life"),
using English word frequencies from ``wordfreq`` (Zipf scale: 7 for "the", 3 for a rare word).

The score is the weighted Jaccard index of the two word sets, in [0, 1]:

    score = weight(shared words) / weight(all words of either side)

and decides one of three bands (see ``band``):

- ``same`` (score >= SAME_ATTRIBUTE): one attribute worded differently; values compare as
  for one claim key;
- ``similar`` (SIMILAR_ATTRIBUTE <= score < SAME_ATTRIBUTE): maybe one attribute; a
  disagreement is ``ambiguous`` ("similar attributes"), never a conflict;
- ``different``: unrelated.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

SAME_ATTRIBUTE = 0.8
SIMILAR_ATTRIBUTE = 0.4

# Zipf frequency at or above which a word carries the least weight; a word unknown to the
# frequency list (a name, a code, another script) carries the most.
_COMMON_ZIPF = 7.0
_MIN_WEIGHT = 0.5
_MAX_WEIGHT = 7.0

SAME = "same"
SIMILAR = "similar"
DIFFERENT = "different"

# shortest shared stem for two words to count as inflections of one another
MIN_STEM = 3
# longest ending by which they may differ ("sublet" / "subletting")
MAX_ENDING = 4


@dataclass(frozen=True, slots=True)
class AttributeMatch:
    """The score of two attributes, the words they share and the band it falls in."""

    score: float
    matched: tuple[str, ...]
    band: str

    def describe(self) -> str:
        words = ", ".join(self.matched) if self.matched else "none"
        return f"attribute similarity {self.score:.2f} (shared words: {words})"


@lru_cache(maxsize=1)
def _zipf():  # noqa: ANN202 - a function from wordfreq
    # imported lazily: loading the frequency tables costs ~0.2 s, paid only when needed
    from wordfreq import zipf_frequency

    return zipf_frequency


@lru_cache(maxsize=65536)
def word_weight(word: str) -> float:
    """How much one normalised word says about an attribute (rare words say more)."""
    if not word:
        return 0.0
    if not word.isascii():
        return _MAX_WEIGHT
    zipf = float(_zipf()(word, "en"))
    if zipf <= 0.0:
        return _MAX_WEIGHT
    return max(_MIN_WEIGHT, min(_MAX_WEIGHT, _COMMON_ZIPF - zipf + _MIN_WEIGHT))


def attribute_words(attribute: str) -> frozenset[str]:
    """The comparable words of an attribute or claim key (NFKC, casefolded, split on blanks)."""
    text = unicodedata.normalize("NFKC", attribute).casefold().replace("|", " ")
    return frozenset(w for w in text.split() if w)


@lru_cache(maxsize=65536)
def match_attributes(a: str, b: str) -> AttributeMatch:
    """The similarity of two attributes (symmetric: the argument order does not matter)."""
    if a > b:
        a, b = b, a
    words_a, words_b = attribute_words(a), attribute_words(b)
    if not words_a or not words_b:
        return AttributeMatch(0.0, (), DIFFERENT)
    if words_a == words_b:
        return AttributeMatch(1.0, tuple(sorted(words_a)), SAME)
    shared, words_a, words_b = _pair_inflections(words_a, words_b)
    total = sum(word_weight(w) for w in words_a | words_b)
    score = sum(word_weight(w) for w in shared) / total if total else 0.0
    return AttributeMatch(round(score, 4), tuple(sorted(shared)), band(score))


def inflections(a: str, b: str) -> bool:
    """Whether two words differ only by an ending ("siz" / "size", "sublet" / "subletting")."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return (
        len(short) >= MIN_STEM and long.startswith(short) and len(long) - len(short) <= MAX_ENDING
    )


def _pair_inflections(
    words_a: frozenset[str], words_b: frozenset[str]
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Shared words, counting a word and its inflection ("size" / "sizes") as one word."""
    only_a, only_b = set(words_a - words_b), set(words_b - words_a)
    renamed: dict[str, str] = {}
    for x in sorted(only_a):
        for y in sorted(only_b):
            if inflections(x, y):
                renamed[y] = x
                only_b.discard(y)
                break
    words_b = frozenset(renamed.get(w, w) for w in words_b)
    return words_a & words_b, words_a, words_b


def similar_key_pairs(
    keys: Mapping[str, tuple[str, str]],
) -> list[tuple[str, str, AttributeMatch]]:
    """Pairs of claim keys whose attributes are the same or similar, never of other entities.

    ``keys`` maps each claim key to its (entity, attribute). Candidates come from an inverted
    index over attribute words (two keys sharing no word are never scored), so the work grows
    with the keys that share a word, not with all pairs of keys.
    """
    postings: dict[str, list[str]] = defaultdict(list)
    for key in sorted(keys):
        for word in attribute_words(keys[key][1]):
            postings[word].append(key)
    candidates: set[tuple[str, str]] = set()
    for holders in postings.values():
        for i, x in enumerate(holders):
            for y in holders[i + 1 :]:
                candidates.add((x, y) if x < y else (y, x))
    pairs = []
    for x, y in sorted(candidates):
        (entity_x, attr_x), (entity_y, attr_y) = keys[x], keys[y]
        if entity_x and entity_y and entity_x != entity_y:
            continue
        match = match_attributes(attr_x, attr_y)
        if match.band != DIFFERENT:
            pairs.append((x, y, match))
    return pairs


def band(score: float) -> str:
    """``same``, ``similar`` or ``different`` for a similarity score."""
    if score >= SAME_ATTRIBUTE:
        return SAME
    if score >= SIMILAR_ATTRIBUTE:
        return SIMILAR
    return DIFFERENT
