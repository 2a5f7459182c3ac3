"""A full disk is said in words, with a non-zero exit, and the store stays intact (issue 31,
point 9). The store lives on a real 2 MiB tmpfs mounted for the test (CI runs as root):
SQLite meets the full disk for real, no error is simulated."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from claims.errors import StorageFullError

FULL_EXIT = StorageFullError.exit_code


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs at tmp_path/disk, unmounted afterwards."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
        capture_output=True,
        text=True,
    )
    assert mounted.returncode == 0, f"this test mounts a tmpfs and needs root: {mounted.stderr}"
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def _claims(args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "CLAIMS_DATA_DIR": str(data_dir)}
    environment.pop("CLAIMS_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "claimledger", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment,
    )


def _notes(folder: Path, lines: int) -> Path:
    folder.mkdir(parents=True)
    (folder / "quotas.txt").write_text(
        "\n".join(
            f"The storage quota of team {i} is {i % 97 + 3} gigabytes." for i in range(lines)
        ),
        encoding="utf-8",
    )
    return folder


def _versions(database: Path) -> int:
    connection = sqlite3.connect(database)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return int(connection.execute("SELECT count(*) FROM source_versions").fetchone()[0])
    finally:
        connection.close()


def test_ingest_on_a_full_disk_says_so_and_keeps_the_store(
    small_disk: Path, tmp_path: Path
) -> None:
    data_dir = small_disk / ".claims"
    first = _notes(tmp_path / "first", 20)
    assert _claims(["ingest", str(first)], data_dir).returncode == 0
    filler = small_disk / "filler.bin"  # another program's file takes most of what is left
    filler.write_bytes(b"\0" * (shutil.disk_usage(small_disk).free - 150 * 1024))
    big = _notes(tmp_path / "big", 7_000)  # about 400 kB: more than the disk has left

    result = _claims(["ingest", str(big)], data_dir)

    assert result.returncode == FULL_EXIT, result.stderr
    assert "Traceback" not in result.stderr
    assert "error: the disk is full" in result.stderr
    assert str(data_dir / "claims.db") in result.stderr
    assert "bytes free of" in result.stderr and "Free space there" in result.stderr
    assert _versions(data_dir / "claims.db") == 1  # intact: what it held before, nothing half

    filler.unlink()  # room again: the same command now succeeds
    again = _claims(["ingest", str(big)], data_dir)
    assert again.returncode == 0, again.stderr
    assert _versions(data_dir / "claims.db") == 2


def test_claims_run_on_a_full_disk_says_so_and_exits_non_zero(
    small_disk: Path, tmp_path: Path
) -> None:
    data_dir = small_disk / ".claims"
    result = _claims(["run", str(_notes(tmp_path / "big", 30_000))], data_dir)
    assert result.returncode == FULL_EXIT, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    # SQLite says "disk I/O error" when the journal cannot grow: named as most likely full
    said = r"error: (the disk is full|a disk I/O error \(most often a full disk)"
    assert re.search(said, result.stderr)
    assert "could not be written" in result.stderr and "bytes free of" in result.stderr
    database = data_dir / "claims.db"
    if database.exists():
        _versions(database)  # whatever was committed is a consistent store


def test_a_full_store_disk_under_a_roomy_dagster_home_fails_the_run_with_the_message(
    small_disk: Path, tmp_path: Path
) -> None:
    # The claim store alone on the small disk: the run's steps fail on it, Dagster's own
    # history (in the data folder, elsewhere) is written fine; the summary still prints.
    data_dir = tmp_path / ".claims"
    environment = {
        **os.environ,
        "CLAIMS_DATA_DIR": str(data_dir),
        "CLAIMS_DATABASE_URL": f"sqlite:///{small_disk / 'claims.db'}",
    }
    result = subprocess.run(
        [sys.executable, "-m", "claimledger", "run", str(_notes(tmp_path / "big", 30_000))],
        capture_output=True,
        text=True,
        timeout=600,
        env=environment,
    )
    assert result.returncode == FULL_EXIT, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    assert f"{small_disk / 'claims.db'} (SQLite)" in result.stderr
    assert "could not be written" in result.stderr and "bytes free of" in result.stderr
    _versions(small_disk / "claims.db")  # consistent: what was committed, nothing half


def test_a_reviewer_page_on_a_full_disk_answers_507_with_the_message(small_disk: Path) -> None:
    from fastapi.testclient import TestClient
    from review_ledger import FIXTURES, routed_ledger

    from claimledger.web import create_app
    from claims.settings import Settings
    from claims.store import make_engine
    from tests.store_template import upgrade

    url = f"sqlite:///{small_disk / 'claims.db'}"
    upgrade(url)
    engine = make_engine(url)
    routed_ledger(engine)
    engine.dispose()
    filler = small_disk / "filler.bin"
    filler.write_bytes(b"\0" * shutil.disk_usage(small_disk).free)  # not one page left
    settings = Settings(database_url=url, reviewers_file=FIXTURES / "reviewers.yaml")
    with TestClient(create_app(settings)) as client:
        page = client.get("/review/login")
        token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
        assert token is not None
        response = client.post(  # a login writes its session row
            "/review/login",
            data={"username": "alice", "password": "correct horse", "csrf_token": token[1]},
        )
    assert response.status_code == 507, response.text[:500]
    assert "the disk is full" in response.text or "disk I/O error" in response.text
    assert "Nothing of this request was saved" in response.text
    filler.unlink()
    _versions(small_disk / "claims.db")  # intact
