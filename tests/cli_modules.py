"""Run the ``claims`` command in a fresh interpreter and read back what it imported.

Shared by the start-up tests (tests/test_cli_imports.py, tests/test_cli_lazy_commands.py):
the child dumps ``sys.modules`` at exit, so the set is what the command loaded, whatever
the test process itself has imported. ``fee_note_run`` is one ``claims run`` of a one-line
note made once per test process, for the tests that only read what that run loaded and
printed, or ask its store a question (they copy the store first)."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_PROBE = """
import atexit, json, sys
dump = sys.argv[1]
def _dump():
    with open(dump, "w") as out:
        json.dump(sorted(sys.modules), out)
atexit.register(_dump)
from claimledger.cli import main
sys.argv = ["claims", *sys.argv[2:]]
main()
"""


def modules_loaded_by(
    tmp_path: Path, *args: str, **env_extra: str
) -> tuple[set[str], subprocess.CompletedProcess]:
    """(modules imported, the finished process) of ``claims ARGS`` run in ``tmp_path`` with a
    store under ``tmp_path/.claims`` and no CLAIMS_* settings from the caller."""
    dump = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAIMS_")}
    env.update(PYTHONPATH=str(REPO), CLAIMS_DATA_DIR=str(tmp_path / ".claims"), **env_extra)
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(dump), *args],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return set(json.loads(dump.read_text())), done


FEE_NOTE = "The annual fee for the visitor pass is 40 EUR.\n"
_runs: list[tuple[Path, set[str], subprocess.CompletedProcess]] = []


def fee_note_run() -> tuple[Path, set[str], subprocess.CompletedProcess]:
    """(folder, modules imported, the finished process) of ``claims run notes --json`` over a
    ``notes`` folder holding FEE_NOTE, run once in this process in a private temp folder
    (its store is ``folder/.claims``; copy it before writing to it)."""
    if not _runs:
        folder = Path(tempfile.mkdtemp(prefix="claimledger-fee-note-"))
        atexit.register(shutil.rmtree, folder, True)
        notes = folder / "notes"
        notes.mkdir()
        (notes / "fees.txt").write_text(FEE_NOTE)
        modules, done = modules_loaded_by(folder, "run", str(notes), "--json", COLUMNS="200")
        _runs.append((folder, modules, done))
    return _runs[0]
