"""`claims` commands import their stack with the cyclic collector off and then freeze it
(claimledger/cli/startup.py), only in the `claims` process itself; a program that calls
the CLI and goes on keeps its collector exactly as it was."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Runs as the `claims` script does (``main`` imported into ``__main__``), then reports.
_AS_CLAIMS = """
import gc, json, sys
from claimledger.cli import main
from claimledger.cli.startup import loading

passes = []
gc.callbacks.append(lambda phase, info: passes.append(phase) if phase == "start" else None)
before = gc.get_freeze_count()
with loading():
    off_inside = not gc.isenabled()
    import email.parser, decimal, fractions, statistics  # modules, classes, functions
    junk = [[] for _ in range(50_000)]  # enough allocations for many young passes
    del junk
print(json.dumps({
    "off_inside": off_inside,
    "passes_inside": len(passes),
    "enabled_after": gc.isenabled(),
    "frozen": gc.get_freeze_count() - before,
}))
"""


def test_in_the_claims_process_loading_runs_no_pass_and_freezes_what_it_made() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _AS_CLAIMS],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["off_inside"] is True
    assert report["passes_inside"] == 0
    assert report["enabled_after"] is True
    assert report["frozen"] > 1_000


def test_a_caller_that_goes_on_keeps_its_collector() -> None:
    from claimledger.cli.startup import loading

    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    with loading():
        assert gc.isenabled() == enabled
        import html.parser  # noqa: F401
    assert gc.isenabled() == enabled
    assert gc.get_freeze_count() == frozen


def test_claims_run_leaves_the_collector_on_for_the_pipeline(tmp_path: Path) -> None:
    # The pipeline allocates millions of objects: it must run with the collector on.
    probe = """
import atexit, gc, json, sys
state, out = {}, sys.argv[1]
def _seen(phase, info):
    if phase == "start" and "pipeline.runner" in sys.modules:
        state["passes_after_start_up"] = state.get("passes_after_start_up", 0) + 1
gc.callbacks.append(_seen)
atexit.register(lambda: open(out, "w").write(json.dumps(state)))
from claimledger.cli import main
sys.argv = ["claims", *sys.argv[2:]]
main()
"""
    notes = tmp_path / "notes"
    notes.mkdir()
    lines = [f"Ticket {k}: the visitor pass for zone {k} costs {40 + k} EUR." for k in range(300)]
    (notes / "fees.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "state.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env.update(PYTHONPATH=str(REPO), CLAIMS_DATA_DIR=str(tmp_path / ".claims"))
    done = subprocess.run(
        [sys.executable, "-c", probe, str(out), "run", str(notes), "--json"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["claims"] >= 300
    assert json.loads(out.read_text()).get("passes_after_start_up", 0) > 0
