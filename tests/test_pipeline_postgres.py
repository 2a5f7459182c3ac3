"""Beyond one machine: the multiprocess executor with PostgreSQL for both the claim store
and Dagster's own storage (two databases on the test server)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from claims.tables import ClaimRow, EdgeRow, SourceVersionRow
from pipeline import corpus
from pipeline.definitions import resolved_claims_pipeline
from pipeline.partitions import SHARDS, all_shards_tags
from pipeline.settings import get_pipeline_settings
from tests.conftest import _postgres_admin_url, create_postgres_database, drop_postgres_database
from tests.pipeline_support import make_world

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def dagster_postgres_url() -> Iterator[str]:
    """A second database on the test server, for Dagster's run/event/schedule storage."""
    admin = _postgres_admin_url()
    url = create_postgres_database(admin)
    try:
        yield url
    finally:
        drop_postgres_database(admin, url)


@pytest.mark.postgres
@pytest.mark.slow
def test_multiprocess_run_on_postgres_for_store_and_dagster(
    tmp_path: Path,
    postgres_url: str,
    dagster_postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = make_world(tmp_path, postgres_url)
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(ROOT / "deploy" / "dagster.yaml", home / "dagster.yaml")  # the documented one
    dagster_url = make_url(dagster_postgres_url).set(drivername="postgresql+psycopg2")
    monkeypatch.setenv("DAGSTER_POSTGRES_URL", dagster_url.render_as_string(hide_password=False))
    # The child processes load the code location from these, as a deployment would.
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv("CLAIMS_EXECUTOR", "multiprocess")
    monkeypatch.setenv("CLAIMS_DATABASE_URL", postgres_url)
    monkeypatch.setenv("CLAIMS_SOURCES_DIR", str(world.corpus))
    monkeypatch.setenv("CLAIMS_REGISTER_FILE", str(world.register))
    get_pipeline_settings.cache_clear()
    keys = list(corpus.scan([world.corpus], world.register).files)
    try:
        with dg.DagsterInstance.from_config(str(home)) as instance:
            assert "Postgres" in type(instance.run_storage).__name__
            # Three assets, each step in its own process (checks left out to keep it quick):
            # claims is two steps, its extraction and the record of it.
            job = dg.reconstructable(resolved_claims_pipeline).get_subset(
                asset_selection={
                    dg.AssetKey("source_versions"),
                    dg.AssetKey("claims"),
                    dg.AssetKey("claim_edges"),
                },
                asset_check_selection=set(),
            )
            result = dg.execute_job(
                job,
                instance=instance,
                run_config={"execution": {"config": {"max_concurrent": 2}}},
                tags=all_shards_tags(),
            )
            assert result.success
            run = instance.get_run_by_id(result.run_id)
            assert run is not None
            step_pids = {
                event.dagster_event.pid
                for event in instance.all_logs(result.run_id)
                if event.dagster_event is not None and event.dagster_event.is_step_start
            }
            assert len(step_pids) == 4  # each step really ran in a process of its own
            materialized = instance.get_materialized_partitions(dg.AssetKey("claims"))
            assert materialized == set(SHARDS)  # one run over every shard
    finally:
        get_pipeline_settings.cache_clear()
    with world.store.transaction() as session:
        assert session.scalar(select(func.count()).select_from(SourceVersionRow)) == len(keys)
        assert session.scalar(select(func.count()).select_from(ClaimRow)) > 0
        assert session.scalar(select(func.count()).select_from(EdgeRow)) > 0
