"""PDF page layouts that read a report apart from its Markdown file (session 19 classes).

Each report is ours, set at test time by fpdf2 in one of the writer's layouts
(``document_writers.PDF_LAYOUTS``); the Markdown file is the reference, and the PDF must
give the same claims (key, value, unit, time, scope) and no conflict or ambiguous edge:

- a figure or a word broken inside a narrow ruled cell (``$7,318.`` / ``4``,
  ``Decem`` / ``ber``) is one figure or word: the line left no room for the next line's
  first character, measured by the glyphs' advance, not their ink;
- a paragraph going on at the top of the next page after a full page, its next word
  capitalised (``... the rent for these`` / ``Depots was ...``), is one paragraph;
- a page break right before a note's number (``Note`` / ``12 - Leases``) leaves it no
  figure: the form feed alone stands between the words;
- a ruled table's last row, alone at the top of the next page, is a row of the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from document_writers import PDF_LAYOUTS, PdfLayout, markdown, pdf_bytes

from claims.check import check_claims, text_version_id
from claims.documents.converters import convert
from claims.documents.converters.markdown_text import PAGE_BREAK
from claims.extraction import current_generation, extract
from claims.models import Claim, Relation


def _facts(claims: list[Claim]) -> list[tuple[Any, ...]]:
    return sorted(
        (c.claim_key, c.value, c.unit, c.time.start, c.time.end, tuple(sorted(c.scope.items())))
        for c in claims
    )


def _read_both(report: list[tuple[Any, ...]], layout: PdfLayout, tmp_path: Path) -> Any:
    """The report's Markdown and PDF texts and claims, each read as its own source."""
    md_text = markdown(report)
    pdf_text = convert(pdf_bytes(report, layout=layout), tmp_path / "report.pdf").text
    md = extract(md_text, source_id="md", source_version_id=text_version_id("md", md_text))
    pdf = extract(pdf_text, source_id="pdf", source_version_id=text_version_id("pdf", pdf_text))
    return pdf_text, md, pdf


def _pages(report: list[tuple[Any, ...]], layout: PdfLayout) -> list[str]:
    """The PDF's pages as PDFium reads their text (how the page was set, not read)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf_bytes(report, layout=layout))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def _disagreements(md: list[Claim], pdf: list[Claim]) -> list[Any]:
    result = check_claims(md, pdf, current_generation()[0])
    return [p for p in result.pairs if p.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)]


def test_figures_and_words_broken_in_a_narrow_ruled_cell_read_whole(tmp_path: Path) -> None:
    rows = [
        ["Depot", "Rent due in December 2024", "Rent due in December 2023"],
        ["Harbour Road depot", "$7,318.4", "$6,904.25"],
        ["Mill Lane depot", "$12,045.5", "$11,230.75"],
        ["Total rent", "$19,363.9", "$18,135.00"],
    ]
    report = [("heading", 1, "Depot rents"), ("table", rows)]
    layout = PdfLayout(page=(80.0, 200.0), first_column=0.5, size=10.0)
    text, md, pdf = _read_both(report, layout, tmp_path)
    assert "| $7,318.4 |" in text and "Rent due in December 2024" in text
    assert _facts(pdf) == _facts(md)
    assert not _disagreements(md, pdf)


def _over_a_page(sentence: str, ending: str, opening: str) -> tuple[str, bytes]:
    """A paragraph that a line wrap breaks after ``ending`` before ``opening``, set so that
    the break falls at the foot of page 1 (the page is full there)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    for words in range(0, 40):
        filler = " ".join(("near the docks", "and the yard")[w % 2] for w in range(words))
        paragraph = sentence.format(filler=filler)
        lines = pdf.multi_cell(0, 6, paragraph, dry_run=True, output="LINES")
        cut = next(
            (
                k
                for k in range(1, len(lines))
                if lines[k - 1].endswith(ending) and lines[k].startswith(opening)
            ),
            None,
        )
        if cut is not None:
            break
    else:
        raise AssertionError("no wrap puts the word first on a line")
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, "Depot leases", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.set_y(pdf.h - pdf.b_margin - 6 * cut - 1)  # line ``cut`` opens page 2
    pdf.multi_cell(0, 6, paragraph, new_x="LMARGIN", new_y="NEXT")
    return paragraph, bytes(pdf.output())


def _read_pdf(paragraph: str, data: bytes, tmp_path: Path) -> Any:
    md_text = f"# Depot leases\n\n{paragraph}\n"
    pdf_text = convert(data, tmp_path / "report.pdf").text
    md = extract(md_text, source_id="md", source_version_id=text_version_id("md", md_text))
    pdf = extract(pdf_text, source_id="pdf", source_version_id=text_version_id("pdf", pdf_text))
    return pdf_text, md, pdf


def test_a_paragraph_going_on_over_a_full_page_with_a_capital_is_one_paragraph(
    tmp_path: Path,
) -> None:
    paragraph, data = _over_a_page(
        "In March 2024 the board {filler} agreed that the rent for these Depots was "
        "$48,200 a year from April 2024, and $51,300 a year from April 2025.",
        "these",
        "Depots",
    )
    text, md, pdf = _read_pdf(paragraph, data, tmp_path)
    assert "these" + PAGE_BREAK + "Depots" in text  # one paragraph, the form feed inside
    assert _facts(pdf) == _facts(md)
    assert not _disagreements(md, pdf)


def test_a_page_break_before_a_note_number_leaves_it_no_figure(tmp_path: Path) -> None:
    paragraph, data = _over_a_page(
        "The leases of the depots {filler} are described in Note 12 - Leases, with the "
        "rent of $48,200 agreed for 2024.",
        "Note",
        "12",
    )
    text, md, pdf = _read_pdf(paragraph, data, tmp_path)
    assert "Note" + PAGE_BREAK + "12" in text
    assert 12.0 not in {c.value for c in pdf}
    assert _facts(pdf) == _facts(md)
    assert not _disagreements(md, pdf)


def test_a_ruled_tables_last_row_alone_on_the_next_page_is_a_row(tmp_path: Path) -> None:
    layout = PDF_LAYOUTS["table-across-pages-no-header"]
    for extra in range(0, 30):
        rows = [["Depot", "2024", "2023"]]
        rows += [[f"Depot {n}", f"{400 + n},{100 + n}", f"{380 + n},{120 + n}"] for n in range(4)]
        rows.append(["Total equity held at the depots", "$1,620,006", "$1,540,006"])
        lead = "The depots are valued every year by an outside firm." + " Each is visited." * extra
        report = [("heading", 1, "Depot values"), ("paragraph", lead), ("table", rows)]
        pages = _pages(report, layout)
        if len(pages) == 2 and "Total equity" in pages[1] and "Depot 3" not in pages[1]:
            text, md, pdf = _read_both(report, layout, tmp_path)
            break
    else:
        raise AssertionError("no lead puts only the table's last row on page 2")
    assert "| Total equity held at the depots | $1,620,006 | $1,540,006 |" in text
    assert _facts(pdf) == _facts(md)
    assert not _disagreements(md, pdf)
