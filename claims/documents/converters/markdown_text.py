"""Writing the team's Markdown-flavoured text, the one form every converter renders into.

- ``# Title`` headings by level; ``- item`` / ``1. item`` list items, two spaces of
  indentation per nesting level;
- pipe tables with one header row and a separator row (``|---|``), ``|`` in a cell written
  ``\\|``, line breaks in a cell as spaces;
- paragraphs separated by one blank line, a PDF page break as a line holding only ``\\f``;
- a line of ordinary text that would read as markup (``# of units``, ``- 5 days``,
  ``1. ...``, ``> ...``, ``| ...``) gets a backslash: ``\\# of units``, ``\\- 5 days``,
  ``1\\. ...`` (CommonMark's escapes, so a Markdown viewer shows the same text).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

PAGE_BREAK = "\f"
# markup a line of ordinary text must not start with
_MARKER = re.compile(r"^(#|[-*+](?=\s|$)|>|\||`{3}|~{3}|[=_]{2,}\s*$|[-*](?:\s*[-*]){2,}\s*$)")
_ORDERED = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
_SPACES = re.compile(r"[ \t\u00a0]+")


def escape_line(line: str) -> str:
    """``line`` with a backslash before markup at its start (the rest is left alone)."""
    stripped = line.lstrip()
    lead = line[: len(line) - len(stripped)]
    if _MARKER.match(stripped) or stripped.startswith("\f"):
        return f"{lead}\\{stripped}"
    ordered = _ORDERED.match(stripped)
    if ordered:
        cut = ordered.end(1)
        return f"{lead}{stripped[:cut]}\\{stripped[cut:]}"
    return line


def tidy(text: str) -> str:
    """Runs of spaces and tabs as one space, no space at either end."""
    return _SPACES.sub(" ", text).strip()


def cell_text(text: str) -> str:
    """One table cell on one line: breaks become spaces, pipes are escaped."""
    return tidy(text.replace("\r", " ").replace("\n", " ")).replace("|", "\\|")


class MarkdownWriter:
    """Blocks in document order, rendered as the team's Markdown-flavoured text."""

    def __init__(self) -> None:
        self._blocks: list[str] = []
        self._list_open = False  # the last block is a list still taking items

    def _add(self, block: str) -> None:
        self._blocks.append(block)
        self._list_open = False

    def heading(self, level: int, text: str) -> None:
        text = tidy(text.replace("\n", " "))
        if text:
            self._add(f"{'#' * max(1, min(level, 6))} {text}")

    def paragraph(self, text: str) -> None:
        """A paragraph; its own line breaks are kept, each line escaped."""
        lines = [tidy(line) for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
        kept = [escape_line(line) for line in lines if line]
        if kept:
            self._add("\n".join(kept))

    def list_item(self, text: str, depth: int = 0, number: int | None = None) -> None:
        """One item: ``- text`` (``number`` None) or ``3. text``; ``depth`` 0 is top level.

        Consecutive items of one list are written without a blank line between them.
        """
        lines = [tidy(line) for line in text.replace("\r", "\n").split("\n")]
        lines = [line for line in lines if line]
        if not lines:
            return
        marker = "- " if number is None else f"{number}. "
        indent = "  " * max(depth, 0)
        first = f"{indent}{marker}{escape_line(lines[0])}"
        rest = [f"{indent}{' ' * len(marker)}{escape_line(line)}" for line in lines[1:]]
        item = "\n".join([first, *rest])
        if self._list_open:
            self._blocks[-1] += "\n" + item
        else:
            self._blocks.append(item)
            self._list_open = True

    def end_list(self) -> None:
        """The next item starts a new list (two lists in a row stay two blocks)."""
        self._list_open = False

    def table(self, rows: Sequence[Sequence[str]], header_rows: int = 1) -> None:
        """A pipe table; its first ``header_rows`` rows (at least one) are header rows,
        written above the separator row. Rows are padded to one width."""
        cleaned = [[cell_text(cell) for cell in row] for row in rows]
        cleaned = [row for row in cleaned if any(row)]
        if not cleaned:
            return
        width = max(len(row) for row in cleaned)
        if width == 0:
            return
        padded = [row + [""] * (width - len(row)) for row in cleaned]
        heads = max(1, min(header_rows, len(padded)))
        lines = [_pipe_row(row) for row in padded[:heads]]
        lines.append("|" + "---|" * width)
        lines.extend(_pipe_row(row) for row in padded[heads:])
        self._add("\n".join(lines))

    def table_continued(self, rows: Sequence[Sequence[str]]) -> bool:
        """More body rows of the table written last, after a page break (a table that runs
        onto the next page stays one table; the form feed opens its first row there).
        False, and nothing written, when the last block is no table of that width."""
        cleaned = [[cell_text(cell) for cell in row] for row in rows]
        cleaned = [row for row in cleaned if any(row)]
        last = self._blocks[-1] if self._blocks else ""
        width = last.split("\n", 1)[0].count(" | ") + 1 if last.startswith("| ") else 0
        if not cleaned or not width or max(len(row) for row in cleaned) > width:
            return False
        padded = [row + [""] * (width - len(row)) for row in cleaned]
        lines = [_pipe_row(row) for row in padded]
        self._blocks[-1] += "\n" + PAGE_BREAK + "\n".join(lines)
        return True

    def page_break(self) -> None:
        self._add(PAGE_BREAK)

    def text(self) -> str:
        """The rendered text, ending with one newline (empty when nothing was written)."""
        blocks = list(self._blocks)  # every page break kept: page numbers count them
        return "\n\n".join(blocks) + "\n" if blocks else ""


def _pipe_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
