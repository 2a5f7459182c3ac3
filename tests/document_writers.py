"""One small report written the way the tests need it: as .md, .html, .docx and .pdf.

A report is a list of blocks: ``("heading", level, text)``, ``("paragraph", text)``,
``("items", [text, ...])``, ``("table", [[cell, ...], ...])`` (first row: header) and
``("page",)`` (a page break; PDF only). The writers use python-docx and fpdf2 (the dev
extra), so the converters are tested on files real libraries wrote, never on fixtures
copied from elsewhere.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

Block = tuple[Any, ...]


def markdown(report: Sequence[Block]) -> str:
    parts: list[str] = []
    for block in report:
        kind = block[0]
        if kind == "heading":
            parts.append(f"{'#' * block[1]} {block[2]}")
        elif kind == "paragraph":
            text = block[1]
            parts.append("\\" + text if text[:1] in "#->" else text)
        elif kind == "items":
            parts.append("\n".join(f"- {item}" for item in block[1]))
        elif kind == "table":
            rows = block[1]
            lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
            lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def html_page(report: Sequence[Block]) -> str:
    body: list[str] = []
    for block in report:
        kind = block[0]
        if kind == "heading":
            body.append(f"<h{block[1]}>{html.escape(block[2])}</h{block[1]}>")
        elif kind == "paragraph":
            body.append(f"<p>{html.escape(block[1])}</p>")
        elif kind == "items":
            items = "".join(f"<li>{html.escape(item)}</li>" for item in block[1])
            body.append(f"<ul>{items}</ul>")
        elif kind == "table":
            head, *rows = block[1]
            th = "".join(f"<th>{html.escape(c)}</th>" for c in head)
            trs = "".join(
                "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
                for row in rows
            )
            body.append(f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table>")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Report</title>'
        "<style>p { margin: 0 }</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def docx_bytes(report: Sequence[Block]) -> bytes:
    import docx

    document = docx.Document()
    for block in report:
        kind = block[0]
        if kind == "heading":
            document.add_heading(block[2], block[1])
        elif kind == "paragraph":
            document.add_paragraph(block[1])
        elif kind == "items":
            for item in block[1]:
                document.add_paragraph(item, style="List Bullet")
        elif kind == "table":
            rows = block[1]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
        elif kind == "page":
            document.add_page_break()
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@dataclass(frozen=True)
class PdfLayout:
    """How ``pdf_bytes`` sets a report on its pages. The defaults are the one layout the
    writer always had: A4 portrait, 11 pt body text, a ruled table of equal columns, cells
    justified and centred on their row, a table's header row drawn again on each page."""

    page: str | tuple[float, float] = "A4"  # an fpdf2 page name, or (width, height) in mm
    orientation: str = "P"  # "L": landscape
    size: float = 11.0  # body text, points (headings and line heights scale with it)
    rules: str = "ALL"  # fpdf2's borders_layout: "NONE", "HORIZONTAL_LINES" draw no columns
    first_column: float | None = None  # the first column's share of the table's width
    align_numbers: bool = False  # the columns after the first set flush right
    v_align: str = "MIDDLE"  # "TOP": cells set at their row's top, as Word sets them
    table_low: bool = False  # the table starts near the foot of a page: it breaks across
    repeat_headings: int = 1  # 0: the header row is not drawn again on the next page
    footnote: bool = False  # the paragraph right after a table set small under it


PDF_LAYOUTS: dict[str, PdfLayout] = {
    "default": PdfLayout(),
    "narrow-page": PdfLayout(page=(130.0, 260.0)),
    "wide-page": PdfLayout(page=(300.0, 297.0)),
    "landscape": PdfLayout(orientation="L"),
    "small-font": PdfLayout(size=8.0),
    "large-font": PdfLayout(size=14.0),
    "table-across-pages": PdfLayout(table_low=True),
    "table-across-pages-no-header": PdfLayout(table_low=True, repeat_headings=0),
    "narrow-first-column": PdfLayout(first_column=0.12),
    "long-headers-wrap": PdfLayout(page=(150.0, 260.0), first_column=0.5),
    "footnote-under-table": PdfLayout(footnote=True),
    "numbers-wrap": PdfLayout(page=(110.0, 260.0), first_column=0.45, size=10.0),
    "numbers-right-top": PdfLayout(align_numbers=True, v_align="TOP"),
    "no-column-rules": PdfLayout(rules="HORIZONTAL_LINES", align_numbers=True),
    "no-rules": PdfLayout(rules="NONE", align_numbers=True),
}
"""Layouts a report is set in to test that a PDF reads as its Markdown file whatever the
page, font and table look like; ``two_tables`` makes the report's own shape differ."""


def two_tables(report: Sequence[Block]) -> list[Block]:
    """The report with each table of four or more rows set as two tables on one page, the
    header row above each (a report that splits a long table, in every format)."""
    out: list[Block] = []
    for block in report:
        if block[0] == "table" and len(block[1]) >= 4:
            head, *rows = block[1]
            half = (len(rows) + 1) // 2
            out += [("table", [head, *rows[:half]]), ("table", [head, *rows[half:]])]
        else:
            out.append(block)
    return out


def pdf_bytes(
    report: Sequence[Block],
    *,
    encrypt_with: str | None = None,
    table_rules: str | None = None,
    font: str | None = None,
    layout: PdfLayout | None = None,
) -> bytes:
    """``table_rules``: fpdf2's ``borders_layout`` ("ALL": a ruled grid; "NONE",
    "HORIZONTAL_LINES": tables drawn without column rules, as financial statements are),
    over the layout's. ``font``: a TrueType file for text beyond Latin-1 (curly quotes,
    dashes, the euro sign); the default is the PDF's core Helvetica. ``layout``: the page,
    font and table look (``PDF_LAYOUTS``; default ``PdfLayout()``)."""
    from fpdf import FPDF

    layout = layout or PdfLayout()
    if table_rules is not None:
        layout = replace(layout, rules=table_rules)
    pdf = FPDF(orientation=layout.orientation, format=layout.page)
    pdf.add_page()
    family = "Helvetica"
    if font is not None:
        family = "Body"
        pdf.add_font(family, "", font)
        pdf.add_font(family, "B", font)
    scale = layout.size / 11.0
    body, line = layout.size, 6 * scale
    sizes = {1: 20 * scale, 2: 15 * scale, 3: 13 * scale}
    after_table = False
    for block in report:
        kind = block[0]
        if kind == "heading":
            pdf.set_font(family, "B", sizes.get(block[1], 12 * scale))
            pdf.ln(2 * scale)
            pdf.multi_cell(0, 9 * scale, block[2], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2 * scale)
        elif kind == "paragraph" and after_table and layout.footnote:
            pdf.set_font(family, "", 0.7 * body)
            pdf.multi_cell(0, 0.7 * line, block[1], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4 * scale)
        elif kind == "paragraph":
            pdf.set_font(family, "", body)
            pdf.multi_cell(0, line, block[1], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4 * scale)
        elif kind == "items":
            pdf.set_font(family, "", body)
            for item in block[1]:
                pdf.multi_cell(0, line, f"- {item}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4 * scale)
        elif kind == "table":
            pdf.set_font(family, "", body)
            _pdf_table(pdf, block[1], layout)
            pdf.ln(1 if layout.footnote else 4 * scale)
        elif kind == "page":
            pdf.add_page()
        after_table = kind == "table"
    if encrypt_with is not None:
        pdf.set_encryption(owner_password=encrypt_with, user_password=encrypt_with)
    return bytes(pdf.output())


def _pdf_table(pdf: Any, rows: Sequence[Sequence[str]], layout: PdfLayout) -> None:
    columns = max(len(row) for row in rows)
    options: dict[str, Any] = {
        "borders_layout": layout.rules,
        "v_align": layout.v_align,
        "repeat_headings": layout.repeat_headings,
    }
    if layout.first_column is not None and columns > 1:
        rest = (1 - layout.first_column) / (columns - 1)
        options["col_widths"] = (layout.first_column, *([rest] * (columns - 1)))
    if layout.align_numbers:
        options["text_align"] = ("LEFT", *(["RIGHT"] * (columns - 1)))
    if layout.table_low:  # room for about six lines of cells above the foot of the page
        pdf.set_y(max(pdf.get_y(), pdf.h - pdf.b_margin - 6 * 2 * pdf.font_size))
    with pdf.table(**options) as table:
        for row in rows:
            cells = table.row()
            for value in row:
                cells.cell(value)


def image_only_pdf() -> bytes:
    """A one-page PDF holding an image and no text: what a scanner without OCR makes."""
    from fpdf import FPDF
    from PIL import Image, ImageDraw

    scan = Image.new("L", (400, 200), color=255)
    draw = ImageDraw.Draw(scan)
    for row in range(8):
        draw.rectangle((20, 20 + row * 20, 380 - row * 30, 30 + row * 20), fill=30)
    pdf = FPDF()
    pdf.add_page()
    pdf.image(scan, x=10, y=10, w=190)
    return bytes(pdf.output())
