"""Pipe tables read into cells whose offsets quote the document itself."""

from __future__ import annotations

from claims.documents.pipe_tables import parse_pipe_table

PRICE_LIST = (
    "Prices for the coming year.\n"
    "| Plan | Monthly price | Seats |\n"
    "|------|:-------------:|------:|\n"
    "| Basic | $9 | 1 |\n"
    "| Team \\| annual | $29 |  |\n"
)


def _table():
    start = PRICE_LIST.index("|")
    return parse_pipe_table(PRICE_LIST, start, len(PRICE_LIST))


def test_cells_point_into_the_text_and_headers_are_marked() -> None:
    table = _table()
    assert table is not None
    assert (table.rows, table.columns, table.header_rows) == (3, 3, 1)
    for cell in table.cells:
        if cell.text and "\\|" not in PRICE_LIST[cell.start : cell.end]:
            assert PRICE_LIST[cell.start : cell.end] == cell.text
    assert [c.text for c in table.row_cells(0)] == ["Plan", "Monthly price", "Seats"]
    assert all(c.header for c in table.row_cells(0))
    assert not any(c.header for c in table.row_cells(1))


def test_an_escaped_bar_stays_inside_its_cell_and_an_empty_cell_is_kept() -> None:
    table = _table()
    assert table is not None
    assert [c.text for c in table.row_cells(2)] == ["Team | annual", "$29", ""]


def test_lines_without_a_separator_row_are_no_table() -> None:
    text = "| just | bars |\n| and | more |\n"
    assert parse_pipe_table(text, 0, len(text)) is None
