"""Counterparts inside an explicit pair of texts (``claims check``): the pair is the block.

The store compares claims across claim keys only through attribute similarity
(``similarity``): a corpus has millions of claims, and blocking is what keeps the work
linear. ``claims check "A" "B"`` is different. The user has put two texts side by side and
asks whether they disagree, so the two texts *are* the block, and every claim of one may be
matched with every claim of the other. Wording then differs far more than an attribute
lexicon can fold ("Germany reported 1,500 cases" / "1,565 cases were reported in Germany";
"the film grossed $10 million" / "made $9.9 million in its opening weekend"). Three things
still say that two claims measure one thing:

* the same kind of value, and for quantities the same dimension: cases counted against
  cases, US dollars against US dollars (a count of critics never answers a rating in %);
* no two different named entities (as everywhere in the edge rules), and no two attributes
  that are plainly two ("notice period" / "probation period", see ``distinct_attributes``);
* the words describing the measured thing overlap (entity, attribute, qualifier words, scope
  values, the counted noun): ``description_score``, IDF-weighted like attribute similarity.

A claim's *near-best* candidates are the comparable claims of the other text whose
description matches about as well as the best one. A claim is *supported* when one of them
agrees with its value: a sentence listing several dollar figures never contradicts a claim
through a figure it was not about. Two claims are *counterparts* when each is among the other's
near-best candidates (mutual, so a figure one text does not mention finds no partner by
default). ``claims check`` then

1. keeps a disagreement only between claims that are not supported (``Matching.support``);
2. compares counterparts whose claim keys kept them apart as one claim key
   (``judge_counterparts``), with every other rule: reported speech, time, scope, units,
   bounds.

Before any of that, two claims of one pair are read as one context (``one_context``): the
entity, the place and the qualifier words one text states and the other leaves out are given
to both. The matching runs from both texts, so the result does not depend on their order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from claims.edges.compare import AGREE, COMPATIBLE, _same_key, compare_values, ordered
from claims.edges.facts import ClaimFacts
from claims.edges.similarity import DIFFERENT, attribute_words, match_attributes, word_weight
from claims.edges.verdict import PairVerdict

# Least share of the lighter description the other must cover for two claims to be
# candidates at all (a quarter: "Book Club earned ..." / "the film has grossed ... Book Club").
MIN_DESCRIPTION = 0.25
# Candidates scoring at least this share of the best candidate are as good as the best.
NEAR_BEST = 0.8
# Value kinds matched across wordings: a quantity or a date is one value of one thing;
# labels and polarities are compared by their keys only (their words are their values).
MATCHED_KINDS = ("quantity", "date")
# scope dimensions that say where or of what a text speaks, not under which condition
CONTEXT_DIMENSIONS = frozenset({"region"})

_WORD = re.compile(r"^[^\W\d_][\w.-]*$")


def description(facts: ClaimFacts) -> frozenset[str]:
    """The words that describe what a claim measures: entity, attribute, qualifier words,
    scope values and the noun its unit counts; no symbols or numbers."""
    words = set(attribute_words(facts.entity)) | set(attribute_words(facts.attribute))
    words |= facts.residual
    words |= {value for _, value in facts.scope}
    if facts.dimension.startswith("count:"):
        words.add(facts.dimension.split(":", 1)[1])
    return frozenset(w for w in words if _WORD.match(w))


def description_score(x: frozenset[str], y: frozenset[str]) -> tuple[float, float]:
    """IDF-weighted overlap of two descriptions, each in 0..1: relative to the lighter one
    (how much of the shorter description the other covers) and to both (Dice: how alike)."""
    if not x or not y:
        return 0.0, 0.0
    shared = sum(word_weight(w) for w in x & y)
    wx, wy = sum(word_weight(w) for w in x), sum(word_weight(w) for w in y)
    return shared / min(wx, wy), 2 * shared / (wx + wy)


def comparable(x: ClaimFacts, y: ClaimFacts) -> bool:
    """Whether two claims can be two values of one thing at all."""
    if x.kind != y.kind or x.kind not in MATCHED_KINDS:
        return False
    if x.entity and y.entity and x.entity != y.entity:
        return False
    if x.kind == "quantity" and x.dimension != y.dimension and not counted_alike(x, y):
        return False
    if x.kind == "date" and match_attributes(x.attribute, y.attribute).band == DIFFERENT:
        return False  # a date's attribute is its event: founded and dissolved are two
    return not distinct_attributes(x.attribute, y.attribute)


def counted_alike(x: ClaimFacts, y: ClaimFacts) -> str:
    """The dimension a bare number shares with a count whose noun its own words name
    ("the confirmed cases reached 642" / "640 confirmed cases": ``count:case``), or ''."""
    for bare, counted in ((x, y), (y, x)):
        if not bare.dimension and counted.dimension.startswith("count:"):
            noun = counted.dimension.split(":", 1)[1]
            if noun in description(bare):
                return counted.dimension
    return ""


def distinct_attributes(a: str, b: str) -> bool:
    """Whether two attributes name two different things, not one thing worded twice.

    Two attributes the lexicon names ("notice period" / "probation period", "revenue" /
    "net income"), or one head noun with a different modifier on each side ("approval rate"
    / "average rate"), are two attributes. A verb or a qualifier glued to one side only
    ("confirm case" / "case") is not.
    """
    if a == b:
        return False
    from claims.extraction.identity import named_attributes  # the extractor's lexicon

    named = named_attributes()
    if a in named and b in named:
        return True
    words_a, words_b = a.split(), b.split()
    if len(words_a) < 2 or len(words_b) < 2 or words_a[-1] != words_b[-1]:
        return False
    mods_a, mods_b = set(words_a[:-1]), set(words_b[:-1])
    return bool(mods_a - mods_b) and bool(mods_b - mods_a)


def same_thing(x: ClaimFacts, y: ClaimFacts) -> bool:
    """Whether each claim's description holds every word of the other's attribute.

    "Lisbon confirmed 1,500 cases" (attribute "confirm", counting cases) and "the confirmed
    cases reached 1,230" (attribute "confirm case"): the word one attribute adds is in the
    other's description, so the two name one thing. "The limit" and "the output limit" do
    not: "output" narrows the attribute, and that stays a similar attribute, ambiguous.
    """
    return attribute_words(y.attribute) <= description(x) and attribute_words(
        x.attribute
    ) <= description(y)


@dataclass
class Matching:
    """Near-best candidates and support of every claim of two texts (see module docstring)."""

    near: dict[str, list[tuple[float, ClaimFacts]]] = field(default_factory=dict)
    support: dict[str, ClaimFacts] = field(default_factory=dict)

    def counterparts(self, x: ClaimFacts, y: ClaimFacts) -> float | None:
        """The score of ``x`` and ``y`` as mutual near-best candidates, else ``None``."""
        mine = next((s for s, o in self.near.get(x.id, ()) if o.id == y.id), None)
        if mine is None or all(o.id != x.id for _, o in self.near.get(y.id, ())):
            return None
        return mine


def match_texts(left: Sequence[ClaimFacts], right: Sequence[ClaimFacts]) -> Matching:
    """The matching of two texts' claims (both directions, so order does not matter)."""
    matching = Matching()
    words = {f.id: description(f) for f in [*left, *right]}
    for side, others in ((left, right), (right, left)):
        for claim in side:
            scored = _candidates(claim, others, words)
            matching.near[claim.id] = _near_best(scored)
            # any candidate of the same unit that agrees: the other text states this value
            # in a role described like this one (a count of cases, a worldwide gross)
            agreeing = [
                o
                for _, o in scored
                if o.dimension == claim.dimension and compare_values(claim, o).state in _AGREEING
            ]
            if agreeing:
                matching.support[claim.id] = agreeing[0]
    return matching


_AGREEING = (AGREE, COMPATIBLE)


def _candidates(
    claim: ClaimFacts, others: Sequence[ClaimFacts], words: dict[str, frozenset[str]]
) -> list[tuple[float, ClaimFacts]]:
    """The comparable claims of the other text whose description covers enough of
    ``claim``'s (or of theirs), with how alike the two descriptions are."""
    scored = []
    for other in others:
        if comparable(claim, other):
            cover, alike = description_score(words[claim.id], words[other.id])
            if cover >= MIN_DESCRIPTION:
                scored.append((alike, other))
    return scored


def _near_best(scored: list[tuple[float, ClaimFacts]]) -> list[tuple[float, ClaimFacts]]:
    """The candidates describing what a claim describes about as well as the best one."""
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [(score, o) for score, o in scored if score >= best * NEAR_BEST]


def judge_counterparts(x: ClaimFacts, y: ClaimFacts) -> PairVerdict:
    """Two counterparts compared as one claim key: their qualifier words, scope and time
    stated on one side only were weighed by the description that matched them; what both
    state still decides (Q1 vs Q2, disjoint times, different places)."""
    a, b = ordered(*one_context(x, y))
    counted = counted_alike(a, b)
    if counted:  # the bare number counts what the other counts
        a, b = (replace(f, dimension=counted) if not f.dimension else f for f in (a, b))
    dims_a, dims_b = dict(a.scope), dict(b.scope)
    both = dims_a.keys() & dims_b.keys()
    timed = a.time_known and b.time_known

    def aligned(f: ClaimFacts) -> ClaimFacts:
        changes: dict[str, object] = {
            "residual": frozenset(),
            "scope": tuple((d, v) for d, v in f.scope if d in both),
        }
        if not timed:
            changes.update(t_start=-_INF, t_end=_INF, time_known=False, time_text="")
        return replace(f, **changes)  # type: ignore[arg-type]

    return _same_key(aligned(a), aligned(b))


_INF = float("inf")


def one_context(x: ClaimFacts, y: ClaimFacts) -> tuple[ClaimFacts, ClaimFacts]:
    """Two claims of one pair of texts, read as one context.

    Side by side, a text that names no subject ("the battery lasts 10 hours", "1,565 cases
    were reported") speaks of the subject the other names, as a sentence saying "it" speaks
    of its document's subject; likewise for a place (the ``region`` scope) and for
    descriptive words one text adds ("confirmed cases *of coronavirus*", "an *American*
    rock band"). So the entity, the region and the qualifier words one side states and the
    other leaves out are given to both. What still keeps two claims apart: two different
    entities, places or qualifier words, and a condition from the scope lexicon named on one
    side only ("in the first year", "in production"), which stays one-sided scope.
    """
    entity = "" if x.entity and y.entity else x.entity or y.entity
    places = {d: v for f in (x, y) for d, v in f.scope if d in CONTEXT_DIMENSIONS}
    residual: frozenset[str] | None = x.residual | y.residual
    if x.residual - y.residual and y.residual - x.residual:
        residual = None  # qualifier words on both sides that differ: a different scope
    return _in_context(x, entity, places, residual), _in_context(y, entity, places, residual)


def _in_context(
    f: ClaimFacts, entity: str, places: dict[str, str], residual: frozenset[str] | None
) -> ClaimFacts:
    changes: dict[str, object] = {}
    if entity and not f.entity:
        changes["entity"] = entity
    own = dict(f.scope)
    missing = {d: v for d, v in places.items() if d not in own}
    if missing:
        changes["scope"] = tuple(sorted([*f.scope, *missing.items()]))
    words = f.residual if residual is None else residual
    if entity:
        words = words - attribute_words(entity)  # the entity's own name is no qualifier
    if words != f.residual:
        changes["residual"] = words
    return replace(f, **changes) if changes else f  # type: ignore[arg-type]
