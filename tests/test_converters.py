"""Converters: Word, PDF and HTML files become the team's Markdown-flavoured text.

Every document here is written at test time by python-docx, fpdf2 or by hand
(tests/document_writers.py), never copied from elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claims.documents.converters import convert, current_converter
from claims.errors import InputError
from tests import document_writers as write

REPORT = [
    ("heading", 1, "Pump line overview"),
    (
        "paragraph",
        "The pump line is sold to water utilities in three sizes, and this overview gives "
        "the figures a buyer asks for first, so that a quote can be prepared the same day.",
    ),
    ("heading", 2, "Figures"),
    ("items", ["Weight: 21 kg", "Rated flow: 120 L/min", "Motor power: 1.1 kW"]),
    ("paragraph", "# of units shipped last year was 40."),
    (
        "table",
        [
            ["Model", "Price", "Warranty"],
            ["P-100", "$900", "2 years"],
            ["P-200", "$1,400", "3 years"],
        ],
    ),
    ("heading", 2, "Service"),
    ("paragraph", "- 5 days is the usual lead time for spare parts."),
]
# In a PDF a line drawn as "- 5 days ..." is a list item: nothing else marks a PDF list.
PDF_REPORT = REPORT[:-1]


def _blocks(text: str) -> list[tuple[str, ...]]:
    """The structure of a converted text: headings, list items, table rows, paragraphs."""
    found: list[tuple[str, ...]] = []
    for chunk in re.split(r"\n\s*\n", text.strip()):
        lines = chunk.split("\n")
        if lines[0] == "\f":
            found.append(("page",))
        elif re.match(r"^#{1,6} ", lines[0]):
            level, title = lines[0].split(" ", 1)
            found.append(("heading", str(len(level)), title))
        elif re.match(r"^\s*(- |\d+\. )", lines[0]):
            found += [("item", re.sub(r"^\s*(- |\d+\. )", "", line)) for line in lines]
        elif lines[0].startswith("|"):
            found += [
                ("row", *[c.strip() for c in line.strip("|").split(" | ")])
                for line in lines
                if not line.startswith("|---")
            ]
        else:
            found.append(("paragraph", " ".join(lines)))
    return found


def _convert(data: bytes, name: str, tmp_path: Path) -> str:
    return convert(data, tmp_path / name).text


@pytest.fixture(scope="module")
def renderings() -> dict[str, bytes]:
    return {
        "report.md": write.markdown(REPORT).encode(),
        "report.html": write.html_page(REPORT).encode(),
        "report.docx": write.docx_bytes(REPORT),
        "report.pdf": write.pdf_bytes(PDF_REPORT),
        "pdf-report.md": write.markdown(PDF_REPORT).encode(),
    }


@pytest.mark.parametrize("name", ["report.html", "report.docx", "report.pdf"])
def test_one_report_in_four_formats_converts_to_the_same_blocks(
    renderings: dict[str, bytes], name: str, tmp_path: Path
) -> None:
    source = "pdf-report.md" if name.endswith(".pdf") else "report.md"
    expected = _blocks(_convert(renderings[source], "report.md", tmp_path))
    assert _blocks(_convert(renderings[name], name, tmp_path)) == expected


def test_markdown_and_text_convert_to_themselves(tmp_path: Path) -> None:
    text = "# Terms\n\nNotice period: 30 days.\n"
    for name, media_type in (("a.md", "text/markdown"), ("a.txt", "text/plain")):
        converted = convert(text.encode(), tmp_path / name)
        assert (converted.text, converted.media_type) == (text, media_type)
        assert (converted.converter, converted.converter_version) == ("utf-8-text", "1")


def test_each_format_names_its_converter_and_the_library_version(
    renderings: dict[str, bytes], tmp_path: Path
) -> None:
    from importlib.metadata import version

    pdf = convert(renderings["report.pdf"], tmp_path / "r.pdf")
    assert (pdf.converter, pdf.media_type) == ("pdf", "application/pdf")
    assert pdf.converter_version.endswith(f"(pypdfium2 {version('pypdfium2')})")
    docx = convert(renderings["report.docx"], tmp_path / "r.docx")
    assert docx.converter_version == current_converter(docx.media_type)[1]
    assert "python-docx" in docx.converter_version
    assert convert(renderings["report.html"], tmp_path / "r.htm").media_type == "text/html"


def test_line_starts_that_look_like_markup_are_escaped_in_every_format(
    renderings: dict[str, bytes], tmp_path: Path
) -> None:
    for name in ("report.html", "report.docx", "report.pdf"):
        text = _convert(renderings[name], name, tmp_path)
        assert "\n\\# of units shipped last year was 40.\n" in text, name
        assert "\n# of units" not in text
        if name != "report.pdf":
            assert "\n\\- 5 days is the usual lead time" in text, name
            assert "\n- 5 days" not in text


def test_pdf_pages_are_separated_by_one_form_feed_line(tmp_path: Path) -> None:
    report = [
        ("heading", 1, "Leave policy"),
        ("paragraph", "Annual leave: 25 days."),
        ("page",),
        ("paragraph", "Sick leave: 10 days."),
        ("page",),
        ("paragraph", "Parental leave: 16 weeks."),
    ]
    text = _convert(write.pdf_bytes(report), "leave.pdf", tmp_path)
    assert text.count("\f") == 2
    pages = text.split("\n\n\f\n\n")
    assert [p.strip() for p in pages] == [
        "# Leave policy\n\nAnnual leave: 25 days.",
        "Sick leave: 10 days.",
        "Parental leave: 16 weeks.",
    ]


def test_pdf_short_lines_stay_lines_and_wrapped_prose_is_joined(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    for line in ("Weight: 1.2 kg", "Price: $149", "Colour: grey"):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.multi_cell(0, 6, "A long sentence about delivery " * 8)
    text = _convert(bytes(pdf.output()), "sheet.pdf", tmp_path)
    first, second = text.strip().split("\n\n")
    assert first == "Weight: 1.2 kg\nPrice: $149\nColour: grey"
    assert "\n" not in second and second.count("delivery") == 8


def test_nested_and_numbered_lists_keep_their_levels_in_docx_and_html(tmp_path: Path) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph("Entitlements", style="List Bullet")
    document.add_paragraph("Annual leave: 25 days", style="List Bullet 2")
    document.add_paragraph("Apply in the portal", style="List Number")
    document.add_paragraph("Wait for approval", style="List Number")
    import io

    out = io.BytesIO()
    document.save(out)
    text = _convert(out.getvalue(), "h.docx", tmp_path)
    assert "- Entitlements\n  - Annual leave: 25 days" in text
    assert "1. Apply in the portal\n2. Wait for approval" in text
    page = (
        "<ul><li>Entitlements<ul><li>Annual leave: 25 days</li></ul></li></ul>"
        '<ol start="4"><li>Apply in the portal</li><li>Wait for approval</li></ol>'
    )
    text = _convert(page.encode(), "h.html", tmp_path)
    assert "- Entitlements\n  - Annual leave: 25 days" in text
    assert "4. Apply in the portal\n5. Wait for approval" in text


def test_html_spans_repeat_and_captions_stand_above_the_table(tmp_path: Path) -> None:
    page = (
        "<p>Before.</p><table><caption>All prices in US dollars</caption>"
        "<tr><th></th><th colspan='2'>Monthly price</th></tr>"
        "<tr><td rowspan='2'>Basic</td><td>$9</td><td>1 | 2 seats</td></tr>"
        "<tr><td>$10</td><td>3 seats</td></tr></table>"
        "<script>var x = '# not text';</script>"
    )
    text = _convert(page.encode(), "p.html", tmp_path)
    assert text == (
        "Before.\n\nAll prices in US dollars\n\n"
        "|  | Monthly price | Monthly price |\n|---|---|---|\n"
        "| Basic | $9 | 1 \\| 2 seats |\n| Basic | $10 | 3 seats |\n"
    )


def test_docx_merged_cells_repeat_their_text(tmp_path: Path) -> None:
    import io

    import docx

    document = docx.Document()
    table = document.add_table(rows=2, cols=3)
    table.cell(0, 1).merge(table.cell(0, 2)).text = "2024"
    table.cell(1, 0).text, table.cell(1, 1).text, table.cell(1, 2).text = "Revenue", "4.1", "4.3"
    out = io.BytesIO()
    document.save(out)
    text = _convert(out.getvalue(), "t.docx", tmp_path)
    assert text == "|  | 2024 | 2024 |\n|---|---|---|\n| Revenue | 4.1 | 4.3 |\n"


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("locked.pdf", "encrypted", r"locked\.pdf: the PDF is encrypted .*password"),
        ("scan.pdf", "image", r"scan\.pdf: no text layer: .*run OCR first"),
        ("cut.pdf", "truncated-pdf", r"cut\.pdf: the PDF is damaged or truncated"),
        ("cut.docx", "truncated-docx", r"cut\.docx: the file is not a \.docx package"),
        ("old.docx", "ole", r"old\.docx: the file is password-protected \(encrypted\)"),
        ("notes.docx", "zip", r"notes\.docx: the Word \(\.docx\) file is damaged"),
        ("page.html", "binary", r"page\.html: the file looks binary"),
        ("empty.html", "blank", r"empty\.html: the HTML file holds no text"),
    ],
)
def test_unreadable_files_get_a_clear_error_naming_the_file(
    renderings: dict[str, bytes], tmp_path: Path, name: str, data: str, message: str
) -> None:
    import zipfile

    zipped = tmp_path / "z.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("readme.txt", "not a Word document")
    payload = {
        "encrypted": write.pdf_bytes(REPORT[:2], encrypt_with="secret"),
        "image": write.image_only_pdf(),
        "truncated-pdf": renderings["report.pdf"][: len(renderings["report.pdf"]) // 2],
        "truncated-docx": renderings["report.docx"][:300],
        "ole": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600,
        "zip": zipped.read_bytes(),
        "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "blank": b"<html><body>  <script>x()</script> </body></html>",
    }[data]
    with pytest.raises(InputError, match=message):
        convert(payload, tmp_path / name)


def test_pdf_page_numbers_in_the_margin_are_not_text(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)  # the footer stands in the bottom margin
    for number, line in enumerate(("Annual leave: 25 days", "Sick leave: 10 days"), start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 11)
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 6, "12 days of carry-over", new_x="LMARGIN", new_y="NEXT")
        pdf.set_y(-15)
        pdf.cell(0, 6, f"Page {number} of 2", align="C")
    text = _convert(bytes(pdf.output()), "numbered.pdf", tmp_path)
    assert text == (
        "Annual leave: 25 days\n12 days of carry-over\n\n\f\n\n"
        "Sick leave: 10 days\n12 days of carry-over\n"
    )


def test_claims_extract_reads_a_word_file_through_its_converter(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from claimledger.cli import app

    path = tmp_path / "terms.docx"
    path.write_bytes(write.docx_bytes([("paragraph", "The notice period is 30 days.")]))
    result = CliRunner().invoke(app, ["extract", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"quote": "The notice period is 30 days."' in result.output
    damaged = tmp_path / "cut.pdf"
    damaged.write_bytes(b"%PDF-1.7\n1 0 obj")
    result = CliRunner().invoke(app, ["extract", str(damaged)])
    assert isinstance(result.exception, InputError)  # the entry point prints it, exit 2
    assert "cut.pdf: the PDF is damaged or truncated" in str(result.exception)


def test_docx_reads_tracked_insertions_content_controls_and_rows_merged_down(
    tmp_path: Path,
) -> None:
    import io

    import docx
    from docx.oxml import parse_xml

    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document = docx.Document()
    paragraph = document.add_paragraph("The notice period is ")
    paragraph._p.append(
        parse_xml(f'<w:del {ns} w:id="1" w:author="a"><w:r><w:delText>60</w:delText></w:r></w:del>')
    )
    paragraph._p.append(
        parse_xml(f'<w:ins {ns} w:id="2" w:author="a"><w:r><w:t>30 days.</w:t></w:r></w:ins>')
    )
    document.element.body.insert(
        -1,
        parse_xml(
            f"<w:sdt {ns}><w:sdtContent><w:p><w:r><w:t>Warranty: 2 years</w:t></w:r></w:p>"
            "</w:sdtContent></w:sdt>"
        ),
    )
    table = document.add_table(rows=3, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Group", "Amount"
    table.cell(1, 0).merge(table.cell(2, 0)).text = "Current liabilities"
    table.cell(1, 1).text, table.cell(2, 1).text = "4.1", "2.7"
    out = io.BytesIO()
    document.save(out)
    text = _convert(out.getvalue(), "tracked.docx", tmp_path)
    assert text == (
        "The notice period is 30 days.\n\nWarranty: 2 years\n\n"
        "| Group | Amount |\n|---|---|\n"
        "| Current liabilities | 4.1 |\n| Current liabilities | 2.7 |\n"
    )


def test_html_tables_that_lay_out_a_page_are_read_as_its_blocks(tmp_path: Path) -> None:
    page = (
        "<table><tr><td><h1>Benefits</h1><p>Annual leave: 25 days.</p>"
        "<p>Sick leave: 10 days.</p></td>"
        "<td><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>$29</td></tr>"
        "</table></td></tr></table>"
    )
    text = _convert(page.encode(), "layout.html", tmp_path)
    assert text == (
        "# Benefits\n\nAnnual leave: 25 days.\n\nSick leave: 10 days.\n\n"
        "| Plan | Price |\n|---|---|\n| Pro | $29 |\n"
    )


def test_text_lines_that_read_as_markdown_breaks_or_markers_are_escaped(tmp_path: Path) -> None:
    page = "<p>Totals<br>---<br>+ 4 new hires<br>12) carried over</p>"
    text = _convert(page.encode(), "breaks.html", tmp_path)
    assert text == "Totals\n\\---\n\\+ 4 new hires\n12\\) carried over\n"


def test_pdf_bullets_as_word_draws_them_nest_by_indent(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 11)
    for indent, line in ((0, "- Entitlements"), (8, "o Annual leave: 25 days"), (0, "- Travel")):
        pdf.set_x(pdf.l_margin + indent)
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.cell(0, 6, "o is not a bullet outside a list.", new_x="LMARGIN", new_y="NEXT")
    text = _convert(bytes(pdf.output()), "bullets.pdf", tmp_path)
    assert text == (
        "- Entitlements\n  - Annual leave: 25 days\n- Travel\n\no is not a bullet outside a list.\n"
    )


@pytest.mark.parametrize("rules", ["NONE", "HORIZONTAL_LINES"])
def test_pdf_tables_drawn_without_column_rules_are_read_from_aligned_text(
    tmp_path: Path, rules: str
) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(0, 6, "Amounts in millions", new_x="LMARGIN", new_y="NEXT")
    rows = [
        ["", "2024", "2023"],
        ["Current liabilities", "", ""],
        ["Trade payables", "4.1", "3.6"],
        ["Accruals", "(0.7)", "1.2"],
    ]
    with pdf.table(borders_layout=rules, text_align=("LEFT", "RIGHT", "RIGHT")) as table:
        for row in rows:
            cells = table.row()
            for value in row:
                cells.cell(value)
    pdf.ln(4)
    for line in ("Weight: 1.2 kg", "Price: $149"):
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    text = _convert(bytes(pdf.output()), "statement.pdf", tmp_path)
    assert text == (
        "Amounts in millions\n\n"
        "|  | 2024 | 2023 |\n|---|---|---|\n| Current liabilities |  |  |\n"
        "| Trade payables | 4.1 | 3.6 |\n| Accruals | (0.7) | 1.2 |\n\n"
        "Weight: 1.2 kg\nPrice: $149\n"
    )


def test_pdf_prose_in_two_columns_drawn_line_by_line_is_not_a_table(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    left = [
        "Our support desk answers within four hours",
        "on working days and within a day otherwise,",
        "and every answer names the engineer on call.",
    ]
    right = [
        "Spare parts leave the warehouse the same day",
        "when they are ordered before noon, and the",
        "courier brings them within two working days.",
    ]
    for a, b in zip(left, right, strict=True):
        pdf.cell(90, 6, a)
        pdf.cell(90, 6, b, new_x="LMARGIN", new_y="NEXT")
    text = _convert(bytes(pdf.output()), "columns.pdf", tmp_path)
    assert "|" not in text


def test_pdf_run_text_spells_ligatures_and_keeps_line_end_hyphens_soft() -> None:
    from claims.documents.converters.pdf import _clean

    assert _clean("the \ufb01nal of\ufb01ce  draft") == "the final office draft"
    assert _clean("docu\x02") == "docu\u00ad"  # joined without the hyphen when it wraps


def test_html_superscripts_are_powers_or_footnote_marks_never_digits_of_a_figure(
    tmp_path: Path,
) -> None:
    page = (
        "<p>Revenue was $4.2<sup>3</sup> million.</p>"
        "<p>The office has 120 m<sup>2</sup> of floor space.</p>"
        "<p>The cell holds 10<sup>6</sup> bacteria per <b>ml</b>.</p>"
    )
    text = _convert(page.encode(), "notes.html", tmp_path)
    assert text == (
        "Revenue was $4.2 million.\n\nThe office has 120 m\u00b2 of floor space.\n\n"
        "The cell holds 10^6 bacteria per ml.\n"
    )


def test_pdf_running_headers_and_footers_are_not_text(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_auto_page_break(False)
    figures = ("Annual leave: 25 days", "Sick leave: 10 days", "Parental leave: 16 weeks")
    for number, line in enumerate(figures, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 9)
        pdf.set_y(8)
        pdf.cell(0, 5, "Staff handbook 2025 - internal", align="C")
        pdf.set_y(30)
        pdf.set_font("Helvetica", "", 11)
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.set_y(-15)
        pdf.set_font("Helvetica", "", 9)
        pdf.cell(0, 5, f"Revision {number}", align="C")  # differs only by its number
    text = _convert(bytes(pdf.output()), "handbook.pdf", tmp_path)
    assert text == (
        "Annual leave: 25 days\n\n\f\n\nSick leave: 10 days\n\n\f\n\nParental leave: 16 weeks\n"
    )


def test_pdf_empty_pages_keep_their_page_break(tmp_path: Path) -> None:
    report = [("paragraph", "Annual leave: 25 days."), ("page",), ("page",)]
    text = _convert(write.pdf_bytes(report), "blank.pdf", tmp_path)
    assert text == "Annual leave: 25 days.\n\n\f\n\n\f\n"  # page 3 is where it was


def test_pdf_short_bold_lines_at_body_size_are_headings_under_the_larger_ones(
    tmp_path: Path,
) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 18)
    pdf.cell(0, 10, "Benefits guide", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    for bold, line in (
        (True, "Leave and absence"),
        (False, "Annual leave: 25 days"),
        (True, "Total: 40 days"),
        (False, "Every request goes through the portal."),
    ):
        pdf.set_font("Helvetica", "B" if bold else "", 11)
        pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    text = _convert(bytes(pdf.output()), "guide.pdf", tmp_path)
    assert text == (
        "# Benefits guide\n\n## Leave and absence\n\nAnnual leave: 25 days\n\n"
        "Total: 40 days\n\nEvery request goes through the portal.\n"
    )


def test_pdf_pages_that_open_alike_keep_their_headings_and_text(tmp_path: Path) -> None:
    report: list[tuple[object, ...]] = []
    for number in range(1, 5):
        if number > 1:
            report.append(("page",))
        report.append(("heading", 2, f"Pump P-{number}00"))
        report.append(("paragraph", f"The P-{number}00 pump weighs {17 + number} kg."))
    text = _convert(write.pdf_bytes(report), "catalogue.pdf", tmp_path)
    assert [p.strip() for p in text.split("\f")] == [
        f"# Pump P-{n}00\n\nThe P-{n}00 pump weighs {17 + n} kg." for n in range(1, 5)
    ]


@pytest.mark.parametrize("name", ["report.html", "report.docx", "report.pdf"])
def test_any_cut_or_corruption_of_a_file_is_read_or_a_clear_error(
    renderings: dict[str, bytes], name: str, tmp_path: Path
) -> None:
    import random

    data = renderings[name]
    rng = random.Random(30)
    variants = [data[: rng.randrange(1, len(data))] for _ in range(12)]
    for _ in range(12):  # a few bytes overwritten in the middle of the file
        spoiled = bytearray(data)
        for _ in range(8):
            spoiled[rng.randrange(len(spoiled))] = rng.randrange(256)
        variants.append(bytes(spoiled))
    for variant in variants:
        try:
            converted = convert(variant, tmp_path / name)
        except InputError as error:
            assert str(error).startswith(str(tmp_path / name))
        else:
            assert converted.text.strip()
