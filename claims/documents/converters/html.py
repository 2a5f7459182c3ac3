"""``.html`` / ``.htm`` to Markdown-flavoured text, with lxml's HTML parser.

``h1``-``h6`` become headings; ``ul``/``ol`` items list items (nested lists indented,
``ol start`` honoured); tables pipe tables (rows of ``thead``, or leading rows of ``th``
only, are header rows; ``colspan``/``rowspan`` repeat the cell's text in every grid position
it covers; a ``caption`` is its own paragraph above the table); ``dt``/``dd`` pairs become
``term: definition`` lines; other block elements (``p``, ``div``, ``li``...) end a paragraph
and ``br`` ends a line. Whitespace collapses as a browser shows it. Scripts, styles,
``head``, ``template``, hidden elements and form controls are not text of the document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claims.documents.converters.markdown_text import MarkdownWriter, tidy
from claims.documents.converters.raised_text import raised_reads_as
from claims.errors import InputError

NAME = "html"
VERSION = "1"
LIBRARY = "lxml"

_SKIP = {
    "script", "style", "noscript", "template", "head", "title", "meta", "link", "svg",
    "math", "iframe", "object", "embed", "canvas", "button", "select", "option", "textarea",
    "input", "map", "area", "audio", "video", "source", "track", "img",
}  # fmt: skip
_BLOCKS = {
    "p", "div", "section", "article", "main", "header", "footer", "aside", "nav",
    "blockquote", "figure", "figcaption", "address", "center", "form", "fieldset",
    "details", "summary", "body", "html", "hr", "li", "dd", "dt", "legend", "caption",
    "tbody", "thead", "tfoot", "tr", "td", "th",
}  # fmt: skip
_HEADING = re.compile(r"^h([1-6])$")
_WHITESPACE = re.compile(r"\s+")
_LINE_BREAK = "\u2028"  # stands for a <br> until the paragraph is written


def convert(data: bytes, path: Path) -> str:
    import lxml.html  # imported on first use

    root = lxml.html.document_fromstring(_decoded(data, path))
    walker = _Walker()
    walker.block(root)
    walker.flush()
    return walker.writer.text()


def _decoded(data: bytes, path: Path) -> str | bytes:
    """UTF-8 (or a UTF-16 file with its mark) as text; other bytes for lxml to decode by
    their ``<meta charset>``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _without_declaration(data.decode("utf-16"))
    if b"\x00" in data[:4096]:
        raise InputError(
            "the file looks binary (a NUL byte), not HTML; save the page again as HTML",
            location=str(path),
        )
    try:
        return _without_declaration(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        return data


def _without_declaration(text: str) -> str:
    # lxml refuses a str that still declares an encoding in an XML declaration
    return re.sub(r"^\s*<\?xml[^>]*\?>", "", text, count=1)


def _tag(node: Any) -> str:
    tag = node.tag
    return tag.lower() if isinstance(tag, str) else ""  # comments and processing instructions


def _hidden(node: Any) -> bool:
    style = (node.get("style") or "").replace(" ", "").lower()
    return (
        node.get("hidden") is not None
        or node.get("aria-hidden") == "true"
        or "display:none" in style
    )


class _Walker:
    def __init__(self) -> None:
        self.writer = MarkdownWriter()
        self._inline: list[str] = []

    def flush(self) -> None:
        text = "".join(self._inline)
        self._inline = []
        lines = [tidy(line) for line in text.split(_LINE_BREAK)]
        if any(lines):
            self.writer.paragraph("\n".join(lines))

    def _text(self, text: str | None) -> None:
        if text:
            self._inline.append(_WHITESPACE.sub(" ", text))

    def block(self, node: Any) -> None:
        """``node``'s content (not its tail)."""
        self._text(node.text)
        for child in node:
            self.node(child)

    def node(self, node: Any) -> None:
        tag = _tag(node)
        if tag and tag not in _SKIP and not _hidden(node):
            self._element(node, tag)
        self._text(node.tail)

    def _element(self, node: Any, tag: str) -> None:
        heading = _HEADING.match(tag)
        if heading:
            self.flush()
            self.writer.heading(int(heading.group(1)), _inline_text(node))
        elif tag in {"ul", "ol", "menu"}:
            self.flush()
            self.writer.end_list()
            self._list(node, 0)
            self.writer.end_list()
        elif tag == "table" and _layout_table(node):
            self.flush()  # a table that lays out a page: its cells are the page's blocks
            for cell in node.iter("td", "th"):
                if _nearest_table(cell) is node:
                    self.block(cell)
                    self.flush()
        elif tag == "table":
            self.flush()
            self._table(node)
        elif tag == "pre":
            self.flush()
            self.writer.paragraph(node.text_content())
        elif tag == "br":
            self._inline.append(_LINE_BREAK)
        elif tag == "sup":
            self._inline.append(_superscript(node, "".join(self._inline[-3:])))
        elif tag == "dl":
            self.flush()
            self._definitions(node)
        elif tag in _BLOCKS:
            self.flush()
            self.block(node)
            self.flush()
        else:
            self.block(node)

    def _list(self, node: Any, depth: int) -> None:
        ordered = _tag(node) == "ol"
        number = _int(node.get("start"), 1)
        for item in node:
            if _tag(item) != "li" or _hidden(item):
                if _tag(item) in {"ul", "ol"}:  # a list directly inside a list
                    self._list(item, depth + 1)
                continue
            nested = [c for c in item.iter() if c is not item and _tag(c) in {"ul", "ol"}]
            outer = [n for n in nested if not any(n in m.iterdescendants() for m in nested)]
            text = _inline_text(item, stop={"ul", "ol", "menu"})
            if text.strip():
                self.writer.list_item(text, depth, number if ordered else None)
                number += 1
            for sub in outer:
                self._list(sub, depth + 1)

    def _definitions(self, node: Any) -> None:
        term: str | None = None
        lines: list[str] = []
        for child in node.iter("dt", "dd"):
            text = tidy(_inline_text(child).replace("\n", " "))
            if _tag(child) == "dt":
                if term:
                    lines.append(term)
                term = text
            elif term:
                lines.append(f"{term}: {text}")
                term = None
            else:
                lines.append(text)
        if term:
            lines.append(term)
        for line in lines:
            self.writer.paragraph(line)

    def _table(self, node: Any) -> None:
        caption = next((c for c in node if _tag(c) == "caption"), None)
        if caption is not None:
            self.writer.paragraph(_inline_text(caption))
        rows, heads = _grid(node)
        self.writer.table(rows, heads)


_LAYOUT_CONTENT = {"table", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "pre"}


def _nearest_table(node: Any) -> Any:
    parent = node.getparent()
    while parent is not None and _tag(parent) != "table":
        parent = parent.getparent()
    return parent


def _layout_table(table: Any) -> bool:
    """Whether ``table`` lays out a page (old intranet pages, e-mail exports) rather than
    holding data: a cell holds a table, a heading, a list or several paragraphs, or the
    table has a single column."""
    widths = []
    for row, _ in _rows(table):
        cells = [c for c in row if _tag(c) in {"td", "th"}]
        widths.append(sum(max(1, _int(c.get("colspan"), 1)) for c in cells))
        for cell in cells:
            inner = [n for n in cell.iterdescendants() if isinstance(n.tag, str)]
            if any(_tag(n) in _LAYOUT_CONTENT for n in inner):
                return True
            if sum(1 for n in inner if _tag(n) in {"p", "div"}) >= 2:
                return True
    return bool(widths) and max(widths) == 1


def _superscript(node: Any, before: str) -> str:
    """A ``sup``'s text as it reads inline (``raised_text``): ``m²``, ``10^6``, nothing for a
    footnote mark (``4.2<sup>3</sup>`` must not read as 4.23), else its text."""
    text = " ".join(node.text_content().split())
    read = raised_reads_as(text, before)
    return text if read is None else read


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _inline_text(node: Any, stop: frozenset[str] | set[str] = frozenset()) -> str:
    """The text of ``node`` as one paragraph: whitespace collapsed, ``br`` a line break,
    skipped elements and those in ``stop`` left out."""
    parts: list[str] = []

    def walk(element: Any) -> None:
        if element.text:
            parts.append(_WHITESPACE.sub(" ", element.text))
        for child in element:
            tag = _tag(child)
            if tag == "br":
                parts.append("\n")
            elif tag == "sup":
                parts.append(_superscript(child, "".join(parts[-3:])))
            elif tag and tag not in _SKIP and tag not in stop and not _hidden(child):
                if tag in _BLOCKS or _HEADING.match(tag):
                    parts.append(" ")
                walk(child)
                if tag in _BLOCKS or _HEADING.match(tag):
                    parts.append(" ")
            if child.tail:
                parts.append(_WHITESPACE.sub(" ", child.tail))

    walk(node)
    return "\n".join(tidy(line) for line in "".join(parts).split("\n"))


def _rows(table: Any) -> Iterator[tuple[Any, bool]]:
    """(row, in thead) for the rows of ``table`` itself (not of tables nested in it)."""
    for child in table:
        tag = _tag(child)
        if tag == "tr":
            yield child, False
        elif tag in {"thead", "tbody", "tfoot"}:
            for row in child:
                if _tag(row) == "tr":
                    yield row, tag == "thead"


def _grid(table: Any) -> tuple[list[list[str]], int]:
    """The table's rows with spans repeated, and how many leading rows are header rows."""
    grid: dict[tuple[int, int], str] = {}
    header_rows, in_head = 0, True
    rows = list(_rows(table))
    for r, (row, thead) in enumerate(rows):
        column = 0
        cells = [c for c in row if _tag(c) in {"td", "th"}]
        if in_head and (thead or (cells and all(_tag(c) == "th" for c in cells))):
            header_rows += 1
        else:
            in_head = False
        for cell in cells:
            while (r, column) in grid:
                column += 1
            text = tidy(_inline_text(cell).replace("\n", " "))
            span_c = max(1, min(_int(cell.get("colspan"), 1), 100))
            span_r = max(1, min(_int(cell.get("rowspan"), 1), len(rows) - r))
            for dr in range(span_r):
                for dc in range(span_c):
                    grid.setdefault((r + dr, column + dc), text)
            column += span_c
    if not grid:
        return [], 0
    width = max(c for _, c in grid) + 1
    return [[grid.get((r, c), "") for c in range(width)] for r in range(len(rows))], header_rows
