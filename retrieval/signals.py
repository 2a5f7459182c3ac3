"""Evidence signals and provenance for an answer or a status report (issue 16, D 1-3).

Three confidences are kept apart and never blended into one score: the extractor's
confidence in each claim, the authority of each cited source (its register tier and the
policy's rank of it) and the confidence of the resolution that decided, if one did.

Everything here is read for the citations already chosen from the requester's visible
evidence (by claim, version and resolution id: indexed reads, never a scan), so two
requesters who see the same evidence get the same signals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from fnmatch import fnmatchcase
from itertools import combinations
from typing import Any, cast

from sqlalchemy import Connection, select

from claims.tables import (
    AuthorityPolicyRow,
    ClaimRow,
    ResolutionRow,
    ResolutionWinnerRow,
    SourceRow,
    SourceVersionRow,
)
from retrieval.contract import (
    Answer,
    AnswerStatus,
    Citation,
    EvidenceSignals,
    ResolutionOut,
    Side,
    StatusReport,
)

RULE_METHOD = "rule"
RULE_DECIDER_PREFIX = "rule:"
_CHUNK = 500


@dataclass(frozen=True)
class Decision:
    """Who decided a resolution: a policy rule (``rule_id``) or a reviewer."""

    resolution_id: str
    by_rule: bool
    rule_id: str | None
    decided_by: str
    policy_version: str
    policy_id: str | None
    confidence: float | None

    def wording(self) -> str:
        """How an answer says it: a rule is never passed off as a review."""
        if self.by_rule:
            policy = f"{self.policy_id} {self.policy_version}".lstrip()
            return f"decided by rule {self.rule_id} of policy {policy}"
        return "resolved by review"


def decision(conn: Connection, resolution_id: str) -> Decision | None:
    row = conn.execute(
        select(
            ResolutionRow.method,
            ResolutionRow.decided_by,
            ResolutionRow.policy_version,
            ResolutionRow.confidence,
            AuthorityPolicyRow.policy_id,
        )
        .outerjoin(AuthorityPolicyRow, AuthorityPolicyRow.version == ResolutionRow.policy_version)
        .where(ResolutionRow.id == resolution_id)
    ).first()
    if row is None:
        return None
    method, decided_by, policy, confidence, policy_id = row
    by_rule = method == RULE_METHOD or decided_by.startswith(RULE_DECIDER_PREFIX)
    rule_id = decided_by.removeprefix(RULE_DECIDER_PREFIX) if by_rule else None
    return Decision(resolution_id, by_rule, rule_id, decided_by, policy, policy_id, confidence)


def policy_content(conn: Connection, version: str | None) -> dict[str, Any]:
    """The content of policy ``version``, else of the latest applied one ({} if none)."""
    query = select(AuthorityPolicyRow.content)
    if version:
        query = query.where(AuthorityPolicyRow.version == version)
    else:
        query = query.order_by(AuthorityPolicyRow.applied_at.desc()).limit(1)
    content = conn.execute(query).scalar()
    return content if isinstance(content, dict) else {}


def policy_tiers(conn: Connection, version: str | None) -> list[str]:
    """The tiers (highest first) of policy ``version``, else of the latest applied one."""
    tiers = policy_content(conn, version).get("tiers")
    return [str(t) for t in tiers] if isinstance(tiers, list) else []


def required_origins(content: dict[str, Any], claim_key: str) -> int | None:
    """The policy's ``min_independent_origins`` when ``claim_key`` is high-risk, else None.

    High-risk patterns match as routing matches them (exact key or shell-style glob)."""
    needed = content.get("min_independent_origins")
    patterns = content.get("high_risk_predicates") or []
    if not isinstance(needed, int) or not any(
        p == claim_key or fnmatchcase(claim_key, str(p)) for p in patterns
    ):
        return None
    return needed


def independent_origins(side: Side, clones: Iterable[tuple[str, str]]) -> int:
    """Distinct sources stating ``side``'s value, a source counted once with its surface
    clones (the same sentence under another source id is one origin, not two)."""
    source_of = {c.claim_id: c.source_id for c in side.citations}
    parent = {sid: sid for sid in source_of.values()}

    def root(sid: str) -> str:
        while parent[sid] != sid:
            parent[sid] = parent[parent[sid]]
            sid = parent[sid]
        return sid

    for left, right in clones:
        if left in source_of and right in source_of:
            parent[root(source_of[left])] = root(source_of[right])
    return len({root(sid) for sid in parent})


# The provenance of a cited claim: its extraction confidence, its source's tier, and the
# checksum of the cited version.
_Provenance = tuple[float | None, str | None, str | None]


def _provenance(conn: Connection, claim_ids: Iterable[str]) -> dict[str, _Provenance]:
    """Provenance per claim id, one statement per ``_CHUNK`` ids (a status page cites a few
    hundred claims; a statement per side cost more than the rest of the report)."""
    ids = sorted(set(claim_ids))
    found: dict[str, _Provenance] = {}
    for start in range(0, len(ids), _CHUNK):
        rows = conn.execute(
            select(
                ClaimRow.id,
                ClaimRow.confidence,
                SourceRow.authority_tier,
                SourceVersionRow.sha256,
            )
            .join(SourceRow, SourceRow.id == ClaimRow.source_id)
            .join(SourceVersionRow, SourceVersionRow.id == ClaimRow.source_version_id)
            .where(ClaimRow.id.in_(ids[start : start + _CHUNK]))
        )
        found.update({r[0]: (r[1], r[2], r[3]) for r in rows})
    return found


def tier_ranks(tiers: list[str]) -> dict[str, int]:
    """The policy's rank of each tier (0 highest; a tier listed twice keeps its first)."""
    return {tier: n for n, tier in reversed(list(enumerate(tiers)))}


class _Enricher:
    """Citations with their provenance, one enriched copy per cited claim (a status page
    cites each group's first claims from most of its listed claims)."""

    def __init__(self, found: dict[str, _Provenance], tiers: list[str]) -> None:
        self.found = found
        self.rank = tier_ranks(tiers)
        self.done: dict[tuple[Any, ...], Citation] = {}
        self.sides: dict[int, tuple[Side, Side]] = {}

    def citation(self, cite: Citation) -> Citation:
        said = (cite.claim_id, cite.source_id, cite.version_id, cite.version, cite.quote)
        key = (*said, cite.span.start, cite.span.end)
        enriched = self.done.get(key)
        if enriched is None:
            confidence, tier, checksum = self.found.get(cite.claim_id, (None, None, None))
            enriched = self.done[key] = cite.model_copy(
                update={
                    "extraction_confidence": confidence,
                    "tier": tier,
                    "tier_rank": self.rank.get(tier) if tier is not None else None,
                    "checksum": checksum,
                }
            )
        return enriched

    def side(self, side: Side) -> Side:
        # a report may hold one Side object in many places (an anchor's side in every listed
        # claim that meets it): enrich it once; the original is kept so its id stays its own
        seen = self.sides.get(id(side))
        if seen is None:
            enriched = side.model_copy(
                update={"citations": [self.citation(c) for c in side.citations]}
            )
            seen = self.sides[id(side)] = (side, enriched)
        return seen[1]


def with_provenance(conn: Connection, sides: list[Side], tiers: list[str]) -> list[Side]:
    """The sides with each citation's extraction confidence, tier, tier rank and checksum."""
    found = _provenance(conn, (c.claim_id for s in sides for c in s.citations))
    enrich = _Enricher(found, tiers)
    return [enrich.side(s) for s in sides]


def _per_namesake(sides: list[Side]) -> bool:
    """Whether the sides are namesakes answered each on its own (``retrieval.namesakes``)."""
    return len(sides) > 1 and all(s.entity for s in sides)


def _answering(sides: list[Side]) -> list[Side]:
    """The sides stating an answered value: every namesake's, else the one side."""
    return sides if _per_namesake(sides) else sides[:1]


def signals_of(
    status: AnswerStatus,
    sides: list[Side],
    deciding: Decision | None,
    origins: int = 0,
    required: int | None = None,
) -> EvidenceSignals:
    cites = [c for s in sides for c in s.citations]
    ranked = [c for c in cites if c.tier_rank is not None]
    best = min(ranked, key=lambda c: (c.tier_rank, c.tier or "")) if ranked else None
    answering = _answering(sides)
    supporting = (
        len({c.source_id for s in answering for c in s.citations})
        if status is AnswerStatus.ANSWERED and sides
        else 0
    )
    return EvidenceSignals(
        distinct_documents=len({c.source_id for c in cites}),
        supporting_sources=supporting,
        # namesakes answered per namesake (each side names its entity) are two scopes
        conflicts_detected=0 if _per_namesake(sides) else sum(1 for _ in combinations(sides, 2)),
        highest_tier=best.tier if best else None,
        highest_tier_rank=best.tier_rank if best else None,
        decided_by=("rule" if deciding.by_rule else "reviewer") if deciding else None,
        rule_id=deciding.rule_id if deciding else None,
        resolution_confidence=deciding.confidence if deciding else None,
        independent_origins=origins,
        min_independent_origins=required,
        too_few_origins=required is not None and origins < required,
    )


def with_signals(
    conn: Connection,
    result: Answer,
    deciding: Decision | None,
    clones: Iterable[tuple[str, str]] = (),
) -> Answer:
    """``result`` with provenance on every citation and its evidence signals.

    A high-risk key answered from fewer independent origins than the policy's
    ``min_independent_origins`` is not ``answered``: it becomes ``not_found`` with value
    null, its side still cited and ``signals.too_few_origins`` set (issue 16 D 4)."""
    if not result.sides:
        return result
    content = policy_content(conn, result.policy_version)
    tiers = [str(t) for t in content.get("tiers") or []]
    sides = with_provenance(conn, result.sides, tiers)
    answered = result.status is AnswerStatus.ANSWERED
    # per namesake, each namesake's value needs its own origins: the fewest of them counts
    origins = min(independent_origins(s, clones) for s in _answering(sides)) if answered else 0
    required = required_origins(content, result.claim_key or "") if answered else None
    signals = signals_of(result.status, sides, deciding, origins, required)
    if not signals.too_few_origins:
        return result.model_copy(update={"sides": sides, "signals": signals})
    return result.model_copy(
        update={
            "status": AnswerStatus.NOT_FOUND,
            "value": None,
            "unit": None,
            "reason": f"{result.claim_key!r} is high-risk: the policy asks for {required} "
            f"independent origins and {origins} state the value ({result.reason})",
            "sides": sides,
            "signals": signals,
        }
    )


def status_with_provenance(conn: Connection, report: StatusReport) -> StatusReport:
    """``report`` with provenance on its claims' citations and each resolution's confidence
    (the three confidences, kept apart, for ``claims status``).

    The provenance of every citation in the report is read at once (one statement per
    ``_CHUNK`` claims), not per side: a status page of 100 claims has about 300 sides."""
    tiers = policy_tiers(conn, report.policy_version)
    cited = [c.claim_id for s in report.sides for c in s.citations]
    for item in report.claims:
        cited.append(item.citation.claim_id)
        cited.extend(c.claim_id for s in item.sides for c in s.citations)
    enrich = _Enricher(_provenance(conn, cited), tiers)
    confidences: dict[tuple[Any, ...], float | None] = {}
    claims = []
    for item in report.claims:
        resolution = item.resolution
        if resolution is not None:
            # one read per resolution shown, not per claim it decides
            shown = (
                resolution.resolution_id,
                tuple(resolution.winner_claim_ids),
                resolution.policy_version,
                resolution.decided_at,
            )
            if shown not in confidences:
                confidences[shown] = _stored_confidence(conn, resolution)
            resolution = resolution.model_copy(update={"confidence": confidences[shown]})
        claims.append(
            item.model_copy(
                update={
                    "sides": [enrich.side(s) for s in item.sides],
                    "citation": enrich.citation(item.citation),
                    "resolution": resolution,
                }
            )
        )
    return report.model_copy(
        update={"claims": claims, "sides": [enrich.side(s) for s in report.sides]}
    )


def _stored_confidence(conn: Connection, shown: ResolutionOut) -> float | None:
    """The confidence of the stored resolution a report shows (its shown id is derived from
    visible data, so it is found again by a visible winner, its policy and its time)."""
    if not shown.winner_claim_ids:
        return None
    rows = conn.execute(
        select(ResolutionRow.decided_at, ResolutionRow.confidence)
        .join(ResolutionWinnerRow, ResolutionWinnerRow.resolution_id == ResolutionRow.id)
        .where(
            ResolutionWinnerRow.claim_id == shown.winner_claim_ids[0],
            ResolutionRow.policy_version == shown.policy_version,
        )
    )
    for decided_at, confidence in rows:
        if _same_instant(decided_at, shown.decided_at):
            return cast(float | None, confidence)
    return None


def _same_instant(a: datetime, b: datetime) -> bool:
    # SQLite gives naive UTC datetimes back; PostgreSQL aware ones
    return a.replace(tzinfo=a.tzinfo or UTC) == b.replace(tzinfo=b.tzinfo or UTC)
