"""What one document may add to the store: bounded claims per document, per long line, per key.

A 0.9 MB Markdown export pasted on a single line gave about 30,000 claims, 1.4 million edges,
840 review items and a 2.1 GB store, and erasing it took minutes (issue 31, point 11). The
extractor reads such text like any other; the store takes at most:

- ``MAX_CLAIMS_PER_LONG_LINE`` claims from one line longer than ``LONG_LINE_CHARS``
  characters (a run of text with no line break: an export, a minified page, a log line);
- ``MAX_CLAIMS_PER_KEY`` claims of one claim key from one document;
- ``MAX_CLAIMS_PER_DOCUMENT`` claims from one document.

Claims are kept in text order (the first ones of each line, key and document), so a re-run
keeps the same ones; what was left out is said in a note naming the document, which the
pipeline shows as a warning in ``claims run``'s summary. Legitimate documents stay far
below the bounds: the pipeline benchmark's documents hold about 18 claims each.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

LONG_LINE_CHARS = 10_000
MAX_CLAIMS_PER_LONG_LINE = 1_000
MAX_CLAIMS_PER_KEY = 5_000
MAX_CLAIMS_PER_DOCUMENT = 20_000

Row = TypeVar("Row")


@dataclass
class Bounded:
    """The claims kept and what was left out, by bound."""

    kept: list[object] = field(default_factory=list)
    long_lines: int = 0  # lines over LONG_LINE_CHARS that lost claims
    dropped_in_long_lines: int = 0
    dropped_by_key: Counter[str] = field(default_factory=Counter)
    dropped_over_document: int = 0

    @property
    def dropped(self) -> int:
        return (
            self.dropped_in_long_lines
            + sum(self.dropped_by_key.values())
            + self.dropped_over_document
        )

    def note(self, document: str) -> str | None:
        """One line for the run summary, or None when nothing was left out."""
        if not self.dropped:
            return None
        parts = []
        if self.dropped_in_long_lines:
            parts.append(
                f"{self.dropped_in_long_lines} claims of {self.long_lines} line(s) longer than "
                f"{LONG_LINE_CHARS:,} characters (at most {MAX_CLAIMS_PER_LONG_LINE:,} each)"
            )
        if self.dropped_by_key:
            keys = ", ".join(repr(k) for k, _ in self.dropped_by_key.most_common(3))
            parts.append(
                f"{sum(self.dropped_by_key.values())} claims over {MAX_CLAIMS_PER_KEY:,} of one "
                f"claim key ({keys})"
            )
        if self.dropped_over_document:
            parts.append(
                f"{self.dropped_over_document} claims over {MAX_CLAIMS_PER_DOCUMENT:,} per document"
            )
        return (
            f"{document}: kept {len(self.kept):,} claims, left out "
            + "; ".join(parts)
            + " (break the text into lines or split the file to have all of it read)"
        )


def bound_claims(
    text: str,
    rows: Sequence[Row],
    span_start: Callable[[Row], int],
    claim_key: Callable[[Row], str],
) -> Bounded:
    """The rows (claims of one document, in any order) the store takes from ``text``."""
    ordered = sorted(range(len(rows)), key=lambda i: (span_start(rows[i]), i))
    line_of = _long_lines(text)
    per_line: Counter[int] = Counter()
    per_key: Counter[str] = Counter()
    out = Bounded()
    lines_cut: set[int] = set()
    for index in ordered:
        row = rows[index]
        line = line_of(span_start(row))
        if line is not None and per_line[line] >= MAX_CLAIMS_PER_LONG_LINE:
            out.dropped_in_long_lines += 1
            lines_cut.add(line)
            continue
        key = claim_key(row)
        if per_key[key] >= MAX_CLAIMS_PER_KEY:
            out.dropped_by_key[key] += 1
            continue
        if len(out.kept) >= MAX_CLAIMS_PER_DOCUMENT:
            out.dropped_over_document += 1
            continue
        if line is not None:
            per_line[line] += 1
        per_key[key] += 1
        out.kept.append(row)
    out.long_lines = len(lines_cut)
    return out


def _long_lines(text: str) -> Callable[[int], int | None]:
    """Offset -> the start of the long line holding it (None: an ordinary line)."""
    spans: list[tuple[int, int]] = []
    start = 0
    length = len(text)
    while start <= length:
        end = text.find("\n", start)
        if end < 0:
            end = length
        if end - start > LONG_LINE_CHARS:
            spans.append((start, end))
        start = end + 1
    if not spans:
        return lambda offset: None
    starts = [begin for begin, _ in spans]

    def line(offset: int) -> int | None:
        at = bisect_right(starts, offset) - 1
        if at >= 0 and offset <= spans[at][1]:
            return spans[at][0]
        return None

    return line
