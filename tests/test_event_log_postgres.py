"""Dagster's storage in PostgreSQL with the pooled event log (pipeline/event_log.py): what
one instance or process writes, another reads; connections stay few however many events
are written; a run's partition materializations written in batches are all recorded."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from pipeline.event_log import PooledPostgresEventLogStorage
from pipeline.instance import postgres_home
from pipeline.runner import asset_events_in_batches
from tests.conftest import _postgres_admin_url, create_postgres_database, drop_postgres_database

ROOT = Path(__file__).resolve().parent.parent
PARTITIONS = dg.StaticPartitionsDefinition([f"note-{n:02d}" for n in range(12)])

pytestmark = pytest.mark.postgres


@dg.asset(partitions_def=PARTITIONS, backfill_policy=dg.BackfillPolicy.single_run())
def notes(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]  # noqa: ANN001
    return dg.MaterializeResult(metadata={"notes": len(context.partition_keys)})


@pytest.fixture
def dagster_url(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty database for Dagster's storage, named by DAGSTER_POSTGRES_URL."""
    admin = _postgres_admin_url()
    url = create_postgres_database(admin)
    dagster = make_url(url).set(drivername="postgresql+psycopg2")
    rendered = dagster.render_as_string(hide_password=False)
    monkeypatch.setenv("DAGSTER_POSTGRES_URL", rendered)
    try:
        yield rendered
    finally:
        drop_postgres_database(admin, url)


def _instance(tmp_path: Path) -> dg.DagsterInstance:
    return dg.DagsterInstance.from_config(str(postgres_home(tmp_path / "dagster")))


def _materialize(instance: dg.DagsterInstance, first: str, last: str) -> None:
    job = dg.Definitions(
        assets=[notes], jobs=[dg.define_asset_job("notes_job", selection=[notes])]
    ).resolve_job_def("notes_job")
    result = job.execute_in_process(
        instance=instance,
        tags={
            "dagster/asset_partition_range_start": first,
            "dagster/asset_partition_range_end": last,
        },
    )
    assert result.success


def test_another_instance_and_another_process_read_what_one_wrote(
    tmp_path: Path, dagster_url: str
) -> None:
    instance = _instance(tmp_path)
    assert isinstance(instance.event_log_storage, PooledPostgresEventLogStorage)
    _materialize(instance, "note-00", "note-03")

    again = _instance(tmp_path)  # a fresh instance object, as the next run opens it
    assert again.get_materialized_partitions(dg.AssetKey("notes")) == {
        f"note-{n:02d}" for n in range(4)
    }

    child = textwrap.dedent(
        f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        import dagster as dg
        from pipeline.instance import postgres_home
        from pathlib import Path
        home = postgres_home(Path({str(tmp_path)!r}) / "dagster")
        instance = dg.DagsterInstance.from_config(str(home))
        seen = instance.get_materialized_partitions(dg.AssetKey("notes"))
        print(len(seen))
        from tests.test_event_log_postgres import _materialize
        _materialize(instance, "note-04", "note-05")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", child],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "DAGSTER_POSTGRES_URL": dagster_url},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-1] == "4"  # the child read this process's four
    # and this process, its connections still open, reads the child's two
    assert instance.get_materialized_partitions(dg.AssetKey("notes")) == {
        f"note-{n:02d}" for n in range(6)
    }


def _connections(dagster_url: str) -> int:
    database = make_url(dagster_url).database
    admin = create_engine(_postgres_admin_url(), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            return int(
                conn.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE datname = :name"),
                    {"name": database},
                ).scalar()
                or 0
            )
    finally:
        admin.dispose()


def test_connections_are_kept_open_and_few_and_tables_asked_once(
    tmp_path: Path, dagster_url: str
) -> None:
    instance = _instance(tmp_path)
    storage = instance.event_log_storage
    assert isinstance(storage, PooledPostgresEventLogStorage)
    _materialize(instance, "note-00", "note-00")
    open_after_one_run = _connections(dagster_url)
    assert 1 <= open_after_one_run <= storage.POOL_SIZE + 1  # + the run storage's, if any
    for first in ("note-01", "note-02", "note-03"):
        _materialize(instance, first, first)
    assert _connections(dagster_url) == open_after_one_run  # reused, not one per event
    assert storage.has_table("event_logs")
    assert "event_logs" in storage._tables_seen  # noqa: SLF001  (remembered)
    assert not storage.has_table("a_table_no_migration_made")


def test_a_runs_partition_materializations_written_in_batches_are_all_recorded(
    tmp_path: Path, dagster_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
    instance = _instance(tmp_path)
    started = time.time()
    with asset_events_in_batches(5):  # 12 partitions: batches of 5, 5 and 2
        assert os.environ["DAGSTER_EVENT_BATCH_SIZE"] == "5"
        _materialize(instance, "note-00", "note-11")
    assert "DAGSTER_EVENT_BATCH_SIZE" not in os.environ
    assert instance.get_materialized_partitions(dg.AssetKey("notes")) == set(
        PARTITIONS.get_partition_keys()
    )
    records = instance.fetch_materializations(dg.AssetKey("notes"), limit=100).records
    assert len(records) == 12
    assert all(record.timestamp >= started - 1 for record in records)
