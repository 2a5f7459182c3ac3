"""The outcome of comparing two claims: a relation, the rule that decided it, and why."""

from __future__ import annotations

from dataclasses import dataclass

from claims.models import Relation

# Precedence used when many pairs are summarised into one relation (``claims check``).
RELATION_RANK: dict[Relation, int] = {
    Relation.CONFLICT: 4,
    Relation.AMBIGUOUS: 3,
    Relation.CORROBORATION: 2,
    Relation.COMPATIBLE: 1,
    Relation.UNRELATED: 0,
}


class Rule:
    """Names of the rules recorded on verdicts and edges (``Edge.rule``)."""

    # conflicts / agreement on the value itself
    VALUE = "value"  # two exact quantities
    RANGE = "range"  # a range involved
    BOUND = "bound"  # an upper or lower bound involved
    POLARITY = "polarity"  # shall vs shall not, permitted vs prohibited, ...
    CATEGORICAL = "categorical"  # labels of a single-valued predicate
    DATE = "date"  # two dates of one event ("established in 1871" vs "in 1889")
    DIRECTION = "direction"  # a change up against a change down
    # reasons two similar claims are not a conflict
    CONVERSION = "conversion"  # equal after unit conversion
    PRECISION = "precision"  # within the precision the text states
    ELABORATION = "elaboration"  # one side's admissible values contain the other's
    MULTI_VALUED = "multi_valued"  # a predicate that can hold several labels at once
    SCOPE = "scope"  # different (or one-sided) scope qualifiers
    TIME = "time"  # disjoint (or one-sided) effective time
    NAMESAKES = "namesakes"  # unnamed claims of pages about two things (pages.py)
    REPORTED_SPEECH = "reported_speech"
    MODALITY = "modality"  # a fact against a norm; an obligation implies a permission
    # ambiguous
    UNIT = "unit"  # different dimensions, or a unit on one side only
    KIND = "kind"  # a quantity against a label
    # structure
    KEY = "key"  # different claim keys (near miss on the coarse key)
    REVISION = "revision"  # a near copy of a sentence with its figure changed
    CLONE = "clone"  # the same sentence under several source ids: one origin
    MIRRORED = "mirrored"  # both sources state both sides: the disagreement is inside each
    SAME_SOURCE = "same_source"  # agreement inside one source id is not corroboration
    LINEAGE = "lineage"  # a newer version of the same source id replaces the older
    REGISTER = "register"  # the source register says one source replaces another
    SUPERSEDED = "superseded"  # one side's version is replaced; not routed as a conflict


@dataclass(frozen=True, slots=True)
class PairVerdict:
    """What ``compare`` says about two claims; the same whichever argument comes first."""

    relation: Relation
    rule: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"relation": self.relation.value, "rule": self.rule, "reason": self.reason}
