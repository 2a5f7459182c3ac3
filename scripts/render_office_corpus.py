"""Render the office corpus's Word, PDF and HTML documents from their Markdown sources.

    python scripts/render_office_corpus.py [--out DIR]

``samples/office/sources/*.md`` hold the words of the documents that the corpus ships as
``.docx``, ``.pdf`` or ``.html`` (``FORMATS`` says which); this script writes them into
``samples/office/corpus/`` the way an office suite or an intranet would: real Word headings,
bullets and tables (python-docx), a PDF with ruled tables and page text (fpdf2), and plain
HTML. It reads only a small Markdown subset: ``#`` headings, paragraphs, ``- `` items and
pipe tables.
"""

from __future__ import annotations

import argparse
import html
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OFFICE = REPO / "samples" / "office"

FORMATS = {
    "benefits-guide-2025": "docx",
    "datasheet-p300": "docx",
    "board-summary-fy2025": "docx",
    "travel-policy-2024": "docx",
    "datasheet-p200": "pdf",
    "annual-report-fy2025": "pdf",
    "travel-policy-2023": "pdf",
    "warehouse-safety": "pdf",
    "hr-faq": "html",
    "price-list-2025": "html",
    "leeds-site-terms": "html",
    "it-security-standard": "html",
    "support-sla": "html",
}


@dataclass
class Part:
    kind: str  # heading, paragraph, items, table
    level: int = 0
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)


def parse(markdown: str) -> list[Part]:
    """The headings, paragraphs, bullet lists and tables of a small Markdown file."""
    parts: list[Part] = []
    for chunk in markdown.strip().split("\n\n"):
        lines = chunk.strip().splitlines()
        if lines[0].startswith("#"):
            marks = len(lines[0]) - len(lines[0].lstrip("#"))
            parts.append(Part("heading", marks, lines[0][marks:].strip()))
        elif lines[0].startswith("|"):
            rows = [
                [cell.strip() for cell in line.strip().strip("|").split("|")]
                for line in lines
                if not set(line.replace("|", "").strip()) <= set("-: ")
            ]
            parts.append(Part("table", rows=rows))
        elif lines[0].startswith("- "):
            parts.append(Part("items", rows=[[line[2:].strip()] for line in lines]))
        else:
            parts.append(Part("paragraph", text=" ".join(line.strip() for line in lines)))
    return parts


def to_docx(parts: list[Part], out: Path) -> None:
    import docx

    document = docx.Document()
    for part in parts:
        if part.kind == "heading":
            document.add_heading(part.text, level=min(part.level - 1, 3) if part.level > 1 else 0)
        elif part.kind == "paragraph":
            document.add_paragraph(part.text)
        elif part.kind == "items":
            for (item,) in part.rows:
                document.add_paragraph(item, style="List Bullet")
        else:
            table = document.add_table(rows=len(part.rows), cols=len(part.rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(part.rows):
                for c, text in enumerate(row):
                    table.cell(r, c).text = text
    document.core_properties.author = "Brightwater Instruments"
    document.save(str(out))


def to_pdf(parts: list[Part], out: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_author("Brightwater Instruments")
    pdf.set_creation_date(datetime(2025, 1, 1, tzinfo=UTC))  # the same bytes on every render
    pdf.add_page()
    for part in parts:
        if part.kind == "heading":
            pdf.set_font("Helvetica", "B", 18 if part.level == 1 else 14)
            pdf.multi_cell(0, 9, part.text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
        elif part.kind == "paragraph":
            pdf.set_font("Helvetica", "", 11)
            pdf.multi_cell(0, 6, part.text, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        elif part.kind == "items":
            pdf.set_font("Helvetica", "", 11)
            for (item,) in part.rows:
                pdf.multi_cell(0, 6, f"- {item}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        else:
            pdf.set_font("Helvetica", "", 10)
            with pdf.table(first_row_as_headings=True) as table:
                for row in part.rows:
                    cells = table.row()
                    for text in row:
                        cells.cell(text)
            pdf.ln(4)
    pdf.output(str(out))


def to_html(parts: list[Part], title: str) -> str:
    body: list[str] = []
    for part in parts:
        if part.kind == "heading":
            body.append(f"<h{part.level}>{html.escape(part.text)}</h{part.level}>")
        elif part.kind == "paragraph":
            body.append(f"<p>{html.escape(part.text)}</p>")
        elif part.kind == "items":
            items = "".join(f"<li>{html.escape(item)}</li>" for (item,) in part.rows)
            body.append(f"<ul>{items}</ul>")
        else:
            head = "".join(f"<th>{html.escape(t)}</th>" for t in part.rows[0])
            rows = "".join(
                "<tr>" + "".join(f"<td>{html.escape(t)}</td>" for t in row) + "</tr>"
                for row in part.rows[1:]
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title></head>\n<body>\n"
        + "\n".join(body)
        + "\n<footer><p>Intranet page maintained by Brightwater Instruments.</p></footer>"
        + "\n</body></html>\n"
    )


def render(stem: str, out_dir: Path) -> Path:
    parts = parse((OFFICE / "sources" / f"{stem}.md").read_text(encoding="utf-8"))
    kind = FORMATS[stem]
    out = out_dir / f"{stem}.{kind}"
    if kind == "docx":
        to_docx(parts, out)
    elif kind == "pdf":
        to_pdf(parts, out)
    else:
        title = next((p.text for p in parts if p.kind == "heading"), stem)
        out.write_text(to_html(parts, title), encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OFFICE / "corpus")
    args = parser.parse_args(argv)
    sources = {p.stem for p in (OFFICE / "sources").glob("*.md")}
    missing = sorted(sources ^ set(FORMATS))
    if missing:
        print(f"sources and FORMATS disagree on: {', '.join(missing)}", file=sys.stderr)
        return 2
    for stem in sorted(FORMATS):
        print(render(stem, args.out).relative_to(REPO) if args.out.is_relative_to(REPO) else stem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
