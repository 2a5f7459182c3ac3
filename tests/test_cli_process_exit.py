"""The `claims` process skips the collector's pass over everything at exit (1-2 s of CPU
after a `claims run`), and only when `main` is the program's entry point: a test runner or
another program that calls `main` and goes on keeps its collector as it was."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

_PROBE = """
import atexit, gc, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(str(gc.get_freeze_count())))
from claimledger.cli import main
sys.argv = ["claims", *sys.argv[2:]]
main()
"""


def test_the_claims_process_freezes_what_is_alive_before_it_exits(tmp_path: Path) -> None:
    out = tmp_path / "frozen.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env.update(PYTHONPATH=str(REPO), CLAIMS_DATA_DIR=str(tmp_path / ".claims"))
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(out), "--version"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("claimledger ")
    assert int(out.read_text()) > 10_000  # the CLI's modules and objects, all frozen


def test_a_caller_that_goes_on_keeps_its_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    from claimledger.cli import main

    before = gc.get_freeze_count()
    monkeypatch.setattr(sys, "argv", ["claims", "--version"])
    with pytest.raises(SystemExit) as exit_:
        main()
    assert exit_.value.code in (0, None)
    assert gc.get_freeze_count() == before
