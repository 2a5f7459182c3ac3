"""Symbolic links in a sources folder stay inside it (issue 31, point 5).

A link whose target leaves the folder being ingested is a per-file error naming the link and
its target, unless the operator passes --follow-outside-links; the store's own data folder
(reviewers file, database) is never read, even with the flag or through a path inside it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.ingest import scan_sources
from claims.source_bounds import SourceBounds
from claims.tables import SourceVersionRow

NOTE = "The notice period for the Porto office is 45 days.\n"
SECRET = "session_secret: only-the-store-knows-this\n"


def _layout(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A sources folder with a good note, a link to a note elsewhere and a link to the
    store's reviewers file; returns (sources, data folder, outside note)."""
    data_dir = tmp_path / ".claims"
    data_dir.mkdir()
    (data_dir / "reviewers.yaml").write_text(SECRET, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    outside = elsewhere / "holiday.txt"
    outside.write_text("The holiday allowance for the Porto office is 25 days.\n", "utf-8")
    sources = tmp_path / "sources"
    (sources / "inner").mkdir(parents=True)
    (sources / "notice.txt").write_text(NOTE, encoding="utf-8")
    (sources / ".drafts").mkdir()  # hidden: not walked, but inside the folder
    (sources / ".drafts" / "draft.txt").write_text(
        "The notice period for the Faro office is 30 days.\n", encoding="utf-8"
    )
    (sources / "inner" / "notice-copy.txt").symlink_to(sources / ".drafts" / "draft.txt")
    (sources / "holiday.txt").symlink_to(outside)
    (sources / "reviewers.md").symlink_to(data_dir / "reviewers.yaml")
    return sources, data_dir, outside


def _stored_text(data_dir: Path) -> list[tuple[str, str]]:
    engine = create_engine(f"sqlite:///{data_dir / 'claims.db'}")
    try:
        with engine.connect() as connection:
            rows = connection.execute(select(SourceVersionRow.source_id, SourceVersionRow.text))
            return sorted((source_id, text) for source_id, text in rows)
    finally:
        engine.dispose()


def test_scan_refuses_links_leaving_the_folder_and_names_their_targets(tmp_path: Path) -> None:
    sources, data_dir, outside = _layout(tmp_path)
    bounds = SourceBounds.of(False, [data_dir])
    scan = scan_sources([sources], bounds=bounds)

    assert sorted(f.source_id for f in scan.files) == ["inner/notice-copy", "notice"]
    refused = {r.path.name: r.reason for r in scan.rejected}
    assert (
        f"a symbolic link to {outside}, outside the folder being ingested"
        in (refused["holiday.txt"])
    )
    assert "--follow-outside-links" in refused["holiday.txt"]
    assert "claim store's own data" in refused["reviewers.md"]


def test_the_flag_allows_outside_links_but_never_the_store_s_own_files(tmp_path: Path) -> None:
    sources, data_dir, _ = _layout(tmp_path)
    scan = scan_sources([sources], bounds=SourceBounds.of(True, [data_dir]))
    assert sorted(f.source_id for f in scan.files) == ["holiday", "inner/notice-copy", "notice"]
    assert [r.path.name for r in scan.rejected] == ["reviewers.md"]


def test_a_path_into_the_data_folder_is_refused_even_named_directly(tmp_path: Path) -> None:
    _, data_dir, _ = _layout(tmp_path)
    inside = data_dir / "notes.txt"
    inside.write_text(NOTE, encoding="utf-8")
    scan = scan_sources([inside, data_dir], bounds=SourceBounds.of(True, [data_dir]))
    assert scan.files == []
    assert {r.path.name for r in scan.rejected} == {"notes.txt"}


def test_ingest_stores_nothing_of_the_reviewers_file_through_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources, data_dir, _ = _layout(tmp_path)
    from claims.settings import get_settings

    monkeypatch.setenv("CLAIMS_DATA_DIR", str(data_dir))
    monkeypatch.delenv("CLAIMS_DATABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        runner = CliRunner()
        refused = runner.invoke(app, ["ingest", str(sources)])
        assert refused.exception is not None and "holiday.txt" in str(refused.exception)
        kept = runner.invoke(app, ["ingest", str(sources), "--keep-going"])
        allowed = runner.invoke(
            app, ["ingest", str(sources), "--keep-going", "--follow-outside-links"]
        )
    finally:
        get_settings.cache_clear()
    assert "reviewers.md" in str(kept.exception) and "holiday.txt" in str(kept.exception)
    assert "reviewers.md" in str(allowed.exception) and "holiday.txt" not in str(allowed.exception)
    stored = _stored_text(data_dir)
    assert [source_id for source_id, _ in stored] == ["holiday", "inner/notice-copy", "notice"]
    assert all("only-the-store-knows-this" not in text for _, text in stored)


def test_claims_run_fails_the_outside_link_alone_and_runs_the_rest(tmp_path: Path) -> None:
    sources, data_dir, _ = _layout(tmp_path)
    environment = {**os.environ, "CLAIMS_DATA_DIR": str(data_dir)}
    environment.pop("CLAIMS_DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "claimledger", "run", str(sources)],
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        cwd=tmp_path,
    )
    assert result.returncode != 0
    assert "holiday.txt" in result.stderr and "outside the folder being ingested" in result.stderr
    assert "reviewers.md" in result.stderr and "never read as a source" in result.stderr
    stored = _stored_text(data_dir)
    assert [source_id for source_id, _ in stored] == ["inner/notice-copy", "notice"]

    allowed = subprocess.run(
        [sys.executable, "-m", "claimledger", "run", str(sources), "--follow-outside-links"],
        capture_output=True,
        text=True,
        timeout=300,
        env=environment,
        cwd=tmp_path,
    )
    assert "holiday.txt" not in allowed.stderr, allowed.stderr
    assert "reviewers.md" in allowed.stderr
    stored = _stored_text(data_dir)
    assert "holiday" in [source_id for source_id, _ in stored]
    assert all("only-the-store-knows-this" not in text for _, text in stored)


def test_the_target_of_a_refused_link_is_read_when_its_own_folder_is_given(
    tmp_path: Path,
) -> None:
    sources, data_dir, outside = _layout(tmp_path)
    scan = scan_sources([sources, outside.parent], bounds=SourceBounds.of(False, [data_dir]))
    assert "holiday" in [f.source_id for f in scan.files]  # from elsewhere/, as itself
    assert [f.path for f in scan.files if f.source_id == "holiday"] == [outside]
    assert "holiday.txt" in {r.path.name for r in scan.rejected}  # the link still refused
