"""Near misses: two claim keys in one coarse-key block that may name the same thing.

The extractor's coarse key is broad (the head noun: "notice period", "probation period" and
"retention period" all share "period"), so sharing it is not enough: "the notice period is
30 days" and "the probation period is 6 months" are simply unrelated. Two keys are a near
miss only when one key's words are all in the other ("limit" / "output limit", an omitted
qualifier) or the keys differ in one word by inflection ("accept siz" / "accept size",
"sublet flat" / "subletting flat").
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations

# shortest shared stem for two words to count as inflections of one another
MIN_STEM = 3
# longest ending by which they may differ ("sublet" / "subletting")
MAX_ENDING = 4


def key_words(claim_key: str) -> tuple[str, ...]:
    return tuple(claim_key.replace("|", " ").split())


def inflections(a: str, b: str) -> bool:
    """Whether two words differ only by an ending ("siz" / "size", "sublet" / "subletting")."""
    if a == b:
        return True
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    return (
        len(short) >= MIN_STEM and long.startswith(short) and len(long) - len(short) <= MAX_ENDING
    )


def near_keys(a: str, b: str) -> bool:
    """Whether two different claim keys are a near miss (see the module docstring)."""
    if a == b:
        return False
    words_a, words_b = key_words(a), key_words(b)
    set_a, set_b = set(words_a), set(words_b)
    if set_a and set_b and (set_a <= set_b or set_b <= set_a):
        return True
    if len(words_a) != len(words_b):
        return False
    differing = [(x, y) for x, y in zip(words_a, words_b, strict=True) if x != y]
    return len(differing) == 1 and inflections(*differing[0])


def near_key_pairs(keys: Iterable[str]) -> set[tuple[str, str]]:
    """Every near-miss pair among ``keys`` (sorted pairs), without testing all pairs.

    Subsets come from an inverted index (keys holding every word of a key); one-word
    inflections from keys that are equal once one position is masked.
    """
    words = {k: key_words(k) for k in set(keys)}
    postings: dict[str, set[str]] = defaultdict(set)
    for key, ws in words.items():
        for w in ws:
            postings[w].add(key)
    pairs: set[tuple[str, str]] = set()
    for key, ws in words.items():
        if not ws:
            continue
        holders = set.intersection(*(postings[w] for w in set(ws)))
        for other in holders:
            if other != key:
                pairs.add((min(key, other), max(key, other)))
    masked: dict[tuple[tuple[str, ...], int], list[str]] = defaultdict(list)
    for key, ws in words.items():
        for i in range(len(ws)):
            masked[(ws[:i] + ("*",) + ws[i + 1 :], len(ws))].append(key)
    for group in masked.values():
        for x, y in combinations(sorted(group), 2):
            if near_keys(x, y):
                pairs.add((x, y))
    return pairs
