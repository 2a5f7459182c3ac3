"""What a run reads in proportion to the store (issue 33): a run with nothing new evaluates
no edge and recomputes no queue figure, and the live edge counts ``claim_edges`` keeps in
its cursor (instead of counting every edge per run) stay those of the table."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from sqlalchemy import func, select

from claims.run_summary import edge_counts
from claims.store import changes
from claims.tables import EdgeRow
from pipeline.assets.edges import CONSUMER, LIVE_EDGES
from pipeline.runner import run_pipeline
from review.synonyms import teach
from tests.pipeline_support import make_world, run_quietly


def _review_metadata(world) -> dict[str, object]:  # type: ignore[no-untyped-def]
    event = world.instance.get_latest_materialization_event(dg.AssetKey("review_queue"))
    return {k: v.value for k, v in event.asset_materialization.metadata.items()}


def _live_in_table(world) -> dict[str, int]:  # type: ignore[no-untyped-def]
    with world.store.transaction() as session:
        generation = session.scalar(select(EdgeRow.generation).limit(1))
        return edge_counts(session, generation)


def test_nothing_new_reads_no_edge_and_the_kept_counts_follow_every_edit(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    first = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert first.graph_metadata["mode"] == "full"
    table = _live_in_table(world)
    assert table.get("conflicts") and first.graph_metadata["edges"] == sum(table.values())
    assert _review_metadata(world)["metrics"] == "computed"

    again = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert again.graph_metadata["mode"] == "incremental"
    assert again.graph_metadata["claim_keys_evaluated"] == 0
    assert again.graph_metadata["claims_compared"] == 0  # no claim was even read
    assert again.graph_metadata["edges"] == sum(table.values())
    assert _review_metadata(world)["metrics"] == "unchanged since the last routing"

    # an edit that ends a conflict and another that adds one: the kept counts move with them
    note = world.corpus / "policies" / "notice-period.md"
    note.write_text(
        note.read_text(encoding="utf-8") + "\nThe notice period is 45 days for managers.\n",
        encoding="utf-8",
    )
    edited = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert edited.graph_metadata["mode"] == "incremental"
    assert edited.graph_metadata["claim_keys_evaluated"] > 0
    after = _live_in_table(world)
    assert after != table  # the edit changed the graph
    assert edited.graph_metadata["edges"] == sum(after.values())
    with world.store.transaction() as session:
        state = session.execute(
            select(changes.ConsumerCursorRow.state).where(
                changes.ConsumerCursorRow.consumer == CONSUMER
            )
        ).scalar_one()
        assert state[LIVE_EDGES] == after
        live = session.scalar(
            select(func.count()).select_from(EdgeRow).where(EdgeRow.retired_at.is_(None))
        )
    assert sum(state[LIVE_EDGES].values()) == live


def test_the_kept_counts_are_counted_again_after_another_writer_changed_edges(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    (world.corpus / "plant").mkdir()
    (world.corpus / "plant" / "compressor.md").write_text(
        "# P-4 compressor\n\nThe P-4 compressor weighs 31 kg.\n", encoding="utf-8"
    )
    (world.corpus / "plant" / "vendor.md").write_text(
        "# Vendor sheet\n\nThe P-4 compressor has a heft of 35 kg.\n", encoding="utf-8"
    )
    run_quietly(world)
    before = _live_in_table(world)
    # a reviewer teaches that heft is weight: the teaching re-evaluates the merged key's
    # edges itself, outside claim_edges, which must not add its own change to a stale count
    with world.store.transaction() as session:
        teach(session, "heft", "weight", relation="same", reason="vendor word", actor="ana")
    taught = _live_in_table(world)
    assert taught != before
    outcome = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert outcome.graph_metadata["edges"] == sum(_live_in_table(world).values())
    assert _live_in_table(world) == taught
