"""The claim insert path of the SQLite store carries no per-row INSERT trigger (migrations
0012 and 0013): with one, SQLite journals every page each claim insert touches and FTS5
writes a segment per quote row, which made storing claims cost more than extracting them.
The writer (``ClaimRepository.add_all``) links quotes and fills the index itself; this
checks the schema stays that way and that what the writer stores is found."""

from __future__ import annotations

from sqlalchemy import text

from claims.extraction import extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository
from claims.store.engine import make_engine, transaction
from claims.store.search import search_quotes
from tests.store_template import upgrade  # a copy of a store migrated once

NOTE = (
    "The harbour ferry runs every 20 minutes in summer and every 45 minutes in winter. "
    "Bicycles travel free on the early crossings."
)


def test_no_insert_trigger_on_claims_or_their_quotes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'claims.db'}"
    upgrade(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            triggers = conn.execute(
                text("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'")
            ).all()
        on_insert = [
            name
            for name, table, sql in triggers
            if table in ("claims", "claim_quotes") and " INSERT ON " in sql.upper()
        ]
        assert on_insert == []
        # the update and delete triggers still keep quote rows and the index in step
        assert {name for name, table, _ in triggers if table == "claims"} == {
            "claims_quote_update",
            "claims_quote_delete",
        }

        with transaction(engine) as session:
            version, _ = SourceRepository(session).add_version("ferry-note", NOTE)
            claims = extract(NOTE, source_id="ferry-note", source_version_id=version.id)
            GenerationRepository(session).ensure(claims[0].generation, "test")
            assert ClaimRepository(session).add_all(claims) == len(claims)
        with transaction(engine) as session:
            found = search_quotes(session, ["winter"], generation=claims[0].generation, groups=())
            # the docsize shadow table holds one row per indexed quote row
            indexed = session.execute(
                text("SELECT count(*) FROM claim_quotes_fts_docsize")
            ).scalar()
            quotes = session.execute(text("SELECT count(*) FROM claim_quotes")).scalar()
        assert {m.claim_id for m in found} == {c.id for c in claims if "winter" in c.quote}
        assert found
        assert indexed == quotes  # each quote row indexed once, none twice
    finally:
        engine.dispose()
