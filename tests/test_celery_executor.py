"""Scale-out (issue 15.3): a pipeline run with CLAIMS_EXECUTOR=celery spreads its steps over
two Celery workers (concurrency 1 each) started from deploy/celery.yaml, with a throwaway
Redis as the broker, PostgreSQL for the claim store and for Dagster's storage
(deploy/dagster.yaml). The extraction of the one run is itself several steps (issue 33), which
both workers take, and the rows they store are those of an in-process run."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from dagster_celery.cli import get_validated_config
from sqlalchemy import select
from sqlalchemy.engine import make_url
from sqlalchemy.orm import aliased

from claims.store.migrate import upgrade
from claims.tables import ClaimRow, EdgeRow, SourceVersionRow
from pipeline import celery_local, corpus
from pipeline.definitions import build_definitions, resolved_claims_pipeline
from pipeline.partitions import SHARDS, all_shards_tags
from pipeline.resources import ClaimStore
from pipeline.settings import get_pipeline_settings
from tests.conftest import (
    IN_CI,
    _postgres_admin_url,
    create_postgres_database,
    drop_postgres_database,
)
from tests.pipeline_support import table_rows
from tests.store_ledger import ledger

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures" / "celery"
WORKERS = ("claims-1", "claims-2")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A Redis of this test alone: a free loopback port, its own folder, nothing persisted."""
    if not celery_local.redis_available():
        if IN_CI:
            pytest.fail(celery_local.NO_REDIS)
        pytest.skip(celery_local.NO_REDIS)
    folder = tmp_path / "redis"
    folder.mkdir()
    with celery_local.redis_server(folder) as url:
        yield url


@pytest.fixture
def dagster_postgres_url() -> Iterator[str]:
    """A second database on the test server, for Dagster's run/event/schedule storage."""
    admin = _postgres_admin_url()
    url = create_postgres_database(admin)
    try:
        yield url
    finally:
        drop_postgres_database(admin, url)


def test_the_setting_and_the_workers_file_name_one_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """CLAIMS_EXECUTOR=celery gives the job dagster-celery's executor, and deploy/celery.yaml,
    read the way ``dagster-celery worker start -y`` reads it, points the workers at
    CLAIMS_CELERY_BROKER_URL, the URL the executor submits to (the run test below shows
    that steps really arrive)."""
    url = "redis://queue.example.internal:6380/2"
    monkeypatch.setenv("CLAIMS_EXECUTOR", "celery")
    monkeypatch.setenv("CLAIMS_CELERY_BROKER_URL", url)
    get_pipeline_settings.cache_clear()
    try:
        job = build_definitions().resolve_job_def("claims_pipeline")
    finally:
        get_pipeline_settings.cache_clear()
    assert job.executor_def.name == "celery"
    workers = get_validated_config(str(ROOT / "deploy" / "celery.yaml"))
    assert workers["broker"] == workers["backend"] == url
    assert workers["config_source"]["task_acks_late"] is True


def _ancestors(pid: int) -> set[int]:
    """The process ids above ``pid`` (Linux /proc), to tell which worker ran a step."""
    found: set[int] = set()
    while pid > 1:
        stat = Path(f"/proc/{pid}/stat").read_text()
        pid = int(stat.rsplit(")", 1)[1].split()[1])  # the field after the state: ppid
        found.add(pid)
    return found


@pytest.mark.postgres
@pytest.mark.slow
# dagster-celery registers its step task again for each step it submits (the same code)
@pytest.mark.filterwarnings("ignore::celery.exceptions.DuplicateTaskNameWarning")
def test_a_run_spreads_its_steps_over_two_celery_workers(
    tmp_path: Path,
    postgres_url: str,
    dagster_postgres_url: str,
    redis_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sources = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", sources)
    register = tmp_path / "register.yaml"
    shutil.copy(FIXTURES / "register.yaml", register)
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(ROOT / "deploy" / "dagster.yaml", home / "dagster.yaml")  # the documented one
    dagster_url = make_url(dagster_postgres_url).set(drivername="postgresql+psycopg2")
    # What the code location and every worker read: the same environment, as deployed.
    environment = {
        "DAGSTER_HOME": str(home),
        "DAGSTER_POSTGRES_URL": dagster_url.render_as_string(hide_password=False),
        "CLAIMS_EXECUTOR": "celery",
        "CLAIMS_CELERY_BROKER_URL": redis_url,
        "CLAIMS_DATABASE_URL": postgres_url,
        "CLAIMS_SOURCES_DIR": str(sources),
        "CLAIMS_REGISTER_FILE": str(register),
    }
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    get_pipeline_settings.cache_clear()
    logs = tmp_path / "workers"
    logs.mkdir()
    workers: list[subprocess.Popen[bytes]] = []
    # Opening the instance first creates Dagster's tables, before the workers connect.
    with dg.DagsterInstance.from_config(str(home)) as instance:
        try:
            workers += [celery_local.start_worker(name, logs) for name in WORKERS]
            upgrade(postgres_url)  # while the workers start
            keys = list(corpus.scan([sources], register).files)
            celery_local.wait_for_workers(redis_url, WORKERS, workers, logs, timeout=180)

            job = dg.reconstructable(resolved_claims_pipeline)
            result = dg.execute_job(job, instance=instance, tags=all_shards_tags())
            assert result.success, _failure_text(instance, result.run_id)
            events = [e.dagster_event for e in instance.all_logs(result.run_id) if e.dagster_event]
            step_pids = {str(e.step_key): int(e.pid) for e in events if e.is_step_start}  # type: ignore[arg-type]
            hostnames = {
                str(e.step_key): e.engine_event_data.metadata["Celery worker"].value
                for e in events
                if e.is_engine_event and "Celery worker" in (e.engine_event_data.metadata or {})
            }
            run = instance.get_run_by_id(result.run_id)
            assert run is not None and run.execution_plan_snapshot_id is not None
            plan = instance.get_execution_plan_snapshot(run.execution_plan_snapshot_id)
            planned = set(plan.step_keys_to_execute)
            parts = {f"claims.extract_part_{part}" for part in range(4)}  # the celery default
            assert {"source_versions", "claims.record_claims", "claim_edges"} <= planned
            assert parts | {"conflict_status"} <= planned
            # every step of the job ran, each in a worker process, not in this one
            assert set(step_pids) == planned and set(hostnames) == planned
            assert os.getpid() not in step_pids.values()
            by_worker = {
                worker.pid: {s for s, pid in step_pids.items() if worker.pid in _ancestors(pid)}
                for worker in workers
            }
            assert set().union(*by_worker.values()) == planned  # all ran under our two workers
            assert all(by_worker.values()), by_worker  # and each worker ran some of them
            assert {str(h).split("@")[0] for h in hostnames.values()} == set(WORKERS)
            assert len(set(step_pids.values())) >= 2
            # the extraction of this one run: its steps went to both workers, and together
            # they extracted every version, each once
            extracting = {
                worker: steps & parts for worker, steps in by_worker.items() if steps & parts
            }
            assert len(extracting) == 2, by_worker
            written = _versions_written_by_step(instance, result.run_id)
            assert sorted(k for keys in written.values() for k in keys) == sorted(keys)
            assert sum(1 for keys in written.values() if keys) >= 2, written
            assert instance.get_materialized_partitions(dg.AssetKey("claims")) == set(SHARDS)
        finally:
            get_pipeline_settings.cache_clear()
            for worker in workers:
                celery_local.stop(worker)

    celery_store = ClaimStore(database_url=postgres_url)
    _assert_store_holds_the_corpus(celery_store, len(keys))
    assert _content(celery_store) == _in_process_content(monkeypatch)


def _versions_written_by_step(instance: dg.DagsterInstance, run_id: str) -> dict[str, list[str]]:
    """The version keys each extraction step of the run reported writing."""
    written: dict[str, list[str]] = {}
    for entry in instance.all_logs(run_id, of_type=dg.DagsterEventType.STEP_OUTPUT):
        event = entry.dagster_event
        if event is None or ".extract_part_" not in str(event.step_key):
            continue
        by_shard = event.event_specific_data.metadata["written"].value
        written[str(event.step_key)] = [key for entries in by_shard.values() for key, _ in entries]
    return written


def _content(store: ClaimStore) -> dict[str, list[tuple[Any, ...]]]:
    """``ledger`` with each claim's quote by its text (``quote_id`` numbers quotes in the
    order the steps wrote their versions)."""
    found = ledger(store)
    found["claims"] = table_rows(store, ClaimRow, skip=("created_at", "quote_id"))
    return found


def _in_process_content(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple[Any, ...]]]:
    """The same corpus through the same job with the in_process executor (one extraction
    step) into a claim store of its own, on an ephemeral Dagster instance."""
    admin = _postgres_admin_url()
    url = create_postgres_database(admin)
    try:
        upgrade(url)
        monkeypatch.setenv("CLAIMS_EXECUTOR", "in_process")
        monkeypatch.setenv("CLAIMS_DATABASE_URL", url)
        get_pipeline_settings.cache_clear()
        try:
            job = resolved_claims_pipeline()
        finally:
            get_pipeline_settings.cache_clear()
        result = job.execute_in_process(
            instance=dg.DagsterInstance.ephemeral(), tags=all_shards_tags()
        )
        assert result.success
        return _content(ClaimStore(database_url=url))
    finally:
        drop_postgres_database(admin, url)


def _failure_text(instance: dg.DagsterInstance, run_id: str) -> str:
    """Each failed step (or the run) with the innermost error, for the assertion message."""
    lines = []
    for entry in instance.all_logs(run_id):
        event = entry.dagster_event
        if event is None or not event.is_failure:
            continue
        error = getattr(event.event_specific_data, "error", None)
        while error is not None and error.cause is not None:
            error = error.cause
        lines.append(f"{event.step_key or 'run'}: {error.message if error else event.message}")
    return "\n".join(lines)


def _assert_store_holds_the_corpus(store: ClaimStore, versions: int) -> None:
    """The handbook and the intranet disagree on annual leave (25 against 28 days); the
    backup policy and the IT questions agree on 90 days of retention."""
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with store.transaction() as session:
        assert len(session.scalars(select(SourceVersionRow.id)).all()) == versions
        quantities = {
            (row.source_id, row.value_number, row.unit)
            for row in session.execute(
                select(ClaimRow.source_id, ClaimRow.value_number, ClaimRow.unit).where(
                    ClaimRow.kind == "quantity"
                )
            )
        }
        edges = session.execute(
            select(EdgeRow.kind, left.source_id, left.value_number, right.source_id,
                   right.value_number)
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None))
        ).all()  # fmt: skip
    assert {
        ("handbook/annual-leave", 25.0, "days"),
        ("intranet/leave-questions", 28.0, "days"),
        ("it/laptop-backups", 90.0, "days"),
        ("intranet/it-questions", 90.0, "days"),
    } <= quantities
    conflicts = {frozenset({(l_src, l_val), (r_src, r_val)}) for kind, l_src, l_val, r_src, r_val
                 in edges if kind == "conflicts"}  # fmt: skip
    assert conflicts == {
        frozenset({("handbook/annual-leave", 25.0), ("intranet/leave-questions", 28.0)})
    }
