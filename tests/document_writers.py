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


def pdf_bytes(
    report: Sequence[Block],
    *,
    encrypt_with: str | None = None,
    table_rules: str = "ALL",
    font: str | None = None,
) -> bytes:
    """``table_rules``: fpdf2's ``borders_layout`` ("ALL": a ruled grid; "NONE",
    "HORIZONTAL_LINES": tables drawn without column rules, as financial statements are).
    ``font``: a TrueType file for text beyond Latin-1 (curly quotes, dashes, the euro
    sign); the default is the PDF's core Helvetica."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    family = "Helvetica"
    if font is not None:
        family = "Body"
        pdf.add_font(family, "", font)
        pdf.add_font(family, "B", font)
    sizes = {1: 20, 2: 15, 3: 13}
    for block in report:
        kind = block[0]
        if kind == "heading":
            pdf.set_font(family, "B", sizes.get(block[1], 12))
            pdf.ln(2)
            pdf.multi_cell(0, 9, block[2], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif kind == "paragraph":
            pdf.set_font(family, "", 11)
            pdf.multi_cell(0, 6, block[1], new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        elif kind == "items":
            pdf.set_font(family, "", 11)
            for item in block[1]:
                pdf.multi_cell(0, 6, f"- {item}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(4)
        elif kind == "table":
            pdf.set_font(family, "", 11)
            with pdf.table(borders_layout=table_rules) as table:
                for row in block[1]:
                    cells = table.row()
                    for value in row:
                        cells.cell(value)
            pdf.ln(4)
        elif kind == "page":
            pdf.add_page()
    if encrypt_with is not None:
        pdf.set_encryption(owner_password=encrypt_with, user_password=encrypt_with)
    return bytes(pdf.output())


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
