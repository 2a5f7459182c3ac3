"""One long line cannot flood the store (issue 31, point 11).

A Markdown export pasted on a single line gave tens of thousands of claims, over a million
edges and hundreds of review items, and erasing it ran for minutes. The store now takes at
most ``MAX_CLAIMS_PER_LONG_LINE`` claims from one such line (``claims.document_bounds``),
``claims run`` warns naming the file, and erasing it is a few batches with progress.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text
from typer.testing import CliRunner

from claimledger.cli import app
from claims.document_bounds import (
    LONG_LINE_CHARS,
    MAX_CLAIMS_PER_KEY,
    MAX_CLAIMS_PER_LONG_LINE,
    bound_claims,
)
from claims.settings import get_settings
from claims.store import make_engine


def _export_line(records: int) -> str:
    # a pasted export: one record after another, separated by semicolons, no line break
    return "# Job export " + "; ".join(
        f"the timeout of batch job {n} is {n % 89 + 3} seconds, the retry budget is "
        f"{n % 11 + 1} attempts and the queue depth is between {n % 23} and {n % 23 + 4} jobs"
        for n in range(records)
    )


def test_a_long_line_keeps_its_first_claims_and_ordinary_lines_keep_all() -> None:
    line = "x" * (LONG_LINE_CHARS + 1)
    body = line + "\n" + "short line\n"
    # (span start, key) rows: 1,500 in the long line, 20 on the short line after it
    rows = [(n, f"k{n % 7}") for n in range(1500)] + [(len(line) + 1, "short") for _ in range(20)]
    bounded = bound_claims(body, rows, lambda r: r[0], lambda r: r[1])
    assert len(bounded.kept) == MAX_CLAIMS_PER_LONG_LINE + 20
    assert bounded.kept[:MAX_CLAIMS_PER_LONG_LINE] == rows[:MAX_CLAIMS_PER_LONG_LINE]
    note = bounded.note("ops/export (export.md)")
    assert note is not None and "ops/export (export.md)" in note and "500 claims" in note
    # an ordinary document of many lines is untouched below the per-key bound
    lines = [(n * 40, "fee") for n in range(MAX_CLAIMS_PER_KEY)]
    assert bound_claims("a\n" * 200_000, lines, lambda r: r[0], lambda r: r[1]).dropped == 0


def test_claims_run_bounds_a_one_line_export_and_erasing_it_reports_progress(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "ops").mkdir(parents=True)
    export = _export_line(1800)
    assert len(export) > 10 * LONG_LINE_CHARS and "\n" not in export
    (corpus / "ops" / "job-export.md").write_text(export + "\n", encoding="utf-8")
    (corpus / "ops" / "runbook.md").write_text(
        "# Runbook\n\nThe timeout of batch job 7 is 60 seconds.\n", encoding="utf-8"
    )
    runner = CliRunner()
    result = runner.invoke(app, ["run", str(corpus), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout[result.stdout.index("{") :])
    assert len(summary["bounded"]) == 1, summary["bounded"]
    (note,) = summary["bounded"]
    assert "job-export.md" in note and "longer than" in note
    engine = make_engine(get_settings().resolved_database_url)
    try:
        with engine.connect() as conn:

            def count(sql: str) -> int:
                return int(conn.execute(text(sql)).scalar() or 0)

            claims = count("SELECT count(*) FROM claims WHERE source_id = 'ops/job-export'")
            assert 0 < claims <= MAX_CLAIMS_PER_LONG_LINE
            # linear: a few edges per claim (slot extremes, family extremes, stars)
            assert count("SELECT count(*) FROM edges") <= 5 * count("SELECT count(*) FROM claims")
            assert count("SELECT count(*) FROM review_items") <= claims // 10
    finally:
        engine.dispose()

    erased = runner.invoke(app, ["sources", "erase", "ops/job-export", "--reason", "pasted twice"])
    assert erased.exit_code == 0, erased.output
    steps = [line for line in erased.stderr.splitlines() if line.startswith("erasing: ")]
    assert len(steps) >= 5 and f"{claims} claims" in steps[0]
    engine = make_engine(get_settings().resolved_database_url)
    try:
        with engine.connect() as conn:
            left = conn.execute(
                text("SELECT count(*) FROM claims WHERE source_id = 'ops/job-export'")
            ).scalar()
        assert left == 0
    finally:
        engine.dispose()
