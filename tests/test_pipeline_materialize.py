"""Whole-graph materialization, idempotence and failure isolation, in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import select

from claims.tables import ClaimRow, SourceVersionRow
from pipeline.resources import ExtractorResource
from pipeline.runner import run_pipeline
from tests.pipeline_support import FIXTURES, generation_statuses, make_world, table_rows


def _run(world, extractor: str = ""):  # type: ignore[no-untyped-def]
    return run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=ExtractorResource(extractor=extractor),
        batch_size=100,
    )


def test_whole_graph_materializes_the_test_corpus(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    outcome = _run(world)
    assert outcome.failures == []
    assert outcome.check_failures == []
    assert len(outcome.plan.add_keys) == 6
    assert outcome.runs == 3  # register, one batch of six versions, graph
    versions = table_rows(world.store, SourceVersionRow, skip=("ingested_at", "text"))
    assert len(versions) == 6
    with world.store.transaction() as session:
        keys = set(session.scalars(select(ClaimRow.claim_key)))
    assert len(keys) >= 3
    generation, _ = ExtractorResource().generation()
    assert generation_statuses(world.store)[generation] == "active"
    assert outcome.graph_metadata["mode"] == "full"


def test_rerun_with_nothing_new_requests_nothing_and_changes_no_row(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    _run(world)
    before = [table_rows(world.store, ClaimRow), table_rows(world.store, SourceVersionRow)]
    again = _run(world)
    assert again.plan.batches == []
    assert again.graph_metadata["mode"] == "incremental"
    assert again.graph_metadata["claim_keys_evaluated"] == 0
    assert [table_rows(world.store, ClaimRow), table_rows(world.store, SourceVersionRow)] == before
