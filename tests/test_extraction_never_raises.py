"""Extraction returns claims (maybe none) for every text: clause-sized fragments and
arbitrary cuts of office text of our own writing, structure marks included, never raise."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claims.extraction import extract

OFFICE_TEXT = """# Harbour Logistics: Staff Guide (2026)

## Time off

Full-time employees are entitled to:

- 26 days of annual leave, plus public holidays
- up to 12 days of paid sick leave per year
  1. a doctor's note after 3 days
- a wellbeing allowance of £300

Notice period: 8 weeks
Probation: 6 months.

According to the 2021 staff survey, 87% of people would recommend us. The API request
timeout is 0.5 s.
The retry limit is 4.

### How long does a refund take?

About 10 working days, by March 31 at the latest.

## Prices

(in thousands of euros)

| Service | 2025 | 2024 |
|---------|------|------|
| Storage | (3.1) | 12,400 |

All prices exclude VAT.

**Weight:** 1.2 kg
Q: Is parking free?
A: Yes, for staff with a permit.

The Aero X2 will retail for $1,299 and is priced at $1,199 for schools; plans start at
$9 per month. Revenue grew 18% while headcount rose to 212 employees, more than 200 people.
\fPage two begins here: a change ticket is required for every release, no exceptions.
"""

_CUT_CHARS = ",.;:\n|\f"


def _ok(text: str, media_type: str = "text/markdown") -> None:
    claims = extract(text, media_type=media_type)
    assert isinstance(claims, list)
    for claim in claims:
        assert text[claim.span.start : claim.span.end] == claim.quote


def _clauses(text: str) -> list[str]:
    parts: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _CUT_CHARS:
            parts.append(text[start : i + 1])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p]


CLAUSES = _clauses(OFFICE_TEXT)


def test_the_whole_office_text_reads_without_error_in_both_media_types() -> None:
    _ok(OFFICE_TEXT)
    _ok(OFFICE_TEXT, "text/plain")


def test_an_attribution_with_nothing_after_it_gives_no_claim() -> None:
    assert extract("According to the 2010 census,") == []
    assert extract("According to the finance team,\n") == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(OFFICE_TEXT)),
    st.integers(0, 400),
    st.sampled_from(["text/markdown", "text/plain"]),
)
def test_any_cut_of_office_text_reads_without_error(
    start: int, length: int, media_type: str
) -> None:
    _ok(OFFICE_TEXT[start : start + length], media_type)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(CLAUSES), min_size=1, max_size=4))
def test_clause_sized_fragments_in_any_order_read_without_error(parts: list[str]) -> None:
    _ok("".join(parts))
    _ok(" ".join(p.strip() for p in parts))
