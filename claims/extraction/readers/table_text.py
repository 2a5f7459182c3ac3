"""Pipe tables found in plain or Markdown text, for the sentence path of ``extract``.

Until the structure reader builds every Document, ``extract`` finds the Markdown pipe
tables of a text here, reads them with the table reader, and hides their lines from the
sentence reader (blanked to spaces, offsets kept) so a table is never read as one long
"sentence" of pipes and header words.
"""

from __future__ import annotations

import re

from claims.documents.model import Block, BlockKind, Document, Locator
from claims.documents.pipe_tables import is_separator_row, parse_pipe_table

# a pipe table's separator row somewhere in the text: one regex pass before any line loop
_SEPARATOR_LINE = re.compile(r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*\|[ \t:|-]*$", re.MULTILINE)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")


def _lines(text: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    pos = 0
    while pos <= len(text):
        nl = text.find("\n", pos)
        end = len(text) if nl < 0 else nl
        out.append((pos, end))
        if nl < 0:
            break
        pos = nl + 1
    return out


def table_document(text: str, title: str | None = None) -> Document | None:
    """A Document holding the text's headings, the paragraph before each pipe table and
    the tables, or None when the text has no pipe table (the common case, checked first)."""
    if "|" not in text or _SEPARATOR_LINE.search(text) is None:
        return None
    lines = _lines(text)
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []
    paragraph: tuple[int, int] | None = None
    tables = 0
    i = 0
    while i < len(lines):
        a, b = lines[i]
        line = text[a:b]
        if line.lstrip().startswith("|") and i + 1 < len(lines):
            j = i
            while j < len(lines) and text[lines[j][0] : lines[j][1]].lstrip().startswith("|"):
                j += 1
            second = text[lines[i + 1][0] : lines[i + 1][1]]
            table = parse_pipe_table(text, a, lines[j - 1][1]) if is_separator_row(second) else None
            if table is not None:
                tables += 1
                heading_path = tuple(t for _, t in path)
                if paragraph is not None:
                    blocks.append(_block(BlockKind.PARAGRAPH, paragraph, heading_path))
                locator = Locator(heading_path=heading_path, table=tables)
                blocks.append(Block(BlockKind.TABLE, a, lines[j - 1][1], locator, table=table))
                paragraph = None
                i = j
                continue
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            path = [(lv, t) for lv, t in path if lv < level] + [(level, heading.group(2))]
            title = title or (heading.group(2) if level == 1 else None)
            paragraph = None
        elif not line.strip():
            pass
        elif paragraph is not None and paragraph[1] + 1 == a:
            paragraph = (paragraph[0], b)
        else:
            paragraph = (a, b)
        i += 1
    if not tables:
        return None
    return Document(text, tuple(blocks), "text/markdown", "pipe-tables", "1", title=title)


def _block(kind: BlockKind, span: tuple[int, int], heading_path: tuple[str, ...]) -> Block:
    return Block(kind, span[0], span[1], Locator(heading_path=heading_path))


def blank_tables(text: str, document: Document) -> str:
    """``text`` with every table's characters but its line breaks turned into spaces."""
    chars = list(text)
    for block in document.blocks:
        if block.kind == BlockKind.TABLE:
            for k in range(block.start, block.end):
                if chars[k] != "\n":
                    chars[k] = " "
    return "".join(chars)
