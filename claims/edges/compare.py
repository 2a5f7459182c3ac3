"""Pairwise comparison of two claims: the conflict, corroboration and ambiguity rules.

``compare(a, b)`` is pure and symmetric: the two sides are put in a fixed order first, so
both argument orders give the same verdict, rule and reason. The checks run in this order:

0. two named entities that differ: never a conflict (two things are two scopes);
1. different claim keys: by attribute similarity (``similarity``): the ``same`` band
   compares values as for one key, the ``similar`` band (or an entity named on one side
   only) turns a disagreement into ``ambiguous`` and an agreement into ``compatible``,
   the ``different`` band is unrelated;
2. reported speech on one side only: compatible (a third party's words against the
   source's own); reported on both sides, the two reports are compared like statements;
3. known, disjoint effective times: compatible (two "as of" snapshots of one figure whose
   values disagree: ambiguous, the later may update the earlier);
4. a scope dimension stated on both sides with different values (or different unexplained
   qualifier words on both sides): compatible;
5. the values: equal (corroboration), both can hold (compatible: conversion, precision,
   elaboration, overlapping ranges, multi-valued predicate), cannot both hold (conflict),
   or cannot be compared (ambiguous: different dimensions or kinds);
6. a disagreement where scope or time is stated on one side only is ambiguous, not a
   conflict; an agreement under one-sided scope or time is compatible.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import yaml

from claims.edges.facts import EQUALITY_EPSILON, INF, ClaimFacts, facts_from_claim
from claims.edges.similarity import DIFFERENT, SAME, AttributeMatch, match_attributes
from claims.edges.verdict import PairVerdict, Rule
from claims.models import Claim, Relation

AGREE = "agree"
COMPATIBLE = "compatible"
INCOMPATIBLE = "incompatible"
INCOMPARABLE = "incomparable"


@dataclass(frozen=True, slots=True)
class ValueOutcome:
    state: str
    rule: str
    reason: str


def compare(a: Claim, b: Claim) -> PairVerdict:
    """The relation between two claims, the rule that decided it and a readable reason."""
    return compare_facts(facts_from_claim(a), facts_from_claim(b))


def compare_facts(a: ClaimFacts, b: ClaimFacts) -> PairVerdict:
    """``compare`` on the lean form (what the edge builder calls in its hot loop)."""
    a, b = ordered(a, b)
    if a.entity and b.entity and a.entity != b.entity:
        # two things are two scopes, whatever their attributes and values
        return PairVerdict(
            Relation.COMPATIBLE if a.claim_key == b.claim_key else Relation.UNRELATED,
            Rule.SCOPE,
            f"different entities: {a.entity!r} vs {b.entity!r}",
        )
    if a.claim_key != b.claim_key:
        return _across_keys(a, b)
    return _same_key(a, b)


# the predicate of a record claim ("X is the largest ...", claims/reference/records.py)
_RECORD = "record holder"


def _across_keys(a: ClaimFacts, b: ClaimFacts) -> PairVerdict:
    """Two claim keys: compare by attribute similarity (``similarity``), never by spelling."""
    if (a.predicate == _RECORD) != (b.predicate == _RECORD):
        return PairVerdict(
            Relation.UNRELATED,
            Rule.KEY,
            f"a record's holder and a claim of another kind: {a.claim_key!r} vs {b.claim_key!r}",
        )
    match = match_attributes(a.attribute, b.attribute)
    if match.band == DIFFERENT:
        return PairVerdict(
            Relation.UNRELATED,
            Rule.KEY,
            f"different claim keys: {a.claim_key!r} vs {b.claim_key!r} ({match.describe()})",
        )
    inner = _same_key(a, b)
    if match.band == SAME and a.entity == b.entity:
        return PairVerdict(
            inner.relation,
            inner.rule,
            f"same attribute worded differently ({a.attribute!r} vs {b.attribute!r}, "
            f"{match.describe()}); {inner.reason}",
        )
    return _near_miss(inner, a, b, match)


def compare_as_one_key(a: ClaimFacts, b: ClaimFacts, why: str) -> PairVerdict:
    """Two claim keys a profile's judge holds to name one attribute of one entity
    (``EdgeJudges.counterparts``), compared as values of one key: every rule of one key
    still applies (reported speech, time, scope, units, bounds); the reason names why."""
    a, b = ordered(a, b)
    if not a.dimension and b.dimension.startswith("count:"):
        a = replace(a, dimension=b.dimension)  # the judge found the bare number counts it
    elif not b.dimension and a.dimension.startswith("count:"):
        b = replace(b, dimension=a.dimension)
    inner = _same_key(a, b)
    return PairVerdict(
        inner.relation,
        inner.rule,
        f"counterparts {a.claim_key!r} and {b.claim_key!r}: {why}; {inner.reason}",
    )


def ordered(a: ClaimFacts, b: ClaimFacts) -> tuple[ClaimFacts, ClaimFacts]:
    """The two sides in their fixed order (source id, version id, claim id)."""
    if a.order_key < b.order_key:
        return a, b
    if b.order_key < a.order_key:
        return b, a
    # two claims under one id (ad-hoc input): still one fixed order
    return (a, b) if repr(a.signature) <= repr(b.signature) else (b, a)


def listed_values(
    x: ClaimFacts,
    y: ClaimFacts,
    verdict: PairVerdict,
    mates_x: Sequence[ClaimFacts] = (),
    mates_y: Sequence[ClaimFacts] = (),
) -> PairVerdict:
    """A conflict turned into an elaboration when a sentence lists several values.

    Also any disagreement between two claims of one sentence of one version.

    ``mates_x`` are the other claims of the same key in x's sentence (same source version).
    "The fee is 10 USD." against "The fee is 10 USD, or 15 USD for express delivery." is
    not a contradiction: the second sentence's values are a superset of the first's. Two
    values in one sentence are an enumeration, never a conflict with each other.
    """
    if verdict.relation not in (Relation.CONFLICT, Relation.AMBIGUOUS):
        return verdict
    if ordered(x, y)[0] is not x:
        x, y, mates_x, mates_y = y, x, mates_y, mates_x
    if x.version_id and x.version_id == y.version_id and x.quote_norm == y.quote_norm:
        # one sentence never disagrees with itself: its values are a list or facets of one
        # statement ("more than 2 % for 10 minutes")
        return PairVerdict(
            Relation.COMPATIBLE,
            Rule.ELABORATION,
            f"one sentence states several values: {x.shown} and {y.shown}",
        )
    if verdict.relation is not Relation.CONFLICT:
        return verdict
    for listing, single, mates in ((x, y, mates_x), (y, x, mates_y)):
        for mate in mates:
            if mate.id == listing.id:
                continue
            if _same_key(mate, single).relation is Relation.CORROBORATION:
                return PairVerdict(
                    Relation.COMPATIBLE,
                    Rule.ELABORATION,
                    f"elaboration: one side lists {mate.shown} and {listing.shown}, "
                    f"the other states {single.shown}",
                )
    return verdict


# rules by which two different values both hold (one contains, bounds or rounds the other)
_BY_LOGIC = frozenset({Rule.ELABORATION, Rule.PRECISION, Rule.RANGE, Rule.BOUND})
_FIGURE = re.compile(r"\d[\d,.]*")


# "now", "currently", "today": the time of writing (docs/EXTRACTION.md, deictic times)
_NOW = frozenset({"now", "currently", "today", "at present", "presently", "nowadays"})
# a past tense of "have" or "be": a state that held before ("Ana had 9 apples")
_PAST_STATE = frozenset({"had", "was", "were"})


def _then_and_now(a: ClaimFacts, b: ClaimFacts) -> str:
    """Why two undated statements of a state are at two times, or "": one says it holds now,
    the other that it held ("Ana had 9 apples" / "Ana has 2 apples now": the count may have
    changed between). Only a stated "now" against a past tense: two undated statements
    in two tenses ("the rating was 65%" / "the rating is 63%") stay one time."""
    for x, y in ((a, b), (b, a)):
        if (
            x.time_text.casefold() in _NOW
            and not y.time_text
            and y.predicate.split(" ")[0] in _PAST_STATE
        ):
            return f"one side states {x.time_text!r}, the other a past state ({y.predicate!r})"
    return ""


def one_sentence_revised(a: ClaimFacts, b: ClaimFacts) -> bool:
    """Two sources' sentences that are one sentence but for their figures (a near copy with
    a figure changed: never an agreement on that figure)."""
    return (
        a.source_id != b.source_id
        and a.quote_norm != b.quote_norm
        and _FIGURE.sub("#", a.quote_norm) == _FIGURE.sub("#", b.quote_norm)
    )


def _near_miss(
    inner: PairVerdict, a: ClaimFacts, b: ClaimFacts, match: AttributeMatch
) -> PairVerdict:
    """Maybe one attribute: a disagreement is ambiguous, an agreement compatible."""
    why = "similar attributes"
    if match.band == SAME:  # the same attribute, with an entity named on one side only
        why = f"entity stated on one side only ({a.entity or b.entity!r})"
    keys = f"{why}: {a.claim_key!r} vs {b.claim_key!r}, {match.describe()}"
    if inner.relation in (Relation.CONFLICT, Relation.AMBIGUOUS):
        return PairVerdict(
            Relation.AMBIGUOUS,
            Rule.KEY,
            f"{keys}; {inner.reason}",
        )
    if inner.relation is Relation.CORROBORATION:
        return PairVerdict(Relation.COMPATIBLE, Rule.KEY, f"{keys}; {inner.reason}")
    return PairVerdict(
        Relation.UNRELATED, Rule.KEY, f"different claim keys ({keys}); {inner.reason}"
    )


def _same_key(a: ClaimFacts, b: ClaimFacts) -> PairVerdict:
    if a.reported != b.reported:
        return PairVerdict(
            Relation.COMPATIBLE,
            Rule.REPORTED_SPEECH,
            "reported speech on one side: a third party's claim, not the source's own",
        )
    verdict = _statements(a, b)
    if a.reported:
        # "the finance team says 340,000" / "the CFO said 410,000": two reports of one
        # figure stay comparable (issue 12); the reason says whose words they are
        reason = f"both sides report a third party's figure; {verdict.reason}"
        return replace(verdict, reason=reason)
    return verdict


def _statements(a: ClaimFacts, b: ClaimFacts) -> PairVerdict:
    """Two statements of one claim key (both the sources' own, or both reported)."""
    if a.time_known and b.time_known and (a.t_end < b.t_start or b.t_end < a.t_start):
        if snapshots(a, b) and compare_values(a, b).state == INCOMPATIBLE:
            # "as of 7 March: 4 cases" / "as of 8 March: 7 cases": one running figure read
            # at two dates, the later one updating the earlier (docs/EXTRACTION.md)
            return PairVerdict(
                Relation.AMBIGUOUS,
                Rule.TIME,
                f"one figure read at two dates ({a.time_text} vs {b.time_text}): "
                "the later snapshot may update the earlier",
            )
        return PairVerdict(
            Relation.COMPATIBLE,
            Rule.TIME,
            f"disjoint effective time: {a.time_text} vs {b.time_text}",
        )
    different = _different_scope(a, b)
    if different:
        return PairVerdict(Relation.COMPATIBLE, Rule.SCOPE, f"different scope: {different}")

    outcome = compare_values(a, b)
    if outcome.state == INCOMPARABLE:
        return PairVerdict(Relation.AMBIGUOUS, outcome.rule, outcome.reason)
    if outcome.state == COMPATIBLE:
        if outcome.rule in _BY_LOGIC and one_sentence_revised(a, b):
            # "more than 100 people" / "more than 50 people" in one sentence copied with
            # its figure changed: both hold by logic, but the copy changed what it states
            return PairVerdict(
                Relation.AMBIGUOUS,
                Rule.REVISION,
                f"one sentence with its figure changed ({a.shown} vs {b.shown}): {outcome.reason}",
            )
        return PairVerdict(Relation.COMPATIBLE, outcome.rule, outcome.reason)
    one_sided_scope = (
        _one_sided_scope(a, b) if a.scope or b.scope or a.residual or b.residual else ""
    )
    one_sided_time = a.time_known != b.time_known
    if outcome.state == INCOMPATIBLE:
        if one_sided_scope:
            return PairVerdict(
                Relation.AMBIGUOUS,
                Rule.SCOPE,
                f"scope stated on one side only ({one_sided_scope}); {outcome.reason}",
            )
        if one_sided_time:
            return PairVerdict(
                Relation.AMBIGUOUS,
                Rule.TIME,
                f"effective time stated on one side only ({_time_side(a, b)}); {outcome.reason}",
            )
        then_and_now = _then_and_now(a, b)
        if then_and_now:
            return PairVerdict(Relation.AMBIGUOUS, Rule.TIME, f"{then_and_now}; {outcome.reason}")
        return PairVerdict(Relation.CONFLICT, outcome.rule, outcome.reason)
    if outcome.state == AGREE:
        if one_sided_scope:
            # one side states the figure for all, the other for a part or at a limit ("16
            # weeks" for full-time employees, "112 days" for parents; "Maximum flow rate: 120
            # L/min", "Flow rate: 7.2 m3/h"): where both speak, they say the same
            return PairVerdict(
                Relation.CORROBORATION,
                Rule.SCOPE,
                f"values agree ({outcome.reason}); scope is stated on one side only "
                f"({one_sided_scope})",
            )
        if one_sided_time:
            return PairVerdict(
                Relation.COMPATIBLE,
                Rule.TIME,
                f"values agree ({outcome.reason}) but effective time is stated on one side "
                f"only ({_time_side(a, b)})",
            )
        if a.quote_norm == b.quote_norm and a.source_id != b.source_id:
            # conflict was ruled out above: only an agreement can collapse into one origin
            return PairVerdict(
                Relation.CORROBORATION,
                Rule.CLONE,
                f"surface clone: the same sentence under {a.source_id or 'one source'} and "
                f"{b.source_id or 'another'} counts as one origin ({outcome.reason})",
            )
        return PairVerdict(Relation.CORROBORATION, outcome.rule, outcome.reason)
    return PairVerdict(Relation.COMPATIBLE, outcome.rule, outcome.reason)


# ----------------------------------------------------------------- scope and time


def _different_scope(a: ClaimFacts, b: ClaimFacts) -> str:
    """A description of a qualifier both sides state differently, or ''."""
    if a.scope and b.scope:
        theirs = dict(b.scope)
        for dim, value in a.scope:
            other = theirs.get(dim)
            if other is not None and other != value:
                return f"{dim} {value} vs {other}"
    if a.residual - b.residual and b.residual - a.residual:
        # each side has qualifier words the other lacks; one side's extra words alone are a
        # one-sided scope (see _one_sided_scope)
        only_a = " ".join(sorted(a.residual - b.residual))
        only_b = " ".join(sorted(b.residual - a.residual))
        return f"qualifier {only_a} vs {only_b}"
    return ""


def _one_sided_scope(a: ClaimFacts, b: ClaimFacts) -> str:
    """A description of the qualifiers only one side states, or ''."""
    dims_a = {d for d, _ in a.scope}
    dims_b = {d for d, _ in b.scope}
    extra = [f"{d} {v}" for d, v in a.scope if d not in dims_b]
    extra += [f"{d} {v}" for d, v in b.scope if d not in dims_a]
    if a.residual != b.residual:
        # reached only when one side's words include the other's (else different scope)
        extra += sorted(a.residual ^ b.residual)
    return ", ".join(extra)


# "as of <date>" marks a running figure's snapshot; a census or survey is a count of its own
_SNAPSHOT_OPENERS = ("as of ", "as at ", "as on ")
_OWN_COUNTS = ("census", "survey", "estimate", "count", "enumeration", "tally")


def snapshots(a: ClaimFacts, b: ClaimFacts) -> bool:
    """Both claims state their figure "as of" a date (extraction's ``at`` connectives)."""
    texts = (a.time_text.lower(), b.time_text.lower())  # "currently; as of 24 march 2020"
    return all(
        any(part.strip().startswith(_SNAPSHOT_OPENERS) for part in t.split(";")) for t in texts
    ) and not any(w in t for t in texts for w in _OWN_COUNTS)


def _time_side(a: ClaimFacts, b: ClaimFacts) -> str:
    return a.time_text if a.time_known else b.time_text


# ----------------------------------------------------------------- values


def compare_values(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    """How the two values relate, ignoring scope and time."""
    if a.kind != b.kind:
        direction = _direction_against_change(a, b)
        if direction is not None:
            return direction
        return ValueOutcome(
            INCOMPARABLE,
            Rule.KIND,
            f"different kinds of value: {a.kind} {a.shown!r} vs {b.kind} {b.shown!r}",
        )
    if a.stance != b.stance and a.kind in _DENIABLE:
        return _denied_value(a, b)
    if a.kind == "quantity":
        return _quantities(a, b)
    if a.kind == "date":
        return _dates(a, b)
    if a.kind == "polarity":
        return _polarities(a, b)
    return _categories(a, b)


_DENIABLE = ("quantity", "date")


def _denied_value(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    """One side affirms a value, the other denies one ("is 30 days" / "is not 30 days")."""
    affirmed, denied = (a, b) if b.stance == "is_not" else (b, a)
    plain = replace(denied, stance=affirmed.stance, shown=affirmed.shown)
    same = compare_values(affirmed, plain)
    if same.state == AGREE:
        return ValueOutcome(
            INCOMPATIBLE, Rule.POLARITY, f"polarity: {affirmed.shown} vs {denied.shown}"
        )
    return ValueOutcome(
        COMPATIBLE,
        Rule.ELABORATION,
        f"both can hold: {affirmed.shown} and {denied.shown}",
    )


def _dates(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    """Two dates of one event: the same day, month or year agree; disjoint ones conflict;
    a year and a day inside it elaborate ("in 1871" and "on 3 May 1871")."""
    if _close(a.lo, b.lo) and _close(a.hi, b.hi):
        return ValueOutcome(AGREE, Rule.DATE, f"same date: {a.shown}")
    if a.hi < b.lo or b.hi < a.lo:
        return ValueOutcome(INCOMPATIBLE, Rule.DATE, f"date: {a.shown} vs {b.shown}")
    return ValueOutcome(
        COMPATIBLE, Rule.ELABORATION, f"elaboration: {a.shown} and {b.shown} overlap"
    )


def _direction_against_change(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome | None:
    """ "attrition went up" against "attrition fell 2%": the direction of the number decides."""
    pair = {a.kind: a, b.kind: b}
    label, amount = pair.get("categorical"), pair.get("quantity")
    if label is None or amount is None or label.label not in ("up", "down"):
        return None
    if not amount.claim_key.endswith("change") or amount.lo <= 0 <= amount.hi:
        return None
    moved = "up" if amount.lo > 0 else "down"
    if moved == label.label:
        return ValueOutcome(
            COMPATIBLE, Rule.ELABORATION, f"elaboration: {amount.shown} says how far {moved}"
        )
    return ValueOutcome(INCOMPATIBLE, Rule.DIRECTION, f"direction: {label.shown} vs {amount.shown}")


def _close(x: float, y: float) -> bool:
    if x == y:
        return True
    if x in (INF, -INF) or y in (INF, -INF):
        return False
    return abs(x - y) <= EQUALITY_EPSILON * max(abs(x), abs(y), 1e-300)


def _quantities(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    if a.dimension != b.dimension:
        if a.dimension and b.dimension:
            return ValueOutcome(
                INCOMPARABLE,
                Rule.UNIT,
                f"different dimensions: {a.shown} ({a.dimension}) vs {b.shown} ({b.dimension})",
            )
        if not (_close(a.lo, b.lo) and _close(a.hi, b.hi) and a.bound == b.bound):
            return ValueOutcome(
                INCOMPARABLE, Rule.UNIT, f"unit stated on one side only: {a.shown} vs {b.shown}"
            )
    # nominal endpoints: the admissible interval without the stated precision
    a_lo, a_hi = a.lo + a.tol, a.hi - a.tol
    b_lo, b_hi = b.lo + b.tol, b.hi - b.tol
    if a.bound == b.bound and _close(a_lo, b_lo) and _close(a_hi, b_hi):
        if a.unit != b.unit or a.shown != b.shown:
            return ValueOutcome(
                AGREE, Rule.CONVERSION, f"equal after unit conversion: {a.shown} = {b.shown}"
            )
        return ValueOutcome(AGREE, Rule.VALUE, f"same value: {a.shown}")

    rule = Rule.VALUE
    if "range" in (a.bound, b.bound):
        rule = Rule.RANGE
    elif a.bound != "exact" or b.bound != "exact":
        rule = Rule.BOUND

    if _disjoint(a, b):
        return ValueOutcome(INCOMPATIBLE, rule, f"{rule}: {a.shown} vs {b.shown}")

    if a.bound == b.bound and a.bound in _LIMITS:
        # "up to 30 EUR" / "up to 20 EUR", "at least 7 days" / "at least 14 days": inclusive
        # bounds state a limit, and two different limits for one key disagree. Strict ones
        # ("more than 100 employees" / "more than 200") describe, and both can hold.
        limit_a = a_hi if a.bound == "at_most" else a_lo
        limit_b = b_hi if b.bound == "at_most" else b_lo
        if abs(limit_a - limit_b) > a.tol + b.tol:
            return ValueOutcome(
                INCOMPATIBLE, Rule.BOUND, f"bound: two different limits, {a.shown} vs {b.shown}"
            )
        return ValueOutcome(
            COMPATIBLE, Rule.PRECISION, f"within the stated precision: {a.shown} vs {b.shown}"
        )

    if a.bound == b.bound == "exact":
        # two points that only meet through the precision the text states
        return ValueOutcome(
            COMPATIBLE, Rule.PRECISION, f"within the stated precision: {a.shown} vs {b.shown}"
        )
    if _contains(a, b) or _contains(b, a):
        inner, outer = (b, a) if _contains(a, b) else (a, b)
        verb = "satisfies" if outer.bound not in ("exact", "range") else "lies within"
        return ValueOutcome(
            COMPATIBLE, Rule.ELABORATION, f"elaboration: {inner.shown} {verb} {outer.shown}"
        )
    return ValueOutcome(COMPATIBLE, rule, f"both can hold: {a.shown} and {b.shown} overlap")


_LIMITS = ("at_most", "at_least")


def _disjoint(a: ClaimFacts, b: ClaimFacts) -> bool:
    """No value satisfies both admissible intervals."""
    return _below(a.hi, a.hi_open, b.lo, b.lo_open) or _below(b.hi, b.hi_open, a.lo, a.lo_open)


def _below(hi: float, hi_open: bool, lo: float, lo_open: bool) -> bool:
    """Every value up to ``hi`` lies strictly below every value from ``lo``."""
    if _close(hi, lo):
        return hi_open or lo_open
    return hi < lo


def _contains(outer: ClaimFacts, inner: ClaimFacts) -> bool:
    lo_ok = outer.lo < inner.lo or (
        _close(outer.lo, inner.lo) and (not outer.lo_open or inner.lo_open)
    )
    hi_ok = outer.hi > inner.hi or (
        _close(outer.hi, inner.hi) and (not outer.hi_open or inner.hi_open)
    )
    return lo_ok and hi_ok


# stance pairs that cannot both hold
_INCOMPATIBLE_STANCES = {
    frozenset({"must", "must_not"}),
    frozenset({"must", "optional"}),
    frozenset({"may", "must_not"}),
    frozenset({"optional", "must_not"}),
    frozenset({"is", "is_not"}),
}
_STANCE_WORDS = {
    "must": "required",
    "must_not": "prohibited",
    "may": "permitted",
    "optional": "optional",
    "is": "affirmed",
    "is_not": "denied",
}
_NORMS = {"must", "must_not", "may", "optional"}


def _polarities(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    # the claim key already names the action; the action as written differs by inflection
    # ("sublet" / "subletting") and is only shown, never compared
    what = a.label or b.label
    words = f"{_STANCE_WORDS[a.stance]} vs {_STANCE_WORDS[b.stance]}"
    if a.stance == b.stance:
        same = _STANCE_WORDS[a.stance]
        return ValueOutcome(AGREE, Rule.POLARITY, f"same polarity: {same} ({what})")
    if frozenset({a.stance, b.stance}) in _INCOMPATIBLE_STANCES:
        return ValueOutcome(INCOMPATIBLE, Rule.POLARITY, f"polarity: {words} ({what})")
    if (a.stance in _NORMS) != (b.stance in _NORMS):
        return ValueOutcome(
            COMPATIBLE, Rule.MODALITY, f"a statement of fact against a norm: {words} ({what})"
        )
    return ValueOutcome(
        COMPATIBLE, Rule.ELABORATION, f"elaboration: {words} can both hold ({what})"
    )


# words a label may hold on one side only without describing anything ("a metalcore band" /
# "an American metalcore band")
_LABEL_FILLER = frozenset({"a", "an", "the", "and", "or", "of", "in", "from"})
_LABEL_NEGATION = frozenset({"not", "no", "never", "non", "neither", "nor", "without"})
_LABEL_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@lru_cache(maxsize=1)
def medium_words() -> dict[str, str]:
    """A kind-of-work noun and the medium it names ("movie" -> "film", "sitcom" ->
    "series"): the extractor's opening lexicon, so a label says "3D movie" where the other
    says "3D dark fantasy adventure film" about one work (predicates.yaml, ``media``)."""
    text = resources.files("claims.edges").joinpath("predicates.yaml").read_text("utf-8")
    media = (yaml.safe_load(text) or {}).get("media") or {}
    return {str(w): str(v) for w, v in media.items()}


def _label_words(label: str) -> frozenset[str]:
    media = medium_words()
    words = _LABEL_WORD.findall(label.casefold())
    return frozenset(media.get(w, w) for w in words if w not in _LABEL_FILLER)


def _narrows(a: str, b: str) -> bool:
    """Whether every word of one label stands in the other (and they are not one label)."""
    x, y = _label_words(a), _label_words(b)
    if (x ^ y) & _LABEL_NEGATION:
        return False  # "not a series" / "a television series": a denial, not a narrower label
    return bool(x) and bool(y) and (x <= y or y <= x)


@lru_cache(maxsize=1)
def multi_valued_predicates() -> frozenset[str]:
    """Predicate words that can hold several labels at once (data file next to this module)."""
    text = resources.files("claims.edges").joinpath("predicates.yaml").read_text("utf-8")
    data = yaml.safe_load(text) or {}
    return frozenset(str(w).casefold() for w in data.get("multi_valued", []))


def is_multi_valued(facts: ClaimFacts) -> bool:
    words = set(facts.predicate.split()) | set(facts.claim_key.replace("|", " ").split())
    return bool(words & multi_valued_predicates())


def _categories(a: ClaimFacts, b: ClaimFacts) -> ValueOutcome:
    if a.label == b.label:
        return ValueOutcome(AGREE, Rule.CATEGORICAL, f"same value: {a.shown}")
    if is_multi_valued(a) or is_multi_valued(b):
        return ValueOutcome(
            COMPATIBLE,
            Rule.MULTI_VALUED,
            f"the predicate can hold several values: {a.shown!r} and {b.shown!r}",
        )
    if _narrows(a.label, b.label):
        # "series" / "television series", "comedy film" / "fantasy comedy film", "actor" /
        # "actor, voice actor and comedian": one label's every word stands in the other,
        # which describes the same thing more closely or lists more of it (session 9)
        return ValueOutcome(
            COMPATIBLE,
            Rule.ELABORATION,
            f"elaboration: every word of one label stands in the other ({a.shown!r} and "
            f"{b.shown!r})",
        )
    return ValueOutcome(INCOMPATIBLE, Rule.CATEGORICAL, f"categorical: {a.shown!r} vs {b.shown!r}")
