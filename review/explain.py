"""Why a review item is where it is, in words a reviewer can check against the policy.

A caller gets ``explain_item(session, item, resolution, tiers)`` -> ``Explanation``: the
conflict the edges state ("value: 12 cents per share vs 30 cents per share"), the routing
reasons ("matches high-risk pattern `*dividend*`", "tiers tie: approved vs approved, no rule
decides"), the policy it was judged under (name, declared version, hash), and for each side
what the policy's rules say about it. Routing (``review.routing``) decides; this module only
words the same checks, and ``rule_decision`` stays the authority on the outcome: when the
wording and the decision could disagree, the decision is what is reported.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from claims.models import Resolution, ResolutionMethod, ReviewItem, ReviewState
from claims.tables import EdgeRow
from review.policy import (
    AuthorityPolicy,
    AutoResolutionRule,
    RuleKind,
    active_policy_row,
    policy_by_version,
    policy_from_row,
)
from review.routing import (
    ConflictSet,
    edge_is_material,
    live_conflict_edges,
    rule_decision,
)

TierInfo = dict[str, tuple[str | None, bool]]  # claim id -> (tier, source withdrawn)


@dataclass
class PolicyRef:
    """A policy as a reviewer names it: id, declared version, hash, and its stamp."""

    policy_id: str
    declared_version: str
    content_hash: str
    stamp: str

    @classmethod
    def of(cls, policy: AuthorityPolicy) -> PolicyRef:
        return cls(policy.policy_id, policy.version, policy.content_hash[:12], policy.stamp)

    @property
    def label(self) -> str:
        return f"{self.policy_id} version {self.declared_version} (hash {self.content_hash})"


@dataclass
class Explanation:
    values: list[str] = field(default_factory=list)  # the distinct values the sides state
    conflict: list[str] = field(default_factory=list)  # the edges' reasons, one per edge
    reasons: list[str] = field(default_factory=list)  # why the item is here
    rules: list[str] = field(default_factory=list)  # what each rule of the policy says
    side_notes: dict[str, str] = field(default_factory=dict)  # claim id -> rule outcome
    policy: PolicyRef | None = None  # the active policy the reasons are judged under
    decision: str | None = None  # "decided by rule R of policy P" / "decided by reviewer X"

    def as_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["policy"] = dict(self.policy.__dict__) if self.policy else None
        return data


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10)
    return f"{number}{suffix or 'th'}"


def _tier_words(policy: AuthorityPolicy, tier: str | None) -> str:
    rank = policy.tier_rank(tier)
    if tier is None:
        return "no tier in the register"
    if rank is None:
        return f"tier '{tier}', which the policy does not list"
    return f"tier '{tier}' ({_ordinal(rank + 1)} of {len(policy.tiers)} in the policy)"


def _tier_rule(
    policy: AuthorityPolicy, rule: AutoResolutionRule, conflict: ConflictSet, tiers: TierInfo
) -> str:
    """Why ``higher_tier_wins`` does (or does not) decide the set, in words."""
    ranks = {c: policy.tier_rank(tiers.get(c, (None, False))[0]) for c in conflict.claim_ids}
    unranked = sorted(c for c, r in ranks.items() if r is None)
    if unranked:
        tier = tiers.get(unranked[0], (None, False))[0]
        return (
            f"rule {rule.id} cannot rank {unranked[0]}: it has "
            f"{_tier_words(policy, tier)}; a person decides"
        )
    best = min(r for r in ranks.values() if r is not None)
    rest = sorted({r for r in ranks.values() if r is not None and r != best})
    top = policy.tiers[best]
    if not rest:
        names = " vs ".join(policy.tiers[r] for r in sorted(ranks.values()) if r is not None)
        return f"tiers tie: {names}, no rule decides"
    gap = rest[0] - best
    runner = policy.tiers[rest[0]]
    if gap < rule.min_tier_gap:
        return (
            f"rule {rule.id}: '{top}' is only {gap} tier(s) above '{runner}', fewer than its "
            f"min_tier_gap {rule.min_tier_gap}; no rule decides"
        )
    top_claims = {c for c, r in ranks.items() if r == best}
    if any(tiers[c][1] for c in top_claims):
        return f"rule {rule.id}: the '{top}' source is withdrawn and cannot win by rule"
    if any(
        e.left_claim_id in top_claims and e.right_claim_id in top_claims for e in conflict.edges
    ):
        return f"rule {rule.id}: the '{top}' sources disagree with each other; no rule decides"
    return f"rule {rule.id}: tier '{top}' outranks '{runner}', so the '{top}' side wins"


def _rule_words(
    policy: AuthorityPolicy,
    rule: AutoResolutionRule,
    conflict: ConflictSet,
    tiers: TierInfo,
    material: bool,
) -> str:
    tier_words = (
        _tier_rule(policy, rule, conflict, tiers) if rule.kind is RuleKind.HIGHER_TIER_WINS else ""
    )
    if material and not rule.material_conflicts:
        skipped = (
            f"rule {rule.id} ({rule.kind.value}) only decides conflicts that are not material "
            "(material_conflicts: false)"
        )
        # The tiers still tell the reviewer who would outrank whom.
        rest = tier_words.removeprefix(f"rule {rule.id}: ")
        return f"{skipped}; were it not material: {rest}" if tier_words else skipped
    if tier_words:
        return tier_words
    return f"rule {rule.id} ({rule.kind.value}) does not apply"  # pragma: no cover - one kind


def _material_words(conflict: ConflictSet, policy: AuthorityPolicy) -> tuple[bool, str]:
    """(material?, why) for the set, naming the edge verdict or score that makes it so."""
    for edge in conflict.edges:
        if edge.material:
            return True, "the conflict is material (the edge builder marked it so)"
        if edge.material is None and edge.materiality is None:
            return True, "the conflict's materiality is unknown, so a person decides"
        if edge.material is None and edge_is_material(edge, policy):
            return True, (
                f"the conflict is material (materiality {edge.materiality:.2f} >= "
                f"min_score {policy.materiality.min_score})"
            )
    return False, "the conflict is not material"


def _decision_words(session: Session, resolution: Resolution) -> str:
    decided = resolution.policy_version
    named = policy_by_version(session, decided)
    policy = f"{named.policy_id} {decided}" if named is not None else decided
    if resolution.method is ResolutionMethod.RULE:
        rule = resolution.decided_by.removeprefix("rule:")
        return f"decided by rule {rule} of policy {policy}"
    verb = {
        ReviewState.RESOLVED: "resolved",
        ReviewState.DISMISSED: "dismissed as not a conflict",
        ReviewState.AMBIGUOUS: "marked ambiguous",
    }.get(resolution.outcome, resolution.outcome.value)
    return f"{verb} by reviewer {resolution.decided_by} under policy {policy}"


def _edge_reasons(session: Session, edge_ids: list[str]) -> list[str]:
    if not edge_ids:
        return []
    rows = session.execute(select(EdgeRow.id, EdgeRow.reason).where(EdgeRow.id.in_(edge_ids)))
    by_id: dict[str, str] = {edge_id: reason for edge_id, reason in rows}
    return list(dict.fromkeys(by_id[e] for e in edge_ids if by_id.get(e)))


def explain_item(
    session: Session,
    item: ReviewItem,
    members: list[str],
    resolution: Resolution | None,
    tiers: TierInfo,
    *,
    touched_by_person: bool,
) -> Explanation:
    """The reasons for ``item`` (whose current claims are ``members``) under the active policy."""
    row = active_policy_row(session)
    explanation = Explanation()
    if resolution is not None:
        explanation.decision = _decision_words(session, resolution)
    member_set = set(members)
    edges = [
        e
        for e in live_conflict_edges(session, [item.claim_key])
        if e.left_claim_id in member_set and e.right_claim_id in member_set
    ]
    explanation.conflict = _edge_reasons(session, [e.id for e in edges])
    if row is None:
        explanation.reasons.append("no authority policy is applied; every conflict needs a person")
        return explanation
    policy = policy_from_row(row)
    explanation.policy = PolicyRef.of(policy)
    if not edges:
        explanation.reasons.append(
            "no live conflict edge joins these claims any more (edges retired or a new "
            "extractor generation); dismiss the item if the conflict is moot"
        )
        return explanation
    conflict = ConflictSet(item.claim_key, frozenset(member_set & _ends(edges)), tuple(edges))
    pattern = policy.high_risk_pattern(item.claim_key)
    material, material_reason = _material_words(conflict, policy)
    if pattern is not None:
        explanation.reasons.append(
            f"matches high-risk pattern `{pattern}` of policy {policy.policy_id}: "
            "a person decides, never a rule"
        )
        material = True
    else:
        explanation.reasons.append(material_reason)
    decision = rule_decision(session, policy, conflict, material=material, tiers=tiers)
    if pattern is None:
        explanation.rules = [
            _rule_words(policy, rule, conflict, tiers, material) for rule in policy.auto_resolution
        ]
        explanation.reasons += _rule_reasons(policy, resolution, decision, explanation.rules)
        if decision is not None and not _decided_by(resolution, decision.rule_id):
            why = (
                "a reviewer has acted on it, so rules no longer decide it"
                if touched_by_person
                else "the next routing pass decides it by rule"
            )
            explanation.reasons.append(f"rule {decision.rule_id} would decide it, but {why}")
    for claim_id in members:
        explanation.side_notes[claim_id] = _side_note(policy, claim_id, tiers, decision, pattern)
    return explanation


def _decided_by(resolution: Resolution | None, rule_id: str) -> bool:
    return (
        resolution is not None
        and resolution.method is ResolutionMethod.RULE
        and resolution.decided_by == f"rule:{rule_id}"
    )


def _rule_reasons(
    policy: AuthorityPolicy,
    resolution: Resolution | None,
    decision: Any,
    rules: list[str],
) -> list[str]:
    """What the rules say, as reasons: every rule's refusal, or the deciding rule's verdict."""
    if not policy.auto_resolution:
        return [f"policy {policy.policy_id} has no auto-resolution rules: a person decides"]
    if decision is None:
        return rules
    index = [r.id for r in policy.auto_resolution].index(decision.rule_id)
    return [rules[index]] if _decided_by(resolution, decision.rule_id) else []


def _ends(edges: list[Any]) -> set[str]:
    return {c for e in edges for c in (e.left_claim_id, e.right_claim_id)}


def _side_note(
    policy: AuthorityPolicy,
    claim_id: str,
    tiers: TierInfo,
    decision: Any,
    pattern: str | None,
) -> str:
    tier, withdrawn = tiers.get(claim_id, (None, False))
    words = _tier_words(policy, tier) + (", source withdrawn" if withdrawn else "")
    if pattern is not None:
        return f"{words}; high-risk, so no rule decides this side"
    if decision is None:
        return f"{words}; no rule decides this side"
    if claim_id in decision.winners:
        return f"{words}; rule {decision.rule_id} would make this side win"
    return f"{words}; rule {decision.rule_id} would make this side lose"
