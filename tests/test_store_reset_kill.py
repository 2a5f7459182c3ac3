"""A `claims run` killed mid-way (SIGKILL, a real process) and started again ends with the
same store as a run that was never interrupted (issue 15.1): the store alone says what is
left to do, and every write lands together with its progress record."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from pipeline.resources import ClaimStore
from tests.store_ledger import ledger

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = Path(sys.executable).parent / "claims"


def _workspace(base: Path) -> tuple[Path, Path, dict[str, str]]:
    corpus = base / "corpus"
    shutil.copytree(ROOT / "samples" / "corpus", corpus)
    register = base / "register.yaml"
    shutil.copy(ROOT / "samples" / "register.yaml", register)
    data = base / ".claims"
    env = {
        **os.environ,
        "CLAIMS_DATA_DIR": str(data),
        "CLAIMS_BATCH_SIZE": "2",  # many small runs: a kill lands between and inside them
    }
    env.pop("CLAIMS_DATABASE_URL", None)
    return corpus, register, env


def _command(corpus: Path, register: Path) -> list[str]:
    return [str(CLAIMS), "run", str(corpus), "--register", str(register)]


def _extracted(database: Path) -> int:
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM version_extractions").fetchone()[0])
    except sqlite3.OperationalError:  # not created yet, or busy migrating
        return 0


def _cursors(database: Path) -> set[str]:
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as conn:
            return {row[0] for row in conn.execute("SELECT consumer FROM consumer_cursors")}
    except sqlite3.OperationalError:
        return set()


def _store(base: Path) -> ClaimStore:
    store = ClaimStore(database_url=f"sqlite:///{base / '.claims' / 'claims.db'}")
    store.prepare()
    return store


def _kill_twice(corpus: Path, register: Path, env: dict[str, str], database: Path) -> int:
    """A run killed once it has stored its first extraction, then started again and, when it
    gets there in time, killed once more between the edge evaluation (acknowledged) and the
    review and status read models (not yet); returns what the first one had extracted."""
    process = subprocess.Popen(
        _command(corpus, register), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300
    seen = 0
    while seen == 0 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.02)
        seen = _extracted(database)
    assert process.poll() is None, "the run finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    at_kill = _extracted(database)

    process = subprocess.Popen(
        _command(corpus, register), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while process.poll() is None and "claim_edges" not in _cursors(database):
        time.sleep(0.02)
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return at_kill


def test_a_run_killed_while_writing_and_started_again_ends_like_an_uninterrupted_one(
    tmp_path: Path,
) -> None:
    # The uninterrupted run works beside the interrupted ones (its own folder and store):
    # the test waits for the longer of the two instead of for their sum.
    reference_dir = tmp_path / "uninterrupted"
    corpus, register, env = _workspace(reference_dir)
    reference_log = tmp_path / "uninterrupted.log"
    with reference_log.open("wb") as sink:
        reference = subprocess.Popen(
            _command(corpus, register), env=env, stdout=subprocess.DEVNULL, stderr=sink
        )
    killed_dir = tmp_path / "killed"
    corpus, register, env = _workspace(killed_dir)
    database = killed_dir / ".claims" / "claims.db"
    try:
        at_kill = _kill_twice(corpus, register, env, database)
        reference.wait(timeout=600)
    finally:
        if reference.poll() is None:
            reference.kill()
            reference.wait()
    assert reference.returncode == 0, reference_log.read_text(errors="replace")[-2000:]
    expected = ledger(_store(reference_dir))
    total = _extracted(reference_dir / ".claims" / "claims.db")  # one per stored version
    assert expected["claims"] and expected["edges"] and expected["review_items"]
    assert 0 < at_kill < total  # killed after it started writing, before it was done

    again = subprocess.run(
        _command(corpus, register), env=env, capture_output=True, text=True, timeout=600
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert _extracted(database) == total
    assert ledger(_store(killed_dir)) == expected
