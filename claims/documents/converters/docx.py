"""``.docx`` (Word) to Markdown-flavoured text: python-docx opens the package, the body's
WordprocessingML is walked directly.

Body paragraphs and tables in document order, content controls (``w:sdt``) included.
Headings: the ``Title`` style, ``heading N`` styles and styles with an outline level (through
their ``basedOn`` chain); with a Title paragraph, ``heading 1`` is ``##`` as in Markdown.
List items: a paragraph with a numbering, its own or its style's (``List Bullet``,
``List Number``...), nested by its level, numbered from 1 per list and level when the
level's format is not a bullet. Tables: pipe tables, the first row the header row, a cell
merged across columns (``gridSpan``) or rows (``vMerge``) repeated in every grid position
it covers, a nested table's text flattened into its cell. Text of tracked insertions is
read, tracked deletions and moved-from text are not; text boxes, headers, footers,
footnotes and comments are not part of the text.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claims.documents.converters.markdown_text import MarkdownWriter
from claims.documents.converters.raised_text import raised_reads_as
from claims.errors import InputError

NAME = "docx"
VERSION = "2"
LIBRARY = "python-docx"

_MAX_UNPACKED = 512 * 1024 * 1024  # a "zip bomb" is refused before it is unpacked
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a compound file: encrypted .docx or .doc
_HEADING = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
_LIST_STYLE = re.compile(r"^list\s+(bullet|number)\s*(\d)?$", re.IGNORECASE)
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MC_FALLBACK = "{http://schemas.openxmlformats.org/markup-compatibility/2006}Fallback"
# inside a paragraph: text that is not (or no longer) the document's
_SKIPPED = {
    f"{_W}del",
    f"{_W}moveFrom",
    f"{_W}txbxContent",
    f"{_W}instrText",
    f"{_W}delText",
    _MC_FALLBACK,
}


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
    with zipfile.ZipFile(io.BytesIO(data)) as package:
        unpacked = sum(item.file_size for item in package.infolist())
    if unpacked > _MAX_UNPACKED:
        raise InputError(
            f"the .docx package unpacks to {unpacked} bytes, over the {_MAX_UNPACKED} this "
            "reader opens; split the document",
            location=str(path),
        )
    import docx  # python-docx: imported on first use

    document = docx.Document(io.BytesIO(data))
    styles = _Styles.of(document)
    numbering = _Numbering(document)
    body = document.element.body
    blocks = list(_body_blocks(body))
    shift = int(any(b.tag == f"{_W}p" and styles.is_title(_style_id(b)) for b in blocks))
    writer = MarkdownWriter()
    for block in blocks:
        if block.tag == f"{_W}tbl":
            writer.table(_table_rows(block))
            numbering.reset()
        else:
            _paragraph(writer, block, styles, numbering, shift)
    return writer.text()


def _body_blocks(parent: Any) -> Any:
    """Paragraphs and tables of ``parent`` in order, through content controls."""
    for child in parent:
        if child.tag in (f"{_W}p", f"{_W}tbl"):
            yield child
        elif child.tag == f"{_W}sdt":
            content = child.find(f"{_W}sdtContent")
            if content is not None:
                yield from _body_blocks(content)
        elif child.tag == f"{_W}customXml":
            yield from _body_blocks(child)


def _paragraph(
    writer: MarkdownWriter, p: Any, styles: _Styles, numbering: _Numbering, shift: int
) -> None:
    text = _text(p)
    style_id = _style_id(p)
    level = styles.heading_level(style_id)
    if level is not None:
        writer.heading(min(level + shift if level else 1, 6), text)
        numbering.reset()
        return
    num_id, depth = _num_pr(p)
    if num_id is None:
        num_id, depth = styles.numbering(style_id)
        styled = _LIST_STYLE.match(styles.name(style_id))
        if styled and styled.group(2):  # "List Bullet 2": its own list, one level down
            depth = max(depth, _int(styled.group(2)) - 1)
    item = numbering.item(num_id, depth, styles.name(style_id))
    if item is not None and text.strip():
        depth, number = item
        if depth == 0 and numbering.switched(number is not None):
            writer.end_list()  # a bulleted list right after a numbered one: two lists
        writer.list_item(text, depth, number)
        return
    if text.strip():
        writer.paragraph(text)
        numbering.reset()


def _text(element: Any) -> str:
    """The text of a paragraph (or cell): runs, tabs and breaks, tracked deletions left out."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        for child in node:
            tag = child.tag
            if not isinstance(tag, str) or tag in _SKIPPED:
                continue
            if tag == f"{_W}t":
                parts.append(child.text or "")
            elif tag == f"{_W}tab":
                parts.append("\t")
            elif tag in (f"{_W}br", f"{_W}cr"):
                parts.append("\n")
            elif tag == f"{_W}noBreakHyphen":
                parts.append("-")
            elif tag == f"{_W}p":  # a paragraph inside a cell or a content control
                if parts:
                    parts.append(" ")
                walk(child)
            elif tag == f"{_W}r" and _superscript(child):
                before = "".join(parts[-3:])
                start = len(parts)
                walk(child)
                text = "".join(parts[start:])
                del parts[start:]
                read = raised_reads_as(text.strip(), before)
                parts.append(text if read is None else read)
            else:
                walk(child)

    walk(element)
    return "".join(parts)


def _superscript(run: Any) -> bool:
    """Whether a run is set superscript (its own formatting; a character style's is not
    looked up)."""
    align = run.find(f"{_W}rPr/{_W}vertAlign")
    return align is not None and align.get(f"{_W}val") == "superscript"


def _style_id(p: Any) -> str | None:
    style = p.find(f"{_W}pPr/{_W}pStyle")
    return style.get(f"{_W}val") if style is not None else None


def _num_pr(p: Any) -> tuple[str | None, int]:
    num_pr = p.find(f"{_W}pPr/{_W}numPr")
    return _read_num_pr(num_pr)


def _read_num_pr(num_pr: Any) -> tuple[str | None, int]:
    if num_pr is None:
        return None, 0
    num_id = num_pr.find(f"{_W}numId")
    level = num_pr.find(f"{_W}ilvl")
    value = num_id.get(f"{_W}val") if num_id is not None else None
    return value, _int(level.get(f"{_W}val") if level is not None else None)


def _int(value: str | None, default: int = 0) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


@dataclass(frozen=True)
class _Style:
    name: str
    based_on: str | None
    outline: int | None  # 0-based outline level (a heading), if the style sets one
    num_id: str | None
    num_level: int


class _Styles:
    """Paragraph styles by id, read once from styles.xml (python-docx searches the styles
    linearly for each paragraph, most of the time a large document took)."""

    def __init__(self, styles: dict[str, _Style]) -> None:
        self._styles = styles

    @classmethod
    def of(cls, document: Any) -> _Styles:
        found: dict[str, _Style] = {}
        try:
            root = document.styles.element
        except (KeyError, AttributeError, NotImplementedError):  # no styles part
            return cls(found)
        for style in root.findall(f"{_W}style"):
            name = style.find(f"{_W}name")
            based = style.find(f"{_W}basedOn")
            outline = style.find(f"{_W}pPr/{_W}outlineLvl")
            num_id, num_level = _read_num_pr(style.find(f"{_W}pPr/{_W}numPr"))
            found[style.get(f"{_W}styleId", "")] = _Style(
                name=(name.get(f"{_W}val", "") if name is not None else "").strip(),
                based_on=based.get(f"{_W}val") if based is not None else None,
                outline=_int(outline.get(f"{_W}val")) if outline is not None else None,
                num_id=num_id,
                num_level=num_level,
            )
        return cls(found)

    def _chain(self, style_id: str | None) -> list[_Style]:
        chain: list[_Style] = []
        while style_id and style_id in self._styles and len(chain) < 10:
            style = self._styles[style_id]
            chain.append(style)
            style_id = style.based_on
        return chain

    def name(self, style_id: str | None) -> str:
        chain = self._chain(style_id)
        return chain[0].name if chain else ""

    def is_title(self, style_id: str | None) -> bool:
        return self.name(style_id).lower() == "title"

    def heading_level(self, style_id: str | None) -> int | None:
        """1-6 for a heading style, 0 for the Title style, None for other paragraphs."""
        for style in self._chain(style_id):
            if style.name.lower() == "title":
                return 0
            heading = _HEADING.match(style.name)
            if heading:
                return int(heading.group(1))
            if style.outline is not None and style.outline < 9:
                return style.outline + 1
        return None

    def numbering(self, style_id: str | None) -> tuple[str | None, int]:
        for style in self._chain(style_id):
            if style.num_id is not None:
                return style.num_id, style.num_level
        return None, 0


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
                levels[_int(lvl.get(f"{_W}ilvl"))] = (
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

    def item(self, num_id: str | None, level: int, style: str) -> tuple[int, int | None] | None:
        """(depth, number or None for a bullet) for a paragraph with this numbering and
        style name; None when it is not a list item."""
        styled = _LIST_STYLE.match(style)
        if num_id == "0" or (num_id is None and styled is None):
            return None  # numId 0 switches a style's numbering off for the paragraph
        if num_id is None and styled is not None:  # a list style without a numbering part
            ordered = styled.group(1).lower() == "number"
            level = _int(styled.group(2), 1) - 1
            num_id = f"style:{styled.group(1).lower()}"
        else:
            fmt = self._formats.get((num_id or "", level), "bullet")
            ordered = fmt not in {"bullet", "none"}
        level = max(0, min(level, 8))
        for key in [k for k in self._counters if k[0] == num_id and k[1] > level]:
            del self._counters[key]  # a shallower item restarts the deeper lists under it
        if not ordered:
            return level, None
        key = (num_id or "", level)
        self._counters[key] = self._counters.get(key, 0) + 1
        return level, self._counters[key]


def _table_rows(table: Any) -> list[list[str]]:
    """The table's grid: a cell spanning columns or merged down rows repeated."""
    rows: list[list[str]] = []
    merged_down: dict[int, str] = {}  # grid column -> text of the cell a vMerge continues
    for tr in table.iter(f"{_W}tr"):
        if tr.getparent() is not table:
            continue  # a row of a nested table: its text is its cell's
        before = tr.find(f"{_W}trPr/{_W}gridBefore")
        column = _int(before.get(f"{_W}val")) if before is not None else 0
        row = [""] * column
        for tc in tr.findall(f"{_W}tc"):
            span_node = tc.find(f"{_W}tcPr/{_W}gridSpan")
            span = max(
                1, min(_int(span_node.get(f"{_W}val"), 1) if span_node is not None else 1, 64)
            )
            vmerge = tc.find(f"{_W}tcPr/{_W}vMerge")
            text = " ".join(_cell_text(tc).split())
            if vmerge is not None and vmerge.get(f"{_W}val") != "restart":
                text = merged_down.get(column, text)
            else:
                for offset in range(span):
                    merged_down[column + offset] = text
            row += [text] * span
            column += span
        rows.append(row)
    return rows


def _cell_text(tc: Any) -> str:
    parts = []
    for child in tc:
        if child.tag == f"{_W}p":
            parts.append(_text(child))
        elif child.tag == f"{_W}tbl":
            parts += [" ".join(row) for row in _table_rows(child)]
        elif child.tag == f"{_W}sdt":
            parts.append(_text(child))
    return " ".join(part for part in parts if part.strip())
