"""The embedded instance's event log: one SQLite file, open connections, other processes
and the UI's live stream still see every event."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import dagster as dg
import pytest
from dagster._core.events.log import EventLogEntry

from pipeline.event_log import PooledSqliteEventLogStorage
from pipeline.instance import dagster_home, local_instance

ROOT = Path(__file__).resolve().parent.parent
PARTITIONS = dg.StaticPartitionsDefinition(["a", "b"])


@dg.asset(partitions_def=PARTITIONS)
def tiny(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]  # noqa: ANN001
    return dg.MaterializeResult(metadata={"partition": context.partition_key})


def _message(run_id: str, text: str) -> EventLogEntry:
    return EventLogEntry(
        error_info=None,
        level="INFO",
        user_message=text,
        run_id=run_id,
        timestamp=time.time(),
    )


def test_the_local_instance_writes_one_event_log_another_instance_reads(tmp_path: Path) -> None:
    instance = local_instance(tmp_path)
    assert isinstance(instance.event_log_storage, PooledSqliteEventLogStorage)
    for key in ("a", "b"):
        assert dg.materialize([tiny], instance=instance, partition_key=key).success
    assert (dagster_home(tmp_path) / "history" / "events" / "event_log.db").exists()
    again = local_instance(tmp_path)  # a fresh instance object: what the next run opens
    assert again.get_materialized_partitions(dg.AssetKey("tiny")) == {"a", "b"}
    record = again.get_latest_materialization_event(dg.AssetKey("tiny"))
    assert record is not None and record.asset_materialization is not None
    assert record.asset_materialization.metadata["partition"].value in {"a", "b"}


def test_events_written_by_another_process_are_seen(tmp_path: Path) -> None:
    instance = local_instance(tmp_path)
    run_id = "run-from-another-process"
    instance.event_log_storage.store_event(_message(run_id, "first, from this process"))
    child = textwrap.dedent(
        f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from dagster._core.events.log import EventLogEntry
        from pipeline.instance import local_instance
        storage = local_instance(__import__("pathlib").Path({str(tmp_path)!r})).event_log_storage
        storage.store_event(EventLogEntry(error_info=None, level="INFO",
            user_message="second, from a child", run_id={run_id!r}, timestamp=time.time()))
        """
    )
    subprocess.run([sys.executable, "-c", child], check=True, cwd=ROOT, timeout=120)
    messages = [e.user_message for e in instance.all_logs(run_id)]
    assert messages == ["first, from this process", "second, from a child"]


def test_the_live_stream_the_ui_watches_gets_new_events(tmp_path: Path) -> None:
    storage = local_instance(tmp_path).event_log_storage
    assert isinstance(storage, PooledSqliteEventLogStorage)
    seen: list[str] = []
    run_id = "watched-run"
    storage.watch(run_id, None, lambda entry, cursor: seen.append(entry.user_message))
    try:
        storage.store_event(_message(run_id, "a step started"))
        deadline = time.monotonic() + 20
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen == ["a step started"]
    finally:
        storage.dispose()


def test_a_forked_process_opens_its_own_connections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = local_instance(tmp_path).event_log_storage
    assert isinstance(storage, PooledSqliteEventLogStorage)
    parent = storage._engine()
    assert storage._engine() is parent
    monkeypatch.setattr("pipeline.event_log.os.getpid", lambda: -1)
    child = storage._engine()
    assert child is not parent
    storage.store_event(_message("after-fork", "written on the child's engine"))
    assert [e.user_message for e in storage.get_logs_for_run("after-fork")] == [
        "written on the child's engine"
    ]


def test_tables_once_seen_are_remembered_and_missing_ones_asked_again(tmp_path: Path) -> None:
    storage = local_instance(tmp_path).event_log_storage
    assert isinstance(storage, PooledSqliteEventLogStorage)
    assert storage.has_table("asset_event_tags")
    assert "asset_event_tags" in storage._tables_seen
    assert not storage.has_table("a_table_a_later_migration_adds")
    with storage._engine().begin() as conn:
        conn.exec_driver_sql("CREATE TABLE a_table_a_later_migration_adds (id INTEGER)")
    assert storage.has_table("a_table_a_later_migration_adds")


def test_the_private_dagster_api_is_used_in_this_one_module_and_still_has_our_hooks() -> None:
    # No public API lets a storage keep its connections open, so pipeline/event_log.py
    # subclasses Dagster's private ConsolidatedSqliteEventLogStorage. This fails loudly when
    # a Dagster upgrade moves or reshapes what it overrides (issue 15: isolate and guard).
    import inspect
    import re

    from dagster._core.storage.event_log import ConsolidatedSqliteEventLogStorage

    repo = Path(__file__).resolve().parents[1]
    users = sorted(
        str(path.relative_to(repo))
        for package in ("claims", "review", "retrieval", "pipeline", "claimledger")
        for path in (repo / package).rglob("*.py")
        if re.search(r"\bdagster\._", path.read_text())
    )
    assert users == ["pipeline/event_log.py"]
    for hook in (
        "_connect",
        "has_table",
        "watch",
        "dispose",
        "store_event_batch",
        "_event_to_row",
        "_store_asset_event_tags",
        "_store_asset_event",
    ):
        assert callable(getattr(ConsolidatedSqliteEventLogStorage, hook, None)), hook
    from dagster._core.storage.event_log.schema import SqlEventLogStorageTable

    assert {"id", "run_id", "event", "asset_key", "partition"} <= set(
        SqlEventLogStorageTable.c.keys()
    )
    parameters = inspect.signature(ConsolidatedSqliteEventLogStorage.__init__).parameters
    assert list(parameters)[:3] == ["self", "base_dir", "inst_data"]


def test_the_postgres_event_log_hooks_it_overrides_still_exist() -> None:
    # pipeline/event_log.py's PooledPostgresEventLogStorage replaces dagster-postgres's
    # per-event connections through its private _connect and passes its constructor's
    # arguments on by name: an upgrade that renames them must fail here, not in production.
    import inspect

    from dagster_postgres import PostgresEventLogStorage
    from dagster_postgres.utils import create_pg_engine, pg_url_from_config

    for hook in ("_connect", "has_table", "dispose", "index_transaction", "from_config_value"):
        assert callable(getattr(PostgresEventLogStorage, hook, None)), hook
    parameters = inspect.signature(PostgresEventLogStorage.__init__).parameters
    assert {"postgres_url", "should_autocreate_tables", "inst_data"} <= set(parameters)
    assert list(inspect.signature(create_pg_engine).parameters)[:2] == [
        "postgres_url",
        "token_provider",
    ]
    assert pg_url_from_config({"postgres_url": "postgresql://x/y"}) == "postgresql://x/y"


BATCHED = dg.StaticPartitionsDefinition([f"note-{n:02d}" for n in range(12)])


@dg.asset(partitions_def=BATCHED, backfill_policy=dg.BackfillPolicy.single_run())
def batched_notes(context) -> dg.MaterializeResult:  # type: ignore[no-untyped-def]  # noqa: ANN001
    return dg.MaterializeResult(metadata={"notes": len(context.partition_keys)})


def test_a_steps_materializations_written_as_one_batch_are_each_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pipeline.runner import asset_events_in_batches

    monkeypatch.delenv("DAGSTER_EVENT_BATCH_SIZE", raising=False)
    instance = local_instance(tmp_path)
    job = dg.Definitions(
        assets=[batched_notes], jobs=[dg.define_asset_job("notes", selection=[batched_notes])]
    ).resolve_job_def("notes")
    with asset_events_in_batches(5):  # 12 partitions: batches of 5, 5 and 2
        result = job.execute_in_process(
            instance=instance,
            tags={
                "dagster/asset_partition_range_start": "note-00",
                "dagster/asset_partition_range_end": "note-11",
            },
        )
    assert result.success
    again = local_instance(tmp_path)  # what the next process reads
    key = dg.AssetKey("batched_notes")
    assert again.get_materialized_partitions(key) == set(BATCHED.get_partition_keys())
    records = again.fetch_materializations(key, limit=100).records
    assert sorted(record.partition_key for record in records) == BATCHED.get_partition_keys()
    assert len({record.storage_id for record in records}) == 12
    newest = max(records, key=lambda record: record.storage_id)
    latest = again.get_latest_materialization_event(key)
    assert latest is not None and latest.timestamp == newest.timestamp
    # the run's own event list has each once (Dagster yields them in no fixed order)
    logged = [
        entry.dagster_event.partition
        for entry in again.all_logs(result.run_id)
        if entry.dagster_event is not None and entry.dagster_event.is_step_materialization
    ]
    assert sorted(logged) == BATCHED.get_partition_keys()


def test_a_new_event_log_file_records_dagsters_head_revision(tmp_path: Path) -> None:
    # Dagster 1.13 stamps a new consolidated event log on a connection it never commits:
    # the file had an empty alembic_version table, and `dagster instance migrate` replayed
    # every migration on it. Read the file itself, as the next process would.
    import sqlite3

    from alembic.script import ScriptDirectory
    from dagster._core.storage.event_log.sqlite import consolidated_sqlite_event_log
    from dagster._core.storage.sql import get_alembic_config

    instance = local_instance(tmp_path)
    instance.dispose()
    head = ScriptDirectory.from_config(
        get_alembic_config(consolidated_sqlite_event_log.__file__)
    ).get_current_head()
    path = dagster_home(tmp_path) / "history" / "events" / "event_log.db"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(head,)]
    reopened = local_instance(tmp_path)  # an existing file: opened, stamped once only
    assert reopened.event_log_storage.alembic_version() == (head, head)
    reopened.upgrade()  # what `dagster instance migrate` runs: nothing to replay
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(head,)]
