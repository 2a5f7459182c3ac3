"""Concurrent ``claims run`` on one store (issue 14, point 7): one at a time, never a raw
``IntegrityError``. Real processes on a real SQLite store and PostgreSQL database."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select

from claims.errors import ConcurrencyError
from claims.store.locks import run_lock
from claims.tables import SourceVersionRow
from tests.pipeline_support import FIXTURES

ROOT = Path(__file__).resolve().parent.parent


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "claimledger", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


def _environment(tmp_path: Path, database_url: str | None = None) -> dict[str, str]:
    env = {**os.environ, "CLAIMS_DATA_DIR": str(tmp_path / ".claims")}
    env.pop("CLAIMS_DATABASE_URL", None)
    if database_url:
        env["CLAIMS_DATABASE_URL"] = database_url
    return env


def _corpus(tmp_path: Path) -> list[str]:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    return [str(corpus), "--register", str(FIXTURES / "register.yaml")]


def _versions(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(SourceVersionRow)))
    finally:
        engine.dispose()


def _two_runs_at_once(tmp_path: Path, database_url: str | None) -> str:
    env = _environment(tmp_path, database_url)
    args = ["run", *_corpus(tmp_path)]
    first, second = _start(args, env), _start(args, env)
    outputs = [process.communicate(timeout=400) for process in (first, second)]
    for process, (out, err) in zip((first, second), outputs, strict=True):
        assert process.returncode == 0, out + err
        assert "IntegrityError" not in err and "Traceback" not in err, err
    errors = " ".join(" ".join(err.split()) for _, err in outputs)
    assert errors.count("another `claims run` is working on this store") == 1, errors
    assert "waiting for it to finish" in errors
    url = database_url or f"sqlite:///{tmp_path / '.claims' / 'claims.db'}"
    assert _versions(url) == 6
    for out, _ in outputs:  # each printed a whole summary of the same store
        assert "versions\t6" in out
    return errors


def test_two_runs_started_together_on_sqlite_take_turns(tmp_path: Path) -> None:
    _two_runs_at_once(tmp_path, None)


@pytest.mark.postgres
def test_two_runs_started_together_on_postgresql_take_turns(
    tmp_path: Path, postgres_url: str
) -> None:
    _two_runs_at_once(tmp_path, postgres_url)


def test_no_wait_exits_with_a_clear_message_while_a_run_holds_the_store(tmp_path: Path) -> None:
    env = _environment(tmp_path)
    database = tmp_path / ".claims" / "claims.db"
    with run_lock(f"sqlite:///{database}"):
        busy = subprocess.run(
            [sys.executable, "-m", "claimledger", "run", "--no-wait", *_corpus(tmp_path)],
            capture_output=True,
            text=True,
            timeout=200,
            env=env,
            cwd=ROOT,
        )
    assert busy.returncode == ConcurrencyError.exit_code, busy.stderr
    message = " ".join(busy.stderr.split())
    assert f"another `claims run` is working on this store (pid {os.getpid()} on" in message
    assert "Traceback" not in busy.stderr


def test_a_waiting_run_goes_ahead_once_the_holder_is_killed(tmp_path: Path) -> None:
    # The holder is a real process killed with SIGKILL: the kernel drops its lock, no
    # stale lock file can block the store.
    env = _environment(tmp_path)
    database = tmp_path / ".claims" / "claims.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from claims.store.locks import run_lock\n"
            f"with run_lock({f'sqlite:///{database}'!r}):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(600)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        waiter = _start(["run", *_corpus(tmp_path)], env)
        time.sleep(1)
        assert waiter.poll() is None  # waiting, not failing
        holder.kill()
        out, err = waiter.communicate(timeout=300)
    finally:
        holder.kill()
        holder.wait()
    assert waiter.returncode == 0, out + err
    assert "versions processed now\t6" in out


def _steps_of_one_run_share_the_lock(database_url: str) -> None:
    """The extraction steps of one run hold the lock shared: they admit each other, and
    neither another run (exclusive) gets in while they work nor they while it does."""
    with run_lock(database_url, shared=True):
        with run_lock(database_url, shared=True, wait=False):
            pass  # a second extraction step of the same run
        with (
            pytest.raises(ConcurrencyError, match="another `claims run`"),
            run_lock(database_url, wait=False),
        ):
            pass
    with (
        run_lock(database_url, wait=False),
        pytest.raises(ConcurrencyError, match="another `claims run`"),
        run_lock(database_url, shared=True, wait=False),
    ):
        pass
    with run_lock(database_url, wait=False):  # every holder let go
        pass


def test_steps_of_one_run_share_the_sqlite_lock_and_keep_other_runs_out(tmp_path: Path) -> None:
    _steps_of_one_run_share_the_lock(f"sqlite:///{tmp_path / 'claims.db'}")


@pytest.mark.postgres
def test_steps_of_one_run_share_the_postgresql_lock_and_keep_other_runs_out(
    postgres_url: str,
) -> None:
    _steps_of_one_run_share_the_lock(postgres_url)
