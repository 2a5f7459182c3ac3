"""Domain models (Pydantic v2): the plain data every layer passes around.

The SQL tables in ``claims.tables`` mirror these; ``claims schema`` prints their JSON Schema.
Unknown is always explicit: an empty ``scope`` means "the text states no scope", a
``EffectiveTime`` with no start and no end means "the text states no time". Nothing is guessed.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer, model_validator

from claims.documents.model import Locator


class _Model(BaseModel):
    model_config = ConfigDict(frozen=False, extra="forbid", use_enum_values=False)


# --------------------------------------------------------------------------- enums


class ValueKind(StrEnum):
    QUANTITY = "quantity"  # a number, perhaps with a unit, bound or range
    CATEGORICAL = "categorical"  # a label ("the governing law is German law")
    POLARITY = "polarity"  # an obligation or permission, affirmed or negated
    DATE = "date"  # the date of an event, ISO as precise as stated ("1871", "1970-05-03")


class Bound(StrEnum):
    """How the stated number constrains the true value."""

    EXACT = "exact"
    AT_MOST = "at_most"  # up to, at most, no more than, maximum
    LESS_THAN = "less_than"  # under, below, less than
    AT_LEAST = "at_least"  # at least, no less than, minimum
    MORE_THAN = "more_than"  # more than, over, above, exceeding
    RANGE = "range"  # between low and high (inclusive)


class Polarity(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"


class Modality(StrEnum):
    """Deontic force of a polarity claim, normalised from the surface verb."""

    OBLIGATION = "obligation"  # shall, must, is required to
    PERMISSION = "permission"  # may, is permitted to, can
    PROHIBITION = "prohibition"  # shall not, must not, is prohibited from
    OPTION = "option"  # is optional, need not
    STATEMENT = "statement"  # plain assertion ("X discloses Y", "X does not ...")


class TimeGranularity(StrEnum):
    DAY = "day"
    MONTH = "month"
    QUARTER = "quarter"
    YEAR = "year"


class EdgeKind(StrEnum):
    CONFLICTS = "conflicts"
    CORROBORATES = "corroborates"
    AMBIGUOUS = "ambiguous"
    SUPERSEDES = "supersedes"
    # A recorded non-link: looks alike but is compatible; ``reason`` says why.
    COMPATIBLE = "compatible"


class Relation(StrEnum):
    """The verdict of ``claims check`` on a pair; ordered from strongest to weakest."""

    CONFLICT = "conflict"
    AMBIGUOUS = "ambiguous"
    CORROBORATION = "corroboration"
    COMPATIBLE = "compatible"
    UNRELATED = "unrelated"


class GenerationStatus(StrEnum):
    CANDIDATE = "candidate"  # computed beside the active one, not yet read by anyone
    ACTIVE = "active"  # what every reader sees
    FAILED = "failed"  # did not pass the conflict regression check
    RETIRED = "retired"  # replaced by a newer active generation


class SupersessionOrigin(StrEnum):
    REGISTER = "register"  # the application owner said so (trusted)
    LINEAGE = "lineage"  # a newer version of the same source id


class CandidateState(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


class ReviewState(StrEnum):
    OPEN = "open"
    CLAIMED = "claimed"
    RESOLVED = "resolved"
    DISMISSED = "dismissed"
    AMBIGUOUS = "ambiguous"
    DEFERRED = "deferred"


class DismissReason(StrEnum):
    DIFFERENT_SCOPE = "different_scope"
    DIFFERENT_TIME = "different_time"
    DIFFERENT_DEFINITION = "different_definition"
    EXTRACTION_ERROR = "extraction_error"
    # routing closes an item with it when no live conflict holds its claims any more
    EVIDENCE_CHANGED = "evidence_changed"


class ResolutionMethod(StrEnum):
    REVIEWER = "reviewer"
    RULE = "rule"


class ConflictStatus(StrEnum):
    """What the retrieval layer reports for a claim, passage, version or key."""

    NONE = "none"
    CONTESTED = "contested"
    UNDER_REVIEW = "under_review"
    RESOLVED = "resolved"
    SUPERSEDED = "superseded"
    AMBIGUOUS = "ambiguous"


# --------------------------------------------------------------------------- sources


class SupersedesRef(_Model):
    """One entry of a register's ``supersedes`` list."""

    source_id: str
    version: int | None = Field(None, description="Only this version number, if given.")
    effective_from: date | None = Field(None, description="Replacement applies from this date.")


class Source(_Model):
    """A document identity plus what the application owner trusts about it (the register)."""

    id: str
    title: str | None = None
    # the readers it is read with (claims.profiles); None: the register's folder or default
    profile: str | None = None
    authority_tier: str | None = None
    access_groups: list[str] = Field(
        default_factory=list, description="Groups that may see it; empty means public."
    )
    supersedes: list[SupersedesRef] = Field(default_factory=list)
    effective_from: date | None = None
    effective_to: date | None = None
    withdrawn: bool = False
    created_at: datetime | None = None
    updated_at: datetime | None = None


class SourceVersion(_Model):
    """Exact bytes of one version of a source. Never deleted, never overwritten."""

    id: str
    source_id: str
    number: int = Field(ge=1, description="1 for the first version of a source id, then 2, 3...")
    label: str | None = None
    sha256: str
    size_bytes: int
    media_type: str = "text/plain"
    origin_path: str | None = None
    text: str = Field(description="The file converted to Markdown-flavoured text.")
    ingested_at: datetime | None = None
    converter: str = "utf-8-text"
    converter_version: str = "1"


class SourceVersionSupersession(_Model):
    """``newer`` replaces ``older`` (between source versions)."""

    id: str
    newer_version_id: str
    older_version_id: str
    origin: SupersessionOrigin
    effective_from: date | None = None
    created_at: datetime | None = None


class SupersessionCandidate(_Model):
    """Text that *claims* to replace another document. Never applied without a reviewer."""

    id: str
    source_version_id: str
    target_text: str = Field(description="The named document, as written.")
    target_source_id: str | None = Field(None, description="A matching known source id, if any.")
    span: Span
    quote: str
    state: CandidateState = CandidateState.OPEN
    created_at: datetime | None = None


# --------------------------------------------------------------------------- claims


class Span(_Model):
    """Half-open character offsets into the exact source version text."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            raise ValueError(f"span end {self.end} is before start {self.start}")
        return self


class EffectiveTime(_Model):
    """When the claim holds. ``start``/``end`` inclusive; both None means unknown."""

    start: date | None = None
    end: date | None = None
    granularity: TimeGranularity | None = None
    text: str | None = Field(None, description="The words that stated the time.")
    year_inferred: bool = Field(
        False,
        description='The text gave no year ("by March 31"): it was taken from the document\'s '
        "own date or the register's effective date.",
    )

    @property
    def is_known(self) -> bool:
        return self.start is not None or self.end is not None


class EntityRef(BaseModel):
    """The thing a claim is about, as data: its name in key form, the qualifier that tells it
    from namesakes ("1941 film"), and the source it is known in only (a subject no title
    tells from its namesakes: named in that page only). ``text`` is the readable form the
    claim key starts with ("devata (1941 film)", "frederick groves (in doc03)")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    qualifier: str | None = None
    local_to: str | None = None

    @property
    def text(self) -> str:
        text = f"{self.name} ({self.qualifier})" if self.qualifier else self.name
        return f"{text} (in {self.local_to})" if self.local_to else text


class Claim(_Model):
    """One atomic, comparable statement extracted from one source version."""

    id: str
    source_version_id: str | None = Field(None, description="None for ad-hoc extraction.")
    source_id: str | None = None
    generation: str = Field(description="Extractor generation that produced the claim.")

    subject: str | None = Field(None, description="None when it could not be found.")
    predicate: str | None = None
    claim_key: str = Field(
        description="Readable blocking key: the entity (when known) followed by the attribute."
    )
    coarse_key: str | None = Field(
        None, description="Attribute class: the attribute's head word (blocks near misses)."
    )
    entity: str | None = Field(
        None,
        description="Normalised thing the claim is about ('p-9 router', 'lakeview'); None "
        "when neither the sentence nor the document's subject names one.",
    )
    attribute: str = Field(
        "",
        description="Normalised property the claim states ('battery life', 'notice period'); "
        "synonyms folded to one attribute.",
    )
    entity_ref: EntityRef | None = Field(
        None,
        description="``entity`` as data: name, qualifier, the source it is local to (its "
        "``text`` is ``entity``).",
    )

    kind: ValueKind
    value: float | str | None = Field(
        None, description="Number as stated (quantity), label (categorical), action (polarity)."
    )
    low: float | None = None
    high: float | None = None
    bound: Bound = Bound.EXACT
    approximate: bool = False
    precision: float | None = Field(
        None, description="Half-width of the uncertainty the text states, in the original unit."
    )
    unit: str | None = Field(None, description="Unit as written.")
    canonical_value: float | None = None
    canonical_low: float | None = None
    canonical_high: float | None = None
    canonical_unit: str | None = None
    dimension: str | None = Field(None, description="Quantity kind, e.g. '[time]', 'USD'.")

    polarity: Polarity | None = None
    modality: Modality | None = None

    scope: dict[str, str] = Field(
        default_factory=dict, description="Known qualifier dimensions, e.g. {'period': 'q1'}."
    )
    scope_residual: list[str] = Field(
        default_factory=list, description="Qualifier words that fit no known dimension."
    )
    time: EffectiveTime = Field(default_factory=EffectiveTime)
    reported_speech: bool = False

    span: Span = Field(description="Evidence span: the sentence the claim came from.")
    value_span: Span | None = Field(None, description="The value mention (number + unit).")
    quote: str = Field(description="text[span.start:span.end], verbatim.")
    confidence: float = Field(ge=0.0, le=1.0)
    locator: Locator | None = Field(
        None,
        description="Where the claim stands in the original file: page, heading path, "
        "paragraph, list item, or table/row/column (None when not read by structure).",
    )
    created_at: datetime | None = None

    @field_serializer("locator")
    def _locator_fields(self, locator: Locator | None) -> dict[str, object] | None:
        # only the fields that are set: "p. 3 > Leave > item 2" is {page, heading_path, list_item}
        return locator.to_dict() if locator is not None else None

    @model_validator(mode="after")
    def _attribute_defaults_to_key(self) -> Claim:
        # claims written before entity and attribute existed (or built by hand) state
        # their whole key as the attribute
        if not self.attribute:
            self.attribute = self.claim_key
        return self


class Edge(_Model):
    """A typed link between two claims, with the rule that made it and a readable reason."""

    id: str
    kind: EdgeKind
    left_claim_id: str
    right_claim_id: str
    claim_key: str
    rule: str = Field(description="value, polarity, categorical, scope, time, unit, clone ...")
    reason: str
    material: bool | None = Field(None, description="Conflicts only: needs a person?")
    materiality: float | None = Field(None, description="Conflicts only: 0..1 risk score.")
    generation: str
    created_at: datetime | None = None
    retired_at: datetime | None = Field(None, description="Set when a recompute drops the edge.")


class ExtractorGeneration(_Model):
    """One version of the extraction code and pattern files (hash of both)."""

    id: str
    label: str
    status: GenerationStatus
    regression_report: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime | None = None
    promoted_at: datetime | None = None


# --------------------------------------------------------------------------- review


class AuthorityPolicyVersion(_Model):
    """One applied version of the authority policy. Its ``version`` is stamped everywhere."""

    version: str = Field(description="'<declared>+<content hash prefix>', e.g. '3+a1b2c3d4e5f6'.")
    policy_id: str
    declared_version: str
    content_hash: str
    content: dict[str, Any]
    applied_at: datetime | None = None
    applied_by: str | None = None


class ReviewItem(_Model):
    """A conflict set: one claim key, overlapping scope and time, values that cannot all hold."""

    id: str
    claim_key: str
    state: ReviewState = ReviewState.OPEN
    claim_ids: list[str]
    risk: float = 0.0
    high_risk: bool = False
    assignee: str | None = None
    lock_expires_at: datetime | None = None
    deferred_until: date | None = None
    revision: int = Field(1, description="Optimistic-concurrency counter.")
    policy_version: str | None = None
    opened_at: datetime | None = None
    updated_at: datetime | None = None


class Resolution(_Model):
    """How a review item ended. Losing claims stay in the store."""

    id: str
    review_item_id: str
    method: ResolutionMethod
    outcome: ReviewState = Field(description="resolved, dismissed or ambiguous.")
    winner_claim_ids: list[str] = Field(default_factory=list)
    dismiss_reason: DismissReason | None = None
    rationale: str = Field(min_length=1)
    evidence: list[str] = Field(default_factory=list, description="Claim or source ids cited.")
    decided_by: str = Field(description="Reviewer name, or the rule id for method=rule.")
    policy_version: str
    decided_at: datetime | None = None
    superseded_at: datetime | None = Field(None, description="Set when the item is reopened.")
    confidence: float | None = Field(
        None,
        ge=0.0,
        le=1.0,
        description="Resolution confidence: the reviewer's (0..1), 1.0 for a policy rule; "
        "None when not stated. Kept apart from extraction confidence and source authority.",
    )


class AuditEvent(_Model):
    """Append-only record of a state change."""

    id: int | None = None
    at: datetime
    actor: str
    action: str
    entity_type: str
    entity_id: str
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    policy_version: str | None = None


# --------------------------------------------------------------------------- access


class Requester(_Model):
    """A principal asking the retrieval layer, with the groups it belongs to."""

    principal: str
    groups: list[str] = Field(default_factory=list)


SupersessionCandidate.model_rebuild()

DOMAIN_MODELS: tuple[type[BaseModel], ...] = (
    Source,
    SourceVersion,
    SourceVersionSupersession,
    SupersessionCandidate,
    Claim,
    Edge,
    ExtractorGeneration,
    AuthorityPolicyVersion,
    ReviewItem,
    Resolution,
    AuditEvent,
    Requester,
)


def json_schema() -> dict[str, Any]:
    """One JSON Schema document with every domain model under ``$defs``."""
    from pydantic.json_schema import models_json_schema

    _, schema = models_json_schema(
        [(model, "validation") for model in DOMAIN_MODELS],
        title="claimledger domain models",
    )
    return schema
