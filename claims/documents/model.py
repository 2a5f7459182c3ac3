"""One document model for every format a source can be written in.

A converter (``.docx``, ``.pdf``, ``.html``, ``.md``, ``.txt``) turns a file's bytes into a
``Document``: the plain text that claims' character offsets point into, plus typed blocks
(headings with their level, paragraphs, list items, label lines, questions and answers,
tables with their cells, captions and notes), each with offsets into that text and a
``Locator`` a reviewer can follow back into the original file. Converters only build this
model; readers only consume it, so a new format touches one converter and no reader.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class BlockKind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    LABEL_LINE = "label_line"  # "Annual leave: 25 days"
    QUESTION = "question"  # a FAQ question; the answer blocks after it inherit its subject
    TABLE = "table"
    CAPTION = "caption"  # a table's or figure's caption, or a note such as "(in millions)"


@dataclass(frozen=True)
class Locator:
    """Where a block (or a claim read from it) stands in the original file.

    Every field is optional: a Markdown file has no pages, a paragraph has no table cell.
    ``heading_path`` is the titles of the sections around the block, outermost first.
    """

    page: int | None = None
    heading_path: tuple[str, ...] = ()
    paragraph: int | None = None  # 1-based, in document order over paragraph-like blocks
    list_item: int | None = None  # 1-based within its list
    table: int | None = None  # 1-based, in document order
    row: int | None = None  # 0-based row of the table (header rows included)
    column: int | None = None  # 0-based column
    row_header: str | None = None
    column_header: str | None = None

    def describe(self) -> str:
        """A short human path: ``p. 3 > Leave > table 1, row 4 (Revenue), column 2 (2019)``."""
        parts: list[str] = []
        if self.page is not None:
            parts.append(f"p. {self.page}")
        parts.extend(self.heading_path)
        if self.table is not None:
            cell = f"table {self.table}"
            if self.row is not None:
                cell += f", row {self.row}" + (f" ({self.row_header})" if self.row_header else "")
            if self.column is not None:
                cell += f", column {self.column}" + (
                    f" ({self.column_header})" if self.column_header else ""
                )
            parts.append(cell)
        elif self.list_item is not None:
            parts.append(f"item {self.list_item}")
        elif self.paragraph is not None:
            parts.append(f"paragraph {self.paragraph}")
        return " > ".join(parts)

    def to_dict(self) -> dict[str, object]:
        """Only the fields that are set (JSON-ready; ``heading_path`` as a list)."""
        out: dict[str, object] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if value is None or value == ():
                continue
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Locator:
        values = dict(data)
        if "heading_path" in values:
            values["heading_path"] = tuple(values["heading_path"])  # type: ignore[arg-type]
        return cls(**values)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TableCell:
    """One cell; ``start``/``end`` are offsets of its text in ``Document.text``."""

    row: int
    column: int
    text: str
    start: int
    end: int
    header: bool = False  # a header cell (a header row, or a th in HTML)


@dataclass(frozen=True)
class Table:
    cells: tuple[TableCell, ...]
    rows: int
    columns: int
    header_rows: int = 1  # how many leading rows are column headers
    caption: str | None = None  # caption or note above/below the table ("(in millions)")

    def cell(self, row: int, column: int) -> TableCell | None:
        for cell in self.cells:
            if cell.row == row and cell.column == column:
                return cell
        return None

    def row_cells(self, row: int) -> list[TableCell]:
        return sorted((c for c in self.cells if c.row == row), key=lambda c: c.column)


@dataclass(frozen=True)
class Block:
    """A unit of the document: its kind, where its text is, and where it stands."""

    kind: BlockKind
    start: int
    end: int
    locator: Locator = field(default_factory=Locator)
    level: int | None = None  # headings: 1 for a title, 2 for a section...
    label: str | None = None  # label lines: the label ("Annual leave"); value after it
    table: Table | None = None


@dataclass(frozen=True)
class Document:
    """A converted source version: the text offsets point into, and its blocks in order."""

    text: str
    blocks: tuple[Block, ...]
    media_type: str
    converter: str  # e.g. "python-docx", "pypdfium2", "markdown-it-py", "text"
    converter_version: str
    title: str | None = None  # the document's own title (metadata or first heading), if any

    def block_text(self, block: Block) -> str:
        return self.text[block.start : block.end]
