"""The same reports as .md, .html, .docx and .pdf: do they give the same claims?

    python bench/eval_format_invariance.py [--show]
    python bench/eval_format_invariance.py --tatqa [TATQA_JSON] [--part tuning|check|both]
                                           [--limit N] [--show] [--json OUT]
                                           [--formats pdf] [--layout NAME|all] [--dump DIR]

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

``--tatqa``: the TAT-QA dev contexts instead (each a report: a title, the first paragraph,
the table with its first row as header row, the other paragraphs; split by the stable hash
of ``bench/eval_tatqa.py``, even = tuning). Besides the share of the Markdown claims each
format gives, it counts the conflict or ambiguous edges the store's builder draws between
the Markdown report and the same report in each other format (``claims.check``; the target
is none). The PDF is written with a TrueType font when one is installed (DejaVu Sans), since
the reports hold curly quotes, dashes and currency signs the PDF's core fonts lack.

``--layout NAME|all``: the PDF set in another page, font and table layout
(``tests/document_writers.py``, ``PDF_LAYOUTS``: narrower and wider pages, landscape,
smaller and larger fonts, a table breaking across pages with or without its header row
drawn again, a narrow or a wide first column, figures that wrap in narrow columns, figures
set flush right at the cells' top, tables without column rules, a footnote set small under
the table), or ``two-tables`` (each table split in two on one page, in every format). The
default is the layout of the earlier figures. Without ``--tatqa`` the office documents'
PDF is written in each named layout besides the default one.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

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


def tatqa_report(context: dict[str, Any]) -> Report:
    """A TAT-QA context as the blocks of a report (what ``eval_tatqa.render`` writes)."""
    rows = context["table"]["table"]
    width = max(len(r) for r in rows)
    rows = [[" ".join(c.split()) for c in r] + [""] * (width - len(r)) for r in rows]
    paragraphs = [
        " ".join(p["text"].split()) for p in sorted(context["paragraphs"], key=lambda p: p["order"])
    ]
    report: Report = [("heading", 1, "Annual report")]
    report += [("paragraph", p) for p in paragraphs[:1]]
    report.append(("table", rows))
    report += [("paragraph", p) for p in paragraphs[1:]]
    return report


_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/Library/Fonts/DejaVuSans.ttf"),
)


# how the pipeline's structure reader reads each format (pipeline.assets.claims): every
# converter marks headings with "#"
_READ_AS = dict.fromkeys((".md", ".html", ".docx", ".pdf"), "text/markdown")


def _ttf() -> str | None:
    return next((str(p) for p in _FONTS if p.exists()), None)


def _disagreements(base: list[Any], other: list[Any]) -> list[Any]:
    """Conflict or ambiguous pairs the store's builder draws between two formats' claims."""
    from claims.check import check_claims
    from claims.extraction import current_generation
    from claims.models import Relation

    result = check_claims(base, other, current_generation()[0])
    return [p for p in result.pairs if p.relation in (Relation.CONFLICT, Relation.AMBIGUOUS)]


def _as_tuples(claims: list[Any]) -> Counter[tuple[str, ...]]:
    found: Counter[tuple[str, ...]] = Counter()
    for claim in claims:
        time = f"{claim.time.start}..{claim.time.end}" if claim.time.start else ""
        scope = ",".join(f"{k}={v}" for k, v in sorted(claim.scope.items()))
        found[(claim.claim_key, str(claim.value), claim.unit or "", time, scope)] += 1
    return found


def tatqa_main(args: argparse.Namespace) -> int:
    import json
    import time

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import dev_eval_common as common
    from eval_tatqa import part_of

    common.quiet_warnings()
    contexts = json.loads(common.require(args.data).read_text(encoding="utf-8"))
    parts = ("tuning", "check") if args.part == "both" else (args.part,)
    code = common.describe_code()
    common.header("TAT-QA reports as .md, .html, .docx and .pdf", args.data, len(contexts), code)
    font = _ttf()
    print(f"pdf font: {font or 'core Helvetica (text folded to Latin-1)'}")
    started = time.perf_counter()
    figures: dict[str, Any] = {}
    summary: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for layout in args.layouts:
            for part in parts:
                chosen = [c for c in contexts if part_of(c["table"]["uid"]) == part][: args.limit]
                found = _measure_part(chosen, part, layout, args, Path(tmp), font)
                figures[part if layout == "default" else f"{part}/{layout}"] = found
                print(f"\n-- {part} part ({len(chosen)} reports), pdf layout {layout}")
                print("| format | same as .md | share | extra claims | conflict/ambiguous edges |")
                print("|---|---|---|---|---|")
                for suffix, got in found.items():
                    share = got["same"] / got["total"] if got["total"] else 1.0
                    row = (
                        f"| {suffix} | {got['same']}/{got['total']} | {share:.3f} | "
                        f"{got['extra']} | {got['edges']} |"
                    )
                    print(row)
                    summary.append(f"| {layout} | {part} {row[2:]}")
    if len(args.layouts) > 1:
        print("\n| pdf layout | part | format | same as .md | share | extra | edges |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(summary))
    print(f"\ntime: {time.perf_counter() - started:.1f} s")
    common.write_json(args.json_out, {**code, **figures})
    return 0


def _measure_part(
    chosen: list[dict[str, Any]],
    part: str,
    layout: str,
    args: argparse.Namespace,
    tmp: Path,
    font: str | None,
) -> dict[str, dict[str, int]]:
    """Per format: the Markdown claims it gives too, the claims it adds, the conflict or
    ambiguous edges with the Markdown report, and the reports it could not convert."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import dev_eval_common as common

    from claims.check import text_version_id

    shared: Counter[str] = Counter()
    total: Counter[str] = Counter()
    extra: Counter[str] = Counter()
    edges: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for number, context in enumerate(chosen, start=1):
        report = tatqa_report(context)
        if layout == "two-tables":
            report = write.two_tables(report)
        uid = context["table"]["uid"][:8]
        files = _files(report, font, args.formats, write.PDF_LAYOUTS.get(layout))
        claims: dict[str, list[Any]] = {}
        for suffix, data in files.items():
            try:
                text = convert(data, Path(tmp, "report" + suffix)).text
            except Exception as error:  # noqa: BLE001 - a bench names what failed
                failed[suffix] += 1
                print(f"  {uid}{suffix}: not converted: {error}")
                continue
            source = suffix.strip(".")
            if args.dump is not None:
                args.dump.mkdir(parents=True, exist_ok=True)
                Path(args.dump, f"{part}-{layout}-{uid}{suffix}.txt").write_text(text)
            claims[suffix] = extract(
                text,
                source_id=source,
                source_version_id=text_version_id(source, text),
                media_type=_READ_AS[suffix],
            )
        base_claims = claims[".md"]
        base = _as_tuples(base_claims)
        for suffix in list(files)[1:]:
            if suffix not in claims:
                continue
            got = _as_tuples(claims[suffix])
            same = base & got
            shared[suffix] += sum(same.values())
            total[suffix] += sum(base.values())
            extra[suffix] += sum((got - base).values())
            pairs = _disagreements(base_claims, claims[suffix])
            edges[suffix] += len(pairs)
            if args.show and (base - same or got - base or pairs):
                print(f"{uid}{suffix}: missing {sorted((base - same).elements())}")
                print(f"{uid}{suffix}: extra   {sorted((got - base).elements())}")
                for p in pairs:
                    print(f"{uid}{suffix}: {p.relation.value} {p.reason[:160]}")
        common.progress(number, len(chosen), 10, f"{part} {layout}")
    return {
        suffix: {
            "same": shared[suffix],
            "total": total[suffix],
            "extra": extra[suffix],
            "edges": edges[suffix],
            "not_converted": failed[suffix],
        }
        for suffix in total
    }


def _files(
    report: Report,
    font: str | None = None,
    formats: tuple[str, ...] = ("html", "docx", "pdf"),
    layout: write.PdfLayout | None = None,
) -> dict[str, bytes]:
    files = {".md": write.markdown(report).encode()}
    if "html" in formats:
        files[".html"] = write.html_page(report).encode()
    if "docx" in formats:
        files[".docx"] = write.docx_bytes(report)
    if "pdf" in formats:
        files[".pdf"] = write.pdf_bytes(report, font=font, layout=layout)
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="list the claims that differ")
    parser.add_argument(
        "--tatqa",
        nargs="?",
        type=Path,
        const=REPO.parent / "shared" / "data" / "dev" / "tatqa" / "tatqa_dataset_dev.json",
        default=None,
        dest="data",
        help="measure the TAT-QA dev reports (default path: ../shared/data/dev/tatqa/...)",
    )
    parser.add_argument("--part", choices=("tuning", "check", "both"), default="both")
    parser.add_argument("--limit", type=int, default=None, help="only the first N reports")
    parser.add_argument("--json", dest="json_out", type=Path, default=None)
    parser.add_argument(
        "--formats",
        type=lambda text: tuple(f.strip(" .") for f in text.split(",")),
        default=("html", "docx", "pdf"),
        help="--tatqa: the formats compared with .md (default html,docx,pdf)",
    )
    parser.add_argument(
        "--dump", type=Path, default=None, help="--tatqa: write each converted text to this folder"
    )
    parser.add_argument(
        "--layout",
        default="default",
        help="the PDF's page, font and table layout: a name of "
        f"{', '.join([*write.PDF_LAYOUTS, 'two-tables'])}, or all (default: default, "
        "the layout of the earlier figures)",
    )
    args = parser.parse_args()
    args.layouts = [*write.PDF_LAYOUTS, "two-tables"] if args.layout == "all" else [args.layout]
    unknown = [name for name in args.layouts if name not in (*write.PDF_LAYOUTS, "two-tables")]
    if unknown:
        parser.error(
            f"--layout: unknown layout {unknown[0]!r}; use one of "
            f"{', '.join([*write.PDF_LAYOUTS, 'two-tables'])} or all"
        )
    if args.data is not None:
        return tatqa_main(args)
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
            for layout in args.layouts:  # other page layouts of the same report
                if layout in write.PDF_LAYOUTS and layout != "default":
                    pdf_layout = write.PDF_LAYOUTS[layout]
                    files[f".pdf ({layout})"] = write.pdf_bytes(report, layout=pdf_layout)
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
