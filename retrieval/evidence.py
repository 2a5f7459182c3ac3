"""Evidence groups: the rows one status or answer needs, loaded by claim key, then narrowed.

Loading is blocked by claim key (plus the claims that edges reach from it), so the cost of
a query grows with the size of one conflict set, never with the store. ``narrow`` then
keeps only what a requester may see, at the requested times; every verdict in
``retrieval.verdicts`` is computed from a narrowed group and nothing else, which is what
makes "response over the whole corpus == response over the visible corpus" hold.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection

from claims.edges.builder import NEAR_MISS_PREFIX
from claims.edges.value_groups import SlotGroup
from claims.store.batches import batches
from retrieval.evidence_facts import (  # the facts, re-exported for the loaders' callers
    NOW,
    AsOf,
    ClaimFact,
    EdgeFact,
    EvidenceGroup,
    RelationFact,
    ResolutionFact,
    ReviewFact,
    SourceFact,
    SupersessionFact,
)

# --------------------------------------------------------------------------- loading
# Statements are plain SQL run on the DBAPI cursor of the SQLAlchemy connection: building
# and executing SQLAlchemy statements cost several times more than SQLite's own work for
# these small indexed reads (bench/bench_retrieval.py). Placeholders are rendered for the
# driver's paramstyle (SQLite "?", psycopg "%s"); values are converted the same way for
# both backends (SQLite returns text for JSON, dates and times).

_CLAIM_SQL = (
    "SELECT c.id, c.claim_key, c.source_id, c.source_version_id, sv.number, c.kind, "
    "c.value_number, c.value_text, c.unit, c.canonical_value, c.canonical_unit, c.polarity, "
    "c.modality, c.scope, c.scope_residual, c.time_start, c.time_end, c.quote, c.span_start, "
    "c.span_end FROM claims c JOIN source_versions sv ON sv.id = c.source_version_id "
    "WHERE c.generation = :g AND "
)
_CLAIM_AS_OF = " AND c.created_at <= :t AND sv.ingested_at <= :t"
_PLACEHOLDER = re.compile(r":(\w+)")


_EMPTY_JSON = {"{}": dict, "[]": list}


def _json(value: Any) -> Any:
    # most claims have no scope and no residual: skip the parser for those (20,000 calls
    # at a key of 10,000 claims)
    if isinstance(value, str):
        empty = _EMPTY_JSON.get(value)
        return empty() if empty is not None else json.loads(value)
    return value


def _date(value: Any) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) else value


def _moment(value: Any) -> datetime | None:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return _utc(value)


def _flag(value: Any) -> bool | None:
    return None if value is None else bool(value)


_CLAIM_TYPES = {13: _json, 14: _json, 15: _date, 16: _date}


@dataclass(frozen=True)
class _Sql:
    """One read, for the present and as of a system time ``:t``, with column converters."""

    now: str
    as_of: str
    convert: dict[int, Any] = field(default_factory=dict)


def _pair(sql: str, as_of_sql: str | None = None, **convert: Any) -> _Sql:
    """A read and its as-of variant; ``cN=f`` converts result column N with ``f``."""
    return _Sql(sql, as_of_sql or sql, {int(k[1:]): f for k, f in convert.items()})


# for other readers of the store in retrieval (retrieval.key_aggregate)
statement = _pair


@lru_cache(maxsize=512)
def _render(sql: str, shape: tuple[tuple[str, int], ...], mark: str) -> tuple[str, tuple[str, ...]]:
    """SQL with driver placeholders and the order of parameters (lists expanded)."""
    lengths = dict(shape)
    order: list[str] = []

    def place(match: re.Match[str]) -> str:
        name = match.group(1)
        if lengths.get(name, -1) >= 0:
            order.extend(f"{name}#{i}" for i in range(lengths[name]))
            return "(" + (", ".join([mark] * lengths[name]) or "NULL") + ")"
        order.append(name)
        return mark

    return _PLACEHOLDER.sub(place, sql), tuple(order)


_GENERATION = _pair(
    "SELECT id FROM extractor_generations WHERE status = 'active' LIMIT 1",
    "SELECT id FROM extractor_generations WHERE status IN ('active', 'retired') "
    "AND promoted_at <= :t ORDER BY promoted_at DESC LIMIT 1",
)
_NEWEST_GENERATION = _pair(
    "SELECT id FROM extractor_generations WHERE status <> 'failed' "
    "ORDER BY created_at DESC LIMIT 1",
    "SELECT id FROM extractor_generations WHERE status <> 'failed' AND created_at <= :t "
    "ORDER BY created_at DESC LIMIT 1",
)
_CLAIMS_BY_KEYS = _Sql(
    _CLAIM_SQL + "c.claim_key IN :keys",
    _CLAIM_SQL + "c.claim_key IN :keys" + _CLAIM_AS_OF,
    _CLAIM_TYPES,
)
# Claims of keys with no subject ("unknown:*") are never linked (value_groups.is_unknown_key):
# their status only reads identity, version and source, not the quote and facts.
_LEAN_CLAIMS_BY_KEYS = _pair(
    "SELECT c.id, c.claim_key, c.source_id, c.source_version_id, sv.number FROM claims c "
    "JOIN source_versions sv ON sv.id = c.source_version_id "
    "WHERE c.generation = :g AND c.claim_key IN :keys",
    "SELECT c.id, c.claim_key, c.source_id, c.source_version_id, sv.number FROM claims c "
    "JOIN source_versions sv ON sv.id = c.source_version_id "
    "WHERE c.generation = :g AND c.claim_key IN :keys" + _CLAIM_AS_OF,
)
_ANY_EDGE = _pair(
    "SELECT 1 FROM edges WHERE generation = :g AND claim_key IN :blocks "
    "AND retired_at IS NULL LIMIT 1",
    "SELECT 1 FROM edges WHERE generation = :g AND claim_key IN :blocks "
    "AND created_at <= :t AND (retired_at IS NULL OR retired_at > :t) LIMIT 1",
)
# By id: the generation is tested on the row, not looked up (``coalesce`` keeps SQLite from
# answering ``generation = :g`` from a (generation, ...) index, which walked every claim of
# the generation instead of fetching the few ids asked for: 14 ms for 200 claims of a
# 10,000-claim store, 4 ms by id).
_CLAIM_BY_ID_SQL = _CLAIM_SQL.replace(
    "WHERE c.generation = :g AND ", "WHERE coalesce(c.generation, '') = :g AND "
)
_CLAIMS_BY_IDS = _Sql(
    _CLAIM_BY_ID_SQL + "c.id IN :ids",
    _CLAIM_BY_ID_SQL + "c.id IN :ids" + _CLAIM_AS_OF,
    _CLAIM_TYPES,
)
# The same reads for a caller that only classifies claims (the read model): a status reads
# the claim's identity, version and value, never its quote, scope or time (the time only
# through ``AsOf.effective``, which such a loader refuses); at 10,000 files the quotes and
# the JSON of the scopes were a third of the status step's reads.
_BRIEF_COLUMNS = (
    "c.scope, c.scope_residual, c.time_start, c.time_end, c.quote,",
    "NULL, NULL, NULL, NULL, '',",
)


def _brief(query: _Sql) -> _Sql:
    def narrowed(sql: str) -> str:
        assert _BRIEF_COLUMNS[0] in sql
        return sql.replace(*_BRIEF_COLUMNS)

    return _Sql(narrowed(query.now), narrowed(query.as_of))


_CLAIMS_BY_KEYS_BRIEF = _brief(_CLAIMS_BY_KEYS)
_CLAIMS_BY_IDS_BRIEF = _brief(_CLAIMS_BY_IDS)
_KEY_OF_CLAIM = _pair(
    "SELECT claim_key, source_id FROM claims WHERE id = :id AND generation = :g",
    "SELECT claim_key, source_id FROM claims WHERE id = :id AND generation = :g "
    "AND created_at <= :t",
)
_KEYS_OF_VERSION = _pair(
    "SELECT DISTINCT claim_key FROM claims WHERE source_version_id = :v AND generation = :g",
    "SELECT DISTINCT claim_key FROM claims WHERE source_version_id = :v AND generation = :g "
    "AND created_at <= :t",
)
# A coarse block's keys are read from its first rows, up to a bound: a head word shared by a
# million claims ("limit") must not cost a question seconds; keys only past the bound are not
# widened to. The bound is on rows, not on distinct keys (a block of one key with 100,000
# claims would read them all to find a second key), and the as-of filter is applied to the
# rows read, so it cannot walk on either. On SQLite the block's index is named: with the
# statistics of a store where most claims share one head word, the planner took the
# (generation, claim_key, source) index for the DISTINCT and walked every claim of the
# generation testing the head word (1-2 s at 1M claims for a head word no claim has).
MAX_BLOCK_ROWS = 4000
_BLOCK_ROWS = (
    "SELECT DISTINCT claim_key FROM (SELECT claim_key, created_at FROM claims{indexed} "
    f"WHERE generation = :g AND coarse_key = :c LIMIT {MAX_BLOCK_ROWS}) AS block"
)
_KEYS_OF_COARSE = {
    sqlite: _pair(sql, sql + " WHERE created_at <= :t")
    for sqlite, sql in (
        (True, _BLOCK_ROWS.format(indexed=" INDEXED BY ix_claims_generation_coarse_key")),
        (False, _BLOCK_ROWS.format(indexed="")),
    )
}
# Whether a key has a claim of the generation: one index seek, however many claims it has.
_KEY_PRESENT = _pair(
    "SELECT 1 FROM claims WHERE generation = :g AND claim_key = :k LIMIT 1",
    "SELECT 1 FROM claims WHERE generation = :g AND claim_key = :k AND created_at <= :t LIMIT 1",
)
_VERSIONS_OF_SOURCE = _pair(
    "SELECT id, number FROM source_versions WHERE source_id = :s ORDER BY number",
    "SELECT id, number FROM source_versions WHERE source_id = :s AND ingested_at <= :t "
    "ORDER BY number",
)
# Edges are read by block (claim key, or "~" + coarse key for near misses), which the
# (generation, claim_key) index answers directly; asking by claim id (left IN .. OR right IN
# ..) made SQLite walk every edge of the generation once per chunk of claims.
_EDGE_SQL = (
    "SELECT id, kind, left_claim_id, right_claim_id, rule, reason, material FROM edges "
    "WHERE generation = :g AND claim_key IN :blocks"
)
# Grouped by claim key, not DISTINCT: with DISTINCT coarse_key SQLite walked the
# (generation, coarse_key) index, i.e. every claim of the generation, for each batch of keys
# (issue 33: the part of conflict_status that grew with the square of the store).
_COARSE_KEYS = _pair(
    "SELECT coarse_key FROM claims WHERE generation = :g AND claim_key IN :keys "
    "AND coarse_key IS NOT NULL GROUP BY claim_key, coarse_key",
    "SELECT coarse_key FROM claims WHERE generation = :g AND claim_key IN :keys "
    "AND coarse_key IS NOT NULL AND created_at <= :t GROUP BY claim_key, coarse_key",
)
_EDGES = _pair(
    _EDGE_SQL + " AND retired_at IS NULL",
    _EDGE_SQL + " AND created_at <= :t AND (retired_at IS NULL OR retired_at > :t)",
    c6=_flag,
)
# The same without the reason text, for callers that never show it (the read model).
_EDGE_SQL_BRIEF = _EDGE_SQL.replace(", reason,", ", '' AS reason,")
_EDGES_BRIEF = _pair(
    _EDGE_SQL_BRIEF + " AND retired_at IS NULL",
    _EDGE_SQL_BRIEF + " AND created_at <= :t AND (retired_at IS NULL OR retired_at > :t)",
    c6=_flag,
)
# In the block of a key whose claims have value groups, every edge of these kinds joins two
# members of the key's value groups, which readers take from the groups (``_value_groups``):
# such blocks are read without them (at 10,000 claims a key holds about 20,000 of them).
_NOT_FROM_GROUPS = " AND kind NOT IN ('conflicts', 'ambiguous', 'corroborates', 'compatible')"


def _without_group_kinds(query: _Sql) -> _Sql:
    def narrowed(sql: str) -> str:
        where = "AND claim_key IN :blocks"
        return sql.replace(where, where + _NOT_FROM_GROUPS)

    return _Sql(narrowed(query.now), narrowed(query.as_of), query.convert)


_MEMBERS = _pair(
    "SELECT claim_id, value_group_id FROM value_group_claims WHERE generation = :g "
    "AND claim_key IN :keys"
)
_RELATION_SQL = (
    "SELECT id, claim_key, left_group_id, right_group_id, kind, rule, material "
    "FROM value_group_relations WHERE generation = :g AND claim_key IN :keys"
)
_RELATIONS = _pair(
    _RELATION_SQL + " AND retired_at IS NULL",
    _RELATION_SQL + " AND created_at <= :t AND (retired_at IS NULL OR retired_at > :t)",
    c6=_flag,
)
_SLOTS = _pair(
    "SELECT value_group_id, slot_id, claim_key, value, tier_rank, high_risk, threshold, "
    "tier_gap, low, high, statement, family, dimension FROM value_group_slots "
    "WHERE generation = :g AND claim_key IN :keys",
    c5=_flag,
)
# Edge kinds that value groups say for claims that have one (see _value_groups).
_READ_FROM_GROUPS = ("conflicts", "ambiguous", "corroborates", "compatible")
_SUPERSESSION_SQL = (
    "SELECT vs.id, vs.newer_version_id, n.source_id AS newer_source_id, n.number, "
    "vs.older_version_id, o.source_id AS older_source_id, vs.origin, vs.effective_from "
    "FROM version_supersessions vs JOIN source_versions n ON n.id = vs.newer_version_id "
    "JOIN source_versions o ON o.id = vs.older_version_id WHERE vs.older_version_id IN :ids"
)
_SUPERSESSIONS = _pair(
    _SUPERSESSION_SQL,
    _SUPERSESSION_SQL + " AND vs.created_at <= :t AND n.ingested_at <= :t",
    c7=_date,
)
_SOURCES = _pair(
    "SELECT s.id, s.withdrawn, s.effective_from, s.effective_to, g.group_name FROM sources s "
    "LEFT JOIN source_grants g ON g.source_id = s.id WHERE s.id IN :ids",
    c1=_flag,
    c2=_date,
    c3=_date,
)
_REVIEW_SQL = (
    "SELECT ri.id, ri.claim_key, ri.state, ric.claim_id FROM review_items ri "
    "JOIN review_item_claims ric ON ric.review_item_id = ri.id WHERE ri.claim_key IN :keys"
)
_REVIEWS = _pair(_REVIEW_SQL, _REVIEW_SQL + " AND ri.opened_at <= :t")
_RESOLUTION_SQL = (
    "SELECT r.id, r.review_item_id, r.outcome, r.policy_version, r.decided_at, w.claim_id "
    "FROM resolutions r LEFT JOIN resolution_winners w ON w.resolution_id = r.id "
    "WHERE r.review_item_id IN :items"
)
_RESOLUTIONS = _pair(
    _RESOLUTION_SQL + " AND r.superseded_at IS NULL",
    _RESOLUTION_SQL
    + " AND r.decided_at <= :t AND (r.superseded_at IS NULL OR r.superseded_at > :t)",
    c4=_moment,
)


def _within_groups(edge: EdgeFact, claims: dict[str, ClaimFact], members: dict[str, str]) -> bool:
    """An edge between two members of value groups of one key: read from the groups."""
    left, right = claims.get(edge.left), claims.get(edge.right)
    return (
        edge.kind in _READ_FROM_GROUPS
        and left is not None
        and right is not None
        and left.id in members
        and right.id in members
        and left.claim_key == right.claim_key
    )


def _claim_fact(row: Any) -> ClaimFact:
    return ClaimFact(
        id=row[0],
        claim_key=row[1],
        source_id=row[2],
        version_id=row[3],
        version_number=row[4],
        kind=row[5],
        value_number=row[6],
        value_text=row[7],
        unit=row[8],
        canonical_value=row[9],
        canonical_unit=row[10],
        polarity=row[11],
        modality=row[12],
        scope={str(k): str(v) for k, v in (row[13] or {}).items()},
        scope_residual=tuple(row[14] or ()),
        time_start=row[15],
        time_end=row[16],
        quote=row[17],
        span_start=row[18],
        span_end=row[19],
    )


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class _Rows(list[tuple[Any, ...]]):
    """Fetched rows with the two accessors the loader uses."""

    def scalar(self) -> Any:
        return self[0][0] if self else None

    def scalars(self) -> list[Any]:
        return [row[0] for row in self]


_STREAMS = itertools.count()


class EvidenceLoader:
    """Reads evidence groups from the claim store on one connection (read-only)."""

    def __init__(
        self,
        conn: Connection,
        as_of: AsOf = NOW,
        *,
        with_reasons: bool = True,
        with_text: bool = True,
    ) -> None:
        """``with_reasons=False`` leaves every edge's reason empty (less to read when
        nobody will show it); ``with_text=False`` leaves every claim's quote empty and its
        scope, qualifiers and time unset, for callers that only classify claims (a status
        never reads them), and cannot read as of an effective date (which filters on the
        time)."""
        if not with_text and as_of.effective is not None:
            raise ValueError("a loader without claim text cannot filter by effective date")
        self.conn = conn
        self.as_of = as_of
        self._edge_query = _EDGES if with_reasons else _EDGES_BRIEF
        self._claims_by_keys = _CLAIMS_BY_KEYS if with_text else _CLAIMS_BY_KEYS_BRIEF
        self._claims_by_ids = _CLAIMS_BY_IDS if with_text else _CLAIMS_BY_IDS_BRIEF
        self._grouped_edge_query = _without_group_kinds(self._edge_query)
        self.known_at = _utc(as_of.known_at)
        self._generation: str | None | bool = False
        self._cursor = conn.connection.cursor()
        sqlite = conn.dialect.name == "sqlite"
        self._mark = "?" if sqlite else "%s"
        # SQLite stores times as text in UTC without an offset; other drivers take datetimes.
        self._known_at_param: Any = (
            self.known_at.replace(tzinfo=None).isoformat(sep=" ", timespec="microseconds")
            if sqlite and self.known_at is not None
            else self.known_at
        )

    def _rendered(self, query: _Sql, params: dict[str, Any]) -> tuple[str, list[Any]]:
        sql = query.now
        if self.known_at is not None:
            sql = query.as_of
            params["t"] = self._known_at_param
        shape = tuple(sorted((k, len(v) if isinstance(v, list) else -1) for k, v in params.items()))
        rendered, order = _render(sql, shape, self._mark)
        values = [
            params[name.split("#")[0]][int(name.split("#")[1])] if "#" in name else params[name]
            for name in order
        ]
        return rendered, values

    def _run(self, query: _Sql, **params: Any) -> _Rows:
        rendered, values = self._rendered(query, params)
        cursor = self._cursor
        cursor.execute(rendered, values)
        rows = cursor.fetchall()
        if query.convert:
            # only the listed columns are converted (a key of 10,000 claims reads 20 columns
            # of each; testing every column cost more than SQLite's own work)
            converters = tuple(query.convert.items())
            converted = []
            for row in rows:
                values = list(row)
                for i, convert in converters:
                    values[i] = convert(values[i])
                converted.append(tuple(values))
            rows = converted
        return _Rows(rows)

    def run(self, query: _Sql, **params: Any) -> _Rows:
        """One read (from ``statement``): list parameters expand, ``:t`` is the as-of time."""
        return self._run(query, **params)

    def stream(self, query: _Sql, **params: Any) -> Any:
        """A read whose rows are fetched as the caller goes (``fetchmany``; close it after):
        a server-side cursor on PostgreSQL, where a plain one fetches every row at once;
        SQLite steps through the result as it is fetched anyway. No column converters."""
        rendered, values = self._rendered(query, params)
        if self._mark == "?":
            cursor = self.conn.connection.cursor()
        else:
            cursor = self.conn.connection.cursor(name=f"claims_stream_{next(_STREAMS)}")
        cursor.execute(rendered, values)
        return cursor

    def claims_by_ids(self, claim_ids: Sequence[str]) -> dict[str, ClaimFact]:
        """Claims of the read generation by id (no visibility check: ids from a read that
        made it)."""
        gen = self.generation()
        found: dict[str, ClaimFact] = {}
        for chunk in batches(list(claim_ids)):
            found.update(
                (row[0], _claim_fact(row))
                for row in self._run(self._claims_by_ids, g=gen, ids=chunk)
            )
        return found

    def sources_by_ids(self, source_ids: Sequence[str]) -> dict[str, SourceFact]:
        return self._sources(sorted(set(source_ids)))

    # ----------------------------------------------------------------- generation

    def generation(self) -> str | None:
        """The extractor generation readers see (as known at ``known_at``)."""
        if self._generation is False:
            found = self._run(_GENERATION).scalar()
            if found is None:
                # A store nobody promoted yet: read its newest non-failed generation.
                found = self._run(_NEWEST_GENERATION).scalar()
            self._generation = found
        return self._generation  # type: ignore[return-value]

    # ----------------------------------------------------------------- lookups

    def claim_key_of(self, claim_id: str) -> str | None:
        head = self.claim_head(claim_id)
        return head[0] if head else None

    def claim_head(self, claim_id: str) -> tuple[str, str] | None:
        """(claim key, source id) of a claim of the read generation, if it exists."""
        rows = self._run(_KEY_OF_CLAIM, id=claim_id, g=self.generation())
        return (rows[0][0], rows[0][1]) if rows else None

    def source(self, source_id: str) -> SourceFact | None:
        return self._sources([source_id]).get(source_id)

    def versions_of(self, source_id: str) -> list[tuple[str, int]]:
        """(version id, number) of a source, oldest first, as known at ``known_at``."""
        return [(r[0], r[1]) for r in self._run(_VERSIONS_OF_SOURCE, s=source_id)]

    def keys_of_version(self, version_id: str) -> list[str]:
        rows = self._run(_KEYS_OF_VERSION, v=version_id, g=self.generation()).scalars()
        return sorted(set(rows))

    def keys_with_coarse_key(self, coarse_key: str) -> list[str]:
        """Claim keys of the read generation whose head word is ``coarse_key``, from the
        block's first ``MAX_BLOCK_ROWS`` claims (one bounded indexed read; keys only, so
        nothing about who may see their claims)."""
        query = _KEYS_OF_COARSE[self._mark == "?"]
        rows = self._run(query, c=coarse_key, g=self.generation()).scalars()
        return sorted(set(rows))

    def keys_present(self, claim_keys: Collection[str]) -> list[str]:
        """Those of ``claim_keys`` that claims of the read generation have (an index seek
        each; keys only, so nothing about who may see their claims)."""
        gen = self.generation()
        return [k for k in sorted(set(claim_keys)) if self._run(_KEY_PRESENT, g=gen, k=k)]

    # ----------------------------------------------------------------- groups

    def group_for_keys(self, claim_keys: Sequence[str]) -> EvidenceGroup:
        """Claims at these keys, the claims their edges reach, and all that bears on them."""
        group = EvidenceGroup()
        gen = self.generation()
        keys = sorted(set(claim_keys))
        if gen is None or not keys:
            return group
        claims: dict[str, ClaimFact] = {}
        for chunk in batches(keys):
            claims.update(
                (row[0], _claim_fact(row))
                for row in self._run(self._claims_by_keys, g=gen, keys=chunk)
            )
        members = self._value_groups(group, keys, claims)
        grouped = {claims[c].claim_key for c in members if c in claims}
        group.edges = [
            e
            for e in self._edges(keys, claims.keys(), grouped)
            if not _within_groups(e, claims, members)
        ]
        reached = sorted(
            ({e.left for e in group.edges} | {e.right for e in group.edges}) - claims.keys()
        )
        for chunk in batches(reached):
            claims.update(
                (row[0], _claim_fact(row))
                for row in self._run(self._claims_by_ids, g=gen, ids=chunk)
            )
        group.claims = claims
        self.finish(group)
        return group

    def finish(self, group: EvidenceGroup) -> None:
        """Read what bears on a group's claims and edges: review items (only ever of
        conflicts and ambiguities), version supersessions and sources (``group_for_keys``,
        and ``retrieval.status_delta``, which gathers part of a key itself)."""
        if (
            group.relations
            or group.slots
            or any(e.kind in ("conflicts", "ambiguous") for e in group.edges)
        ):
            group.reviews = self._reviews(sorted({c.claim_key for c in group.claims.values()}))
        self._complete(group, {c.version_id for c in group.claims.values()})

    def claims_for_keys(self, claim_keys: Sequence[str]) -> EvidenceGroup:
        """The claims at these keys with their sources and versions' supersessions only (no
        edges, value groups or reviews): enough to ``narrow`` to what a requester may see
        and to choose which keys answer a question. The answer then loads the full group of
        the chosen keys once (``group_for_keys``), where it used to load one per probe."""
        group = EvidenceGroup()
        gen = self.generation()
        keys = sorted(set(claim_keys))
        if gen is None or not keys:
            return group
        for chunk in batches(keys):
            group.claims.update(
                (row[0], _claim_fact(row))
                for row in self._run(self._claims_by_keys, g=gen, keys=chunk)
            )
        self._complete(group, {c.version_id for c in group.claims.values()})
        return group

    def group_for_unlinked_keys(self, claim_keys: Sequence[str]) -> EvidenceGroup:
        """``group_for_keys`` for keys whose blocks hold no live edge (the keys with no
        subject, which are never linked), reading only the columns a status of such claims
        depends on: identity, version and source. With an edge in a block, the full read."""
        gen = self.generation()
        keys = sorted(set(claim_keys))
        if gen is None or not keys:
            return EvidenceGroup()
        for chunk in batches(keys):
            if self._run(_ANY_EDGE, g=gen, blocks=chunk):
                return self.group_for_keys(keys)
        group = EvidenceGroup()
        for chunk in batches(keys):
            for row in self._run(_LEAN_CLAIMS_BY_KEYS, g=gen, keys=chunk):
                group.claims[row[0]] = ClaimFact(
                    *row, "", None, None, None, None, None, None, None, {}, (), None, None, "",
                    0, 0,
                )  # fmt: skip
        self._complete(group, {c.version_id for c in group.claims.values()})
        return group

    def group_for_version(self, version_id: str) -> EvidenceGroup:
        """The groups of every key the version states, plus the version's own supersession."""
        group = self.group_for_keys(self.keys_of_version(version_id))
        self._complete(group, {c.version_id for c in group.claims.values()} | {version_id})
        return group

    def _complete(self, group: EvidenceGroup, version_ids: set[str]) -> None:
        group.supersessions = self._supersessions(sorted(version_ids))
        source_ids = {c.source_id for c in group.claims.values()}
        source_ids |= {s.newer_source_id for s in group.supersessions}
        source_ids |= {s.older_source_id for s in group.supersessions}
        group.sources = self._sources(sorted(source_ids))

    def _edges(
        self, claim_keys: list[str], claim_ids: Collection[str], grouped: Collection[str] = ()
    ) -> list[EdgeFact]:
        """Live edges touching ``claim_ids`` (the claims at ``claim_keys``).

        An edge lives in the block of its claims' key, or, for a near miss, in the block
        ``~<coarse key>`` of the claims' coarse key: both are looked up by block. The
        blocks of ``grouped`` keys are read without the edges value groups say.
        """
        gen = self.generation()
        blocks = [k for k in claim_keys if k not in grouped]
        for chunk in batches(claim_keys):
            coarse = self._run(_COARSE_KEYS, g=gen, keys=chunk).scalars()
            blocks += [NEAR_MISS_PREFIX + c for c in coarse]
        found: dict[str, EdgeFact] = {}
        reads = [(self._edge_query, sorted(set(blocks)))]
        reads.append((self._grouped_edge_query, sorted(grouped)))
        for query, block_list in reads:
            for chunk in batches(block_list):
                for r in self._run(query, g=gen, blocks=chunk):
                    if r[2] in claim_ids or r[3] in claim_ids:
                        found[r[0]] = EdgeFact(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
        return [found[k] for k in sorted(found)]

    def _value_groups(
        self, group: EvidenceGroup, keys: list[str], claims: dict[str, ClaimFact]
    ) -> dict[str, str]:
        """Value-group memberships, relations and slots of ``keys``; returns the memberships.

        A disagreement or an agreement between two claims that both belong to value groups
        of their key is read from the groups, never from the stored edge (``_within_groups``):
        the edge table keeps only stars of such claims (classified with every supersession,
        hidden ones included), while ``verdicts.relation_edges`` pairs exactly the members a
        requester can see.
        """
        gen = self.generation()
        members: dict[str, str] = {}
        relations: dict[str, RelationFact] = {}
        slots: dict[str, SlotGroup] = {}
        for chunk in batches(keys):
            members.update((r[0], r[1]) for r in self._run(_MEMBERS, g=gen, keys=chunk))
            for r in self._run(_RELATIONS, g=gen, keys=chunk):
                relations[r[0]] = RelationFact(*r)
            slots.update((r[0], SlotGroup(*r)) for r in self._run(_SLOTS, g=gen, keys=chunk))
        if not members:
            return members
        group.value_groups = {c: g for c, g in members.items() if c in claims}
        group.relations = [relations[k] for k in sorted(relations)]
        group.slots = slots
        return members

    def _supersessions(self, older_version_ids: list[str]) -> list[SupersessionFact]:
        out: list[SupersessionFact] = []
        for chunk in batches(older_version_ids):
            out += [SupersessionFact(*r) for r in self._run(_SUPERSESSIONS, ids=chunk)]
        return sorted(out, key=lambda s: s.id)

    def _sources(self, source_ids: list[str]) -> dict[str, SourceFact]:
        rows: dict[str, tuple[Any, ...]] = {}
        groups: dict[str, set[str]] = {}
        for chunk in batches(source_ids):
            for sid, withdrawn, start, end, group_name in self._run(_SOURCES, ids=chunk):
                rows[sid] = (bool(withdrawn), start, end)
                members = groups.setdefault(sid, set())
                if group_name is not None:
                    members.add(group_name)
        return {
            sid: SourceFact(sid, row[0], row[1], row[2], frozenset(groups[sid]))
            for sid, row in rows.items()
        }

    def _reviews(self, claim_keys: list[str]) -> list[ReviewFact]:
        items: dict[str, tuple[str, str]] = {}
        members: dict[str, set[str]] = {}
        for chunk in batches(claim_keys):
            for item_id, key, state, claim_id in self._run(_REVIEWS, keys=chunk):
                items[item_id] = (key, state)
                members.setdefault(item_id, set()).add(claim_id)
        if not items:
            return []
        resolutions = self._resolutions(sorted(items))
        out = []
        for item_id, (key, state) in sorted(items.items()):
            resolution = resolutions.get(item_id)
            out.append(
                ReviewFact(
                    id=item_id,
                    claim_key=key,
                    state=self._state_as_of(state, resolution),
                    claim_ids=frozenset(members[item_id]),
                    resolution=resolution,
                )
            )
        return out

    def _state_as_of(self, state: str, resolution: ResolutionFact | None) -> str:
        """Past item states are not kept; as of a past time an item is open or decided."""
        if self.known_at is None:
            return state
        return resolution.outcome if resolution is not None else "open"

    def _resolutions(self, item_ids: list[str]) -> dict[str, ResolutionFact]:
        rows: dict[str, tuple[str, str, str, datetime]] = {}
        winners: dict[str, set[str]] = {}
        for chunk in batches(item_ids):
            for res_id, item_id, outcome, policy, decided, winner in self._run(
                _RESOLUTIONS, items=chunk
            ):
                rows[res_id] = (item_id, outcome, policy, decided)
                chosen = winners.setdefault(res_id, set())
                if winner is not None:
                    chosen.add(winner)
        latest: dict[str, ResolutionFact] = {}
        # The newest decision on an item is the one in force (older ones were reopened).
        for res_id, (item_id, outcome, policy, decided) in sorted(
            rows.items(), key=lambda r: (r[1][3], r[0])
        ):
            latest[item_id] = ResolutionFact(
                res_id, outcome, frozenset(winners[res_id]), policy, decided
            )
        return latest


__all__ = [
    "NOW",
    "AsOf",
    "ClaimFact",
    "EdgeFact",
    "EvidenceGroup",
    "EvidenceLoader",
    "RelationFact",
    "ResolutionFact",
    "ReviewFact",
    "SourceFact",
    "SupersessionFact",
]
