"""Cost of reading tables: the same figures as pipe tables and as prose sentences.

    python bench/bench_tables.py [REPORTS] [--rows N] [--repeat K]

Generates REPORTS (default 200) small reports of our own wording, each a title, a paragraph
with a scale note and a table of N line items (default 12) by three years, and the same
figures written as one sentence per cell ("Trade payables 3 were $412.5 million in 2024.").
Both sets go through ``claims.extraction.extract`` in this one process (pipeline built
before the clock starts; with ``--repeat K`` the best of K runs, caches warm after the
first, so K=1 is the fair figure); printed: claims per set, seconds, and the ratio
table / prose. A report's headers differ per report, so the header reading cache does not
make later reports free.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dev_eval_common as common  # noqa: E402

ITEMS = [
    "Trade payables",
    "Accrued expenses",
    "Deferred revenue",
    "Lease liabilities",
    "Long-term borrowings",
    "Provisions",
    "Income tax payable",
    "Employee benefits",
    "Derivative liabilities",
    "Customer deposits",
    "Other payables",
    "Contract liabilities",
]
YEARS = (2024, 2023, 2022)


def _figures(rng: random.Random, rows: int) -> list[tuple[str, list[float]]]:
    out = []
    for i in range(rows):
        label = f"{ITEMS[i % len(ITEMS)]} {rng.randint(1, 9999)}"
        out.append((label, [round(rng.uniform(5, 900), 1) for _ in YEARS]))
    return out


def table_report(number: int, figures: list[tuple[str, list[float]]]) -> str:
    lines = ["| | " + " | ".join(str(y) for y in YEARS) + " |", "|---|---|---|---|"]
    lines += [f"| {label} | " + " | ".join(f"{v:,.1f}" for v in vs) + " |" for label, vs in figures]
    return (
        f"# Northwind unit {number} annual report\n\n"
        "Liabilities at the end of each fiscal year (in millions of dollars):\n\n"
        + "\n".join(lines)
        + "\n"
    )


def prose_report(number: int, figures: list[tuple[str, list[float]]]) -> str:
    sentences = [
        f"{label} were ${v:,.1f} million in {year}."
        for label, vs in figures
        for year, v in zip(YEARS, vs, strict=True)
    ]
    return f"# Northwind unit {number} annual report\n\n" + " ".join(sentences) + "\n"


def _timed(texts: list[str], repeat: int) -> tuple[float, int]:
    from claims.extraction import extract

    best = float("inf")
    claims = 0
    for _ in range(repeat):
        start = time.perf_counter()
        claims = sum(len(extract(t)) for t in texts)
        best = min(best, time.perf_counter() - start)
    return best, claims


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("reports", nargs="?", type=int, default=200)
    p.add_argument("--rows", type=int, default=12)
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    common.prefer_working_directory()
    common.quiet_warnings()
    from claims.extraction import extract

    rng = random.Random(16)
    sets = [_figures(rng, args.rows) for _ in range(args.reports)]
    tables = [table_report(i, f) for i, f in enumerate(sets)]
    prose = [prose_report(i, f) for i, f in enumerate(sets)]
    extract(tables[0])  # build the pipeline outside the timing
    extract(prose[0])
    code = common.describe_code()
    print(f"== tables vs prose: {args.reports} reports x {args.rows} rows x {len(YEARS)} years")
    print(f"code: {code['code']} at {code['commit']}")
    prose_s, prose_n = _timed(prose, args.repeat)
    table_s, table_n = _timed(tables, args.repeat)
    print(f"prose:  {prose_n:>7} claims  {prose_s:7.2f} s")
    print(f"tables: {table_n:>7} claims  {table_s:7.2f} s")
    print(f"ratio tables / prose: {table_s / prose_s:.2f}")


if __name__ == "__main__":
    main()
