"""``.docx`` (Word) to Markdown-flavoured text, with python-docx.

Body paragraphs and tables in document order. ``Title`` and ``Heading N`` styles become
headings; numbered or bulleted paragraphs (a numbering in the paragraph or its list style)
become list items, nested by their level, numbered from 1 per list and level; tables become
pipe tables with their first row as the header row and a merged cell's text repeated in
every column and row it spans (python-docx gives the merged cell once per grid position).
A caption stays the paragraph it is, above or below its table as the author put it.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

from claims.documents.converters.markdown_text import MarkdownWriter
from claims.errors import InputError

NAME = "docx"
VERSION = "1"
LIBRARY = "python-docx"

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: encrypted .docx or .doc
_HEADING = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
_LIST_STYLE = re.compile(r"^list\s+(bullet|number|paragraph|continue)?\s*(\d)?$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def convert(data: bytes, path: Path) -> str:
    if data.startswith(_OLE_MAGIC):
        raise InputError(
            "the file is password-protected (encrypted) or an old binary Word file, not a "
            ".docx package; remove the password, or save it as .docx in Word or LibreOffice",
            location=str(path),
        )
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise InputError(
            "the file is not a .docx package (not a ZIP file: truncated or damaged?); "
            "open it in Word or LibreOffice and save it again as .docx",
            location=str(path),
        )
    import docx  # python-docx: imported on first use

    document = docx.Document(io.BytesIO(data))
    writer = MarkdownWriter()
    numbering = _Numbering(document)
    styles = _style_names(document)
    blocks = list(document.iter_inner_content())
    # With a Title paragraph, "Heading 1" is a section under it: ## as in Markdown.
    shift = int(
        any(not hasattr(b, "rows") and _style(b, styles).lower() == "title" for b in blocks)
    )
    for block in blocks:
        if hasattr(block, "rows"):
            writer.table(_table_rows(block))
            numbering.reset()
        else:
            _paragraph(writer, block, numbering, shift, _style(block, styles))
    return writer.text()


def _style_names(document: Any) -> dict[str, str]:
    """Style id -> style name, read once (python-docx looks a style up by a linear search
    per paragraph, most of the time a large document took)."""
    names: dict[str, str] = {}
    try:
        root = document.styles.element
    except (KeyError, AttributeError, NotImplementedError):  # no styles part
        return names
    for style in root.findall(f"{_W}style"):
        name = style.find(f"{_W}name")
        if name is not None:
            names[style.get(f"{_W}styleId", "")] = name.get(f"{_W}val", "")
    return names


def _style(paragraph: Any, names: dict[str, str]) -> str:
    """The paragraph's style name ("heading 1", "List Bullet"...; "" for the default)."""
    style_id = paragraph._p.style
    return names.get(style_id, "").strip() if style_id else ""


def _paragraph(
    writer: MarkdownWriter, paragraph: Any, numbering: _Numbering, shift: int, style: str
) -> None:
    text = paragraph.text
    heading = _HEADING.match(style)
    if heading or style.lower() == "title":
        writer.heading(int(heading.group(1)) + shift if heading else 1, text)
        numbering.reset()
        return
    item = numbering.item(paragraph, style)
    if item is not None and text.strip():
        depth, number = item
        if depth == 0 and numbering.switched(number is not None):
            writer.end_list()  # a bulleted list right after a numbered one: two lists
        writer.list_item(text, depth, number)
        return
    if text.strip():
        writer.paragraph(text)
        numbering.reset()


class _Numbering:
    """Which paragraphs are list items, at what level, and their number in an ordered list."""

    def __init__(self, document: Any) -> None:
        self._formats: dict[tuple[str, int], str] = {}
        self._counters: dict[tuple[str, int], int] = {}
        self._ordered: bool | None = None  # the kind of the last top-level item
        try:
            root = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            return
        abstract: dict[str, dict[int, str]] = {}
        for node in root.findall(f"{_W}abstractNum"):
            levels = {}
            for lvl in node.findall(f"{_W}lvl"):
                fmt = lvl.find(f"{_W}numFmt")
                levels[int(lvl.get(f"{_W}ilvl", "0"))] = (
                    fmt.get(f"{_W}val", "bullet") if fmt is not None else "bullet"
                )
            abstract[node.get(f"{_W}abstractNumId", "")] = levels
        for num in root.findall(f"{_W}num"):
            ref = num.find(f"{_W}abstractNumId")
            levels = abstract.get(ref.get(f"{_W}val", "") if ref is not None else "", {})
            for level, fmt in levels.items():
                self._formats[(num.get(f"{_W}numId", ""), level)] = fmt

    def reset(self) -> None:
        """A paragraph that is not an item ends every list."""
        self._counters.clear()
        self._ordered = None

    def switched(self, ordered: bool) -> bool:
        """Whether a top-level item of this kind follows items of the other kind."""
        before, self._ordered = self._ordered, ordered
        return before is not None and before != ordered

    def item(self, paragraph: Any, style: str) -> tuple[int, int | None] | None:
        """(depth, number or None for a bullet) when ``paragraph`` is a list item."""
        num_id, level = _num_pr(paragraph)
        styled = _LIST_STYLE.match(style.strip())
        if num_id is None and styled is None:
            return None
        if num_id == "0":  # numbering switched off for this paragraph
            return None
        if num_id is None and styled is not None:
            kind = (styled.group(1) or "bullet").lower()
            level = int(styled.group(2)) - 1 if styled.group(2) else 0
            ordered = kind == "number"
            num_id = f"style:{kind}"
        else:
            fmt = self._formats.get((num_id or "", level), "bullet")
            ordered = fmt not in {"bullet", "none"}
        for key in [k for k in self._counters if k[0] == num_id and k[1] > level]:
            del self._counters[key]  # a shallower item restarts the deeper lists under it
        if not ordered:
            return level, None
        key = (num_id or "", level)
        self._counters[key] = self._counters.get(key, 0) + 1
        return level, self._counters[key]


def _num_pr(paragraph: Any) -> tuple[str | None, int]:
    ppr = paragraph._p.pPr
    num_pr = ppr.numPr if ppr is not None else None
    if num_pr is None:
        return None, 0
    num_id = num_pr.numId.val if num_pr.numId is not None else None
    level = num_pr.ilvl.val if num_pr.ilvl is not None else 0
    return (str(num_id) if num_id is not None else None), int(level or 0)


def _table_rows(table: Any) -> list[list[str]]:
    rows: list[list[str]] = []
    for row in table.rows:
        cells = []
        for cell in row.cells:
            parts = [p.text for p in cell.paragraphs if p.text.strip()]
            parts += [" ".join(r) for inner in cell.tables for r in _table_rows(inner)]
            cells.append(" ".join(parts))
        rows.append(cells)
    return rows
