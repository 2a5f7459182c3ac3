"""The store is the one record of progress (issue 15.1): losing either the store or
Dagster's history leads to a correct run, on the bundled sample corpus with its register,
where the known-conflict probes run."""

from __future__ import annotations

import shutil
from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import select

from claims.tables import ClaimRow, ClaimStatusRow, EdgeRow, SourceVersionRow
from pipeline.partitions import shard_of
from pipeline.resources import ClaimStore, SourcesResource
from pipeline.runner import PipelineRun, run_pipeline
from tests.pipeline_support import table_rows
from tests.store_ledger import ledger

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
PROBES = dg.AssetCheckKey(dg.AssetKey("conflict_status"), "known_conflicts_answered_as_expected")


class Ledger:
    """The sample corpus, a SQLite store and a Dagster home, all under tmp_path."""

    def __init__(self, tmp_path: Path) -> None:
        self.corpus = tmp_path / "corpus"
        shutil.copytree(SAMPLES / "corpus", self.corpus)
        self.register = tmp_path / "register.yaml"
        shutil.copy(SAMPLES / "register.yaml", self.register)
        self.database = tmp_path / "claims.db"
        self.homes = tmp_path / "dagster"
        self.instance = self.new_history()

    @property
    def store(self) -> ClaimStore:
        return ClaimStore(database_url=f"sqlite:///{self.database}")

    @property
    def sources(self) -> SourcesResource:
        return SourcesResource(sources_dir=str(self.corpus), register_file=str(self.register))

    def new_history(self) -> dg.DagsterInstance:
        self.homes.mkdir(exist_ok=True)
        home = self.homes / f"home{len(list(self.homes.iterdir()))}"
        home.mkdir()
        self.instance = dg.DagsterInstance.local_temp(str(home))
        return self.instance

    def delete_store(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.database}{suffix}").unlink(missing_ok=True)

    def run(self) -> PipelineRun:
        outcome = run_pipeline(
            self.instance, store=self.store, sources=self.sources, log_level="ERROR"
        )
        assert not outcome.failures, outcome.failures
        assert not outcome.check_failures, outcome.check_failures
        return outcome

    def probes_passed(self) -> int:
        """How many known-conflict probes the latest check ran (it must have passed)."""
        record = self.instance.get_latest_asset_check_evaluation_record(PROBES)
        assert record is not None and record.evaluation is not None
        assert record.evaluation.passed, record.evaluation.metadata
        return int(record.evaluation.metadata["probes_run"].value)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple]]:
    """The ledger of one uninterrupted run on a fresh store and a fresh history."""
    world = Ledger(tmp_path_factory.mktemp("reference"))
    world.run()
    assert world.probes_passed() > 0
    return ledger(world.store)


def test_a_deleted_store_with_dagster_history_kept_is_filled_again(
    tmp_path: Path, reference: dict[str, list[tuple]]
) -> None:
    world = Ledger(tmp_path)
    first = world.run()
    versions = first.versions_processed
    assert versions == len(list(world.corpus.rglob("*.*")))

    world.delete_store()  # rm .claims/claims.db; Dagster still remembers every shard
    again = world.run()
    assert again.versions_processed == versions
    assert again.store_gap is not None and f"lacks {versions} source version(s)" in again.store_gap
    assert again.graph_metadata["mode"] == "full"
    assert world.probes_passed() > 0  # the known conflicts are found again
    assert ledger(world.store) == reference


def test_lost_dagster_history_with_the_store_kept_redoes_nothing(
    tmp_path: Path, reference: dict[str, list[tuple]]
) -> None:
    world = Ledger(tmp_path)
    world.run()
    store = world.store
    before = {
        table.__tablename__: table_rows(store, table)
        for table in (ClaimRow, EdgeRow, ClaimStatusRow)
    }

    instance = world.new_history()  # rm -r .claims/dagster
    again = world.run()
    # one run: the graph, and the shards Dagster forgot, which find nothing to do
    assert again.versions_processed == 0 and again.runs == 1
    assert again.graph_metadata["mode"] == "incremental"
    assert again.graph_metadata["claim_keys_evaluated"] == 0
    assert again.store_gap is None
    # nothing rewritten: not even a timestamp moved
    assert before == {
        table.__tablename__: table_rows(store, table)
        for table in (ClaimRow, EdgeRow, ClaimStatusRow)
    }
    assert ledger(store) == reference
    assert world.probes_passed() > 0
    # Dagster's shard partitions come back as a reflection of the store, counting its versions
    with store.transaction() as session:
        stored = session.scalars(select(SourceVersionRow.source_id)).all()
    shards = instance.get_materialized_partitions(dg.AssetKey("source_versions"))
    # (the run covers a range of shards: the idle ones between count none)
    assert shards >= {shard_of(source_id) for source_id in stored}
    counted = [
        record.asset_materialization.metadata["stored_versions"].value  # type: ignore[union-attr]
        for record in instance.fetch_materializations(
            dg.AssetKey("source_versions"), limit=100
        ).records
    ]
    assert sum(counted) == len(stored)
