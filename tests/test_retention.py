"""Retention end to end: `claims sources erase` on a store built by a real `claims run`.

After the erase no text of the erased document is left in any table of the store (SQLite,
its full-text shadow tables included, and PostgreSQL), the conflict it took part in is gone
from `claims ask` and `claims status`, the audit log holds a tombstone without text and
still verifies, and a later run does not bring the source back.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select, text
from typer.testing import CliRunner

from claimledger.cli import app
from claims.retention import ERASE, erase
from claims.settings import get_settings
from claims.store import make_engine, transaction
from claims.tables import (
    AuditEventRow,
    ClaimRow,
    ResolutionRow,
    ReviewItemClaimRow,
    ReviewItemRow,
    SourceVersionRow,
    ValueGroupClaimRow,
    ValueGroupRelationRow,
)

REVIEWERS = Path(__file__).parent / "fixtures" / "review" / "reviewers.yaml"
ERASED = "parking/facilities-memo"
KEY = "visitor park limit"
QUESTION = "What is the visitor parking limit?"

GUIDE = (
    "Welcome to the Linden Park campus. Visitors sign in at the north gate kiosk beside the "
    "bicycle racks. The visitor parking limit is 4 hours.\n"
)
MEMO = (
    "Greta Lindqvist wrote this note after the autumn resurfacing near the tennis courts.\n\n"
    "The visitor parking limit is 2 hours. Overnight parking needs a permit from the "
    "security desk.\n"
)
CAFETERIA = (
    "The cafeteria on the ground floor serves lunch from noon. The cafeteria seats 120 people.\n"
)
# Phrases only the memo holds (checked case-insensitively in every text value of every table).
MEMO_PHRASES = (
    "lindqvist",
    "autumn resurfacing",
    "tennis courts",
    "limit is 2 hours",
    "overnight parking",
    "security desk",
    # one word of a memo quote: the full-text index stores words, and keeps a deleted
    # quote's words in its pages until they are merged (its neighbour term shares no prefix)
    "desk",
)

runner = CliRunner()


def _write_corpus(root: Path) -> Path:
    corpus = root / "corpus"
    for relative, body in (
        ("parking/visitor-guide.txt", GUIDE),
        ("parking/facilities-memo.txt", MEMO),
        ("site/cafeteria.txt", CAFETERIA),
    ):
        path = corpus / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return corpus


@pytest.fixture
def store_url(cli_env: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The CLI pointed at an empty store of each backend, with the test reviewers."""
    monkeypatch.setenv("CLAIMS_DATABASE_URL", database_url)
    monkeypatch.setenv("CLAIMS_REVIEWERS_FILE", str(REVIEWERS))
    monkeypatch.setenv("CLAIMS_REVIEWER", "alice")
    get_settings.cache_clear()
    return database_url


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _claims_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed `claims` command (the exit code a user sees comes from its entry point)."""
    command = Path(sys.executable).parent / "claims"
    return subprocess.run(
        [str(command), *args], capture_output=True, text=True, timeout=120, check=False
    )


def _ask_json() -> dict[str, object]:
    return json.loads(_invoke("ask", QUESTION, "--json"))


def _texts_holding(engine: Engine, phrases: tuple[str, ...]) -> list[str]:
    """``table: phrase`` for every phrase found in any value of any table of the store."""
    found: list[str] = []
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            tables = conn.execute(
                text("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            ).scalars()
            for table in list(tables):
                for row in conn.execute(text(f'SELECT * FROM "{table}"')):
                    for value in row:
                        if isinstance(value, bytes):
                            value = value.decode("utf-8", "replace")
                        if isinstance(value, str):
                            lowered = value.lower()
                            found += [f"{table}: {p}" for p in phrases if p in lowered]
        else:
            tables = conn.execute(
                text(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
                )
            ).scalars()
            for table in list(tables):
                # a whole row as text: every column, JSON included
                for (row_text,) in conn.execute(text(f'SELECT CAST(t AS text) FROM "{table}" t')):
                    lowered = row_text.lower()
                    found += [f"{table}: {p}" for p in phrases if p in lowered]
    return found


def _count(engine: Engine, statement: object) -> int:
    with engine.connect() as conn:
        return int(conn.execute(statement).scalar() or 0)  # type: ignore[call-overload]


def test_erase_removes_every_text_of_the_source_and_its_conflict(
    store_url: str, tmp_path: Path
) -> None:
    corpus = _write_corpus(tmp_path)
    _invoke("run", str(corpus))
    engine = make_engine(store_url)
    try:
        before = _ask_json()
        assert before["status"] == "conflict", before
        assert _texts_holding(engine, MEMO_PHRASES)  # the scan does find the memo's text

        # A reviewer decides the conflict first: that resolution depended on the memo.
        with transaction(engine) as session:
            item = session.scalars(
                select(ReviewItemRow).where(ReviewItemRow.claim_key == KEY)
            ).one()
            guide_claim = session.scalars(
                select(ClaimRow.id).where(
                    ClaimRow.source_id == "parking/visitor-guide", ClaimRow.claim_key == KEY
                )
            ).one()
            item_id = item.id
        _invoke(
            "review", "resolve", item_id, "--winner", guide_claim,
            "--rationale", "The visitor guide is the document visitors are handed.",
        )  # fmt: skip
        with engine.connect() as conn:
            resolution_id = conn.execute(
                select(ResolutionRow.id).where(ResolutionRow.review_item_id == item_id)
            ).scalar_one()

        output = _invoke(
            "sources", "erase", ERASED, "--reason", "data-subject request DSR-2026-118",
            "--as", "alice", "--json",
        )  # fmt: skip
        report = json.loads(output)
        assert report["claims"] == 2 and report["review_items_deleted"] == [item_id]
        assert [r["id"] for r in report["resolutions_affected"]] == [resolution_id]

        # No text of the memo anywhere: versions, claims, full-text rows, audit rows.
        assert _texts_holding(engine, MEMO_PHRASES) == []
        assert _count(engine, select(func.count()).where(SourceVersionRow.source_id == ERASED)) == 0
        if engine.dialect.name == "sqlite":
            # not only the tables: the files hold none of it either (the erase turns on
            # secure_delete, which zeroes freed bytes, and empties the write-ahead log)
            database = Path(engine.url.database or "")
            raw = b"".join(p.read_bytes() for p in database.parent.glob(database.name + "*"))
            assert [p for p in MEMO_PHRASES if p.encode() in raw.lower()] == []
        assert _count(engine, select(func.count()).where(ClaimRow.source_id == ERASED)) == 0
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":  # the search index knows none of its words
                matches = conn.execute(
                    text(
                        "SELECT count(*) FROM claim_quotes_fts "
                        "WHERE claim_quotes_fts MATCH 'overnight OR lindqvist OR desk'"
                    )
                ).scalar()
                assert matches == 0

        # The conflict is gone: one value is left, answered, and the key has no conflict.
        after = _ask_json()
        assert after["status"] == "answered" and after["value"] == 4, after
        status = json.loads(_invoke("status", "--key", KEY, "--json"))
        assert status["status"] == "none"
        assert [c["source_id"] for s in status["sides"] for c in s["citations"]] == [
            "parking/visitor-guide"
        ]

        # The tombstone: who, when, why, affected resolution, hashes; the chain verifies.
        with engine.connect() as conn:
            tomb = conn.execute(
                select(AuditEventRow).where(
                    AuditEventRow.action == ERASE, AuditEventRow.entity_id == ERASED
                )
            ).one()
        assert tomb.actor == "alice"
        assert tomb.after["reason"] == "data-subject request DSR-2026-118"
        memo_sha = hashlib.sha256(MEMO.encode("utf-8")).hexdigest()
        assert [v["sha256"] for v in tomb.after["versions"]] == [memo_sha]
        assert [r["id"] for r in tomb.after["resolutions_affected"]] == [resolution_id]
        assert "intact" in _invoke("audit", "verify")

        # A re-run with the file still there skips it, says which file and how to readmit.
        rerun = runner.invoke(app, ["run", str(corpus)])
        assert rerun.exit_code == 0, rerun.output
        flat = " ".join(rerun.output.split())
        assert "facilities-memo.txt" in flat and f"claims sources readmit {ERASED}" in flat
        assert _count(engine, select(func.count()).where(ClaimRow.source_id == ERASED)) == 0
        assert _texts_holding(engine, MEMO_PHRASES) == []
        assert _ask_json()["status"] == "answered"
        assert "intact" in _invoke("audit", "verify")
    finally:
        engine.dispose()


def test_erased_source_comes_back_only_when_readmitted_or_changed(
    cli_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = _write_corpus(tmp_path)
    _invoke("run", str(corpus))
    _invoke("sources", "erase", ERASED, "--reason", "legal hold lifted the wrong way")
    listing = _invoke("sources", "list")
    assert "erased" in listing and f"claims sources readmit {ERASED}" in " ".join(listing.split())

    # `claims ingest` of the same bytes skips it too, naming the file.
    ingest = runner.invoke(app, ["ingest", str(corpus)])
    assert ingest.exit_code == 0, ingest.output
    assert "facilities-memo.txt" in ingest.output and "1 skipped (source erased)" in ingest.output

    _invoke("sources", "readmit", ERASED, "--reason", "the request was withdrawn")
    _invoke("run", str(corpus))
    assert _ask_json()["status"] == "conflict"

    # Erased again, then the file changes: new content is a new version, ingested as usual.
    _invoke("sources", "erase", ERASED, "--reason", "second request")
    memo = corpus / "parking" / "facilities-memo.txt"
    memo.write_text("The visitor parking limit is 3 hours.\n", encoding="utf-8")
    _invoke("run", str(corpus))
    answer = _ask_json()
    assert answer["status"] == "conflict", answer
    assert "intact" in _invoke("audit", "verify")


def test_erase_refuses_bad_input_and_leaves_the_store_as_it_was(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = _write_corpus(tmp_path)
    _invoke("run", str(corpus))

    unknown = _claims_process("sources", "erase", "parking/no-such-memo", "--reason", "x")
    assert unknown.returncode == 2
    assert "parking/no-such-memo" in unknown.stderr and "claims sources list" in unknown.stderr
    blank = _claims_process("sources", "erase", ERASED, "--reason", "  ")
    assert blank.returncode == 2 and "--reason" in blank.stderr
    not_erased = _claims_process("sources", "readmit", ERASED, "--reason", "why not")
    assert not_erased.returncode == 2 and "not erased" in not_erased.stderr

    # One transaction: an erase whose transaction fails afterwards leaves everything.
    engine = make_engine(get_settings().resolved_database_url)
    try:
        claims_before = _count(engine, select(func.count()).select_from(ClaimRow))
        with pytest.raises(RuntimeError), transaction(engine) as session:
            erase(session, ERASED, reason="test", actor="admin:test")
            raise RuntimeError("the disk filled up")
        assert _count(engine, select(func.count()).select_from(ClaimRow)) == claims_before
        assert _texts_holding(engine, ("lindqvist",))
        assert _count(engine, select(func.count()).where(AuditEventRow.action == ERASE)) == 0
    finally:
        engine.dispose()
    assert _ask_json()["status"] == "conflict"


def test_a_conflict_among_the_other_sources_is_routed_again_after_the_erase(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = _write_corpus(tmp_path)
    (corpus / "parking" / "security-faq.txt").write_text(
        "Questions people ask the security team.\n\n"
        "The visitor parking limit is 3 hours. Lost badges are replaced at reception.\n",
        encoding="utf-8",
    )
    _invoke("run", str(corpus))
    _invoke("sources", "erase", ERASED, "--reason", "data-subject request")
    # Guide (4 hours) and FAQ (3 hours) still disagree: answered as a conflict at once...
    answer = _ask_json()
    assert answer["status"] == "conflict"
    cited = set(answer["citations"])  # type: ignore[call-overload]
    assert cited == {"parking/visitor-guide", "parking/security-faq"}
    # ...and the next run routes it to review again, without the erased claims.
    _invoke("run", str(corpus))
    engine = make_engine(get_settings().resolved_database_url)
    try:
        with transaction(engine) as session:
            items = session.scalars(select(ReviewItemRow).where(ReviewItemRow.claim_key == KEY))
            members = [
                set(
                    session.scalars(
                        select(ClaimRow.source_id)
                        .join(ReviewItemClaimRow, ReviewItemClaimRow.claim_id == ClaimRow.id)
                        .where(ReviewItemClaimRow.review_item_id == item.id)
                    )
                )
                for item in items
            ]
    finally:
        engine.dispose()
    assert members == [{"parking/visitor-guide", "parking/security-faq"}]


def test_value_group_relations_of_the_erased_claims_are_retired_not_deleted(
    cli_env: Path, tmp_path: Path
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "site-rules.txt").write_text(
        "Welcome to the campus. Acme's contractors must wear a helmet on the roof.\n",
        encoding="utf-8",
    )
    (corpus / "roof-memo.txt").write_text(
        "Greta Lindqvist wrote this after the autumn resurfacing.\n\n"
        "Acme's contractors need not wear a helmet on the roof.\n",
        encoding="utf-8",
    )
    _invoke("run", str(corpus))
    engine = make_engine(get_settings().resolved_database_url)
    try:
        with engine.connect() as conn:
            relations = conn.execute(select(ValueGroupRelationRow)).all()
        assert len(relations) == 1 and relations[0].retired_at is None  # required vs optional

        report = json.loads(_invoke("sources", "erase", "roof-memo", "--reason", "r", "--json"))
        assert report["value_group_relations_retired"] == 1
        assert report["value_group_relations_deleted"] == 0
        with engine.connect() as conn:
            after = conn.execute(select(ValueGroupRelationRow)).all()
            members = conn.execute(
                select(ClaimRow.source_id).join(
                    ValueGroupClaimRow, ValueGroupClaimRow.claim_id == ClaimRow.id
                )
            ).scalars()
            assert set(members) <= {"site-rules"}
        assert [r.id for r in after] == [relations[0].id] and after[0].retired_at is not None
        assert _texts_holding(engine, ("lindqvist", "need not wear")) == []
        assert "intact" in _invoke("audit", "verify")
    finally:
        engine.dispose()
