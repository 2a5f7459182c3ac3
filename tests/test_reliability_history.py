"""The store and Dagster's history can disagree (issue 14, point 6).

Deleting the store (or pointing ``CLAIMS_DATABASE_URL`` at a new database) while keeping
Dagster's history used to make ``claims run`` ingest nothing and exit 0: every partition
looked done. Runs are now planned from the store (issue 15.1), so a new store is filled
again and the user is told; the other way round (history gone, store kept) redoes nothing.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import dagster as dg
import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.settings import get_settings
from claims.store.migrate import upgrade
from pipeline.definitions import build_definitions
from pipeline.planning import NEW
from pipeline.runner import run_pipeline
from tests.pipeline_support import FIXTURES, make_world


def _run(*args: str) -> tuple[int, dict[str, str], str]:
    result = CliRunner().invoke(app, ["run", *args])
    rows = dict(re.findall(r"^([a-z: ]+)\t(.+)$", result.output, flags=re.MULTILINE))
    return result.exit_code, rows, result.output


def _same_ledger(rows: dict[str, str], reference: dict[str, str]) -> None:
    for row in ("sources", "versions", "claims", "edges: conflicts", "edges: corroborates"):
        assert rows[row] == reference[row], (row, rows, reference)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", path)
    return path


def test_a_deleted_or_new_store_is_filled_again_from_the_files(
    cli_env: Path, corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register = str(FIXTURES / "register.yaml")
    code, first, _ = _run(str(corpus), "--register", register)
    assert code == 0
    assert first["versions processed now"] == "6" and int(first["claims"].split()[0]) > 0
    assert int(first["edges: conflicts"]) > 0

    # rm .claims/claims.db, then claims run: the history says all six are done.
    for name in ("claims.db", "claims.db-wal", "claims.db-shm"):
        (cli_env / name).unlink(missing_ok=True)
    code, again, output = _run(str(corpus), "--register", register)
    assert code == 0, output
    assert "the store lacks 6 source version(s) that Dagster's history remembers" in output
    assert again["versions processed now"] == "6"
    _same_ledger(again, first)

    # A new database named by CLAIMS_DATABASE_URL, with --full.
    monkeypatch.setenv("CLAIMS_DATABASE_URL", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    get_settings.cache_clear()
    code, elsewhere, output = _run(str(corpus), "--register", register, "--full")
    assert code == 0, output
    assert "ingested again and the graph refreshed in full" in output
    _same_ledger(elsewhere, first)

    # Nothing lacking: a plain re-run processes nothing and says nothing about the store.
    code, quiet, output = _run(str(corpus), "--register", register)
    assert code == 0 and quiet["versions processed now"] == "0"
    assert "store lacks" not in output


def test_a_store_kept_after_the_history_is_deleted_is_neither_duplicated_nor_emptied(
    cli_env: Path, corpus: Path
) -> None:
    register = str(FIXTURES / "register.yaml")
    code, first, _ = _run(str(corpus), "--register", register)
    assert code == 0
    shutil.rmtree(cli_env / "dagster")
    code, again, output = _run(str(corpus), "--register", register)
    assert code == 0, output
    # The store says everything is done: partitions come back, the work is not redone.
    assert again["versions processed now"] == "0"
    _same_ledger(again, first)
    assert "store lacks" not in output


def test_a_version_whose_file_changed_since_is_reported_as_lost(
    cli_env: Path, corpus: Path
) -> None:
    register = str(FIXTURES / "register.yaml")
    assert _run(str(corpus), "--register", register)[0] == 0
    for name in ("claims.db", "claims.db-wal", "claims.db-shm"):
        (cli_env / name).unlink(missing_ok=True)
    edited = corpus / "policies/notice-period.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nReviewed in March.\n")
    code, rows, output = _run(str(corpus), "--register", register)
    assert code == 0, output
    message = " ".join(output.split())
    assert "the store lacks 6 source version(s)" in message
    assert "5 ingested again" in message
    assert "1 cannot be restored (their file changed or is gone" in message
    assert rows["versions"] == "6"  # five restored and the edited file as a new version


def test_the_sensor_requests_the_versions_a_new_store_lacks(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    (tmp_path / "claims.db").unlink()
    upgrade(world.database_url)

    defs = build_definitions(world.resources())
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(), definitions=defs
    ) as context:
        result = sensor(context)
    assert isinstance(result, dg.SensorResult)
    (request,) = result.run_requests
    assert request.tags["claimledger/reason"] == NEW  # what the store lacks is new to it
    # no FULL_GRAPH_CONFIG needed: the new store has no consumer cursors, so the graph
    # assets rebuild everything on their own
    assert request.run_config == {}
    assert request.asset_selection is None  # the whole job: versions, claims, graph
