"""Provenance on a status report is read once per report, and says what the per-side
reading said (issue 14.1: ``GET /api/status`` of a large key read it side by side).

``status_with_provenance`` adds to every citation of a report its claim's extraction
confidence, its source's tier and policy rank and its version's checksum, and to every
resolution shown its stored confidence. It used to read them with a statement per side
(about 300 per page of a large key); it now reads every cited claim at once. The reading it
replaced is kept below as the reference, and both must give the same report for every
requester, on a store of several sides, tiers and restricted sources, and on a store whose
conflicts a policy rule decided.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from review_ledger import routed_ledger
from sqlalchemy import Connection, Engine, select, update
from test_retrieval_status_aggregate import KEY, READERS, _branch_notes, _notes

from claims.errors import NotFoundError
from claims.models import Requester
from claims.store import make_engine, transaction
from claims.tables import (
    ClaimRow,
    SourceRow,
    SourceVersionRow,
)
from retrieval.contract import Citation, Side, StatusReport
from retrieval.signals import _stored_confidence, policy_tiers, status_with_provenance
from retrieval.status import status_of_claim, status_of_key, status_of_source
from review.policy import DEFAULT_POLICY_FILE, apply_policy, load_policy

# --------------------------------------------------------------------------- the reference


def _reference_with_provenance(conn: Connection, sides: list[Side], tiers: list[str]) -> list[Side]:
    """The per-side reading ``status_with_provenance`` used before (one read per side)."""
    claim_ids = sorted({c.claim_id for s in sides for c in s.citations})
    found: dict[str, tuple[Any, Any, Any]] = {}
    for start in range(0, len(claim_ids), 500):
        rows = conn.execute(
            select(
                ClaimRow.id, ClaimRow.confidence, SourceRow.authority_tier, SourceVersionRow.sha256
            )
            .join(SourceRow, SourceRow.id == ClaimRow.source_id)
            .join(SourceVersionRow, SourceVersionRow.id == ClaimRow.source_version_id)
            .where(ClaimRow.id.in_(claim_ids[start : start + 500]))
        )
        found.update({r[0]: (r[1], r[2], r[3]) for r in rows})

    def enriched(cite: Citation) -> Citation:
        confidence, tier, checksum = found.get(cite.claim_id, (None, None, None))
        return cite.model_copy(
            update={
                "extraction_confidence": confidence,
                "tier": tier,
                "tier_rank": tiers.index(tier) if tier in tiers else None,
                "checksum": checksum,
            }
        )

    return [s.model_copy(update={"citations": [enriched(c) for c in s.citations]}) for s in sides]


def _reference(conn: Connection, report: StatusReport) -> StatusReport:
    tiers = policy_tiers(conn, report.policy_version)
    claims = []
    for item in report.claims:
        single = Side(
            value=None, unit=None, source_ids=[item.citation.source_id], citations=[item.citation]
        )
        sides = _reference_with_provenance(conn, [*item.sides, single], tiers)
        resolution = item.resolution
        if resolution is not None:
            stated = _stored_confidence(conn, resolution)
            resolution = resolution.model_copy(update={"confidence": stated})
        claims.append(
            item.model_copy(
                update={
                    "sides": sides[:-1],
                    "citation": sides[-1].citations[0],
                    "resolution": resolution,
                }
            )
        )
    return report.model_copy(
        update={"claims": claims, "sides": _reference_with_provenance(conn, report.sides, tiers)}
    )


def _both(engine: Engine, report: StatusReport) -> tuple[str, str]:
    with engine.connect() as conn:
        batched = status_with_provenance(conn, report)
        reference = _reference(conn, report)
    return batched.model_dump_json(), reference.model_dump_json()


def _citations(report_json: str) -> list[dict[str, Any]]:
    data = json.loads(report_json)
    found = [c for s in data["sides"] for c in s["citations"]]
    for item in data["claims"]:
        found.append(item["citation"])
        found += [c for s in item["sides"] for c in s["citations"]]
    return found


# --------------------------------------------------------------------------- stores


@pytest.fixture
def branch_store(migrated_url: str) -> Iterator[Engine]:
    """60 branch notes on one fee: six values, official and reference tiers, a third
    legal-only, every seventh finance-only, some stating the fee twice; the default policy
    ranks the tiers; extraction confidences differ per claim."""
    engine = _notes(migrated_url, _branch_notes(60), [])
    with transaction(engine) as session:
        apply_policy(session, load_policy(DEFAULT_POLICY_FILE), actor="test")
    with engine.begin() as conn:
        ids = sorted(conn.execute(select(ClaimRow.id)).scalars())
        for n, claim_id in enumerate(ids):
            confidence = [0.9, 0.55, 0.72][n % 3]
            conn.execute(
                update(ClaimRow).where(ClaimRow.id == claim_id).values(confidence=confidence)
            )
    yield engine
    engine.dispose()


def test_batched_provenance_equals_the_per_side_reading_on_a_large_key(
    branch_store: Engine,
) -> None:
    ranked = confidences = 0
    for reader in READERS:
        for aggregate in (True, False):
            for offset, limit in ((0, 100), (0, 5), (11, 7)):
                report = status_of_key(
                    branch_store, KEY, reader, offset=offset, limit=limit, aggregate=aggregate
                )
                batched, reference = _both(branch_store, report)
                assert batched == reference, (reader, aggregate, offset, limit)
                cites = _citations(batched)
                ranked += sum(c["tier_rank"] == 2 for c in cites)  # reference: 3rd tier
                confidences += len({c["extraction_confidence"] for c in cites})
                assert all(len(c["checksum"]) == 64 for c in cites)
    assert ranked and confidences  # the store exercises tiers and confidences


def test_a_key_read_with_its_provenance_equals_the_report_enriched_after(
    branch_store: Engine,
) -> None:
    # the aggregate reading reads each citation's provenance with it (issue 31.1) instead of
    # copying every citation and side after: the same report, for every reader and page
    for reader in READERS:
        for aggregate in (True, False):
            for offset, limit in ((0, 100), (0, 5), (11, 7)):
                page: dict[str, Any] = {"offset": offset, "limit": limit, "aggregate": aggregate}
                read_with = status_of_key(branch_store, KEY, reader, provenance=True, **page)
                with branch_store.connect() as conn:
                    after = status_with_provenance(
                        conn, status_of_key(branch_store, KEY, reader, **page)
                    )
                assert read_with.model_dump_json() == after.model_dump_json(), (reader, page)
                assert all(c["checksum"] for c in _citations(read_with.model_dump_json()))


def test_batched_provenance_equals_the_per_side_reading_for_claims_and_sources(
    branch_store: Engine,
) -> None:
    with branch_store.connect() as conn:
        claims = sorted(conn.execute(select(ClaimRow.id, ClaimRow.source_id)).all())
    shown = 0
    for reader in READERS:
        for claim_id, source_id in claims[::9]:
            for report in (
                _visible(status_of_claim, branch_store, claim_id, reader),
                _visible(status_of_source, branch_store, source_id, reader),
            ):
                if report is not None:
                    batched, reference = _both(branch_store, report)
                    assert batched == reference
                    shown += 1
    assert shown


def _visible(call: Callable[..., StatusReport], *args: Any) -> StatusReport | None:
    """The report, or None for a claim or source hidden from the reader."""
    try:
        return call(*args)
    except NotFoundError:
        return None


def test_a_rule_decided_resolution_keeps_its_confidence_when_batched(migrated_url: str) -> None:
    engine = make_engine(migrated_url)
    try:
        routed_ledger(engine)
        with engine.connect() as conn:
            rows = conn.execute(select(ClaimRow.id, ClaimRow.claim_key)).all()
        anyone = Requester(principal="anyone")
        decided = 0
        for key in sorted({key for _, key in rows}):
            report = status_of_key(engine, key, anyone)
            batched, reference = _both(engine, report)
            assert batched == reference, key
            decided += sum(
                1
                for item in json.loads(batched)["claims"]
                if item["resolution"] and item["resolution"]["confidence"] is not None
            )
        for claim_id, _ in sorted(rows):
            batched, reference = _both(engine, status_of_claim(engine, claim_id, anyone))
            assert batched == reference, claim_id
        assert decided  # the policy's rule decided at least one conflict
    finally:
        engine.dispose()
