"""The table reader (claims.extraction.readers): tables as people write them become claims
keyed like the sentences that state the same facts (issue 30, point 3, tables)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.check import check_texts
from claims.documents.model import Block, BlockKind, Document, Locator
from claims.documents.pipe_tables import parse_pipe_table
from claims.extraction import extract
from claims.extraction.readers import TableClaim, read_table
from claims.models import Claim, Relation

TABLES = Path(__file__).parent / "fixtures" / "tables"


def _document(name: str) -> Document:
    """A Document of one fixture: its title, the paragraph above the table, the table."""
    text = (TABLES / name).read_text(encoding="utf-8")
    lines = text.split("\n")
    title = lines[0].lstrip("# ").strip()
    first = text.index("\n|") + 1
    last = text.index("\n\n", first) if "\n\n" in text[first:] else len(text)
    table = parse_pipe_table(text, first, last)
    assert table is not None
    above_end = first - 2
    above_start = text.rfind("\n\n", 0, above_end) + 2
    blocks = (
        Block(BlockKind.HEADING, 0, len(lines[0]), level=1),
        Block(BlockKind.PARAGRAPH, above_start, above_end, Locator(heading_path=(title,))),
        Block(BlockKind.TABLE, first, last, Locator(heading_path=(title,), table=1), table=table),
    )
    return Document(text, blocks, "text/markdown", "test", "1", title=title)


def _read(name: str) -> tuple[Document, list[TableClaim]]:
    document = _document(name)
    block = next(b for b in document.blocks if b.kind == BlockKind.TABLE)
    return document, read_table(document, block, table_number=1, source_id=name)


def _cell(claims: list[TableClaim], row_header: str, column_header: str) -> TableClaim:
    found = [
        c
        for c in claims
        if c.locator.row_header == row_header and c.locator.column_header == column_header
    ]
    assert len(found) == 1, [c.locator.describe() for c in claims]
    return found[0]


# ----------------------------------------------------------------------------- price table


def test_price_table_rows_name_plans_and_columns_name_prices() -> None:
    _, claims = _read("price_list.md")
    pro = _cell(claims, "Pro", "Monthly price").claim
    assert pro.attribute == "price"
    assert pro.scope == {"product_tier": "pro", "period": "monthly"}
    assert (pro.value, pro.canonical_unit) == (29.0, "USD")
    annual = _cell(claims, "Pro", "Annual price").claim
    assert annual.scope["period"] == "annual" and annual.value == 290.0


def test_a_price_cell_and_a_sentence_stating_it_share_one_claim_key() -> None:
    _, claims = _read("price_list.md")
    cell = _cell(claims, "Pro", "Monthly price").claim
    (sentence,) = extract("The Pro plan costs $29 per month.")
    assert cell.claim_key == sentence.claim_key == "price"
    assert cell.scope["product_tier"] == sentence.scope["product_tier"]


def test_a_price_cell_corroborates_the_sentence_and_conflicts_with_another_price() -> None:
    table = (TABLES / "price_list.md").read_text(encoding="utf-8")

    def verdicts(sentence: str) -> dict[tuple[str, str], Relation]:
        report = check_texts(table, sentence)
        return {
            (p.left.quote.split("|")[1].strip(), p.left.predicate or ""): p.relation
            for p in report.pairs
            if p.left.quote.startswith("|")
        }

    same = verdicts("The monthly price of the Pro plan is $29.")
    assert same[("Pro", "Monthly price")] == Relation.CORROBORATION
    assert Relation.CONFLICT not in same.values()
    other = verdicts("The monthly price of the Pro plan is $35.")
    assert other[("Pro", "Monthly price")] == Relation.CONFLICT
    assert [r for r in other.values() if r == Relation.CONFLICT] == [Relation.CONFLICT]


def test_cells_without_a_value_give_no_claim_and_counts_take_no_currency() -> None:
    _, claims = _read("price_list.md")
    enterprise = [c for c in claims if c.locator.row_header == "Enterprise"]
    assert [c.locator.column_header for c in enterprise] == ["Seats included"]
    seats = enterprise[0].claim
    assert seats.value == 50.0 and seats.canonical_unit is None  # "All prices in US dollars"


# ------------------------------------------------------------------------------ spec table


def test_spec_table_rows_are_products_and_units_are_normalised() -> None:
    _, claims = _read("spec_sheet.md")
    weight = _cell(claims, "P-200", "Weight").claim
    assert (weight.entity, weight.attribute) == ("p-200", "weight")
    assert weight.canonical_value == pytest.approx(21000.0) and weight.canonical_unit == "g"
    power = _cell(claims, "P-350", "Power").claim
    assert power.claim_key == "p-350 power" and power.canonical_value == pytest.approx(2200.0)


def test_a_spec_cell_and_a_sentence_stating_it_share_one_claim_key() -> None:
    _, claims = _read("spec_sheet.md")
    (sentence,) = extract("The P-200 weighs 21 kg.")
    cell = _cell(claims, "P-200", "Weight").claim
    assert cell.claim_key == sentence.claim_key
    assert cell.canonical_value == sentence.canonical_value


# ------------------------------------------------------------------------- financial table


def test_year_columns_are_the_claims_time() -> None:
    _, claims = _read("annual_results.md")
    for column, year in (("2024", 2024), ("2023", 2023)):
        claim = _cell(claims, "Trade payables", column).claim
        assert claim.time.start is not None and claim.time.start.year == year
        assert claim.time.end is not None and claim.time.end.year == year


def test_group_rows_carry_into_the_attribute_until_the_total_row() -> None:
    _, claims = _read("annual_results.md")
    payables = _cell(claims, "Trade payables", "2024").claim
    borrowings = _cell(claims, "Long-term borrowings", "2024").claim
    margin = _cell(claims, "Operating margin", "2024").claim
    assert "liability" in payables.attribute.split()
    assert "non-current" in borrowings.attribute.split()
    assert "liability" not in margin.attribute.split()  # after "Total non-current liabilities"
    assert not any(c.locator.row_header == "Current liabilities" for c in claims)


def test_scale_from_the_text_above_and_brackets_read_as_negative() -> None:
    _, claims = _read("annual_results.md")
    payables = _cell(claims, "Trade payables", "2024").claim
    assert payables.value == pytest.approx(412.5e6) and payables.canonical_unit == "USD"
    accrued = _cell(claims, "Accrued expenses", "2023").claim
    assert accrued.value == pytest.approx(91.7e6) and accrued.canonical_unit == "USD"
    loss = _cell(claims, "Foreign exchange (loss) gain", "2024").claim
    assert loss.value == pytest.approx(-3.1e6)
    margin = _cell(claims, "Operating margin", "2023").claim
    assert (margin.value, margin.canonical_unit) == (10.8, "%")  # never scaled


def test_the_entity_is_the_documents_subject_when_rows_are_attributes() -> None:
    _, claims = _read("annual_results.md")
    assert {c.claim.entity for c in claims} == {"lakeview food"}


def test_claims_quote_the_row_and_point_at_the_cell() -> None:
    document, claims = _read("annual_results.md")
    item = _cell(claims, "Lease liabilities", "2023")
    claim = item.claim
    assert claim.quote == document.text[claim.span.start : claim.span.end]
    assert claim.quote.startswith("| Lease liabilities")
    assert claim.value_span is not None
    assert document.text[claim.value_span.start : claim.value_span.end] == "70.9"
    assert (item.locator.table, item.locator.row, item.locator.column) == (1, 7, 2)
    assert item.locator.describe().endswith("row 7 (Lease liabilities), column 2 (2023)")


def test_every_figure_of_a_table_is_one_claim_with_its_own_slot() -> None:
    _, claims = _read("annual_results.md")
    assert len(claims) == 16  # 8 figure rows x 2 years; the two group rows hold none
    slots = {(c.claim.claim_key, tuple(c.claim.scope_residual), c.claim.time.start) for c in claims}
    assert len(slots) == len(claims)


# --------------------------------------------------------------------- through extract()


def test_extract_reads_a_pipe_table_cell_by_cell_not_as_one_key_of_pipes() -> None:
    text = (TABLES / "annual_results.md").read_text(encoding="utf-8")
    claims = extract(text)
    assert not any("|" in c.claim_key for c in claims)
    table = [c for c in claims if c.quote.startswith("|")]
    assert len(table) == 16
    sentence = [c for c in claims if not c.quote.startswith("|")]
    assert all(c.span.end <= text.index("\n|") or c.span.start > text.rindex("|") for c in sentence)


def test_odd_cells_never_raise() -> None:
    text = (
        "| Item | 2024 | Note |\n|---|---|---|\n| A | (1,2 | x |\n| B | $ | 3-5 |\n"
        "| C | 12%% | (7) |\n| | | |\n| D | — | n/a |\n"
    )
    claims = extract(text)
    values = sorted(c.value for c in claims if isinstance(c.value, float))
    assert all(math.isfinite(v) for v in values)


_CELLS = st.sampled_from(
    [
        "",
        "—",
        "n/a",
        "None",
        "(3.1)",
        "$(1,200)",
        "(38)%",
        "$  1,452.4",
        "12%",
        "1.1 kW",
        "3-5",
        "2019",
        "2 0 1 8",
        "FY2020",
        "Years ended December 31,",
        "(in millions)",
        "$'000",
        "Total",
        "Current liabilities",
        "Pro",
        "P-200",
        "Value",
        "1e400",
        "\\|",
        "·",
        "٣٠",
        "Member aged 65",
    ]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=1, max_value=4).flatmap(
        lambda width: st.lists(
            st.lists(_CELLS, min_size=width, max_size=width), min_size=2, max_size=7
        )
    )
)
def test_any_table_reads_without_error_and_quotes_its_rows(rows: list[list[str]]) -> None:
    lines = ["| " + " | ".join(r) + " |" for r in rows]
    lines.insert(1, "|" + "---|" * len(rows[0]))
    text = "# Report\n\nFigures below (in thousands):\n\n" + "\n".join(lines) + "\n"
    for claim in extract(text):
        assert text[claim.span.start : claim.span.end] == claim.quote
        for number in (claim.value, claim.canonical_value):
            assert not isinstance(number, float) or math.isfinite(number)


def test_table_claims_are_valid_models_as_built() -> None:
    for name in ("price_list.md", "spec_sheet.md", "annual_results.md"):
        _, claims = _read(name)
        for item in claims:
            claim = item.claim
            assert Claim.model_validate(claim.model_dump()) == claim
