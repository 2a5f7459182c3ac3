"""Shapes of a financial report that one format used to read apart from the others.

Each report is ours, written at test time (python-docx, fpdf2); the Markdown file is the
reference and the other formats must give the same claims (key, value, unit, time, scope):

- a paragraph that runs onto the next page of a PDF is one paragraph;
- a table that runs onto the next page of a PDF, its header row drawn again there, is one
  table (the rows on the second page keep the units row and caption of the first);
- a paragraph of HTML or Word that opens with a number ("4. Intangible assets", a note's
  number) is numbered as Markdown numbers a list item: the number is no figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from document_writers import docx_bytes, html_page, markdown, pdf_bytes

from claims.documents.converters import convert
from claims.documents.converters.markdown_text import PAGE_BREAK
from claims.extraction import extract
from claims.models import Claim

FILLER = "This section sets out how the figures below were prepared and reviewed by the board."


def _facts(claims: list[Claim]) -> list[tuple[Any, ...]]:
    return sorted(
        (c.claim_key, c.value, c.unit, _words(c.time.text), tuple(sorted(c.scope.items())))
        for c in claims
    )


def _words(text: str | None) -> str:
    """A quoted stretch of text, a page break inside it read as a space."""
    return " ".join((text or "").replace(PAGE_BREAK, " ").split())


def _read(suffix: str, data: bytes, tmp_path: Path) -> tuple[str, list[Claim]]:
    text = convert(data, tmp_path / f"report{suffix}").text
    return text, extract(text)  # as the pipeline reads every converter's text


def _paragraph_over_a_page_break() -> bytes:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, "Annual report", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.set_y(pdf.h - pdf.b_margin - 13)  # room for two lines: the paragraph breaks after
    pdf.multi_cell(0, 6, PARAGRAPH, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


PARAGRAPH = (
    "We estimated the fair value of the options granted during fiscal 2024 with a lattice "
    "model and the following inputs, agreed with the auditors before the year end closed: "
    "a risk-free interest rate of 3.9%, an expected term of six years, an expected "
    "volatility of 27.5% and a dividend yield of 1.2%."
)


def test_a_pdf_paragraph_running_onto_the_next_page_is_one_paragraph(tmp_path: Path) -> None:
    md = extract(f"# Annual report\n\n{PARAGRAPH}\n")
    text, claims = _read(".pdf", _paragraph_over_a_page_break(), tmp_path)
    assert PAGE_BREAK in text  # the paragraph did run onto page 2
    assert _facts(claims) == _facts(md)
    volatility = next(c for c in claims if c.value == 27.5)
    assert volatility.time.start is not None and volatility.time.start.year == 2024
    assert volatility.locator is not None and volatility.locator.page in (1, 2)


def _long_table_report() -> list[tuple[Any, ...]]:
    rows = [["Cash flow", "2024", "2023"], ["", "EUR m", "EUR m"]]
    rows += [[f"Line item {n}", f"{100 + n}.5", f"{90 + n}.25"] for n in range(1, 56)]
    rows.append(["Free cash flow", "4,411", "4,044"])
    return [
        ("heading", 1, "Annual report"),
        ("paragraph", "Cash flow measures"),
        ("table", rows),
        ("paragraph", "The measures are not defined by IFRS."),
    ]


def test_a_pdf_table_running_onto_the_next_page_keeps_its_header_rows(tmp_path: Path) -> None:
    report = _long_table_report()
    md = extract(markdown(report))
    text, claims = _read(".pdf", pdf_bytes(report), tmp_path)
    assert PAGE_BREAK in text and text.count("| Cash flow | 2024 | 2023 |") == 1
    assert _facts(claims) == _facts(md)
    last = next(c for c in claims if c.value == 4411e6)
    assert last.unit == "EUR" and last.locator is not None and last.locator.page == 2


def test_a_numbered_note_paragraph_is_no_figure_in_any_format(tmp_path: Path) -> None:
    report: list[tuple[Any, ...]] = [
        ("heading", 1, "Annual report"),
        ("paragraph", "Notes"),
        ("paragraph", "4. Intangible assets"),
        (
            "paragraph",
            "7. Amortisation of $4.3 million was charged in the year (2023 $3.9 million).",
        ),
    ]
    md = extract(markdown(report))
    assert sorted(c.value for c in md) == [3.9e6, 4.3e6]
    for suffix, data in ((".html", html_page(report).encode()), (".docx", docx_bytes(report))):
        _, claims = _read(suffix, data, tmp_path)
        assert _facts(claims) == _facts(md), suffix


def test_a_pdf_line_without_descenders_does_not_end_its_paragraph(tmp_path: Path) -> None:
    # the first line holds no g, j, p, q, y or bracket: its glyphs' box is low, and the gap
    # to the next line's box looked like a blank line
    paragraph = (
        "All home workers at the Leeds site who meet the standard hours will be offered the "
        "full allowance of 45 euros a month from the start of 2025 onwards, paid with salary."
    )
    report: list[tuple[Any, ...]] = [("heading", 1, "Home working"), ("paragraph", paragraph)]
    md = extract(markdown(report))
    text, claims = _read(".pdf", pdf_bytes(report), tmp_path)
    assert "onwards" in text and "\n\n" not in text.split("# Home working")[1].strip()
    assert _facts(claims) == _facts(md)


def test_a_pdf_note_mark_opening_a_paragraph_is_no_list_item(tmp_path: Path) -> None:
    # "(1) ..." under a table is a note: Markdown, HTML and Word keep it a paragraph with its
    # mark; the PDF made it item 1 of a list, and the lead-in above it read as the list's
    report: list[tuple[Any, ...]] = [
        ("heading", 1, "Annual report"),
        ("table", [["Asset", "Useful life"], ["Buildings (1)", "30 years"], ["Vans", "5 years"]]),
        ("paragraph", "Equipment held at June 30, 2024 and 2023 is set out as follows:"),
        ("paragraph", "(1) Leasehold improvements are written off over the lease term."),
        ("paragraph", "(2) The depot lease was renewed in 2022 for a further 12 years."),
    ]
    md = extract(markdown(report))
    text, claims = _read(".pdf", pdf_bytes(report), tmp_path)
    assert "\n(1) Leasehold" in text and "\n(2) The depot" in text
    assert _facts(claims) == _facts(md)


def _open_sentence_over_a_page(ending: str, figure: str) -> tuple[str, bytes]:
    """A paragraph whose line before the page break ends with ``ending``'s last word
    ("... as of December 31,") and whose next page opens with ``figure`` alone on a line,
    at the column's left edge (where a page number could stand)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    for words in range(1, 40):
        filler = " ".join(("under the plan", "and its rules")[w % 2] for w in range(words))
        paragraph = f"Of the units granted to the directors {filler} {ending} {figure}"
        lines = pdf.multi_cell(0, 6, paragraph, dry_run=True, output="LINES")
        if lines[-1] == figure and lines[-2].endswith(ending.split()[-1]):
            break
    else:
        raise AssertionError("no wrap puts the figure on a line of its own")
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, "Share plans", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.set_y(pdf.h - pdf.b_margin - 6 * (len(lines) - 1) - 1)  # the figure opens page 2
    pdf.multi_cell(0, 6, paragraph, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.multi_cell(0, 6, "In March 2024 the board granted 4,500 new units.")
    return paragraph, bytes(pdf.output())


@pytest.mark.parametrize(
    ("ending", "figure"),
    [("none had vested as of December 31,", "2023"), ("the units still unvested were", "480")],
)
def test_a_figure_opening_a_pdf_page_that_ends_an_open_sentence_is_no_page_number(
    tmp_path: Path, ending: str, figure: str
) -> None:
    paragraph, data = _open_sentence_over_a_page(ending, figure)
    md = extract(
        f"# Share plans\n\n{paragraph}\n\nIn March 2024 the board granted 4,500 new units.\n"
    )
    assert any(figure in (c.time.text or "") or str(c.value) == figure + ".0" for c in md)
    text, claims = _read(".pdf", data, tmp_path)
    assert PAGE_BREAK + figure in text.replace(" ", "")
    assert _facts(claims) == _facts(md)


def test_a_year_alone_near_a_pdf_page_top_is_no_page_number(tmp_path: Path) -> None:
    filler = "The group reviewed the terms it holds with its larger customers this year. " * 3
    report: list[tuple[Any, ...]] = [
        ("heading", 1, "Annual report"),
        ("paragraph", filler),
        ("page",),
        ("paragraph", "2024"),
        ("paragraph", "Revenue was $4.1 million."),
        ("paragraph", "2023"),
        ("paragraph", "Revenue was $3.7 million."),
    ]
    text, _ = _read(".pdf", pdf_bytes(report), tmp_path)
    assert "\n2024\n" in text and "\n2023\n" in text


WRAPPED_ROWS = [
    ["", "Q1", "Q2", "Q3", "Q4"],
    ["Operating cash flow before working capital", "1,204", "(310)", "845", "(1,022)"],
    ["Capital expenditure", "(450)", "(475)", "(390)", "(610)"],
    ["Free cash flow", "754", "(785)", "455", "(1,632)"],
]


def _titled_pdf(title: str, lead: str) -> Any:
    """An fpdf2 document opened with a title and a paragraph, set for body text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, lead, new_x="LMARGIN", new_y="NEXT")
    return pdf


def _table_with_wrapped_row_headers(rules: str, v_align: str) -> bytes:
    pdf = _titled_pdf("Cash flow", "Amounts in thousands of euros")
    pdf.ln(4)
    # a narrow first column: the first row header wraps over two lines of its cell
    with pdf.table(borders_layout=rules, v_align=v_align, col_widths=(40, 20, 20, 20, 20)) as t:
        for row in WRAPPED_ROWS:
            cells = t.row()
            for value in row:
                cells.cell(value)
    return bytes(pdf.output())


@pytest.mark.parametrize("rules", ["NONE", "HORIZONTAL_LINES"])
@pytest.mark.parametrize("v_align", ["TOP", "MIDDLE", "BOTTOM"])
def test_a_pdf_table_without_column_rules_keeps_a_row_header_wrapped_in_its_cell(
    tmp_path: Path, rules: str, v_align: str
) -> None:
    report = [
        ("heading", 1, "Cash flow"),
        ("paragraph", "Amounts in thousands of euros"),
        ("table", WRAPPED_ROWS),
    ]
    md = extract(markdown(report))
    assert len(md) == 12
    text, claims = _read(".pdf", _table_with_wrapped_row_headers(rules, v_align), tmp_path)
    assert "| Operating cash flow before working capital | 1,204 | (310) |" in text
    assert _facts(claims) == _facts(md)


def _raised_marks(kind: str) -> bytes:
    """One paragraph with a footnote mark raised after a figure and a unit's power raised
    after its letter, as HTML (``sup``), Word (superscript runs) and a PDF (a smaller run
    above the baseline) set them."""
    parts = [
        ("Net sales were $4,411", False),
        ("1", True),
        (" million in 2024 and the new store covers 1,250 m", False),
        ("2", True),
        (" of floor space.", False),
    ]
    if kind == "html":
        body = "".join(f"<sup>{t}</sup>" if up else t for t, up in parts)
        return f"<html><body><h1>Stores</h1><p>{body}</p></body></html>".encode()
    if kind == "docx":
        import io

        import docx

        document = docx.Document()
        document.add_heading("Stores", 1)
        paragraph = document.add_paragraph()
        for text, up in parts:
            paragraph.add_run(text).font.superscript = up
        out = io.BytesIO()
        document.save(out)
        return out.getvalue()
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, "Stores", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    for text, up in parts:
        pdf.char_vpos = "SUP" if up else "LINE"
        pdf.write(6, text)
    return bytes(pdf.output())


@pytest.mark.parametrize("kind", ["html", "docx", "pdf"])
def test_a_raised_footnote_mark_is_no_digit_of_the_figure_before_it(
    tmp_path: Path, kind: str
) -> None:
    md = extract(
        "# Stores\n\nNet sales were $4,411 million in 2024 and the new store covers "
        "1,250 m² of floor space.\n"
    )
    assert {c.value for c in md} >= {4411e6}
    text, claims = _read(f".{kind}", _raised_marks(kind), tmp_path)
    assert "$4,411 million" in text and "1,250 m² of" in text
    assert _facts(claims) == _facts(md)


INLINE_ITEMS = (
    "\u2022 an increase of $12.1 million from higher volumes across the northern and western "
    "regions at Leeds in 2024; \u2022 a decrease of $4.4 million due to the sale of the Ferrol "
    "plant in March 2023; and \u2022 an increase of $2.0 million from new contracts signed in 2024."
)


def test_items_run_into_one_paragraph_read_alike_wherever_a_pdf_line_breaks(
    tmp_path: Path,
) -> None:
    # the PDF's second line opens with the second bullet glyph: the PDF reads an item there,
    # the Markdown file has one line; each bullet glyph now opens an item in both
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.core_fonts_encoding = "windows-1252"  # the bullet glyph in the core font
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 9, "Revenue", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, "Revenue changed as follows:", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.multi_cell(0, 6, INLINE_ITEMS, new_x="LMARGIN", new_y="NEXT")
    md = extract(f"# Revenue\n\nRevenue changed as follows:\n\n{INLINE_ITEMS}\n")
    text, claims = _read(".pdf", bytes(pdf.output()), tmp_path)
    assert "\n- a decrease of $4.4 million" in text  # the PDF line did open with the glyph
    assert _facts(claims) == _facts(md)
    sale = next(c for c in md if c.value == 4.4e6)
    assert sale.time.start is not None and (sale.time.start.year, sale.time.start.month) == (
        2023,
        3,
    )


def test_a_raised_mark_opening_a_pdf_footnote_is_left_out_as_html_leaves_it(
    tmp_path: Path,
) -> None:
    from fpdf import FPDF

    note = " Sales of the 12 stores opened in 2024 are included from their opening day."
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    pdf.multi_cell(0, 6, "Net sales were $4,411 million in 2024.", new_x="LMARGIN", new_y="NEXT")
    pdf.set_y(-30)  # the footnote in the bottom margin, under its raised mark
    pdf.char_vpos = "SUP"
    pdf.write(6, "1")
    pdf.char_vpos = "LINE"
    pdf.write(6, note)
    html = f"<p>Net sales were $4,411 million in 2024.</p><p><sup>1</sup>{note}</p>"
    html_text, html_claims = _read(".html", html.encode(), tmp_path)
    text, claims = _read(".pdf", bytes(pdf.output()), tmp_path)
    assert "\nSales of the 12 stores" in text
    assert not any(line.strip() == "1" or line.startswith("1 ") for line in text.splitlines())
    assert _facts(claims) == _facts(html_claims)


@pytest.mark.parametrize("rules", ["ALL", "NONE"])
def test_a_pdf_table_running_onto_the_next_page_without_its_header_row_is_one_table(
    tmp_path: Path, rules: str
) -> None:
    # Word repeats a table's header row on the next page only when asked to: most tables
    # go on there with their next body row
    report = _long_table_report()
    pdf = _titled_pdf("Annual report", "Cash flow measures")
    with pdf.table(borders_layout=rules, repeat_headings=0) as table:
        for row in report[2][1]:
            cells = table.row()
            for value in row:
                cells.cell(value)
    pdf.multi_cell(0, 6, "The measures are not defined by IFRS.")
    md = extract(markdown(report))
    text, claims = _read(".pdf", bytes(pdf.output()), tmp_path)
    assert PAGE_BREAK in text and text.count("\n|---") == 1  # one table
    assert _facts(claims) == _facts(md)
    last = next(c for c in claims if c.value == 4411e6)
    assert last.unit == "EUR" and last.locator is not None and last.locator.page == 2


def _dash_first_on_a_line(dash: str) -> tuple[str, bytes]:
    """A sentence with a dash inside it, the PDF's line wrap putting the dash first on a
    line."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.core_fonts_encoding = "windows-1252"  # the en dash in the core font
    pdf.set_font("Helvetica", "", 11)
    words = [
        "across",
        "the",
        "northern",
        "and",
        "western",
        "regions",
        "of",
        "the",
        "group",
        "in",
        "every",
        "quarter",
    ]
    for n in range(len(words) + 1):
        for place in ("Leeds", "York", "Hull", "Bradford", "Sheffield", "Ely", "Bath"):
            sentence = (
                f"Operating profit rose to $12.1 million in 2024 from higher volumes "
                f"{' '.join(words[:n])} at {place} {dash} partly offset by a $4.4 million "
                "charge for the closure of the Ferrol plant in March 2023."
            )
            lines = pdf.multi_cell(0, 6, sentence, dry_run=True, output="LINES")
            if any(line.startswith(dash.encode("cp1252").decode("latin-1")) for line in lines):
                pdf.set_font("Helvetica", "B", 20)
                pdf.multi_cell(0, 9, "Results", new_x="LMARGIN", new_y="NEXT")
                pdf.set_font("Helvetica", "", 11)
                pdf.multi_cell(0, 6, sentence, new_x="LMARGIN", new_y="NEXT")
                return sentence, bytes(pdf.output())
    raise AssertionError("no wrap puts the dash first on a line")


def test_a_dash_a_pdf_line_wrap_puts_first_on_a_line_is_no_list_item(tmp_path: Path) -> None:
    # fpdf2 keeps a hyphen at the end of a line; an en dash opens the next one
    dash = "\u2013"
    sentence, data = _dash_first_on_a_line(dash)
    md = extract(f"# Results\n\n{sentence}\n")
    text, claims = _read(".pdf", data, tmp_path)
    assert "\n- " not in text and f" {dash} partly offset" in text
    assert _facts(claims) == _facts(md)


def test_a_note_number_a_pdf_line_wrap_puts_first_on_a_line_is_no_list_item(
    tmp_path: Path,
) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    places = ("Leeds", "York", "Hull", "Bradford", "Sheffield", "Rotherham", "Ely", "Bath")
    for n, place in ((n, p) for n in range(12) for p in places):
        sentence = (
            f"Leases held {'in the north ' * n}at {place} are set out in Note 7. Revenue from "
            "the leased sites was $4.4 million in 2024, down from $4.9 million in 2023."
        )
        lines = pdf.multi_cell(0, 6, sentence, dry_run=True, output="LINES")
        if any(line.startswith("7. ") for line in lines):
            break
    else:
        raise AssertionError("no wrap puts the note's number first on a line")
    report: list[tuple[Any, ...]] = [
        ("heading", 1, "Leases"),
        ("paragraph", sentence),
        ("paragraph", "1. Agree the rent with the landlord."),
        ("paragraph", "2. Sign the lease by 30 June 2025."),
    ]
    md = extract(markdown(report))
    text, claims = _read(".pdf", pdf_bytes(report), tmp_path)
    assert "Note 7. Revenue" in text and "\n1. Agree" in text and "\n2. Sign" in text
    assert _facts(claims) == _facts(md)


def test_a_word_too_long_for_its_pdf_table_cell_stays_one_word(tmp_path: Path) -> None:
    # eight columns: "Outstanding" breaks inside the word, "Weighted-Average" at its hyphen
    rows = [
        ["", "Weighted-Average Exercise Price", "Outstanding", "Exercisable", "Intrinsic"]
        + ["Remaining Contractual", "Unrecognized Compensation", "Shares"],
        ["Balance at December 31, 2023", "$12.45", "1,204", "845", "$3,210", "4.2", "$1,100"]
        + ["2,300"],
        ["Balance at December 31, 2024", "$13.02", "1,514", "1,022", "$4,115", "3.9", "$950"]
        + ["2,800"],
    ]
    report = [("heading", 1, "Share options"), ("table", rows)]
    md = extract(markdown(report))
    text, claims = _read(".pdf", pdf_bytes(report), tmp_path)
    header = "|  | Weighted-Average Exercise Price | Outstanding | Exercisable | Intrinsic |"
    assert header in text and "| Unrecognized Compensation |" in text
    assert _facts(claims) == _facts(md)
