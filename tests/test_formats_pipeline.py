"""Word, PDF and HTML files through `claims run`: stored as converted text with their
converter, unreadable ones named per file, types not read counted and named."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from claimledger.cli import app
from tests import document_writers as write

HANDBOOK = [
    ("heading", 1, "Staff handbook"),
    ("heading", 2, "Leave"),
    ("paragraph", "Every employee gets 25 days of annual leave per year."),
    ("items", ["Sick leave: 10 days per year", "Parental leave: 16 weeks"]),
]
PRICES = [
    ("heading", 1, "Price list"),
    ("paragraph", "The Pro plan costs $29 per month."),
    ("table", [["Plan", "Monthly price"], ["Basic", "$9"], ["Pro", "$29"]]),
]


def _versions(data_dir: Path) -> dict[str, tuple[str, str, str, str]]:
    with sqlite3.connect(data_dir / "claims.db") as db:
        rows = db.execute(
            "SELECT source_id, media_type, converter, converter_version, text FROM source_versions"
        ).fetchall()
    return {row[0]: row[1:] for row in rows}


def test_documents_in_every_format_are_stored_as_their_converted_text(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "handbook.docx").write_bytes(write.docx_bytes(HANDBOOK))
    (corpus / "prices.html").write_text(write.html_page(PRICES))
    (corpus / "sheet.pdf").write_bytes(write.pdf_bytes(HANDBOOK))
    (corpus / "locked.pdf").write_bytes(write.pdf_bytes(PRICES, encrypt_with="secret"))
    (corpus / "figures.xlsx").write_bytes(b"PK\x03\x04 a spreadsheet")
    (corpus / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n")

    result = CliRunner().invoke(app, ["run", str(corpus)])

    # the encrypted PDF fails its own document, named with what to do; the rest goes on
    assert result.exit_code == 2, result.output
    assert "locked.pdf" in result.output and "the PDF is encrypted" in result.output
    assert "sources\t3" in result.output
    assert "files not read (type)\t2 (.png 1, .xlsx 1)" in result.output
    assert f"not read {corpus / 'figures.xlsx'}" in result.output
    assert "quotes_match_source_text" not in result.output  # quotes match converted text
    versions = _versions(cli_env)
    media, converter, converter_version, text = versions["handbook"]
    assert (media, converter) == ("application/docx", "docx")
    assert "python-docx" in converter_version
    assert text.startswith("# Staff handbook\n\n## Leave\n\n")
    assert "- Sick leave: 10 days per year\n- Parental leave: 16 weeks" in text
    assert versions["prices"][1] == "html"
    assert "| Pro | $29 |" in versions["prices"][3]
    assert versions["sheet"][1] == "pdf"
    listing = CliRunner().invoke(app, ["sources", "list", "--json"])
    shown = {s["id"]: s["versions"][0] for s in json.loads(listing.output)}
    assert (shown["handbook"]["converter"], shown["prices"]["converter"]) == ("docx", "html")
    assert shown["sheet"]["converter_version"] == versions["sheet"][2]
    with sqlite3.connect(cli_env / "claims.db") as db:
        claims = db.execute(
            "SELECT v.source_id, count(*) FROM claims c "
            "JOIN source_versions v ON v.id = c.source_version_id GROUP BY v.source_id"
        ).fetchall()
    assert {source for source, count in claims if count} >= {"handbook", "prices", "sheet"}


def test_a_folder_of_only_unread_types_fails_and_a_stray_one_does_not(
    cli_env: Path, tmp_path: Path
) -> None:
    only = tmp_path / "spreadsheets"
    only.mkdir()
    (only / "budget.xlsx").write_bytes(b"PK\x03\x04 a spreadsheet")
    (only / "deck.pptx").write_bytes(b"PK\x03\x04 slides")
    result = CliRunner().invoke(app, ["run", str(only)])
    assert result.exit_code == 2, result.output
    assert "none of the 2 file(s) found is of a type claims reads" in result.output

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "terms.html").write_text("<h1>Terms</h1><p>Notice period: 30 days.</p>")
    (mixed / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    result = CliRunner().invoke(app, ["run", str(mixed)])
    assert result.exit_code == 0, result.output
    assert "files not read (type)\t1 (.png 1)" in result.output


def test_documents_have_their_own_file_limit_and_their_text_the_text_limit(
    tmp_path: Path, monkeypatch
) -> None:
    from claims.ingest import scan_sources
    from claims.settings import get_settings

    folder = tmp_path / "docs"
    folder.mkdir()
    pdf = write.pdf_bytes(HANDBOOK)
    (folder / "handbook.pdf").write_bytes(pdf)
    (folder / "notes.txt").write_text("The notice period is 30 days.\n" * 40)
    monkeypatch.setenv("CLAIMS_MAX_DOCUMENT_BYTES", str(len(pdf) + 10))
    get_settings.cache_clear()
    try:
        # the PDF's bytes are over the text limit, its text is not: read
        scan = scan_sources([folder], max_source_bytes=len(pdf) // 2)
        assert [f.source_id for f in scan.files] == ["handbook"]
        assert "notes.txt" in str(scan.rejected[0]) and "CLAIMS_MAX_SOURCE_BYTES" in str(
            scan.rejected[0]
        )
        # its text over the text limit: rejected, saying which limit
        scan = scan_sources([folder / "handbook.pdf"], max_source_bytes=40)
        assert "the file's text is" in str(scan.rejected[0])
        assert "(CLAIMS_MAX_SOURCE_BYTES); split the document" in str(scan.rejected[0])
        monkeypatch.setenv("CLAIMS_MAX_DOCUMENT_BYTES", str(len(pdf) - 1))
        get_settings.cache_clear()
        scan = scan_sources([folder / "handbook.pdf"])
        assert "CLAIMS_MAX_DOCUMENT_BYTES" in str(scan.rejected[0])
    finally:
        get_settings.cache_clear()
