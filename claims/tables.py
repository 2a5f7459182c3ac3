"""SQLAlchemy 2 tables for every durable thing claimledger keeps, in one metadata.

One linear Alembic history (``migrations/``) is generated from this module; the test suite
proves the two agree. Constraint names come from the naming convention so they are the same
on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ID = String(64)
SOURCE_ID = String(512)
KEY = String(512)
TS = DateTime(timezone=True)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[str]: JSON, datetime: TS}


# --------------------------------------------------------------------------- sources


class SourceRow(Base):
    __tablename__ = "sources"

    id: Mapped[str] = mapped_column(SOURCE_ID, primary_key=True)
    title: Mapped[str | None] = mapped_column(Text)
    authority_tier: Mapped[str | None] = mapped_column(String(128))
    effective_from: Mapped[date | None] = mapped_column(Date)
    effective_to: Mapped[date | None] = mapped_column(Date)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(TS)
    updated_at: Mapped[datetime] = mapped_column(TS)
    # the profile its claims were read with (claims.profiles): the edge builder and
    # retrieval take the judges of the profiles a store's sources use; indexed so that
    # the few profiles in use are read by index, not by a scan of every source (0024)
    profile: Mapped[str] = mapped_column(String(32), server_default="office", index=True)


class SourceGrantRow(Base):
    """Source ``source_id`` is visible to members of ``group_name`` (no rows: public)."""

    __tablename__ = "source_grants"

    source_id: Mapped[str] = mapped_column(
        SOURCE_ID, ForeignKey("sources.id", ondelete="CASCADE"), primary_key=True
    )
    group_name: Mapped[str] = mapped_column(String(256), primary_key=True)


class SourceSupersedesRow(Base):
    """Register entry: ``source_id`` replaces ``supersedes_source_id`` (trusted)."""

    __tablename__ = "source_supersedes"

    source_id: Mapped[str] = mapped_column(
        SOURCE_ID, ForeignKey("sources.id", ondelete="CASCADE"), primary_key=True
    )
    supersedes_source_id: Mapped[str] = mapped_column(
        SOURCE_ID, ForeignKey("sources.id"), primary_key=True
    )
    supersedes_version: Mapped[int | None] = mapped_column(Integer)
    effective_from: Mapped[date | None] = mapped_column(Date)


class SourceVersionRow(Base):
    __tablename__ = "source_versions"
    __table_args__ = (
        UniqueConstraint("source_id", "sha256"),
        UniqueConstraint("source_id", "number"),
    )

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    source_id: Mapped[str] = mapped_column(SOURCE_ID, ForeignKey("sources.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    label: Mapped[str | None] = mapped_column(String(256))
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    media_type: Mapped[str] = mapped_column(String(64))
    origin_path: Mapped[str | None] = mapped_column(Text)
    text: Mapped[str] = mapped_column(Text)  # the converter's output (claims/documents)
    ingested_at: Mapped[datetime] = mapped_column(TS, index=True)
    # what made ``text`` from the file's bytes: a newer one re-derives it (docs/INGEST.md)
    converter: Mapped[str] = mapped_column(String(64), server_default="utf-8-text")
    converter_version: Mapped[str] = mapped_column(String(128), server_default="1")
    # sha256 of a converted ``text`` (None when the text is the file's UTF-8 bytes, which
    # ``sha256`` covers): the integrity check compares the text with it
    text_sha256: Mapped[str | None] = mapped_column(String(64))


class SourceFileStatRow(Base):
    """What ``os.stat`` said about a source file when its bytes were last read and hashed.

    The scan trusts an unchanged stat to mean unchanged bytes (git's index does the same)
    and takes the version from ``sha256`` without reading the file (claims/ingest.py).
    Keyed by the sha256 of the path: a path may be longer than an index entry allows.
    """

    __tablename__ = "source_file_stats"

    path_key: Mapped[str] = mapped_column(ID, primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(BigInteger)
    mtime_ns: Mapped[int] = mapped_column(BigInteger)
    ctime_ns: Mapped[int] = mapped_column(BigInteger)
    inode: Mapped[int] = mapped_column(BigInteger)
    recorded_ns: Mapped[int] = mapped_column(BigInteger)  # wall clock when stat was taken


class RunStampRow(Base):
    """What the last clean ``claims run`` over one set of paths left: the status digest of
    every file it covered (``claims.source_walk``), the files changed too recently for their
    status to vouch for their bytes (with their sha256), and the store's counts. The next run
    over the same paths, with the same digest and counts, has nothing to read or plan
    (``claims.run_stamp``; docs/PIPELINE.md, "Session 19: nothing changed")."""

    __tablename__ = "run_stamps"

    scope: Mapped[str] = mapped_column(ID, primary_key=True)  # sha256 of paths and settings
    digest: Mapped[str] = mapped_column(String(64))
    state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    recorded_at: Mapped[datetime] = mapped_column(TS)


class VersionSupersessionRow(Base):
    __tablename__ = "version_supersessions"
    __table_args__ = (UniqueConstraint("newer_version_id", "older_version_id"),)

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    newer_version_id: Mapped[str] = mapped_column(ID, ForeignKey("source_versions.id"))
    older_version_id: Mapped[str] = mapped_column(ID, ForeignKey("source_versions.id"), index=True)
    origin: Mapped[str] = mapped_column(String(16))
    effective_from: Mapped[date | None] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(TS)


class SupersessionCandidateRow(Base):
    __tablename__ = "supersession_candidates"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    source_version_id: Mapped[str] = mapped_column(ID, ForeignKey("source_versions.id"), index=True)
    target_text: Mapped[str] = mapped_column(Text)
    target_source_id: Mapped[str | None] = mapped_column(SOURCE_ID)
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)
    quote: Mapped[str] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(16), default="open")
    created_at: Mapped[datetime] = mapped_column(TS)


# --------------------------------------------------------------------------- claims


class ExtractorGenerationRow(Base):
    __tablename__ = "extractor_generations"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    label: Mapped[str] = mapped_column(String(128))
    status: Mapped[str] = mapped_column(String(16), index=True)
    regression_report: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(TS)
    promoted_at: Mapped[datetime | None] = mapped_column(TS)


class ClaimQuoteRow(Base):
    """One distinct quote of a source version, the unit the full-text index holds.

    A number table's sentence is the quote of each of its numbers, so indexing claims would
    index it once per number (issue 14.1). Rows are kept by triggers on ``claims`` (written
    with the first claim quoting it, deleted with the last; migration 0010); the unique
    key (version, quote) is an index made by that migration, not declared here. No foreign
    key: the rows are derived, and leave with the claims before their version does.
    """

    __tablename__ = "claim_quotes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    source_version_id: Mapped[str] = mapped_column(ID)
    quote: Mapped[str] = mapped_column(Text)


class ClaimRow(Base):
    __tablename__ = "claims"
    __table_args__ = (
        # a key's claims in claim id and in source order (retrieval/key_aggregate.py); the
        # first also serves every (generation, claim_key) lookup (migration 0012)
        Index("ix_claims_generation_key_id", "generation", "claim_key", "id"),
        Index("ix_claims_generation_key_source", "generation", "claim_key", "source_id"),
        Index("ix_claims_generation_coarse_key", "generation", "coarse_key"),
        # a key's distinct coarse keys by seeks (claims/edge_refresh.py, migration 0026); the
        # cells' order index is SQLite-only DDL (claims/store/search.py CELL_ORDER_INDEX)
        Index("ix_claims_generation_key_coarse", "generation", "claim_key", "coarse_key"),
        Index("ix_claims_generation_entity", "generation", "entity"),
        Index("ix_claims_generation_attribute", "generation", "attribute"),
    )

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    source_version_id: Mapped[str] = mapped_column(ID, ForeignKey("source_versions.id"), index=True)
    source_id: Mapped[str] = mapped_column(SOURCE_ID, ForeignKey("sources.id"), index=True)
    generation: Mapped[str] = mapped_column(ID, ForeignKey("extractor_generations.id"))
    subject: Mapped[str | None] = mapped_column(Text)
    predicate: Mapped[str | None] = mapped_column(Text)
    claim_key: Mapped[str] = mapped_column(KEY)
    coarse_key: Mapped[str | None] = mapped_column(KEY)
    # null only on rows written before 0004 added them (read back as no entity / the key)
    entity: Mapped[str | None] = mapped_column(KEY)
    attribute: Mapped[str | None] = mapped_column(KEY)
    kind: Mapped[str] = mapped_column(String(16))
    value_number: Mapped[float | None] = mapped_column(Float)
    value_text: Mapped[str | None] = mapped_column(Text)
    low: Mapped[float | None] = mapped_column(Float)
    high: Mapped[float | None] = mapped_column(Float)
    bound: Mapped[str] = mapped_column(String(16))
    approximate: Mapped[bool] = mapped_column(Boolean, default=False)
    precision: Mapped[float | None] = mapped_column(Float)
    unit: Mapped[str | None] = mapped_column(String(128))
    canonical_value: Mapped[float | None] = mapped_column(Float)
    canonical_low: Mapped[float | None] = mapped_column(Float)
    canonical_high: Mapped[float | None] = mapped_column(Float)
    canonical_unit: Mapped[str | None] = mapped_column(String(128))
    dimension: Mapped[str | None] = mapped_column(String(128))
    polarity: Mapped[str | None] = mapped_column(String(16))
    modality: Mapped[str | None] = mapped_column(String(16))
    scope: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    scope_residual: Mapped[list[str]] = mapped_column(JSON, default=list)
    time_start: Mapped[date | None] = mapped_column(Date)
    time_end: Mapped[date | None] = mapped_column(Date)
    time_granularity: Mapped[str | None] = mapped_column(String(16))
    time_text: Mapped[str | None] = mapped_column(Text)
    # the text gave no year: it came from the document's date or the register (issue 30)
    time_year_inferred: Mapped[bool] = mapped_column(Boolean, server_default=false())
    reported_speech: Mapped[bool] = mapped_column(Boolean, default=False)
    span_start: Mapped[int] = mapped_column(Integer)
    span_end: Mapped[int] = mapped_column(Integer)
    value_start: Mapped[int | None] = mapped_column(Integer)
    value_end: Mapped[int | None] = mapped_column(Integer)
    # the entity as data (claims.models.EntityRef; null on rows written before 0018)
    entity_name: Mapped[str | None] = mapped_column(KEY)
    entity_qualifier: Mapped[str | None] = mapped_column(KEY)
    entity_local_to: Mapped[str | None] = mapped_column(SOURCE_ID)
    quote: Mapped[str] = mapped_column(Text)
    # the row of claim_quotes holding this quote; set by a trigger on insert (migration 0010)
    quote_id: Mapped[int | None] = mapped_column(Integer, index=True)
    confidence: Mapped[float] = mapped_column(Float)
    # where the claim stands in the original file (claims.documents.Locator.to_dict())
    locator: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(TS)


class EdgeRow(Base):
    __tablename__ = "edges"
    __table_args__ = (
        # an edge of a kind value groups do not say, in a key's block (key_aggregate.py);
        # also every (generation, claim_key) lookup (migration 0012)
        Index("ix_edges_generation_key_kind", "generation", "claim_key", "kind"),
        # live edges of a generation by kind: the run summary's counts and full routing's
        # conflict edges read the index alone, not every edge row (migration 0015)
        Index(
            "ix_edges_live_kind",
            "generation",
            "kind",
            sqlite_where=text("retired_at IS NULL"),
            postgresql_where=text("retired_at IS NULL"),
        ),
    )

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    left_claim_id: Mapped[str] = mapped_column(ID, ForeignKey("claims.id"), index=True)
    right_claim_id: Mapped[str] = mapped_column(ID, ForeignKey("claims.id"), index=True)
    claim_key: Mapped[str] = mapped_column(KEY)
    rule: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    material: Mapped[bool | None] = mapped_column(Boolean)
    materiality: Mapped[float | None] = mapped_column(Float)
    generation: Mapped[str] = mapped_column(ID, ForeignKey("extractor_generations.id"))
    created_at: Mapped[datetime] = mapped_column(TS)
    retired_at: Mapped[datetime | None] = mapped_column(TS)


class ValueGroupClaimRow(Base):
    """Which value group of its claim key a claim belongs to (docs/EDGES.md, value groups).

    Claims of one group state the same thing (equal comparable facts, source tier and list
    context), so every verdict between two groups holds for every pair of their members.
    """

    __tablename__ = "value_group_claims"
    # a key's members, and its distinct value groups by seeks (migration 0026)
    __table_args__ = (
        Index(
            "ix_value_group_claims_generation_key_group",
            "generation",
            "claim_key",
            "value_group_id",
        ),
    )

    claim_id: Mapped[str] = mapped_column(ID, ForeignKey("claims.id"), primary_key=True)
    value_group_id: Mapped[str] = mapped_column(ID, index=True)
    claim_key: Mapped[str] = mapped_column(KEY)
    generation: Mapped[str] = mapped_column(ID, ForeignKey("extractor_generations.id"))


class ValueGroupRelationRow(Base):
    """A disagreement (conflicts / ambiguous) between two value groups of one claim key.

    The verdict before supersession: readers apply the supersessions they may see.
    Retired, never deleted, like edges.
    """

    __tablename__ = "value_group_relations"
    __table_args__ = (Index("ix_value_group_relations_generation_key", "generation", "claim_key"),)

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    left_group_id: Mapped[str] = mapped_column(ID)
    right_group_id: Mapped[str] = mapped_column(ID)
    claim_key: Mapped[str] = mapped_column(KEY)
    rule: Mapped[str] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(Text)
    material: Mapped[bool | None] = mapped_column(Boolean)
    materiality: Mapped[float | None] = mapped_column(Float)
    generation: Mapped[str] = mapped_column(ID, ForeignKey("extractor_generations.id"))
    created_at: Mapped[datetime] = mapped_column(TS)
    retired_at: Mapped[datetime | None] = mapped_column(TS)


class ValueGroupSlotRow(Base):
    """A value group of a *slot*: groups of one key that differ only in an exact point value
    (claims/edges/value_groups.py). Disagreement inside a slot is decided from these rows
    (the highest and lowest value a reader may see), never stored per pair. Derived like
    memberships: rewritten where it differs, no history.
    """

    __tablename__ = "value_group_slots"
    __table_args__ = (Index("ix_value_group_slots_generation_key", "generation", "claim_key"),)

    value_group_id: Mapped[str] = mapped_column(ID, primary_key=True)
    slot_id: Mapped[str] = mapped_column(ID)
    claim_key: Mapped[str] = mapped_column(KEY)
    value: Mapped[float] = mapped_column(Float)
    tier_rank: Mapped[int | None] = mapped_column(Integer)
    high_risk: Mapped[bool] = mapped_column(Boolean)
    threshold: Mapped[float] = mapped_column(Float)
    tier_gap: Mapped[int] = mapped_column(Integer)
    generation: Mapped[str] = mapped_column(ID, ForeignKey("extractor_generations.id"))
    # an approximate slot's or a range slot's interval ("about 80 EUR", "between 5 and 6
    # ms"); NULL in a point slot (migration 0014)
    low: Mapped[float | None] = mapped_column(Float)
    high: Mapped[float | None] = mapped_column(Float)
    # the sentence listing this value with others of the slot; NULL: stated alone (0020)
    statement: Mapped[str | None] = mapped_column(ID)
    # slots of one key differing only in dimension share a family (0020)
    family: Mapped[str | None] = mapped_column(ID)
    dimension: Mapped[str] = mapped_column(String(64), server_default="")


# --------------------------------------------------------------------------- review


class AuthorityPolicyRow(Base):
    __tablename__ = "authority_policies"

    version: Mapped[str] = mapped_column(String(128), primary_key=True)
    policy_id: Mapped[str] = mapped_column(String(128))
    declared_version: Mapped[str] = mapped_column(String(64))
    content_hash: Mapped[str] = mapped_column(String(64))
    content: Mapped[dict[str, Any]] = mapped_column(JSON)
    applied_at: Mapped[datetime] = mapped_column(TS, index=True)
    applied_by: Mapped[str | None] = mapped_column(String(256))


class ReviewItemRow(Base):
    __tablename__ = "review_items"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    claim_key: Mapped[str] = mapped_column(KEY, index=True)
    state: Mapped[str] = mapped_column(String(16), index=True)
    risk: Mapped[float] = mapped_column(Float, default=0.0)
    high_risk: Mapped[bool] = mapped_column(Boolean, default=False)
    assignee: Mapped[str | None] = mapped_column(String(256))
    lock_expires_at: Mapped[datetime | None] = mapped_column(TS)
    deferred_until: Mapped[date | None] = mapped_column(Date)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    policy_version: Mapped[str | None] = mapped_column(
        String(128), ForeignKey("authority_policies.version")
    )
    opened_at: Mapped[datetime] = mapped_column(TS)
    updated_at: Mapped[datetime] = mapped_column(TS)


class ReviewItemClaimRow(Base):
    __tablename__ = "review_item_claims"

    review_item_id: Mapped[str] = mapped_column(
        ID, ForeignKey("review_items.id", ondelete="CASCADE"), primary_key=True
    )
    claim_id: Mapped[str] = mapped_column(ID, ForeignKey("claims.id"), primary_key=True)


class ResolutionRow(Base):
    __tablename__ = "resolutions"

    id: Mapped[str] = mapped_column(ID, primary_key=True)
    review_item_id: Mapped[str] = mapped_column(ID, ForeignKey("review_items.id"), index=True)
    method: Mapped[str] = mapped_column(String(16))
    outcome: Mapped[str] = mapped_column(String(16))
    dismiss_reason: Mapped[str | None] = mapped_column(String(32))
    rationale: Mapped[str] = mapped_column(Text)
    evidence: Mapped[list[str]] = mapped_column(JSON, default=list)
    decided_by: Mapped[str] = mapped_column(String(256))
    policy_version: Mapped[str] = mapped_column(
        String(128), ForeignKey("authority_policies.version")
    )
    decided_at: Mapped[datetime] = mapped_column(TS)
    superseded_at: Mapped[datetime | None] = mapped_column(TS)
    # How sure the decider is (0..1): a reviewer's own statement, 1.0 for a policy rule;
    # NULL: not stated (decisions made before migration 0009, or a reviewer who gave none).
    confidence: Mapped[float | None] = mapped_column(Float)


class ResolutionWinnerRow(Base):
    __tablename__ = "resolution_winners"

    resolution_id: Mapped[str] = mapped_column(
        ID, ForeignKey("resolutions.id", ondelete="CASCADE"), primary_key=True
    )
    claim_id: Mapped[str] = mapped_column(ID, ForeignKey("claims.id"), primary_key=True)


class AuditEventRow(Base):
    """Append-only: the code inserts rows and never updates or deletes them."""

    __tablename__ = "audit_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(TS, index=True)
    actor: Mapped[str] = mapped_column(String(256))
    action: Mapped[str] = mapped_column(String(64))
    entity_type: Mapped[str] = mapped_column(String(64))
    entity_id: Mapped[str] = mapped_column(String(512), index=True)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    policy_version: Mapped[str | None] = mapped_column(String(128))
    # Tamper evidence (review/audit.py): sha256 over this row and the previous row's hash.
    prev_hash: Mapped[str] = mapped_column(String(64))
    row_hash: Mapped[str] = mapped_column(String(64))


class AuditCheckpointRow(Base):
    """The audit chain's head at a moment: (row count, head hash), for an operator to export
    and compare later (``claims audit checkpoints --json``, ``verify --expect``)."""

    __tablename__ = "audit_checkpoints"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(TS)
    rows: Mapped[int] = mapped_column(Integer)
    head_hash: Mapped[str] = mapped_column(String(64))
    written_by: Mapped[str] = mapped_column(String(256))


class ReviewSessionRow(Base):
    """A logged-in reviewer's web session; the cookie holds a token whose sha256 is the id.

    Logout deletes the row, so a copied cookie is refused afterwards.
    """

    __tablename__ = "review_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    reviewer: Mapped[str] = mapped_column(String(256), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    # sha256 of the reviewer's password hash at login: a password change ends the session.
    credential: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(TS)
    expires_at: Mapped[datetime] = mapped_column(TS, index=True)


class LoginFailureRow(Base):
    """One refused reviewer login, counted per account and per address for throttling."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(TS, index=True)
    account: Mapped[str] = mapped_column(String(256), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)


# --------------------------------------------------------------------------- progress


class ClaimKeyChangeRow(Base):
    """One claim key changed (the change feed, docs/PIPELINE.md "The store records progress").

    Written in the same transaction as the change itself; ids only grow, so a consumer that
    remembers the last id it processed knows exactly what is new. ``claim_key`` ``*`` means
    every key (a full edge evaluation). ``generation`` is null for changes that concern every
    generation (register entries).
    """

    __tablename__ = "claim_key_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    claim_key: Mapped[str] = mapped_column(KEY)
    kind: Mapped[str] = mapped_column(String(32))
    generation: Mapped[str | None] = mapped_column(ID)
    created_at: Mapped[datetime] = mapped_column(TS)
    # a ``claims`` change written for the claims of one source version: the version (so the
    # edge step knows which claims of the key changed); null for a change of the whole key
    source_version_id: Mapped[str | None] = mapped_column(ID)


class ConsumerCursorRow(Base):
    """How far one consumer of the change feed got, acknowledged with its output.

    ``state`` holds what its last output depended on (generation, materiality, policy
    version, audit id): when that differs, the consumer redoes everything.
    """

    __tablename__ = "consumer_cursors"

    consumer: Mapped[str] = mapped_column(String(64), primary_key=True)
    change_id: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    updated_at: Mapped[datetime] = mapped_column(TS)


class VersionExtractionRow(Base):
    """Source version ``source_version_id`` was extracted in ``generation`` (its claims,
    possibly none, are stored): what run planning compares with the files on disk."""

    __tablename__ = "version_extractions"

    source_version_id: Mapped[str] = mapped_column(
        ID, ForeignKey("source_versions.id"), primary_key=True
    )
    generation: Mapped[str] = mapped_column(
        ID, ForeignKey("extractor_generations.id"), primary_key=True
    )
    claims: Mapped[int] = mapped_column(Integer)
    extracted_at: Mapped[datetime] = mapped_column(TS)


# --------------------------------------------------------------------------- taught synonyms


class TaughtSynonymRow(Base):
    """A reviewer's teaching that two attributes are one thing (``same``) or two (``different``).

    Rows are never deleted: a withdrawal sets ``withdrawn_at`` (the audit log keeps both acts).
    ``from_attribute`` -> ``to_attribute`` is the rewrite a ``same`` teaching makes; a
    ``different`` one moves claims of ``from_attribute`` whose quote says ``split_words`` to
    ``to_attribute`` (claims/synonyms.py).
    """

    __tablename__ = "taught_synonyms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    relation: Mapped[str] = mapped_column(String(16))
    left_phrase: Mapped[str] = mapped_column(String(256))
    right_phrase: Mapped[str] = mapped_column(String(256))
    from_attribute: Mapped[str] = mapped_column(KEY, index=True)
    to_attribute: Mapped[str] = mapped_column(KEY)
    split_words: Mapped[str | None] = mapped_column(String(256))
    kept_words: Mapped[str | None] = mapped_column(String(256))
    reason: Mapped[str] = mapped_column(Text)
    taught_by: Mapped[str] = mapped_column(String(256))
    taught_at: Mapped[datetime] = mapped_column(TS)
    withdrawn_by: Mapped[str | None] = mapped_column(String(256))
    withdrawn_at: Mapped[datetime | None] = mapped_column(TS)
    withdraw_reason: Mapped[str | None] = mapped_column(Text)


class ClaimTaughtKeyRow(Base):
    """The key, attribute and coarse key the extractor gave a claim that a teaching re-keyed:
    what a withdrawal restores. One row per re-keyed claim; gone when the claim is back to
    its extracted key (or erased)."""

    __tablename__ = "claim_taught_keys"

    claim_id: Mapped[str] = mapped_column(
        ID, ForeignKey("claims.id", ondelete="CASCADE"), primary_key=True
    )
    extracted_claim_key: Mapped[str] = mapped_column(KEY)
    extracted_coarse_key: Mapped[str | None] = mapped_column(KEY)
    extracted_attribute: Mapped[str | None] = mapped_column(KEY, index=True)


# --------------------------------------------------------------------------- read model


class ClaimStatusRow(Base):
    """Requester-independent status per claim, materialised by the ``conflict_status`` asset.

    The retrieval layer narrows it to what a requester may see at query time.
    """

    __tablename__ = "claim_status"

    claim_id: Mapped[str] = mapped_column(
        ID, ForeignKey("claims.id", ondelete="CASCADE"), primary_key=True
    )
    claim_key: Mapped[str] = mapped_column(KEY, index=True)
    status: Mapped[str] = mapped_column(String(16))
    review_item_id: Mapped[str | None] = mapped_column(ID)
    resolution_id: Mapped[str | None] = mapped_column(ID)
    superseded_by_version_id: Mapped[str | None] = mapped_column(ID)
    policy_version: Mapped[str | None] = mapped_column(String(128))
    computed_at: Mapped[datetime] = mapped_column(TS)


# Every audit row is hash-chained to the previous one as it is inserted (an ORM hook).
from claims import audit_chain as _audit_chain  # noqa: E402,F401
