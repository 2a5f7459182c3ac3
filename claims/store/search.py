"""Full-text search over claim quotes: the fallback that finds candidate claims for a question.

The index itself is made by an Alembic migration (``0006`` and later): an FTS5 table kept in
step with ``claims`` by triggers on SQLite, a GIN index over ``to_tsvector('english', quote)``
on PostgreSQL. Both stem English words, so "residents" finds "resident".

Authorization comes first: the query joins the claim's source and keeps only sources the
caller's groups may see (not withdrawn; no grants, or a grant to one of the groups) *before*
ranking and the limit, so what a requester cannot see never takes a rank, a score or a slot.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

FTS_TABLE = "claim_quotes_fts"
SEARCH_INDEX = "ix_claims_quote_fts"
# the largest number of candidates one search returns
MAX_CANDIDATES = 200
_WORD = re.compile(r"\w+", re.UNICODE)


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
    return not (type_ == "index" and name == SEARCH_INDEX)


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
    params: dict[str, object] = {"generation": generation, "limit": limit}
    visible = visible_claims_condition(groups, params)
    if _dialect(session) == "postgresql":
        query_parts = []
        for i, term in enumerate(terms):
            params[f"t{i}"] = term
            query_parts.append(f"plainto_tsquery('english', :t{i})")
        tsquery = " || ".join(query_parts)
        sql = (
            "SELECT c.id, c.claim_key, ts_rank(to_tsvector('english', c.quote), q.query) AS score "
            f"FROM claims c JOIN sources s ON s.id = c.source_id, (SELECT {tsquery} AS query) q "
            "WHERE c.generation = :generation "
            "AND to_tsvector('english', c.quote) @@ q.query "
            f"AND {visible} ORDER BY score DESC, c.id LIMIT :limit"
        )
    else:
        params["match"] = " OR ".join(f'"{term}"' for term in terms)
        sql = (
            f"SELECT c.id, c.claim_key, -bm25({FTS_TABLE}) AS score FROM {FTS_TABLE} "
            f"JOIN claims c ON c.rowid = {FTS_TABLE}.rowid "
            "JOIN sources s ON s.id = c.source_id "
            f"WHERE {FTS_TABLE} MATCH :match AND c.generation = :generation "
            f"AND {visible} ORDER BY score DESC, c.id LIMIT :limit"
        )
    rows = session.execute(text(sql), params)
    return [QuoteMatch(row[0], row[1], round(float(row[2]), 6)) for row in rows]


def sqlite_search_ddl() -> list[str]:
    """The SQLite statements that make the index on a store built without Alembic (a test's
    in-memory store). Alembic's revision 0003 holds its own frozen copy."""
    fts = FTS_TABLE
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5(quote, content='claims', "
        "content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2')",
        f"CREATE TRIGGER claims_fts_insert AFTER INSERT ON claims BEGIN "
        f"INSERT INTO {fts}(rowid, quote) VALUES (new.rowid, new.quote); END",
        f"CREATE TRIGGER claims_fts_delete AFTER DELETE ON claims BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, quote) VALUES ('delete', old.rowid, old.quote); END",
        f"CREATE TRIGGER claims_fts_update AFTER UPDATE OF quote ON claims BEGIN "
        f"INSERT INTO {fts}({fts}, rowid, quote) VALUES ('delete', old.rowid, old.quote); "
        f"INSERT INTO {fts}(rowid, quote) VALUES (new.rowid, new.quote); END",
    ]


def _dialect(session: Session | Connection) -> str:
    if isinstance(session, Connection):
        return session.dialect.name
    return session.get_bind().dialect.name


def rebuild_search_index(session: Session) -> None:
    """Rebuild the SQLite full-text index from ``claims`` (after a VACUUM renumbered rows).

    A no-op on PostgreSQL, whose index is an ordinary expression index.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')"))
