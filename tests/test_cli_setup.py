"""Setup a newcomer can follow (issue 16): the version, help that shows flags as flags, a
password hash by prompt, a store that says it is empty, `claims serve` saying nobody can
log in without a reviewers file, and `claims run --policy FILE`."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from claimledger.cli import app
from claimledger.web import create_app
from claims.errors import NotFoundError
from claims.settings import Settings
from review.reviewers import verify_password

runner = CliRunner()
REPO = Path(__file__).resolve().parents[1]


def _ok(*args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_version_and_flags_shown_as_flags() -> None:
    assert _ok("--version").strip() == "claimledger 0.1.0"
    for command in (["review", "list"], ["policy", "apply"], ["run"], ["--version"]):
        text = _ok(*[c for c in command if c != "--version"], "--help")
        assert "<bool>" not in text, text
    assert "--dry-run" in _ok("policy", "apply", "--help")
    assert "--policy" in _ok("run", "--help")


def test_hash_password_prompts_twice_and_its_help_asks_for_nothing() -> None:
    help_text = _ok("review", "hash-password", "--help")
    assert "required" not in help_text.lower()
    result = runner.invoke(app, ["review", "hash-password"], input="tea at five\ntea at five\n")
    assert result.exit_code == 0, result.output
    encoded = result.stdout.strip().splitlines()[-1]
    assert verify_password("tea at five", encoded)
    mismatch = runner.invoke(app, ["review", "hash-password"], input="one\ntwo\nsame\nsame\n")
    assert mismatch.exit_code == 0 and "match" in mismatch.output.lower()


def test_commands_in_a_directory_without_a_store_say_which_store_and_that_it_is_empty(
    cli_env: Path,
) -> None:
    listed = _ok("review", "list")
    assert f"store {cli_env / 'claims.db'} (SQLite) is empty: no sources yet" in listed
    assert "is empty" in _ok("policy", "list")
    status = runner.invoke(app, ["status", "--key", "dividend"])  # main() maps it to exit 3
    assert isinstance(status.exception, NotFoundError)
    assert "is empty: no sources yet" in str(status.exception)


def test_login_page_says_when_nobody_can_log_in(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'c.db'}", data_dir=tmp_path)
    from claims.store.migrate import upgrade

    upgrade(settings.resolved_database_url)
    with TestClient(create_app(settings)) as client:
        page = client.get("/review/login").text
    assert "no reviewers file: nobody can log in" in page
    assert str(tmp_path / "reviewers.yaml") in page and "claims review hash-password" in page


def test_claims_serve_warns_at_start_without_a_reviewers_file(tmp_path: Path) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env.update(PYTHONPATH=str(REPO), CLAIMS_DATA_DIR=str(tmp_path / ".claims"))
    server = subprocess.Popen(
        [sys.executable, "-m", "claimledger", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert server.stderr is not None
        seen = ""
        deadline = time.monotonic() + 60
        while "nobody can log in" not in seen:
            assert time.monotonic() < deadline, seen
            line = server.stderr.readline()
            assert line or server.poll() is None, seen
            seen += line
        assert "warning: no reviewers file" in seen
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


POLICY = """
policy_id: office
version: 2
tiers: [official, informal]
auto_resolution:
  - {id: official-first, kind: higher_tier_wins, material_conflicts: true}
"""
REGISTER = """
tiers: [official, informal]
sources:
  handbook: {title: Staff handbook, tier: official}
  wiki: {title: Team wiki, tier: informal}
"""


@pytest.mark.slow
def test_claims_run_applies_the_policy_given_with_policy(cli_env: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "handbook.txt").write_text("The notice period is 30 days.\n", encoding="utf-8")
    (docs / "wiki.txt").write_text("The notice period is 60 days.\n", encoding="utf-8")
    (tmp_path / "register.yaml").write_text(REGISTER, encoding="utf-8")
    (tmp_path / "policy.yaml").write_text(POLICY, encoding="utf-8")
    result = runner.invoke(
        app,
        [
            "run",
            str(docs),
            "--register",
            str(tmp_path / "register.yaml"),
            "--policy",
            str(tmp_path / "policy.yaml"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["sources"] == 2 and summary["edges_by_kind"].get("conflicts") == 1
    versions = json.loads(_ok("policy", "list", "--json"))
    assert versions[0]["policy_id"] == "office" and versions[0]["declared_version"] == "2"
    (item,) = json.loads(_ok("review", "list", "--all", "--json"))
    assert item["state"] == "resolved"
    assert "CLAIMS_POLICY_FILE" not in os.environ  # --policy held for that run only

    # Dagster metadata without oddities: one id per generation, no status frozen at
    # "candidate" on the partition, no -1 for a full refresh.
    import dagster as dg

    from pipeline.instance import local_instance

    instance = local_instance(cli_env)
    try:
        claims_event = instance.get_latest_materialization_event(dg.AssetKey("claims"))
        routing_event = instance.get_latest_materialization_event(dg.AssetKey("review_queue"))
    finally:
        instance.dispose()
    assert claims_event is not None and routing_event is not None
    claims_meta = claims_event.asset_materialization.metadata  # type: ignore[union-attr]
    assert claims_meta["generation"].value == summary["extractor_generation"]["id"]
    assert not {"generation_label", "generation_status"} & set(claims_meta)
    routing_meta = routing_event.asset_materialization.metadata  # type: ignore[union-attr]
    assert routing_meta["mode"].value == "full" and "keys_refreshed" not in routing_meta
