"""``claims check``: the store's edge engine on two one-document corpora.

The two texts are read as two files of one ``claims run`` would be: each is a source of
its own (ids ``left`` and ``right``, one version each, the version id the store would give
those bytes), its claims go through the store's row form and back (what the edge recompute
reads), claims without a subject are left out as the store's recompute leaves them out, and
``claims.edges.build_edges`` links them with no register, no tiers and the default
materiality. The report is the edges with one claim in each text: exactly the rows
``claims run left.txt right.txt`` would store between the two files
(``tests/test_check_is_the_store.py`` holds this over generated pairs and the office corpus).
There is no second pairing path: a pair the builder does not link is not reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from claims.edges.builder import EdgeRecord, build_edges
from claims.edges.facts import facts_from_claim, shown_value
from claims.edges.value_groups import is_unknown_key
from claims.edges.verdict import RELATION_RANK, Rule
from claims.ids import sha256_hex
from claims.models import Claim, EdgeKind, Relation
from claims.profiles import profile_named
from claims.store.claims import CLAIM_COLUMNS, claim_row, stored_claim
from claims.store.sources import version_id

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
    """One stored edge between a claim of the left text and a claim of the right text."""

    left: Claim
    right: Claim
    relation: Relation
    rule: str
    reason: str
    edge_id: str = ""

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
    """The verdict on two texts: the strongest edge between them plus every edge."""

    relation: Relation
    rule: str
    reason: str
    duplicate: bool
    pairs: list[PairReport] = field(default_factory=list)
    left_claims: int = 0
    right_claims: int = 0
    # the claims each text states (all of them, also those no edge links)
    left_found: list[Claim] = field(default_factory=list)
    right_found: list[Claim] = field(default_factory=list)

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


def as_stored(claim: Claim) -> Claim:
    """``claim`` as the edge recompute reads it back from its store row."""
    return stored_claim(SimpleNamespace(**dict(zip(CLAIM_COLUMNS, claim_row(claim), strict=True))))


def check_claims(
    left: Sequence[Claim], right: Sequence[Claim], generation: str, profile: str | None = None
) -> CheckResult:
    """The edges the store's builder draws between the claims of two one-document corpora,
    both read with ``profile`` (its judges apply to both, as the store applies them)."""
    left = [as_stored(c) for c in left]
    right = [as_stored(c) for c in right]
    by_id = {c.id: c for c in [*left, *right]}
    on_left = {c.id for c in left}
    facts = [facts_from_claim(c) for c in by_id.values() if not is_unknown_key(c.claim_key)]
    facts.sort(key=lambda f: f.id)  # the order the recompute reads them in
    judges = profile_named(profile).edge_judges
    pages = (LEFT_SOURCE, RIGHT_SOURCE) if judges else ()
    build = build_edges(facts, generation=generation, judges=judges, namesake_sources=pages)
    pairs = [
        _report(edge, by_id, on_left)
        for edge in build.edges
        if (edge.left_claim_id in on_left) != (edge.right_claim_id in on_left)
    ]
    pairs.sort(key=lambda p: (-RELATION_RANK[p.relation], p.rule, p.reason, p.edge_id))
    if not pairs:
        empty = [name for name, side in (("left", left), ("right", right)) if not side]
        reason = (
            f"no claim found in the {' and '.join(empty)} text"
            if empty
            else "the edge builder links no claim of one text with a claim of the other"
        )
        return CheckResult(
            Relation.UNRELATED, "none", reason, False, [], len(left), len(right), left, right
        )
    top = pairs[0]
    return CheckResult(
        top.relation,
        top.rule,
        top.reason,
        any(p.duplicate for p in pairs),
        pairs,
        len(left),
        len(right),
        left,
        right,
    )


def _report(edge: EdgeRecord, by_id: dict[str, Claim], on_left: set[str]) -> PairReport:
    a, b = by_id[edge.left_claim_id], by_id[edge.right_claim_id]
    if a.id not in on_left:
        a, b = b, a
    relation = RELATION_OF_KIND.get(EdgeKind(edge.kind), Relation.COMPATIBLE)
    return PairReport(a, b, relation, edge.rule, edge.reason, edge.id)


def text_version_id(source_id: str, text: str) -> str:
    """The version id the store gives ``text`` saved as a UTF-8 file of ``source_id``."""
    return version_id(source_id, sha256_hex(text.encode("utf-8")))


def check_texts(
    left_text: str, right_text: str, profile: str | None = None, subject: str | None = None
) -> CheckResult:
    """Extract both texts as two sources read with ``profile`` (None: office) and report the
    edges the store would draw. ``subject`` is what both texts are about, as a register
    title given to both files (the title of the page two sentences come from): what "it"
    or "the company" in them refer to."""
    from claims.extraction import current_generation, extract

    left = extract(
        left_text,
        source_id=LEFT_SOURCE,
        source_version_id=text_version_id(LEFT_SOURCE, left_text),
        document_subject=subject,
        profile=profile,
    )
    right = extract(
        right_text,
        source_id=RIGHT_SOURCE,
        source_version_id=text_version_id(RIGHT_SOURCE, right_text),
        document_subject=subject,
        profile=profile,
    )
    return check_claims(left, right, current_generation()[0], profile)
