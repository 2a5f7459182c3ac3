"""Claims of two versions of one sentence: which pairs a revision changed in place.

When ``claims check`` gets two near-identical texts (``alignment.Alignment.revision``), a
number that changed in an aligned position is the revision asserting a different value for
one slot: "drew more than 275 million plays as of June 8" / "drew more than 280 million plays
as of June 13". The rules here pair the claims whose values sit in the same changed span
(``aligned_pairs``) and judge them as one slot (``judge_revision``), whatever their claim
keys say: the words around the figure are the same words in both texts, so a key that came
out differently ("kill" / "tower population") is the extractor's reading, not the text's.

Pairs whose values did not change (the figure both versions keep) still corroborate; the
top-level verdict of ``claims check`` is the strongest pair, so an unchanged figure never
hides a changed one.

The verdict of an aligned pair:

* values that cannot both hold, at one time and scope: ``conflict``, by the value rule;
* otherwise ``ambiguous``: values in one form that both hold by logic but that the
  revision changed (rule ``revision``: "bound revised: more than 100 people -> more than 50
  people", "about 11.06 million" -> "about 11.50 million": the revised sentence states a
  different figure, and the reviewer decides which version stands; a figure only made more
  precise, "5-10 mg" -> "8 mg", stays an elaboration), or a figure and
  its "as of" date or year both moved (rule ``time``: one slot updated at a later time; the
  mission's time rule never calls two times a conflict, but a sentence revised in place is
  one slot);
* equal values (only the formatting changed): ``corroboration``.

What keeps an aligned pair ``compatible`` is a reason the two versions speak of two slots:
two scopes (Q1 / Q2), two periods that are not snapshots ("in 2019" / "in 2020" each with
its own figure), reported speech on one side.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from claims.edges.alignment import Alignment, Change, tokens
from claims.edges.compare import (
    AGREE,
    COMPATIBLE,
    compare_values,
    medium_words,
    ordered,
    same_key,
    snapshots,
)
from claims.edges.facts import ClaimFacts
from claims.edges.figure_words import Figure, vague_change, vague_time_change, worded_change
from claims.edges.pairing import counted_alike, one_context
from claims.edges.similarity import DIFFERENT, attribute_words, match_attributes
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


def one_slot(x: ClaimFacts, y: ClaimFacts, alignment: Alignment | None = None) -> bool:
    """Whether two aligned claims can be one slot: the same dimension, or a bare number
    against a count of what its words name ("reached 642" / "640 confirmed cases"), and
    never two named entities ("the K2 weighs 450 g" / "the K3 weighs 620 g": the revision
    changed what the sentence is about).

    Two entities whose words both texts hold are one entity read two ways ("Quiet Harbour" /
    "Rotten Tomatoes collected ... Quiet Harbour"): the revision did not change them, the
    extractor's reading of the changed sentence did."""
    named_apart = x.entity and y.entity and x.entity != y.entity
    if named_apart and (alignment is None or not _one_name(x.entity, y.entity, alignment)):
        return False
    return x.kind == y.kind and (x.dimension == y.dimension or bool(counted_alike(x, y)))


def _one_name(a: str, b: str, alignment: Alignment) -> bool:
    """Whether two entities of one revised sentence are one name read two ways: every word
    of both stands in both texts, or (session 9) they share a word and no change of the
    revision replaced a word of one name by a word of the other ("review aggregator site
    CritiCount" / "On review aggregation site CritiCount", "On review aggregation site
    CritiCount gives the show" / "On CritiCount the show has":
    words the revision reworded, added or dropped around one name). "K2" -> "K3" and
    "Lind" -> "Van Der Berg" are changes that rename the subject: two entities."""
    if _kept_words(a, b, alignment):
        return True
    words_a, words_b = set(a.split()), set(b.split())
    if not words_a & words_b:
        return False
    only_a, only_b = words_a - words_b, words_b - words_a
    return not any(_renames(change, only_a, only_b) for change in alignment.changes)


def _renames(change: Change, only_left: set[str], only_right: set[str]) -> bool:
    """Whether ``change`` replaces a word of the left name by another word of the right one
    (not the same word inflected or derived: "aggregator" / "aggregation")."""
    left = [t.text for t in tokens(change.left_text)]
    right = [t.text for t in tokens(change.right_text)]
    hit_left = [w for w in left if any(w.startswith(name) for name in only_left)]
    hit_right = [w for w in right if any(w.startswith(name) for name in only_right)]
    if not hit_left or not hit_right:
        return False
    return not all(_one_stem(u, v) for u in hit_left for v in hit_right)


# shortest common beginning, and least share of the shorter word, for two words of a name
# to be one word derived two ways ("aggregator" / "aggregation")
MIN_NAME_STEM = 5
MIN_STEM_SHARE = 0.7


def _one_stem(u: str, v: str) -> bool:
    common = len(os.path.commonprefix([u, v]))
    return common >= MIN_NAME_STEM and common >= MIN_STEM_SHARE * min(len(u), len(v))


def _kept_words(a: str, b: str, alignment: Alignment) -> bool:
    """Whether every word of two normalised names stands in both texts (a lemma is a
    prefix of the word as written: "tomato" of "Tomatoes")."""
    words = {t.text for t in tokens(alignment.left_text)} & {
        t.text for t in tokens(alignment.right_text)
    }
    wanted = set(a.split()) | set(b.split())
    return bool(wanted) and all(any(w.startswith(name) for w in words) for name in wanted)


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
    if inner.relation is Relation.COMPATIBLE and _values_decided(x, y, inner):
        # "more than 100" -> "more than 50": logic lets both hold, but the sentence now
        # states another figure for the slot, and that is what a reviewer must see
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.REVISION,
            f"{_revised_what(x, y)} revised: {x.shown} -> {y.shown} ({where}); both can hold, "
            f"the reviewer decides which version stands; {inner.reason}",
        )
    if inner.relation is Relation.COMPATIBLE and inner.rule == Rule.SCOPE and _reworded_only(x, y):
        # the figure changed in place and the qualifier words read around it changed too
        # ("a commercial success, grossing over $400 million" / "a box office success,
        # grossing over $415.2 million"): no named scope (Q1 / Q2, two places) keeps two
        # slots apart, so one slot whose wording moved
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.REVISION,
            f"figure revised: {x.shown} -> {y.shown} ({where}), and the words around it "
            f"changed too; {inner.reason}",
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


def _reworded_only(x: ClaimFacts, y: ClaimFacts) -> bool:
    """Whether two claims differ in scope only by qualifier words, not by a named scope
    dimension both state differently (period Q1 / Q2, region Europe / Asia)."""
    theirs = dict(y.scope)
    return all(theirs.get(dim, value) == value for dim, value in x.scope)


def _values_decided(x: ClaimFacts, y: ClaimFacts, inner: PairVerdict) -> bool:
    """A compatible verdict the two values themselves gave, both stated in one form with
    another figure ("more than 100" / "more than 50", "about 11.06 million" / "about 11.50
    million", "5-10 mg" / "6-12 mg"), not a scope, a time or reported speech keeping two
    slots apart.

    A revision that changes the form keeps the elaboration of issue 4: "5-10 mg" made
    precise as "8 mg", "at most 500 tokens" / "300 tokens", "about 6 hours" / "6.5 hours"
    state one value more precisely, and the precise one holds whenever the other does.
    So does a denial the revision dropped: "is not 30 days" -> "is 60 days" says what the
    value is where the first only said what it is not."""
    outcome = compare_values(x, y)
    same_form = x.bound == y.bound and (x.tol > 0) == (y.tol > 0) and x.stance == y.stance
    return same_form and outcome.state == COMPATIBLE and inner.rule == outcome.rule


def _revised_what(x: ClaimFacts, y: ClaimFacts) -> str:
    """What kind of figure a revision changed, for the reason: a bound, a range, a date."""
    kinds = {x.bound, y.bound}
    if x.kind == "date":
        return "date"
    if "range" in kinds:
        return "range"
    if kinds - {"exact"}:
        return "bound"
    return "figure"


def _narrowed(x: ClaimFacts, y: ClaimFacts) -> bool:
    """One claim key holds every word of the other and more ("limit" / "output limit")."""
    a, b = attribute_words(x.claim_key), attribute_words(y.claim_key)
    if a == b or not (a < b or b < a):
        return False
    # "CritiCount gives the series an approval rating" / "the series has an approval
    # rating": the added word only names the kind of work the page is about (the subject
    # itself, read into the key), which narrows nothing
    return not (a ^ b) <= medium_words().keys()


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
    verdict stands). Both "as of" snapshots with one figure ("as of 20 March: 90 cases" /
    "as of 21 March: 90 cases") are ambiguous too: the figure did not move between the two
    readings, or the date was corrected, and either way the revised sentence dates its
    figure differently. ``None`` when compare's verdict stands."""
    if compare_values(x, y).state != AGREE:
        return None
    change = revised.change
    if snapshots(x, y):
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.TIME,
            f"one sentence revised in place ({change.left_text!r} -> {change.right_text!r}): "
            f"the same figure ({x.shown}) read at another date ({x.time_text} vs "
            f"{y.time_text}); unchanged between the readings, or the date was corrected",
        )
    return PairVerdict(
        Relation.AMBIGUOUS,
        Rule.TIME,
        f"one sentence revised in place ({change.left_text!r} -> {change.right_text!r}): "
        f"the same statement ({x.shown}) at another time ({x.time_text} vs {y.time_text}); "
        "the date was corrected, or it holds at both",
    )


def revised_dates(
    left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment
) -> dict[tuple[str, str], Revised]:
    """Date claims of one event whose date a revision changed in place ("by January 2016" /
    "by January 2013"): a changed figure lies in both claims' sentences and the two dates
    differ (``_one_event``). A date's words carry no value span, so the sentence stands
    for it."""
    if not alignment.revision:
        return {}
    found: dict[tuple[str, str], Revised] = {}
    for change in alignment.changes:
        if not change.numeric:
            continue
        mine = [c for c in left if c.kind.value == "date" and _in_sentence(c, "left", change)]
        theirs = [c for c in right if c.kind.value == "date" and _in_sentence(c, "right", change)]
        for x in mine:
            for y in theirs:
                if x.value != y.value and _one_event(x, y, alignment):
                    found.setdefault((x.id, y.id), Revised(change, alignment.reworded))
    return found


def _one_event(x: Claim, y: Claim, alignment: Alignment) -> bool:
    """Whether two date claims of one revised sentence date one event: one claim key, or
    (session 8) attributes in the same or similar band of ``similarity`` whose entities
    are not two names the revision changed ("Nils Brodeur was found unconscious on 13
    November" / "Guerrero was found dead on 14 November": the extractor read the key
    twice, with and without the first name; "born" / "born" under two spellings of a
    name both texts hold)."""
    if x.claim_key == y.claim_key:
        return True
    if match_attributes(x.attribute, y.attribute).band == DIFFERENT:
        return False
    if not x.entity or not y.entity or x.entity == y.entity:
        return True
    words_x, words_y = set(x.entity.split()), set(y.entity.split())
    return words_x < words_y or words_y < words_x or _kept_words(x.entity, y.entity, alignment)


def _in_sentence(claim: Claim, side: str, change: Change) -> bool:
    return change.holds(side, claim.span.start, claim.span.end)


# A figure a revision can change: a number with its separators, an ordinal ("57th"), a
# score or range ("3-1"), a time of day ("8:28"); anything glued to letters ("K2", "Q1",
# "4D") is a name, and names are what the claims' entities and scopes already compare.
_FIGURE = re.compile(
    r"^(?:\d+(?:[.,:]\d+)*(?:st|nd|rd|th|s)?|[^\w\s])$", re.IGNORECASE | re.UNICODE
)
# the surrounding figure as a reader sees it ("3-1", "8:28am", "251-300th")
_AROUND = re.compile(r"[\w.,:/–-]*$")
_AFTER = re.compile(r"^[\w.,:/–-]*")
_SCORE = re.compile(r"^\d+\s*[–-]\s*\d+$")
_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)\b", re.IGNORECASE)
_CLOCK = re.compile(r"\d:\d\d")
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d$")
_DIGITS = re.compile(r"\d+")


def unread_changes(
    left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment
) -> list[Change]:
    """Figures a revision changed in place that no claim of either text reads: no value,
    no stated time and no entity or scope holds them ("won the series 3-1" / "2-1", "in
    the 57th minute" / "58th", "at 8:28 am" / "8:21 am"). The sentence still states
    another figure, so ``claims check`` reports it (``judge_unread``).

    A figure read on one side only counts too (session 8: "scored a touchdown" / "scored
    2 touchdowns", where only the digits make a claim): no pair of claims holds both
    values, so no other rule can show the change. A figure read on both sides is left to
    the pair rules, which may have kept the two apart on purpose ("K2" / "K3")."""
    if not alignment.revision:
        return []
    return [
        change
        for change in alignment.changes
        if change.numeric
        and _figures_only(change)
        and not (
            any(_reads(c, "left", change) for c in left)
            and any(_reads(c, "right", change) for c in right)
        )
    ]


def _figures_only(change: Change) -> bool:
    """Both sides are figures only: digits and marks, or one figure in words with another
    value ("fifth" / "6th", "a touchdown" / "2 touchdowns": ``figure_words``)."""
    texts = (change.left_text, change.right_text)
    if all(_FIGURE.match(t.text) for text in texts for t in tokens(text)):
        return True
    return _worded(change) is not None


def _words(text: str) -> list[str]:
    return [t.text for t in tokens(text)]


def _worded(change: Change) -> tuple[Figure, Figure] | None:
    return worded_change(_words(change.left_text), _words(change.right_text))


def vague_changes(alignment: Alignment) -> list[tuple[Change, str]]:
    """Figures a revision replaced by a vague amount, or vague amounts it replaced by a
    figure ("About 600,000" -> "Many", "multiple" -> "10"), and dates it replaced by a time
    without one ("On March 8" -> "The following day"): (the change, what was replaced,
    for the reason). Only in one sentence revised, where every other word says the two
    versions speak of one thing."""
    if not alignment.revision:
        return []
    found = []
    for change in alignment.changes:
        left, right = _words(change.left_text), _words(change.right_text)
        amount = vague_change(left, right)
        if amount is not None:
            vague, figure, figure_left = amount
            what = (
                f"the figure {figure.shown()} replaced by the vague amount {vague!r}"
                if figure_left
                else f"the vague amount {vague!r} replaced by the figure {figure.shown()}"
            )
            found.append((change, what))
            continue
        when = vague_time_change(left, right)
        if when is not None:
            vague, date_left = when
            what = (
                f"a date replaced by the time {vague!r}"
                if date_left
                else f"the time {vague!r} replaced by a date"
            )
            found.append((change, what))
    return found


def _reads(claim: Claim, side: str, change: Change) -> bool:
    """Whether a claim reads the changed figure: as its value, its stated time, a date
    value in its sentence, or words of its entity or scope."""
    text = (change.left_text if side == "left" else change.right_text).casefold()
    span = claim.value_span
    # a label's span may hold words its value drops ("a 2013 British-Irish thriller film"
    # read as the label "film"): the label reads the figure only if it keeps it
    keeps = claim.kind.value == "quantity" or text in str(claim.value).casefold()
    if span is not None and keeps and change.holds(side, span.start, span.end):
        return True
    if _time_in(claim, side, change):
        return True
    if claim.kind.value == "date" and _in_sentence(claim, side, change):
        # a date value has no span: it reads the change when the changed number is one of
        # its year, month or day ("on 18 October 2019" read as 2019-10-18)
        parts = {int(n) for n in _DIGITS.findall(str(claim.value))}
        if {int(n) for n in _DIGITS.findall(text)} & parts:
            return True
    named = " ".join([claim.entity or "", *(str(v) for v in dict(claim.scope).values())])
    return bool(text) and text in named.casefold().split()


def figure_kind(text: str, start: int, end: int) -> tuple[str, str]:
    """The figure around characters ``start:end`` of ``text`` and what kind it is (a score,
    an ordinal, a time of day, a year, a number), for the reason a reviewer reads."""
    before = _AROUND.search(text[:start])
    after = _AFTER.match(text[end:])
    figure = (before.group() if before else "") + text[start:end] + (after.group() if after else "")
    figure = figure.strip(".,:/–-") or text[start:end]
    if _CLOCK.search(figure):
        return figure, "a time of day"
    if _SCORE.match(figure):
        return figure, "a score or a range"
    if _ORDINAL.search(figure):
        return figure, "an ordinal"
    if _YEAR.match(figure):
        return figure, "a year"
    return figure, "a number"


def judge_unread(
    alignment: Alignment,
    changes: Sequence[Change],
    vague: Sequence[tuple[Change, str]] = (),
) -> PairVerdict:
    """Figures a revision changed that no claim reads, and figures or dates it replaced by
    a vague amount or time (``vague_changes``): ``ambiguous``, naming each change. Not a
    conflict: without a claim nothing says what the figure measures or whether the two
    can both hold ("many" may well be 600,000); but the two versions state different
    figures, and a reviewer sees it."""
    parts = []
    for change in changes:
        worded = _worded(change)
        if worded is not None:
            kind = f"a figure written in words, {worded[0].shown()} -> {worded[1].shown()}"
            parts.append(f"{change.left_text!r} -> {change.right_text!r} ({kind})")
            continue
        old, kind = figure_kind(alignment.left_text, *change.left)
        new, _ = figure_kind(alignment.right_text, *change.right)
        parts.append(f"{old!r} -> {new!r} ({kind})")
    reason = "one sentence revised in place: "
    if parts:
        reason += f"{', '.join(parts)}, a figure no claim reads on both sides"
    for change, what in vague:
        reason += "; " if reason.endswith("sides") else ""
        reason += f"{change.left_text!r} -> {change.right_text!r} ({what})"
    return PairVerdict(
        Relation.AMBIGUOUS,
        Rule.REVISION,
        f"{reason}; the two versions state different figures",
    )
