"""Runs that the sensor, the schedule or the UI launch hold the store's run lock, like
``claims run``: one waits while another process holds it, and ``claims run``'s own runs do
not wait for the lock their launcher already holds."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import dagster as dg

from pipeline.definitions import build_definitions
from pipeline.jobs import CLAIMS_PIPELINE
from tests.pipeline_support import make_world, run_quietly

HOLD_SECONDS = 4.0


def _hold_lock(database_url: str, marker: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process (a `claims run`, say) holding the store's run lock for ``seconds``;
    it writes ``marker`` once it holds it and the time it let go on exit."""
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from claims.store.locks import run_lock\n"
        f"with run_lock({database_url!r}):\n"
        f"    Path({str(marker)!r}).write_text('held')\n"
        f"    time.sleep({seconds})\n"
        f"    released = time.time()\n"
        f"Path({str(marker)!r}).write_text(repr(released))\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script], text=True)
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert holder.poll() is None, "the lock holder died"
        assert time.monotonic() < deadline, "the lock holder never got the lock"
        time.sleep(0.05)
    return holder


def test_a_run_launched_by_the_sensor_waits_for_the_store_run_lock(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    job = build_definitions(world.resources()).resolve_job_def(CLAIMS_PIPELINE)
    marker = tmp_path / "holder"
    holder = _hold_lock(world.database_url, marker, HOLD_SECONDS)
    try:
        result = job.execute_in_process(
            instance=world.instance,
            asset_selection=[dg.AssetKey("source_register")],
            tags={"dagster/sensor_name": "source_files_sensor"},  # as the sensor tags its runs
            raise_on_error=False,
        )
    finally:
        assert holder.wait(timeout=120) == 0
    assert result.success
    released = float(marker.read_text())
    entries = world.instance.all_logs(result.run_id)
    started = min(
        entry.timestamp
        for entry in entries
        if entry.dagster_event is not None and entry.dagster_event.event_type_value == "STEP_START"
    )
    assert started >= released, "the step ran while another process held the run lock"
    note = "another `claims run` is working on this store"
    waited = [entry.user_message for entry in entries if note in (entry.user_message or "")]
    assert waited, "the run did not say what it was waiting for"


def test_claims_runs_own_runs_do_not_wait_for_the_lock_it_holds(tmp_path: Path) -> None:
    from claims.store.locks import run_lock

    world = make_world(tmp_path)
    started = time.monotonic()
    with run_lock(world.database_url, wait=False):  # what `claims run` does around its runs
        outcome = run_quietly(world)
    assert outcome.versions_processed > 0
    assert time.monotonic() - started < 600
