"""The store survives its first run (issue 14, point 5).

A ``claims`` process is killed with SIGKILL at several SQL statements while it creates the
store; every later command must then work. A store left half-created by an older version
(tables, no migration record) is repaired when it holds nothing, reported when it does.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from click.testing import Result
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings
from claims.store.migrate import alembic_config

ROOT = Path(__file__).resolve().parent.parent

# Runs one `claims` command and kills itself (SIGKILL, no cleanup of any kind) just before
# the Nth SQL statement reaches SQLite; N = 0 counts the statements instead.
KILLER = """
import os, signal, sys
from sqlalchemy import Engine, event

target, seen = int(sys.argv[1]), 0

@event.listens_for(Engine, "before_cursor_execute")
def _maybe_die(conn, cursor, statement, parameters, context, executemany):
    global seen
    seen += 1
    if seen == target:
        os.kill(os.getpid(), signal.SIGKILL)

sys.argv = ["claims", *sys.argv[2:]]
from claimledger.cli import main
try:
    main()
finally:
    if target == 0:
        print(f"statements={seen}", file=sys.stderr)
"""


def _env(data_dir: Path) -> dict[str, str]:
    environment = {**os.environ, "CLAIMS_DATA_DIR": str(data_dir)}
    environment.pop("CLAIMS_DATABASE_URL", None)
    return environment


def _killed_at(statement: int, args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", KILLER, str(statement), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(data_dir),
        cwd=ROOT,
    )


def _claims(args: list[str], data_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "claimledger", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=_env(data_dir),
        cwd=ROOT,
    )


def _head() -> str:
    (head,) = ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()
    return head


@pytest.fixture
def note(tmp_path: Path) -> Path:
    path = tmp_path / "handbook.txt"
    path.write_text("Laptops are replaced every 36 months.\n", encoding="utf-8")
    return path


def _in_process(args: list[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Result:
    """A later command, in this process (the killed one was a real process)."""
    monkeypatch.setenv("CLAIMS_DATA_DIR", str(data_dir))
    monkeypatch.delenv("CLAIMS_DATABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        return CliRunner().invoke(app, args)
    finally:
        get_settings.cache_clear()


def test_a_store_killed_at_any_point_of_its_creation_works_afterwards(
    tmp_path: Path, note: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = _killed_at(0, ["ingest", str(note)], tmp_path / "counting")
    assert counted.returncode == 0, counted.stderr
    total = int(counted.stderr.rsplit("statements=", 1)[1].split()[0])
    assert total > 20  # the schema, the version row, then the ingest itself

    # Early (the first DDL), the middle of the schema, and the last statements before the
    # version row and the commit: each kill must leave a store every command can use.
    points = sorted({3, total // 3, (2 * total) // 3, total - 8, total - 1})
    for point in points:
        data_dir = tmp_path / f"killed-at-{point}"
        killed = _killed_at(point, ["ingest", str(note)], data_dir)
        assert killed.returncode == -signal.SIGKILL, (point, killed.stderr)

        upgraded = _in_process(["db", "upgrade"], data_dir, monkeypatch)
        assert upgraded.exit_code == 0, (point, upgraded.output)
        assert f"database at revision {_head()}" in upgraded.output

        ingested = _in_process(["ingest", str(note)], data_dir, monkeypatch)
        assert ingested.exit_code == 0, (point, ingested.output)
        assert "1 files, 1 sources" in ingested.output

        listed = _in_process(["sources", "list", "--json"], data_dir, monkeypatch)
        assert listed.exit_code == 0, (point, listed.output)
        assert '"handbook"' in listed.output


def _half_created(path: Path, *, with_row: bool) -> None:
    """What an older claimledger left when killed mid-creation: autocommitted DDL only."""
    path.parent.mkdir(parents=True)
    connection = sqlite3.connect(path)
    connection.executescript(
        """
        CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY);
        CREATE TABLE audit_events (
            id INTEGER NOT NULL PRIMARY KEY, at DATETIME NOT NULL, actor VARCHAR(256) NOT NULL,
            action VARCHAR(64) NOT NULL, entity_type VARCHAR(64) NOT NULL,
            entity_id VARCHAR(512) NOT NULL, before JSON, after JSON,
            policy_version VARCHAR(128));
        CREATE INDEX ix_audit_events_at ON audit_events (at);
        CREATE TABLE sources (id VARCHAR(512) NOT NULL PRIMARY KEY, title TEXT);
        """
    )
    if with_row:
        connection.execute("INSERT INTO sources (id, title) VALUES ('memo', 'A memo')")
    connection.commit()
    connection.close()


def test_an_empty_half_created_store_is_repaired_by_the_next_command(
    tmp_path: Path, note: Path
) -> None:
    data_dir = tmp_path / ".claims"
    _half_created(data_dir / "claims.db", with_row=False)

    upgraded = _claims(["db", "upgrade"], data_dir)
    assert upgraded.returncode == 0, upgraded.stderr
    assert "was left half-created" in upgraded.stdout
    assert "its tables were dropped and it was created again" in upgraded.stdout
    assert f"database at revision {_head()}" in upgraded.stdout

    ingested = _claims(["ingest", str(note)], data_dir)
    assert ingested.returncode == 0, ingested.stderr


def test_a_half_created_store_holding_rows_is_reported_with_what_to_do(
    tmp_path: Path, note: Path
) -> None:
    data_dir = tmp_path / ".claims"
    _half_created(data_dir / "claims.db", with_row=True)

    for args in (["db", "upgrade"], ["ingest", str(note)]):
        result = _claims(args, data_dir)
        assert result.returncode == 1, result.stderr
        message = " ".join(result.stderr.split())  # the console wraps long lines
        assert "was left half-created" in message and "holds rows in sources" in message
        assert "Move the file aside" in message and "claims db upgrade" in message
        assert "Traceback" not in result.stderr and "already exists" not in result.stderr

    connection = sqlite3.connect(data_dir / "claims.db")
    try:  # nothing was changed
        assert connection.execute("SELECT id FROM sources").fetchall() == [("memo",)]
    finally:
        connection.close()
