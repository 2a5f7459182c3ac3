"""Materiality of a conflict: does it need a person, and how much is at stake (0..1)?

The settings are a plain Pydantic model so the review layer can build them from the
versioned authority policy; the defaults here are what an unconfigured store uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from claims.edges.facts import INF, ClaimFacts
from claims.edges.verdict import Rule


class MaterialitySettings(BaseModel):
    """What makes a conflict material (all fields come from the authority policy later)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    high_risk_predicates: list[str] = Field(
        default_factory=list,
        description="Words or phrases; a conflict whose claim key or predicate contains one "
        "is always material (dosage, dividend, termination ...).",
    )
    relative_difference_threshold: float = Field(
        0.05,
        ge=0.0,
        description="Quantity conflicts whose values differ by less than this fraction of the "
        "larger one are immaterial (rounding, not disagreement).",
    )
    authority_tiers: list[str] = Field(
        default_factory=list,
        description="Authority tiers from highest to lowest, e.g. ['regulator', 'official', "
        "'internal', 'informal']. Unknown tiers rank below all listed ones.",
    )
    tier_gap_resolvable: int = Field(
        1,
        ge=1,
        description="A conflict between sources this many tiers apart (or more) can be "
        "settled by policy (higher authority wins) and is not material unless high-risk.",
    )


class Materiality(NamedTuple):
    material: bool
    score: float


def relative_difference(a: ClaimFacts, b: ClaimFacts, rule: str) -> float:
    """Size of a disagreement relative to the larger value (1.0 for labels and polarity)."""
    if rule not in (Rule.VALUE, Rule.RANGE, Rule.BOUND):
        return 1.0
    # the gap between the two admissible intervals, against the larger magnitude
    gap = max(b.lo - a.hi, a.lo - b.hi, 0.0)
    finite = [abs(x) for x in (a.lo, a.hi, b.lo, b.hi) if x not in (INF, -INF)]
    scale = max(finite, default=0.0)
    if scale == 0.0:
        return 1.0 if gap else 0.0
    return min(1.0, gap / scale)


def _rank(tier: str | None, tiers: Sequence[str]) -> int | None:
    if tier is None:
        return None
    return tiers.index(tier) if tier in tiers else len(tiers)


def is_high_risk(facts: ClaimFacts, settings: MaterialitySettings) -> bool:
    """Whether a configured high-risk phrase occurs in the claim's key or predicate."""
    return _high_risk(facts.claim_key, facts.predicate, tuple(settings.high_risk_predicates))


@lru_cache(maxsize=65536)
def _high_risk(claim_key: str, predicate: str, phrases: tuple[str, ...]) -> bool:
    # asked for both claims of every conflict pair: a key's answer is computed once
    words = f" {claim_key.replace('|', ' ')} {predicate} ".casefold()
    return any(f" {phrase.casefold().strip()} " in words for phrase in phrases if phrase.strip())


def assess(
    a: ClaimFacts,
    b: ClaimFacts,
    rule: str,
    settings: MaterialitySettings,
    tier_a: str | None = None,
    tier_b: str | None = None,
) -> Materiality:
    """Materiality of the conflict between ``a`` and ``b`` decided by ``rule``."""
    difference = relative_difference(a, b, rule)
    high_risk = is_high_risk(a, settings) or is_high_risk(b, settings)
    rank_a = _rank(tier_a, settings.authority_tiers)
    rank_b = _rank(tier_b, settings.authority_tiers)
    gap = abs(rank_a - rank_b) if rank_a is not None and rank_b is not None else 0
    resolvable = gap >= settings.tier_gap_resolvable
    score = difference
    if resolvable:
        score *= 0.5
    if high_risk:
        score = max(score, 0.9)
    material = high_risk or (
        difference >= settings.relative_difference_threshold and not resolvable
    )
    return Materiality(material=material, score=round(min(1.0, score), 6))
