"""Creating the embedded Dagster instance reads Dagster's migration scripts once per
process (pipeline/instance.py): the storages it creates are still at Dagster's head, other
alembic locations (the claim store's migrations) are untouched, and a Dagster upgrade that
moves the scripts fails here rather than silently reading them six times again."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from alembic.script import ScriptDirectory
from dagster._core.storage import sql as dagster_sql
from sqlalchemy import inspect

from claims.store.engine import make_engine
from pipeline.instance import DAGSTER_SCRIPTS, local_instance, read_dagster_migrations_once
from tests.store_template import upgrade  # a copy of a store migrated once

REPO = Path(__file__).resolve().parents[1]


def _dagster_config():  # type: ignore[no-untyped-def]
    # the config Dagster's SQLite storages build (get_alembic_config of their module)
    from dagster._core.storage.runs.sqlite import sqlite_run_storage

    return dagster_sql.get_alembic_config(sqlite_run_storage.__file__)


def test_dagster_keeps_its_migrations_where_the_instance_expects_them() -> None:
    config = _dagster_config()
    assert config.get_main_option("script_location") == dagster_sql.ALEMBIC_SCRIPTS_LOCATION
    assert dagster_sql.ALEMBIC_SCRIPTS_LOCATION == DAGSTER_SCRIPTS
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head  # one head: what a new storage is stamped with


def test_a_new_instance_is_stamped_at_dagster_head_with_the_scripts_read_once(
    tmp_path: Path,
) -> None:
    instance = local_instance(tmp_path / "first")
    shared = ScriptDirectory.from_config(_dagster_config())
    assert ScriptDirectory.from_config(_dagster_config()) is shared
    head = shared.get_current_head()
    for storage in (instance.run_storage, instance.schedule_storage, instance.event_log_storage):
        db_revision, head_revision = storage.alembic_version()  # type: ignore[union-attr,misc]
        assert db_revision == head_revision == head, type(storage).__name__
    # a second new home in the same process: created and stamped from the shared scripts
    again = local_instance(tmp_path / "second")
    assert again.run_storage.alembic_version()[0] == head  # type: ignore[attr-defined]
    result = dg.materialize([_tiny], instance=again)
    assert result.success
    assert again.get_latest_materialization_event(dg.AssetKey("tiny")) is not None


@dg.asset(name="tiny")
def _tiny() -> dg.MaterializeResult:
    return dg.MaterializeResult(metadata={"rows": 1})


def test_other_migration_folders_are_read_as_before(tmp_path: Path) -> None:
    read_dagster_migrations_once()
    from alembic.config import Config

    ours = Config(str(REPO / "alembic.ini"))
    ours.set_main_option("script_location", str(REPO / "migrations"))
    first, second = ScriptDirectory.from_config(ours), ScriptDirectory.from_config(ours)
    assert first is not second  # a migration added while a process runs is still seen
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    assert "claims" in inspect(make_engine(url)).get_table_names()
