"""Office documents in their own formats through `run_pipeline` into a SQLite store: the
classes the office corpus missed (issue 30) meet as one fact, and equal values written in
other units corroborate.

- a label-line bullet of an HTML page ("Remote working: ...") and the same entitlement in an
  email's prose ("you may work remotely ...");
- a service table whose rows are ranked levels ("Severity 1") and an email stating the
  figure for that level;
- a Word datasheet titled with a model code and its kind ("X-40 Rotary Compressor") and a
  catalogue's label lines under the bare code ("## X-40");
- the same value in other units (kW / W, L/min / m3/h, weeks / days) in two documents.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import dagster as dg
import pytest

from claims.store.migrate import upgrade
from pipeline.resources import ClaimStore, SourcesResource
from pipeline.runner import run_pipeline
from tests import document_writers as write

Edge = tuple[str, str, str, str]  # kind, left quote, right quote, reason


def _edges(tmp_path: Path, files: dict[str, bytes | str]) -> list[Edge]:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, data in files.items():
        path = corpus / name
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
    database = tmp_path / "claims.db"
    url = f"sqlite:///{database}"
    upgrade(url)
    outcome = run_pipeline(
        dg.DagsterInstance.ephemeral(),
        store=ClaimStore(database_url=url),
        sources=SourcesResource(sources_dir=str(corpus), register_file=""),
    )
    assert not outcome.failures
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT e.kind, l.quote, r.quote, e.reason FROM edges e "
            "JOIN claims l ON l.id = e.left_claim_id JOIN claims r ON r.id = e.right_claim_id "
            "WHERE e.retired_at IS NULL"
        ).fetchall()
    return [(kind, left, right, reason) for kind, left, right, reason in rows]


def _linking(edges: list[Edge], one: str, other: str) -> set[str]:
    """The kinds of the edges between a claim quoting ``one`` and one quoting ``other``."""
    return {
        kind
        for kind, left, right, _ in edges
        if (one in left and other in right) or (one in right and other in left)
    }


DISAGREE = {"conflicts", "ambiguous"}


def test_a_handbook_bullet_and_an_email_sentence_state_one_remote_working_entitlement(
    tmp_path: Path,
) -> None:
    page = [
        ("heading", 1, "Bristol studio: working arrangements"),
        ("paragraph", "What staff based at the Bristol studio can expect."),
        ("items", ["Remote working: 4 days per month", "Gym allowance: £30 per month"]),
    ]
    email = (
        "Subject: Your arrangements\n\nHi Sam,\n\nFrom March you may work remotely 6 days per "
        "month, as agreed with your manager.\n\nBest,\nIrene\n"
    )
    edges = _edges(tmp_path, {"studio.html": write.html_page(page), "email.txt": email})
    assert _linking(edges, "Remote working: 4 days per month", "work remotely 6 days") & DISAGREE


def test_a_ranked_level_row_of_a_service_table_meets_an_email_on_that_level_only(
    tmp_path: Path,
) -> None:
    page = [
        ("heading", 1, "Incident handling targets"),
        (
            "table",
            [
                ["Severity", "First reply", "Fix target"],
                ["Severity 1", "1 hour", "8 hours"],
                ["Severity 2", "4 hours", "3 days"],
            ],
        ),
    ]
    email = (
        "Subject: On-call changes\n\nAll,\n\nReminder from the on-call rota review: Severity 1 "
        "cases must receive a first reply within 30 minutes.\n\nThanks,\nOmar\n"
    )
    edges = _edges(tmp_path, {"targets.html": write.html_page(page), "oncall.txt": email})
    assert _linking(edges, "| Severity 1 | 1 hour |", "within 30 minutes") & DISAGREE
    # the level is a scope: the severity 2 row is another case, and "1" is no quantity
    assert not _linking(edges, "| Severity 2 | 4 hours |", "within 30 minutes") & DISAGREE


def test_a_datasheet_titled_with_its_kind_and_a_catalogue_heading_name_one_model(
    tmp_path: Path,
) -> None:
    sheet = [
        ("heading", 1, "X-40 Rotary Compressor: Technical Data"),
        ("paragraph", "The X-40 suits small workshops."),
        (
            "table",
            [
                ["Property", "Value"],
                ["Weight", "38 kg"],
                ["Rated output", "2.2 kW"],
                ["Maximum airflow", "90 L/min"],
            ],
        ),
    ]
    catalogue = (
        "# Compressor range\n\n## X-40\n\nWeight: 35 kg\nRated output: 2200 W\n"
        "Airflow: 5.4 m3/h\n\n## X-60\n\nWeight: 52 kg\n"
    )
    edges = _edges(tmp_path, {"x40.docx": write.docx_bytes(sheet), "range.md": catalogue})
    assert _linking(edges, "38 kg", "Weight: 35 kg") & DISAGREE
    assert not _linking(edges, "38 kg", "Weight: 52 kg")  # the X-60 is another model
    # equal values in other units corroborate (the maximum is the rating the catalogue states)
    assert _linking(edges, "2.2 kW", "Rated output: 2200 W") == {"corroborates"}
    assert _linking(edges, "90 L/min", "Airflow: 5.4 m3/h") == {"corroborates"}


@pytest.mark.parametrize("guide_format", ["docx", "md"])
def test_weeks_in_a_benefits_list_and_days_in_an_faq_answer_corroborate(
    tmp_path: Path, guide_format: str
) -> None:
    guide = [
        ("heading", 1, "Family benefits"),
        ("paragraph", "Full-time staff are entitled to:"),
        ("items", ["20 weeks of fully paid adoption leave", "A £500 childcare voucher"]),
    ]
    faq = [
        ("heading", 1, "People team FAQ"),
        ("heading", 2, "How long is adoption leave?"),
        ("paragraph", "Adopters can take 140 days of adoption leave on full pay."),
    ]
    guide_file = (
        {"benefits.docx": write.docx_bytes(guide)}
        if guide_format == "docx"
        else {"benefits.md": write.markdown(guide)}
    )
    edges = _edges(tmp_path, {**guide_file, "faq.html": write.html_page(faq)})
    linked = _linking(edges, "20 weeks of fully paid adoption leave", "140 days of adoption")
    assert linked == {"corroborates"}
