"""A run after a clean run stats every file and, when nothing changed, reads no file record
and plans nothing (claims/run_stamp.py): every kind of change is still found. Real files,
a real SQLite store and real runs on a real Dagster instance; the files a run opens are
observed through Python's audit hooks (tests/opened_files.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from typer.testing import CliRunner

from claimledger.cli import app
from claims.ingest import ingest, read_source_file, stat_path
from claims.store.sources import file_stats
from tests.test_pipeline_stat_scan import NOTES, Desk
from tests.test_source_stat_scan import settle


def _settled_desk(tmp_path: Path) -> Desk:
    """A desk whose first run (the ordinary way) left a stamp of its four notes."""
    desk = Desk(tmp_path)
    settle()  # the first run's statuses are then beyond the racy window
    first, read = desk.run()
    assert not first.sources_unchanged and read == set(NOTES)
    return desk


def _unchanged(desk: Desk) -> None:
    """The next run finds nothing new, reads nothing, and still refreshes the graph."""
    outcome, read = desk.run()
    assert outcome.sources_unchanged
    assert read == set()
    assert outcome.plan.batches == [] and outcome.runs == 1
    assert outcome.files_found == len(list(desk.corpus.rglob("*.*")))


def test_a_run_after_a_clean_run_reads_and_plans_nothing(tmp_path: Path) -> None:
    desk = _settled_desk(tmp_path)
    versions = desk.versions()
    _unchanged(desk)
    _unchanged(desk)
    assert desk.versions() == versions


def test_an_in_place_edit_inside_an_unchanged_folder_is_found(tmp_path: Path) -> None:
    desk = _settled_desk(tmp_path)
    folder = desk.corpus / "ops"
    before = os.stat(folder).st_mtime_ns
    with (folder / "backups.txt").open("r+b") as file:  # same size, same folder entry
        file.write(NOTES["ops/backups.txt"].replace("30", "45").encode())
    assert os.stat(folder).st_mtime_ns == before  # the folder's own status says nothing
    settle()
    outcome, read = desk.run()
    assert not outcome.sources_unchanged
    assert read == {"ops/backups.txt"}
    assert ("ops/backups", 2) in desk.versions()
    _unchanged(desk)


def test_an_added_a_deleted_a_renamed_and_a_touched_file_are_each_found(
    tmp_path: Path,
) -> None:
    desk = _settled_desk(tmp_path)

    added = desk.corpus / "ops/parking.txt"
    added.write_text("Parking at the depot costs 4 pounds a day.\n", encoding="utf-8")
    settle()
    outcome, read = desk.run()
    assert not outcome.sources_unchanged and read == {"ops/parking.txt"}
    assert ("ops/parking", 1) in desk.versions()
    _unchanged(desk)

    gone = desk.corpus / "ops/uptime.md"
    gone.unlink()
    settle()
    outcome, read = desk.run()
    assert not outcome.sources_unchanged and read == set()
    with desk.store.transaction() as session:
        assert stat_path(gone) not in file_stats(session)  # its record is forgotten
    _unchanged(desk)

    (desk.corpus / "hr/notice.txt").rename(desk.corpus / "hr/notice-period.txt")
    settle()
    outcome, read = desk.run()
    assert not outcome.sources_unchanged and read == {"hr/notice-period.txt"}
    assert ("hr/notice-period", 1) in desk.versions()
    _unchanged(desk)

    stored = desk.count_versions()
    os.utime(desk.corpus / "hr/leave.txt")  # new times, the same bytes
    settle()
    outcome, read = desk.run()
    assert not outcome.sources_unchanged and read == {"hr/leave.txt"}
    assert desk.count_versions() == stored  # hashed again: nothing new to store
    _unchanged(desk)


def test_a_file_changed_just_before_a_run_is_hashed_again_by_the_next(tmp_path: Path) -> None:
    desk = _settled_desk(tmp_path)
    edited = desk.corpus / "ops/backups.txt"
    edited.write_text(NOTES["ops/backups.txt"].replace("30", "45"), encoding="utf-8")
    desk.run()  # its status is too recent to vouch for its bytes
    outcome, read = desk.run()
    assert outcome.sources_unchanged
    assert read == {"ops/backups.txt"}  # read and hashed, found as the store holds it
    assert desk.versions().count(("ops/backups", 2)) == 1


def test_a_version_stored_between_runs_is_planned_the_ordinary_way(tmp_path: Path) -> None:
    desk = _settled_desk(tmp_path)
    memo = tmp_path / "elsewhere" / "memo.txt"
    memo.parent.mkdir()
    memo.write_text("The canteen opens at 8 am on weekdays.\n", encoding="utf-8")
    with desk.store.transaction() as session:  # `claims ingest` of a file outside the run
        ingest(session, [read_source_file(memo)])
    outcome, _ = desk.run()
    assert not outcome.sources_unchanged
    assert outcome.plan.versions == 1  # the store lacks its extraction: the run does it
    _unchanged(desk)


def test_rescan_reads_every_file_whatever_the_stamp_says(tmp_path: Path) -> None:
    desk = _settled_desk(tmp_path)
    outcome, read = desk.run(rescan=True)
    assert not outcome.sources_unchanged and read == set(NOTES)
    assert outcome.plan.versions == 0
    _unchanged(desk)


def test_claims_run_says_the_sources_are_unchanged_and_rescan_reads_them(
    cli_env: Path, tmp_path: Path
) -> None:
    desk = Desk(tmp_path)  # its notes and register; the command keeps its own store
    settle()
    command = ["run", str(desk.corpus), "--register", str(desk.register), "--json"]
    unchanged = []
    for extra in ([], [], ["--rescan"]):
        result = CliRunner().invoke(app, [*command, *extra])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout[result.stdout.index("{") :])  # after the progress
        unchanged.append(summary["sources_unchanged"])
    assert unchanged == [False, True, False]
