"""Tables on a PDF page: ruled ones from the page's drawn lines and cell rectangles, and
tables drawn without rules from lines whose parts stand in the same columns.

A table is a cluster of touching horizontal and vertical rules (a thin path, or the edges of
a cell's rectangle) with at least two rows and two columns. Its grid is the distinct rule
positions; a cell's text is the page text inside it. Where a row has no vertical rule at a
column edge the cells on both sides are one merged cell, whose text is repeated in each
column it spans.

A table without vertical rules (only horizontal ones, or none: most financial statements)
is found from its text instead (``text_tables``): at least three consecutive lines, each
split by wide gaps into two or more parts, whose parts fall into the same columns (the
columns are the union of the parts' spans); a line of one part in the first column between
such rows is a group row (``Current liabilities``). Anything less regular stays text lines.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_THIN = 2.5  # points: thinner than this, a path is a rule
_NEAR = 2.0  # points: rule positions this close are one grid line
_MAX_SEGMENTS = 800  # a page with more drawn parts is a drawing, not a table
_MAX_GRID = 60  # rows or columns: more distinct rule positions is a chart, not a table


@dataclass(frozen=True)
class _Rule:
    horizontal: bool
    at: float  # y of a horizontal rule, x of a vertical one
    start: float  # x0 / y0
    end: float  # x1 / y1


@dataclass(frozen=True)
class RuledTable:
    left: float
    bottom: float
    right: float
    top: float
    rows: list[list[str]]

    def holds(self, x: float, y: float) -> bool:
        return self.left - 1 <= x <= self.right + 1 and self.bottom - 1 <= y <= self.top + 1


def find_tables(page: Any, textpage: Any, path_type: int) -> list[RuledTable]:
    """The ruled tables of ``page`` (a pypdfium2 page), top to bottom."""
    rules = _rules(page, path_type)
    if not rules or len(rules) > _MAX_SEGMENTS:
        return []
    chars = _page_chars(textpage)
    tables = [_table(group, textpage, chars) for group in _clusters(rules)]
    found = [t for t in tables if t is not None and (len(t.rows) > 1 or _opens(t, chars))]
    return sorted(found, key=lambda t: -t.top)


def _opens(table: RuledTable, chars: list[_Char] | None) -> bool:
    """Whether a one-row grid opens its page (no text above it): the last row of a table
    that the page before could not hold. A one-row grid elsewhere is no table."""
    return chars is not None and not any(
        c.bottom > table.top for c in chars if not c.text.isspace()
    )


def _rules(page: Any, path_type: int) -> list[_Rule]:
    width, height = page.get_size()
    rules: list[_Rule] = []
    for obj in page.get_objects(max_depth=1):
        if obj.type != path_type:
            continue
        left, bottom, right, top = obj.get_bounds()
        w, h = right - left, top - bottom
        if h <= _THIN and w > _THIN * 2:
            rules.append(_Rule(True, (bottom + top) / 2, left, right))
        elif w <= _THIN and h > _THIN * 2:
            rules.append(_Rule(False, (left + right) / 2, bottom, top))
        elif w > _THIN and h > _THIN and w * h < 0.5 * width * height:
            rules += [
                _Rule(True, bottom, left, right),
                _Rule(True, top, left, right),
                _Rule(False, left, bottom, top),
                _Rule(False, right, bottom, top),
            ]
        if len(rules) > _MAX_SEGMENTS:
            break
    return rules


def _touch(a: _Rule, b: _Rule) -> bool:
    if a.horizontal == b.horizontal:
        return abs(a.at - b.at) <= _NEAR and a.start <= b.end + _NEAR and b.start <= a.end + _NEAR
    h, v = (a, b) if a.horizontal else (b, a)
    return h.start - _NEAR <= v.at <= h.end + _NEAR and v.start - _NEAR <= h.at <= v.end + _NEAR


def _clusters(rules: list[_Rule]) -> list[list[_Rule]]:
    parent = list(range(len(rules)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(rules)):
        for j in range(i + 1, len(rules)):
            if _touch(rules[i], rules[j]):
                parent[root(i)] = root(j)
    groups: dict[int, list[_Rule]] = {}
    for i, rule in enumerate(rules):
        groups.setdefault(root(i), []).append(rule)
    return list(groups.values())


def _positions(values: list[float]) -> list[float]:
    merged: list[float] = []
    for value in sorted(values):
        if merged and value - merged[-1] <= _NEAR:
            continue
        merged.append(value)
    return merged


def _table(rules: list[_Rule], textpage: Any, chars: list[_Char] | None) -> RuledTable | None:
    xs = _positions([r.at for r in rules if not r.horizontal])
    ys = _positions([r.at for r in rules if r.horizontal])[::-1]  # top first
    if not 3 <= len(xs) <= _MAX_GRID or not 2 <= len(ys) <= _MAX_GRID:
        return None
    verticals = [r for r in rules if not r.horizontal]
    rows: list[list[str]] = []
    for top, bottom in zip(ys, ys[1:], strict=False):
        middle = (top + bottom) / 2
        band = None if chars is None else [c for c in chars if bottom < c.top and c.bottom < top]
        edges = [xs[0]]
        for x in xs[1:-1]:
            if any(abs(v.at - x) <= _NEAR and v.start <= middle <= v.end for v in verticals):
                edges.append(x)
        edges.append(xs[-1])
        row: list[str] = []
        for left, right in zip(edges, edges[1:], strict=False):
            text = _cell_text(textpage, band, (left, bottom, right, top))
            row += [text] * sum(1 for x in xs[:-1] if left - _NEAR <= x < right - _NEAR)
        rows.append(row)
    if not any(cell for row in rows for cell in row) or not _ruled(xs, ys, verticals):
        return None
    return RuledTable(xs[0], ys[-1], xs[-1], ys[0], rows)


def _ruled(xs: list[float], ys: list[float], verticals: list[_Rule]) -> bool:
    """Whether the column edges are rules through most rows (a grid), not the ragged right
    ends of stacked boxes behind lines of text (a highlight, a shaded paragraph)."""
    middles = [(top + bottom) / 2 for top, bottom in zip(ys, ys[1:], strict=False)]
    inner = xs[1:-1]
    crossed = sum(
        1
        for x in inner
        for middle in middles
        if any(abs(v.at - x) <= _NEAR and v.start <= middle <= v.end for v in verticals)
    )
    return crossed >= 0.6 * len(inner) * len(middles)


@dataclass
class _Char:
    text: str
    left: float
    bottom: float
    right: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left


def _page_chars(textpage: Any) -> list[_Char] | None:
    """The page's characters with their boxes, in PDFium's order (None when its text and
    its character count disagree)."""
    count = textpage.count_chars()
    text = str(textpage.get_text_range(0, count)) if count > 0 else ""
    if len(text) != count:
        return None
    return [_Char(ch, *textpage.get_charbox(i)) for i, ch in enumerate(text)]


_HYPHEN_AT_END = ("\ufffe", "\x02")  # PDFium's marks for a hyphen ending a line


def _cell_text(textpage: Any, chars: list[_Char] | None, box: tuple[float, ...]) -> str:
    """A ruled cell's text, its lines joined with a space; but a word too long for the cell,
    broken onto the next line where no space stood (``Outstandin`` / ``g``: a line of one
    word that left no room for the next line's first letter), is one word, and a hyphen
    ending a line stays (``Weighted-`` / ``Average``)."""
    left, bottom, right, top = box
    bounded = " ".join(
        str(textpage.get_text_bounded(left + 0.5, bottom + 0.5, right - 0.5, top - 0.5)).split()
    )
    if chars is None:
        return bounded
    lines, spaced, ends = _cell_lines(chars, box)
    if len(lines) < 2:
        return bounded
    text = _line_text(lines[0], spaced)
    padding = min(line[0].left for line in lines) - left  # the cell's inner margin
    for k, (before, line) in enumerate(zip(lines, lines[1:], strict=False)):
        joined, word = text, _line_text(line, spaced)
        # what the line left free, by the advance of its last character (where side
        # bearings count), against the advance its next line's first character needs. A
        # word that fills its line by chance before a wrap at a space is joined too
        # ("Opening" / "balance of ..."): far fewer than the words broken inside
        room = right - padding - ends.get(k, before[-1].right)
        need = _advance(line)
        if joined.endswith(_HYPHEN_AT_END):
            text = joined[:-1] + "-" + word
        elif (
            not any(id(ch) in spaced for ch in before)
            and room < need  # not even its next character fitted
            and _word_rest(word, joined)
        ):
            text = joined + word
        else:
            text = joined + " " + word
    flat, read = "".join(text.split()), "".join(bounded.split())
    for mark in ("-", *_HYPHEN_AT_END):
        flat, read = flat.replace(mark, ""), read.replace(mark, "")
    if flat != read:
        return bounded  # the characters read otherwise than PDFium's text: keep its
    return " ".join(text.split())


def _cell_lines(
    chars: list[_Char], box: tuple[float, ...]
) -> tuple[list[list[_Char]], set[int], dict[int, float]]:
    """The characters inside ``box`` by line; the ids of those a space stands before; and
    where each line's last character ends by its advance (the space or line end PDFium
    reads after it stands there), not by its ink, which a glyph's side bearing narrows."""
    left, bottom, right, top = box
    lines: list[list[_Char]] = []
    spaced: set[int] = set()
    ends: dict[int, float] = {}
    space = False
    previous: _Char | None = None  # the character before in PDFium's order
    for ch in chars:
        if ch.text.isspace():
            last = lines[-1][-1] if lines else None
            if last is not None and previous is last and 0 <= ch.left - last.right < last.width:
                ends[len(lines) - 1] = ch.left
            space, previous = bool(lines), ch
            continue
        previous = ch
        x, y = (ch.left + ch.right) / 2, (ch.bottom + ch.top) / 2
        if not (left < x < right and bottom < y < top):
            continue
        if not lines or ch.top < min(c.bottom for c in lines[-1]):  # wholly below: next line
            lines.append([])
        elif space:
            spaced.add(id(ch))
        lines[-1].append(ch)
        space = False
    return lines, spaced, ends


def _advance(line: list[_Char]) -> float:
    """The width a line's first character takes, up to the next character's start (its ink
    and side bearings), or its ink and a half point when it stands alone."""
    first = line[0]
    if len(line) > 1 and first.left < line[1].left < first.right + first.width:
        return line[1].left - first.left
    return first.width + 0.5


# short words a cell's line may open with after a wrap at a space ("Depreciation" / "and
# amortization"): never the rest of a broken word
_SHORT_WORDS = frozenset(
    ("a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "per", "the")
    + ("to", "net", "tax")
)


def _word_rest(word: str, before: str) -> bool:
    """Whether a cell line opening with ``word`` can go on with the word the line before
    broke: up to six lowercase letters (``g``, ``zed``, ``verage``) that are no short word of
    their own, or ``on`` after ``ti``/``si`` (``Installati`` / ``on``: the ``-tion`` and
    ``-sion`` words that a narrow column breaks before their last two letters); digits after
    a figure's digits, its decimal point or comma, or its sign (``$2,381.`` / ``7``); a
    closing bracket or a percent sign after a figure (``(1,204`` / ``)``)."""
    first = word.split(" ", 1)[0]
    if first[:1].isdigit():
        return bool(_FIGURE_OPEN.search(before))
    if first[:1] in ")%":
        return before[-1:].isdigit() or before[-1:] == "."
    if first[:1] in ",." and first[1:2].isdigit():  # "4,300" / ",512"
        return before[-1:].isdigit()
    letters = re.split(r"[-,.;:)'\u2019]", first, maxsplit=1)[0]
    if letters == "on" and before.endswith(("ti", "si")) and before[-3:-2].isalpha():
        return True
    return (
        letters.isalpha()
        and letters.islower()
        and len(letters) <= 6
        and (letters not in _SHORT_WORDS)
    )


# a figure a cell's line ends inside: digits, or a decimal point or comma after a digit, or
# a sign or bracket opening it
_FIGURE_OPEN = re.compile(r"(?:\d[.,]?|[$€£(\-\u2212])$")


def _line_text(line: list[_Char], spaced: set[int]) -> str:
    """A cell line's characters, with the spaces PDFium reads between them."""
    return "".join((" " if id(ch) in spaced else "") + ch.text for ch in line)


_MIN_ROWS = 3  # lines of two or more parts a table drawn without rules needs
_ROW_GAP = 2.5  # line heights: rows of one table stand closer than this
_MAX_CELL_WORDS = 6  # words per cell on average: more is prose in columns, not a table


def text_tables(items: Sequence[Any], line_type: Any) -> list[Any]:
    """``items`` (a page's lines and ruled tables in reading order) with each run of lines
    that forms a table drawn without rules replaced by one ``RuledTable``. A line has
    ``cells`` ([left, right, text] parts), ``top``, ``bottom`` and ``height``."""
    folds: dict[int, list[Any]] = {}  # a folded row -> the lines it was made of
    items = _fold_wrapped_labels(items, line_type, folds)
    out: list[Any] = []
    i = 0
    while i < len(items):
        end = _table_run(items, i, line_type)
        table = _aligned_table(items[i:end]) if end - i >= _MIN_ROWS else None
        if table is None:
            out += folds.get(id(items[i]), [items[i]])  # no table: the lines as drawn
            i += 1
            continue
        out.append(table)
        i = end
    return out


_MAX_LABEL_LINES = 4  # lines a row header wraps over
_MAX_LABEL_WORDS = 12  # words on one of them


def _fold_wrapped_labels(
    items: Sequence[Any], line_type: Any, folds: dict[int, list[Any]]
) -> list[Any]:
    """Rows whose first cell wraps over lines, each read as one line of parts:

    - the label's lines first, then the other cells, set once within the label's lines
      (cells centred on the row, fpdf2's default, or drawn after the label):
      ``Operating cash`` / ``flow`` / ``1,204  (310)``;
    - the other cells on the label's first line, the label going on below in lower case
      (cells set at the row's top, Word's default): ``Operating cash  1,204  (310)`` /
      ``flow``;
    - the other cells on the label's last line, which goes on in lower case (cells set at
      the row's bottom): ``Operating cash`` / ``flow  1,204  (310)``.
    """
    out: list[Any] = []
    i = 0
    while i < len(items):
        folded, used = _centred_row(items, i, line_type)
        if folded is None:
            folded, used = _label_going_on(items, i, line_type)
        if folded is None:
            folded, used = _label_ending_on_the_row(items, i, line_type)
        if folded is None:
            out.append(items[i])
            i += 1
            continue
        out.append(folded)
        folds[id(folded)] = list(items[i : i + used])
        i += used
    return out


def _one_part(item: Any, line_type: Any) -> bool:
    return isinstance(item, line_type) and len(item.cells) == 1


_CELL_LINE_PITCH = 2.5  # font sizes: lines of one cell stand closer (fpdf2 sets 2)


def _next_line(above: Any, line: Any) -> bool:
    """Whether ``line`` is the line under ``above`` in one table cell."""
    size = max(line.height, getattr(line, "size", 0.0))
    return 0 < above.top - line.top <= _CELL_LINE_PITCH * size


def _centred_row(items: Sequence[Any], i: int, line_type: Any) -> tuple[Any, int]:
    labels = [items[i]] if _one_part(items[i], line_type) else []
    if labels and len(labels[0].text.split()) > _MAX_LABEL_WORDS:
        return None, 0
    while labels and len(labels) < _MAX_LABEL_LINES and i + len(labels) < len(items):
        line = items[i + len(labels)]
        if not _one_part(line, line_type) or abs(line.left - labels[0].left) > line.height:
            break
        if len(line.text.split()) > _MAX_LABEL_WORDS:
            break
        if not _next_line(labels[-1], line):
            break
        labels.append(line)
    if len(labels) < 2 or i + len(labels) >= len(items):
        return None, 0
    row = items[i + len(labels)]
    middle = (row.top + row.bottom) / 2
    if (
        not isinstance(row, line_type)
        or row.left <= max(label.right for label in labels)
        or not labels[-1].bottom <= middle <= labels[0].top
        or any(len(cell[2].split()) > _MAX_CELL_WORDS for cell in row.cells)
    ):
        return None, 0
    first = copy.copy(labels[0])
    text = " ".join(label.text for label in labels)
    first.cells = [[first.left, max(label.right for label in labels), text]]
    first.cells += [list(cell) for cell in row.cells]
    first.text = f"{text} {row.text}"
    first.right = row.right
    first.bottom = min(labels[-1].bottom, row.bottom)
    return first, len(labels) + 1


def _label_going_on(items: Sequence[Any], i: int, line_type: Any) -> tuple[Any, int]:
    row = items[i]
    if not isinstance(row, line_type) or len(row.cells) < 2 or i + 1 >= len(items):
        return None, 0
    used = 1
    label = row.cells[0]
    while i + used < len(items) and used <= _MAX_LABEL_LINES:
        line = items[i + used]
        if (
            not _one_part(line, line_type)
            or not line.text[:1].islower()
            or abs(line.left - label[0]) > line.height
            or line.right >= row.cells[1][0]
            or not _next_line(items[i + used - 1], line)
        ):
            break
        used += 1
    if used == 1:
        return None, 0
    first = copy.copy(row)
    first.cells = [list(cell) for cell in row.cells]
    going_on = [items[i + k].text for k in range(1, used)]
    first.cells[0][2] = " ".join([label[2], *going_on])
    first.cells[0][1] = max([label[1], *(items[i + k].right for k in range(1, used))])
    first.text = " ".join([row.text, *going_on])
    first.bottom = items[i + used - 1].bottom
    return first, used


def _label_ending_on_the_row(items: Sequence[Any], i: int, line_type: Any) -> tuple[Any, int]:
    label = items[i]
    row = items[i + 1] if i + 1 < len(items) else None
    if (
        not _one_part(label, line_type)
        or not isinstance(row, line_type)
        or len(row.cells) < 2
        or not row.cells[0][2][:1].islower()
        or abs(row.cells[0][0] - label.left) > row.height
        or label.right >= row.cells[1][0]
        or not _next_line(label, row)
    ):
        return None, 0
    first = copy.copy(row)
    first.cells = [list(cell) for cell in row.cells]
    first.cells[0][2] = f"{label.text} {row.cells[0][2]}"
    first.cells[0][0], first.cells[0][1] = label.left, max(label.right, row.cells[0][1])
    first.text = f"{label.text} {row.text}"
    first.left, first.top = min(label.left, row.left), label.top
    return first, 2


def _table_run(items: Sequence[Any], start: int, line_type: Any) -> int:
    """The end of the run of table-like lines starting at ``start`` (``start`` if none)."""
    if not isinstance(items[start], line_type) or len(items[start].cells) < 2:
        return start
    end = start + 1
    while end < len(items):
        line, before = items[end], items[end - 1]
        if not isinstance(line, line_type):
            break
        if before.bottom - line.top > _ROW_GAP * before.height or line.top > before.top:
            break  # a wide gap, or back up the page (another column)
        if len(line.cells) < 2:
            following = items[end + 1] if end + 1 < len(items) else None
            grouped = (
                isinstance(following, line_type)
                and len(following.cells) >= 2
                and line.cells[0][0] <= items[start].cells[0][0] + 2 * line.height
            )
            if not grouped:
                break
        end += 1
    return end


def _aligned_table(lines: Sequence[Any]) -> RuledTable | None:
    """The rows of ``lines`` when their parts fall into the same columns, else None."""
    spans: list[list[float]] = []
    for line in lines:
        for left, right, _ in line.cells if len(line.cells) > 1 else ():
            overlapping = [s for s in spans if left <= s[1] and right >= s[0]]
            merged = [
                min([left, *(s[0] for s in overlapping)]),
                max([right, *(s[1] for s in overlapping)]),
            ]
            spans = [s for s in spans if s not in overlapping] + [merged]
    spans.sort()
    if len(spans) < 2:
        return None
    rows: list[list[str]] = []
    for line in lines:
        row = [""] * len(spans)
        for left, right, text in line.cells:
            column = next((k for k, s in enumerate(spans) if left <= s[1] and right >= s[0]), 0)
            if row[column]:
                return None  # two parts of one line in one column: not aligned
            row[column] = text
        rows.append(row)
    if sum(1 for line in lines if len(line.cells) > 1) < _MIN_ROWS:
        return None
    filled = [cell for row in rows for cell in row if cell]
    if sum(len(cell.split()) for cell in filled) > _MAX_CELL_WORDS * len(filled):
        return None  # lines of prose side by side (two columns drawn line by line)
    return RuledTable(
        min(s[0] for s in spans),
        min(line.bottom for line in lines),
        max(s[1] for s in spans),
        max(line.top for line in lines),
        rows,
    )
