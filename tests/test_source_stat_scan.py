"""The source scan reads only the files whose status changed since the store recorded it
(a stat fast path, like git's index): real files, a real SQLite store, and the files the
scan opens observed through Python's audit hooks (tests/opened_files.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from claims.ingest import RACY_NS, scan_sources
from pipeline import corpus
from pipeline.resources import ClaimStore
from tests.opened_files import opened, opened_under
from tests.store_template import upgrade  # a copy of a store migrated once

WRITTEN = {
    "policies/leave.txt": "Full-time staff get 25 days of paid leave a year.\n",
    "policies/notice.md": "# Notice\n\nThe notice period is one month for new starters.\n",
    "ops/uptime.txt": "The checkout service must be up 99.9% of the time in a month.\n",
}


def settle() -> None:
    """Wait until a record taken now is no longer within the racy window of the files."""
    time.sleep(RACY_NS / 1e9 + 0.3)


class Folder:
    """A sources folder and a migrated store beside it."""

    def __init__(self, tmp_path: Path) -> None:
        url = f"sqlite:///{tmp_path / 'claims.db'}"
        upgrade(url)  # first: the racy test scans right after the files are written
        self.store = ClaimStore(database_url=url)
        self.root = tmp_path / "sources"
        for name, text in WRITTEN.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.first: dict[str, str] = {}  # version keys of the first scan

    def scan(self, *, full: bool = False) -> tuple[corpus.CorpusScan, set[str]]:
        """The scan with the store's records (none with ``full``), and the files it opened."""
        with self.store.transaction() as session:
            records = {} if full else corpus.recorded_stats(session)
        with opened() as paths:
            found = corpus.scan([self.root], None, records)
        return found, opened_under(paths, self.root)

    def record(self, found: corpus.CorpusScan) -> int:
        """Record what ``found`` read, as ``claims run`` does once the versions are stored."""
        with self.store.transaction() as session:
            return corpus.record_stats(session, found, {f.key for f in found.good})

    def recorded_paths(self) -> set[str]:
        with self.store.transaction() as session:
            return set(opened_under(set(corpus.recorded_stats(session)), self.root))

    def keys(self, found: corpus.CorpusScan) -> dict[str, str]:
        """Path relative to the folder -> version key, of the good files."""
        return {f.path.relative_to(self.root).as_posix(): f.key for f in found.good}


@pytest.fixture
def folder(tmp_path: Path) -> Folder:
    """A folder whose files were scanned and recorded once, the records trusted."""
    world = Folder(tmp_path)
    settle()
    found, read = world.scan()
    assert read == set(WRITTEN)  # no records yet: every file is read
    assert world.record(found) == len(WRITTEN)
    world.first = world.keys(found)
    return world


def test_unchanged_files_are_not_opened_and_keep_their_versions(folder: Folder) -> None:
    found, read = folder.scan()
    assert read == set()
    assert folder.keys(found) == folder.first
    assert found.read == []
    assert all(f.source is None and f.known is not None for f in found.good)
    assert folder.record(found) == 0  # nothing read, nothing to record


def test_edit_of_the_same_size_with_a_new_mtime_is_read(folder: Folder) -> None:
    path = folder.root / "policies/leave.txt"
    edited = WRITTEN["policies/leave.txt"].replace("25", "26")
    assert len(edited) == len(WRITTEN["policies/leave.txt"])
    path.write_text(edited, encoding="utf-8")
    found, read = folder.scan()
    assert read == {"policies/leave.txt"}
    keys = folder.keys(found)
    assert keys["policies/leave.txt"] != folder.first["policies/leave.txt"]
    assert {k: v for k, v in keys.items() if k != "policies/leave.txt"} == {
        k: v for k, v in folder.first.items() if k != "policies/leave.txt"
    }


def test_edit_with_its_mtime_set_back_is_seen_through_the_ctime(folder: Folder) -> None:
    """touch -d back to the old time: size and mtime as recorded, the ctime is not."""
    path = folder.root / "ops/uptime.txt"
    before = path.stat()
    path.write_text(WRITTEN["ops/uptime.txt"].replace("99.9", "99.5"), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    found, read = folder.scan()
    assert read == {"ops/uptime.txt"}
    assert "99.5" in next(f for f in found.read).source.text  # type: ignore[union-attr]


def test_size_change_is_read(folder: Folder) -> None:
    path = folder.root / "policies/notice.md"
    path.write_text(WRITTEN["policies/notice.md"] + "It is three months after a year.\n")
    found, read = folder.scan()
    assert read == {"policies/notice.md"}
    assert folder.keys(found)["policies/notice.md"] != folder.first["policies/notice.md"]


def test_a_racy_record_is_not_trusted_until_a_later_one_is_taken(tmp_path: Path) -> None:
    world = Folder(tmp_path)
    found, read = world.scan()  # right after the files were written: racy records
    assert read == set(WRITTEN)
    world.record(found)
    found, read = world.scan()
    assert read == set(WRITTEN)  # read again: within the window, a change could hide
    settle()
    found, read = world.scan()
    assert read == set(WRITTEN)  # those records were still racy; these are not
    world.record(found)
    assert world.scan()[1] == set()


def test_deleted_and_renamed_files(folder: Folder) -> None:
    (folder.root / "ops/uptime.txt").unlink()
    (folder.root / "policies/leave.txt").rename(folder.root / "policies/annual-leave.txt")
    found, read = folder.scan()
    assert read == {"policies/annual-leave.txt"}  # a new path has no record
    assert sorted(f.source_id for f in found.good) == ["policies/annual-leave", "policies/notice"]
    folder.record(found)
    # the records of the gone paths are dropped with the new one's written
    assert folder.recorded_paths() == {"policies/annual-leave.txt", "policies/notice.md"}
    # a rename sets the file's ctime: the record taken just after is racy, read again
    assert folder.scan()[1] == {"policies/annual-leave.txt"}


def test_full_rescan_reads_every_file_and_records_again(folder: Folder) -> None:
    found, read = folder.scan(full=True)
    assert read == set(WRITTEN)
    assert folder.keys(found) == folder.first
    assert folder.record(found) == len(WRITTEN)


def test_a_file_over_a_lowered_size_limit_is_read_and_rejected(folder: Folder) -> None:
    limit = len(WRITTEN["policies/leave.txt"].encode())  # the two others are longer
    with folder.store.transaction() as session:
        records = corpus.recorded_stats(session)
    with opened() as paths:
        found = scan_sources([folder.root], None, max_source_bytes=limit, records=records)
    assert opened_under(paths, folder.root) == {"policies/notice.md", "ops/uptime.txt"}
    assert sorted(r.path.name for r in found.rejected) == ["notice.md", "uptime.txt"]
    assert [k.path.name for k in found.known] == ["leave.txt"]


def test_an_unchanged_file_taken_from_its_record_is_read_when_needed(folder: Folder) -> None:
    found, _ = folder.scan()
    file = next(f for f in found.good if f.path.name == "leave.txt")
    with opened() as paths:
        source = file.load()
    assert source is not None and source.text == WRITTEN["policies/leave.txt"]
    assert opened_under(paths, folder.root) == {"policies/leave.txt"}
    (folder.root / "policies/leave.txt").write_text("Changed after the scan.\n")
    assert file.load() is None  # not the bytes the scan's version key names
