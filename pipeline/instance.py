"""The persistent Dagster home that ``claims run`` and ``claims ui`` share."""

from __future__ import annotations

import json
from pathlib import Path

import dagster as dg

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
    return dg.DagsterInstance.from_config(str(dagster_home(data_dir)))
