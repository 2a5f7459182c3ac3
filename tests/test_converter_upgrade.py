"""A newer converter re-derives a stored version's text from its file: never a new version.

The older converter is simulated in-process: the HTML converter's version and output are
patched for the first run (as a release of it that rendered pages differently would have
been), then the real one runs.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claims.documents import converters
from claims.documents.converters import html as html_converter
from tests import document_writers as write

PAGE = [
    ("heading", 1, "Support terms"),
    ("paragraph", "The Pro plan costs $29 per month."),
]
HANDBOOK = [("heading", 1, "Handbook"), ("paragraph", "Annual leave is 25 days per year.")]


def _rows(db_path: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute(sql).fetchall()


def test_a_newer_converter_rederives_the_text_and_the_claims_of_the_same_version(
    cli_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "terms.html").write_text(write.html_page(PAGE))
    (corpus / "handbook.docx").write_bytes(write.docx_bytes(HANDBOOK))
    real_convert = html_converter.convert

    def older(data: bytes, path: Path) -> str:  # rendered a footer the new one leaves out
        return real_convert(data, path) + "\nThe response time is 4 hours.\n"

    monkeypatch.setattr(html_converter, "VERSION", "0")
    monkeypatch.setattr(html_converter, "convert", older)
    converters.current_converter.cache_clear()
    first = CliRunner().invoke(app, ["run", str(corpus)])
    assert first.exit_code == 0, first.output
    db = cli_env / "claims.db"
    quotes = [q for (q,) in _rows(db, "SELECT quote FROM claims")]
    assert any("4 hours" in str(q) for q in quotes)
    docx_claims = _rows(db, "SELECT id FROM claims WHERE source_id = 'handbook' ORDER BY id")

    monkeypatch.undo()
    converters.current_converter.cache_clear()
    # the handbook was made by "an older python-docx converter" whose text was the same
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE source_versions SET converter_version = '0' WHERE source_id = 'handbook'"
        )
    second = CliRunner().invoke(app, ["run", str(corpus)])
    assert second.exit_code == 0, second.output

    versions = _rows(db, "SELECT source_id, number, converter_version, text FROM source_versions")
    assert sorted((sid, number) for sid, number, _, _ in versions) == [
        ("handbook", 1),
        ("terms", 1),
    ]  # re-derived in place: no new version
    by_id = {sid: (version, text) for sid, _, version, text in versions}
    assert by_id["terms"] == (
        converters.current_converter("text/html")[1],
        real_convert((corpus / "terms.html").read_bytes(), corpus / "terms.html"),
    )
    assert by_id["handbook"][0] == converters.current_converter("application/docx")[1]
    claims = _rows(
        db,
        "SELECT c.quote, c.span_start, c.span_end, v.text FROM claims c "
        "JOIN source_versions v ON v.id = c.source_version_id WHERE v.source_id = 'terms'",
    )
    assert claims and all(text[start:end] == quote for quote, start, end, text in claims)
    assert not any("4 hours" in str(quote) for quote, *_ in claims)
    # the same text: the same claims, untouched
    assert (
        _rows(db, "SELECT id FROM claims WHERE source_id = 'handbook' ORDER BY id") == docx_claims
    )
    events = _rows(
        db, "SELECT action, entity_id FROM audit_events WHERE action = 'source.rederive'"
    )
    assert events == [("source.rederive", "terms")]

    third = CliRunner().invoke(app, ["run", str(corpus)])
    assert third.exit_code == 0 and "versions processed now\t0" in third.output
