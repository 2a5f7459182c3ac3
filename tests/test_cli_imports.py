"""`claims run` loads what the pipeline needs and nothing of the web app (issue 14.1: start-up
was a third of a run). Each check runs a fresh interpreter and reads its ``sys.modules``."""

from __future__ import annotations

import json
from pathlib import Path

from cli_modules import fee_note_run, modules_loaded_by

# The HTTP stack and the web code: `claims serve` needs them, `claims run` and the rest do not.
WEB_MODULES = ("fastapi", "uvicorn", "starlette", "review.web", "retrieval.http", "claimledger.web")


def _web(modules: set[str]) -> list[str]:
    return sorted(
        m for m in modules if m in WEB_MODULES or m.startswith(tuple(f"{w}." for w in WEB_MODULES))
    )


def test_claims_run_does_not_load_the_web_stack() -> None:
    _, modules, done = fee_note_run()
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["claims"] >= 1  # the run really extracted and stored the sentence
    assert "pipeline.runner" in modules and "claims.extraction" in modules
    assert _web(modules) == []


def test_the_cli_alone_loads_neither_the_web_stack_nor_the_retrieval_layer(tmp_path: Path) -> None:
    modules, done = modules_loaded_by(tmp_path, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("claimledger ")
    assert _web(modules) == []
    # `ask` and `status` import the retrieval layer when they run, not when `claims` starts
    assert sorted(m for m in modules if m == "retrieval" or m.startswith("retrieval.")) == []
    assert "spacy" not in modules and "dagster" not in modules
