"""Claims of two versions of one sentence: which pairs a revision changed in place.

When ``claims check`` gets two near-identical texts (``alignment.Alignment.revision``), a
number that changed in an aligned position is the revision asserting a different value for
one slot: "has more than 275 million views as of June 8" / "has more than 280 million views
as of June 13". The rules here pair the claims whose values sit in the same changed span
(``aligned_pairs``) and judge them as one slot (``judge_revision``), whatever their claim
keys say: the words around the figure are the same words in both texts, so a key that came
out differently ("kill" / "tower population") is the extractor's reading, not the text's.

Pairs whose values did not change (the figure both versions keep) still corroborate; the
top-level verdict of ``claims check`` is the strongest pair, so an unchanged figure never
hides a changed one.

The verdict of an aligned pair:

* values that cannot both hold, at one time and scope: ``conflict``, by the value rule;
* otherwise ``ambiguous`` (rule ``revision``): values that could both hold under the looser
  reading ("more than 50" / "more than 100", "about 11.06 million" / "about 11.50 million"),
  or a figure and its "as of" date or year both moved (one slot updated at a later time; the
  mission's time rule never calls two times a conflict, but a sentence revised in place is
  one slot, and a reviewer decides which version holds);
* equal values (only the formatting changed): ``corroboration``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from claims.edges.alignment import Alignment, Change
from claims.edges.compare import AGREE, compare_values, ordered, same_key, snapshots
from claims.edges.facts import ClaimFacts
from claims.edges.pairing import counted_alike, one_context
from claims.edges.similarity import attribute_words
from claims.edges.verdict import PairVerdict, Rule
from claims.models import Claim, Relation

# value kinds whose value spans the extractor records (labels and actions are words)
_SPANNED_KINDS = ("quantity",)


@dataclass(frozen=True, slots=True)
class Revised:
    """Where a revision changed a pair's values, and whether it changed words too."""

    change: Change
    reworded: bool


def aligned_pairs(
    left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment
) -> dict[tuple[str, str], Revised]:
    """Claim pairs (left id, right id) whose values sit in one changed span of a revision.

    Within one changed span, claims of the same dimension are paired in the order they
    appear (several figures can change in one span: "75 of the last 93" -> "76 of 94").
    """
    if not alignment.revision:
        return {}
    found: dict[tuple[str, str], Revised] = {}
    for change in alignment.changes:
        if not change.numeric:
            continue
        mine = _valued_in(left, "left", change)
        theirs = _valued_in(right, "right", change)
        for unit, xs in mine.items():
            for x, y in zip(xs, theirs.get(unit, []), strict=False):
                found[(x.id, y.id)] = Revised(change, alignment.reworded)
    return found


def _valued_in(claims: Sequence[Claim], side: str, change: Change) -> dict[str, list[Claim]]:
    """The claims whose value span overlaps ``change`` on ``side``, by dimension, in order."""
    out: dict[str, list[Claim]] = defaultdict(list)
    for claim in sorted(claims, key=lambda c: c.value_span.start if c.value_span else -1):
        span = claim.value_span
        if claim.kind.value in _SPANNED_KINDS and span and change.holds(side, span.start, span.end):
            out[claim.dimension or ""].append(claim)
    return out


def apart(left: Claim, right: Claim, alignment: Alignment) -> bool:
    """Whether two claims' values stand at different places of one revised sentence
    ("$12.4 million in Europe" / "a total of $18.6 million"): each value aligns with
    something in the other text, and neither with the other's value."""
    if not alignment.revision or left.value_span is None or right.value_span is None:
        return False
    here, there = left.value_span, right.value_span
    mapped_left = alignment.place("left", here.start, here.end)
    mapped_right = alignment.place("right", there.start, there.end)
    if mapped_left is None or mapped_right is None:
        return False
    return not _overlap(mapped_left, (there.start, there.end)) and not _overlap(
        mapped_right, (here.start, here.end)
    )


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def judge_apart(x: ClaimFacts, y: ClaimFacts, verdict: PairVerdict) -> PairVerdict:
    """A disagreement between two figures at different places of one revised sentence is
    no disagreement: the revision kept each place's own figure apart."""
    return PairVerdict(
        Relation.COMPATIBLE,
        Rule.REVISION,
        f"one sentence revised: {x.shown} and {y.shown} stand at different places of it "
        f"(not one slot); {verdict.reason}",
    )


def one_slot(x: ClaimFacts, y: ClaimFacts) -> bool:
    """Whether two aligned claims can be one slot: the same dimension, or a bare number
    against a count of what its words name ("reached 642" / "640 confirmed cases"), and
    never two named entities ("the K2 weighs 450 g" / "the K3 weighs 620 g": the revision
    changed what the sentence is about)."""
    if x.entity and y.entity and x.entity != y.entity:
        return False
    return x.kind == y.kind and (x.dimension == y.dimension or bool(counted_alike(x, y)))


def judge_revision(x: ClaimFacts, y: ClaimFacts, revised: Revised) -> PairVerdict:
    """Two claims whose values one revision changed in place, judged as one slot."""
    change = revised.change
    if snapshots(x, y) and _moved(x, y) and compare_values(x, y).state != AGREE:
        # "as of 4 May: 12,000" / "as of 9 May: 12,400": the running figure and the date
        # of its reading moved together, whether or not the dates resolve to days
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.TIME,
            f"one sentence revised in place ({change.left_text!r} -> {change.right_text!r}): "
            f"one figure read at two dates ({x.time_text} vs {y.time_text}), "
            f"{x.shown} vs {y.shown}; the later snapshot may update the earlier",
        )
    # one key, but everything else as both texts state it: a condition the revision added
    # on one side ("in the first year") stays a one-sided scope
    inner = same_key(*ordered(*one_context(x, y)))
    where = f"one sentence revised in place ({change.left_text!r} -> {change.right_text!r})"
    if inner.relation is Relation.COMPATIBLE and _both_can_hold(x, y, inner):
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.REVISION,
            f"{where}: the two versions state different figures for one slot "
            f"({x.shown} vs {y.shown}); {inner.reason}",
        )
    if inner.relation is Relation.CONFLICT and revised.reworded and _narrowed(x, y):
        # the words changed too, and one key adds words to the other ("the limit" / "the
        # output limit"): the added words may narrow the attribute, so one slot at most
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.KEY,
            f"{where}, and words changed around it ({x.claim_key!r} vs {y.claim_key!r}); "
            f"{inner.reason}",
        )
    return PairVerdict(inner.relation, inner.rule, f"{where}; {inner.reason}")


def _narrowed(x: ClaimFacts, y: ClaimFacts) -> bool:
    """One claim key holds every word of the other and more ("limit" / "output limit")."""
    a, b = attribute_words(x.claim_key), attribute_words(y.claim_key)
    return a != b and (a < b or b < a)


def _moved(x: ClaimFacts, y: ClaimFacts) -> bool:
    """Whether two stated times differ: disjoint days when both resolve ("as of 9th March
    2020" and "as of 9 March 2020" are one day), else different words ("as of 4 May")."""
    if x.time_known and y.time_known:
        return x.t_end < y.t_start or y.t_end < x.t_start
    return x.time_text.casefold() != y.time_text.casefold()


def _both_can_hold(x: ClaimFacts, y: ClaimFacts, inner: PairVerdict) -> bool:
    """A compatible verdict that is still one slot with two figures: an "as of" snapshot
    whose date moved with its figure (the running figure updated). Two scopes (Q1 / Q2),
    two entities and two periods that are not snapshots ("in 2019" / "in 2020") stay
    compatible (by the mission's time rule different times and scopes are two slots), and
    so do values that both hold ("5-10 mg" / "8 mg", "more than 50" / "more than 100",
    "about 6 hours" / "6.5 hours"): a revision may narrow or round a figure."""
    return inner.rule == Rule.TIME and snapshots(x, y)


def moved_times(
    left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment
) -> dict[tuple[str, str], Revised]:
    """Claim pairs of one claim key whose stated time one revision changed in place
    ("died on 10 July 2015" / "died on 11 July 2015"): the time words of both sit in one
    changed span."""
    if not alignment.revision:
        return {}
    found: dict[tuple[str, str], Revised] = {}
    for change in alignment.changes:
        if not change.numeric:
            continue
        mine = [c for c in left if _time_in(c, "left", change)]
        theirs = [c for c in right if _time_in(c, "right", change)]
        for x in mine:
            for y in theirs:
                if x.claim_key == y.claim_key:
                    found[(x.id, y.id)] = Revised(change, alignment.reworded)
    return found


def _time_in(claim: Claim, side: str, change: Change) -> bool:
    """Whether a part of the claim's stated time ("On 10 July 2015") lies in ``change``."""
    if not claim.time.text:
        return False
    for part in claim.time.text.split(";"):
        at = claim.quote.find(part.strip())
        if part.strip() and at >= 0:
            start = claim.span.start + at
            if change.holds(side, start, start + len(part.strip())):
                return True
    return False


def judge_moved_time(x: ClaimFacts, y: ClaimFacts, revised: Revised) -> PairVerdict | None:
    """The same statement whose time one revision moved: ``ambiguous`` (the date was
    corrected, or the statement holds at both times), unless the values differ too (a new
    period with its own figure: "in 2019, 120,000 visitors" / "in 2020, 40,000", compare's
    verdict stands) or both are "as of" snapshots (a running figure that stayed the same
    between two readings: compatible). ``None`` when compare's verdict stands."""
    if snapshots(x, y) or compare_values(x, y).state != AGREE:
        return None
    change = revised.change
    return PairVerdict(
        Relation.AMBIGUOUS,
        Rule.TIME,
        f"one sentence revised in place ({change.left_text!r} -> {change.right_text!r}): "
        f"the same statement ({x.shown}) at another time ({x.time_text} vs {y.time_text}); "
        "the date was corrected, or it holds at both",
    )
