"""Value groups: disagreement inside one claim key stored linearly (issue 14.1).

Inside a block, claims with equal comparable facts already form a group (``builder._groups``).
A *value group* refines it by what else a verdict between two claims reads: the authority
tier of the source (materiality halves across tiers) and, for a sentence that lists several
values of the key, that sentence (``listed_values``). So the verdict between two value
groups holds for every pair of their members, and one ``value_group_relations`` row per
disagreeing pair of value groups plus one ``value_group_claims`` row per claim say as much
as an edge per claim pair did, in rows linear in the claims of the key.

Relations are stored *before* supersession: which version replaces which depends on what a
requester may see, so readers (``retrieval.verdicts``) apply the supersessions they can see.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from claims.edges.compare import listed_values
from claims.edges.facts import ClaimFacts
from claims.edges.materiality import MaterialitySettings, assess
from claims.edges.verdict import PairVerdict
from claims.models import EdgeKind, Relation

# Claims whose key names no subject ("12 items", a bare number) are never compared with
# each other: without a subject two numbers say nothing about one thing.
UNKNOWN_KEY_PREFIX = "unknown:"


def is_unknown_key(claim_key: str) -> bool:
    return claim_key.startswith(UNKNOWN_KEY_PREFIX)


class GroupMember(NamedTuple):
    """One ``value_group_claims`` row."""

    claim_id: str
    value_group_id: str
    claim_key: str


class GroupRelation(NamedTuple):
    """One ``value_group_relations`` row: a disagreement between two value groups."""

    id: str
    kind: str
    left_group_id: str
    right_group_id: str
    claim_key: str
    rule: str
    reason: str
    material: bool | None
    materiality: float | None


class ValueGroup(NamedTuple):
    id: str
    members: list[ClaimFacts]  # in block order (claims in force first)


def _canonical(part: object) -> str:
    # frozensets print in hash order, which changes between processes
    if isinstance(part, frozenset):
        return repr(sorted(map(str, part)))
    if isinstance(part, tuple):
        return "(" + ",".join(_canonical(p) for p in part) + ")"
    return repr(part)


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x1f".join(parts).encode(), digest_size=12).hexdigest()


def split_group(
    generation: str,
    origins: Sequence[Sequence[ClaimFacts]],
    mates: Callable[[ClaimFacts], list[ClaimFacts]],
    tiers: Mapping[str, str | None],
) -> list[ValueGroup]:
    """The value groups of one builder group (claims with equal comparable facts)."""
    first = origins[0][0]
    signature = _canonical(first.signature)
    by_context: dict[tuple[str, str, str], list[ClaimFacts]] = {}
    for origin in origins:
        for facts in origin:
            listing = len(mates(facts)) > 1
            context = (
                tiers.get(facts.source_id) or "",
                facts.version_id if listing else "",
                facts.quote_norm if listing else "",
            )
            by_context.setdefault(context, []).append(facts)
    return [
        ValueGroup(
            "vg_" + _digest(generation, first.claim_key, signature, *context),
            members,
        )
        for context, members in by_context.items()
    ]


def relate(
    generation: str,
    x: ValueGroup,
    y: ValueGroup,
    verdict: PairVerdict,
    mates: Callable[[ClaimFacts], list[ClaimFacts]],
    materiality: MaterialitySettings,
    tiers: Mapping[str, str | None],
) -> GroupRelation | None:
    """The stored disagreement between two value groups, or None when they do not disagree.

    ``verdict`` is the builder's verdict between the two builder groups; the list context
    of each value group may still turn it into an elaboration.
    """
    a, b = x.members[0], y.members[0]
    if verdict.relation is Relation.CONFLICT:
        verdict = listed_values(a, b, verdict, mates(a), mates(b))
    elif verdict.relation is Relation.AMBIGUOUS:
        verdict = listed_values(a, b, verdict)
    if verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS):
        return None
    if y.id < x.id:
        x, y, a, b = y, x, b, a
    kind = (
        EdgeKind.CONFLICTS if verdict.relation is Relation.CONFLICT else EdgeKind.AMBIGUOUS
    ).value
    material: bool | None = None
    score: float | None = None
    if verdict.relation is Relation.CONFLICT:
        assessed = assess(
            a, b, verdict.rule, materiality, tiers.get(a.source_id), tiers.get(b.source_id)
        )
        material, score = assessed.material, assessed.score
    return GroupRelation(
        "vgr_" + _digest(generation, kind, x.id, y.id),
        kind,
        x.id,
        y.id,
        a.claim_key,
        verdict.rule,
        verdict.reason,
        material,
        score,
    )
