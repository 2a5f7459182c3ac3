"""The ``claims`` step with its extraction on worker processes (claims.extract_pool): the
store ends as with one process, a version that raises is named while the others are
stored, and a custom extractor stays in the step's process."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest
from sqlalchemy import select, text

from claims.extraction.pipeline import MAX_TEXT_CHARS
from claims.models import Claim
from claims.settings import get_settings
from claims.tables import ClaimQuoteRow, ClaimRow, SourceVersionRow
from pipeline.resources import ExtractorResource
from pipeline.runner import run_pipeline
from tests.pipeline_extractors import relabelled
from tests.pipeline_support import make_world, table_rows

TEAMS = ["billing", "payments", "identity", "search", "storage", "mobile", "support", "data"]


def _add_team_notes(corpus: Path, count: int) -> None:
    """Notes in the style of the fixture corpus, so the run holds a few dozen versions."""
    for i in range(count):
        team = TEAMS[i % len(TEAMS)]
        path = corpus / "teams" / f"{team}-{i:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"# {team.title()} team handbook, part {i}\n\n"
            f"The {team} on-call rotation is {7 + i % 3 * 7} days. Incidents of severity 1 "
            f"are acknowledged within {5 + i % 4 * 5} minutes.\n\n"
            f"- The {team} error budget is {0.1 * (1 + i % 5):.1f}% per quarter.\n"
            f"- Since March 2024 the {team} deploy freeze starts {2 + i % 2} days before "
            "a release.\n",
            encoding="utf-8",
        )


def _run(world, **extractor: object):  # type: ignore[no-untyped-def]
    return run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(**extractor),  # type: ignore[arg-type]
        batch_size=1000,
    )


def _claims_in_write_order(world) -> list[tuple]:  # type: ignore[no-untyped-def]
    columns = [c.name for c in ClaimRow.__table__.columns if c.name != "created_at"]
    with world.store.transaction() as session:
        rows = session.execute(text(f"SELECT {', '.join(columns)} FROM claims ORDER BY rowid"))
        return [tuple(row) for row in rows]


def test_two_workers_store_what_one_process_stores(tmp_path: Path) -> None:
    stores = []
    for workers in (1, 2):
        world = make_world(tmp_path / f"workers-{workers}")
        _add_team_notes(world.corpus, 24)
        outcome = _run(world, workers=workers, pool_min_versions=1)
        assert outcome.failures == []
        stores.append(
            (
                _claims_in_write_order(world),
                table_rows(world.store, ClaimQuoteRow),
                table_rows(world.store, SourceVersionRow, skip=("ingested_at", "origin_path")),
            )
        )
    (one_claims, one_quotes, one_versions), (two_claims, two_quotes, two_versions) = stores
    assert len(one_versions) == 30
    assert len(one_claims) > 100
    assert two_versions == one_versions
    assert two_claims == one_claims  # same claims, ids and quote links, written in one order
    assert two_quotes == one_quotes


@pytest.fixture
def large_sources(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Ingest accepts a file past the extractor's own limit (a real way extraction raises)."""
    monkeypatch.setenv("CLAIMS_MAX_SOURCE_BYTES", str(MAX_TEXT_CHARS + 1_000_000))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_a_version_that_raises_in_a_worker_is_named_and_the_others_are_stored(
    tmp_path: Path, large_sources: None
) -> None:
    world = make_world(tmp_path)
    _add_team_notes(world.corpus, 10)
    (world.corpus / "exports").mkdir()
    (world.corpus / "exports" / "ticket-dump.txt").write_text(
        "Ticket closed. " * (MAX_TEXT_CHARS // 15 + 1), encoding="utf-8"
    )
    outcome = _run(world, workers=2, pool_min_versions=1)
    (failure,) = outcome.failures
    assert "extraction failed for 1 source version(s): exports/ticket-dump@" in failure.message
    assert "ticket-dump.txt" in failure.message
    assert "more than the extractor's limit" in failure.message
    with world.store.transaction() as session:
        with_claims = set(
            session.scalars(
                select(SourceVersionRow.source_id)
                .join(ClaimRow, ClaimRow.source_version_id == SourceVersionRow.id)
                .distinct()
            )
        )
    assert "exports/ticket-dump" not in with_claims
    assert {f"teams/{TEAMS[i % len(TEAMS)]}-{i:02d}" for i in range(10)} <= with_claims


CALLS: list[int] = []


def pid_recording(text: str, **kwargs: object) -> list[Claim]:
    """The real extractor under a test generation, noting which process ran it."""
    CALLS.append(os.getpid())
    return relabelled(text, **kwargs)


pid_recording.generation = relabelled.generation  # type: ignore[attr-defined]


def test_a_custom_extractor_runs_in_the_steps_own_process(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _add_team_notes(world.corpus, 6)
    path = "tests.test_pipeline_extract_pool"  # the module the resource imports (pytest may
    calls = importlib.import_module(path).CALLS  # have imported this file under another name)
    calls.clear()
    outcome = _run(world, extractor=f"{path}:pid_recording", workers=2, pool_min_versions=1)
    assert outcome.failures == []
    assert len(calls) >= 12  # every version (checks call it again), all here
    assert set(calls) == {os.getpid()}


def test_a_bad_worker_count_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAIMS_EXTRACT_WORKERS", "two")
    with pytest.raises(Exception, match="CLAIMS_EXTRACT_WORKERS='two' must be a whole number"):
        ExtractorResource().worker_count()
    monkeypatch.setenv("CLAIMS_EXTRACT_WORKERS", "3")
    assert ExtractorResource().worker_count() == 3
    assert ExtractorResource(workers=1).worker_count() == 1
    monkeypatch.delenv("CLAIMS_EXTRACT_WORKERS")
    assert ExtractorResource().worker_count() == 1  # the pool is opt-in (did not pay here)
