"""Office prose: prices in sales wording, dates without a year, generic verbs that are no
attribute, and counts of people as one dimension."""

from __future__ import annotations

from datetime import date

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Claim


def _one(text: str, **kwargs: object) -> Claim:
    (claim,) = extract(text, **kwargs)  # type: ignore[arg-type]
    return claim


def test_sales_wording_states_a_price_that_meets_costs() -> None:
    retail = _one("The Aero X2 will retail for $1,299.")
    costs = _one("The Aero X2 costs USD 1,499.00.")
    priced = _one("The Aero X2 is priced at $1,199.")
    assert retail.claim_key == costs.claim_key == priced.claim_key == "aero x2 price"
    assert _one("The Pro plan starts at $29 per month.").claim_key == "price"
    assert _one("The Pro plan sells for $29 per month.").scope == {"product_tier": "pro"}


def test_a_retail_price_and_a_cost_conflict() -> None:
    report = check_texts("The Aero X2 will retail for $1,299.", "The Aero X2 costs USD 1,499.00.")
    assert report.relation.value == "conflict"


def test_start_at_without_money_is_no_price() -> None:
    claim = _one("The shift starts at 9:00 and lasts 8 hours.")
    assert "price" not in claim.claim_key


def test_a_date_without_a_year_takes_the_documents_year_and_is_marked_inferred() -> None:
    claim = _one("# Expenses policy (2026)\n\nSubmit expense claims by March 31.\n")
    assert claim.time.start == claim.time.end == date(2026, 3, 31)
    assert claim.time.year_inferred
    dated = _one("Date: 9 December 2025\n\nThe office opens on 4 May.\n")
    assert dated.time.start == date(2025, 5, 4) and dated.time.year_inferred


def test_the_register_date_serves_when_the_document_states_none() -> None:
    claim = _one("The office opens on 4 May.", document_date=date(2024, 1, 1))
    assert claim.time.start == date(2024, 5, 4) and claim.time.year_inferred
    alone = _one("The office opens on 4 May.")
    assert alone.time.start is None and not alone.time.year_inferred


def test_a_date_with_its_year_is_not_inferred() -> None:
    claim = _one("# Notes (2026)\n\nThe survey closes on 12 June 2025.\n")
    assert claim.time.start == date(2025, 6, 12) and not claim.time.year_inferred


def test_a_generic_verb_is_never_the_whole_attribute() -> None:
    ticket = _one("A change ticket is required for every release.")
    growth = _one("Revenue grew 18% in 2025.")
    assert ticket.claim_key == "change ticket"
    assert growth.claim_key == "revenue change"
    assert ticket.coarse_key != growth.coarse_key
    report = check_texts("A change ticket is required.", "Revenue grew 18% in 2025.")
    assert report.relation.value not in ("conflict", "ambiguous")


def test_counts_of_people_are_one_dimension_whatever_noun_counts_them() -> None:
    staff = _one("The company has 212 employees.")
    people = _one("The company employs more than 200 people.")
    assert staff.dimension == people.dimension == "people"
    report = check_texts(
        "The company has 212 employees.", "The company employs more than 200 people."
    )
    assert "different dimensions" not in report.reason and report.relation.value != "conflict"
    fewer = check_texts("The company has 212 employees.", "The company employs 150 people.")
    assert fewer.relation.value == "conflict"
