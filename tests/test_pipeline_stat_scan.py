"""``claims run`` reads only the source files that changed (issue 15, the incremental run):
real runs on a real Dagster instance and SQLite store, the files each run opens observed
through Python's audit hooks (tests/opened_files.py)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from sqlalchemy import func, select

from claims.tables import SourceVersionRow
from pipeline.resources import ClaimStore, SourcesResource
from pipeline.runner import PipelineRun, run_pipeline
from tests.opened_files import opened, opened_under
from tests.store_template import upgrade  # a copy of a store migrated once
from tests.test_source_stat_scan import settle

NOTES = {
    "hr/leave.txt": "Full-time staff get 25 days of paid leave a year.\n",
    "hr/notice.txt": "The notice period for new starters is one month.\n",
    "ops/uptime.md": "The checkout service must be available 99.9% of the time.\n",
    "ops/backups.txt": "Backups of the orders database are kept for 30 days.\n",
}


class Desk:
    """A sources folder, a register, a store and a Dagster home under tmp_path."""

    def __init__(self, tmp_path: Path, register: str = "tiers: [official]\nsources: {}\n"):
        self.tmp = tmp_path
        self.corpus = tmp_path / "corpus"
        for name, text in NOTES.items():
            path = self.corpus / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.register = tmp_path / "register.yaml"
        self.register.write_text(register, encoding="utf-8")
        self.database = tmp_path / "claims.db"
        self.homes = 0
        self.new_history()

    @property
    def store(self) -> ClaimStore:
        return ClaimStore(database_url=f"sqlite:///{self.database}")

    def new_history(self) -> None:
        self.homes += 1
        home = self.tmp / f"dagster{self.homes}"
        home.mkdir()
        self.instance = dg.DagsterInstance.local_temp(str(home))

    def run(self, *, full: bool = False, rescan: bool = False) -> tuple[PipelineRun, set[str]]:
        """One ``claims run`` (``--full`` with ``full``, ``--rescan`` with ``rescan``), and
        the source files it opened."""
        upgrade(f"sqlite:///{self.database}")
        sources = SourcesResource(sources_dir=str(self.corpus), register_file=str(self.register))
        with opened() as paths:
            outcome = run_pipeline(
                self.instance,
                store=self.store,
                sources=sources,
                full_graph=full,
                log_level="ERROR",
                rescan=rescan,
            )
        assert not outcome.failures, outcome.failures
        return outcome, opened_under(paths, self.corpus)

    def versions(self) -> list[tuple[str, int]]:
        with self.store.transaction() as session:
            rows = session.execute(
                select(SourceVersionRow.source_id, SourceVersionRow.number).order_by(
                    SourceVersionRow.source_id, SourceVersionRow.number
                )
            )
            return [(source_id, number) for source_id, number in rows]

    def count_versions(self) -> int:
        with self.store.transaction() as session:
            return session.scalar(select(func.count()).select_from(SourceVersionRow)) or 0


def test_a_run_with_nothing_changed_opens_no_source_file_and_an_edit_opens_one(
    tmp_path: Path,
) -> None:
    desk = Desk(tmp_path)
    settle()  # the first run's records of these files are then trusted
    first, read = desk.run()
    assert read == set(NOTES)
    assert first.plan.versions == len(NOTES)

    same, read = desk.run()
    assert read == set()
    assert same.plan.versions == 0 and same.plan.batches == []

    edited = desk.corpus / "ops/backups.txt"
    edited.write_text(NOTES["ops/backups.txt"].replace("30", "45"), encoding="utf-8")
    after_edit, read = desk.run()
    assert read == {"ops/backups.txt"}  # scanned once, pinned for the run's assets
    assert after_edit.plan.versions == 1
    assert ("ops/backups", 2) in desk.versions()

    # --full reads and hashes every file again; nothing new is stored
    full, read = desk.run(full=True)
    assert read == set(NOTES)
    assert full.plan.versions == 0
    assert desk.count_versions() == len(NOTES) + 1


def test_store_gone_reads_everything_and_history_gone_reads_nothing(tmp_path: Path) -> None:
    desk = Desk(tmp_path)
    settle()
    desk.run()
    stored = desk.versions()

    # Dagster's history lost, the store (and its file records) kept: nothing read or stored,
    # the runs only reflect the store's shards in the new history
    desk.new_history()
    outcome, read = desk.run()
    assert read == set()
    assert outcome.plan.batches and all(b.reason == "reflect" for b in outcome.plan.batches)
    assert desk.versions() == stored

    # the store deleted, Dagster's history kept: no records, every file read and stored
    for suffix in ("", "-wal", "-shm"):
        Path(f"{desk.database}{suffix}").unlink(missing_ok=True)
    outcome, read = desk.run()
    assert read == set(NOTES)
    assert outcome.store_gap is not None
    assert desk.versions() == stored


def test_an_unread_file_the_register_maps_to_a_new_id_is_read_and_stored(
    tmp_path: Path,
) -> None:
    desk = Desk(tmp_path)
    settle()
    desk.run()
    assert desk.run()[1] == set()

    desk.register.write_text(
        "tiers: [official]\n"
        "sources:\n"
        "  hr/annual-leave-policy:\n"
        "    title: Annual leave policy\n"
        "    tier: official\n"
        "    path: corpus/hr/leave.txt\n",
        encoding="utf-8",
    )
    outcome, read = desk.run()
    # the scan took it from its record under its new id; the store lacked that version,
    # so source_versions read its bytes then
    assert read == {"hr/leave.txt"}
    assert outcome.plan.versions == 1
    assert ("hr/annual-leave-policy", 1) in desk.versions()
