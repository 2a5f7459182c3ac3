"""Readers per block kind: label lines take their label as the attribute and the heading as
the entity, list items their lead-in's scope, FAQ answers their question's subject, tables
go to the table dispatch point (never to the sentence reader), and every claim keeps a
locator and offsets into the document's own text."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims.documents.model import Block
from claims.extraction import extract
from claims.extraction.readers.context import ReadContext
from claims.extraction.readers.table_dispatch import use_table_reader
from claims.models import Claim

DOCUMENTS = Path(__file__).parent / "fixtures" / "office_documents"


def _read(name: str) -> list[Claim]:
    path = DOCUMENTS / name
    text = path.read_text()
    claims = extract(text, media_type="text/plain" if path.suffix == ".txt" else "text/markdown")
    for claim in claims:
        assert text[claim.span.start : claim.span.end] == claim.quote
    return claims


def _keyed(claims: list[Claim]) -> dict[str, Claim]:
    return {c.claim_key: c for c in claims}


def test_a_catalogue_section_of_label_lines_gives_one_key_per_line_under_its_product() -> None:
    claims = _keyed(_read("catalogue.md"))
    p200 = {k: (c.value, c.unit) for k, c in claims.items() if k.startswith("p-200")}
    assert p200 == {
        "p-200 weight": (21.0, "kg"),
        "p-200 head": (12.0, "m"),  # the maximum is a metric scope (docs/EXTRACTION.md)
        "p-200 power": (1.1, "kW"),
        "p-200 flow rate": (120.0, "L/min"),
        "p-200 price": (1499.0, "$"),
    }
    assert claims["p-300 weight"].value == 34.0
    assert claims["p-200 head"].scope == {"metric": "maximum"}
    weight = claims["p-200 weight"]
    assert weight.quote == "Weight: 21 kg"
    assert weight.value_span is not None
    text = (DOCUMENTS / "catalogue.md").read_text()
    assert text[weight.value_span.start : weight.value_span.end] == "21 kg"
    assert weight.locator is not None and weight.locator.heading_path == ("Pump catalogue", "P-200")


def test_a_datasheet_noise_level_is_a_sound_level_not_a_word_of_the_key() -> None:
    claims = _keyed(extract("## P-200\n\nNoise: 45 dB\nWeight: 21 kg\n"))
    assert claims["p-200 noise"].unit == "dB"
    assert claims["p-200 noise"].dimension == "sound level"


def test_label_lines_on_consecutive_lines_are_two_units() -> None:
    claims = _keyed(extract("## P-9 router\n\nWeight: 1.2 kg\nPrice: $149\n"))
    assert claims["p-9 weight"].unit == "kg"
    assert claims["p-9 price"].value == 149.0


def test_a_label_line_and_a_prose_sentence_stating_one_fact_share_one_key() -> None:
    (label,) = extract("Annual leave: 25 days per year.")
    (prose,) = extract("Employees get 25 days of annual leave.")
    assert label.claim_key == prose.claim_key == "leave"
    assert label.scope["period"] == prose.scope["period"] == "annual"
    (notice,) = extract("Notice period: 30 days")
    assert notice.claim_key == "notice period"
    (warranty,) = extract("Warranty: 2 years")
    assert warranty.claim_key == "warranty"


def test_a_topic_heading_names_no_entity_but_a_product_code_does() -> None:
    (topic,) = extract("## Leave\n\nNotice period: 30 days\n")
    assert topic.entity is None and topic.claim_key == "notice period"
    (product,) = extract("## Aero X2\n\nWeight: 900 g\n")
    assert product.claim_key == "aero x2 weight"
    # the kind of document is no part of the thing it describes
    (sheet,) = extract("# Aero X2 datasheet\n\nWeight: 900 g\n")
    assert sheet.claim_key == "aero x2 weight"


def test_a_label_whose_value_is_a_clause_is_read_as_prose() -> None:
    claims = extract("Note: the office is closed for 2 days in December.")
    assert claims and all(not c.claim_key.startswith("note") for c in claims)


def test_list_items_take_the_scope_of_their_lead_in() -> None:
    claims = _read("handbook.md")
    leave = {c.scope.get("employment"): c.value for c in claims if c.claim_key == "leave"}
    assert leave == {"full-time": 25.0, "part-time": 15.0}
    sick = next(c for c in claims if c.claim_key == "sick leave")
    assert sick.scope["employment"] == "full-time"
    assert sick.locator is not None and sick.locator.list_item == 2
    # the lead-in itself states nothing
    assert not [c for c in claims if "entitled" in c.quote]


def test_a_lead_in_that_names_an_attribute_gives_it_to_items_that_name_none() -> None:
    claims = extract("Annual leave:\n\n- Full-time staff: 25 days\n- Part-time staff: 15 days\n")
    assert [(c.claim_key, c.scope.get("employment"), c.value) for c in claims] == [
        ("leave", "full-time", 25.0),
        ("leave", "part-time", 15.0),
    ]
    assert all(c.scope["period"] == "annual" for c in claims)


def test_a_list_item_without_a_lead_in_keeps_its_own_scope() -> None:
    (claim,) = extract("Benefits\n\n- 25 days of annual leave\n")
    assert "employment" not in claim.scope


def test_a_faq_answer_takes_its_questions_attribute() -> None:
    claims = _read("faq.md")
    notice = next(c for c in claims if c.quote == "30 days.")
    assert notice.claim_key == "notice period"
    leave = next(c for c in claims if c.quote == "25 days per year.")
    assert leave.claim_key == "leave"
    assert leave.locator is not None
    assert leave.locator.heading_path[-1] == "How much annual leave do employees get?"
    # the same answer without its question has no attribute
    (alone,) = extract("30 days.")
    assert alone.claim_key.startswith("unknown:")


def test_a_handbook_as_markdown_and_as_plain_text_gives_the_same_claims() -> None:
    def facts(claims: list[Claim]) -> list[tuple[object, ...]]:
        return [
            (c.claim_key, c.value, c.unit, tuple(sorted(c.scope.items())), c.quote) for c in claims
        ]

    assert facts(_read("handbook.md")) == facts(_read("handbook.txt"))


def test_a_table_gives_no_sentence_claims_and_goes_to_the_table_reader() -> None:
    text = (DOCUMENTS / "policy.md").read_text()
    claims = extract(text)
    # only the table reader quotes table rows, each claim located at its cell
    quoting_rows = [c for c in claims if "|" in c.quote]
    assert quoting_rows
    assert all(c.locator is not None and c.locator.row is not None for c in quoting_rows)
    seen: list[tuple[int, str]] = []

    def reader(context: ReadContext, block: Block) -> list[Claim]:
        assert block.table is not None
        seen.append((block.table.rows, block.table.caption or ""))
        return []

    use_table_reader(reader)
    try:
        extract(text)
    finally:
        use_table_reader(None)
    assert seen == [(2, "All amounts in US dollars.")]


def test_a_full_stop_after_a_unit_symbol_ends_the_sentence() -> None:
    claims = _keyed(_read("policy.md"))
    assert claims["api request timeout"].quote == "The API request timeout is 0.5 s."
    assert claims["retry limit"].value == 3.0


@pytest.mark.parametrize("name", ["catalogue.md", "faq.md", "handbook.md", "policy.md"])
def test_every_claim_of_a_structured_document_has_a_locator(name: str) -> None:
    claims = _read(name)
    assert claims
    for claim in claims:
        assert claim.locator is not None and claim.locator.heading_path
