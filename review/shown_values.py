"""A side's value as a reviewer reads it: as written, and converted only into a unit the
documents themselves state.

The store keeps every quantity in its dimension's canonical unit (seconds, USD ...) so that
edges can compare values; shown to a person, that unit can add facts no document states:
"12 cents per share (= 0.12 USD/share)" names a currency the filing never names, "30 日
(= 2.592e+06 s)" a unit nobody wrote. So a conversion is shown only when the sides of an item
are written in different units, into the unit another side writes, and a money value only
when its own document names the currency.
"""

from __future__ import annotations

import re
from functools import lru_cache

from claims.models import Claim
from claims.units import lookup
from claims.units.lexicon import UnitEntry, fold_surface, lexicon

_WORD = re.compile(r"\w")


def number_text(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:,.6g}" if abs(value) < 1e15 else f"{value:.6e}"


_BOUND_PREFIX = {
    "at_most": "at most ",
    "less_than": "under ",
    "at_least": "at least ",
    "more_than": "over ",
}
_MODALITY_WORDS = {
    # (modality, polarity) -> what the sentence says about the action
    ("obligation", "positive"): "required",
    ("obligation", "negative"): "not required",
    ("permission", "positive"): "allowed",
    ("permission", "negative"): "not allowed",
    ("prohibition", "positive"): "prohibited",
    ("prohibition", "negative"): "not prohibited",
    ("option", "positive"): "optional",
    ("option", "negative"): "not optional",
    ("statement", "positive"): "stated",
    ("statement", "negative"): "denied",
}


def value_text(claim: Claim) -> str:
    """The value as the source states it: bound, number or label, unit.

    A polarity claim names its stance first ("required: enter lab" vs "not required: enter
    lab"), so two sides about the same action never read the same.
    """
    if claim.kind.value == "polarity":
        modality = claim.modality.value if claim.modality else "statement"
        polarity = claim.polarity.value if claim.polarity else "positive"
        stance = _MODALITY_WORDS.get((modality, polarity), f"{modality} ({polarity})")
        return f"{stance}: {claim.value}" if claim.value else stance
    if isinstance(claim.value, str) or claim.value is None:
        return str(claim.value) if claim.value is not None else "(no value)"
    approx = "about " if claim.approximate else ""
    return f"{approx}{_body(claim, claim.value, claim.low, claim.high)} {claim.unit or ''}".strip()


def _body(claim: Claim, value: float | None, low: float | None, high: float | None) -> str:
    if claim.bound.value == "range":
        return f"{number_text(low)} to {number_text(high)}"
    return _BOUND_PREFIX.get(claim.bound.value, "") + number_text(value)


@lru_cache(maxsize=64)
def _currency_names(code: str) -> tuple[re.Pattern[str], ...]:
    """How a document names currency ``code``: its code, symbols and names (not "cents")."""
    lex = lexicon()
    names = {surface for surface, (pint, _) in lex.folded.items() if pint == code}
    names |= {prefix for prefix, target in lex.currency_prefixes.items() if target == code}
    patterns = []
    for name in sorted(names, key=len, reverse=True):
        escaped = re.escape(name)
        if _WORD.match(name[0]) and name.isascii():
            escaped = rf"\b{escaped}"
        if _WORD.match(name[-1]) and name.isascii():
            escaped = rf"{escaped}\b"
        patterns.append(re.compile(escaped, re.IGNORECASE))
    return tuple(patterns)


def names_currency(text: str, code: str) -> bool:
    """Whether ``text`` names currency ``code`` ("$", "USD", "dollars"), not just "cents"."""
    return any(p.search(text) for p in _currency_names(code))


def _convert(value: float | None, source: UnitEntry, target: UnitEntry) -> float | None:
    """``value`` written in ``source`` expressed in ``target`` (same dimension)."""
    if value is None:
        return None
    canonical = value * source.factor + source.offset
    return (canonical - target.offset) / target.factor


def _number(value: float | str | None) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _currency(entry: UnitEntry) -> str | None:
    """The currency code of a money unit (its dimension's numerator), or None."""
    top = entry.dimension.split("/")[0]
    return top if top in lexicon().currency_prefixes.values() else None


def converted_text(claim: Claim, document: str, other_units: list[str]) -> str | None:
    """The value in a unit another side writes, when the units differ and the conversion
    adds nothing the documents do not say; None otherwise."""
    if claim.kind.value != "quantity" or not claim.unit or isinstance(claim.value, str):
        return None
    if claim.value is None and claim.low is None and claim.high is None:
        return None
    own = lookup(claim.unit)
    if own is None:
        return None
    currency = _currency(own)
    if currency is not None and not names_currency(document, currency):
        return None  # "12 cents": which currency's cents, the document does not say
    for unit in other_units:
        if fold_surface(unit).lower() == fold_surface(claim.unit).lower():
            continue
        target = lookup(unit)
        if target is None or target.dimension != own.dimension:
            continue

        values = (_number(claim.value), claim.low, claim.high)
        body = _body(claim, *(_convert(v, own, target) for v in values))
        approx = "about " if claim.approximate else ""
        return f"{approx}{body} {unit}"
    return None
