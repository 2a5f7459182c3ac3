"""Chaos: an exception in each pipeline step in turn (issue 31, point 10).

``claims run`` must say which step (or which source version) failed, exit non-zero, and the
next run must leave the store exactly as a run that never failed: the store is the record of
progress, so a failed step's work is redone and nothing half-written stays. The failure is
injected at the step's boundary (the function the asset calls); everything else is real:
the extractor, SQLite, Dagster in-process, the CLI.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings
from claims.tables import ClaimRow
from pipeline.resources import ClaimStore
from tests.pipeline_support import FIXTURES, table_rows
from tests.store_ledger import ledger

# the version whose extraction raises: the handbook of the notice period
BROKEN_FILE = "notice-period-handbook"


class Injected(RuntimeError):
    """The fault this test injects (its message names the step)."""


def _raising(step: str) -> Callable[..., Any]:
    def fail(*_args: object, **_kwargs: object) -> Any:
        raise Injected(f"chaos: injected into {step}")

    return fail


def _break_one_extraction(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.assets.claims as step
    from claims.extract_pool import in_process
    from claims.extraction import extract

    def extract_or_raise(text: str, **kwargs: Any) -> Any:
        if "handbook" in text.lower():
            raise Injected("chaos: injected into the extraction of the handbook")
        return extract(text, **kwargs)

    monkeypatch.setattr(
        step, "extract_versions", lambda todo, **_: in_process(todo, extract_or_raise)
    )


def _break_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.graph as step

    monkeypatch.setattr(step, "recompute", _raising("claim_edges"))


def _break_review(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.assets.review as step

    monkeypatch.setattr(step, "route", _raising("review_queue"))


def _break_status(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.assets.status as step

    monkeypatch.setattr(step, "build_claim_status", _raising("conflict_status"))


STEPS = {
    "extraction of one version": (_break_one_extraction, BROKEN_FILE),
    "claim_edges": (_break_edges, "claim_edges"),
    "review_queue": (_break_review, "review_queue"),
    "conflict_status": (_break_status, "conflict_status"),
}


def _run(corpus: Path) -> tuple[int, dict[str, Any]]:
    register = FIXTURES / "register.yaml"
    result = CliRunner().invoke(app, ["run", str(corpus), "--register", str(register), "--json"])
    start = result.stdout.index("{")
    return result.exit_code, json.loads(result.stdout[start:])


def _content(store: ClaimStore) -> dict[str, list[tuple[Any, ...]]]:
    """``ledger`` with each claim's quote by its text only (``quote_id`` numbers quotes in
    the order versions were written, which a redone extraction changes)."""
    found = ledger(store)
    found["claims"] = table_rows(store, ClaimRow, skip=("created_at", "quote_id"))
    return found


def _store_of(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> ClaimStore:
    monkeypatch.setenv("CLAIMS_DATA_DIR", str(data_dir))
    get_settings.cache_clear()
    return ClaimStore(database_url=get_settings().resolved_database_url)


@pytest.mark.parametrize("step", sorted(STEPS))
def test_a_step_that_raises_is_reported_and_the_next_run_recovers(
    step: str, cli_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    clean_dir = tmp_path / "clean"
    clean_store = _store_of(clean_dir, monkeypatch)
    code, _ = _run(corpus)
    assert code == 0
    expected = _content(clean_store)
    assert expected["edges"] and expected["claim_status"]

    store = _store_of(cli_env, monkeypatch)
    inject, named = STEPS[step]
    with monkeypatch.context() as chaos:
        inject(chaos)
        code, summary = _run(corpus)
    assert code != 0, summary
    failures = " ".join(f"{f['what']}: {f['message']}" for f in summary["failures"])
    assert named in failures and "chaos: injected" in failures, failures

    code, summary = _run(corpus)
    assert code == 0, summary
    assert _content(store) == expected
