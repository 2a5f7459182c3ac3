"""Blocking checks and single documents (issue 14, point 19).

A file that starts with a UTF-8 byte order mark used to fail the blocking quote check (its
text no longer hashed to its checksum) and stop the whole run. And one document whose claims
fail a blocking check used to stop the edges of every other document in the run: now the
check names that document, its partition fails, and the rest proceeds.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from sqlalchemy import create_engine, func, select
from typer.testing import CliRunner

from claimledger.cli import app
from claims.extraction import extract as real_extract
from claims.ids import stable_id
from claims.models import Claim, Span
from claims.tables import ClaimRow, EdgeRow, SourceVersionRow
from pipeline.resources import ExtractorResource
from pipeline.runner import run_pipeline
from tests.pipeline_support import make_world

MISQUOTING = "gen_test_misquotes_lisbon"


def misquote_lisbon(text: str, **kwargs: object) -> list[Claim]:
    """The real extractor, except that in a note about Lisbon every span is one character
    off its quote: the claims of that one document fail the quote check."""
    claims = [
        claim.model_copy(
            update={"id": stable_id("cl", claim.id, MISQUOTING), "generation": MISQUOTING}
        )
        for claim in real_extract(text, **kwargs)
    ]
    if "Lisbon" not in text:
        return claims
    return [
        c.model_copy(update={"span": Span(start=c.span.start + 1, end=c.span.end + 1)})
        for c in claims
    ]


misquote_lisbon.generation = (MISQUOTING, "test: misquotes the Lisbon note")  # type: ignore[attr-defined]


def _count(url: str, statement) -> int:  # type: ignore[no-untyped-def]
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(statement))
    finally:
        engine.dispose()


def test_a_file_with_a_byte_order_mark_passes_the_quote_check(
    cli_env: Path, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "lisbon.txt").write_bytes(
        "\ufeffThe notice period for the Lisbon office is 30 days.\n".encode()
    )
    (docs / "memo.txt").write_text(
        "The notice period for the Lisbon office is 60 days.\n", encoding="utf-8"
    )
    result = CliRunner().invoke(app, ["run", str(docs)])
    assert result.exit_code == 0, result.output
    assert "check failed" not in result.output
    assert "edges: conflicts\t1" in result.output
    url = f"sqlite:///{cli_env / 'claims.db'}"
    quote = _count(
        url,
        select(func.count())
        .select_from(ClaimRow)
        .where(
            ClaimRow.quote == "The notice period for the Lisbon office is 30 days.",
            ClaimRow.span_start == 0,  # offsets do not count the mark
        ),
    )
    assert quote == 1
    size = _count(
        url, select(SourceVersionRow.size_bytes).where(SourceVersionRow.source_id == "lisbon")
    )
    assert size == len(b"The notice period for the Lisbon office is 30 days.\n") + 3


def test_one_document_failing_a_blocking_check_fails_alone(tmp_path: Path) -> None:
    world = make_world(tmp_path)
    (world.corpus / "ops").mkdir(exist_ok=True)
    (world.corpus / "ops/lisbon.txt").write_text(
        "The notice period for the Lisbon office is 30 days.\n", encoding="utf-8"
    )
    extractor = ExtractorResource(extractor="tests.test_reliability_checks:misquote_lisbon")
    outcome = run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=extractor,
        log_level="ERROR",
    )

    # The check named that one document, and only its partition failed.
    assert [f.what.split("@")[0] for f in outcome.failures] == ["ops/lisbon"]
    assert "quotes_match_source_text" in outcome.failures[0].message
    (check,) = [c for c in outcome.check_failures if c.startswith("quotes_match_source_text")]
    assert "1 document(s) failed" in check and "ops/lisbon v1" in check
    assert "lisbon.txt" in check

    # The rest went on: the other documents' claims and edges are there; none of Lisbon's.
    url = world.database_url
    lisbon = select(SourceVersionRow.id).where(SourceVersionRow.source_id == "ops/lisbon")
    assert (
        _count(
            url,
            select(func.count())
            .select_from(ClaimRow)
            .where(ClaimRow.source_version_id.in_(lisbon)),
        )
        == 0
    )
    assert _count(url, select(func.count()).select_from(ClaimRow)) > 0
    assert (
        _count(
            url, select(func.count()).select_from(EdgeRow).where(EdgeRow.generation == MISQUOTING)
        )
        > 0
    )
    assert world.instance.get_latest_materialization_event(dg.AssetKey("claim_edges"))

    # The next run tries that document again, alone (and fails it again, named).
    lisbon_key = outcome.failures[0].what
    again = run_pipeline(
        world.instance,
        store=world.store,
        sources=world.sources,
        extractor=extractor,
        log_level="ERROR",
    )
    assert [f.what for f in again.failures] == [lisbon_key]
    assert again.versions_processed == 1
