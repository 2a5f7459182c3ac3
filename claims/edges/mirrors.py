"""Statements both sources make: a disagreement each source already holds inside itself.

A report and its restatement, two editions of a policy, a forwarded memo: near-copies share
most of their sentences word for word. When two claims of one key disagree inside the first
copy (two figures of one sentence, two rows of one table, two paragraphs that share a key),
the same two claims sit in the second copy too, and pairing the first copy's one with the
second copy's other says nothing new: the second copy states the first claim as well, so it
agrees with it. Such a pair is ``compatible`` (rule ``mirrored``); the disagreement stays
where it is, inside each source, on the edges of its own claims.

"States as well" is strict about the facts and not about the sentence: a claim of the other
source with the same comparable facts (``ClaimFacts.signature``: key, value, unit, scope,
time, qualifier words, predicate...), wherever it stands (a table row with another of its
cells changed, a paragraph a PDF cut into other sentences). A changed figure is never
mirrored: the other copy does not state it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from claims.edges.facts import ClaimFacts
from claims.edges.verdict import PairVerdict, Rule
from claims.models import Relation


class StatedIndex:
    """Which source versions state a claim's facts."""

    def __init__(self, members: Iterable[ClaimFacts]) -> None:
        self._versions: dict[Any, set[str]] = defaultdict(set)
        for facts in members:
            if facts.version_id:
                self._versions[facts.signature].add(facts.version_id)

    def states(self, version_id: str, facts: ClaimFacts) -> bool:
        """Whether ``version_id`` states ``facts`` (the same comparable facts)."""
        found = self._versions.get(facts.signature)
        return found is not None and version_id in found


def mirrored(
    x: ClaimFacts, y: ClaimFacts, verdict: PairVerdict, stated: StatedIndex | None
) -> PairVerdict:
    """A disagreement of two sources turned compatible when either also states the other's
    claim (the disagreement is inside each of them, not between them)."""
    if (
        stated is None
        or verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS)
        or not x.version_id
        or not y.version_id
        or x.version_id == y.version_id
    ):
        return verdict
    for holder, other in ((x, y), (y, x)):
        if stated.states(holder.version_id, other):
            return PairVerdict(
                Relation.COMPATIBLE,
                Rule.MIRRORED,
                f"{holder.source_id or 'one source'} also states {other.shown} as "
                f"{other.source_id or 'the other'} does: the two values are a disagreement "
                f"inside each source, not between them ({verdict.reason})",
            )
    return verdict
