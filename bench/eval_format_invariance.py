"""The same reports as .md, .html, .docx and .pdf: do they give the same claims?

    python bench/eval_format_invariance.py [--show]

Writes a handful of office documents of our own (a handbook with bulleted entitlements, a
price list with a table and a sales paragraph, a datasheet with label lines under product
headings, a financial summary with a year table, a five-page catalogue whose pages open
alike, a policy) in the four
formats with the test writers (tests/document_writers.py: python-docx, fpdf2), converts
each (``claims.documents.converters``), extracts its claims (``claims.extraction``) and
compares every format's claims with the Markdown file's, as a multiset of (claim key,
value, unit, time, scope). Prints, per format, the share of the Markdown claims the format
gives too and the claims it gives that Markdown does not; ``--show`` lists the differences.
The issue's target is 0.98 per format.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from claims.documents.converters import convert  # noqa: E402
from claims.extraction import extract  # noqa: E402
from tests import document_writers as write  # noqa: E402

Report = list[tuple[Any, ...]]

REPORTS: dict[str, Report] = {
    "handbook": [
        ("heading", 1, "Employee handbook"),
        ("heading", 2, "Leave"),
        ("paragraph", "Full-time employees receive the following entitlements each year."),
        ("items", ["Annual leave: 25 days", "Sick leave: 10 days", "Parental leave: 16 weeks"]),
        ("heading", 2, "Notice"),
        ("paragraph", "The notice period is 30 days for staff and 90 days for managers."),
    ],
    "price-list": [
        ("heading", 1, "Price list"),
        ("paragraph", "The Pro plan will retail for $29 per month from March 2025."),
        ("table", [["Plan", "Monthly price", "Seats"], ["Basic", "$9", "1"], ["Pro", "$29", "5"]]),
        ("paragraph", "All prices are in US dollars and exclude sales tax."),
    ],
    "datasheet": [
        ("heading", 1, "Pump datasheet"),
        ("heading", 2, "P-200"),
        ("items", ["Weight: 21 kg", "Rated flow: 120 L/min", "Motor power: 1.1 kW"]),
        ("heading", 2, "P-300"),
        ("items", ["Weight: 34 kg", "Rated flow: 200 L/min", "Motor power: 2.2 kW"]),
    ],
    "financials": [
        ("heading", 1, "Annual summary"),
        ("paragraph", "Revenue grew 18% in 2024 to $4.2 million."),
        (
            "table",
            [
                ["Item", "2024", "2023"],
                ["Revenue", "4.2", "3.6"],
                ["Operating costs", "3.1", "2.9"],
            ],
        ),
        ("paragraph", "The company employed 212 people at the end of 2024."),
    ],
    "catalogue": [  # one product a page: pages that open alike (not running headers)
        block
        for number in range(1, 6)
        for block in (
            *((("page",),) if number > 1 else ()),
            ("heading", 2, f"Pump P-{number}00"),
            ("paragraph", f"The P-{number}00 pump weighs {17 + number} kg."),
            ("items", [f"Rated flow: {100 + 20 * number} L/min", f"Price: ${800 + 100 * number}"]),
        )
    ],
    "travel-policy": [
        ("heading", 1, "Travel policy"),
        ("paragraph", "Economy class is required for flights shorter than 6 hours."),
        ("paragraph", "Hotel costs up to EUR 150 per night are reimbursed."),
        ("paragraph", "Claims must be filed within 30 days of the trip."),
    ],
}


def claim_tuples(text: str) -> Counter[tuple[str, ...]]:
    found: Counter[tuple[str, ...]] = Counter()
    for claim in extract(text):
        time = f"{claim.time.start}..{claim.time.end}" if claim.time.start else ""
        scope = ",".join(f"{k}={v}" for k, v in sorted(claim.scope.items()))
        found[(claim.claim_key, str(claim.value), claim.unit or "", time, scope)] += 1
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="list the claims that differ")
    args = parser.parse_args()
    shared: Counter[str] = Counter()
    total: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name, report in REPORTS.items():
            files = {
                ".md": write.markdown(report).encode(),
                ".html": write.html_page(report).encode(),
                ".docx": write.docx_bytes(report),
                ".pdf": write.pdf_bytes(report),
                ".pdf (tables without rules)": write.pdf_bytes(report, table_rules="NONE"),
            }
            claims = {
                suffix: claim_tuples(convert(data, Path(tmp, name + suffix.split()[0])).text)
                for suffix, data in files.items()
            }
            base = claims[".md"]
            for suffix in list(files)[1:]:
                same = base & claims[suffix]
                shared[suffix] += sum(same.values())
                total[suffix] += sum(base.values())
                extra[suffix] += sum((claims[suffix] - base).values())
                if args.show and (base - same or claims[suffix] - base):
                    print(f"{name}{suffix}: missing {sorted((base - same).elements())}")
                    print(f"{name}{suffix}: extra   {sorted((claims[suffix] - base).elements())}")
    print(f"{len(REPORTS)} reports; claims the .md gives: {total['.html']}")
    print("| format | same as .md | share | extra claims |")
    print("|---|---|---|---|")
    for suffix in list(total):
        share = shared[suffix] / total[suffix] if total[suffix] else 1.0
        print(f"| {suffix} | {shared[suffix]} | {share:.3f} | {extra[suffix]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
