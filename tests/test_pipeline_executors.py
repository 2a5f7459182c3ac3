"""CLAIMS_EXECUTOR=multi_or_in_process is Dagster's multi_or_in_process_executor: each run's
config picks a process per step or one process for the run (issue 15.2)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from pipeline import corpus
from pipeline.definitions import build_definitions, resolved_claims_pipeline
from pipeline.partitions import SHARDS, all_shards_tags
from pipeline.settings import get_pipeline_settings
from tests.pipeline_support import PipelineWorld, make_world


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PipelineWorld]:
    world = make_world(tmp_path)
    # A reconstructable job is loaded again in each child process, from the environment.
    monkeypatch.setenv("CLAIMS_EXECUTOR", "multi_or_in_process")
    monkeypatch.setenv("CLAIMS_DATABASE_URL", world.database_url)
    monkeypatch.setenv("CLAIMS_SOURCES_DIR", str(world.corpus))
    monkeypatch.setenv("CLAIMS_REGISTER_FILE", str(world.register))
    get_pipeline_settings.cache_clear()
    yield world
    get_pipeline_settings.cache_clear()


def _step_pids(world: PipelineWorld, home: Path, choice: dict[str, object]) -> dict[str, int]:
    keys = list(corpus.scan([world.corpus], world.register).files)
    home.mkdir()
    with dg.DagsterInstance.local_temp(str(home)) as instance:
        job = dg.reconstructable(resolved_claims_pipeline).get_subset(
            asset_selection={dg.AssetKey("source_register"), dg.AssetKey("source_versions")},
            asset_check_selection=set(),
        )
        result = dg.execute_job(
            job,
            instance=instance,
            run_config={"execution": {"config": choice}},
            tags=all_shards_tags(),
        )
        assert result.success
        assert instance.get_materialized_partitions(dg.AssetKey("source_versions")) == set(SHARDS)
        with world.store.transaction() as session:  # every file stored by the one run
            assert set(corpus.stored_keys(session)) == set(keys)
        return {
            str(event.dagster_event.step_key): int(event.dagster_event.pid)  # type: ignore[arg-type]
            for event in instance.all_logs(result.run_id)
            if event.dagster_event is not None and event.dagster_event.is_step_start
        }


def test_the_setting_selects_dagsters_multi_or_in_process_executor(world: PipelineWorld) -> None:
    job = build_definitions(world.resources()).resolve_job_def("claims_pipeline")
    assert job.executor_def.name == dg.multi_or_in_process_executor.name


def test_a_run_picks_a_process_per_step_or_one_process(
    world: PipelineWorld, tmp_path: Path
) -> None:
    separate = _step_pids(world, tmp_path / "home_multi", {"multiprocess": {"max_concurrent": 2}})
    assert set(separate) == {"source_register", "source_versions"}
    assert len(set(separate.values())) == 2 and os.getpid() not in separate.values()

    together = _step_pids(world, tmp_path / "home_single", {"in_process": {}})
    assert set(together.values()) == {os.getpid()}
