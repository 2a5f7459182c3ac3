"""`claims run`: the whole pipeline in-process from the command line, with a summary."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from tests.pipeline_support import FIXTURES


def test_claims_run_prints_the_summary_then_isolates_a_bad_file(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    register = FIXTURES / "register.yaml"
    runner = CliRunner()

    first = runner.invoke(app, ["run", str(corpus), "--register", str(register)])
    assert first.exit_code == 0, first.output
    assert "sources\t6" in first.output
    assert "versions processed now\t6" in first.output
    assert "edges: conflicts" in first.output
    assert "(active)" in first.output
    assert (cli_env / "dagster" / "dagster.yaml").exists()  # persistent Dagster home

    shutil.copy(FIXTURES / "bad/latin1-notes.txt", corpus / "ops/latin1-notes.txt")
    second = runner.invoke(app, ["run", str(corpus), "--register", str(register)])
    assert second.exit_code == 2
    assert "versions processed now\t1" in second.output
    assert "ops/latin1-notes@" in second.output
    assert "latin1-notes.txt" in second.output and "not valid UTF-8" in second.output
    assert "versions\t6" in second.output


def test_make_run_on_the_bundled_samples_passes_every_check(
    cli_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the README's quickstart runs (`make run`): the sample corpus, its register and its
    # authority policy; every blocking check, the known-conflict probes included, must pass.
    from claims.settings import get_settings

    samples = Path(__file__).resolve().parent.parent / "samples"
    monkeypatch.setenv("CLAIMS_POLICY_FILE", str(samples / "policy.yaml"))
    get_settings.cache_clear()
    result = CliRunner().invoke(
        app, ["run", str(samples / "corpus"), "--register", str(samples / "register.yaml")]
    )
    assert result.exit_code == 0, result.output
    assert "sources\t20" in result.output
    assert "failed" not in result.output
