"""The change feed: which claim keys changed, and how far each consumer has processed them.

Every write that changes what a claim key's edges, review items or statuses depend on
records the key here, in the same transaction (``record_changes``): new claims, register
entries, edge evaluations, review items and resolutions (routing, reviewers' decisions in
the UI, the CLI or the HTTP API), authority policy applications. A consumer (the edge
builder, review routing, the status read model) reads the keys recorded after its cursor
(``pending``), does its work and moves its cursor (``acknowledge``) in the transaction that
writes its output. So whatever dies
mid-way, the store alone says what is left to do: a deleted store has no cursors (the next
run does everything), and losing Dagster's history loses nothing.

Functions take a ``Session`` or a ``Connection``: the status read model writes through Core.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from claims.store.batches import batches
from claims.store.bulk import insert_rows
from claims.tables import (
    ClaimKeyChangeRow,
    ClaimRow,
    ConsumerCursorRow,
    ReviewItemRow,
    SourceSupersedesRow,
    SourceVersionRow,
    VersionExtractionRow,
    VersionSupersessionRow,
)

Executor = Session | Connection

ALL_KEYS = "*"  # a change to every claim key (a full edge evaluation)

# kinds of change
CLAIMS = "claims"  # claims of a source version were written (or taken out)
REGISTER = "register"  # a source's register entry changed (tier, access, supersedes, dates)
EDGES = "edges"  # the edges of the key were re-evaluated
REVIEW = "review"  # a review item or resolution of the key was opened, claimed, decided...
POLICY = "policy"  # an authority policy was applied (key ``*``: it may change every key)

_CHUNK = 500


@dataclass
class Pending:
    """What a consumer has not processed yet: ``keys`` (None: every key) up to ``upto``."""

    keys: set[str] | None = field(default_factory=set)
    upto: int = 0
    changes: int = 0
    state: dict[str, Any] | None = None  # what the consumer recorded last time (None: never)
    full_because: str = ""
    # key -> the source versions whose claims changed there (``record_version_changes``);
    # None for a key some change concerned whole (a register entry, an erasure, edges...)
    versions: dict[str, set[str] | None] = field(default_factory=dict)

    def changed_versions(self, key: str) -> set[str] | None:
        """The versions whose claims changed at ``key`` (None: the key changed whole)."""
        return self.versions.get(key)

    def _note(self, key: str, version_id: str | None) -> None:
        if version_id is None:
            self.versions[key] = None
        elif key not in self.versions:
            self.versions[key] = {version_id}
        else:
            known = self.versions[key]
            if known is not None:
                known.add(version_id)

    @property
    def nothing(self) -> bool:
        """Nothing to do: an incremental refresh of no key."""
        return self.keys is not None and not self.keys

    def everything(self, because: str) -> None:
        if self.keys is not None:
            self.keys = None
            self.full_because = because

    def force(self, because: str) -> None:
        """Everything, for a reason that comes first (a full run asked for)."""
        self.keys = None
        self.full_because = because

    def add(self, keys: Iterable[str]) -> None:
        if self.keys is not None:
            self.keys.update(keys)

    @property
    def mode(self) -> str:
        return "full" if self.keys is None else "incremental"


def record_changes(
    executor: Executor, keys: Iterable[str], kind: str, generation: str | None = None
) -> int:
    """Record that ``keys`` changed (once each), in the caller's transaction."""
    now = datetime.now(UTC)
    rows = [
        {"claim_key": key, "kind": kind, "generation": generation, "created_at": now}
        for key in sorted(set(keys))
    ]
    if rows:  # the driver's executemany (a version batch of a first run: ~1,500 keys)
        insert_rows(executor, ClaimKeyChangeRow.__table__, rows)  # type: ignore[arg-type]
    return len(rows)


def record_edge_changes(
    executor: Executor,
    keys: Iterable[str],
    in_part: Mapping[str, Collection[str]],
    generation: str | None,
) -> int:
    """The edges of ``keys`` were re-evaluated (``[ALL_KEYS]``: all of them). A key evaluated
    in part (``in_part``: key -> the versions whose claims changed there, from
    ``claims.edge_delta``) is recorded once per version, as ``record_version_changes``
    records claims: what changed there is confined to those versions' claims, so the
    statuses can follow from them (``retrieval.status_delta``). Every other key is recorded
    whole."""
    now = datetime.now(UTC)
    rows: list[dict[str, Any]] = []
    for key in sorted(set(keys)):
        versions: list[str | None] = [*sorted(in_part.get(key) or ())] if key != ALL_KEYS else []
        for version_id in versions or [None]:
            rows.append(
                {
                    "claim_key": key,
                    "kind": EDGES,
                    "generation": generation,
                    "created_at": now,
                    "source_version_id": version_id,
                }
            )
    if rows:
        insert_rows(executor, ClaimKeyChangeRow.__table__, rows)  # type: ignore[arg-type]
    return len({row["claim_key"] for row in rows})


_EVERYTHING_BECAUSE = {
    EDGES: "a full edge evaluation since the last run",
    POLICY: "an authority policy was applied",
}


def changed_after(executor: Executor, change_id: int, kind: str) -> bool:
    """Whether any writer recorded a change of ``kind`` after ``change_id`` (by the id index)."""
    found = executor.execute(
        select(ClaimKeyChangeRow.id)
        .where(ClaimKeyChangeRow.id > change_id, ClaimKeyChangeRow.kind == kind)
        .limit(1)
    ).scalar()
    return found is not None


def newest_change_id(executor: Executor) -> int:
    return int(executor.execute(select(func.max(ClaimKeyChangeRow.id))).scalar() or 0)


def pending(
    executor: Executor,
    consumer: str,
    *,
    kinds: Collection[str],
    generation: str | None = None,
) -> Pending:
    """The keys of ``kinds`` recorded after ``consumer``'s cursor (in ``generation`` or in
    every generation); everything when the consumer has no cursor yet."""
    cursor = executor.execute(
        select(ConsumerCursorRow.change_id, ConsumerCursorRow.state).where(
            ConsumerCursorRow.consumer == consumer
        )
    ).first()
    found = Pending(upto=newest_change_id(executor))
    if cursor is None:
        found.everything("first run on this store")
        return found
    after, state = cursor
    found.state = dict(state or {})
    query = select(
        ClaimKeyChangeRow.claim_key,
        ClaimKeyChangeRow.kind,
        ClaimKeyChangeRow.generation,
        ClaimKeyChangeRow.source_version_id,
    ).where(
        ClaimKeyChangeRow.id > after,
        ClaimKeyChangeRow.id <= found.upto,
        ClaimKeyChangeRow.kind.in_(sorted(kinds)),
    )
    for key, kind, key_generation, version_id in executor.execute(query):
        # the generation is compared here, not in SQL: one index on the id is enough
        if generation is not None and key_generation not in (None, generation):
            continue
        found.changes += 1
        if key == ALL_KEYS:
            found.everything(_EVERYTHING_BECAUSE.get(kind, "every key changed since the last run"))
        found.add([key])
        found._note(key, version_id)
    return found


def acknowledge(
    executor: Executor, consumer: str, upto: int, state: Mapping[str, Any] | None = None
) -> None:
    """Move ``consumer``'s cursor to ``upto`` (and remember ``state``), in the transaction
    that wrote its output."""
    now = datetime.now(UTC)
    values = {"change_id": upto, "state": dict(state or {}), "updated_at": now}
    updated = executor.execute(
        update(ConsumerCursorRow).where(ConsumerCursorRow.consumer == consumer).values(**values)
    )
    if updated.rowcount == 0:  # type: ignore[attr-defined]
        executor.execute(insert(ConsumerCursorRow).values(consumer=consumer, **values))


def cursors(executor: Executor) -> dict[str, int]:
    """Consumer -> last change id acknowledged."""
    rows = executor.execute(select(ConsumerCursorRow.consumer, ConsumerCursorRow.change_id))
    return {consumer: change_id for consumer, change_id in rows if consumer != _IDENTITY}


def prune(executor: Executor, consumers: Collection[str]) -> int:
    """Delete the changes every one of ``consumers`` has acknowledged (but the newest of
    them); returns how many.

    A consumer without a cursor keeps everything (it will do a full refresh anyway, so it
    needs no change either, but it is not known to be one yet): nothing is pruned then.
    """
    known = cursors(executor)
    if not consumers or any(name not in known for name in consumers):
        return 0
    upto = min(known[name] for name in consumers)
    # The newest acknowledged row stays: SQLite numbers a new row max(id) + 1, so emptying
    # the table would hand out ids the cursors have already passed.
    result = executor.execute(delete(ClaimKeyChangeRow).where(ClaimKeyChangeRow.id < upto))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


# Not a consumer: the row whose state names this store, so what a scheduler keys its
# requests by changes when the store is deleted or replaced (the same files are then new).
_IDENTITY = "store-identity"


def store_identity(executor: Executor) -> str:
    """A random id of this store, made on first use (in the caller's transaction)."""
    state = executor.execute(
        select(ConsumerCursorRow.state).where(ConsumerCursorRow.consumer == _IDENTITY)
    ).scalar()
    if state and state.get("id"):
        return str(state["id"])
    identity = uuid.uuid4().hex
    acknowledge(executor, _IDENTITY, 0, {"id": identity})
    return identity


# --------------------------------------------------------------------------- what changed


def keys_of_sources(executor: Executor, source_ids: Collection[str]) -> set[str]:
    """Claim keys stated by any version of ``source_ids`` (every generation: more is only
    slower), together with the sources the register links them to."""
    scope = set(source_ids)
    if not scope:
        return set()
    links = executor.execute(
        select(SourceSupersedesRow.source_id, SourceSupersedesRow.supersedes_source_id)
    )
    for newer, older in links:
        if newer in source_ids:
            scope.add(older)
        if older in source_ids:
            scope.add(newer)
    return _distinct_keys(executor, ClaimRow.claim_key, ClaimRow.source_id, scope)


def record_source_changes(
    executor: Executor, source_ids: Collection[str], also: Collection[str] = ()
) -> int:
    """A register change to ``source_ids``: their claim keys (and those of the sources
    linked to them, ``also`` among them: links the change removed) changed."""
    if not source_ids:
        return 0
    return record_changes(executor, keys_of_sources(executor, {*source_ids, *also}), REGISTER)


def record_version_changes(
    executor: Executor, version_ids: Collection[str], generation: str
) -> int:
    """Claims of ``version_ids`` were written in ``generation``: their keys changed, and so
    did those of the versions each replaces or is replaced by (supersession moves)."""
    related = set(version_ids)
    ordered = sorted(version_ids)
    for start in range(0, len(ordered), _CHUNK):
        chunk = ordered[start : start + _CHUNK]
        rows = executor.execute(
            select(
                VersionSupersessionRow.newer_version_id, VersionSupersessionRow.older_version_id
            ).where(
                or_(
                    VersionSupersessionRow.newer_version_id.in_(chunk),
                    VersionSupersessionRow.older_version_id.in_(chunk),
                )
            )
        )
        for newer, older in rows:
            related.update((newer, older))
        # Supersessions are derived when edges are built, so a new version of a known source
        # has none yet: the source's other versions are related too.
        sources = executor.execute(
            select(SourceVersionRow.source_id).where(SourceVersionRow.id.in_(chunk)).distinct()
        ).scalars()
        source_list = sorted(sources)
        if source_list:
            siblings = executor.execute(
                select(SourceVersionRow.id, SourceVersionRow.source_id).where(
                    SourceVersionRow.source_id.in_(source_list)
                )
            )
            related.update(vid for vid, _ in siblings)
    # one row per key and version: the edge step re-evaluates a large key from the claims
    # of these versions and the first claims of its groups (claims/edge_delta.py)
    pairs: set[tuple[str, str]] = set()
    related_list = sorted(related)
    for start in range(0, len(related_list), _CHUNK):
        stated = executor.execute(
            select(ClaimRow.claim_key, ClaimRow.source_version_id, ClaimRow.generation)
            .where(ClaimRow.source_version_id.in_(related_list[start : start + _CHUNK]))
            .distinct()
        )
        for key, vid, key_generation in stated:
            if key_generation == generation:
                pairs.add((key, vid))
    now = datetime.now(UTC)
    records = [
        {
            "claim_key": key,
            "kind": CLAIMS,
            "generation": generation,
            "created_at": now,
            "source_version_id": vid,
        }
        for key, vid in sorted(pairs)
    ]
    if records:
        insert_rows(executor, ClaimKeyChangeRow.__table__, records)  # type: ignore[arg-type]
    return len({key for key, _ in pairs})


# --------------------------------------------------------------------------- extraction


def mark_extracted(executor: Executor, counts: Mapping[str, int], generation: str) -> None:
    """Versions (id -> claims written) were extracted in ``generation`` (idempotent)."""
    if not counts:
        return
    ids = sorted(counts)
    done: set[str] = set()
    for start in range(0, len(ids), _CHUNK):
        done.update(
            executor.execute(
                select(VersionExtractionRow.source_version_id).where(
                    VersionExtractionRow.source_version_id.in_(ids[start : start + _CHUNK]),
                    VersionExtractionRow.generation == generation,
                )
            ).scalars()
        )
    now = datetime.now(UTC)
    rows = [
        {
            "source_version_id": vid,
            "generation": generation,
            "claims": counts[vid],
            "extracted_at": now,
        }
        for vid in ids
        if vid not in done
    ]
    if rows:
        insert_rows(executor, VersionExtractionRow.__table__, rows)  # type: ignore[arg-type]


def forget_extractions(executor: Executor, version_ids: Collection[str], generation: str) -> None:
    """Their claims were taken out: these versions need extracting again."""
    ordered = sorted(version_ids)
    for start in range(0, len(ordered), _CHUNK):
        executor.execute(
            delete(VersionExtractionRow).where(
                VersionExtractionRow.source_version_id.in_(ordered[start : start + _CHUNK]),
                VersionExtractionRow.generation == generation,
            )
        )


def extracted_versions(executor: Executor, generation: str) -> set[str]:
    """Ids of the versions extracted in ``generation``."""
    rows = executor.execute(
        select(VersionExtractionRow.source_version_id, VersionExtractionRow.generation)
    )
    return {vid for vid, version_generation in rows if version_generation == generation}


# --------------------------------------------------------------------------- review


def record_review_changes(executor: Executor, claim_keys: Iterable[str]) -> int:
    """Review items of ``claim_keys`` were opened, claimed, released, decided or reopened
    (by routing or by a reviewer), in the caller's transaction."""
    return record_changes(executor, claim_keys, REVIEW)


def record_item_changes(executor: Executor, item_ids: Iterable[str]) -> int:
    """The same, for writers that know the review items but not their claim keys."""
    return record_changes(executor, keys_of_items(executor, item_ids), REVIEW)


def record_policy_applied(executor: Executor) -> int:
    """An authority policy was applied: materiality, routing and every resolved status may
    change, so every key did."""
    return record_changes(executor, [ALL_KEYS], POLICY)


def keys_of_items(executor: Executor, item_ids: Iterable[str]) -> set[str]:
    """Claim keys of these review items."""
    return _distinct_keys(executor, ReviewItemRow.claim_key, ReviewItemRow.id, item_ids)


def _distinct_keys(executor: Executor, key: Any, id_column: Any, ids: Iterable[str]) -> set[str]:
    """The distinct ``key`` values of the rows whose ``id_column`` is among ``ids``."""
    keys: set[str] = set()
    for chunk in batches(sorted(set(ids))):
        keys.update(executor.execute(select(key).where(id_column.in_(chunk)).distinct()).scalars())
    return keys
