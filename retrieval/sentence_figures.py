"""A figure read from a sentence that states several of the asked kind (issue 32, wrong
figures): "Sales increased by 5.0% to $8.7 billion, with comparable sales up 2.3%" holds
three percentages. A question whose own key is none of the sentence's keys reached one of
them by a looser match (a candidate key, the evidence ranker), and nothing it says tells
that figure from the others: no answer is better than a wrong one. A table row's cells are
told apart by their columns; a figure at the question's own key was asked by name.
"""

from __future__ import annotations

import re

from retrieval.answer_type import dimension_of_unit
from retrieval.evidence import ClaimFact
from retrieval.evidence_rank import _locators
from retrieval.finding import Ask, Found

_RESPECTIVELY = re.compile(r"\brespectively\b", re.I)


def _dimension(claim: object) -> str | None:
    return dimension_of_unit(getattr(claim, "canonical_unit", None))


def unsure_sentence(ask: Ask, found: Found) -> bool:
    """Whether ``found`` answers from one prose sentence holding other figures of the
    answer's dimension, at a key the question did not ask by name."""
    claims = found.claims
    if not claims or not ask.key or any(c.claim_key == ask.key for c in claims):
        return False
    quotes = {(c.version_id, c.quote) for c in claims}
    if len(quotes) != 1 or any(c.kind != "quantity" for c in claims):
        return False
    locators = _locators(ask.conn, [c.id for c in claims])
    if any(locators.get(c.id, {}).get("table") is not None for c in claims):
        return False
    version, quote = next(iter(quotes))
    values = {(c.canonical_value, c.value_number) for c in claims}
    dimensions = {_dimension(c) for c in claims}
    sentence = ask.loader.group_for_version(version).claims.values()
    return any(
        c.quote == quote
        and c.kind == "quantity"
        and _dimension(c) in dimensions
        and (c.canonical_value, c.value_number) not in values
        for c in sentence
    )


def paired_by_respectively(claims: list[ClaimFact]) -> bool:
    """Figures of a sentence that pairs them with as many things ("gains of $15.0 million
    and $13.3 million in the second and third quarter, respectively"): each figure is one
    thing's, so together they are no list of the asked slot's values."""
    quantities = [c for c in claims if c.kind == "quantity"]
    return bool(quantities) and any(_RESPECTIVELY.search(c.quote) for c in quantities)
