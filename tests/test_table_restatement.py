"""A report restated with one table figure changed: through the real pipeline (Dagster,
SQLite store, edge builder) the two copies conflict on that cell and nowhere else."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from sqlalchemy import select
from sqlalchemy.orm import aliased

from claims.store.engine import make_engine
from claims.tables import ClaimRow, EdgeRow
from pipeline.resources import ClaimStore, ExtractorResource, SourcesResource
from pipeline.runner import run_pipeline
from tests.store_template import upgrade

TABLES = Path(__file__).parent / "fixtures" / "tables"


def _live_edges(url: str) -> list[dict[str, object]]:
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(
                    EdgeRow.kind,
                    left.source_id.label("left_source"),
                    right.source_id.label("right_source"),
                    left.quote.label("left_quote"),
                    right.quote.label("right_quote"),
                    left.value_number.label("left_value"),
                    right.value_number.label("right_value"),
                )
                .join(left, left.id == EdgeRow.left_claim_id)
                .join(right, right.id == EdgeRow.right_claim_id)
                .where(EdgeRow.retired_at.is_(None))
                .where(EdgeRow.kind.in_(("conflicts", "ambiguous")))
            ).all()
    finally:
        engine.dispose()
    return [dict(r._mapping) for r in rows]


def test_a_restated_table_figure_is_the_one_conflict_between_two_copies(tmp_path: Path) -> None:
    report = (TABLES / "annual_results.md").read_text(encoding="utf-8")
    restated = report.replace(
        "| Accrued expenses              | 88.1 ", "| Accrued expenses              | 95.1 "
    )
    assert restated != report
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "results.md").write_text(report, encoding="utf-8")
    (corpus / "results-restated.md").write_text(restated, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    outcome = run_pipeline(
        dg.DagsterInstance.ephemeral(),
        store=ClaimStore(database_url=url),
        sources=SourcesResource(sources_dir=str(corpus), register_file=""),
        extractor=ExtractorResource(),
        log_level="CRITICAL",
    )
    assert outcome.failures == []
    edges = _live_edges(url)
    assert [e["kind"] for e in edges] == ["conflicts"], edges
    (edge,) = edges
    assert {edge["left_value"], edge["right_value"]} == {88.1e6, 95.1e6}
    assert str(edge["left_quote"]).startswith("| Accrued expenses")
    assert edge["left_source"] != edge["right_source"]
