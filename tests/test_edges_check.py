"""`claims check`: extraction + edge rules on text pairs (seeds 000, 004, the issue)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from edge_fixtures import load_yaml
from typer.testing import CliRunner

from claimledger.cli import app
from claims.check import check_texts
from claims.models import Relation

TEXTS: list[dict[str, Any]] = load_yaml("texts.yaml")
runner = CliRunner()


@pytest.mark.parametrize("case", TEXTS, ids=[c["id"] for c in TEXTS])
def test_text_pair_gets_the_expected_relation(case: dict[str, Any]) -> None:
    result = check_texts(case["left"], case["right"])
    assert result.relation.value == case["expect"], result.reason
    if "rule" in case:
        assert result.rule == case["rule"], result.reason
    assert result.duplicate is case.get("duplicate", False)


@pytest.mark.parametrize("case", TEXTS, ids=[c["id"] for c in TEXTS])
def test_text_pair_relation_is_symmetric(case: dict[str, Any]) -> None:
    forward = check_texts(case["left"], case["right"])
    backward = check_texts(case["right"], case["left"])
    # the reason names the left text's value first, so only it may differ
    assert (forward.relation, forward.rule, forward.duplicate) == (
        backward.relation,
        backward.rule,
        backward.duplicate,
    )


def test_restated_dividend_is_a_conflict_naming_both_values() -> None:
    result = check_texts(
        "The dividend for the period was 12 cents per share.",
        "The dividend for the period was 30 cents per share.",
    )
    assert result.relation is Relation.CONFLICT
    assert "12" in result.reason and "30" in result.reason
    assert len(result.pairs) == 1


def test_check_json_has_the_documented_shape() -> None:
    out = runner.invoke(
        app,
        [
            "check",
            "The Q1 dividend was 12 cents per share.",
            "The Q2 dividend was 15 cents per share.",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {"relation", "rule", "reason", "duplicate", "pairs"} <= set(data)
    assert data["relation"] == "compatible" and data["rule"] == "scope"
    pair = data["pairs"][0]
    assert pair["left"]["scope"] == {"period": "q1"} and pair["right"]["scope"] == {"period": "q2"}


def test_check_prints_a_readable_table() -> None:
    out = runner.invoke(app, ["check", "The dose is 5-10 mg.", "The dose is 15-20 mg."])
    assert out.exit_code == 0, out.output
    assert "relation: conflict" in out.output and "range" in out.output


def test_check_jsonl_writes_one_line_per_input(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    lines = [
        {"id": 1, "left": "The dose is 5-10 mg.", "right": "The dose is 8 mg."},
        {"id": "b", "left": "The timeout is 0.5 s.", "right": "The timeout is 500 ms."},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n\n", encoding="utf-8")
    out = runner.invoke(app, ["check", "--jsonl", str(path)])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert [(r["id"], r["relation"]) for r in rows] == [(1, "compatible"), ("b", "corroboration")]
    assert set(rows[0]) == {"id", "relation", "rule", "reason", "duplicate"}


def test_check_jsonl_bad_line_names_file_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"id": 1, "left": "a", "right": "b"}\n{"id": 2, "left": "a"}\n', "utf-8")
    out = runner.invoke(app, ["check", "--jsonl", str(path)])
    assert out.exit_code != 0
    assert f"{path}:2" in str(out.exception) and "'right'" in str(out.exception)
    assert out.stdout == ""  # nothing half-written: the file is validated first


def test_check_without_texts_is_a_clear_error() -> None:
    out = runner.invoke(app, ["check", "only one"])
    assert out.exit_code != 0
    assert "two texts" in str(out.exception)
