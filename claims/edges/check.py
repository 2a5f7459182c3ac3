"""``claims check``: the pipeline's extraction and edge rules on two texts as two sources.

No passage-level shortcut: each text goes through ``claims.extraction.extract`` as its own
source, every claim of one text is compared with every claim of the other through
``compare_facts`` and ``refine`` (exactly what the builder runs inside a block), and the
strongest pair gives the top-level relation
(conflict > ambiguous > corroboration > compatible > unrelated).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from claims.edges.alignment import NO_ALIGNMENT, Alignment, align
from claims.edges.builder import refine
from claims.edges.compare import compare_facts, listed_values
from claims.edges.facts import ClaimFacts, facts_from_claim, shown_value
from claims.edges.pairing import (
    comparable,
    judge_counterparts,
    match_texts,
    one_context,
    same_thing,
)
from claims.edges.revision import (
    aligned_pairs,
    apart,
    judge_apart,
    judge_moved_time,
    judge_revision,
    judge_unread,
    moved_times,
    one_slot,
    revised_dates,
    unread_changes,
    vague_changes,
)
from claims.edges.verdict import RELATION_RANK, PairVerdict, Rule
from claims.models import Claim, EdgeKind, Relation

LEFT_SOURCE = "left"
RIGHT_SOURCE = "right"

RELATION_OF_KIND = {
    EdgeKind.CONFLICTS: Relation.CONFLICT,
    EdgeKind.AMBIGUOUS: Relation.AMBIGUOUS,
    EdgeKind.CORROBORATES: Relation.CORROBORATION,
    EdgeKind.COMPATIBLE: Relation.COMPATIBLE,
}


def claim_summary(claim: Claim) -> dict[str, Any]:
    """What a reader needs to recognise a claim in a check report."""
    return {
        "claim_key": claim.claim_key,
        "value": shown_value(claim),
        "kind": claim.kind.value,
        "scope": dict(claim.scope),
        "scope_residual": list(claim.scope_residual),
        "time": claim.time.text,
        "reported_speech": claim.reported_speech,
        "quote": claim.quote,
        "locator": claim.locator.to_dict() if claim.locator is not None else None,
    }


@dataclass(frozen=True)
class PairReport:
    left: Claim
    right: Claim
    relation: Relation
    rule: str
    reason: str

    @property
    def duplicate(self) -> bool:
        return self.rule == Rule.CLONE

    def to_dict(self) -> dict[str, Any]:
        return {
            "relation": self.relation.value,
            "rule": self.rule,
            "reason": self.reason,
            "duplicate": self.duplicate,
            "left": claim_summary(self.left),
            "right": claim_summary(self.right),
        }


@dataclass
class CheckResult:
    """The verdict on two texts: the strongest pair plus every pair."""

    relation: Relation
    rule: str
    reason: str
    duplicate: bool
    pairs: list[PairReport] = field(default_factory=list)
    left_claims: int = 0
    right_claims: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "relation": self.relation.value,
            "rule": self.rule,
            "reason": self.reason,
            "duplicate": self.duplicate,
            "left_claims": self.left_claims,
            "right_claims": self.right_claims,
            "pairs": [p.to_dict() for p in self.pairs],
        }

    def summary(self) -> dict[str, Any]:
        return {
            "relation": self.relation.value,
            "rule": self.rule,
            "reason": self.reason,
            "duplicate": self.duplicate,
        }


def pair_report(
    left: Claim,
    right: Claim,
    mates_left: Sequence[ClaimFacts] = (),
    mates_right: Sequence[ClaimFacts] = (),
) -> PairReport:
    """One pair's relation; ``mates_*`` are the other claims of each claim's sentence."""
    x, y = one_context(facts_from_claim(left), facts_from_claim(right))
    verdict: PairVerdict = listed_values(x, y, compare_facts(x, y), mates_left, mates_right)
    draft = refine(x, y, verdict)
    if draft is None:
        return PairReport(left, right, verdict.relation, verdict.rule, verdict.reason)
    relation = RELATION_OF_KIND.get(draft.kind, verdict.relation)
    return PairReport(left, right, relation, draft.rule, draft.reason)


def check_claims(
    left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment = NO_ALIGNMENT
) -> CheckResult:
    """Compare every claim of ``left`` with every claim of ``right`` (two small texts).

    ``alignment`` is the word alignment of the two texts (``alignment.align``); when they
    are one sentence revised, claims whose values the revision changed in place are judged
    as one slot (``revision``)."""
    left_facts = [facts_from_claim(c) for c in left]
    right_facts = [facts_from_claim(c) for c in right]

    def mates(facts: ClaimFacts, side: list[ClaimFacts]) -> list[ClaimFacts]:
        return [
            m
            for m in side
            if m.claim_key == facts.claim_key
            and m.version_id == facts.version_id
            and m.quote_norm == facts.quote_norm
        ]

    pairs = [
        pair_report(a, b, mates(fa, left_facts), mates(fb, right_facts))
        for a, fa in zip(left, left_facts, strict=True)
        for b, fb in zip(right, right_facts, strict=True)
    ]
    pairs, revised = _in_revision(pairs, left_facts, right_facts, left, right, alignment)
    pairs = _with_counterparts(pairs, left_facts, right_facts, revised)
    unread = _unread(pairs, left, right, alignment)
    if unread is not None:
        return CheckResult(
            unread.relation, unread.rule, unread.reason, False, pairs, len(left), len(right)
        )
    if not pairs:
        empty = [name for name, side in (("left", left), ("right", right)) if not side]
        return CheckResult(
            Relation.UNRELATED,
            "none",
            f"no comparable claim found in the {' and '.join(empty)} text",
            False,
            [],
            len(left),
            len(right),
        )
    # the strongest relation; among equals the smallest rule, then reason (deterministic)
    strongest = max(RELATION_RANK[p.relation] for p in pairs)
    top = min(
        (p for p in pairs if RELATION_RANK[p.relation] == strongest),
        key=lambda p: (p.rule, p.reason),
    )
    return CheckResult(
        top.relation,
        top.rule,
        top.reason,
        any(p.duplicate for p in pairs),
        pairs,
        len(left),
        len(right),
    )


def _unread(
    pairs: list[PairReport], left: Sequence[Claim], right: Sequence[Claim], alignment: Alignment
) -> PairVerdict | None:
    """When the texts are one sentence revised and no pair is in one slot, the figures the
    revision changed that no claim reads (``revision.unread_changes``) and the figures it
    replaced by a vague amount (``revision.vague_changes``), as an ambiguity."""
    if not alignment.revision:
        return None
    if any(
        p.relation is Relation.CONFLICT or (p.relation is Relation.AMBIGUOUS and p.rule != Rule.KEY)
        for p in pairs
    ):
        # a pair already in one slot; an ambiguity of two keys alone ("similar attributes")
        # says less than the changed figure, which then names the verdict (session 8)
        return None
    changes = unread_changes(left, right, alignment)
    vague = vague_changes(alignment)
    return judge_unread(alignment, changes, vague) if changes or vague else None


def _in_revision(
    pairs: list[PairReport],
    left_facts: list[ClaimFacts],
    right_facts: list[ClaimFacts],
    left: Sequence[Claim],
    right: Sequence[Claim],
    alignment: Alignment,
) -> tuple[list[PairReport], set[tuple[str, str]]]:
    """The pairs re-judged when the two texts are one sentence revised (``revision``): two
    values the revision changed in place are one slot, and so is one statement whose time
    it moved. Returns the pairs and the (left id, right id) pairs decided here, which the
    text matching leaves alone."""
    if not alignment.revision:
        return pairs, set()
    values = aligned_pairs(left, right, alignment)
    times = moved_times(left, right, alignment)
    dates = revised_dates(left, right, alignment)
    facts = {f.id: f for f in [*left_facts, *right_facts]}
    decided: set[tuple[str, str]] = set()
    out = []
    for p in pairs:
        ids = (p.left.id, p.right.id)
        x, y = facts[p.left.id], facts[p.right.id]
        verdict: PairVerdict | None = None
        if ids in values and one_slot(x, y, alignment):
            verdict = judge_revision(x, y, values[ids])
        elif ids in times:
            verdict = judge_moved_time(x, y, times[ids])
        if verdict is None and ids in dates:
            verdict = judge_revision(x, y, dates[ids])
        if verdict is not None:  # the revision's reading replaces the plain comparison
            decided.add(ids)
            p = PairReport(p.left, p.right, verdict.relation, verdict.rule, verdict.reason)
        elif p.relation in (Relation.CONFLICT, Relation.AMBIGUOUS) and apart(
            p.left, p.right, alignment
        ):
            decided.add(ids)
            kept = PairVerdict(p.relation, p.rule, p.reason)
            verdict = judge_apart(x, y, kept)
            p = PairReport(p.left, p.right, verdict.relation, verdict.rule, verdict.reason)
        out.append(p)
    return out, decided


def _with_counterparts(
    pairs: list[PairReport],
    left_facts: list[ClaimFacts],
    right_facts: list[ClaimFacts],
    decided: set[tuple[str, str]],
) -> list[PairReport]:
    """The pairs re-judged by matching the two texts' claims (``pairing``): a disagreement
    with a claim the other text supports elsewhere is dropped, and counterparts whose keys
    kept them apart are compared. Pairs in ``decided`` (a revision's) are left as they are."""
    matching = match_texts(left_facts, right_facts)
    facts = {f.id: f for f in [*left_facts, *right_facts]}
    out = []
    for p in pairs:
        x, y = facts[p.left.id], facts[p.right.id]
        if (p.left.id, p.right.id) in decided:
            out.append(p)
            continue
        supported = next(
            ((c, matching.support[c.id]) for c in (x, y) if c.id in matching.support), None
        )
        if p.relation in (Relation.CONFLICT, Relation.AMBIGUOUS) and supported and comparable(x, y):
            claim, agreeing = supported
            reason = (
                f"the other text agrees with {claim.shown} elsewhere ({agreeing.shown}, "
                f"{agreeing.claim_key!r}); {p.reason}"
            )
            p = PairReport(p.left, p.right, Relation.COMPATIBLE, Rule.COUNTERPART, reason)
        elif (
            p.rule == Rule.KEY
            and not supported
            and (p.relation is Relation.UNRELATED or same_thing(x, y))
        ):
            score = matching.counterparts(x, y)
            verdict = judge_counterparts(x, y) if score is not None else None
            if verdict is not None and verdict.relation in (
                Relation.CONFLICT,
                Relation.AMBIGUOUS,
            ):
                reason = (
                    f"counterparts in the two texts: {x.claim_key!r} and {y.claim_key!r} "
                    f"describe one thing (description similarity {score:.2f}); "
                    f"{verdict.reason}"
                )
                p = PairReport(p.left, p.right, verdict.relation, verdict.rule, reason)
        out.append(p)
    return out


def check_texts(left_text: str, right_text: str) -> CheckResult:
    """Extract both texts as two sources and compare their claims."""
    from claims.extraction import extract

    left = extract(left_text, source_id=LEFT_SOURCE, source_version_id=f"{LEFT_SOURCE}@check")
    right = extract(right_text, source_id=RIGHT_SOURCE, source_version_id=f"{RIGHT_SOURCE}@check")
    left, right = one_page(left, LEFT_SOURCE), one_page(right, RIGHT_SOURCE)
    return check_claims(left, right, align(left_text, right_text))


def one_page(claims: Sequence[Claim], source: str) -> list[Claim]:
    """The claims of one text of ``claims check`` with its subject named as on one page.

    A subject read late on a page without a title or opening is known only as named in
    that page, so the extractor tags it with the source (``opening_claims``: "Anna Nicole
    Smith (in left)"), which keeps two pages' namesakes apart in a store. The two texts of
    ``claims check`` are read as two versions of one page (session 9): a subject found in
    either is one entity, so the tag is dropped on both sides and "Anna Nicole Smith" born
    1968 / 1967 is one slot."""
    tag = f" (in {source})"
    out = []
    for claim in claims:
        entity = claim.entity
        if entity and entity.endswith(tag):
            name = entity[: -len(tag)]
            key = claim.claim_key
            if key.startswith(entity):
                key = name + key[len(entity) :]
            claim = claim.model_copy(update={"entity": name, "claim_key": key})
        out.append(claim)
    return out
