"""A report restated with one table figure changed: through the real pipeline (Dagster,
SQLite store, edge builder) the two copies conflict on that cell and nowhere else.

The corpus is run and its edges read as the dev-data evaluations do it
(``bench/dev_eval_common.py``: one way of running a corpus, not a second one here)."""

from __future__ import annotations

from pathlib import Path

from bench.dev_eval_common import linked_edges, run_corpus
from tests.store_template import upgrade

TABLES = Path(__file__).parent / "fixtures" / "tables"


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
    database = tmp_path / "claims.db"
    upgrade(f"sqlite:///{database}")  # a copy of a store migrated once
    run = run_corpus(corpus, None, database)  # a failed step raises
    edges = linked_edges(run.url)
    assert [e["kind"] for e in edges] == ["conflicts"], edges
    (edge,) = edges
    assert {edge["left_value"], edge["right_value"]} == {88.1e6, 95.1e6}
    assert str(edge["left_quote"]).startswith("| Accrued expenses")
    assert edge["left_source"] != edge["right_source"]
