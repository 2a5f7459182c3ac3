"""``claims extract``: text, JSON and JSON Lines output, and clear errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from claimledger.cli import app
from claimledger.cli.extract import CLAIM_FIELDS

runner = CliRunner()

ISSUE_FIELDS = {
    "subject", "predicate", "claim_key", "kind", "value", "low", "high", "bound", "unit",
    "canonical_value", "canonical_unit", "scope", "time", "polarity", "reported_speech",
    "span", "value_span", "quote", "confidence",
} | {"entity", "attribute"} | {"locator"}  # issues 12 (identity) and 30 (locator)  # fmt: skip


def test_extract_file_prints_one_line_per_claim(tmp_path: Path) -> None:
    source = tmp_path / "policy.txt"
    source.write_text("The Q1 dividend was 12 cents per share.\nThe notice period is 30 days.\n")
    result = runner.invoke(app, ["extract", str(source)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2
    assert "dividend = 12 cents per share" in lines[0]
    assert "scope=period:q1" in lines[0]


def test_extract_json_has_exactly_the_issue_fields(tmp_path: Path) -> None:
    source = tmp_path / "a.txt"
    source.write_text("Interactive requests have a 250-token output limit.")
    result = runner.invoke(app, ["extract", str(source), "--json"])
    assert result.exit_code == 0, result.output
    (claim,) = json.loads(result.output)
    assert set(claim) == ISSUE_FIELDS == set(CLAIM_FIELDS)
    assert claim["claim_key"] == "output limit"
    assert claim["scope"] == {"request_type": "interactive"}
    text = source.read_text()
    assert text[claim["span"]["start"] : claim["span"]["end"]] == claim["quote"]


def test_extract_reads_stdin() -> None:
    result = runner.invoke(app, ["extract", "-", "--json"], input="p99 latency 900 ms")
    assert result.exit_code == 0, result.output
    (claim,) = json.loads(result.output)
    assert claim["canonical_value"] == 0.9


def test_extract_jsonl_writes_one_line_per_input() -> None:
    path = Path(__file__).parent / "fixtures" / "extraction_cli" / "inputs.jsonl"
    result = runner.invoke(app, ["extract", "--jsonl", str(path)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.strip().splitlines()]
    assert [row["id"] for row in rows] == ["filing-q1", "filing-q1-restated", 3, "empty"]
    assert rows[0]["claims"][0]["value"] == 12
    assert rows[1]["claims"][0]["value"] == 30
    assert rows[0]["claims"][0]["claim_key"] == rows[1]["claims"][0]["claim_key"]
    assert rows[3]["claims"] == []
    assert all(set(c) == ISSUE_FIELDS for row in rows for c in row["claims"])


def test_bad_jsonl_line_is_named_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text('{"id": 1, "text": "The fee is 5%."}\n{"id": 2, "txt": "oops"}\n')
    result = runner.invoke(app, ["extract", "--jsonl", str(path)])
    assert result.exit_code != 0
    assert f"{path}:2" in str(result.exception)
    assert '"text"' in str(result.exception)
    assert result.stdout == ""


def test_missing_and_non_utf8_files_are_clear_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["extract", str(tmp_path / "nope.txt")])
    assert result.exit_code != 0 and "no such file" in str(result.exception)
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage\x80")
    result = runner.invoke(app, ["extract", str(binary)])
    assert result.exit_code != 0 and "not UTF-8" in str(result.exception)


def test_cli_maps_bad_input_to_exit_code_two(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "in.jsonl"
    path.write_text("not json\n")
    proc = subprocess.run(
        [sys.executable, "-m", "claimledger", "extract", "--jsonl", str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parent,
        check=False,
    )
    assert proc.returncode == 2
    assert f"{path}:1" in proc.stderr and "not valid JSON" in proc.stderr
    assert proc.stdout == ""
