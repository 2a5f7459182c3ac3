"""The response shapes of the retrieval layer (Python API, CLI --json and HTTP alike).

Every field is computed from the requester's visible evidence only.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from claims.models import ConflictStatus


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class AnswerStatus(StrEnum):
    ANSWERED = "answered"
    CONFLICT = "conflict"
    NOT_FOUND = "not_found"


class SpanOut(_Out):
    start: int
    end: int


class Citation(_Out):
    """One piece of evidence: the exact source version, claim, quote and span."""

    source_id: str
    version: int = Field(description="Version number of the source (1, 2, ...).")
    version_id: str
    claim_id: str
    quote: str
    span: SpanOut
    extraction_confidence: float | None = Field(
        None, description="How sure the extractor was of this claim (0..1)."
    )
    tier: str | None = Field(None, description="The source's register authority tier.")
    tier_rank: int | None = Field(
        None, description="The policy's rank of that tier (0 highest); null if unlisted."
    )
    checksum: str | None = Field(None, description="sha256 of the cited source version.")


Value = int | float | str | None


class Side(_Out):
    """Claims that state the same value, with a citation each (never merged into prose)."""

    value: Value
    unit: str | None
    source_ids: list[str] = Field(
        description="Unique source ids of this side, sorted; in a status by key the first "
        "ones only (as many as citations may be), ``source_count`` counts them all."
    )
    citations: list[Citation] = Field(
        description="One per claim; in a status by key at most the page limit of them."
    )
    claim_count: int = Field(
        0, description="How many visible claims state this value (citations may be fewer)."
    )
    source_count: int = Field(
        0, description="How many visible sources state this value (source_ids may be fewer)."
    )
    values: list[Value] | None = Field(
        None,
        description="Set when the side is a list one sentence states for the slot "
        '("16 GB, 32 GB and 64 GB": [16, 32, 64], unit GB): its items in text order; '
        "``value`` then holds the list in words. Null for a single value.",
    )
    entity: str | None = Field(
        None,
        description="The namesake this side is about, set when the answer is given per "
        "namesake (two things of one name the ledger tells apart, the question naming "
        "neither: status answered, value null, one side each). Null otherwise.",
    )


class ReplacementOut(_Out):
    source_id: str
    version: int
    version_id: str
    origin: str = Field(description="register, lineage, or claim (a supersedes edge).")
    claim_id: str | None = None


class ResolutionOut(_Out):
    resolution_id: str
    review_item_id: str | None
    winner_claim_ids: list[str] = Field(description="Visible winners only.")
    policy_version: str
    decided_at: datetime
    confidence: float | None = Field(
        None, description="The decider's confidence (1.0 for a policy rule); null if unstated."
    )


class AsOfOut(_Out):
    effective: date | None = Field(None, description="Date the facts should hold at.")
    known_at: datetime | None = Field(None, description="System time the store was read as of.")


class ClaimStatus(_Out):
    claim_id: str
    claim_key: str
    status: ConflictStatus
    value: Value
    unit: str | None
    citation: Citation
    sides: list[Side] = Field(description="This claim's side and every related visible side.")
    superseded_by: ReplacementOut | None = None
    resolution: ResolutionOut | None = None
    review_item_id: str | None = None
    reasons: list[str] = Field(default_factory=list)


class TargetKind(StrEnum):
    CLAIM = "claim"
    SOURCE = "source"
    PASSAGE = "passage"
    KEY = "key"


class Target(_Out):
    kind: TargetKind
    id: str
    version: int | None = None
    span: SpanOut | None = None


class PageOut(_Out):
    """A bounded slice of a long list (claims of a key, ordered by claim id)."""

    offset: int
    limit: int
    total: int = Field(description="Visible claims in the whole list.")
    next_offset: int | None = Field(None, description="Ask again with this offset for more.")


class StatusReport(_Out):
    """Conflict status of a claim, a source version, a passage or a claim key."""

    target: Target
    status: ConflictStatus
    superseded_by: ReplacementOut | None = Field(
        None, description="Set when the target version itself is replaced."
    )
    policy_version: str | None = Field(None, description="Of the resolutions applied, if any.")
    sides: list[Side]
    claims: list[ClaimStatus]
    page: PageOut | None = Field(
        None, description="Status by key: which slice of the key's claims ``claims`` lists."
    )
    as_of: AsOfOut


class EvidenceSignals(_Out):
    """Structured signals about the evidence behind an answer (no single scalar score).

    Computed from the cited, visible claims only: two requesters who see the same
    evidence get the same signals."""

    distinct_documents: int = Field(description="Distinct sources cited (all sides).")
    supporting_sources: int = Field(
        description="Distinct sources stating the answered value; 0 unless answered."
    )
    conflicts_detected: int = Field(description="Pairs of sides stating different values.")
    highest_tier: str | None = Field(None, description="Best-ranked tier among the citations.")
    highest_tier_rank: int | None = Field(None, description="Its rank in the policy (0 best).")
    decided_by: str | None = Field(
        None, description="'rule' or 'reviewer' when a resolution decided the answer."
    )
    rule_id: str | None = Field(None, description="The policy rule that decided, if one did.")
    resolution_confidence: float | None = Field(
        None, description="The deciding resolution's confidence, if it states one."
    )
    independent_origins: int = Field(
        0, description="Sources stating the answered value, surface clones counted once."
    )
    min_independent_origins: int | None = Field(
        None, description="The policy's minimum for this high-risk key; null if none applies."
    )
    too_few_origins: bool = Field(
        False,
        description="True when a high-risk key had fewer independent origins than the policy "
        "asks: the answer is then not_found, value null, the side still cited.",
    )


class Answer(_Out):
    """The seed-004 answer contract, plus the evidence behind it."""

    question: str
    status: AnswerStatus
    value: Value = Field(description="null unless status is answered.")
    unit: str | None
    values: list[Value] | None = Field(
        None,
        description='A listed answer ("Which storage sizes ...?": [16, 32, 64]): the '
        "items, in text order, when the documents agree on the set a sentence lists; "
        '``value`` then holds the list in words ("16, 32 and 64") and ``unit`` the '
        "items' shared unit. Also the values of a predicate that holds several at once "
        '("What does VCD refer to?": each expansion a side, ``value`` them joined by "; "). '
        "Null for a single value and unless answered.",
    )
    citations: list[str] = Field(
        description="Unique visible source ids; on conflict, every side's sources."
    )
    reason: str
    policy_version: str | None = Field(None, description="Of the resolution applied, if any.")
    claim_key: str | None = None
    sides: list[Side] = Field(default_factory=list)
    as_of: AsOfOut
    signals: EvidenceSignals | None = Field(
        None, description="Evidence signals; set on answered and conflict answers."
    )


class ErrorBody(_Out):
    code: str = Field(description="not_found, unauthorized, invalid_request, ...")
    message: str


class ErrorResponse(_Out):
    """The one error shape of the HTTP API (the same for hidden and missing things)."""

    error: ErrorBody
