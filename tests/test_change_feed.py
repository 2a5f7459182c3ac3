"""The store's change feed (issue 15.1): keys recorded with the write that changed them,
one cursor per consumer, acknowledged with the consumer's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from claims.register import apply_register, load_register
from claims.store import changes
from claims.store.engine import make_engine, transaction
from claims.tables import ClaimKeyChangeRow, ClaimRow, SourceVersionRow, VersionExtractionRow
from pipeline.runner import run_pipeline
from tests.pipeline_support import make_world
from tests.store_template import upgrade  # a copy of a store migrated once


@pytest.fixture
def engine(tmp_path: Path):  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'feed.db'}"
    upgrade(url)
    engine = make_engine(url)
    yield engine
    engine.dispose()


def test_a_consumer_without_a_cursor_does_everything_then_only_what_is_new(engine) -> None:  # type: ignore[no-untyped-def]
    with transaction(engine) as session:
        first = changes.pending(session, "edges", kinds={changes.CLAIMS})
        assert first.keys is None and first.full_because == "first run on this store"
        changes.record_changes(session, ["notice period", "dividend"], changes.CLAIMS, "g1")
        changes.acknowledge(session, "edges", changes.newest_change_id(session), {"x": 1})

    with transaction(engine) as session:
        changes.record_changes(session, ["checkout latency"], changes.CLAIMS, "g1")
        changes.record_changes(session, ["uptime"], changes.CLAIMS, "g2")  # another generation
        changes.record_changes(session, ["notice period"], changes.REGISTER)  # every generation
        changes.record_changes(session, ["refund window"], changes.EDGES, "g1")  # not consumed

    with transaction(engine) as session:
        todo = changes.pending(
            session, "edges", kinds={changes.CLAIMS, changes.REGISTER}, generation="g1"
        )
        assert todo.keys == {"checkout latency", "notice period"}
        assert todo.state == {"x": 1}
        every_generation = changes.pending(session, "edges", kinds={changes.CLAIMS})
        assert every_generation.keys == {"checkout latency", "uptime"}
        # another consumer has its own cursor
        assert changes.pending(session, "routing", kinds={changes.EDGES}).keys is None
        changes.acknowledge(session, "edges", todo.upto, {"x": 2})

    with transaction(engine) as session:
        assert changes.pending(session, "edges", kinds={changes.CLAIMS}).keys == set()
        changes.record_changes(session, [changes.ALL_KEYS], changes.CLAIMS, "g1")
        assert changes.pending(session, "edges", kinds={changes.CLAIMS}).keys is None


def test_an_acknowledgement_rolled_back_with_its_output_leaves_the_work_pending(engine) -> None:  # type: ignore[no-untyped-def]
    with transaction(engine) as session:
        changes.record_changes(session, ["notice period"], changes.CLAIMS, "g1")
        changes.acknowledge(session, "edges", 0)
    with pytest.raises(RuntimeError), transaction(engine) as session:
        todo = changes.pending(session, "edges", kinds={changes.CLAIMS})
        changes.acknowledge(session, "edges", todo.upto)
        raise RuntimeError("the consumer's output failed to write")
    with transaction(engine) as session:
        assert changes.pending(session, "edges", kinds={changes.CLAIMS}).keys == {"notice period"}


def test_the_pipeline_records_claims_and_acknowledges_every_consumer(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    with world.store.transaction() as session:
        # every version is marked extracted, those without claims too
        assert session.scalar(select(func.count()).select_from(VersionExtractionRow)) == 6
        assert set(changes.cursors(session)) == {"claim_edges", "review_queue", "conflict_status"}
        for consumer, kinds in (
            ("claim_edges", {changes.CLAIMS, changes.REGISTER}),
            ("review_queue", {changes.EDGES, changes.REGISTER}),
            ("conflict_status", {changes.EDGES, changes.REGISTER}),
        ):
            assert changes.pending(session, consumer, kinds=kinds).keys == set(), consumer

    # an edited note: only its keys are pending for the edge builder, and a run clears them
    note = world.corpus / "policies" / "notice-period.md"
    note.write_text(
        note.read_text(encoding="utf-8") + "\nThe notice period is 45 days for managers.\n",
        encoding="utf-8",
    )
    outcome = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert outcome.graph_metadata["mode"] == "incremental"
    assert any("notice" in key for key in outcome.graph_metadata["touched_claim_keys"])
    assert "dividend" not in " ".join(outcome.graph_metadata["touched_claim_keys"])
    # what all three consumers acknowledged is pruned, up to the newest acknowledged change
    with world.store.transaction() as session:
        oldest = session.scalar(select(func.min(ClaimKeyChangeRow.id)))
        assert oldest == min(changes.cursors(session).values()) > 1


def test_a_register_change_records_its_sources_keys_in_its_own_transaction(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    text = world.register.read_text(encoding="utf-8")
    world.register.write_text(
        text.replace(
            "  finance/dividend-2024:\n    title: Dividend announcement Q1 2024\n"
            "    tier: official",
            "  finance/dividend-2024:\n    title: Dividend announcement Q1 2024\n"
            "    tier: reference",
        ),
        encoding="utf-8",
    )
    register = load_register(world.register)

    def register_changes() -> set[str]:
        with world.store.transaction() as session:
            return set(
                session.scalars(
                    select(ClaimKeyChangeRow.claim_key).where(
                        ClaimKeyChangeRow.kind == changes.REGISTER
                    )
                )
            )

    before = register_changes()
    with pytest.raises(RuntimeError), world.store.transaction() as session:
        assert apply_register(session, register) == ["finance/dividend-2024"]
        raise RuntimeError("rolled back")
    assert register_changes() == before  # nothing recorded for a change that did not happen

    with world.store.transaction() as session:
        apply_register(session, register)
        dividend_keys = set(
            session.scalars(
                select(ClaimRow.claim_key).where(ClaimRow.source_id == "finance/dividend-2024")
            )
        )
    assert dividend_keys and dividend_keys <= register_changes() - before
    # the next run's edge evaluation takes exactly those (and nothing about notice periods)
    outcome = run_pipeline(
        world.instance, store=world.store, sources=world.sources, log_level="ERROR"
    )
    assert outcome.graph_metadata["mode"] == "incremental"
    assert dividend_keys <= set(outcome.graph_metadata["touched_claim_keys"])


def test_a_versions_changes_name_its_keys_and_those_of_the_versions_it_replaces(
    tmp_path: Path,
) -> None:
    world = make_world(tmp_path)
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    note = world.corpus / "policies" / "notice-period.md"
    note.write_text(note.read_text(encoding="utf-8").replace("notice", "Notice"), "utf-8")
    run_pipeline(world.instance, store=world.store, sources=world.sources, log_level="ERROR")
    with pytest.raises(RuntimeError), world.store.transaction() as session:
        versions = session.execute(
            select(SourceVersionRow.id, SourceVersionRow.number)
            .where(SourceVersionRow.source_id == "policies/notice-period")
            .order_by(SourceVersionRow.number)
        ).all()
        assert [number for _, number in versions] == [1, 2]
        (old, _), (new, _) = versions
        generation = session.scalar(select(ClaimRow.generation).limit(1))
        assert generation is not None
        after = changes.newest_change_id(session)
        changes.record_version_changes(session, [new], generation)
        recorded = set(
            session.scalars(select(ClaimKeyChangeRow.claim_key).where(ClaimKeyChangeRow.id > after))
        )
        old_keys = set(
            session.scalars(select(ClaimRow.claim_key).where(ClaimRow.source_version_id == old))
        )
        new_keys = set(
            session.scalars(select(ClaimRow.claim_key).where(ClaimRow.source_version_id == new))
        )
        assert old_keys and old_keys | new_keys <= recorded
        raise RuntimeError("leave the store as it was")
