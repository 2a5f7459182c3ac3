"""The `claims` step's bulk load (claims.store.bulk_load): a first run over a corpus writes
its claims with the claims table's secondary indexes built once at the end. It stores what
the ordinary path stores, the indexes are there after it, after a load that fails and after
a process killed in the middle of one, and an incremental run takes the ordinary path."""

from __future__ import annotations

import math
import pickle
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import dagster as dg
import pytest
from sqlalchemy import text

from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, GenerationRepository, bulk_load
from claims.store.bulk_load import indexes_deferred, load_pays
from claims.store.claims import claim_row
from pipeline import corpus
from pipeline.assets.claims import _Extracted, write_run
from pipeline.resources import ClaimStore
from tests.pipeline_support import PipelineWorld, make_world, run_quietly
from tests.store_template import upgrade  # a copy of a store migrated once

ROOT = Path(__file__).resolve().parent.parent

SERVICES = ["ledger", "billing", "checkout", "search", "mobile", "identity", "storage"]


def _write_notes(folder: Path, count: int) -> None:
    """Runbook notes as teams write them: numbers, dates, a table row, repeated facts."""
    for i in range(count):
        service = SERVICES[i % len(SERVICES)]
        path = folder / "runbooks" / f"{service}-{i:02d}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"# {service.title()} runbook, revision {i}\n\n"
            f"The {service} service keeps request logs for {30 + i % 3 * 30} days. "
            f"Pages for the {service} service are answered within {10 + i % 4 * 5} minutes, "
            f"and the p99 latency target is {200 + i % 5 * 100} ms.\n\n"
            f"Since January 2025 the {service} backups run every {4 + i % 2 * 2} hours; "
            f"restores were tested {2 + i % 3} times last quarter.\n\n"
            "| limit | value |\n|---|---|\n"
            f"| upload size | {50 + i % 3 * 25} MB |\n",
            encoding="utf-8",
        )


def _bulk_flag(world: PipelineWorld) -> bool:
    event = world.instance.get_latest_materialization_event(dg.AssetKey("claims"))
    assert event is not None and event.asset_materialization is not None
    return bool(event.asset_materialization.metadata["bulk_load"].value)


def _database(url: str) -> str:
    return url.removeprefix("sqlite:///")


def _claims_indexes(url: str) -> list[tuple[str, str]]:
    with sqlite3.connect(_database(url)) as connection:
        return connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'claims' "
            "ORDER BY name"
        ).fetchall()


def _stored(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """What the claim writer stores, in write order, without its timestamps."""
    queries = {
        "claims": "SELECT rowid, * FROM claims ORDER BY rowid",
        "quotes": "SELECT * FROM claim_quotes ORDER BY id",
        "search": "SELECT rowid, quote FROM claim_quotes_fts ORDER BY rowid",
        "found": "SELECT rowid FROM claim_quotes_fts WHERE claim_quotes_fts MATCH "
        "'backups OR latency' ORDER BY rowid",
        "extracted": "SELECT source_version_id, generation, claims FROM version_extractions "
        "ORDER BY source_version_id",
        "changes": "SELECT id, claim_key, kind, generation FROM claim_key_changes ORDER BY id",
    }
    out: dict[str, list[tuple[Any, ...]]] = {}
    with sqlite3.connect(_database(url)) as connection:
        for name, query in queries.items():
            cursor = connection.execute(query)
            columns = [d[0] for d in cursor.description]
            out[name] = [
                tuple(v for c, v in zip(columns, row, strict=True) if c != "created_at")
                for row in cursor
            ]
    return out


def test_a_first_run_loads_in_bulk_and_stores_what_the_ordinary_path_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    worlds = {"bulk": make_world(tmp_path / "bulk"), "ordinary": make_world(tmp_path / "ord")}
    for name, world in worlds.items():
        _write_notes(world.corpus, 24)
        with monkeypatch.context() as patch:
            if name == "ordinary":
                patch.setattr(bulk_load, "LOAD_RATIO", math.inf)
            run_quietly(world)
        assert _bulk_flag(world) is (name == "bulk")
    bulk, ordinary = (_stored(worlds[n].database_url) for n in ("bulk", "ordinary"))
    # five prose claims per note (its table row is the table reader's, not the sentence reader's)
    assert len(bulk["claims"]) > 120 and len(bulk["quotes"]) > 75 and bulk["found"]
    assert bulk == ordinary
    indexes = _claims_indexes(worlds["bulk"].database_url)
    assert indexes == _claims_indexes(worlds["ordinary"].database_url)
    # the primary key's and 10 more (migration 0026 added two)
    assert len(indexes) == 11

    # one note edited: the incremental run takes the ordinary path, and stores the same
    for world in worlds.values():
        note = world.corpus / "runbooks" / "search-03.md"
        note.write_text(
            note.read_text("utf-8") + "\nThe search index is rebuilt every 12 hours.\n", "utf-8"
        )
        run_quietly(world)
        assert _bulk_flag(world) is False
    assert _stored(worlds["bulk"].database_url) == _stored(worlds["ordinary"].database_url)


def test_load_pays_for_a_store_without_claims_not_for_a_small_addition(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _write_notes(world.corpus, 10)
    with world.store.transaction() as session:
        assert load_pays(session, 1)  # nothing extracted yet
        assert not load_pays(session, 0)
    run_quietly(world)
    with world.store.transaction() as session:
        extracted = session.execute(text("SELECT count(*) FROM version_extractions")).scalar()
        assert extracted and extracted > 10
        assert not load_pays(session, 1)
        assert load_pays(session, int(extracted))


def _store_with_versions(tmp_path: Path, notes: int) -> tuple[ClaimStore, list[_Extracted], str]:
    """A store holding ``notes`` versions and no claims, and the versions' extracted rows."""
    folder = tmp_path / "notes"
    _write_notes(folder, notes)
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    store = ClaimStore(database_url=url)
    generation, label = current_generation()
    scan = corpus.scan([folder], None)
    with store.transaction() as session:
        corpus.store_files(session, scan, [f.source for f in scan.read if f.source])
        GenerationRepository(session).ensure(generation, label)
        versions = corpus.versions_for_keys(session, list(scan.files))
    extracted = [
        _Extracted(
            v.id,
            [claim_row(c) for c in extract(v.text, source_id=v.source_id, source_version_id=v.id)],
            False,
        )
        for _, v in sorted(versions.items())
    ]
    return store, extracted, generation


def test_a_load_that_raises_leaves_the_indexes_and_no_claims(tmp_path: Path) -> None:
    store, extracted, _ = _store_with_versions(tmp_path, 6)
    before = _claims_indexes(store.database_url)
    with (
        pytest.raises(RuntimeError, match="disk gave up"),
        store.transaction() as session,
        indexes_deferred(session),
    ):
        ClaimRepository(session).add_rows(extracted[0].rows)
        inside = session.execute(
            text("SELECT name FROM sqlite_master WHERE tbl_name = 'claims' AND type = 'index'")
        ).scalars()
        # the primary key's index and the one the writer reads by; the rest are dropped
        assert sorted(inside) == ["ix_claims_source_version_id", "sqlite_autoindex_claims_1"]
        raise RuntimeError("disk gave up")
    assert _claims_indexes(store.database_url) == before
    assert len(before) == 11
    with store.transaction() as session:
        assert session.execute(text("SELECT count(*) FROM claims")).scalar() == 0


def test_a_store_refusing_a_version_mid_load_keeps_the_ones_before_it(tmp_path: Path) -> None:
    store, extracted, generation = _store_with_versions(tmp_path, 6)
    before = _claims_indexes(store.database_url)
    # a version the store does not hold: its claims break the foreign key to source_versions
    stray = _Extracted(
        "sv_not_stored",
        [(row[0] + "x", "sv_not_stored", *row[2:]) for row in extracted[3].rows],
        False,
    )
    items = [*extracted[:3], stray, *extracted[3:]]
    with pytest.raises(Exception, match="FOREIGN KEY"):
        write_run(store, items, generation)
    assert _claims_indexes(store.database_url) == before
    with store.transaction() as session:
        written = session.execute(text("SELECT count(*) FROM claims")).scalar()
        done = session.execute(text("SELECT count(*) FROM version_extractions")).scalar()
    # the ordinary path took over: the versions before the refused one are stored whole
    assert written == sum(len(item.rows) for item in extracted[:3]) and done == 3


def test_a_process_killed_mid_load_leaves_the_indexes(tmp_path: Path) -> None:
    store, extracted, _ = _store_with_versions(tmp_path, 4)
    before = _claims_indexes(store.database_url)
    rows = tmp_path / "rows.pickle"
    rows.write_bytes(pickle.dumps(extracted[0].rows))
    script = textwrap.dedent(
        f"""
        import os, pickle, signal, sys
        sys.path.insert(0, {str(ROOT)!r})
        from claims.store import ClaimRepository
        from claims.store.bulk_load import indexes_deferred
        from pipeline.resources import ClaimStore

        rows = pickle.loads(open({str(rows)!r}, "rb").read())
        store = ClaimStore(database_url={store.database_url!r})
        with store.transaction() as session, indexes_deferred(session):
            ClaimRepository(session).add_rows(rows)
            session.flush()
            print("loading", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == -9, result.stderr
    assert "loading" in result.stdout
    assert _claims_indexes(store.database_url) == before
    with store.transaction() as session:
        assert session.execute(text("SELECT count(*) FROM claims")).scalar() == 0
