"""The ``claim_status`` read model: the requester-independent status of every claim.

Built as a requester who sees every non-withdrawn source, blocked by claim key. It feeds
dashboards, metrics and the pipeline's ``conflict_status`` asset. Per-requester responses
never read it: a precomputed status would have to be recomputed anyway whenever some of
its evidence is hidden from the requester (seed 001), so they are computed from the same
base rows, in the same way (``retrieval.verdicts``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, bindparam, delete, func, select

from claims.edges.value_groups import is_unknown_key
from claims.models import Requester
from claims.store.bulk import insert_records
from claims.store.deferred_indexes import first_build, table_is_empty
from claims.tables import ClaimRow, ClaimStatusRow, SourceGrantRow
from retrieval.evidence import EvidenceLoader
from retrieval.status_delta import group_of_part, part_of_key
from retrieval.verdicts import Verdict, evaluate

_C = ClaimRow.__table__.c
_CS: Any = ClaimStatusRow.__table__
KEYS_PER_BATCH = 500


def everyone(conn: Connection) -> Requester:
    """A requester in every granted group: sees every source that is not withdrawn."""
    groups = conn.execute(select(SourceGrantRow.group_name).distinct()).scalars()
    return Requester(principal="(read model)", groups=sorted(groups))


def build_claim_status(
    conn: Connection,
    claim_keys: Iterable[str] | None = None,
    *,
    now: datetime | None = None,
    changed_versions: Mapping[str, Collection[str] | None] | None = None,
) -> dict[str, int]:
    """Bring the rows of ``claim_keys`` (None: the whole table) up to date; returns the
    statuses of the claims evaluated, by count.

    Only rows whose status (or item, resolution, replacing version, policy version)
    changed are rewritten, stamped ``now``; the others keep their row and ``computed_at``,
    so an incremental run over a key of thousands of claims writes the few that moved.
    ``changed_versions``: key -> the source versions whose claims alone changed there (the
    change feed's ``Pending.versions``; None for a key that changed whole): such a key is
    evaluated in part where that is exact (``retrieval.status_delta``), with the rows a
    whole evaluation writes. Idempotent: the same store gives the same rows.
    """
    now = now or datetime.now(UTC)
    # the read model stores no reasons, and a status reads no quote, scope or time
    loader = EvidenceLoader(conn, with_reasons=False, with_text=False)
    generation = loader.generation()
    reader = everyone(conn)
    full = claim_keys is None
    fresh = False  # a first full build into an empty table: nothing stored to compare with
    claims = 0
    if claim_keys is None:
        # the keys and a count, not every claim: the rows are read a batch of keys at a
        # time, so a full build holds one batch, whatever the store's size (issue 33)
        keys = sorted(
            conn.execute(
                select(_C.claim_key).where(_C.generation == generation).distinct()
            ).scalars()
        )
        fresh = table_is_empty(conn, _CS.name)
        if fresh:
            claims = int(
                conn.execute(
                    select(func.count()).select_from(ClaimRow).where(_C.generation == generation)
                ).scalar()
                or 0
            )
    else:
        keys = sorted(set(claim_keys))
    counts: Counter[str] = Counter()
    if not full and changed_versions:
        done = _write_parts(conn, loader, reader, keys, changed_versions, counts, now)
        keys = [k for k in keys if k not in done]
    # a first full build into an empty table builds its index after the rows
    with first_build(conn, _CS.name, claims):
        for start in range(0, len(keys), KEYS_PER_BATCH):
            chunk = keys[start : start + KEYS_PER_BATCH]
            batch_stored = {} if fresh else _stored_rows(conn, chunk)
            _write_batch(conn, loader, reader, chunk, batch_stored, counts, now)
            _delete(conn, list(batch_stored))  # rows of claims no longer at these keys
    if full and not fresh:  # rows of claims no longer in the generation, at other keys
        gone = ~select(_C.id).where(_C.id == _CS.c.claim_id, _C.generation == generation).exists()
        conn.execute(delete(_CS).where(gone))
    return dict(sorted(counts.items()))


def _write_batch(
    conn: Connection,
    loader: EvidenceLoader,
    reader: Requester,
    chunk: list[str],
    stored: dict[str, tuple[object, ...]],
    counts: Counter[str],
    now: datetime,
) -> None:
    """Evaluate the claims of one batch of keys and write the rows that changed; each
    claim's stored row is taken out of ``stored`` (what is left there matches no claim)."""
    wanted = set(chunk)
    # keys with no subject are never linked: only supersession can give them a status,
    # and their quotes and facts need not be read (20,000 bare numbers in one file)
    linked = [k for k in chunk if not is_unknown_key(k)]
    unlinked = [k for k in chunk if is_unknown_key(k)]
    groups = [loader.group_for_keys(linked)] if linked else []
    groups += [loader.group_for_unlinked_keys(unlinked)] if unlinked else []
    verdicts = [v for group in groups for v in evaluate(group.narrow(reader)).values()]
    # those reached through an edge are written by their own key's batch
    _write_verdicts(conn, [v for v in verdicts if v.claim.claim_key in wanted], stored, counts, now)


def _write_parts(
    conn: Connection,
    loader: EvidenceLoader,
    reader: Requester,
    keys: list[str],
    changed_versions: Mapping[str, Collection[str] | None],
    counts: Counter[str],
    now: datetime,
) -> set[str]:
    """Evaluate the keys that can go in part (``retrieval.status_delta``) and write their
    rows that changed; returns those keys (the others are left for a whole evaluation)."""
    done: set[str] = set()
    for key in keys:
        part = part_of_key(loader, key, changed_versions.get(key) or ())
        if part is None:
            continue
        group = group_of_part(loader, part)
        verdicts = evaluate(group.narrow(reader))
        mine = [v for c, v in verdicts.items() if c in part.claim_ids and v.claim.claim_key == key]
        stored = _stored_rows_of_claims(conn, key, sorted(part.claim_ids))
        _write_verdicts(conn, mine, stored, counts, now)
        _delete(conn, list(stored))  # rows of the part's claims no longer at this key
        done.add(key)
    return done


def _write_verdicts(
    conn: Connection,
    verdicts: list[Verdict],
    stored: dict[str, tuple[object, ...]],
    counts: Counter[str],
    now: datetime,
) -> None:
    """Write the rows of ``verdicts`` that differ from ``stored`` (claim id -> its values;
    each claim's row is taken out of it, what is left matches no verdict)."""
    rows: list[_StatusRow] = []
    replaced: list[str] = []
    for verdict in verdicts:
        claim = verdict.claim
        resolution = verdict.resolution
        counts[verdict.status.value] += 1
        values = (
            claim.claim_key,
            verdict.status.value,
            verdict.review_item_id,
            resolution.id if resolution else None,
            verdict.superseded_by.version_id if verdict.superseded_by else None,
            resolution.policy_version if resolution else None,
        )
        before = stored.pop(claim.id, None)
        if before == values:
            continue  # unchanged: the row stays as it is
        if before is not None:
            replaced.append(claim.id)  # a claim with no stored row needs no delete
        rows.append(_StatusRow(claim.id, *values))
    _delete(conn, replaced)
    insert_records(conn, _CS, rows, {"computed_at": now})


class _StatusRow(NamedTuple):
    """A ``claim_status`` row but its ``computed_at`` (one stamp for the whole write)."""

    claim_id: str
    claim_key: str
    status: str
    review_item_id: str | None
    resolution_id: str | None
    superseded_by_version_id: str | None
    policy_version: str | None


# the columns of a row that say something (``computed_at`` only says when it was written)
_COMPARED = _StatusRow._fields[1:]


def _stored_rows(conn: Connection, claim_keys: list[str] | None) -> dict[str, tuple[object, ...]]:
    """claim id -> its stored values in ``_COMPARED`` order (of ``claim_keys``, or all)."""
    stmt = select(_CS.c.claim_id, *(_CS.c[name] for name in _COMPARED))
    if claim_keys is None:
        return {r[0]: tuple(r[1:]) for r in conn.execute(stmt)}
    stmt = stmt.where(_CS.c.claim_key.in_(bindparam("keys", expanding=True)))
    return {r[0]: tuple(r[1:]) for r in conn.execute(stmt, {"keys": claim_keys})}


def _stored_rows_of_claims(
    conn: Connection, claim_key: str, claim_ids: list[str]
) -> dict[str, tuple[object, ...]]:
    """``_stored_rows`` of ``claim_ids`` at ``claim_key`` (by the primary key)."""
    stmt = select(_CS.c.claim_id, _CS.c.claim_key, *(_CS.c[name] for name in _COMPARED))
    stmt = stmt.where(_CS.c.claim_id.in_(bindparam("ids", expanding=True)))
    found: dict[str, tuple[object, ...]] = {}
    for start in range(0, len(claim_ids), KEYS_PER_BATCH):
        chunk = claim_ids[start : start + KEYS_PER_BATCH]
        for row in conn.execute(stmt, {"ids": chunk}):
            if row[1] == claim_key:
                found[row[0]] = tuple(row[2:])
    return found


def _delete(conn: Connection, claim_ids: list[str]) -> None:
    for start in range(0, len(claim_ids), KEYS_PER_BATCH):
        conn.execute(
            delete(_CS).where(_CS.c.claim_id.in_(bindparam("ids", expanding=True))),
            {"ids": claim_ids[start : start + KEYS_PER_BATCH]},
        )
