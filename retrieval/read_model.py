"""The ``claim_status`` read model: the requester-independent status of every claim.

Built as a requester who sees every non-withdrawn source, blocked by claim key. It feeds
dashboards, metrics and the pipeline's ``conflict_status`` asset. Per-requester responses
never read it: a precomputed status would have to be recomputed anyway whenever some of
its evidence is hidden from the requester (seed 001), so they are computed from the same
base rows, in the same way (``retrieval.verdicts``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, delete, select

from claims.edges.value_groups import is_unknown_key
from claims.models import Requester
from claims.store.bulk import insert_rows
from claims.tables import ClaimRow, ClaimStatusRow, SourceGrantRow
from retrieval.evidence import EvidenceLoader
from retrieval.verdicts import evaluate

_C = ClaimRow.__table__.c
_CS: Any = ClaimStatusRow.__table__
KEYS_PER_BATCH = 500


def everyone(conn: Connection) -> Requester:
    """A requester in every granted group: sees every source that is not withdrawn."""
    groups = conn.execute(select(SourceGrantRow.group_name).distinct()).scalars()
    return Requester(principal="(read model)", groups=sorted(groups))


def build_claim_status(
    conn: Connection, claim_keys: Iterable[str] | None = None, *, now: datetime | None = None
) -> dict[str, int]:
    """Rewrite the rows of ``claim_keys`` (None: the whole table); returns counts by status.

    Idempotent: the same store gives the same rows (only ``computed_at`` moves).
    """
    now = now or datetime.now(UTC)
    loader = EvidenceLoader(conn, with_reasons=False)  # the read model stores no reasons
    generation = loader.generation()
    reader = everyone(conn)
    if claim_keys is None:
        conn.execute(delete(_CS))
        keys = sorted(
            set(conn.execute(select(_C.claim_key).where(_C.generation == generation)).scalars())
        )
    else:
        keys = sorted(set(claim_keys))
    counts: Counter[str] = Counter()
    for start in range(0, len(keys), KEYS_PER_BATCH):
        chunk = keys[start : start + KEYS_PER_BATCH]
        if claim_keys is not None:
            conn.execute(
                delete(_CS).where(_CS.c.claim_key.in_(bindparam("keys", expanding=True))),
                {"keys": chunk},
            )
        wanted = set(chunk)
        rows = []
        # keys with no subject are never linked: only supersession can give them a status,
        # and their quotes and facts need not be read (20,000 bare numbers in one file)
        linked = [k for k in chunk if not is_unknown_key(k)]
        unlinked = [k for k in chunk if is_unknown_key(k)]
        groups = [loader.group_for_keys(linked)] if linked else []
        groups += [loader.group_for_unlinked_keys(unlinked)] if unlinked else []
        verdicts = [v for group in groups for v in evaluate(group.narrow(reader)).values()]
        for verdict in verdicts:
            claim = verdict.claim
            if claim.claim_key not in wanted:
                continue  # reached through an edge; its own key batch writes it
            resolution = verdict.resolution
            rows.append(
                {
                    "claim_id": claim.id,
                    "claim_key": claim.claim_key,
                    "status": verdict.status.value,
                    "review_item_id": verdict.review_item_id,
                    "resolution_id": resolution.id if resolution else None,
                    "superseded_by_version_id": (
                        verdict.superseded_by.version_id if verdict.superseded_by else None
                    ),
                    "policy_version": resolution.policy_version if resolution else None,
                    "computed_at": now,
                }
            )
            counts[verdict.status.value] += 1
        if rows:
            insert_rows(conn, _CS, rows)
    return dict(sorted(counts.items()))
