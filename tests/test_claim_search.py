"""Full-text search over claim quotes: stemmed, ranked, blind to what a requester cannot see."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import delete, update
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claims.settings import get_settings
from claims.store.engine import make_engine, transaction
from claims.store.search import rebuild_search_index, search_quotes, search_words
from claims.tables import ClaimRow
from tests.retrieval_corpus import GENERATION, Corpus
from tests.store_template import upgrade  # a copy of a store migrated once


def _corpus() -> tuple[Corpus, dict[str, str]]:
    corpus = Corpus()
    ids: dict[str, str] = {}
    corpus.source("census", ())
    corpus.source("council-memo", ("finance",))
    corpus.source("old-brochure", (), withdrawn=True)
    census = corpus.version("census", "Lakeview had 4,210 residents at the last census.")
    memo = corpus.version("council-memo", "Lakeview residents: 4,900 by the council's count.")
    brochure = corpus.version("old-brochure", "A town of 3,000 residents.")
    ids["census"] = corpus.claim(
        census,
        "resident",
        4210,
        "resident",
        quote="Lakeview had 4,210 residents at the last census.",
    )
    ids["memo"] = corpus.claim(
        memo,
        "lakeview resident",
        4900,
        "resident",
        quote="Lakeview residents: Lakeview counts 4,900 residents by the council's count.",
    )
    ids["brochure"] = corpus.claim(
        brochure, "resident", 3000, "resident", quote="A town of 3,000 residents."
    )
    ids["bus"] = corpus.claim(
        census, "bus fare", 2, "USD", quote="The bus fare in Lakeview is 2 dollars."
    )
    return corpus, ids


def test_search_words_keep_content_tokens_once() -> None:
    assert search_words("How many residents does Lakeview have? Lakeview!") == [
        "how",
        "many",
        "residents",
        "does",
        "lakeview",
        "have",
    ]


def test_stemmed_match_ranks_and_hides_what_the_requester_cannot_see(migrated_url: str) -> None:
    corpus, ids = _corpus()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            public = search_quotes(
                session, ["resident", "lakeview"], generation=GENERATION, groups=()
            )
            finance = search_quotes(
                session, ["resident", "lakeview"], generation=GENERATION, groups=("finance",)
            )
        # "resident" finds "residents" (stemming); the withdrawn brochure is nobody's evidence
        assert [m.claim_id for m in public][:1] == [ids["census"]]
        assert ids["brochure"] not in {m.claim_id for m in public}
        # the finance memo is invisible to the public caller, visible (and best) for finance
        assert ids["memo"] not in {m.claim_id for m in public}
        assert finance[0].claim_id == ids["memo"]
        # the public census claim keeps the same score whoever else is around
        score = {m.claim_id: m.score for m in finance}
        assert {m.claim_id: m.score for m in public}[ids["census"]] > 0
        assert ids["census"] in score
    finally:
        engine.dispose()


def test_limit_counts_only_visible_claims(migrated_url: str) -> None:
    corpus, ids = _corpus()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            # the hidden memo matches best, yet the one slot goes to a visible claim
            top = search_quotes(
                session, ["lakeview", "residents"], generation=GENERATION, groups=(), limit=1
            )
        assert [m.claim_id for m in top] == [ids["census"]]
    finally:
        engine.dispose()


def test_index_follows_deletes_and_quote_updates(migrated_url: str) -> None:
    corpus, ids = _corpus()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            session.execute(
                update(ClaimRow)
                .where(ClaimRow.id == ids["bus"])
                .values(quote="The tram fare in Lakeview is 2 dollars.")
            )
            session.execute(delete(ClaimRow).where(ClaimRow.id == ids["census"]))
        with transaction(engine) as session:
            rebuild_search_index(session)  # a no-op for the index's content: same rows
            fare = search_quotes(session, ["tram"], generation=GENERATION, groups=())
            bus = search_quotes(session, ["bus"], generation=GENERATION, groups=())
            census = search_quotes(session, ["census"], generation=GENERATION, groups=())
        assert [m.claim_id for m in fare] == [ids["bus"]]
        assert bus == []
        assert census == []
    finally:
        engine.dispose()


def test_words_that_are_not_words_are_ignored(migrated_url: str) -> None:
    corpus, _ = _corpus()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            # FTS syntax characters never reach the query
            assert (
                search_quotes(session, ['" OR *', "NEAR("], generation=GENERATION, groups=()) == []
            )
    finally:
        engine.dispose()


def test_reindex_after_vacuum_keeps_search_right(cli_env: Path) -> None:
    url = get_settings().resolved_database_url
    upgrade(url)
    corpus, ids = _corpus()
    engine = make_engine(url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            # leave a gap in the rowids, which VACUUM may close
            session.execute(delete(ClaimRow).where(ClaimRow.id == ids["census"]))
        with engine.connect() as conn:
            conn.exec_driver_sql("VACUUM")
        run = CliRunner().invoke(cli_app, ["db", "reindex"])
        assert run.exit_code == 0, run.output
        assert "rebuilt" in run.output
        with transaction(engine) as session:
            fare = search_quotes(session, ["fare"], generation=GENERATION, groups=())
        assert [m.claim_id for m in fare] == [ids["bus"]]
    finally:
        engine.dispose()
