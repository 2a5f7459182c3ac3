"""`claims run`: the whole pipeline in-process from the command line, with a summary."""

from __future__ import annotations

import shutil
from pathlib import Path

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
    assert "│ sources                │ 6" in first.output
    assert "│ versions processed now │ 6" in first.output
    assert "edges: conflicts" in first.output
    assert "(active)" in first.output
    assert (cli_env / "dagster" / "dagster.yaml").exists()  # persistent Dagster home

    shutil.copy(FIXTURES / "bad/latin1-notes.txt", corpus / "ops/latin1-notes.txt")
    second = runner.invoke(app, ["run", str(corpus), "--register", str(register)])
    assert second.exit_code == 2
    assert "│ versions processed now │ 1" in second.output
    assert "ops/latin1-notes@" in second.output
    assert "latin1-notes.txt" in second.output and "not valid UTF-8" in second.output
    assert "│ versions               │ 6" in second.output
