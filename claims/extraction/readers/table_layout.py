"""How a table is laid out: header rows, the row-header column, group and total rows, and
which axis is time, which names entities and which names attributes.

    |                 | 2019   | 2018   |     <- column headers: years, so columns are time
    | Current assets  |        |        |     <- a group row: a label, no values
    | Cash            | 1,200  | 1,100  |     <- attribute "cash current assets"
    | Total current   | 3,400  | 3,000  |     <- a total row closes the group

Reports often state more header rows than a Markdown table has (a row of years under a
row "Years ended December 31", a row of "%" or "€m" under the years): leading body rows
whose label cell is empty and that hold no figure are header rows too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.documents.model import Table
from claims.extraction.readers.table_cells import read_cell, table_words
from claims.extraction.readers.table_phrases import clean_header, named_part, raw_words, read_phrase
from claims.models import EffectiveTime

_MODEL_CODE = re.compile(r"^(?=.*[a-z])(?=.*\d)[a-z0-9][a-z0-9\-./]*$", re.IGNORECASE)


@dataclass(frozen=True)
class TableLayout:
    grid: tuple[tuple[str, ...], ...]  # cell texts, "" where a row is short
    header_rows: int
    label_column: int | None  # the row-header column (0), None when the first column holds figures
    column_headers: tuple[str, ...]  # per column: its header rows' texts joined, spans filled
    corner: str  # the header over the row-header column ("Plan", "Model", "")
    groups: tuple[str | None, ...]  # per row: the group row label carried onto it
    group_rows: frozenset[int]
    column_times: tuple[EffectiveTime | None, ...]
    rows_are_time: bool  # the row-header column holds years or dates
    entity_rows: bool  # the row headers name things (plans, models): entity or scope

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def columns(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def value_columns(self) -> range:
        return range(0 if self.label_column is None else self.label_column + 1, self.columns)

    def body_rows(self) -> list[int]:
        return [r for r in range(self.header_rows, self.rows) if r not in self.group_rows]

    def label(self, row: int) -> str:
        return "" if self.label_column is None else self.grid[row][self.label_column]


def lay_out(table: Table) -> TableLayout:
    """The layout of ``table`` read from its cells alone (no surrounding text)."""
    grid = _grid(table)
    label_column = _label_column(grid, table.header_rows)
    header_rows = _header_rows(grid, table.header_rows, label_column)
    start = 0 if label_column is None else label_column + 1
    column_headers = _column_headers(grid, header_rows, start)
    corner = " ".join(
        grid[r][label_column] for r in range(header_rows) if label_column is not None
    ).strip()
    groups, group_rows = _groups(grid, header_rows, label_column)
    column_times = tuple(
        read_phrase(named_part(h)).time if c >= start and h else None
        for c, h in enumerate(column_headers)
    )
    rows_are_time = _rows_are_time(grid, header_rows, label_column)
    entity_rows = _entity_rows(grid, header_rows, label_column, corner, column_times, group_rows)
    return TableLayout(
        grid=grid,
        header_rows=header_rows,
        label_column=label_column,
        column_headers=column_headers,
        corner=corner,
        groups=groups,
        group_rows=group_rows,
        column_times=column_times,
        rows_are_time=rows_are_time and not entity_rows,
        entity_rows=entity_rows,
    )


def _grid(table: Table) -> tuple[tuple[str, ...], ...]:
    rows: list[list[str]] = [[""] * table.columns for _ in range(table.rows)]
    for cell in table.cells:
        if cell.row < table.rows and cell.column < table.columns:
            rows[cell.row][cell.column] = cell.text
    return tuple(tuple(r) for r in rows)


def _figure(text: str) -> bool:
    return read_cell(text) is not None


def _label_column(grid: tuple[tuple[str, ...], ...], header_rows: int) -> int | None:
    """Column 0 labels the rows unless most of its body cells are figures."""
    body = [row[0] for row in grid[header_rows:] if row and row[0].strip()]
    if not body:
        return 0
    figures = sum(1 for text in body if _figure(text))
    return None if figures * 2 > len(body) else 0


def _header_rows(grid: tuple[tuple[str, ...], ...], stated: int, label_column: int | None) -> int:
    """The stated header rows, and the rows after them up to the first row holding a
    figure: a row of years under "Years ended", a row of "%" or "€m", a row "(in millions)
    | 2019 | 2018". Rows with a label and no value just before the figures are group rows."""
    start = 0 if label_column is None else label_column + 1
    first = next(
        (r for r in range(stated, len(grid)) if any(_figure(t) for t in grid[r][start:])),
        None,
    )
    if first is None:
        return stated  # no figure at all: nothing to read, headers as stated
    count = first
    while count > stated:
        row = grid[count - 1]
        labelled = label_column is not None and row[label_column].strip()
        if not (labelled and not any(t.strip() for t in row[start:])):
            break
        count -= 1
    return count


def _column_headers(
    grid: tuple[tuple[str, ...], ...], header_rows: int, start: int
) -> tuple[str, ...]:
    """Each column's header texts, top to bottom. A header row with one text over several
    value columns ("Years ended December 31") heads them all; a text in a row above other
    header rows heads the empty cells to its right ("2019" over "Amount" and "%")."""
    columns = len(grid[0]) if grid else 0
    parts: list[list[str]] = [[] for _ in range(columns)]
    for r in range(header_rows):
        row = grid[r]
        for c in range(start):
            if row[c].strip():
                parts[c].append(row[c].strip())
        filled = [c for c in range(start, columns) if row[c].strip()]
        if len(filled) == 1 and columns - start > 1:
            for c in range(start, columns):
                parts[c].append(row[filled[0]].strip())
            continue
        current = ""
        spanning = r < header_rows - 1  # a row over another header row can span columns
        for c in range(start, columns):
            if row[c].strip() or not spanning:
                current = row[c].strip()
            if current:
                parts[c].append(current)
    return tuple(" ".join(p) for p in parts)


def _groups(
    grid: tuple[tuple[str, ...], ...], header_rows: int, label_column: int | None
) -> tuple[tuple[str | None, ...], frozenset[int]]:
    """The group label over each row and the group rows themselves. A group row has a
    label and no value; it heads the rows under it up to the next group row, or up to
    and including a total row ("Total current liabilities", "Net ...")."""
    groups: list[str | None] = [None] * len(grid)
    group_rows: set[int] = set()
    if label_column is None:
        return tuple(groups), frozenset()
    totals = table_words().total_words
    current: str | None = None
    for r in range(header_rows, len(grid)):
        row = grid[r]
        label = row[label_column].strip()
        values = [t for c, t in enumerate(row) if c != label_column]
        if label and not any(t.strip() for t in values):
            group_rows.add(r)
            current = clean_header(label) or None
            continue
        groups[r] = current
        words = raw_words(label)
        if words and (words[0] in totals or " ".join(words[:2]) in totals):
            current = None
    return tuple(groups), frozenset(group_rows)


def _rows_are_time(
    grid: tuple[tuple[str, ...], ...], header_rows: int, label_column: int | None
) -> bool:
    """The row headers are years or dates ("| 2019 | 1,200 |"): each row is a time."""
    if label_column is None:
        return False
    labels = [row[label_column] for row in grid[header_rows:] if row[label_column].strip()]
    if len(labels) < 2:
        return False
    timed = sum(1 for label in labels if _is_time(label))
    return timed * 2 > len(labels)


def _is_time(label: str) -> bool:
    """A header that is a time and nothing else ("2019", "FY2020", "31 March 2021")."""
    reading = read_phrase(label)
    if reading.time is None:
        return False
    stated = set(raw_words(reading.time.text or ""))
    return all(w in stated or w in table_words().time_words for w in reading.words)


def _entity_rows(
    grid: tuple[tuple[str, ...], ...],
    header_rows: int,
    label_column: int | None,
    corner: str,
    column_times: tuple[EffectiveTime | None, ...],
    group_rows: frozenset[int],
) -> bool:
    """The row headers name things (entity or scope), not attributes: the corner header is
    a kind of thing ("Plan", "Model"), or, in a table without time columns or groups, most
    row headers are model codes ("P-200", "X1")."""
    if label_column is None:
        return False
    corner_words = raw_words(named_part(corner))
    if 0 < len(corner_words) <= 2 and set(corner_words) & table_words().entity_kinds:
        return True  # "Plan", "Model", "Product name"; not "Employee stock purchase plan"
    if any(t is not None for t in column_times) or group_rows:
        return False
    labels = [row[label_column].strip() for row in grid[header_rows:] if row[label_column].strip()]
    codes = sum(1 for label in labels if any(_MODEL_CODE.match(w) for w in label.split()))
    return bool(labels) and codes * 2 > len(labels)
