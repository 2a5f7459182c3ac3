"""Seed 004's three cases through the Python API, the CLI and HTTP, from real extraction."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from retrieval_cases import CASE_IDS, CASES, check_response, load_case
from sqlalchemy import Engine
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claimledger.web import create_app
from claims.models import ConflictStatus, Requester
from claims.settings import get_settings
from claims.store import make_engine, transaction
from retrieval.access import token_digest
from retrieval.answer import answer
from retrieval.status import status_of_key, status_of_source
from review.queue import resolve
from review.reviewers import Reviewer
from tests.store_template import upgrade  # a copy of a store migrated once

ANYONE = Requester(principal="anyone", groups=[])
TOKEN = "test-token-5b1f0c2e9d7a4b3c8e6f1a2d"
ACCESS_YAML = f"""
default_principal: anyone
principals:
  anyone:
    groups: []
  fay:
    groups: [finance]
    tokens_sha256: [{token_digest(TOKEN)}]
"""


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_seed004_case_through_the_python_api(engine: Engine, case: dict[str, Any]) -> None:
    load_case(engine, case)
    result = answer(engine, case["question"], ANYONE).model_dump(mode="json")
    assert check_response(case, result) == []
    if case["id"] == "unresolved":
        assert [side["value"] for side in result["sides"]] == [250, 500]
        assert result["policy_version"] is None
    if case["id"] == "superseded":
        old = status_of_source(engine, "old", ANYONE)
        assert old.status is ConflictStatus.SUPERSEDED
        assert old.superseded_by is not None and old.superseded_by.source_id == "new"
        assert result["citations"] == ["new"]
    if case["id"] == "different_scope":
        assert result["citations"] == ["interactive"]
        assert status_of_key(engine, "output limit", ANYONE).status is ConflictStatus.NONE


def test_a_reviewer_resolution_answers_only_for_those_who_see_the_winner(engine: Engine) -> None:
    case = CASES[CASE_IDS.index("unresolved")]
    load_case(engine, case, groups={"b": ["finance"]})
    finance = Requester(principal="fay", groups=["finance"])
    report = status_of_key(engine, "output limit", finance)
    assert report.status is ConflictStatus.CONTESTED
    item_id = report.claims[0].review_item_id
    assert item_id is not None
    winner = next(c.claim_id for c in report.claims if c.citation.source_id == "b")
    with transaction(engine) as session:
        decided = resolve(
            session, item_id, Reviewer(name="rita"), winners=[winner], rationale="b is newer"
        )
    result = answer(engine, case["question"], finance)
    assert (result.status.value, result.value, result.citations) == ("answered", 500, ["b"])
    assert result.policy_version == decided.policy_version
    # Without finance the winner is hidden: what is visible is recomputed, b never shows.
    outsider = answer(engine, case["question"], ANYONE)
    assert (outsider.status.value, outsider.value, outsider.citations) == ("answered", 250, ["a"])
    assert outsider.policy_version is None
    assert status_of_key(engine, "output limit", ANYONE).status is ConflictStatus.NONE


def _cli_store(cli_env: Path, case: dict[str, Any]) -> None:
    cli_env.mkdir(parents=True, exist_ok=True)
    (cli_env / "access.yaml").write_text(ACCESS_YAML, encoding="utf-8")
    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    try:
        load_case(store, case)
    finally:
        store.dispose()


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_seed004_case_through_the_cli(cli_env: Path, case: dict[str, Any]) -> None:
    _cli_store(cli_env, case)
    run = CliRunner().invoke(cli_app, ["ask", case["question"], "--as", "fay", "--json"])
    assert run.exit_code == 0, run.output
    assert check_response(case, json.loads(run.output)) == []
    human = CliRunner().invoke(cli_app, ["ask", case["question"]])
    assert human.exit_code == 0 and case["expected"]["status"] in human.output


def test_cli_status_and_bad_input_as_a_real_process(cli_env: Path) -> None:
    _cli_store(cli_env, CASES[CASE_IDS.index("superseded")])
    env = {
        **os.environ,
        "CLAIMS_DATA_DIR": str(cli_env),
        "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
    }
    command = [sys.executable, "-m", "claimledger"]
    done = subprocess.run(
        [*command, "status", "--source", "old", "--json"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "superseded"
    missing = subprocess.run(
        [*command, "status", "--claim", "nope"], env=env, capture_output=True, text=True
    )
    assert missing.returncode == 3 and "claim 'nope' not found" in missing.stderr
    empty = subprocess.run([*command, "ask", "   "], env=env, capture_output=True, text=True)
    assert empty.returncode == 2 and "the question is empty" in empty.stderr


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_seed004_case_through_http(cli_env: Path, case: dict[str, Any]) -> None:
    _cli_store(cli_env, case)
    client = TestClient(create_app(get_settings()))
    response = client.post(
        "/api/answer",
        json={"question": case["question"]},
        headers={"Authorization": f"Bearer {TOKEN}"},
    )
    assert response.status_code == 200, response.text
    assert check_response(case, response.json()) == []


def test_claims_metrics_reports_coverage_and_citations_per_side(cli_env: Path) -> None:
    cli_env.mkdir(parents=True, exist_ok=True)
    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    try:
        load_case(store, CASES[CASE_IDS.index("unresolved")], groups={"b": ["finance"]})
    finally:
        store.dispose()
    (cli_env / "access.yaml").write_text(ACCESS_YAML, encoding="utf-8")
    run = CliRunner().invoke(cli_app, ["metrics", "--json"])
    assert run.exit_code == 0, run.output
    seen = json.loads(run.output)["retrieval"]
    assert seen["fay"]["visible_evidence_coverage"] == 1.0
    assert seen["fay"]["visible_conflicts"] == 1
    assert seen["fay"]["citations_per_side_mean"] == 1.0
    assert seen["anyone"]["visible_evidence_coverage"] == 0.5
    assert seen["anyone"]["visible_conflicts"] == 0
