"""A claim key's cells per grant set, kept between requests (issue 14.1, session 8).

The aggregate status of a key (``retrieval.key_aggregate``) starts with one grouped read over
every visible claim of the key: per *cell* (a value group, one way of stating its value) the
number of claims, the first claim id, the lowest and highest coarse key and whether a version
is replaced. At 10,000 claims that read was two thirds of a status call, and it is the only
part linear in the key. Its result depends on the requester only through which sources they
may see, so this module computes it once per key for every *grant set* (the access groups of
a source; the empty set is public) and answers each requester by merging the grant sets they
may see: a few rows, whatever the key holds. A reader is never given a count of a grant set
they may not see: the merge takes only the visible sets, with the rule of
``retrieval.access.source_visible``; withdrawn sources are left out when the summary is made.

The summary is kept in memory by whoever holds a ``KeySummaries`` (the HTTP service: one per
``claims serve`` process) and is made lazily, on the first status of the key. It is dropped
when the store says the key may have changed:

- the change feed (``claims.store.changes``) has a row after the summary's for the key or for
  every key (``*``): every writer of claims, register entries and edges records one in the
  transaction of its write;
- the feed's first row is not the one seen before (the feed was pruned, so rows after the
  summary may be gone; or the store was replaced by a new one at the same address);
- the number of claims of the key (read from its index, about 1 ms at 10,000 claims) is not
  the summary's: a writer that adds or removes claims without recording them is caught too;
- the read generation is another.

Callers that hold no ``KeySummaries`` (the CLI, tests of ``status_of_key``) read the cells
from the store every time, as before.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import Any

from claims.models import Requester
from claims.store.batches import batches
from retrieval.access import source_visible
from retrieval.evidence import EvidenceLoader, statement

# The value columns of a cell, as ``retrieval.key_aggregate`` groups them.
VALUE_COLUMNS = (
    "kind",
    "value_number",
    "value_text",
    "unit",
    "canonical_value",
    "canonical_unit",
    "polarity",
    "modality",
)
_VALUE = ", ".join(f"c.{col}" for col in VALUE_COLUMNS)
_WIDTH = len(VALUE_COLUMNS)
_MEMBER = "value_group_claims m ON m.claim_id = c.id AND m.generation = :g AND m.claim_key = :k"

# Per cell and grant set: the key's claims of sources not withdrawn (grants are applied per
# requester). A source's grant set is written as its group names, each prefixed with its
# length ("5:legal7:finance"; any order: parsed into a set), so no name can be misread
# whatever characters it holds. A claim without a value group comes out in a cell of group
# NULL. (Grouping per source instead, and folding in Python, cost 4x the old read.)
_CELLS = statement(
    f"SELECT m.value_group_id, {_VALUE}, (SELECT {{AGG}} FROM source_grants x "
    "WHERE x.source_id = c.source_id), count(*), min(c.id{C}), "
    "min(c.coarse_key), max(c.coarse_key), "
    "max(CASE WHEN EXISTS (SELECT 1 FROM version_supersessions vs "
    "WHERE vs.older_version_id = c.source_version_id) THEN 1 ELSE 0 END) "
    "FROM claims c JOIN sources s ON s.id = c.source_id LEFT JOIN "
    + _MEMBER
    + " WHERE c.generation = :g AND c.claim_key = :k AND s.withdrawn = :no "
    f"GROUP BY m.value_group_id, {_VALUE}, {_WIDTH + 2}"
)
# Sources stating the key more than once (from the index alone), and their claims per cell.
_SOURCES_TWICE = statement(
    "SELECT source_id FROM claims WHERE generation = :g AND claim_key = :k "
    "GROUP BY source_id HAVING count(*) > 1"
)
_CELLS_OF_SOURCES = statement(
    f"SELECT m.value_group_id, {_VALUE}, c.source_id, count(*) "
    "FROM claims c JOIN sources s ON s.id = c.source_id JOIN "
    + _MEMBER
    + " WHERE c.generation = :g AND c.claim_key = :k AND s.withdrawn = :no "
    f"AND c.source_id IN :sources GROUP BY m.value_group_id, {_VALUE}, c.source_id"
)
_GRANTS = statement("SELECT source_id, group_name FROM source_grants WHERE source_id IN :sources")
_CLAIMS = statement("SELECT count(*) FROM claims WHERE generation = :g AND claim_key = :k")
_FEED_ENDS = statement(
    "SELECT id, created_at FROM claim_key_changes WHERE id = "
    "(SELECT min(id) FROM claim_key_changes) OR id = (SELECT max(id) FROM claim_key_changes) "
    "ORDER BY id"
)
_KEY_CHANGED = statement(
    "SELECT 1 FROM claim_key_changes WHERE id > :after AND id <= :upto "
    "AND claim_key IN (:k, '*') LIMIT 1"
)


def _collated(query: Any, dialect: str) -> Any:
    # claim ids are ordered as Python orders strings (code points), as in key_aggregate
    postgres = dialect == "postgresql"
    agg = "string_agg" if postgres else "group_concat"
    return statement(
        query.now.replace("{C}", ' COLLATE "C"' if postgres else "").replace(
            "{AGG}", f"{agg}(length(x.group_name) || ':' || x.group_name, '')"
        )
    )


def grant_set(written: str | None) -> frozenset[str]:
    """The group names of a grant set as ``_CELLS`` writes it ("5:legal7:finance")."""
    names = []
    at = 0
    while written and at < len(written):
        colon = written.index(":", at)
        size = int(written[at:colon])
        names.append(written[colon + 1 : colon + 1 + size])
        at = colon + 1 + size
    return frozenset(names)


@dataclass
class _CellTotals:
    """The claims of one cell from sources of one grant set."""

    count: int
    first_id: str
    low: Any
    high: Any
    replaced: int


def _least(a: Any, b: Any) -> Any:
    # SQL min(): NULLs are ignored
    return b if a is None else a if b is None else min(a, b)


def _most(a: Any, b: Any) -> Any:
    return b if a is None else a if b is None else max(a, b)


@dataclass
class KeySummary:
    """A key's cells per grant set, and the cells of the sources stating it twice."""

    claims: int  # claims of the key in the generation, at the time it was made
    feed_id: int  # the change feed's newest id it is known to reflect
    totals: dict[frozenset[str], dict[tuple[Any, ...], _CellTotals]] = field(default_factory=dict)
    # source -> (its grant set, [(cell, claims of the source in it)]), for sources with more
    # than one claim at the key (only they can be counted in two parts of one side)
    twice: dict[str, tuple[frozenset[str], list[tuple[tuple[Any, ...], int]]]] = field(
        default_factory=dict
    )

    def _sees(self, grants: frozenset[str], requester: Requester) -> bool:
        return source_visible(grants, False, requester)

    def cells(self, requester: Requester) -> list[tuple[Any, ...]]:
        """The rows ``key_aggregate``'s grouped read gives ``requester``: (value group,
        *value, claims, first claim id, lowest and highest coarse key, replaced)."""
        merged: dict[tuple[Any, ...], _CellTotals] = {}
        for grants, cells in self.totals.items():
            if not self._sees(grants, requester):
                continue
            for cell, t in cells.items():
                found = merged.get(cell)
                if found is None:
                    merged[cell] = _CellTotals(t.count, t.first_id, t.low, t.high, t.replaced)
                    continue
                found.count += t.count
                found.first_id = min(found.first_id, t.first_id)
                found.low, found.high = _least(found.low, t.low), _most(found.high, t.high)
                found.replaced = max(found.replaced, t.replaced)
        return [
            (*cell, t.count, t.first_id, t.low, t.high, t.replaced)
            for cell, t in sorted(merged.items(), key=lambda item: item[1].first_id)
        ]

    def cells_of_repeated_sources(self, requester: Requester) -> list[tuple[Any, ...]]:
        """Rows (value group, *value, source, claims) for the visible sources stating the key
        more than once, in cells with a value group."""
        return [
            (*cell, source, count)
            for source, (grants, cells) in sorted(self.twice.items())
            if self._sees(grants, requester)
            for cell, count in cells
        ]


def make_summary(loader: EvidenceLoader, generation: str, key: str, feed_id: int) -> KeySummary:
    """Read the key's cells per grant set, and the cells of sources stating it twice."""
    dialect = loader.conn.dialect.name
    summary = KeySummary(
        claims=loader.run(_CLAIMS, g=generation, k=key).scalar() or 0, feed_id=feed_id
    )
    for row in loader.run(_collated(_CELLS, dialect), g=generation, k=key, no=False):
        cell, grants = tuple(row[: 1 + _WIDTH]), grant_set(row[1 + _WIDTH])
        count, first_id, low, high, replaced = row[2 + _WIDTH :]
        cells = summary.totals.setdefault(grants, {})
        found = cells.get(cell)
        if found is None:  # one grant set written in two orders comes in two rows
            cells[cell] = _CellTotals(count, first_id, low, high, int(replaced))
        else:
            found.count += count
            found.first_id = min(found.first_id, first_id)
            found.low, found.high = _least(found.low, low), _most(found.high, high)
            found.replaced = max(found.replaced, int(replaced))
    twice = sorted(loader.run(_SOURCES_TWICE, g=generation, k=key).scalars())
    grants: dict[str, set[str]] = defaultdict(set)
    per_source: dict[str, list[tuple[tuple[Any, ...], int]]] = defaultdict(list)
    for chunk in batches(twice):
        for source, group in loader.run(_GRANTS, sources=chunk):
            grants[source].add(group)
        query = _collated(_CELLS_OF_SOURCES, dialect)
        for row in loader.run(query, g=generation, k=key, no=False, sources=chunk):
            per_source[row[1 + _WIDTH]].append((tuple(row[: 1 + _WIDTH]), row[2 + _WIDTH]))
    for source, cells_of in per_source.items():
        summary.twice[source] = (frozenset(grants.get(source, ())), cells_of)
    return summary


class KeySummaries:
    """Key summaries of one store, kept for the life of a process (at most ``max_keys``,
    least recently used dropped first). Safe to share between threads."""

    def __init__(self, max_keys: int = 256) -> None:
        self.max_keys = max_keys
        self._entries: OrderedDict[tuple[str, str], KeySummary] = OrderedDict()
        self._feed_start: tuple[Any, ...] | None = None
        self._lock = threading.Lock()
        self.made = 0  # summaries made (a status that read the key's claims)

    def summary(self, loader: EvidenceLoader, generation: str, key: str) -> KeySummary:
        """The key's summary, made again when the store says it may have changed."""
        ends = list(loader.run(_FEED_ENDS))
        start = tuple(ends[0]) if ends else None
        newest = int(ends[-1][0]) if ends else 0
        claims = loader.run(_CLAIMS, g=generation, k=key).scalar() or 0
        with self._lock:
            if self._moved(start):
                self._entries.clear()  # pruned, or another store at the same address
            self._feed_start = start
            found = self._entries.get((generation, key))
        if found is not None and self._current(loader, found, key, newest, claims):
            with self._lock:
                if (generation, key) in self._entries:  # (another thread may have cleared)
                    self._entries.move_to_end((generation, key), last=True)
            return found
        made = make_summary(loader, generation, key, newest)
        with self._lock:
            self.made += 1
            self._entries[(generation, key)] = made
            self._entries.move_to_end((generation, key), last=True)
            while len(self._entries) > self.max_keys:
                self._entries.popitem(last=False)
        return made

    def _moved(self, start: tuple[Any, ...] | None) -> bool:
        """Whether rows after those the kept summaries reflect may be gone: the feed's first
        row is another (an empty feed that filled from its first id is not)."""
        if self._feed_start is None:
            return start is not None and start[0] != 1
        return start != self._feed_start

    def _current(
        self, loader: EvidenceLoader, found: KeySummary, key: str, newest: int, claims: int
    ) -> bool:
        if found.claims != claims or newest < found.feed_id:
            return False
        if newest != found.feed_id:
            if loader.run(_KEY_CHANGED, after=found.feed_id, upto=newest, k=key):
                return False
            found.feed_id = newest  # nothing about this key since: it stays
        return True
