"""Special files in a sources folder (issue 14, point 4): only regular files are read.

A named pipe must not hang ``claims ingest``, ``claims run`` or the sensor; a link to
``/dev/zero`` must not be read past the size limit; a link loop must not crash the scan.
Each is a named, per-file error and ``--keep-going`` keeps the good files. The commands run
as real processes with a timeout, so a hang fails the test instead of stalling the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import create_engine, select

from claims.ingest import scan_sources
from claims.tables import SourceVersionRow
from pipeline.definitions import build_definitions
from pipeline.partitions import run_shards, shard_of
from tests.pipeline_support import make_world

ROOT = Path(__file__).resolve().parent.parent
GOOD_TEXT = "The notice period for the Lisbon office is 30 days.\n"


def _special_folder(folder: Path) -> Path:
    """A folder with one good note and every kind of file that is not a regular file."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "notice.txt").write_text(GOOD_TEXT, encoding="utf-8")
    os.mkfifo(folder / "inbox.txt")  # nobody ever writes to it
    (folder / "endless.txt").symlink_to("/dev/zero")
    (folder / "circle.txt").symlink_to(folder / "circle.txt")
    (folder / "gone.md").symlink_to(folder.parent / "archive" / "moved-away.md")
    return folder


def _claims(args: list[str], data_dir: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "CLAIMS_DATA_DIR": str(data_dir)}
    environment.pop("CLAIMS_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-m", "claimledger", *args],
        capture_output=True,
        text=True,
        timeout=240,  # a pipe that blocks the read would hang forever
        env=environment,
        cwd=cwd,
    )


def _stored_sources(data_dir: Path) -> list[str]:
    if not (data_dir / "claims.db").exists():
        return []
    engine = create_engine(f"sqlite:///{data_dir / 'claims.db'}")
    try:
        with engine.connect() as connection:
            return list(connection.scalars(select(SourceVersionRow.source_id)))
    finally:
        engine.dispose()


def test_scan_names_each_special_file_and_keeps_the_good_one(tmp_path: Path) -> None:
    folder = _special_folder(tmp_path / "notes")
    scan = scan_sources([folder], max_source_bytes=1000)
    assert [f.source_id for f in scan.files] == ["notice"]
    reasons = {r.path.name: r.reason for r in scan.rejected}
    assert set(reasons) == {"inbox.txt", "endless.txt", "circle.txt", "gone.md"}
    assert reasons["inbox.txt"].startswith("a named pipe (FIFO), not a regular file")
    assert "symbolic link to /dev/zero, which is a character device" in reasons["endless.txt"]
    assert reasons["circle.txt"].startswith("a symbolic link loop")
    assert reasons["gone.md"].startswith("a symbolic link to a missing file")
    # Nothing was hashed that is not a regular file; the ids are the links' own names.
    assert {r.path.name: r.sha256 for r in scan.rejected}["endless.txt"] is None
    assert {r.source_id for r in scan.rejected} == {"inbox", "endless", "circle", "gone"}


def test_a_link_loop_named_directly_is_a_per_file_error(tmp_path: Path) -> None:
    loop = tmp_path / "loop.txt"
    loop.symlink_to(loop)
    good = tmp_path / "good.txt"
    good.write_text(GOOD_TEXT, encoding="utf-8")
    scan = scan_sources([loop, good])
    assert [f.source_id for f in scan.files] == ["good"]
    (rejected,) = scan.rejected
    assert str(rejected).startswith(f"{loop}: a symbolic link loop")


def test_ingest_rejects_special_files_and_keep_going_keeps_the_good_one(tmp_path: Path) -> None:
    folder = _special_folder(tmp_path / "notes")
    data_dir = tmp_path / ".claims"

    strict = _claims(["ingest", str(folder)], data_dir, tmp_path)
    assert strict.returncode == 2, strict.stderr
    assert "4 file(s) rejected, nothing was ingested" in strict.stderr
    for name in ("inbox.txt", "endless.txt", "circle.txt", "gone.md"):
        assert f"{folder / name}: " in strict.stderr
    assert "Traceback" not in strict.stderr
    assert _stored_sources(data_dir) == []

    lenient = _claims(["ingest", "--keep-going", str(folder)], data_dir, tmp_path)
    assert lenient.returncode == 2, lenient.stderr
    assert "4 file(s) rejected; the other 1 were ingested" in lenient.stderr
    assert _stored_sources(data_dir) == ["notice"]


def test_claims_run_fails_each_special_file_alone_and_processes_the_rest(tmp_path: Path) -> None:
    folder = _special_folder(tmp_path / "notes")
    data_dir = tmp_path / ".claims"
    result = _claims(["run", str(folder)], data_dir, tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    failed = [line for line in result.stderr.splitlines() if line.startswith("failed ")]
    assert len(failed) == 4, result.stderr
    assert any(
        line.startswith("failed inbox@") and f"{folder / 'inbox.txt'}: a named pipe" in line
        for line in failed
    )
    assert any("circle@" in line and "symbolic link loop" in line for line in failed)
    for line in failed:  # the path once, not the class name of the error
        assert line.count(str(folder)) == 1 and "claims.errors" not in line
    assert _stored_sources(data_dir) == ["notice"]
    assert "sources\t1" in result.stdout


def test_the_sensor_asks_for_each_special_file_s_shard_without_reading_it(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    _special_folder(world.corpus / "inbox")
    defs = build_definitions(world.resources())
    sensor = defs.resolve_sensor_def("source_files_sensor")
    with dg.build_sensor_context(
        instance=world.instance, resources=world.resources(), definitions=defs
    ) as context:
        result = sensor(context)  # a pipe or a link loop would hang or fail here if read
    assert isinstance(result, dg.SensorResult)
    covered = {shard for r in result.run_requests for shard in run_shards(dict(r.tags)) or []}
    for source_id in ("inbox/circle", "inbox/endless", "inbox/gone", "inbox/inbox"):
        assert shard_of(source_id) in covered  # its shard's run names it (check failed)


def test_bounded_read_takes_the_limit_and_rejects_one_byte_more(tmp_path: Path) -> None:
    from claims.errors import InputError
    from claims.files import read_bounded

    note = tmp_path / "note.txt"
    note.write_bytes(b"x" * 5000)
    assert read_bounded(note, 5000) == b"x" * 5000
    note.write_bytes(b"x" * 5001)
    with pytest.raises(InputError, match=r"5001 bytes, over the limit of 5000 bytes"):
        read_bounded(note, 5000)
