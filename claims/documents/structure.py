"""The structure reader: Markdown-flavoured text (``.md``, ``.txt`` and every converter's
output) read into ``Document`` blocks before any sentence is read.

    # Leave                      -> HEADING (level 1)
    Full-time staff get:         -> PARAGRAPH (a lead-in: it ends with ":")
    - 25 days of annual leave    -> LIST_ITEM (item 1, nesting level 1)
    Notice period: 30 days       -> LABEL_LINE (label "Notice period")
    ### How do I book leave?     -> QUESTION (its answers carry it in their heading path)
    | Plan | Price |             -> TABLE (claims.documents.pipe_tables), caption lines beside it

A careful line scanner, not a Markdown parser: converters already render every format as
plain lines, and a scanner keeps exact offsets at no cost. Lines break units: a label line,
a list item, a heading and a table row each end where their line ends. A paragraph runs
over consecutive plain lines (hard-wrapped text) and ends at a blank line or at a line of
another kind. Page numbers come from form feeds (``\\f``): the text starts on page 1 when
it holds one at all.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from claims.documents.model import Block, BlockKind, Document, Locator, Table
from claims.documents.pipe_tables import parse_pipe_table

STRUCTURE_READER = "claims.structure"
STRUCTURE_VERSION = "1"

_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$|^ {0,3}(#{1,6})[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_BULLET = re.compile(
    r"^([ \t]*)"
    # "7\." is a converter's escaped number: a paragraph of HTML or Word that opens "7. ",
    # numbered as a list item is (Markdown would read it as one)
    r"([-*+\u2022\u00b7\u25aa\u2023\u25e6\u25cb\u25cf\u25a0\u25a1\u25ba\u2013\u2014]|\d{1,3}\\?[.)]|[a-zA-Z][.)])"
    r"[ \t]+(?=\S)"
)
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_BOLD_LINE = re.compile(r"^[ \t]*(\*\*|__)(?P<inner>[^*_\n].*?)\1[ \t]*$")
_QA_PREFIX = re.compile(r"^(?:Q|Question)[ \t]*[:.)][ \t]*", re.IGNORECASE)
_ANSWER_PREFIX = re.compile(r"^(?:A|Answer)[ \t]*[:.)][ \t]+", re.IGNORECASE)
# "Annual leave: 25 days", "**Weight:** 21 kg", "**Weight**: 21 kg"
_LABEL = re.compile(
    r"^(?P<open>\*\*|__)?(?P<label>[^\W\d_][^:\n|]{0,59}?)(?:(?P=open))?"
    r"[ \t]*:(?:(?P=open))?[ \t]+(?P<value>\S.*)$"
)
# words that make the stretch before a colon a clause ("The rule is simple: ..."), no label
_CLAUSE_WORDS = frozenset(
    (  # noqa: SIM905
        "is are was were be been am has have had will would can could must should shall may "
        "might do does did i we you he she they it this that these those there here"
    ).split()
)
_CAPTION = re.compile(
    r"^\(.*\)$|^(?:table|note|notes|source|sources)\b|^(?:all )?(?:amounts|figures|prices|values)\b"
    r"|\bin (?:millions|thousands|billions|us dollars|euros|pounds)\b",
    re.IGNORECASE,
)
_CAPTION_KINDS = (BlockKind.PARAGRAPH, BlockKind.CAPTION)
_MAX_LABEL_WORDS = 6
_MAX_TITLE_WORDS = 10


@dataclass
class _Line:
    start: int  # offset of the line's first character (after any form feed)
    end: int  # offset of its end (before the newline)
    text: str  # text[start:end]
    page_break: bool = False  # a form feed stands before the line's text

    @property
    def blank(self) -> bool:
        return not self.text.strip()

    @property
    def content_start(self) -> int:
        return self.start + len(self.text) - len(self.text.lstrip())

    @property
    def content_end(self) -> int:
        return self.start + len(self.text.rstrip())


@dataclass
class _Scan:
    """Running state while blocks are read in order."""

    text: str
    media_type: str
    form_feeds: list[int]
    blocks: list[Block] = field(default_factory=list)
    headings: list[tuple[int, str]] = field(default_factory=list)  # (level, title) open now
    question: str | None = None  # the FAQ question the blocks now read answer
    paragraphs: int = 0
    tables: int = 0
    # nesting level -> (marker kind, items so far): "-" and "1." lists are two lists
    list_counts: dict[int, tuple[str, int]] = field(default_factory=dict)

    def page(self, offset: int) -> int | None:
        if not self.form_feeds:
            return None
        return bisect_right(self.form_feeds, offset) + 1

    def path(self) -> tuple[str, ...]:
        titles = tuple(title for _, title in self.headings)
        return titles + ((self.question,) if self.question else ())

    def add(
        self,
        kind: BlockKind,
        start: int,
        end: int,
        label: str | None = None,
        table: Table | None = None,
    ) -> Block:
        paragraph = None
        if kind in (BlockKind.PARAGRAPH, BlockKind.LABEL_LINE, BlockKind.QUESTION):
            self.paragraphs += 1
            paragraph = self.paragraphs
        self.list_counts.clear()
        locator = Locator(
            page=self.page(start),
            heading_path=self.path(),
            paragraph=paragraph,
            table=self.tables if table is not None else None,
        )
        block = Block(kind, start, end, locator, label=label, table=table)
        self.blocks.append(block)
        return block

    def open_heading(self, level: int, title: str) -> None:
        self.question = None
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, title))


def read_structure(
    text: str,
    media_type: str = "text/markdown",
    *,
    converter: str = STRUCTURE_READER,
    converter_version: str = STRUCTURE_VERSION,
) -> Document:
    """The blocks of ``text`` in document order; offsets point into ``text`` itself.

    ``media_type`` "text/plain" (and any converted format) also reads a short line between
    blank lines as a heading (a title line of a plain-text file); Markdown does not."""
    lines = _lines(text)
    scan = _Scan(text, media_type, [i for i, ch in enumerate(text) if ch == "\f"])
    plain_titles = media_type != "text/markdown"
    i = 0
    while i < len(lines):
        i = _read_at(scan, lines, i, plain_titles)
    title = next(
        (scan.text[b.start : b.end] for b in scan.blocks if b.kind is BlockKind.HEADING), None
    )
    return Document(
        text=text,
        blocks=tuple(scan.blocks),
        media_type=media_type,
        converter=converter,
        converter_version=converter_version,
        title=title,
    )


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    pos = 0
    n = len(text)
    while pos <= n:
        nl = text.find("\n", pos)
        end = n if nl < 0 else nl
        start = pos
        while start < end and text[start] == "\f":
            start += 1  # a page break before the line's text
        line_end = end - 1 if end > start and text[end - 1] == "\r" else end
        lines.append(_Line(start, line_end, text[start:line_end], start > pos))
        if nl < 0:
            break
        pos = nl + 1
    return lines


def _read_at(scan: _Scan, lines: list[_Line], i: int, plain_titles: bool) -> int:
    """Reads the block starting at line ``i``; returns the index of the next unread line."""
    line = lines[i]
    if line.blank or _RULE.match(line.text):
        return i + 1
    stripped = line.text.strip()
    if stripped.startswith("```") or stripped.startswith("~~~"):
        return _skip_fence(lines, i, stripped[:3])
    atx = _ATX.match(line.text)
    if atx:
        return _heading(scan, line, i, atx)
    setext = i + 1 < len(lines) and _SETEXT.match(lines[i + 1].text)
    if setext and not _BULLET.match(line.text) and not stripped.startswith("|"):
        level = 1 if lines[i + 1].text.strip().startswith("=") else 2
        _title(scan, line.content_start, line.content_end, level)
        return i + 2
    if stripped.startswith("|"):
        read = _table(scan, lines, i)
        if read is not None:
            return read
    bullet = _BULLET.match(line.text)
    if bullet:
        return _list_item(scan, lines, i, bullet)
    question = _question(line)
    if question is not None:
        return _question_block(scan, line, i, question)
    bold = _BOLD_LINE.match(line.text)
    if bold and not stripped.endswith(":"):
        start = line.start + bold.start("inner")
        _title(scan, start, start + len(bold.group("inner").rstrip()), _sub_level(scan))
        return i + 1
    label = _label(line)
    if label is not None and _INLINE_BULLET.search(line.text):
        label = None  # "Costs changed as follows: • freight ... • fuel ...": a list's lead-in
    digits = any(c.isdigit() for c in stripped)
    if label is not None and plain_titles and not digits and _title_line(lines, i):
        label = None  # "Northwind Studio: People Handbook" alone between blank lines: a title
    if label is not None and not _continued(lines, i):
        scan.add(BlockKind.LABEL_LINE, line.content_start, line.content_end, label=label)
        return i + 1
    if plain_titles and _title_line(lines, i):
        level = 1 if not any(b.kind is BlockKind.HEADING for b in scan.blocks) else 2
        _title(scan, line.content_start, line.content_end, level)
        return i + 1
    return _paragraph(scan, lines, i)


def _heading(scan: _Scan, line: _Line, i: int, atx: re.Match[str]) -> int:
    if atx.group(1) is None:
        return i + 1  # "#" alone: an empty heading
    level = len(atx.group(1))
    start = line.start + atx.start(2)
    end = line.start + atx.end(2)
    if start >= end:
        return i + 1
    _title(scan, start, end, level)
    return i + 1


def _title(scan: _Scan, start: int, end: int, level: int) -> None:
    title = scan.text[start:end].strip()
    if title.endswith("?"):
        # a FAQ question written as a heading: a question block under the headings so far
        scan.question = None
        scan.add(BlockKind.QUESTION, start, end)
        scan.question = title
        return
    scan.open_heading(level, title)
    scan.blocks.append(
        Block(
            BlockKind.HEADING,
            start,
            end,
            Locator(page=scan.page(start), heading_path=scan.path()),
            level=level,
        )
    )
    scan.list_counts.clear()


def _sub_level(scan: _Scan) -> int:
    return min(6, (scan.headings[-1][0] + 1) if scan.headings else 2)


def _question(line: _Line) -> tuple[int, int] | None:
    """(start, end) of a FAQ question on this line: "Q: How ...?", "**How ...?**"."""
    text = line.text
    stripped = text.strip()
    prefix = _QA_PREFIX.match(stripped)
    if prefix and stripped.endswith("?"):
        start = line.content_start + prefix.end()
        return start, line.content_end
    bold = _BOLD_LINE.match(text)
    if bold and bold.group("inner").rstrip().endswith("?"):
        start = line.start + bold.start("inner")
        return start, start + len(bold.group("inner").rstrip())
    return None


def _question_block(scan: _Scan, line: _Line, i: int, span: tuple[int, int]) -> int:
    scan.question = None
    scan.add(BlockKind.QUESTION, span[0], span[1])
    scan.question = scan.text[span[0] : span[1]].strip()
    return i + 1


def _label(line: _Line) -> str | None:
    """The label of a "Label: value" line, or None when the line is no label line."""
    m = _LABEL.match(line.text.strip())
    if m is None or _ANSWER_PREFIX.match(line.text.strip()):
        return None
    label = m.group("label").strip().strip("*_").strip()
    words = label.split()
    if not label[:1].isupper():
        return None  # labels are written capitalised; "the rules: ..." is a wrapped line
    if not words or len(words) > _MAX_LABEL_WORDS:
        return None
    if any(w.lower().strip(",.;") in _CLAUSE_WORDS for w in words):
        return None
    if any(ch in label for ch in '.;!?()[]"') or label.startswith(("http", "www")):
        return None
    return label


def _continued(lines: list[_Line], i: int) -> bool:
    """Whether the line after ``i`` carries on its sentence (hard-wrapped prose: the next
    line starts lowercase and opens no block), which makes a "Label: ..." line prose."""
    if i + 1 >= len(lines) or lines[i + 1].blank or _starts_block(lines, i + 1):
        return False
    return lines[i + 1].text.lstrip()[:1].islower()


def _title_line(lines: list[_Line], i: int) -> bool:
    """A plain-text title: a short line with no closing punctuation, alone between blank
    lines (or the text's start) and followed by one."""
    line = lines[i]
    stripped = line.text.strip()
    if len(stripped.split()) > _MAX_TITLE_WORDS or len(stripped) > 80:
        return False
    if stripped[-1:] in ".,;:!?" or stripped.startswith(("(", "\\")) or _CAPTION.search(stripped):
        return False
    if not stripped[:1].isupper() and not stripped[:1].isdigit():
        return False
    before_blank = i == 0 or lines[i - 1].blank
    after_blank = i + 1 >= len(lines) or lines[i + 1].blank
    if not (before_blank and after_blank) or i + 1 >= len(lines):
        return False
    return any(not ln.blank for ln in lines[i + 1 :])


def _skip_fence(lines: list[_Line], i: int, fence: str) -> int:
    j = i + 1
    while j < len(lines) and not lines[j].text.strip().startswith(fence):
        j += 1
    return j + 1


def _paragraph(scan: _Scan, lines: list[_Line], i: int) -> int:
    """Consecutive plain lines; ends at a blank line or a line that opens another block."""
    j = i + 1
    while j < len(lines):
        nxt = lines[j]
        if nxt.blank or _starts_block(lines, j):
            break
        j += 1
    start, end = lines[i].content_start, lines[j - 1].content_end
    kind = (
        BlockKind.CAPTION if j == i + 1 and _caption_beside_table(lines, i) else BlockKind.PARAGRAPH
    )
    lead, *items = _inline_items(scan.text, start, end)
    scan.add(kind, *lead)
    for number, (item_start, item_end) in enumerate(items, start=1):
        _add_item(scan, item_start, item_end, number, 1)
    if items:
        scan.list_counts[1] = ("bullet", len(items))
    return j


def _starts_block(lines: list[_Line], j: int) -> bool:
    line = lines[j]
    text = line.text
    stripped = text.strip()
    return bool(
        _ATX.match(text)
        or _BULLET.match(text)
        or stripped.startswith("|")
        or _RULE.match(text)
        or _question(line) is not None
        or _label(line) is not None
        or _ANSWER_PREFIX.match(stripped)
        or (j + 1 < len(lines) and _SETEXT.match(lines[j + 1].text) and stripped)
        or line.page_break
    )


def _list_item(scan: _Scan, lines: list[_Line], i: int, bullet: re.Match[str]) -> int:
    indent = len(bullet.group(1).expandtabs(4))
    level = 1 + indent // 2
    for deeper in [lvl for lvl in scan.list_counts if lvl > level]:
        del scan.list_counts[deeper]
    marker = "number" if bullet.group(2)[:1].isalnum() else "bullet"
    kind, seen = scan.list_counts.get(level, (marker, 0))
    number = seen + 1 if kind == marker else 1
    scan.list_counts[level] = (marker, number)
    start = lines[i].start + bullet.end()
    j = i + 1
    while j < len(lines):  # continuation lines: indented, no marker of their own
        nxt = lines[j]
        if (
            nxt.blank
            or _BULLET.match(nxt.text)
            or not nxt.text[:1].isspace()
            or _starts_block(lines, j)
        ):
            break
        j += 1
    end = lines[j - 1].content_end
    pieces = _inline_items(scan.text, start, end)
    counts = dict(scan.list_counts)
    for k, (piece_start, piece_end) in enumerate(pieces):
        text = scan.text[piece_start:piece_end]
        label = _label(_Line(piece_start, piece_end, text)) if "\n" not in text else None
        counts[level] = (marker, number + k)
        _add_item(scan, piece_start, piece_end, number + k, level, label)
    scan.list_counts = counts
    return j


def _add_item(
    scan: _Scan, start: int, end: int, number: int, level: int, label: str | None = None
) -> None:
    locator = Locator(page=scan.page(start), heading_path=scan.path(), list_item=number)
    scan.blocks.append(Block(BlockKind.LIST_ITEM, start, end, locator, level=level, label=label))


# a bullet glyph standing inside a line ("...; • a decrease of ...; and • ..."): the items
# of a list run into one paragraph. Each is an item of its own, wherever a line breaks: a
# PDF's line break that happens to put the glyph first on a line makes an item there too
_INLINE_BULLET = re.compile(r"[ \t]+[\u2022\u25aa\u25cf\u25a0\u25ba\u25e6][ \t]+(?=\S)")


def _inline_items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut before each bullet glyph inside it: [(start, end), ...]."""
    pieces: list[tuple[int, int]] = []
    for found in _INLINE_BULLET.finditer(text, start, end):
        pieces.append((start, found.start()))
        start = found.end()
    pieces.append((start, end))
    return [(a, b) for a, b in pieces if text[a:b].strip()]


def _table(scan: _Scan, lines: list[_Line], i: int) -> int | None:
    j = i
    while j < len(lines) and lines[j].text.strip().startswith("|"):
        j += 1
    table_start, table_end = lines[i].start, lines[j - 1].end
    caption_parts: list[str] = []
    above = _caption_line(lines, i - 1) if i else None
    if above is None and i >= 2 and lines[i - 1].blank:
        above = _caption_line(lines, i - 2)
    if above is not None and scan.blocks and scan.blocks[-1].kind in _CAPTION_KINDS:
        last = scan.blocks[-1]
        if (last.start, last.end) == (above.content_start, above.content_end):
            scan.blocks[-1] = Block(BlockKind.CAPTION, last.start, last.end, last.locator)
            caption_parts.append(above.text.strip())
    below = _caption_line(lines, j) if j < len(lines) else None
    if below is None and j + 1 < len(lines) and lines[j].blank:
        below = _caption_line(lines, j + 1)
    if below is not None:
        caption_parts.append(below.text.strip())
    table = parse_pipe_table(scan.text, table_start, table_end, " ".join(caption_parts) or None)
    if table is None:
        return None
    scan.tables += 1
    scan.add(BlockKind.TABLE, table_start, table_end, table=table)
    return j


def _caption_line(lines: list[_Line], k: int) -> _Line | None:
    if k < 0 or k >= len(lines):
        return None
    line = lines[k]
    stripped = line.text.strip()
    if not stripped or stripped.startswith(("|", "#")) or len(stripped.split()) > 14:
        return None
    return line if _CAPTION.search(stripped) else None


def _caption_beside_table(lines: list[_Line], i: int) -> bool:
    """Whether line ``i`` is a caption or note right above or below a table."""
    if _caption_line(lines, i) is None:
        return False
    for k in (i - 1, i + 1, i - 2, i + 2):
        if 0 <= k < len(lines) and lines[k].text.strip().startswith("|"):
            between = range(min(i, k) + 1, max(i, k))
            if all(lines[b].blank for b in between):
                return True
    return False
