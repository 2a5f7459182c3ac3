"""The full-text index holds each distinct quote of a version once (issue 14.1), on both
backends: a table of numbers quoted by every number in it is one index entry, every claim
quoting it is still found, and the entry leaves with the last claim that quotes it."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, delete, func, select, text, update

from claims.store.engine import make_engine, transaction
from claims.store.search import rebuild_search_index, search_quotes
from claims.tables import ClaimQuoteRow, ClaimRow
from tests.retrieval_corpus import GENERATION, Corpus

TABLE = (
    "Branch opening hours per week: Harbour 42, Old Town 38, Riverside 45, Station 50, "
    "Hilltop 36, Market Square 44."
)


def _branches() -> tuple[Corpus, list[str], str]:
    """Six figures of one table sentence (each claim quotes the whole sentence), plus a
    sentence of another source that says the same words."""
    corpus = Corpus()
    corpus.source("branch-hours", ())
    corpus.source("regional-digest", ())
    table = corpus.version("branch-hours", TABLE)
    digest = corpus.version("regional-digest", TABLE)
    ids = [
        corpus.claim(table, f"{branch} opening hours", hours, "hour", quote=TABLE)
        for branch, hours in (
            ("harbour", 42),
            ("old town", 38),
            ("riverside", 45),
            ("station", 50),
            ("hilltop", 36),
            ("market square", 44),
        )
    ]
    other = corpus.claim(digest, "harbour opening hours", 42, "hour", quote=TABLE)
    return corpus, ids, other


def _quote_rows(engine: Engine) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(select(ClaimQuoteRow.source_version_id, ClaimQuoteRow.quote))
        return sorted((row[0], row[1]) for row in rows)


def _unlinked(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.scalar(
            select(func.count()).select_from(ClaimRow).where(ClaimRow.quote_id.is_(None))
        )


def test_a_quote_shared_by_many_claims_is_indexed_once_per_version(migrated_url: str) -> None:
    corpus, ids, other = _branches()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        rows = _quote_rows(engine)
        # one row per version: the table's six claims share one, the digest has its own
        assert [quote for _, quote in rows] == [TABLE, TABLE]
        assert len({version for version, _ in rows}) == 2
        assert _unlinked(engine) == 0
        with transaction(engine) as session:
            found = search_quotes(session, ["riverside"], generation=GENERATION, groups=())
        assert sorted(m.claim_id for m in found) == sorted([*ids, other])
        # claims of one quote share its score: the rank is the quote's
        assert len({m.score for m in found}) <= 2
    finally:
        engine.dispose()


def test_the_quote_leaves_the_index_with_its_last_claim(migrated_url: str) -> None:
    corpus, ids, other = _branches()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            session.execute(delete(ClaimRow).where(ClaimRow.id.in_(ids[:5])))
        with transaction(engine) as session:
            found = search_quotes(session, ["hilltop"], generation=GENERATION, groups=())
        assert sorted(m.claim_id for m in found) == sorted([ids[5], other])
        assert len(_quote_rows(engine)) == 2

        with transaction(engine) as session:
            session.execute(delete(ClaimRow).where(ClaimRow.id.in_([ids[5], other])))
        assert _quote_rows(engine) == []
        with transaction(engine) as session:
            assert search_quotes(session, ["hilltop"], generation=GENERATION, groups=()) == []
    finally:
        engine.dispose()


def test_a_changed_quote_moves_its_claim_to_the_new_text(migrated_url: str) -> None:
    corpus, ids, _ = _branches()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        corrected = "Harbour branch opening hours were cut to 30 per week in the winter."
        with transaction(engine) as session:
            session.execute(update(ClaimRow).where(ClaimRow.id == ids[0]).values(quote=corrected))
        with transaction(engine) as session:
            winter = search_quotes(session, ["winter"], generation=GENERATION, groups=())
            station = search_quotes(session, ["station"], generation=GENERATION, groups=())
        assert [m.claim_id for m in winter] == [ids[0]]
        assert ids[0] not in {m.claim_id for m in station} and len(station) == 6
        assert len(_quote_rows(engine)) == 3
    finally:
        engine.dispose()


def test_reindex_links_claims_written_around_the_triggers(migrated_url: str) -> None:
    """A claim row whose link was lost (written with the triggers off, or by hand) is found
    again after `claims db reindex`; quote rows no claim uses are dropped."""
    corpus, ids, _ = _branches()
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        with transaction(engine) as session:
            session.execute(update(ClaimRow).values(quote_id=None))
            session.execute(
                text(
                    "INSERT INTO claim_quotes (source_version_id, quote) "
                    "VALUES ('sv-gone', 'A sentence of a version erased long ago.')"
                )
            )
        with transaction(engine) as session:
            assert search_quotes(session, ["harbour"], generation=GENERATION, groups=()) == []
            rebuild_search_index(session)
        with transaction(engine) as session:
            found = search_quotes(session, ["harbour"], generation=GENERATION, groups=())
        assert len(found) == 7
        assert _unlinked(engine) == 0
        assert len(_quote_rows(engine)) == 2
    finally:
        engine.dispose()


TIMETABLE = (
    "The day pass costs 7 euros for adults, 4 euros for children and 5 euros for students. "
    "A single ticket costs 2 euros on Sundays."
)


def test_claims_stored_by_the_pipeline_arrive_linked_to_their_quote(migrated_url: str) -> None:
    """ClaimRepository.add_all finds or makes the quote rows itself (one per sentence and
    version), the same rows the triggers make, and a second generation reuses them."""
    from claims.extraction import extract
    from claims.store import ClaimRepository, GenerationRepository, SourceRepository

    engine = make_engine(migrated_url)
    try:
        with transaction(engine) as session:
            version, _ = SourceRepository(session).add_version("bus-timetable", TIMETABLE)
            claims = extract(TIMETABLE, source_id="bus-timetable", source_version_id=version.id)
            generation = claims[0].generation
            GenerationRepository(session).ensure(generation, "test")
            assert ClaimRepository(session).add_all(claims) == len(claims)
        assert len({c.quote for c in claims}) < len(claims)  # several claims per sentence
        rows = _quote_rows(engine)
        assert sorted(quote for _, quote in rows) == sorted({c.quote for c in claims})
        assert _unlinked(engine) == 0
        with engine.connect() as conn:
            linked = conn.execute(
                select(ClaimRow.quote, ClaimQuoteRow.quote).join(
                    ClaimQuoteRow, ClaimQuoteRow.id == ClaimRow.quote_id
                )
            ).all()
        assert linked and all(mine == theirs for mine, theirs in linked)

        # the same sentences under another extractor generation: no new quote rows
        other = [
            c.model_copy(update={"id": c.id + "-g2", "generation": "gen_other"}) for c in claims
        ]
        with transaction(engine) as session:
            GenerationRepository(session).ensure("gen_other", "test")
            ClaimRepository(session).add_all(other)
        assert _quote_rows(engine) == rows
        with transaction(engine) as session:
            found = search_quotes(session, ["sunday"], generation="gen_other", groups=())
        assert found and {m.claim_id for m in found} <= {c.id for c in other}
    finally:
        engine.dispose()


def test_a_word_in_too_many_quotes_is_left_out_of_the_search(
    migrated_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word most quotes hold ranks nothing and made ranking every quote cost seconds at
    a million claims: past the bound it is left out, and the rarer words still find (the
    same words on both backends)."""
    import claims.store.search as search

    corpus = Corpus()
    corpus.source("ops-notes", ())
    ids = {}
    version = corpus.version("ops-notes", "Depot allowances, by site.")
    for n, site in enumerate(("harbour", "station", "hilltop", "riverside")):
        quote = f"The {site} depot allowance is {n + 10} pallets."
        ids[site] = corpus.claim(version, f"{site} depot allowance", n + 10, "pallet", quote=quote)
    engine = make_engine(migrated_url)
    try:
        corpus.write(engine)
        monkeypatch.setattr(search, "COMMON_WORD_QUOTES", 3)
        with transaction(engine) as session:
            both = search_quotes(
                session, ["allowance", "hilltop"], generation=GENERATION, groups=()
            )
            common = search_quotes(session, ["allowance"], generation=GENERATION, groups=())
        assert [m.claim_id for m in both] == [ids["hilltop"]]
        assert common == []
        monkeypatch.setattr(search, "COMMON_WORD_QUOTES", 5000)
        with transaction(engine) as session:
            common = search_quotes(session, ["allowance"], generation=GENERATION, groups=())
        assert sorted(m.claim_id for m in common) == sorted(ids.values())
    finally:
        engine.dispose()
