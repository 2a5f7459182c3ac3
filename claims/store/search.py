"""Full-text search over claim quotes: the fallback that finds candidate claims for a question.

The index covers each distinct quote of a source version once (table ``claim_quotes``, made
by migration 0010): a number table's sentence is the quote of every number in it, and
indexing it per claim cost 70x the text (issue 14.1). Triggers on ``claims`` keep the quote
rows and each claim's ``quote_id`` (the claim writer links and indexes new quotes itself,
``claims/store/quotes.py``); the index is an FTS5 table over ``claim_quotes`` on
SQLite, a GIN index over ``to_tsvector('english', quote)`` on PostgreSQL. Both stem English
words, so "residents" finds "resident". Every claim whose quote matches is a candidate.

Authorization comes first: the query joins the claim's source and keeps only sources the
caller's groups may see (not withdrawn; no grants, or a grant to one of the groups) *before*
ranking and the limit, so what a requester cannot see never takes a rank, a score or a slot.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, TextClause, text
from sqlalchemy.orm import Session

FTS_TABLE = "claim_quotes_fts"
SEARCH_INDEX = "ix_claim_quotes_fts"
# the unique key of claim_quotes: (version, quote) on SQLite, (version, md5(quote)) on
# PostgreSQL, whose btree entries cannot hold a long quote; made by hand, like the index
QUOTE_KEY_INDEX = "uq_claim_quotes_version_quote"
# a claim key's cells (value group, quote) in the edge builder's order, for the edge step's
# cell firsts (claims/edge_delta.py); SQLite only (a long quote could pass PostgreSQL's
# b-tree row limit), made by hand like the search index (migration 0026)
CELL_ORDER_INDEX = "ix_claims_key_cell_order"
CELL_ORDER_DDL = (
    f"CREATE INDEX {CELL_ORDER_INDEX} ON claims "
    "(generation, claim_key, quote, source_id, source_version_id, id)"
)
# the largest number of candidates one search returns
MAX_CANDIDATES = 200
_WORD = re.compile(r"\w+", re.UNICODE)


@lru_cache(maxsize=1024)
def statement_text(sql: str) -> TextClause:
    """``text(sql)``, made once per distinct SQL: building a text statement parses its bind
    parameters, which cost a question at 1M claims more than the reads it made (the SQL of
    a search varies only with the number of words and groups, so few are made)."""
    return text(sql)


@dataclass(frozen=True, slots=True)
class QuoteMatch:
    """A claim whose quote matches some of the search words; higher ``score`` is better."""

    claim_id: str
    claim_key: str
    score: float


def is_search_table(name: str) -> bool:
    """True for the FTS5 table and its shadow tables (not part of the declared metadata)."""
    return name == FTS_TABLE or name.startswith(FTS_TABLE + "_")


def include_in_autogenerate(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    """Alembic ``include_object`` hook: the search index is made by hand-written DDL."""
    if type_ == "table" and name and is_search_table(name):
        return False
    return not (type_ == "index" and name in (SEARCH_INDEX, QUOTE_KEY_INDEX, CELL_ORDER_INDEX))


def search_words(question: str) -> list[str]:
    """The words of a question a full-text query may use (letters and digits only)."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(question.casefold()):
        if len(word) > 1 or word.isdigit():
            seen.setdefault(word, None)
    return list(seen)[:32]


def visible_claims_condition(groups: Collection[str], params: dict[str, object]) -> str:
    """SQL over ``claims c JOIN sources s``: the claim's source is visible to ``groups``.

    The authorization rule of docs/RETRIEVAL.md: not withdrawn, and no grants or a grant to
    one of the groups. Adds its bind parameters to ``params``.
    """
    marks = []
    for i, group in enumerate(sorted(set(groups))):
        params[f"vis_g{i}"] = group
        marks.append(f":vis_g{i}")
    granted = (
        "EXISTS (SELECT 1 FROM source_grants sg WHERE sg.source_id = c.source_id "
        f"AND sg.group_name IN ({', '.join(marks)}))"
        if marks
        else "0 = 1"
    )
    return (
        "NOT s.withdrawn AND (NOT EXISTS (SELECT 1 FROM source_grants sg0 "
        f"WHERE sg0.source_id = c.source_id) OR {granted})"
    )


# Searches made in the current ``searches_remembered`` scope: (words, generation, groups,
# limit) -> matches, and word -> whether it is selective. One answer searches the quotes
# from several readers (candidate keys, table cells, the evidence ranking), often for the
# same words; the store does not change under one read.
_REMEMBERED: ContextVar[dict[tuple[object, ...], Any] | None] = ContextVar(
    "searches_remembered", default=None
)


@contextmanager
def searches_remembered() -> Iterator[None]:
    """Within this scope a search (or a word's count) asked again is answered from the
    first one: for one answer's reads, never across them (the store changes between)."""
    token = _REMEMBERED.set({})
    try:
        yield
    finally:
        _REMEMBERED.reset(token)


def search_quotes(
    session: Session | Connection,
    words: Sequence[str],
    *,
    generation: str,
    groups: Collection[str],
    limit: int = MAX_CANDIDATES,
) -> list[QuoteMatch]:
    """Claims of ``generation`` whose quote holds any of ``words``, best first.

    Only claims of sources visible to ``groups`` are searched, ranked and counted.
    """
    terms = [w for w in dict.fromkeys(w.casefold() for w in words) if _WORD.fullmatch(w)]
    if not terms:
        return []
    limit = max(1, min(limit, MAX_CANDIDATES))
    remembered = _REMEMBERED.get()
    asked = ("search", tuple(terms), generation, tuple(sorted(set(groups))), limit)
    if remembered is not None and asked in remembered:
        return list(remembered[asked])
    found = _search(session, terms, generation=generation, groups=groups, limit=limit)
    if remembered is not None:
        remembered[asked] = tuple(found)
    return found


def _search(
    session: Session | Connection,
    terms: list[str],
    *,
    generation: str,
    groups: Collection[str],
    limit: int,
) -> list[QuoteMatch]:
    params: dict[str, object] = {"generation": generation, "limit": limit}
    visible = visible_claims_condition(groups, params)
    if _dialect(session) == "postgresql":
        terms = _selective_terms(session, terms, _COUNT_QUOTES_PG)
        if not terms:
            return []
        query_parts = []
        for i, term in enumerate(terms):
            params[f"t{i}"] = term
            query_parts.append(f"plainto_tsquery('english', :t{i})")
        tsquery = " || ".join(query_parts)
        sql = (
            "SELECT c.id, c.claim_key, ts_rank(to_tsvector('english', cq.quote), tq.query) "
            "AS score FROM claim_quotes cq JOIN claims c ON c.quote_id = cq.id "
            f"JOIN sources s ON s.id = c.source_id, (SELECT {tsquery} AS query) tq "
            "WHERE to_tsvector('english', cq.quote) @@ tq.query "
            f"AND c.generation = :generation AND {visible} ORDER BY score DESC, c.id LIMIT :limit"
        )
    else:
        terms = _selective_terms(session, terms, _COUNT_QUOTES)
        if not terms:
            return []
        params["match"] = " OR ".join(f'"{term}"' for term in terms)
        sql = (
            f"SELECT c.id, c.claim_key, -bm25({FTS_TABLE}) AS score FROM {FTS_TABLE} "
            f"JOIN claims c ON c.quote_id = {FTS_TABLE}.rowid "
            "JOIN sources s ON s.id = c.source_id "
            f"WHERE {FTS_TABLE} MATCH :match AND c.generation = :generation "
            f"AND {visible} ORDER BY score DESC, c.id LIMIT :limit"
        )
    rows = session.execute(statement_text(sql), params)
    return [QuoteMatch(row[0], row[1], round(float(row[2]), 6)) for row in rows]


# A word in more quotes than this says little about which claim is meant ("limit" in a
# store of a million limits) and ranking every quote that holds it costs seconds: such
# words are left out of the search, as an index leaves out stop words. Counting stops at
# the bound, so the check costs at most this many index rows per word.
COMMON_WORD_QUOTES = 5000


# (both backends leave the same words out, so a question answers alike on either)
_COUNT_QUOTES = text(
    f"SELECT count(*) FROM (SELECT 1 FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :m LIMIT :bound)"
)
_COUNT_QUOTES_PG = text(
    "SELECT count(*) FROM (SELECT 1 FROM claim_quotes WHERE to_tsvector('english', quote) "
    "@@ plainto_tsquery('english', :m) LIMIT :bound) AS holding"
)


def _selective_terms(
    session: Session | Connection, terms: list[str], count: TextClause
) -> list[str]:
    remembered = _REMEMBERED.get()
    if remembered is None:
        remembered = {}
    kept = []
    for term in terms:
        asked = ("selective", term)
        if asked not in remembered:
            word = f'"{term}"' if count is _COUNT_QUOTES else term
            params = {"m": word, "bound": COMMON_WORD_QUOTES + 1}
            quotes = session.execute(count, params).scalar_one()
            remembered[asked] = quotes <= COMMON_WORD_QUOTES
        if remembered[asked]:
            kept.append(term)
    return kept


def sqlite_search_ddl() -> list[str]:
    """The SQLite statements that make the index on a store built without Alembic (a test's
    in-memory store, after ``create_all``). Alembic's revision 0010 holds its own frozen copy."""
    fts = FTS_TABLE
    return [
        f"CREATE UNIQUE INDEX {QUOTE_KEY_INDEX} ON claim_quotes (source_version_id, quote)",
        CELL_ORDER_DDL,
        f"CREATE VIRTUAL TABLE {fts} USING fts5(quote, content='claim_quotes', "
        "content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')",
        # no insert trigger on claim_quotes: the writer indexes a version's new quote rows
        # in one statement (claims/store/quotes.py; a trigger made an FTS5 segment per
        # row, migration 0013)
        f"CREATE TRIGGER claim_quotes_fts_delete AFTER DELETE ON claim_quotes BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, quote) VALUES ('delete', old.id, old.quote); END",
        # No insert trigger: ClaimRepository.add_all links each claim to its quote row
        # before the insert, and an AFTER INSERT trigger alone doubled the cost of every
        # claim insert (migration 0012). An update of the quote re-links here.
        "CREATE TRIGGER claims_quote_update AFTER UPDATE OF quote, source_version_id ON claims "
        f"BEGIN {_SQLITE_LINK} {_SQLITE_INDEX_NEW} {_SQLITE_RELEASE} END",
        f"CREATE TRIGGER claims_quote_delete AFTER DELETE ON claims BEGIN {_SQLITE_RELEASE} END",
    ]


# the quote row of ``new`` (made if it is the version's first claim with that quote), linked
_SQLITE_LINK = (
    "INSERT OR IGNORE INTO claim_quotes (source_version_id, quote) "
    "VALUES (new.source_version_id, new.quote); "
    "UPDATE claims SET quote_id = (SELECT id FROM claim_quotes "
    "WHERE source_version_id = new.source_version_id AND quote = new.quote) "
    "WHERE rowid = new.rowid;"
)
# the quote row of ``new`` into the index unless it is there (FTS5's docsize table holds a
# row per indexed quote row)
_SQLITE_INDEX_NEW = (
    f"INSERT INTO {FTS_TABLE}(rowid, quote) SELECT cq.id, cq.quote FROM claim_quotes cq "
    "WHERE cq.source_version_id = new.source_version_id AND cq.quote = new.quote "
    f"AND NOT EXISTS (SELECT 1 FROM {FTS_TABLE}_docsize d WHERE d.id = cq.id);"
)
# the quote row ``old`` pointed at, once no claim points at it any more
_SQLITE_RELEASE = (
    "DELETE FROM claim_quotes WHERE id = old.quote_id "
    "AND NOT EXISTS (SELECT 1 FROM claims WHERE quote_id = old.quote_id);"
)


def _dialect(session: Session | Connection) -> str:
    if isinstance(session, Connection):
        return session.dialect.name
    return session.get_bind().dialect.name


def rebuild_search_index(session: Session) -> None:
    """Repair the quote rows and rebuild the SQLite full-text index from them.

    Claims without a quote row get one, quote rows no claim points at go, then the FTS5
    table is rebuilt from ``claim_quotes`` (PostgreSQL's index is an ordinary expression
    index and needs no rebuild).
    """
    sqlite = session.get_bind().dialect.name == "sqlite"

    def same_quote(claim: str) -> str:  # the claim_quotes row cq of claim's version and quote
        key = f"cq.source_version_id = {claim}.source_version_id AND cq.quote = {claim}.quote"
        return key if sqlite else f"{key} AND md5(cq.quote) = md5({claim}.quote)"

    unlinked = "quote_id IS NULL OR quote_id NOT IN (SELECT id FROM claim_quotes)"
    session.execute(
        text(
            "INSERT INTO claim_quotes (source_version_id, quote) "
            f"SELECT DISTINCT c.source_version_id, c.quote FROM claims c WHERE ({unlinked}) "
            f"AND NOT EXISTS (SELECT 1 FROM claim_quotes cq WHERE {same_quote('c')})"
        )
    )
    session.execute(
        text(
            "UPDATE claims SET quote_id = (SELECT cq.id FROM claim_quotes cq "
            f"WHERE {same_quote('claims')}) WHERE {unlinked}"
        )
    )
    session.execute(
        text(
            "DELETE FROM claim_quotes WHERE NOT EXISTS "
            "(SELECT 1 FROM claims c WHERE c.quote_id = claim_quotes.id)"
        )
    )
    if sqlite:
        session.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')"))
