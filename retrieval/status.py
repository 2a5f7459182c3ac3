"""Conflict status for a claim, a source version, a passage or a claim key, per requester.

Each function reads one evidence group (blocked by claim key), narrows it to what the
requester may see at the requested times, and reports from that alone. A thing that is
hidden from the requester and a thing that does not exist raise the same NotFoundError.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Iterable

from sqlalchemy import Connection, Engine

from claims.errors import InputError, NotFoundError
from claims.models import ConflictStatus, Requester
from retrieval.access import source_visible
from retrieval.contract import (
    AsOfOut,
    Citation,
    ClaimStatus,
    PageOut,
    ReplacementOut,
    ResolutionOut,
    Side,
    SpanOut,
    StatusReport,
    Target,
    TargetKind,
    Value,
)
from retrieval.evidence import NOW, AsOf, ClaimFact, EvidenceGroup, EvidenceLoader
from retrieval.key_summary import KeySummaries
from retrieval.public_ids import ShownIds
from retrieval.signals import status_with_provenance
from retrieval.verdicts import Replacement, Verdict, aggregate, evaluate, version_replacement

# ----------------------------------------------------------------------------- rendering


def plain_number(number: float) -> int | float:
    """500.0 -> 500 (the contract compares types: an integer limit stays an integer)."""
    return int(number) if float(number).is_integer() and abs(number) < 2**53 else number


def stated_value(claim: ClaimFact) -> Value:
    if claim.value_number is not None:
        return plain_number(claim.value_number)
    if claim.kind == "polarity" and claim.polarity:
        return claim.value_text if claim.value_text else claim.polarity
    return claim.value_text


def value_key(claim: ClaimFact) -> tuple[str, ...]:
    """Claims with equal keys state the same thing (canonical units make 1 h == 60 min)."""
    if claim.kind == "quantity":
        if claim.canonical_value is not None:
            return ("q", repr(round(claim.canonical_value, 9)), claim.canonical_unit or "")
        return ("q", repr(claim.value_number), (claim.unit or "").lower())
    if claim.kind == "polarity":
        return ("p", claim.polarity or "", claim.modality or "", (claim.value_text or "").lower())
    return ("c", (claim.value_text or "").strip().lower())


def citation(claim: ClaimFact) -> Citation:
    return Citation(
        source_id=claim.source_id,
        version=claim.version_number,
        version_id=claim.version_id,
        claim_id=claim.id,
        quote=claim.quote,
        span=SpanOut(start=claim.span_start, end=claim.span_end),
    )


def citation_order(claim: ClaimFact) -> tuple[str, int, str]:
    return (claim.source_id, claim.version_number, claim.id)


class _Reading:
    """What one claim states, worked out once per claim per report (a listed claim's sides
    repeat the claims of the key's sides; at 10,000 claims, recomputing was most of it)."""

    __slots__ = ("_cache",)

    def __init__(self) -> None:
        self._cache: dict[str, tuple[tuple[str, ...], tuple[str, str | None]]] = {}

    def __call__(self, claim: ClaimFact) -> tuple[tuple[str, ...], tuple[str, str | None]]:
        found = self._cache.get(claim.id)
        if found is None:
            found = (value_key(claim), (repr(stated_value(claim)), claim.unit))
            self._cache[claim.id] = found
        return found


def sides_of(
    claims: Iterable[ClaimFact], limit: int | None = None, reading: _Reading | None = None
) -> list[Side]:
    """Group claims by the value they state; one Side per value, citations per claim.

    With ``limit``, each side cites its first ``limit`` claims and names its first ``limit``
    sources (by source id); ``claim_count`` and ``source_count`` count them all. The
    claims given are the visible ones, so both counts are of visible claims and sources.
    """
    reading = reading or _Reading()
    groups: dict[tuple[str, ...], list[ClaimFact]] = defaultdict(list)
    stated: dict[tuple[str, ...], set[tuple[str, str | None]]] = defaultdict(set)
    for claim in claims:
        key, said = reading(claim)
        groups[key].append(claim)
        stated[key].add(said)
    out = []
    for key in sorted(groups):
        members = groups[key]
        sources = {c.source_id for c in members}
        if limit is None:
            members = sorted(members, key=citation_order)
            shown_sources = sorted(sources)
        else:
            members = heapq.nsmallest(limit, members, key=citation_order)
            shown_sources = heapq.nsmallest(limit, sources)
        first = members[0]
        # one value stated in several units ("16 weeks", "112 days") is shown as its first
        # citation writes it: a unit a reader knows, never a canonical "9676800 s"
        value, unit = stated_value(first), first.unit
        out.append(
            Side(
                value=value,
                unit=unit,
                source_ids=shown_sources,
                citations=[citation(c) for c in members],
                claim_count=len(groups[key]),
                source_count=len(sources),
            )
        )
    return out


def replacement_out(replacement: Replacement | None) -> ReplacementOut | None:
    if replacement is None:
        return None
    return ReplacementOut(
        source_id=replacement.source_id,
        version=replacement.version_number,
        version_id=replacement.version_id,
        origin=replacement.origin,
        claim_id=replacement.claim_id,
    )


def claim_status(
    verdict: Verdict,
    group: EvidenceGroup,
    ids: ShownIds | None = None,
    limit: int | None = None,
    reading: _Reading | None = None,
) -> ClaimStatus:
    claim = verdict.claim
    related = [group.claims[cid] for cid in sorted(verdict.related)]
    resolution = verdict.resolution
    ids = ids or ShownIds(group)  # never a stored id: it hashes hidden members too
    return ClaimStatus(
        claim_id=claim.id,
        claim_key=claim.claim_key,
        status=verdict.status,
        value=stated_value(claim),
        unit=claim.unit,
        citation=citation(claim),
        sides=sides_of([claim, *related], limit, reading),
        superseded_by=replacement_out(verdict.superseded_by),
        resolution=(
            ResolutionOut(
                resolution_id=ids.resolution(verdict.review_item_id, resolution),
                review_item_id=ids.item(verdict.review_item_id),
                winner_claim_ids=sorted(resolution.winners),
                policy_version=resolution.policy_version,
                decided_at=resolution.decided_at,
            )
            if resolution is not None
            else None
        ),
        review_item_id=ids.item(verdict.review_item_id),
        reasons=sorted(set(verdict.reasons)),
    )


def _policy_version(verdicts: Iterable[Verdict]) -> str | None:
    applied = [v.resolution for v in verdicts if v.resolution is not None]
    if not applied:
        return None
    return max(applied, key=lambda r: (r.decided_at, r.id)).policy_version


def _as_of_out(as_of: AsOf) -> AsOfOut:
    return AsOfOut(effective=as_of.effective, known_at=as_of.known_at)


# ----------------------------------------------------------------------------- queries


def _connect(store: Engine | Connection) -> Connection:
    return store.connect() if isinstance(store, Engine) else store


# A claim key may hold thousands of claims: its status lists one page of them, each side
# citing at most a page's worth, and each listed claim's own sides at most CLAIM_SIDE_LIMIT.
DEFAULT_PAGE_LIMIT = 100
MAX_PAGE_LIMIT = 1000
CLAIM_SIDE_LIMIT = 10


def _report(
    target: Target,
    verdicts: list[Verdict],
    group: EvidenceGroup,
    as_of: AsOf,
    superseded_by: Replacement | None = None,
    page: tuple[int, int] | None = None,
) -> StatusReport:
    """``page`` = (offset, limit): list only that slice of the claims, and at most ``limit``
    citations per side (a key may hold 10,000 claims; the response stays bounded)."""
    live = [v.claim for v in verdicts if v.superseded_by is None]
    status = ConflictStatus.SUPERSEDED if superseded_by is not None else aggregate(verdicts)
    shown = ShownIds(group)
    reading = _Reading()
    listed, page_out, limit, side_limit = verdicts, None, None, None
    if page is not None:
        offset, limit = page
        side_limit = min(limit, CLAIM_SIDE_LIMIT)
        listed = verdicts[offset : offset + limit]
        page_out = PageOut(
            offset=offset,
            limit=limit,
            total=len(verdicts),
            next_offset=offset + limit if offset + limit < len(verdicts) else None,
        )
    return StatusReport(
        target=target,
        status=status,
        superseded_by=replacement_out(superseded_by),
        policy_version=_policy_version(verdicts),
        sides=sides_of(live, limit, reading),
        claims=[claim_status(v, group, shown, side_limit, reading) for v in listed],
        page=page_out,
        as_of=_as_of_out(as_of),
    )


def status_of_claim(
    store: Engine | Connection, claim_id: str, requester: Requester, as_of: AsOf = NOW
) -> StatusReport:
    """Status of one claim. NotFoundError if it does not exist or is hidden."""
    missing = NotFoundError(f"claim {claim_id!r} not found")
    conn = _connect(store)
    try:
        loader = EvidenceLoader(conn, as_of)
        head = loader.claim_head(claim_id)
        if head is None:
            raise missing
        key, source_id = head
        source = loader.source(source_id)
        if source is None or not source_visible(source.groups, source.withdrawn, requester):
            raise missing  # before loading anything else: hidden costs what missing costs
        group = loader.group_for_keys([key]).narrow(requester, as_of)
        if claim_id not in group.claims:
            raise missing
        verdict = evaluate(group)[claim_id]
        report = _report(Target(kind=TargetKind.CLAIM, id=claim_id), [verdict], group, as_of)
        report.sides = report.claims[0].sides
        return report
    finally:
        if conn is not store:
            conn.close()


def status_of_key(
    store: Engine | Connection,
    claim_key: str,
    requester: Requester,
    as_of: AsOf = NOW,
    *,
    offset: int = 0,
    limit: int = DEFAULT_PAGE_LIMIT,
    aggregate: bool = True,
    summaries: KeySummaries | None = None,
    provenance: bool = False,
) -> StatusReport:
    """Status of the visible claims at a claim key. NotFoundError if none is visible.

    The status and the sides' values and counts cover every visible claim; ``claims`` lists
    ``limit`` of them from ``offset`` (by claim id) and each side cites at most ``limit``.
    When the key's value groups say everything about it, the report is composed from them
    (``retrieval.key_aggregate``, a bounded read); ``aggregate=False`` always reads the
    key claim by claim (the reading the aggregate one is tested equal to). ``summaries``
    keeps the key's cells between calls (``retrieval.key_summary``; the HTTP service holds
    one), so a repeated status does not read every claim of the key again.

    With ``provenance``, the report is the one ``signals.status_with_provenance`` gives:
    the aggregate reading reads each citation's provenance with the citation (at a key of
    1,200 values, copying every citation and side after was a fifth of a status call).
    """
    if offset < 0 or not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InputError(
            f"offset must be >= 0 and limit between 1 and {MAX_PAGE_LIMIT} "
            f"(got offset {offset}, limit {limit})"
        )
    conn = _connect(store)
    try:
        if aggregate:
            # imported here: the aggregate reading renders with this module's functions
            from retrieval.key_aggregate import aggregate_status_of_key

            report = aggregate_status_of_key(
                conn,
                claim_key,
                requester,
                as_of,
                offset,
                limit,
                CLAIM_SIDE_LIMIT,
                summaries,
                provenance=provenance,
            )
            if report is not None:
                return report
        group = EvidenceLoader(conn, as_of).group_for_keys([claim_key]).narrow(requester, as_of)
        verdicts = [v for v in evaluate(group).values() if v.claim.claim_key == claim_key]
        if not verdicts:
            raise NotFoundError(f"no claims found for key {claim_key!r}")
        report = _report(
            Target(kind=TargetKind.KEY, id=claim_key), verdicts, group, as_of, page=(offset, limit)
        )
        if provenance:
            report = status_with_provenance(conn, report)
        return report
    finally:
        if conn is not store:
            conn.close()


def status_of_source(
    store: Engine | Connection,
    source_id: str,
    requester: Requester,
    *,
    version: int | None = None,
    span: tuple[int, int] | None = None,
    as_of: AsOf = NOW,
) -> StatusReport:
    """Status of a source version (default: the latest), or of a passage of it (``span``).

    The version is ``superseded`` when a visible newer version replaces it; otherwise the
    status aggregates its claims (those overlapping ``span`` for a passage).
    """
    if span is not None and (span[0] < 0 or span[1] < span[0]):
        raise InputError(f"span {span[0]}..{span[1]} is not a range of character offsets")
    missing = NotFoundError(
        f"source {source_id!r} not found"
        if version is None
        else f"source {source_id!r} version {version} not found"
    )
    conn = _connect(store)
    try:
        loader = EvidenceLoader(conn, as_of)
        source = loader.source(source_id)
        if source is None or not source_visible(source.groups, source.withdrawn, requester):
            raise missing
        versions = loader.versions_of(source_id)
        chosen = [v for v in versions if version is None or v[1] == version]
        if not chosen:
            raise missing
        version_id, number = chosen[-1]
        group = loader.group_for_version(version_id).narrow(requester, as_of)
        verdicts = [v for v in evaluate(group).values() if v.claim.version_id == version_id]
        if span is not None:
            verdicts = [
                v
                for v in verdicts
                if v.claim.span_start < span[1]
                and span[0] < v.claim.span_end
                or (span[0] == span[1] and v.claim.span_start <= span[0] < v.claim.span_end)
            ]
        replaced = version_replacement(group, version_id)
        target = Target(
            kind=TargetKind.PASSAGE if span is not None else TargetKind.SOURCE,
            id=source_id,
            version=number,
            span=SpanOut(start=span[0], end=span[1]) if span is not None else None,
        )
        return _report(target, verdicts, group, as_of, superseded_by=replaced)
    finally:
        if conn is not store:
            conn.close()
