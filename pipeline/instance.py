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
