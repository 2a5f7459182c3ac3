"""The reviewer CLI through typer's CliRunner, on a real SQLite store in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_ledger import DIVIDEND, FIXTURES, LIMIT, ReviewLedger
from typer.testing import CliRunner

from claimledger.cli import app
from claims.errors import ConcurrencyError, InputError, PolicyError
from claims.settings import get_settings
from claims.store import make_engine
from tests.store_template import upgrade  # a copy of a store migrated once

runner = CliRunner()


@pytest.fixture
def store(cli_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(FIXTURES / "reviewers.yaml"))
    monkeypatch.setenv("CLAIMS_REVIEWER", "alice")
    get_settings.cache_clear()
    url = get_settings().resolved_database_url
    upgrade(url)
    engine = make_engine(url)
    ReviewLedger(engine).load()
    engine.dispose()
    return cli_env


def claims(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def failure(*args: str) -> BaseException:
    result = runner.invoke(app, list(args))
    assert result.exit_code != 0
    assert result.exception is not None
    return result.exception


def _items(*args: str) -> dict[str, dict]:
    return {i["claim_key"]: i for i in json.loads(claims("review", "list", "--json", *args))}


def test_policy_validate_prints_the_stamp_and_apply_routes_the_conflicts(store: Path) -> None:
    out = claims("policy", "validate", str(FIXTURES / "policy.yaml"))
    assert "valid, policy acme-authority version 1+" in out
    out = claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    assert (
        "routed 3 conflict sets: 1 newly auto-resolved, 0 rule decision changed winner, "
        "0 reopened, 2 opened, 0 risk changed" in out
    )
    assert "newly auto-resolved: " in out and "acme|headcount: (new) -> resolved by rule:" in out
    assert set(_items()) == {DIVIDEND, LIMIT}  # the headcount conflict was decided by rule
    assert "1+" in claims("policy", "list")


def test_malformed_policy_is_refused_naming_the_field(store: Path) -> None:
    error = failure("policy", "validate", str(FIXTURES / "policy_bad_tier.yaml"))
    assert isinstance(error, PolicyError)
    assert "field 'tiers'" in str(error)


def test_reviewer_claims_resolves_and_reads_the_history(store: Path) -> None:
    claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    item = _items()[LIMIT]
    shown = claims("review", "show", item["id"])
    assert "The interactive assistant has a 250-token output limit." in shown
    assert "assistant-note-b" in shown and "tier management" in shown

    assert "claimed" in claims("review", "claim", item["id"], "--revision", str(item["revision"]))
    assert [i["claim_key"] for i in json.loads(claims("review", "list", "--json", "--mine"))] == [
        LIMIT
    ]
    out = claims(
        "review",
        "resolve",
        item["id"],
        "--winner",
        "c-limit-a",
        "--rationale",
        "Note A is the approved interactive limit.",
    )
    assert "winners c-limit-a" in out
    assert LIMIT not in _items()
    assert _items("--state", "resolved")[LIMIT]["state"] == "resolved"

    history = claims("review", "history", item["id"])
    assert "alice" in history and "item.resolved" in history and "claimed -> resolved" in history
    metrics = json.loads(claims("metrics", "--json"))
    assert metrics["confirmed"] == 1 and metrics["auto_resolved"] == 1
    # the text view names every figure the JSON has, the origins shortfall included
    shortfalls = {p: f["high_risk_keys_short_of_origins"] for p, f in metrics["retrieval"].items()}
    text = claims("metrics")
    for principal, short in shortfalls.items():
        assert f"{principal}: visible-evidence coverage" in text
        assert f"high-risk keys short of independent origins {short}" in text


def test_bad_cli_input_gives_clear_errors(store: Path) -> None:
    claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    item = _items()[DIVIDEND]
    error = failure("review", "claim", item["id"], "--as", "mallory")
    assert isinstance(error, InputError) and "unknown reviewer 'mallory'" in str(error)
    error = failure(
        "review", "resolve", item["id"], "--winner", "c-limit-a", "--rationale", "wrong item"
    )
    assert isinstance(error, InputError) and "not part of this review item" in str(error)
    error = failure("review", "defer", item["id"], "--until", "soon")
    assert isinstance(error, InputError) and "YYYY-MM-DD" in str(error)
    claims("review", "claim", item["id"], "--as", "bob")
    error = failure("review", "claim", item["id"], "--revision", str(item["revision"]))
    assert isinstance(error, ConcurrencyError)
    assert _items()[DIVIDEND]["assignee"] == "bob"


def test_defer_dismiss_and_reopen_from_the_terminal(store: Path) -> None:
    claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    items = _items()
    claims("review", "defer", items[LIMIT]["id"], "--until", "2999-01-01")
    assert _items()[LIMIT]["deferred_until"] == "2999-01-01"
    claims(
        "review",
        "dismiss",
        items[DIVIDEND]["id"],
        "--reason",
        "different_definition",
        "--rationale",
        "gross versus net dividend",
    )
    assert DIVIDEND not in _items()
    claims("review", "reopen", items[DIVIDEND]["id"], "--reason", "the CFO says both are net")
    assert _items()[DIVIDEND]["state"] == "open"


def test_claims_serve_migrates_the_store_and_serves_the_reviewer_ui(store: Path) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    repo = Path(__file__).resolve().parents[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "claimledger", "serve", "--port", str(port)],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": str(repo)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/review/login", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "claims serve did not answer"
                time.sleep(0.3)
        assert response.status_code == 200 and "Reviewer login" in response.text
        assert response.cookies.get("claims_review_session")
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def test_applying_a_malformed_policy_changes_nothing(store: Path) -> None:
    claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    before = json.loads(claims("policy", "list", "--json"))
    for bad in ("policy_bad_tier.yaml", "policy_bad_yaml.yaml", "policy_unknown_field.yaml"):
        error = failure("policy", "apply", str(FIXTURES / bad), "--as", "admin")
        assert isinstance(error, PolicyError) and bad in str(error)
    assert json.loads(claims("policy", "list", "--json")) == before


def test_show_json_has_every_side_with_provenance(store: Path) -> None:
    claims("policy", "apply", str(FIXTURES / "policy.yaml"), "--as", "admin")
    view = json.loads(claims("review", "show", _items()[DIVIDEND]["id"], "--json"))
    sides = {s["claim_id"]: s for s in view["sides"]}
    assert set(sides) == {"c-div-press", "c-div-report", "c-div-restated"}
    restated = sides["c-div-restated"]
    assert restated["authority_tier"] == "regulator" and restated["version_number"] == 1
    assert (
        restated["quote"]
        == "The dividend for fiscal 2025 is EUR 1.05 per share after the correction."
    )
    assert restated["scope_text"] == "period=fy2025"
    assert view["history"][0]["action"] == "item.open"
