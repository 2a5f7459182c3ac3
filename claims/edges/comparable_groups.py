"""Which value groups of one block are compared at all: those whose scope words may agree.

Split out of the edge builder (``claims/edges/builder.py``): two groups whose residual
qualifier words each hold a word the other lacks describe different scopes and are never
compared; the rest are found by word subsets, so the cost follows the groups, not their pairs.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

from claims.edges.facts import ClaimFacts

# Qualifier words of one group enumerated as subsets up to this many words; a group with
# more is compared with every other group of its block.
MAX_SUBSET_WORDS = 8


def comparable_pairs(
    groups: list[list[list[ClaimFacts]]],
    large_slot: Sequence[str | None] | None = None,
    family: Sequence[str | None] | None = None,
) -> list[tuple[int, int]]:
    """Pairs of groups (i < j) whose qualifier words may describe one scope.

    Two groups whose residual qualifier words each hold a word the other lacks ("moallu"
    vs "ravany": a subject the extractor left in the qualifiers) are always compatible by
    different scope, so they are not compared and get no edge (``explain_pair`` still says
    why). Only groups whose words are a subset of one another are compared, found by
    enumerating each group's word subsets: a key holding one group per subject costs a
    comparison per group, not one per pair of subjects.

    ``large_slot[i]`` names the large slot group ``i`` belongs to (``block_slots``): the
    groups of one large slot are one unit here, and pairs inside it are never listed
    (``value_groups.slot_disagreements`` decides them), so a slot of 20,000 distinct values
    costs no pair enumeration.
    """
    tagged: dict[object, list[int]] = {}
    for index in range(len(groups)):
        tag = large_slot[index] if large_slot and large_slot[index] is not None else index
        tagged.setdefault(tag, []).append(index)
    units = list(tagged.values())

    def one_family(u: int, v: int) -> bool:
        # two large slots of one family: value_groups.family_disagreements joins them
        i, j = units[u][0], units[v][0]
        return (
            large_slot is not None
            and family is not None
            and large_slot[i] is not None
            and large_slot[j] is not None
            and family[i] is not None
            and family[i] == family[j]
        )

    return sorted(
        (i, j) if i < j else (j, i)
        for u, v in comparable_units(groups, units)
        if not one_family(u, v)
        for i in units[u]
        for j in units[v]
    )


def comparable_units(
    groups: list[list[list[ClaimFacts]]], units: list[list[int]]
) -> set[tuple[int, int]]:
    """Pairs of units (u < v) whose residual qualifier words are a subset of one another."""
    by_words: dict[frozenset[str], list[int]] = defaultdict(list)
    for unit, members in enumerate(units):
        by_words[groups[members[0]][0][0].residual].append(unit)
    if len(by_words) == 1:
        n = len(units)
        return {(u, v) for u in range(n) for v in range(u + 1, n)}
    wide = [words for words in by_words if len(words) > MAX_SUBSET_WORDS]
    pairs: set[tuple[int, int]] = set()
    for words, members in by_words.items():
        if len(words) > MAX_SUBSET_WORDS:
            related = list(by_words)
        else:
            ordered_words = sorted(words)
            related = [
                subset
                for size in range(len(ordered_words) + 1)
                for subset in map(frozenset, combinations(ordered_words, size))
                if subset in by_words
            ]
            related += [w for w in wide if words <= w]
        for other_words in related:
            for u in members:
                for v in by_words[other_words]:
                    if u != v:
                        pairs.add((u, v) if u < v else (v, u))
    return pairs
