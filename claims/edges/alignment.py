"""Two versions of one sentence, aligned word by word (``claims check`` on a revision).

``claims check A B`` is an explicit pair. When the two texts are near-identical, B is A
revised: the words both share are what the two versions agree on, and the spans that
changed are what the revision asserts differently. ``align`` finds those spans with a
longest-matching-block alignment (``difflib``) over simple tokens (words, numbers,
punctuation; casefolded), so "had 275 million views as of June 8" and "had 280 million views
as of June 13" differ in two small *changes*: 275 -> 280 and 8 -> 13.

The pairing rules read an alignment only when the texts are near-identical
(``Alignment.revision``): the share of tokens that align (difflib's ratio, 2 * matched /
(tokens of both)) is at least ``NEAR_IDENTICAL``. Below that the two texts are two ways of
saying something, and no position in one corresponds to a position in the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from claims.edges.figure_words import worded_change

# Least share of aligned tokens for two texts to count as one sentence revised. Measured on
# VitaminC dev (docs/EDGES.md, session 6): 82% of revision pairs and all of those where only
# numbers changed sit at or above 0.75, against 2.4% of claim/evidence pairs. At 0.6 more
# true conflicts were found, but the alignment paired figures at different places of two
# sentences written apart ("more than $321.5 million worldwide" / "$150.6 million in other
# territories") and false conflicts rose.
NEAR_IDENTICAL = 0.75
# A sentence revised *and extended*: the shorter text stands almost whole, in order, inside
# the longer one ("... has confirmed 197 positive cases in the state, of which 86 were
# confirmed by its lab" / "... has confirmed 201 positive cases in the state."), so its
# positions correspond although the added clause keeps the ratio below NEAR_IDENTICAL
# (session 8). At least this share of the shorter text's tokens must align, and the
# shorter text must be a sentence, not a few words that any longer text may hold.
NEAR_CONTAINED = 0.85
MIN_CONTAINED_TOKENS = 8
# A revision changes a few words at a time; a replaced span this long (tokens, either side)
# is a rewrite, and no position inside it corresponds to one in the other text.
MAX_CHANGE_TOKENS = 8

# words, numbers with their separators ("22,352", "3.5") and names with digits ("K2") as
# one token each; any other symbol on its own
_TOKEN = re.compile(r"\w+(?:[.,]\d+)*|\S", re.UNICODE)
_NUMBER = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class Token:
    text: str  # casefolded
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    return [Token(m.group().casefold(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


@dataclass(frozen=True, slots=True)
class Change:
    """One replaced span: characters ``left`` of the first text became ``right`` of the
    second. ``numeric`` when both sides hold a number (a changed figure, date or count),
    or both are one figure with another value and one is written in words ("fifth" /
    "6th", "five" / "four": ``figure_words.worded_change``)."""

    left: tuple[int, int]
    right: tuple[int, int]
    left_text: str
    right_text: str
    numeric: bool

    def holds(self, side: str, start: int, end: int) -> bool:
        """Whether characters ``start:end`` of ``side`` ('left' / 'right') overlap the
        change on that side."""
        lo, hi = self.left if side == "left" else self.right
        return start < hi and lo < end


Span2 = tuple[int, int]


@dataclass(frozen=True)
class Alignment:
    """The word alignment of two texts: how much aligns, which spans changed, and which
    characters of one text stand where in the other."""

    ratio: float
    changes: tuple[Change, ...] = field(default=())
    # (left span, right span) of every aligned token pair and of every change
    places: tuple[tuple[Span2, Span2], ...] = field(default=())
    # the revision also added, dropped or changed words, not only numbers
    reworded: bool = False
    # the two texts, so a reason can quote a change in its surroundings ("3-1" -> "2-1")
    left_text: str = ""
    right_text: str = ""
    # share of the shorter text's tokens that align, and its length in tokens
    containment: float = 0.0
    shorter: int = 0

    @property
    def revision(self) -> bool:
        """Near-identical, or the shorter text near-whole inside the longer: one sentence
        (or passage) and a revision of it, possibly extended by words added around it."""
        return self.ratio >= NEAR_IDENTICAL or (
            self.containment >= NEAR_CONTAINED and self.shorter >= MIN_CONTAINED_TOKENS
        )

    def place(self, side: str, start: int, end: int) -> Span2 | None:
        """Where characters ``start:end`` of ``side`` stand in the other text: the span
        covering the tokens or changes they align with, or ``None`` (words the revision
        added or dropped, or a rewrite)."""
        mine, theirs = (0, 1) if side == "left" else (1, 0)
        hits = [p[theirs] for p in self.places if p[mine][0] < end and start < p[mine][1]]
        if not hits:
            return None
        return min(lo for lo, _ in hits), max(hi for _, hi in hits)


NO_ALIGNMENT = Alignment(0.0)


def align(left: str, right: str) -> Alignment:
    """Align two texts token by token; ``NO_ALIGNMENT`` when either is empty."""
    a, b = tokens(left), tokens(right)
    if not a or not b:
        return NO_ALIGNMENT
    matcher = SequenceMatcher(None, [t.text for t in a], [t.text for t in b], autojunk=False)
    opcodes = matcher.get_opcodes()
    moved = _moved_figures(opcodes, a, b)
    changes = []
    reworded = False
    places: list[tuple[Span2, Span2]] = []
    for op, i1, i2, j1, j2 in opcodes:
        if op == "equal":
            aligned = zip(a[i1:i2], b[j1:j2], strict=True)
            places += [((x.start, x.end), (y.start, y.end)) for x, y in aligned]
            continue
        reworded = reworded or any(_LETTER.search(t.text) for t in [*a[i1:i2], *b[j1:j2]])
        if op != "replace" or max(i2 - i1, j2 - j1) > MAX_CHANGE_TOKENS:
            continue  # words added or dropped, or a rewrite: no position corresponds
        changes.append(_change(left, right, a[i1:i2], b[j1:j2]))
    changes += [_change(left, right, a[i1:i2], b[j1:j2]) for i1, i2, j1, j2 in moved]
    changes.sort(key=lambda c: c.left)
    places += [(c.left, c.right) for c in changes]
    shorter = min(len(a), len(b))
    matched = sum(block.size for block in matcher.get_matching_blocks())
    return Alignment(
        matcher.ratio(),
        tuple(changes),
        tuple(places),
        reworded,
        left,
        right,
        matched / shorter,
        shorter,
    )


# Most tokens a figure may hop over when a revision rewrites its date format ("by March 27"
# / "by 26 March": the month stays, the day moves to its other side and changes).
MAX_HOP_TOKENS = 2


def _moved_figures(
    opcodes: Sequence[tuple[str, int, int, int, int]], a: list[Token], b: list[Token]
) -> list[tuple[int, int, int, int]]:
    """Token ranges (i1, i2, j1, j2) of a figure dropped on one side of a few kept words and
    added on their other side ("March 27" / "26 March", "13 November" / "November 14,"):
    one figure the revision changed and moved, which difflib reports as a deletion and an
    insertion around the kept words."""
    found = []
    for first, kept, last in zip(opcodes, opcodes[1:], opcodes[2:], strict=False):
        if kept[0] != "equal" or kept[2] - kept[1] > MAX_HOP_TOKENS:
            continue
        ops = {first[0], last[0]}
        if ops != {"delete", "insert"}:
            continue
        dropped, added = (first, last) if first[0] == "delete" else (last, first)
        i1, i2, j1, j2 = dropped[1], dropped[2], added[3], added[4]
        if max(i2 - i1, j2 - j1) > MAX_CHANGE_TOKENS:
            continue
        same = [t.text for t in a[i1:i2]] == [t.text for t in b[j1:j2]]
        if not same and _holds_number(a[i1:i2]) and _holds_number(b[j1:j2]):
            # one date written two ways ("April 13" / "13 April") moved no figure
            found.append((i1, i2, j1, j2))
    return found


def _holds_number(toks: list[Token]) -> bool:
    return any(_NUMBER.search(t.text) for t in toks)


def _change(left: str, right: str, mine: list[Token], theirs: list[Token]) -> Change:
    ls, le = mine[0].start, mine[-1].end
    rs, re_ = theirs[0].start, theirs[-1].end
    lt, rt = left[ls:le], right[rs:re_]
    numeric = bool(_NUMBER.search(lt) and _NUMBER.search(rt)) or (
        worded_change([t.text for t in mine], [t.text for t in theirs]) is not None
    )
    return Change((ls, le), (rs, re_), lt, rt, numeric)
