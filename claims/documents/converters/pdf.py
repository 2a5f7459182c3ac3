"""``.pdf`` to Markdown-flavoured text, with pypdfium2 (PDFium).

Pages in order, one ``\\f`` line between pages; on a page, text in PDFium's reading order
(the order the page draws its text runs: a single column top to bottom, a LaTeX two-column
page column by column). Runs on one baseline make a line. Lines set in a font clearly
larger than the body text are headings (the largest size ``#``, the next ``##``...);
lines starting with a bullet (``•``, ``-``, ``–``, ``▪``...) or a small number (``3.``,
``2)``) are list items, nested by how far their bullet is indented; other lines are joined
into paragraphs, a wrapped line (one reaching the right margin) with a space and a short
line (``Weight: 1.2 kg``) with a line break; a wider gap than the line spacing ends a
paragraph. Tables become pipe tables (``pdf_tables``): ruled ones from their rules, and
tables drawn without column rules from lines whose parts stand in the same columns.

Refused with a per-file error: encrypted PDFs (a password is needed to open them), PDFs
with no text layer (scans: run OCR first) and damaged or truncated files.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims.documents.converters.markdown_text import PAGE_BREAK, MarkdownWriter
from claims.documents.converters.pdf_tables import RuledTable, find_tables, text_tables
from claims.documents.converters.raised_text import raised_reads_as
from claims.errors import InputError

NAME = "pdf"
VERSION = "4"
LIBRARY = "pypdfium2"

# bullets as PDFs draw them: round, square, Symbol/Wingdings private-use glyphs, dashes
_BULLET = re.compile(
    r"^([\u2022\u25e6\u25aa\u25ab\u25cf\u25cb\u25a0\u25a1\u25c6\u25ba\u2023\u2043\u00b7"
    r"\u27a2\u2713\u2756\uf0b7\uf0a7\uf0d8\uf076*\-\u2013])\s+"
)
_DASHES = ("-", "\u2013")
_SUB_BULLET = re.compile(r"^(o)\s+")  # Word's second-level bullet (Courier New "o")
_NUMBERED = re.compile(r"^(\d{1,2})[.)]\s+")
# a note's mark opening a line ("(1) Useful lives are ..."): a paragraph of its own that
# keeps its mark, as Markdown, HTML and Word read it (no numbered list item)
_NOTE_MARK = re.compile(r"^\(\d{1,2}\)\s+")
# a line ending so is mid-clause: the text goes on after it ("... as of December 31," /
# "2019 ..."), whatever the next line opens with
_OPEN_END = re.compile(
    r"(?:,|\b(?:of|to|in|on|at|by|for|from|with|and|or|than|the|a|an|as|was|were|is|are))$",
    re.IGNORECASE,
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffe\uffff]")
_SOFT_HYPHEN = "\u00ad"
_SENTENCE_END = (".", "!", "?", ":", ";")


_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
                            "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"})  # fmt: skip


def _clean(text: str) -> str:
    """A run's text on one line; PDFium's end-of-line hyphen (``\\x02``) kept as a soft one,
    typographic ligatures (``ﬁ``) as their letters, so words are spelled as typed."""
    text = text.replace("\x02", _SOFT_HYPHEN).translate(_LIGATURES)
    return " ".join(_CONTROL.sub("", text).split())


_HEADING_RATIO = 1.18  # a line this much larger than the body text is a heading
# a page number in the top or bottom margin: "7", "- 7 -", "Page 7", "7 of 12", "7/12"
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-\u2013(]?\s*\d{1,4}\s*[-\u2013)]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.I
)
_YEAR = re.compile(r"(?:19|20)\d\d")
_BOLD = 600  # font weight from which a run is bold
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_BOLD_HEADING = re.compile(r"^[^\d$%]*[^\W\d_)\]]$")  # no figure in it, no final stop or colon
_CELL_GAP = 1.2  # line heights: a wider gap between two runs of a line separates columns
_MARGIN = 0.15  # of the page height: where page numbers stand (LaTeX sets them high)


@dataclass
class _Line:
    text: str
    left: float
    right: float
    top: float
    bottom: float
    size: float
    runs: int = 1  # text runs joined into this line
    bold: bool = False  # every run of the line is set in a bold font
    # the line's parts apart by a wide gap (columns of a table drawn without rules):
    # [left, right, text]; one part for an ordinary line
    cells: list[list[Any]] = field(default_factory=list)
    # the first line of a page that goes on with the paragraph the page before left open
    after_page_break: bool = False
    raised: bool = False  # a raised small run (a footnote mark, a power) was read into it
    spaced: bool = False  # a run whose text opens with a space
    after_raised: bool = False  # the last run read into the line was a raised one
    # the page's topmost or bottommost line, a page number by its look (_page_number)
    margin_number: bool = False

    @property
    def height(self) -> float:
        return max(self.top - self.bottom, 1.0)


@dataclass
class _Page:
    items: list[_Line | RuledTable]
    width: float = 0.0
    height: float = 0.0


def convert(data: bytes, path: Path) -> str:
    import pypdfium2 as pdfium  # imported on first use
    import pypdfium2.raw as pdfium_c

    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        raise _open_error(error, path) from None
    try:
        pages = [_read_page(document[i], pdfium_c) for i in range(len(document))]
    finally:
        document.close()
    _drop_running_lines(pages)
    lines = [item for page in pages for item in page.items if isinstance(item, _Line)]
    _drop_page_numbers(pages, _Layout.of(lines, max((p.width for p in pages), default=0.0)))
    lines = [item for page in pages for item in page.items if isinstance(item, _Line)]
    if not lines and not any(page.items for page in pages):
        raise InputError(
            f"no text layer: none of the {len(pages)} page(s) holds text (a scan or images "
            "only); run OCR first (for example `ocrmypdf in.pdf out.pdf`) and ingest its output",
            location=str(path),
        )
    return _render(pages, _Layout.of(lines, max(page.width for page in pages)))


def _open_error(error: Exception, path: Path) -> InputError:
    message = str(error)
    if "password" in message.lower():
        return InputError(
            "the PDF is encrypted (it needs a password to open); save a copy without the "
            "password (print to PDF from a viewer that has it open) and ingest that",
            location=str(path),
        )
    return InputError(
        "the PDF is damaged or truncated, or not a PDF (PDFium: "
        f"{message.split('PDFium: ')[-1].rstrip(').')}); download or export it again",
        location=str(path),
    )


def _read_page(page: Any, pdfium_c: Any) -> _Page:
    textpage = page.get_textpage()
    try:
        tables = find_tables(page, textpage, pdfium_c.FPDF_PAGEOBJ_PATH)
        items: list[_Line | RuledTable] = []
        placed: set[int] = set()
        for i in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(i)
            x, y = (left + right) / 2, (bottom + top) / 2
            table = next((t for t in tables if t.holds(x, y)), None)
            if table is not None:
                if id(table) not in placed:
                    placed.add(id(table))
                    items.append(table)
                continue
            raw = str(textpage.get_text_bounded(left, bottom, right, top))
            text = _clean(raw)
            if not text:
                continue
            index = textpage.get_index(min(left + 1, x), y, 2, 2)
            found = index is not None and index >= 0
            size = float(pdfium_c.FPDFText_GetFontSize(textpage.raw, index)) if found else 0.0
            run = _Line(text, left, right, top, bottom, size or (top - bottom))
            run.bold = found and _bold(textpage, index, pdfium_c)
            run.cells = [[left, right, text]]
            run.spaced = raw[:1].isspace()
            _add_run(items, run)
        for line in items:  # PDFium spaces a line's runs better than their gaps tell
            if isinstance(line, _Line) and line.runs > 1 and not line.raised:
                whole = textpage.get_text_bounded(line.left, line.bottom, line.right, line.top)
                line.text = _clean(str(whole)) or line.text
                for cell in line.cells if len(line.cells) > 1 else ():
                    bounded = textpage.get_text_bounded(cell[0], line.bottom, cell[1], line.top)
                    cell[2] = _clean(str(bounded)) or cell[2]
        items += [t for t in tables if id(t) not in placed and any(any(r) for r in t.rows)]
        width, height = page.get_size()
        # page numbers stay out of the tables; _drop_page_numbers decides on them
        lines = [item for item in items if isinstance(item, _Line)]
        ends = (
            [max(lines, key=lambda x: x.top), min(lines, key=lambda x: x.bottom)] if lines else []
        )
        high = [line for line in ends[:1] if _page_number(line, height)]
        low = [line for line in ends[1:] if line is not ends[0] and _page_number(line, height)]
        for line in high + low:
            line.margin_number = True
        numbers = {id(line) for line in high + low}
        found = text_tables([item for item in items if id(item) not in numbers], _Line)
        return _Page(high + found + low, width, height)
    finally:
        textpage.close()
        page.close()


_RUNNING_PAGES = 3  # a running header or footer shows on at least this many pages...
_RUNNING_SHARE = 0.5  # ...and on at least this share of them


def _drop_running_lines(pages: list[_Page]) -> None:
    """Running headers and footers are not text of the pages: the topmost or bottommost
    line of a page, in its top or bottom margin, set no larger than the body text, that
    (numbers aside: ``Acme handbook 2025 - page 3``) is the same on at least half of the
    pages, and on three or more. A page holding nothing else keeps it."""
    if len(pages) < _RUNNING_PAGES:
        return
    body = _body_size([i for page in pages for i in page.items if isinstance(i, _Line)])
    candidates = [_running_candidates(page, body) for page in pages]
    seen: Counter[str] = Counter(key for found in candidates for key in set(found.values()))
    need = max(_RUNNING_PAGES, _RUNNING_SHARE * len(pages))
    running = {key for key, count in seen.items() if count >= need}
    for page, found in zip(pages, candidates, strict=True):
        drop = {index for index, key in found.items() if key in running}
        kept = [item for index, item in enumerate(page.items) if index not in drop]
        if drop and kept:
            page.items = kept


def _running_candidates(page: _Page, body: float) -> dict[int, str]:
    """Index -> key of the page's topmost line in its top margin and bottommost line in its
    bottom margin, when set no larger than the body text and apart from the page's other
    lines by more than a line's height (a page's first line of text is not a header)."""
    lines = [(i, item) for i, item in enumerate(page.items) if isinstance(item, _Line)]
    if len(lines) < 2:
        return {}
    by_top = sorted(lines, key=lambda pair: -pair[1].top)
    (first, head), (_, below) = by_top[0], by_top[1]
    (last, foot), (_, above) = by_top[-1], by_top[-2]
    found: dict[int, _Line] = {}
    if head.top > (1 - _MARGIN) * page.height and head.bottom - below.top > 1.5 * head.height:
        found[first] = head
    if foot.bottom < _MARGIN * page.height and above.bottom - foot.top > 1.5 * foot.height:
        found[last] = foot
    return {
        index: re.sub(r"\d+", "#", line.text.lower())
        for index, line in found.items()
        if len(line.text) <= 100 and line.size <= body + 0.5
    }


def _body_size(lines: list[_Line]) -> float:
    """The most common font size, weighted by characters."""
    weights: Counter[float] = Counter()
    for line in lines:
        weights[round(line.size * 2) / 2] += len(line.text)
    return weights.most_common(1)[0][0] if weights else 0.0


def _bold(textpage: Any, index: int, pdfium_c: Any) -> bool:
    """Whether the character's font is bold: its weight, or (the standard fonts have no
    weight) its name (``Helvetica-Bold``, ``Arial,BoldItalic``, ``Inter-SemiBold``)."""
    if int(pdfium_c.FPDFText_GetFontWeight(textpage.raw, index)) >= _BOLD:
        return True
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pdfium_c.FPDFText_GetFontInfo(textpage.raw, index, name, 128, ctypes.byref(flags))
    return bool(_BOLD_NAME.search(name.value.decode("latin-1")))


def _drop_page_numbers(pages: list[_Page], layout: _Layout) -> None:
    """Page numbers are not text of the pages. A figure in the margin that goes on with the
    text is kept: a page's first line ending the sentence the page before left open at its
    right margin ("... as of December 31," / "2019"), a page's line right under a line that
    wraps mid-sentence."""
    before: _Line | None = None  # the last line of the page before, when it ends the page
    for page in pages:
        items = page.items
        kept: set[int] = set()
        first = items[0] if items else None
        if isinstance(first, _Line) and before is not None and _goes_on(before, first, layout):
            kept.add(0)
        for i in range(1, len(items)):
            above, line = items[i - 1], items[i]
            if isinstance(above, _Line) and isinstance(line, _Line):
                pitch = above.top - line.top
                if pitch <= 1.8 * max(above.height, above.size) and _goes_on(above, line, layout):
                    kept.add(i)
        page.items = [
            item
            for i, item in enumerate(items)
            if i in kept or not (isinstance(item, _Line) and item.margin_number)
        ]
        last = page.items[-1] if page.items else None
        before = last if isinstance(last, _Line) else None


def _goes_on(above: _Line, line: _Line, layout: _Layout) -> bool:
    """Whether ``line`` is text going on from ``above``: ``above`` runs to the right margin
    mid-sentence and ``line`` starts at the text column's left edge (where no centred or
    outer-margin page number stands)."""
    return _open_at_margin(above, layout) and abs(line.left - layout.left) < line.height


def _open_at_margin(line: _Line, layout: _Layout) -> bool:
    """Whether ``line`` runs to the right margin with its sentence still open."""
    return layout.wraps(line) and not line.text.rstrip().endswith(_SENTENCE_END)


def _page_number(item: _Line | RuledTable, height: float) -> bool:
    """A page number standing alone in the top or bottom margin (not text of the page); a
    year alone (``2019``, a table's or a section's) is none."""
    if not isinstance(item, _Line) or not _PAGE_NUMBER.match(item.text):
        return False
    if _YEAR.fullmatch(item.text.strip()):
        return False
    return item.bottom < _MARGIN * height or item.top > (1 - _MARGIN) * height


def _raised(last: _Line, run: _Line) -> str | None:
    """A small run raised above the line's baseline right after its text, as it reads
    inline (``raised_text``: ``m²``, ``10^6``, nothing for a footnote mark: ``$4,411`` with
    a raised ``1`` must not read as 4,4111); None when ``run`` is no such run."""
    if not (
        0 < run.size <= 0.8 * last.size
        and run.bottom > last.bottom + 0.25 * last.height
        and last.right - 1 <= run.left <= last.right + 0.5 * last.height
        and len(run.text) <= 3
    ):
        return None
    return raised_reads_as(run.text, last.text)


def _leading_mark(mark: _Line, run: _Line) -> bool:
    """Whether ``mark`` is a footnote's mark raised before the footnote's text ``run``
    (read as an HTML ``sup`` with nothing before it: left out)."""
    return (
        mark.runs == 1
        and 0 < mark.size <= 0.8 * run.size
        and mark.bottom > run.bottom + 0.25 * run.height
        and mark.right - 1 <= run.left <= mark.right + run.height
        and raised_reads_as(mark.text, "") == ""
    )


def _add_run(items: list[_Line | RuledTable], run: _Line) -> None:
    """A text run joins the line before it when it continues that line's baseline."""
    last = items[-1] if items else None
    if isinstance(last, _Line) and _leading_mark(last, run):
        items.pop()
        last = items[-1] if items else None
    raised = _raised(last, run) if isinstance(last, _Line) else None
    if isinstance(last, _Line) and raised is not None:
        last.text += raised
        last.cells[-1][2] += raised
        last.right = last.cells[-1][1] = run.right
        last.raised = last.after_raised = True
        last.runs += 1
        return
    if (
        isinstance(last, _Line)
        and abs((last.top + last.bottom) - (run.top + run.bottom)) / 2 < 0.5 * last.height
        and run.left >= last.right - 1
    ):
        gap = run.left - last.right
        if last.after_raised and gap < _CELL_GAP * run.height:
            gap = run.height if run.spaced else 0.0  # a raised glyph's box tells it badly
        last.after_raised = False
        last.text += (" " if gap > 0.15 * run.height else "") + run.text
        if gap >= _CELL_GAP * run.height:
            last.cells.append([run.left, run.right, run.text])
        else:
            last.cells[-1][1] = run.right
            last.cells[-1][2] += (" " if gap > 0.15 * run.height else "") + run.text
        last.right, last.top = run.right, max(last.top, run.top)
        last.bottom, last.size = min(last.bottom, run.bottom), max(last.size, run.size)
        last.runs += 1
        last.bold = last.bold and run.bold
        return
    items.append(run)


@dataclass(frozen=True)
class _Layout:
    """What the document's lines say about its typography: body size, heading sizes,
    where the text column's right edge is."""

    body: float
    heading_sizes: tuple[float, ...]
    left: float
    right: float

    @classmethod
    def of(cls, lines: list[_Line], page_width: float) -> _Layout:
        """``page_width``: a text column's right edge is taken to mirror its left margin,
        so that in a document of short lines the longest is not taken for a full one."""
        if not lines:
            return cls(0.0, (), 0.0, 0.0)
        body = _body_size(lines)
        larger = {
            round(line.size * 2) / 2
            for line in lines
            if line.size >= body * _HEADING_RATIO and len(line.text) <= 200
        }
        left = min(line.left for line in lines)
        right = max(max(line.right for line in lines), page_width - left)
        return cls(body, tuple(sorted(larger, reverse=True)), left, right)

    def heading_level(self, line: _Line) -> int | None:
        """A larger size's rank; a short bold line at the body's size (no figure in it, no
        final stop or colon) one level under the sized headings."""
        size = round(line.size * 2) / 2
        if size in self.heading_sizes and len(line.text) <= 200:
            return min(self.heading_sizes.index(size) + 1, 6)
        text = line.text
        if (
            line.bold
            and len(text) <= 80
            and _BOLD_HEADING.match(text)
            and not (_BULLET.match(text) or _NUMBERED.match(text))
        ):
            return min(len(self.heading_sizes) + 1, 6)
        return None

    def wraps(self, line: _Line) -> bool:
        """Whether ``line`` runs to the right margin (its paragraph goes on after it)."""
        return line.right >= self.right - 0.12 * (self.right - self.left)


class _Paragraphs:
    """Lines gathered into headings, list items and paragraphs, written in order."""

    def __init__(self, writer: MarkdownWriter, layout: _Layout) -> None:
        self.writer, self.layout = writer, layout
        self.text = ""
        self.lines: list[_Line] = []  # the open paragraph's lines
        self.kind: str | None = None  # "paragraph", "item"
        self.item: tuple[int, int | None] = (0, None)
        self.last: _Line | None = None
        self.bullets: list[float] = []  # left edges of the open list's bullets, by depth

    def flush(self) -> None:
        if self.kind == "paragraph":
            self.writer.paragraph(self._joined())
        elif self.kind == "item":
            self.writer.list_item(self.text.replace(_SOFT_HYPHEN, ""), *self.item)
        self.kind, self.text, self.lines = None, "", []

    def _joined(self) -> str:
        """The paragraph's lines: a wrapped line joined to the next with a space (or
        nothing after a hyphen), a line that ends short kept as a line of its own."""
        lines = self.lines
        widest = max(line.right for line in lines)
        left = min(line.left for line in lines)
        text = lines[0].text
        for before, line in zip(lines, lines[1:], strict=False):
            wrapped = self.layout.wraps(before) or (
                len(lines) > 2
                and before.right >= widest - 0.12 * (widest - left)
                and line.text[:1].islower()
            )
            if line.after_page_break:  # the form feed stays inside: page numbers count it
                text = text.removesuffix(_SOFT_HYPHEN) + PAGE_BREAK + line.text
            elif wrapped and text.endswith(_SOFT_HYPHEN):
                text = text[:-1] + line.text
            else:
                text += (" " if wrapped else "\n") + line.text
        return text.replace(_SOFT_HYPHEN, "")

    def end_list(self) -> None:
        self.flush()
        self.bullets = []
        self.writer.end_list()

    def add(self, line: _Line) -> None:
        level = self.layout.heading_level(line)
        if level is not None:
            self.end_list()
            self.writer.heading(level, line.text)
            self.last = None
            return
        marker = _BULLET.match(line.text) or _NUMBERED.match(line.text)
        if marker and self._dash_in_sentence(line, marker):
            marker = None
        if not marker and self.bullets and line.left > self.bullets[0] + 2:
            marker = _SUB_BULLET.match(line.text)  # only inside a list, indented
        if marker:
            self.flush()
            number = int(marker.group(1)) if marker.re is _NUMBERED else None
            self.item = (self._depth(line.left), number)
            self.kind, self.text = "item", line.text[marker.end() :]
        elif line.after_page_break and self.kind == "paragraph":
            self.lines.append(line)
        elif line.after_page_break and self.kind == "item":
            self.text = self.text.removesuffix(_SOFT_HYPHEN) + PAGE_BREAK + line.text
        elif self.kind is not None and not self._opens_note(line) and self._continues(line):
            if self.kind == "item":
                hyphen = self.text.endswith(_SOFT_HYPHEN)
                self.text = self.text.removesuffix(_SOFT_HYPHEN) + ("" if hyphen else " ")
                self.text += line.text
            else:
                self.lines.append(line)
        else:
            if self.kind == "item" or (self.bullets and line.left <= self.bullets[0] + 1):
                self.end_list()
            self.flush()
            self.kind, self.lines = "paragraph", [line]
        self.last = line

    def _continues(self, line: _Line) -> bool:
        last = self.last
        if last is None:
            return False
        gap = last.bottom - line.top
        # measured top to top (a line without descenders has a low box, so its bottom is no
        # measure), against the font size as the floor of the line's height
        pitch = last.top - line.top
        if pitch > 1.8 * max(last.height, last.size) or gap < -last.height:
            return False  # a blank line, or another column
        if self.kind == "item":
            if self.bullets and line.left > self.bullets[-1] + 2:
                return True
            # a wrapped item whose next line starts under its marker (no hanging indent)
            return self._wraps_on(last, line)
        if line.left > min(kept.left for kept in self.lines) + 0.5 * last.size:
            return False  # a first-line indent opens the next paragraph (LaTeX sets them so)
        return abs(line.left - last.left) < 3 * last.height or line.left > last.left

    def _dash_in_sentence(self, line: _Line, marker: re.Match[str]) -> bool:
        """A dash or a number that a line wrap put first on a line, text of the sentence
        (no list item): the line before runs to the right margin mid-sentence, and the dash
        is followed by a lowercase word or a figure ("... at Leeds" / "– partly offset by
        ..."), or the number is neither 1 nor the next of the open list's ("... set out in
        Note" / "7. Revenue ...")."""
        if self.last is None or self.kind is None:
            return False
        if marker.re is _NUMBERED:  # "... as set out in Note" / "7. Revenue ..."
            number, (_, before) = int(marker.group(1)), self.item
            next_item = self.kind == "item" and before is not None and number == before + 1
            return number != 1 and not next_item and _open_at_margin(self.last, self.layout)
        if marker.group(1) not in _DASHES:
            return False
        after = line.text[marker.end() :][:1]
        return (
            self.kind is not None
            and (after.islower() or after.isdigit() or after == "$")
            and _open_at_margin(self.last, self.layout)
        )

    def _opens_note(self, line: _Line) -> bool:
        """A line opening with a note's mark ("(2) ...") starts a paragraph, unless the line
        before runs to the margin mid-sentence (the mark is then text of that sentence)."""
        if not _NOTE_MARK.match(line.text):
            return False
        return self.last is None or not _open_at_margin(self.last, self.layout)

    def runs_on(self, first: _Line | RuledTable | None, full: bool = False) -> bool:
        """Whether the open paragraph goes on at the top of the next page (``first``): its
        last line runs to the right margin with no end of sentence, and the next page opens
        with a plain line in lower case ("... with the following" / "assumptions: ..."), or
        the last line stops mid-clause ("... as of December 31," / "2019 ..."), or (``full``:
        that line stands at the foot of a page the text filled) the next page opens at the
        text column's left edge ("... the rent for these" / "Depots was ...")."""
        last = self.lines[-1] if self.kind == "paragraph" and self.lines else self.last
        if self.kind is None or not isinstance(first, _Line) or last is None:
            return False
        at_edge = full and abs(first.left - self.layout.left) < first.height
        return (
            self._wraps_on(last, first)
            and (
                first.text[:1].islower()
                or bool(_OPEN_END.search(last.text.rstrip()))
                or (at_edge and not last.text.rstrip().endswith(_SENTENCE_END))
            )
            and self.layout.heading_level(first) is None
            and not (_BULLET.match(first.text) or _NUMBERED.match(first.text))
        )

    def _wraps_on(self, last: _Line, line: _Line) -> bool:
        """Whether ``last`` runs to the right margin mid-sentence, so ``line`` goes on."""
        return self.layout.wraps(last) and (
            line.text[:1].islower() or not last.text.rstrip().endswith(_SENTENCE_END)
        )

    def _depth(self, left: float) -> int:
        while self.bullets and left < self.bullets[-1] - 2:
            self.bullets.pop()
        if not self.bullets or left > self.bullets[-1] + 2:
            self.bullets.append(left)
        return len(self.bullets) - 1


def _render(pages: list[_Page], layout: _Layout) -> str:
    writer = MarkdownWriter()
    gather = _Paragraphs(writer, layout)
    last_table: RuledTable | None = None  # the table the page before ended with
    for number, page in enumerate(pages):
        items = page.items
        first = items[0] if items else None
        if number and isinstance(first, _Line) and gather.runs_on(first, _full(pages[number - 1])):
            first.after_page_break = True  # one paragraph over two pages stays one
        elif number and _repeats_header(last_table, first):
            assert isinstance(first, RuledTable)
            if writer.table_continued(first.rows[1:]):  # its header row drawn again
                items = items[1:]
            else:
                writer.page_break()
        elif number and _same_columns(last_table, first):
            assert isinstance(first, RuledTable)
            if writer.table_continued(first.rows):  # no header row drawn again
                items = items[1:]
            else:
                writer.page_break()
        elif number:
            gather.end_list()
            writer.page_break()
        gather.last = None
        for item in items:
            if isinstance(item, RuledTable):
                gather.end_list()
                gather.last = None
                writer.table(item.rows)
            else:
                gather.add(item)
        ends = page.items[-1] if page.items else None
        last_table = ends if isinstance(ends, RuledTable) else None
    gather.end_list()
    return writer.text()


def _full(page: _Page) -> bool:
    """Whether the page's text runs down to its foot (the page ended because it was full):
    its last line stands in the bottom fifth of the page."""
    last = page.items[-1] if page.items else None
    return isinstance(last, _Line) and last.bottom < _FOOT * page.height


_FOOT = 0.2  # of the page height: a page whose last line stands this low was full


def _same_columns(before: RuledTable | None, first: object) -> bool:
    """Whether a page opens with a table standing in the columns of the table the page
    before ended with (a table running onto the next page without its header row drawn
    again): as many columns, the same left edge, about the same width."""
    if before is None or not isinstance(first, RuledTable) or not before.rows or not first.rows:
        return False
    width = before.right - before.left
    return (
        max(len(row) for row in first.rows) == max(len(row) for row in before.rows)
        and abs(first.left - before.left) <= 3.0
        and abs(first.right - before.right) <= 0.1 * width
    )


def _repeats_header(before: RuledTable | None, first: object) -> bool:
    """Whether a page opens with the table the page before ended with, its header row drawn
    again (a table that runs onto the next page)."""
    return (
        before is not None
        and isinstance(first, RuledTable)
        and len(first.rows) > 1
        and bool(before.rows)
        and [c.strip() for c in first.rows[0]] == [c.strip() for c in before.rows[0]]
    )
