"""Taught synonyms through the pipeline (real Dagster runs on a real SQLite store): the
claim writer keys new versions as taught, the edge refresh of the next runs agrees with
what the teaching applied at once, and a withdrawal leaves the store as a full recompute
of the extracted keys would."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from claims.edge_refresh import recompute_edges
from claims.store.generations import GenerationRepository
from claims.tables import ClaimRow, EdgeRow, ReviewItemRow
from review.synonyms import teach, withdraw
from tests.pipeline_support import PipelineWorld, make_world, run_quietly

SHOP = "# Z-70 blower\n\nThe Z-70 blower weighs 11 kg.\n"
SUPPLIER = "# Supplier data\n\nThe Z-70 blower has a heft of 14 kg.\n"
SUPPLIER_REVISED = "# Supplier data\n\nThe Z-70 blower has a heft of 15 kg.\n"
REGISTER = """
  equipment/blower-shop:
    title: Shop sheet
    tier: official
  equipment/blower-supplier:
    title: Supplier sheet
    tier: official
"""


def _world(tmp_path: Path) -> PipelineWorld:
    world = make_world(tmp_path)
    (world.corpus / "equipment").mkdir()
    (world.corpus / "equipment" / "blower-shop.md").write_text(SHOP, encoding="utf-8")
    (world.corpus / "equipment" / "blower-supplier.md").write_text(SUPPLIER, encoding="utf-8")
    with world.register.open("a", encoding="utf-8") as register:
        register.write(REGISTER)
    return world


def _live_edges(world: PipelineWorld) -> list[tuple[str, str, str, str]]:
    with world.store.transaction() as session:
        rows = session.execute(
            select(
                EdgeRow.kind, EdgeRow.claim_key, EdgeRow.left_claim_id, EdgeRow.right_claim_id
            ).where(EdgeRow.retired_at.is_(None))
        )
        return sorted(tuple(r) for r in rows)  # type: ignore[misc]


def _blower_keys(world: PipelineWorld) -> dict[str, set[str]]:
    with world.store.transaction() as session:
        rows = session.execute(
            select(ClaimRow.source_id, ClaimRow.claim_key).where(
                ClaimRow.source_id.like("equipment/%")
            )
        )
        out: dict[str, set[str]] = {}
        for source, key in rows:
            out.setdefault(source, set()).add(key)
        return out


def _full_recompute_changes(world: PipelineWorld) -> tuple[int, int, int]:
    with world.store.transaction() as session:
        generation = GenerationRepository(session).active()
        assert generation is not None
        report = recompute_edges(session, generation.id, None)
        return report.inserted, report.retired, report.revived


def test_runs_after_a_teaching_keep_it_and_key_new_versions_by_it(tmp_path: Path) -> None:
    world = _world(tmp_path)
    run_quietly(world)
    assert _blower_keys(world)["equipment/blower-supplier"] == {"z-70 blower heft"}
    with world.store.transaction() as session:
        synonym, impact = teach(
            session, "heft", "weight", relation="same", reason="supplier word", actor="alice"
        )
    assert [c.kind for c in impact.items] == ["opened"]
    taught_edges = _live_edges(world)
    assert any(e[:2] == ("conflicts", "z-70 blower weight") for e in taught_edges)

    # the next run's incremental edge refresh (it sees the re-keyed claims in the change
    # feed) and a full recompute agree with what the teaching applied at once
    run_quietly(world)
    assert _live_edges(world) == taught_edges
    assert _full_recompute_changes(world) == (0, 0, 0)

    # a new version of the supplier's sheet is written under the taught key by the pipeline
    (world.corpus / "equipment" / "blower-supplier.md").write_text(
        SUPPLIER_REVISED, encoding="utf-8"
    )
    run_quietly(world)
    assert _blower_keys(world)["equipment/blower-supplier"] == {"z-70 blower weight"}
    with world.store.transaction() as session:
        items = {r.claim_key: r.state for r in session.scalars(select(ReviewItemRow))}
    assert items.get("z-70 blower weight") == "open"

    with world.store.transaction() as session:
        withdraw(session, synonym.id, reason="gross weight", actor="bob")
    assert _blower_keys(world)["equipment/blower-supplier"] == {"z-70 blower heft"}
    withdrawn_edges = _live_edges(world)
    assert not any(e[1] == "z-70 blower weight" and e[0] == "conflicts" for e in withdrawn_edges)
    run_quietly(world)
    assert _live_edges(world) == withdrawn_edges
    assert _full_recompute_changes(world) == (0, 0, 0)
    with world.store.transaction() as session:
        items = {r.claim_key: r.state for r in session.scalars(select(ReviewItemRow))}
    assert items.get("z-70 blower weight") == "dismissed"
