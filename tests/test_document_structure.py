"""The structure reader: Markdown-flavoured text (.md, .txt, converters' output) read into
Document blocks with exact offsets, heading paths, list items, label lines, FAQ questions,
tables with their captions, and page numbers from form feeds."""

from __future__ import annotations

from pathlib import Path

from claims.documents import BlockKind, Document
from claims.documents.structure import read_structure

DOCUMENTS = Path(__file__).parent / "fixtures" / "office_documents"


def _kinds(document: Document) -> list[tuple[str, str]]:
    return [(b.kind.value, document.block_text(b)) for b in document.blocks]


def test_markdown_headings_paragraphs_lists_and_label_lines_become_blocks() -> None:
    document = read_structure((DOCUMENTS / "handbook.md").read_text())
    assert _kinds(document)[:6] == [
        ("heading", "Northwind Studio: People Handbook"),
        ("heading", "Time off"),
        ("paragraph", "Full-time employees are entitled to:"),
        ("list_item", "25 days of annual leave"),
        ("list_item", "10 days of sick leave"),
        ("list_item", "a home office allowance of $600"),
    ]
    labels = [b for b in document.blocks if b.kind is BlockKind.LABEL_LINE]
    assert [b.label for b in labels] == ["Notice period", "Probation period"]
    assert labels[0].locator.heading_path == ("Northwind Studio: People Handbook", "Notice")
    assert document.title == "Northwind Studio: People Handbook"


def test_every_block_offset_points_into_the_text_itself() -> None:
    for path in DOCUMENTS.iterdir():
        text = path.read_text()
        document = read_structure(text, "text/plain" if path.suffix == ".txt" else "text/markdown")
        for block in document.blocks:
            assert 0 <= block.start <= block.end <= len(text)
            assert document.block_text(block) == document.block_text(block).strip()


def test_a_plain_text_file_reads_short_lines_between_blank_lines_as_headings() -> None:
    md = read_structure((DOCUMENTS / "handbook.md").read_text())
    txt = read_structure((DOCUMENTS / "handbook.txt").read_text(), "text/plain")

    def placed(document: Document) -> list[tuple[BlockKind, tuple[str, ...]]]:
        return [(b.kind, b.locator.heading_path) for b in document.blocks]

    assert placed(txt) == placed(md)
    # Markdown does not: there a short line is a paragraph
    assert read_structure("Opening hours\n\nWe open at 9.\n").blocks[0].kind is BlockKind.PARAGRAPH


def test_consecutive_label_lines_are_one_block_each_and_prose_with_a_colon_is_not_one() -> None:
    document = read_structure(
        "## P-200\n\nWeight: 1.2 kg\nPrice: $149\n\nThe rule is simple: ask first.\n"
        "Quick note before the break: our payment terms are 45 days from the\ninvoice date.\n"
    )
    assert _kinds(document)[1:] == [
        ("label_line", "Weight: 1.2 kg"),
        ("label_line", "Price: $149"),
        ("paragraph", "The rule is simple: ask first."),
        (
            "paragraph",
            "Quick note before the break: our payment terms are 45 days from the\ninvoice date.",
        ),
    ]


def test_setext_headings_nested_lists_and_numbered_lists() -> None:
    document = read_structure(
        "Benefits\n========\n\nPension\n-------\n\n- Matched up to 5%\n  - after one year\n"
        "- Paid monthly\n\n1. Join the scheme\n2. Choose a fund\n"
    )
    headings = [
        (b.level, document.block_text(b)) for b in document.blocks if b.kind is BlockKind.HEADING
    ]
    assert headings == [(1, "Benefits"), (2, "Pension")]
    items = [
        (b.level, b.locator.list_item, document.block_text(b))
        for b in document.blocks
        if b.kind is BlockKind.LIST_ITEM
    ]
    assert items == [
        (1, 1, "Matched up to 5%"),
        (2, 1, "after one year"),
        (1, 2, "Paid monthly"),
        (1, 1, "Join the scheme"),
        (1, 2, "Choose a fund"),
    ]


def test_faq_questions_put_themselves_in_the_heading_path_of_their_answers() -> None:
    document = read_structure((DOCUMENTS / "faq.md").read_text())
    questions = [document.block_text(b) for b in document.blocks if b.kind is BlockKind.QUESTION]
    assert questions == [
        "How long is the notice period?",
        "When is payday?",
        "How much annual leave do employees get?",
    ]
    answer = next(b for b in document.blocks if document.block_text(b) == "30 days.")
    assert answer.locator.heading_path[-1] == "How long is the notice period?"
    qa = read_structure("Q: Is parking free?\nA: Yes, for staff with a permit.\n")
    assert [b.kind for b in qa.blocks] == [BlockKind.QUESTION, BlockKind.PARAGRAPH]
    assert qa.blocks[1].locator.heading_path == ("Is parking free?",)


def test_a_table_keeps_its_caption_above_and_its_note_below() -> None:
    document = read_structure(
        "## Results\n\n(in millions)\n\n| Item | 2025 |\n|---|---|\n| Revenue | 12.5 |\n\n"
        "All figures are unaudited.\n"
    )
    (table,) = [b for b in document.blocks if b.kind is BlockKind.TABLE]
    assert table.table is not None
    assert table.table.caption == "(in millions) All figures are unaudited."
    assert table.locator.table == 1
    assert [b.kind for b in document.blocks].count(BlockKind.CAPTION) == 2
    assert table.table.cell(1, 1) is not None and table.table.cell(1, 1).text == "12.5"  # type: ignore[union-attr]


def test_form_feeds_number_the_pages_of_every_block() -> None:
    text = "Summary\n\nRevenue rose.\n\fCosts fell.\n\f\nMargins held.\n"
    document = read_structure(text, "text/plain")
    pages = [(document.block_text(b), b.locator.page) for b in document.blocks]
    assert pages == [("Summary", 1), ("Revenue rose.", 1), ("Costs fell.", 2), ("Margins held.", 3)]
    assert all(b.locator.page is None for b in read_structure("No pages here.\n").blocks)


def test_an_escaped_marker_at_a_line_start_is_ordinary_text() -> None:
    document = read_structure("\\# 1 in customer service\n\n\\- 5 degrees overnight\n")
    assert [b.kind for b in document.blocks] == [BlockKind.PARAGRAPH, BlockKind.PARAGRAPH]


def test_a_locator_reads_as_a_short_path() -> None:
    document = read_structure((DOCUMENTS / "handbook.md").read_text())
    item = next(b for b in document.blocks if b.kind is BlockKind.LIST_ITEM)
    assert item.locator.describe() == "Northwind Studio: People Handbook > Time off > item 1"
    label = next(b for b in document.blocks if b.kind is BlockKind.LABEL_LINE)
    assert label.locator.to_dict() == {
        "heading_path": ["Northwind Studio: People Handbook", "Notice"],
        "paragraph": 3,
    }


def test_a_bullet_glyph_inside_a_line_opens_an_item_of_its_own() -> None:
    text = (
        "Costs changed as follows: \u2022 freight rose 4% \u2022 fuel fell 2%\n\n"
        "\u2022 staff costs rose $1.2 million; \u2022 rent fell $0.3 million; and "
        "\u2022 insurance was flat\n\n"
        "The 2024 - 2025 plan keeps the kg\u00b7m figures and the A - B split.\n"
    )
    document = read_structure(text)
    assert _kinds(document) == [
        ("paragraph", "Costs changed as follows:"),
        ("list_item", "freight rose 4%"),
        ("list_item", "fuel fell 2%"),
        ("list_item", "staff costs rose $1.2 million;"),
        ("list_item", "rent fell $0.3 million; and"),
        ("list_item", "insurance was flat"),
        ("paragraph", "The 2024 - 2025 plan keeps the kg\u00b7m figures and the A - B split."),
    ]
    items = [b.locator.list_item for b in document.blocks if b.kind is BlockKind.LIST_ITEM]
    assert items == [1, 2, 3, 4, 5]  # one list, as a blank line between items keeps it
