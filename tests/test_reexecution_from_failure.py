"""A run re-executed from its failed extraction step (Dagster's "re-execute from failure",
as the UI offers it) records the claims of every extraction step: the step it ran again,
the steps it did not run again (they ran in the run it re-executes), and what the failed
step wrote before it failed. Four extraction steps in one process (CLAIMS_EXTRACT_STEPS, as
with Celery workers), a real Dagster instance on disk and a SQLite store."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import func, select

from claims.store.migrate import upgrade
from claims.tables import ClaimRow
from pipeline import corpus
from pipeline.definitions import build_definitions
from pipeline.jobs import CLAIMS_PIPELINE
from pipeline.partitions import all_shards_tags, extraction_part_of
from pipeline.resources import ClaimStore, ExtractorResource
from pipeline.settings import get_pipeline_settings
from tests.pipeline_extractors import FAIL_FLAG

PARTS = 4


def flaky_pipeline() -> dg.JobDefinition:
    """The pipeline as the environment defines it, with an extractor that cannot read the
    note naming "flaky" while its flag file is there (module level: reconstructable)."""
    extractor = ExtractorResource(extractor="tests.pipeline_extractors:fails_while_flagged")
    return build_definitions({"extractor": extractor}).resolve_job_def(CLAIMS_PIPELINE)


def _notes() -> tuple[dict[str, str], int]:
    """Three depot notes for each extraction step, and the step of the flaky one (it shares
    its step with two notes that extract well)."""
    by_part: dict[int, list[str]] = {}
    for number in range(200):
        name = f"depots/depot-{number}"
        by_part.setdefault(extraction_part_of(name, PARTS), []).append(name)
        if len(by_part) == PARTS and all(len(names) >= 3 for names in by_part.values()):
            break
    notes = {}
    for _, names in sorted(by_part.items()):
        for index, name in enumerate(names[:3]):
            notes[name] = f"The loading bay of {name} opens at {5 + index} am on weekdays.\n"
    flaky = by_part[0][0]
    notes[flaky] = "The flaky barcode scanner at the depot is replaced every 3 years.\n"
    return notes, 0


def _steps(instance: dg.DagsterInstance, run_id: str, event_type: dg.DagsterEventType) -> set[str]:
    return {
        str(entry.dagster_event.step_key)
        for entry in instance.all_logs(run_id, of_type=event_type)
        if entry.dagster_event is not None
    }


def _recorded_version_keys(instance: dg.DagsterInstance, run_id: str) -> list[str]:
    keys = []
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_MATERIALIZATION):
        materialization = entry.asset_materialization
        if materialization is not None and materialization.asset_key == dg.AssetKey("claims"):
            entry_keys = materialization.metadata.get("version_keys")
            if entry_keys is not None:
                keys += [str(key) for key in entry_keys.value or []]  # type: ignore[union-attr]
    return keys


def _checked_claims(instance: dg.DagsterInstance, run_id: str) -> int:
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.ASSET_CHECK_EVALUATION):
        evaluation = entry.dagster_event.asset_check_evaluation_data  # type: ignore[union-attr]
        if evaluation.check_name == "quotes_match_source_text":
            return int(evaluation.metadata["claims_checked"].value)  # type: ignore[arg-type]
    raise AssertionError("the quotes check did not run")


def test_a_run_re_executed_from_its_failed_extraction_step_records_every_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes, flaky_part = _notes()
    sources = tmp_path / "corpus"
    for name, text in notes.items():
        path = sources / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    flag = tmp_path / "scanner-broken.flag"
    flag.touch()
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    for name, value in {
        "CLAIMS_DATABASE_URL": url,
        "CLAIMS_SOURCES_DIR": str(sources),
        "CLAIMS_REGISTER_FILE": "",
        "CLAIMS_EXECUTOR": "in_process",
        "CLAIMS_EXTRACT_STEPS": str(PARTS),
        FAIL_FLAG: str(flag),
    }.items():
        monkeypatch.setenv(name, value)
    get_pipeline_settings.cache_clear()
    home = tmp_path / "dagster"
    home.mkdir()
    job = dg.reconstructable(flaky_pipeline)
    try:
        with dg.DagsterInstance.local_temp(str(home)) as instance:
            first = dg.execute_job(
                job, instance=instance, tags=all_shards_tags(), raise_on_error=False
            )
            assert not first.success
            failed_step = f"claims.extract_part_{flaky_part}"
            assert _steps(instance, first.run_id, dg.DagsterEventType.STEP_FAILURE) == {failed_step}

            flag.unlink()  # what kept the flaky note from being read is fixed
            again = dg.ReexecutionOptions.from_failure(first.run_id, instance)
            # the parent's tags (its shards), as the UI's re-execution passes them on
            second = dg.execute_job(
                job, instance=instance, tags=all_shards_tags(), reexecution_options=again
            )
            assert second.success
            ran = _steps(instance, second.run_id, dg.DagsterEventType.STEP_START)
            parts = {f"claims.extract_part_{part}" for part in range(PARTS)}
            assert ran & parts == {failed_step}  # the other steps did not run again
            assert "claims.record_claims" in ran

            every_version = sorted(corpus.scan([sources], None).files)
            assert sorted(_recorded_version_keys(instance, second.run_id)) == every_version
            with ClaimStore(database_url=url).transaction() as session:
                stored = session.scalar(select(func.count()).select_from(ClaimRow))
            assert stored and _checked_claims(instance, second.run_id) == stored
    finally:
        get_pipeline_settings.cache_clear()
