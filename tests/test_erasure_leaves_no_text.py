"""Erasure leaves no text of the erased source anywhere (issue 31, point 3).

A source holding a marker word (in a sentence's scope, so a value-group relation's reason
quotes it, and in a claim key of its own) is run through the real pipeline with a real,
persistent Dagster instance, then erased with `claims sources erase`. Every table of the
claim store (SQLite, and PostgreSQL), the store's files, and every table and file of
Dagster's storage are searched for the marker: nothing. The other sources stay usable.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings

MARKER = "qwzpatient"


def _corpus(folder: Path) -> Path:
    folder.mkdir()
    (folder / "letter.txt").write_text(
        "The dividend for the period was 12 cents per share, Qwzpatient wrote.\n"
        "The Qwzpatient headcount is 40 people.\n",
        encoding="utf-8",
    )
    (folder / "filing.txt").write_text(
        "The dividend for the period was 77 cents per share.\n", encoding="utf-8"
    )
    (folder / "runbook.txt").write_text("The checkout timeout is 5 s.\n", encoding="utf-8")
    return folder


def _sqlite_hits(database: Path) -> list[str]:
    """table.column of every value in the SQLite file holding the marker, any case."""
    hits = []
    connection = sqlite3.connect(database)
    try:
        listed = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = [t for (t,) in listed]
        for table in tables:
            for column in [r[1] for r in connection.execute(f'PRAGMA table_info("{table}")')]:
                found = connection.execute(
                    f'SELECT count(*) FROM "{table}" WHERE lower(CAST("{column}" AS TEXT)) LIKE ?',
                    (f"%{MARKER}%",),
                ).fetchone()[0]
                if found:
                    hits.append(f"{database.name}: {table}.{column}")
    finally:
        connection.close()
    return hits


def _postgres_hits(url: str) -> list[str]:
    engine = create_engine(url)
    hits = []
    try:
        with engine.connect() as connection:
            for table in inspect(connection).get_table_names():
                found = connection.scalar(
                    text(f'SELECT count(*) FROM "{table}" AS r WHERE lower(r::text) LIKE :m'),
                    {"m": f"%{MARKER}%"},
                )
                if found:
                    hits.append(f"postgres: {table}")
    finally:
        engine.dispose()
    return hits


def _file_hits(folder: Path) -> list[str]:
    """Files under ``folder`` whose bytes hold the marker (free pages and logs included)."""
    return [
        str(path.relative_to(folder))
        for path in sorted(folder.rglob("*"))
        if path.is_file() and MARKER.encode() in path.read_bytes().lower()
    ]


def _captured_log_quoting_the_letter(home: Path) -> None:
    """What a step run by `claims ui` leaves: its stdout/stderr captured in a file of the
    run's folder (the in-process `claims run` captures none)."""
    import dagster as dg

    with dg.DagsterInstance.from_config(str(home)) as instance:
        (run,) = instance.get_runs(limit=1)
        base = Path(instance.compute_log_manager._base_dir)  # noqa: SLF001
    log = base / run.run_id / "compute_logs" / "claims.err"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("warning: The Qwzpatient headcount is 40 people.\n", encoding="utf-8")


def test_erasing_a_source_leaves_no_text_in_the_store_or_dagster(
    migrated_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / ".claims"
    monkeypatch.setenv("CLAIMS_DATA_DIR", str(data_dir))
    monkeypatch.setenv("CLAIMS_DATABASE_URL", migrated_url)
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    get_settings.cache_clear()
    corpus = _corpus(tmp_path / "docs")
    runner = CliRunner()
    try:
        first = runner.invoke(app, ["run", str(corpus)])
        assert first.exit_code == 0, first.output
        conflicts = runner.invoke(app, ["conflicts"])
        assert MARKER in conflicts.output.lower()  # the reason quotes it before the erase

        _captured_log_quoting_the_letter(data_dir / "dagster")
        erased = runner.invoke(app, ["sources", "erase", "letter", "--reason", "a request"])
        assert erased.exit_code == 0, erased.output
        assert "Dagster history: " in erased.output
        again = runner.invoke(app, ["run", str(corpus)])  # the letter is skipped, said so
        assert again.exit_code == 0, again.output
        after = runner.invoke(app, ["conflicts", "--json"])
    finally:
        get_settings.cache_clear()

    assert MARKER not in after.output.lower()
    dagster = data_dir / "dagster"
    assert list(dagster.rglob("*.db")), "the run kept a Dagster history"
    hits = [hit for db in sorted(dagster.rglob("*.db")) for hit in _sqlite_hits(db)]
    hits += [f"dagster file {name}" for name in _file_hits(dagster)]
    if make_url(migrated_url).get_backend_name() == "sqlite":
        database = Path(make_url(migrated_url).database or "")
        hits += _sqlite_hits(database)
        hits += [
            f"store file {name}"
            for name in _file_hits(database.parent)
            if name.startswith(database.name)  # the database, its journal and WAL
        ]
    else:
        hits += _postgres_hits(migrated_url)
    assert hits == []


@pytest.mark.parametrize("count", [10, 4000])
def test_traces_are_found_in_dagster_text_for_small_and_large_sources(count: int) -> None:
    from pipeline.forget import _matcher

    quotes = [f"The locker fee of floor {i} is {i % 13 + 2} EUR." for i in range(count)]
    matches = _matcher([*quotes, '"letter"', "| letter |"])
    assert matches('{"preview": "| letter | fee | The locker fee of floor 7 is 9 EUR. |"}')
    assert matches('{"text": "first line\\nThe locker fee of floor 3 is 5 EUR."}')
    assert matches('{"source": "letter"}')
    assert not matches('{"preview": "| filing | fee | The locker fee of floor 7 is 10 EUR. |"}')
    assert not matches('{"source": "letters"}')
