"""The extraction of one pipeline run on one Celery worker against two (issue 33).

Usage: scripts/with-postgres.sh .venv/bin/python bench/bench_celery_extraction.py [--steps K] [N]
       (default: N 2000 generated notes, K 4 extraction steps: CLAIMS_EXTRACT_STEPS)

Writes N notes with bench_pipeline's generator, starts a Redis of its own on a free loopback
port, and then, for one worker and then for two (``dagster-celery worker start -y
deploy/celery.yaml -- --concurrency 1`` each, as docs/PIPELINE.md deploys them, with
``CLAIMS_EXTRACT_WORKERS=1`` so each step extracts in its worker's own process), runs the
``claims_pipeline`` job over every shard with ``CLAIMS_EXECUTOR=celery`` up to the ``claims``
asset (``source_register``, ``source_versions``, ``claims`` and its checks), each time into
a new, empty claim store database; Dagster's storage is one PostgreSQL database
(deploy/dagster.yaml). The workers are started (and answer a ping) before the clock starts.

Prints, for each, the extraction (from the first ``extract_part`` step's start to the last
one's end, read from the run's events), the ``claims`` asset (to ``record_claims``'s end)
and the run, the workers that ran the extraction steps, the load average, and the ratio of
one worker's extraction to two workers'. The target (issue 33): at least 1.6x on 2 cores.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
warnings.filterwarnings("ignore")

import dagster as dg  # noqa: E402
from bench_pipeline import generate, new_database  # noqa: E402

from claims.store.migrate import upgrade  # noqa: E402
from pipeline import celery_local  # noqa: E402
from pipeline.partitions import all_shards_tags  # noqa: E402

PART_STEP = ".extract_part_"
RECORD_STEP = "claims.record_claims"
SELECTION = [dg.AssetKey("source_register"), dg.AssetKey("source_versions"), dg.AssetKey("claims")]


@dataclass
class Trial:
    workers: int
    extraction: float  # first extract_part start -> last extract_part end
    claims_asset: float  # first extract_part start -> record_claims end
    run: float  # execute_job, wall clock
    versions: int
    steps_by_worker: dict[str, int]
    part_steps: list[tuple[str, str, float, float]]  # step, worker, start, end (from the first)
    load: tuple[float, float, float]


def start_workers(count: int, logs: Path) -> tuple[list[str], list[subprocess.Popen[bytes]]]:
    names = [f"bench-{count}-{index}" for index in range(count)]
    return names, [celery_local.start_worker(name, logs) for name in names]


def trial(workers: int, broker: str, admin_url: str, home: Path) -> Trial:
    """One worker count: a new claim store, the workers started, one run timed."""
    from pipeline.definitions import resolved_claims_pipeline
    from pipeline.settings import get_pipeline_settings

    logs = home / "logs"
    logs.mkdir(exist_ok=True)
    with new_database(admin_url, "bench_claims") as claims_url:
        upgrade(claims_url)
        os.environ["CLAIMS_DATABASE_URL"] = claims_url
        get_pipeline_settings.cache_clear()
        names, processes = start_workers(workers, logs)
        try:
            try:
                celery_local.wait_for_workers(broker, names, processes, logs)
            except RuntimeError as error:
                raise SystemExit(str(error)) from None
            with dg.DagsterInstance.from_config(str(home)) as instance:
                started = time.perf_counter()
                result = dg.execute_job(
                    dg.reconstructable(resolved_claims_pipeline),
                    instance=instance,
                    tags=all_shards_tags(),
                    asset_selection=SELECTION,
                    run_config={"loggers": {"console": {"config": {"log_level": "WARNING"}}}},
                )
                run = time.perf_counter() - started
                if not result.success:
                    raise SystemExit(f"the run failed ({workers} worker(s)); see {logs}")
                return _timed(instance, result.run_id, workers, run)
        finally:
            for process in processes:
                celery_local.stop(process)


def _timed(instance: dg.DagsterInstance, run_id: str, workers: int, run: float) -> Trial:
    starts: dict[str, float] = {}
    ends: dict[str, float] = {}
    hosts: dict[str, str] = {}
    versions = 0
    for entry in instance.all_logs(run_id):
        event = entry.dagster_event
        if event is None or not event.step_key:
            continue
        step = str(event.step_key)
        if event.is_step_start:
            starts[step] = entry.timestamp
        elif event.is_step_success:
            ends[step] = entry.timestamp
        elif event.is_engine_event and "Celery worker" in (event.engine_event_data.metadata or {}):
            hosts[step] = str(event.engine_event_data.metadata["Celery worker"].value)
        elif event.event_type == dg.DagsterEventType.STEP_OUTPUT and PART_STEP in step:
            versions += int(event.event_specific_data.metadata["versions"].value)
    parts = [step for step in starts if PART_STEP in step]
    first = min(starts[step] for step in parts)
    by_worker: dict[str, int] = {}
    for step in parts:
        name = hosts.get(step, "?").split("@")[0]
        by_worker[name] = by_worker.get(name, 0) + 1
    return Trial(
        workers=workers,
        extraction=max(ends[step] for step in parts) - first,
        claims_asset=ends[RECORD_STEP] - first,
        run=run,
        versions=versions,
        steps_by_worker=by_worker,
        part_steps=[
            (step, hosts.get(step, "?").split("@")[0], starts[step] - first, ends[step] - first)
            for step in sorted(parts)
        ],
        load=os.getloadavg(),
    )


def main() -> None:
    args = sys.argv[1:]
    steps = 4
    if args[:1] == ["--steps"]:
        steps, args = int(args[1]), args[2:]
    count = int(args[0]) if args else 2000
    admin_url = os.environ.get("CLAIMS_TEST_POSTGRES_URL")
    if not admin_url:
        raise SystemExit(
            "needs PostgreSQL: scripts/with-postgres.sh .venv/bin/python "
            "bench/bench_celery_extraction.py N"
        )
    with tempfile.TemporaryDirectory(prefix="bench-celery-") as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        tokens = generate(corpus, count, subjects=max(40, count // 25))
        register = root / "register.yaml"
        register.write_text("tiers: [official]\nsources: {}\n", encoding="utf-8")
        home = root / "dagster"
        home.mkdir()
        shutil.copy(ROOT / "deploy" / "dagster.yaml", home / "dagster.yaml")
        redis_folder = root / "redis"
        redis_folder.mkdir()
        print(
            f"== {count} notes, {tokens:,} tokens, {steps} extraction steps; load average "
            f"at the start {', '.join(f'{x:.1f}' for x in os.getloadavg())}",
            flush=True,
        )
        if not celery_local.redis_available():
            raise SystemExit(celery_local.NO_REDIS)
        with (
            celery_local.redis_server(redis_folder) as broker,
            new_database(admin_url, "bench_dagster", "postgresql+psycopg2") as dagster_url,
        ):
            os.environ.update(
                {
                    "DAGSTER_HOME": str(home),
                    "DAGSTER_POSTGRES_URL": dagster_url,
                    "CLAIMS_EXECUTOR": "celery",
                    "CLAIMS_CELERY_BROKER_URL": broker,
                    "CLAIMS_EXTRACT_STEPS": str(steps),
                    "CLAIMS_EXTRACT_WORKERS": "1",
                    "CLAIMS_SOURCES_DIR": str(corpus),
                    "CLAIMS_REGISTER_FILE": str(register),
                }
            )
            trials = []
            for workers in (1, 2):
                found = trial(workers, broker, admin_url, home)
                trials.append(found)
                print(
                    f"  {workers} worker(s): extraction {found.extraction:6.1f} s, claims asset "
                    f"{found.claims_asset:6.1f} s, run {found.run:6.1f} s; {found.versions} "
                    f"versions; extraction steps per worker {found.steps_by_worker}; load "
                    f"average {', '.join(f'{x:.1f}' for x in found.load)}",
                    flush=True,
                )
                for step, worker, start, end in found.part_steps:
                    print(f"    {step} on {worker}: {start:6.1f} s -> {end:6.1f} s")
        one, two = trials
        print(
            f"  two workers against one: extraction {one.extraction / two.extraction:.2f}x, "
            f"claims asset {one.claims_asset / two.claims_asset:.2f}x, "
            f"run {one.run / two.run:.2f}x (target: extraction >= 1.6x)"
        )


if __name__ == "__main__":
    main()
