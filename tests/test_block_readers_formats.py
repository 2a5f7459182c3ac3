"""One office document of ours written as .md, .html, .docx and .pdf (by python-docx and
fpdf2 at test time) gives the same claims through the converters and the block readers:
label lines under a product heading, a lead-in before bullets, prose."""

from __future__ import annotations

from pathlib import Path

import pytest
from document_writers import docx_bytes, html_page, markdown, pdf_bytes

from claims.documents.converters import convert
from claims.extraction import extract
from claims.models import Claim

REPORT = [
    ("heading", 1, "Pump catalogue"),
    ("heading", 2, "P-200"),
    ("paragraph", "Weight: 21 kg"),
    ("paragraph", "Maximum head: 12 m"),
    ("paragraph", "Power: 1.1 kW"),
    ("heading", 2, "Staff benefits"),
    ("paragraph", "Full-time employees are entitled to:"),
    ("items", ["25 days of annual leave", "10 days of sick leave"]),
    ("paragraph", "The notice period is 30 days."),
]


def _facts(claims: list[Claim]) -> list[tuple[object, ...]]:
    return sorted((c.claim_key, c.value, c.unit, tuple(sorted(c.scope.items()))) for c in claims)


def _converted(suffix: str, data: bytes, tmp_path: Path) -> list[Claim]:
    path = tmp_path / f"catalogue{suffix}"
    path.write_bytes(data)
    converted = convert(data, path)
    plain = converted.media_type in ("text/plain", "application/pdf")
    claims = extract(converted.text, media_type="text/plain" if plain else "text/markdown")
    for claim in claims:
        assert converted.text[claim.span.start : claim.span.end] == claim.quote
        assert claim.locator is not None
    return claims


def test_the_markdown_reads_as_intended() -> None:
    claims = {c.claim_key: c for c in extract(markdown(REPORT))}
    assert claims["p-200 weight"].value == 21.0
    assert claims["p-200 head"].value == 12.0  # "Maximum head": metric maximum
    assert {c.scope.get("employment") for c in claims.values() if "leave" in c.claim_key} == {
        "full-time"
    }


@pytest.mark.parametrize(
    ("suffix", "write"),
    [
        (".html", lambda: html_page(REPORT).encode()),
        (".docx", lambda: docx_bytes(REPORT)),
        (".pdf", lambda: pdf_bytes(REPORT)),
    ],
)
def test_a_converted_document_gives_the_same_claims_as_its_markdown(
    suffix: str, write: object, tmp_path: Path
) -> None:
    expected = _facts(extract(markdown(REPORT)))
    assert _facts(_converted(suffix, write(), tmp_path)) == expected  # type: ignore[operator]
