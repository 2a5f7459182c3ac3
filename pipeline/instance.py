"""The persistent Dagster home that ``claims run`` and ``claims ui`` share."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import dagster as dg
from alembic.config import Config
from alembic.script import ScriptDirectory

LOCAL_DAGSTER_YAML = """\
# Dagster instance for the embedded setup, written by `claims run` / `claims ui`.
# Run history, event logs and schedules live in SQLite files in this folder; the claim
# store is a separate database (CLAIMS_DATABASE_URL). For PostgreSQL storage and other
# executors see deploy/dagster.yaml and docs/PIPELINE.md.
run_coordinator:
  module: dagster.core.run_coordinator
  class: QueuedRunCoordinator
  config:
    max_concurrent_runs: 4
    tag_concurrency_limits:
      # Pipeline runs write the claim graph: one at a time keeps edge evaluation ordered.
      - key: claimledger/pipeline
        limit: 1
telemetry:
  enabled: false
# One event-log file with connections kept open (pipeline/event_log.py): Dagster's default
# opens a connection per event, which made bookkeeping most of a 10k-file first load.
event_log_storage:
  module: pipeline.event_log
  class: PooledSqliteEventLogStorage
  config:
    base_dir: {events_dir}
"""

# Dagster's storage in PostgreSQL (DAGSTER_POSTGRES_URL, a database of its own, not the
# claim store's) with the pooled event log (pipeline/event_log.py): dagster_postgres.yaml
# beside this file, which a deployment copies to $DAGSTER_HOME/dagster.yaml.
# dagster-postgres's own event log connects anew for every event, about 19 ms each: two
# events per source version made a 1k-file first load four times slower than embedded.
POSTGRES_DAGSTER_YAML = (Path(__file__).parent / "dagster_postgres.yaml").read_text("utf-8")


def postgres_home(home: Path) -> Path:
    """``home`` with a dagster.yaml that keeps Dagster's storage in PostgreSQL (the database
    ``DAGSTER_POSTGRES_URL`` names) through the pooled event log; an existing one is kept."""
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        config.write_text(POSTGRES_DAGSTER_YAML, encoding="utf-8")
    return home


def dagster_home(data_dir: Path) -> Path:
    """``<data_dir>/dagster`` as an absolute path, created with a dagster.yaml if new."""
    home = (data_dir / "dagster").resolve()
    home.mkdir(parents=True, exist_ok=True)
    config = home / "dagster.yaml"
    if not config.exists():
        events = home / "history" / "events"
        text = LOCAL_DAGSTER_YAML.format(events_dir=json.dumps(str(events)))
        config.write_text(text, encoding="utf-8")
    return home


def local_instance(data_dir: Path) -> dg.DagsterInstance:
    """The persistent instance under ``data_dir`` (history survives, the UI shows it)."""
    read_dagster_migrations_once()
    return dg.DagsterInstance.from_config(str(dagster_home(data_dir)))


# Dagster's three SQLite storages each stamp a new database with the head of Dagster's
# migrations and check that revision when opened, and every stamp and check builds a new
# alembic ScriptDirectory, which executes all of Dagster's migration scripts (89 files in
# 1.13.27) to find the head: six readings of the same package files when `claims run` creates
# its home, about half of creating the instance (docs/PIPELINE.md, "Session 9: `claims run`
# start-up"). The scripts are files of the installed package and do not change while a
# process runs, so they are read once per process: ``ScriptDirectory.from_config`` gives
# one shared object for Dagster's script location and delegates every other location (the
# claim store's own migrations) unchanged. tests/test_pipeline_instance.py checks the
# storages it creates are at Dagster's head and fails if Dagster moves the location.
DAGSTER_SCRIPTS = "dagster:_core/storage/alembic"  # Dagster's ALEMBIC_SCRIPTS_LOCATION
_shared_scripts: dict[str, ScriptDirectory] = {}
_scripts_lock = threading.Lock()
_from_config = ScriptDirectory.from_config.__func__  # type: ignore[attr-defined]


def _dagster_scripts_once(cls: type[ScriptDirectory], config: Config) -> ScriptDirectory:
    location = config.get_main_option("script_location")
    if location != DAGSTER_SCRIPTS or cls is not ScriptDirectory:
        return _from_config(cls, config)  # type: ignore[no-any-return]
    with _scripts_lock:
        scripts = _shared_scripts.get(location)
        if scripts is None:
            scripts = _shared_scripts[location] = _from_config(cls, config)
    return scripts


def read_dagster_migrations_once() -> None:
    """Share one alembic ScriptDirectory for Dagster's migrations in this process."""
    current: Any = ScriptDirectory.__dict__["from_config"]
    if getattr(current, "__func__", None) is not _dagster_scripts_once:
        ScriptDirectory.from_config = classmethod(_dagster_scripts_once)  # type: ignore[assignment,method-assign]
