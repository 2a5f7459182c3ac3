"""Helpers for the pipeline tests: a copy of the test corpus, resources, the store's rows."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dagster as dg
from sqlalchemy import select

from claims.tables import ClaimRow, EdgeRow, ExtractorGenerationRow, SourceVersionRow
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from tests.store_template import upgrade

if TYPE_CHECKING:
    from pipeline.runner import PipelineRun

FIXTURES = Path(__file__).parent / "fixtures" / "pipeline"


@dataclass
class PipelineWorld:
    """A writable corpus copy, a migrated store and an instance, all under tmp_path."""

    corpus: Path
    register: Path
    database_url: str
    instance: dg.DagsterInstance

    @property
    def store(self) -> ClaimStore:
        return ClaimStore(database_url=self.database_url)

    @property
    def sources(self) -> SourcesResource:
        return SourcesResource(sources_dir=str(self.corpus), register_file=str(self.register))

    def resources(self, extractor: str = "") -> dict[str, Any]:
        return {
            "store": self.store,
            "sources": self.sources,
            "extractor": ExtractorResource(extractor=extractor),
        }


def make_world(
    tmp_path: Path, database_url: str | None = None, *, persistent: bool = False
) -> PipelineWorld:
    """``persistent``: a Dagster instance on disk (schedules need one), else in memory."""
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "corpus", corpus)
    register = tmp_path / "register.yaml"
    shutil.copy(FIXTURES / "register.yaml", register)
    url = database_url or f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    if persistent:
        home = tmp_path / "dagster_home"
        home.mkdir()
        instance = dg.DagsterInstance.local_temp(str(home))
    else:
        instance = dg.DagsterInstance.ephemeral()
    return PipelineWorld(corpus, register, url, instance)


def run_quietly(world: PipelineWorld) -> PipelineRun:
    """A whole pipeline run over the world's corpus with the built-in extractor, its logs
    kept down; fails the test if any step failed. Returns the run's outcome."""
    from pipeline.runner import run_pipeline

    outcome = run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(),
        log_level="CRITICAL",
    )
    assert outcome.failures == []
    return outcome


def table_rows(store: ClaimStore, table: type, *, skip: tuple[str, ...] = ()) -> list[tuple]:
    """Every row of ``table`` as a sorted list of tuples (columns in ``skip`` left out)."""
    columns = [c for c in table.__table__.columns if c.name not in skip]  # type: ignore[attr-defined]
    with store.transaction() as session:
        rows = session.execute(select(*columns)).all()
    return sorted(tuple(row) for row in rows)


def generation_statuses(store: ClaimStore) -> dict[str, str]:
    with store.transaction() as session:
        return {row.id: row.status for row in session.scalars(select(ExtractorGenerationRow))}


def claims_of_generation(store: ClaimStore, generation: str) -> int:
    with store.transaction() as session:
        return len(
            session.scalars(select(ClaimRow.id).where(ClaimRow.generation == generation)).all()
        )


ALL_TABLES = (SourceVersionRow, ClaimRow, EdgeRow)
