"""The authority policy: a versioned YAML file saying which sources outrank which.

A caller gets ``load_policy(path)`` (a validated ``AuthorityPolicy`` or a ``PolicyError`` that
names the file and the field), ``apply_policy(session, policy, actor)`` (stores the version,
keeps every earlier one, writes an audit row) and ``active_policy(session)``.

The version stamped on every resolution is ``<declared version>+<12 hex of sha256 over the
canonical content>``: two files that differ in anything but formatting get different stamps,
even when their authors forgot to bump ``version``.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.edges.materiality import MaterialitySettings
from claims.errors import NotFoundError, PolicyError
from claims.lookalikes import fold_key
from claims.models import AuthorityPolicyVersion
from claims.store.changes import record_policy_applied
from claims.tables import AuthorityPolicyRow
from claims.yaml_files import load_strict_yaml, read_config_text
from review import audit

HASH_CHARS = 12


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RuleKind(StrEnum):
    """The auto-resolution rules the router knows how to apply."""

    # The claims of the single highest tier in the set win, when they agree with each other.
    HIGHER_TIER_WINS = "higher_tier_wins"


class Materiality(_Strict):
    """When a conflict needs a person (fed to the edge builder and to routing)."""

    relative_threshold: float = Field(
        0.05,
        ge=0.0,
        le=10.0,
        description="Numeric conflicts whose relative difference is below this are not material.",
    )
    min_score: float = Field(
        0.5,
        ge=0.0,
        le=1.0,
        description="An edge without a material flag is material when materiality >= this.",
    )


class AutoResolutionRule(_Strict):
    id: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9_.-]*$")
    kind: RuleKind
    min_tier_gap: int = Field(1, ge=1, description="How many tiers apart the winner must be.")
    material_conflicts: bool = Field(
        False, description="Also decide material (but not high-risk) conflicts by this rule."
    )
    applies_to_high_risk: bool = Field(
        False, description="Must stay false: high-risk predicates always need a person."
    )

    @field_validator("applies_to_high_risk")
    @classmethod
    def _never_high_risk(cls, value: bool) -> bool:
        if value:
            raise ValueError("high-risk predicates always need a person; set it to false")
        return value


class AuthorityPolicy(_Strict):
    """The content of ``policy.yaml`` (see docs/REVIEW.md for the schema)."""

    policy_id: str = Field(min_length=1, max_length=128)
    version: str = Field(min_length=1, max_length=40, description="Declared by the author.")
    description: str | None = None
    tiers: list[str] = Field(min_length=1, description="Authority tiers, highest first.")
    high_risk_predicates: list[str] = Field(
        default_factory=list, description="Claim keys or shell-style globs (fnmatch)."
    )
    materiality: Materiality = Field(default_factory=Materiality)
    auto_resolution: list[AutoResolutionRule] = Field(default_factory=list)
    lock_minutes: int = Field(30, ge=1, le=24 * 60, description="How long a claim lock lasts.")
    min_independent_origins: int | None = Field(
        None,
        ge=1,
        le=100,
        description="A high-risk key is answered only when this many distinct origins "
        "(sources, surface clones counted once) state the value; unset: no minimum.",
    )

    @field_validator("version", mode="before")
    @classmethod
    def _version_as_text(cls, value: Any) -> Any:
        # YAML reads `version: 3` as an int; the stamp is text either way.
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        return str(value) if is_number else value

    @field_validator("tiers")
    @classmethod
    def _unique_tiers(cls, tiers: list[str]) -> list[str]:
        seen: set[str] = set()
        for tier in tiers:
            if not tier.strip():
                raise ValueError("a tier name is empty")
            if tier in seen:
                raise ValueError(f"tier {tier!r} is listed twice; tiers are a strict order")
            seen.add(tier)
        return tiers

    @field_validator("high_risk_predicates")
    @classmethod
    def _non_empty_patterns(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            if not pattern.strip():
                raise ValueError("a high-risk predicate pattern is empty")
        return patterns

    @model_validator(mode="after")
    def _unique_rule_ids(self) -> AuthorityPolicy:
        ids = [rule.id for rule in self.auto_resolution]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"auto_resolution rule ids must be unique: {', '.join(duplicates)}")
        return self

    # ----------------------------------------------------------------- derived

    def canonical_json(self) -> str:
        """The content as sorted, compact JSON: what the hash is computed over."""
        content = self.model_dump(mode="json")
        if content.get("min_independent_origins") is None:  # policies written before it
            content.pop("min_independent_origins", None)  # keep their hash and version stamp
        return json.dumps(content, sort_keys=True, separators=(",", ":"))

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.canonical_json().encode("utf-8")).hexdigest()

    @property
    def stamp(self) -> str:
        """The version stamped on resolutions: ``<declared>+<hash prefix>``."""
        return f"{self.version}+{self.content_hash[:HASH_CHARS]}"

    def tier_rank(self, tier: str | None) -> int | None:
        """0 for the highest tier, 1 for the next...; None for a tier the policy does not list."""
        if tier is None:
            return None
        try:
            return self.tiers.index(tier)
        except ValueError:
            return None

    def high_risk_pattern(self, claim_key: str) -> str | None:
        """The first high-risk pattern matching ``claim_key`` (exact key or glob), or None.

        Both sides are compared with look-alike letters and invisible characters folded
        (``claims.lookalikes``), as claim keys are made: a Cyrillic letter in a key or a
        pattern does not let a predicate escape its rule."""
        key = fold_key(claim_key)
        for pattern in self.high_risk_predicates:
            folded = fold_key(pattern)
            if pattern == claim_key or folded == key or fnmatch.fnmatchcase(key, folded):
                return pattern
        return None

    def is_high_risk(self, claim_key: str) -> bool:
        return self.high_risk_pattern(claim_key) is not None

    def materiality_settings(self) -> MaterialitySettings:
        """The edge builder's materiality knobs, taken from this policy.

        Routing enforces high-risk patterns exactly (globs); the edge builder matches words,
        so it gets each pattern's literal words ("dividend|*" -> "dividend").
        """
        phrases = []
        for pattern in self.high_risk_predicates:
            words = " ".join(re.sub(r"[*?\[\]|]", " ", pattern).split())
            if words and words not in phrases:
                phrases.append(words)
        gaps = [r.min_tier_gap for r in self.auto_resolution if r.kind is RuleKind.HIGHER_TIER_WINS]
        return MaterialitySettings(
            high_risk_predicates=phrases,
            relative_difference_threshold=self.materiality.relative_threshold,
            authority_tiers=list(self.tiers),
            # Without a tier rule no tier gap settles anything: every gap stays material.
            tier_gap_resolvable=min(gaps) if gaps else len(self.tiers) + 1,
        )


def _field_path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path or "(top level)"


def parse_policy(content: Any, *, location: str) -> AuthorityPolicy:
    """Validate already-parsed YAML; errors name ``location`` and every bad field."""
    if not isinstance(content, dict):
        raise PolicyError(
            "the policy must be a mapping with policy_id, version and tiers", location=location
        )
    try:
        return AuthorityPolicy.model_validate(content)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            field = _field_path(tuple(item["loc"]))
            message = item["msg"].removeprefix("Value error, ")
            if item["type"] == "extra_forbidden":
                message = "unknown field (check the spelling against docs/REVIEW.md)"
            problems.append(f"field '{field}': {message}")
        raise PolicyError("; ".join(problems), location=location) from None


def load_policy(path: Path) -> AuthorityPolicy:
    """Read and validate a policy file, or raise ``PolicyError`` naming file and field.

    Read like the register (claims/yaml_files.py): a regular UTF-8 file, a key given twice
    or a YAML tag is an error, and ``version: 3.10`` stays the text "3.10".
    """
    text = read_config_text(path, PolicyError, "policy file")
    content = load_strict_yaml(text, path, PolicyError, text_keys=frozenset({"version"}))
    return parse_policy(content, location=str(path))


# --------------------------------------------------------------------------- store


def _to_version(row: AuthorityPolicyRow) -> AuthorityPolicyVersion:
    return AuthorityPolicyVersion(
        version=row.version,
        policy_id=row.policy_id,
        declared_version=row.declared_version,
        content_hash=row.content_hash,
        content=dict(row.content),
        applied_at=row.applied_at,
        applied_by=row.applied_by,
    )


def apply_policy(
    session: Session, policy: AuthorityPolicy, *, actor: str, now: datetime | None = None
) -> tuple[AuthorityPolicyVersion, bool]:
    """Make ``policy`` the active one; returns its stored version and whether anything changed.

    Every applied version stays in ``authority_policies``. Applying the already-active
    version is a no-op; re-applying an older one makes it active again (audited).
    """
    now = now or datetime.now(UTC)
    current = active_policy_row(session)
    if current is not None and current.version == policy.stamp:
        return _to_version(current), False
    row = session.get(AuthorityPolicyRow, policy.stamp)
    before = {"version": current.version} if current is not None else None
    if row is None:
        row = AuthorityPolicyRow(
            version=policy.stamp,
            policy_id=policy.policy_id,
            declared_version=policy.version,
            content_hash=policy.content_hash,
            content=policy.model_dump(mode="json"),
            applied_at=now,
            applied_by=actor,
        )
        session.add(row)
    else:
        # Re-activation of a kept version; the audit log keeps every application.
        row.applied_at = now
        row.applied_by = actor
    session.flush()
    audit.record(
        session,
        actor=actor,
        action="policy.apply",
        entity_type="authority_policy",
        entity_id=policy.policy_id,
        before=before,
        after={"version": policy.stamp, "declared_version": policy.version},
        policy_version=policy.stamp,
        at=now,
    )
    # Every key's materiality, routing and status may change: the graph consumers learn
    # of it from the change feed, in this transaction.
    record_policy_applied(session)
    return _to_version(row), True


def active_policy_row(session: Session) -> AuthorityPolicyRow | None:
    stmt = select(AuthorityPolicyRow).order_by(
        AuthorityPolicyRow.applied_at.desc(), AuthorityPolicyRow.version
    )
    return session.scalars(stmt.limit(1)).first()


def active_policy(session: Session) -> AuthorityPolicy:
    """The policy applied last; ``NotFoundError`` telling the user to apply one if none is."""
    row = active_policy_row(session)
    if row is None:
        raise NotFoundError(
            "no authority policy has been applied; run `claims policy apply policy.yaml` first"
        )
    return policy_from_row(row)


def policy_from_row(row: AuthorityPolicyRow) -> AuthorityPolicy:
    return parse_policy(dict(row.content), location=f"authority_policies[{row.version}]")


def policy_versions(session: Session) -> list[AuthorityPolicyVersion]:
    """Every applied version, newest application first."""
    rows = session.scalars(
        select(AuthorityPolicyRow).order_by(AuthorityPolicyRow.applied_at.desc())
    )
    return [_to_version(r) for r in rows]


def active_materiality(session: Session) -> MaterialitySettings | None:
    """The edge builder's materiality settings from the active policy (None: none applied)."""
    row = active_policy_row(session)
    return policy_from_row(row).materiality_settings() if row is not None else None


DEFAULT_POLICY_FILE = Path(__file__).with_name("default_policy.yaml")


def policy_for_routing(
    session: Session, policy_file: Path | None, *, actor: str
) -> AuthorityPolicy:
    """The policy a routing pass uses: ``policy_file`` applied (idempotent) when given, else
    the active one, else the bundled default (no rules: every conflict needs a person)."""
    if policy_file is not None:
        policy = load_policy(policy_file)
        apply_policy(session, policy, actor=actor)
        return policy
    row = active_policy_row(session)
    if row is not None:
        return policy_from_row(row)
    policy = load_policy(DEFAULT_POLICY_FILE)
    apply_policy(session, policy, actor=actor)
    return policy


def describe_policy(policy: AuthorityPolicy) -> list[str]:
    """The policy in words, one line per part (the CLI and the policy page both show it)."""
    lines = [
        f"policy {policy.policy_id} version {policy.stamp} "
        f"(declared version {policy.version}, hash {policy.content_hash[:HASH_CHARS]})"
    ]
    if policy.description:
        lines.append(policy.description)
    lines.append(f"tiers (highest first): {', '.join(policy.tiers)}")
    patterns = ", ".join(f"`{p}`" for p in policy.high_risk_predicates)
    lines.append(f"high-risk predicates (always a person): {patterns or '(none)'}")
    lines.append(
        f"materiality: numeric conflicts closer than {policy.materiality.relative_threshold:.0%} "
        f"are not material; an edge without a verdict is material at score >= "
        f"{policy.materiality.min_score}"
    )
    if not policy.auto_resolution:
        lines.append("auto-resolution rules: (none: every conflict needs a person)")
    for number, rule in enumerate(policy.auto_resolution, start=1):
        lines.append(f"rule {number}: {describe_rule(rule)}")
    lines.append(f"a reviewer's claim on an item lasts {policy.lock_minutes} minutes")
    return lines


def describe_rule(rule: AutoResolutionRule) -> str:
    scope = "material and not-material" if rule.material_conflicts else "not-material"
    return (
        f"{rule.id} ({rule.kind.value}): the side of the highest tier wins when it is at least "
        f"{rule.min_tier_gap} tier(s) above every other side; decides {scope} conflicts, "
        "never high-risk ones"
    )


def policy_by_version(session: Session, version: str) -> AuthorityPolicy | None:
    row = session.get(AuthorityPolicyRow, version)
    return policy_from_row(row) if row is not None else None
