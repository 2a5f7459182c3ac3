"""Markdown pipe tables (the form every converter renders tables in) read into ``Table``.

    | Plan  | Monthly price | Seats |
    |-------|---------------|-------|
    | Basic | $9            | 1     |

A run of lines that start with ``|`` is a table when its second line is a separator row
(dashes, colons, pipes). Cells keep exact offsets into the text, so a claim read from a
cell quotes the document itself. Rows before the separator are header rows.
"""

from __future__ import annotations

import re

from claims.documents.model import Table, TableCell

_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)*\|?\s*$")


def is_separator_row(line: str) -> bool:
    return bool(_SEPARATOR.match(line)) and "-" in line


def _row_cells(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """The cells of one row line ``text[start:end]``: (stripped text, start, end)."""
    line = text[start:end]
    body_start = line.index("|") + 1 if line.lstrip().startswith("|") else 0
    body_end = line.rstrip().rfind("|")
    if body_end < body_start:
        body_end = len(line.rstrip())
    cells: list[tuple[str, int, int]] = []
    pos = body_start
    while pos <= body_end:
        bar = _next_bar(line, pos, body_end)
        raw = line[pos:bar]
        lead = len(raw) - len(raw.lstrip())
        stripped = raw.strip()
        cell_start = start + pos + lead
        cells.append((stripped.replace("\\|", "|"), cell_start, cell_start + len(stripped)))
        pos = bar + 1
        if bar >= body_end:
            break
    return cells


def _next_bar(line: str, pos: int, limit: int) -> int:
    """The next unescaped ``|`` at or after ``pos`` (``limit`` when none is left)."""
    while pos < limit:
        if line[pos] == "\\" and pos + 1 < limit:
            pos += 2
            continue
        if line[pos] == "|":
            return pos
        pos += 1
    return limit


def parse_pipe_table(text: str, start: int, end: int, caption: str | None = None) -> Table | None:
    """The table written in ``text[start:end]`` (whole lines), or None when it is not one."""
    lines: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        line_end = end if nl < 0 else nl
        if text[pos:line_end].strip():
            lines.append((pos, line_end))
        pos = line_end + 1
    separators = [i for i, (a, b) in enumerate(lines) if is_separator_row(text[a:b])]
    if len(lines) < 2 or not separators or separators[0] == 0:
        return None
    header_rows = separators[0]
    cells: list[TableCell] = []
    row = 0
    columns = 0
    for i, (a, b) in enumerate(lines):
        if i in separators:
            continue
        row_cells = _row_cells(text, a, b)
        columns = max(columns, len(row_cells))
        for column, (cell_text, c_start, c_end) in enumerate(row_cells):
            cells.append(TableCell(row, column, cell_text, c_start, c_end, header=i < header_rows))
        row += 1
    return Table(tuple(cells), rows=row, columns=columns, header_rows=header_rows, caption=caption)
