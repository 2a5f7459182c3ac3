"""The conflict regression check runs its cases through the extractor only when what its
outcome depends on changed (the generation, the cases, the claims package's rules, the
spaCy model); otherwise the generation's kept outcome stands, and a run that extracts
nothing loads no extractor for it."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims.regression_gate import (
    FINGERPRINT,
    RegressionCase,
    code_digest,
    load_cases,
    regression_fingerprint,
)
from claims.store import GenerationRepository
from pipeline.resources import ExtractorResource
from pipeline.runner import PipelineRun, run_pipeline
from tests.pipeline_extractors import EXTRACT_LOG
from tests.pipeline_support import PipelineWorld, generation_statuses, make_world


def _run(world: PipelineWorld, extractor: str) -> PipelineRun:
    outcome = run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(extractor=extractor),
        log_level="CRITICAL",
    )
    assert outcome.failures == [] and outcome.check_failures == []
    return outcome


def _cases_read(log: Path) -> int:
    """How many regression texts the extractor was given (each case has two)."""
    if not log.exists():
        return 0
    return sum(1 for line in log.read_text().splitlines() if line.startswith("regression/"))


def test_the_regression_runs_when_its_generation_changes_and_not_otherwise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "extracted.log"
    monkeypatch.setenv(EXTRACT_LOG, str(log))
    world = make_world(tmp_path)
    cases = 2 * len(load_cases())

    _run(world, "tests.pipeline_extractors:counted")
    assert _cases_read(log) == cases
    with world.store.transaction() as session:
        kept = GenerationRepository(session).get("gen_test_counted")
    assert kept is not None and kept.regression_report[FINGERPRINT]

    _run(world, "tests.pipeline_extractors:counted")  # nothing it depends on changed
    assert _cases_read(log) == cases

    _run(world, "tests.pipeline_extractors:counted_again")  # a new generation
    assert _cases_read(log) == 2 * cases
    assert generation_statuses(world.store)["gen_test_counted_again"] == "active"

    _run(world, "tests.pipeline_extractors:counted_again")
    assert _cases_read(log) == 2 * cases


def test_the_fingerprint_follows_the_generation_the_cases_and_the_rules(tmp_path: Path) -> None:
    cases = [RegressionCase("leave", "Staff get 25 days of leave.", "Staff get 28 days.", True)]
    base = regression_fingerprint("gen_a", cases)
    assert regression_fingerprint("gen_a", list(cases)) == base
    assert regression_fingerprint("gen_b", cases) != base
    flipped = [RegressionCase("leave", cases[0].left, cases[0].right, False)]
    assert regression_fingerprint("gen_a", flipped) != base

    rules = tmp_path / "claims"
    (rules / "edges").mkdir(parents=True)
    (rules / "edges" / "compare.py").write_text("LIMIT = 1\n", encoding="utf-8")
    before = code_digest(rules)
    (rules / "__pycache__").mkdir()
    (rules / "__pycache__" / "compare.cpython-311.pyc").write_bytes(b"\0compiled")
    code_digest.cache_clear()
    assert code_digest(rules) == before  # compiled files are not rules
    (rules / "edges" / "compare.py").write_text("LIMIT = 2\n", encoding="utf-8")
    code_digest.cache_clear()
    assert code_digest(rules) != before
