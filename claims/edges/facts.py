"""The lean, comparable form of a claim used in the edge rules' hot loop.

``ClaimFacts`` holds only what the rules look at, already normalised (intervals in canonical
units, deontic stance, casefolded labels, scope as a sorted tuple, time as day ordinals). It
is built once per claim, from a ``Claim`` or straight from a database row, so that a million
claims can be blocked and compared without a Pydantic object per comparison.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from typing import Any

from claims.models import Bound, Claim, Modality, Polarity, ValueKind

INF = math.inf

# Relative tolerance an "about"/"approximately" figure gets when the text states none.
APPROXIMATE_TOLERANCE = 0.10
# Float noise allowed when two canonical values are "equal" (0.5 s vs 500 ms).
EQUALITY_EPSILON = 1e-9


@dataclass(slots=True, eq=False)
class ClaimFacts:
    """What the edge rules compare; see ``facts_from_claim`` for how each field is derived.

    Treat as read-only. Not frozen on purpose: a frozen dataclass pays for every field
    assignment at construction, which shows at a million claims.
    """

    id: str
    source_id: str
    version_id: str
    claim_key: str
    coarse_key: str
    predicate: str
    kind: str  # ValueKind value
    # quantities: nominal interval (what the text says) and admissible interval (with the
    # precision it states); open ends for strict bounds
    bound: str
    lo: float
    hi: float
    lo_open: bool
    hi_open: bool
    tol: float  # half-width of stated or approximate precision, canonical unit
    dimension: str
    unit: str  # unit as written (only for reasons)
    shown: str  # value as written, e.g. "at most 500 tokens"
    # categorical label / polarity action, normalised
    label: str
    stance: str  # deontic stance for polarity claims ("must", "must_not", "may", ...)
    scope: tuple[tuple[str, str], ...]
    residual: frozenset[str]
    t_start: float  # day ordinal or -inf
    t_end: float  # day ordinal or +inf
    time_known: bool
    time_text: str
    reported: bool
    quote_norm: str  # surface form used to detect clones
    # what the claim is about and which of its attributes it states (normalised by the
    # extractor); "" entity means the text names none
    entity: str = ""
    attribute: str = ""
    # the entity as data (claims.models.EntityRef): its name, the qualifier that tells it
    # from namesakes ("1941 film"), the source it is known in only; "" when it has none
    entity_name: str = ""
    entity_qualifier: str = ""
    entity_local_to: str = ""

    # derived once in __post_init__ (the hot loop reads them many times per claim)
    order_key: tuple[str, str, str] = field(init=False, repr=False)
    signature: tuple[Any, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # deterministic order of the two sides of a pair (independent of argument order)
        self.order_key = (self.source_id, self.version_id, self.id)
        # everything the rules read: claims with equal signatures get equal verdicts
        self.signature = (
            self.claim_key,
            self.entity,
            self.attribute,
            self.coarse_key,
            self.kind,
            self.bound,
            self.lo,
            self.hi,
            self.lo_open,
            self.hi_open,
            self.tol,
            self.dimension,
            self.unit,
            self.shown,
            self.label,
            self.stance,
            self.scope,
            self.residual,
            self.t_start,
            self.t_end,
            self.time_text,
            self.reported,
            self.predicate,
        )


# ----------------------------------------------------------------- deontic stance

# (modality, polarity) -> stance. "shall not" arrives either as obligation + negative or as
# prohibition (the extractor may also mark that negative: the negation is the prohibition
# itself, so prohibition is must_not whatever the polarity); "optional" likewise.
_STANCE: dict[tuple[str, str], str] = {
    ("obligation", "positive"): "must",
    ("obligation", "negative"): "must_not",
    ("prohibition", "positive"): "must_not",
    ("prohibition", "negative"): "must_not",
    ("permission", "positive"): "may",
    ("permission", "negative"): "must_not",
    ("option", "positive"): "optional",
    ("option", "negative"): "optional",
    ("statement", "positive"): "is",
    ("statement", "negative"): "is_not",
}


def stance_of(modality: Modality | str | None, polarity: Polarity | str | None) -> str:
    mod = str(modality.value if isinstance(modality, Modality) else modality or "statement")
    pol = str(polarity.value if isinstance(polarity, Polarity) else polarity or "positive")
    return _STANCE.get((mod, pol), "is")


# ----------------------------------------------------------------- normalisers

_SPACE = re.compile(r"\s+")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")
_TRAILING = re.compile(r"[\s.;:,!?。．、]+$")


def normalise_label(value: object) -> str:
    """Casefolded, NFKC, article-free label so "German law" equals "the german law"."""
    return _normalised_label(str(value))


# Labels (entities, predicates, scope words) repeat across the claims an edge recompute
# reads back; remembered by their text (not the value: 1 and 1.0 are one cache key).
@lru_cache(maxsize=1 << 16)
def _normalised_label(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = _SPACE.sub(" ", text)
    text = _TRAILING.sub("", text)
    return _ARTICLE.sub("", text)


@lru_cache(maxsize=1 << 14)  # mirrored sentences repeat their quote
def normalise_quote(quote: str) -> str:
    """The surface form two mirrored copies of one sentence share (whitespace, case, NFKC).

    Deliberately strict: any change of wording keeps two sentences apart (under-collapse).
    """
    text = unicodedata.normalize("NFKC", quote).casefold().strip()
    return _TRAILING.sub("", _SPACE.sub(" ", text))


def _number(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}"


_BOUND_WORDS = {
    "at_most": "at most",
    "less_than": "less than",
    "at_least": "at least",
    "more_than": "more than",
}


def shown_value(claim: Claim) -> str:
    """The value as a reader would say it, e.g. ``at most 500 tokens`` or ``5-10 mg``."""
    unit = f" {claim.unit}" if claim.unit else ""
    if claim.kind is not ValueKind.QUANTITY:
        text = str(claim.value) if claim.value is not None else ""
        if claim.kind is ValueKind.DATE and text.endswith("/"):
            text = f"from {text[:-1]}"  # "born after 1987" is "from 1988-01-01"
        elif claim.kind is ValueKind.DATE and text.startswith("/"):
            text = f"until {text[1:]}"
        if claim.kind in _NEGATABLE and claim.polarity is Polarity.NEGATIVE:
            return f"not {text}"
        return text
    if denies_value(claim):
        return "not " + shown_value(claim.model_copy(update={"polarity": Polarity.POSITIVE}))
    if change_direction(claim):
        return f"{change_direction(claim)} {_quantity_text(claim, unit)}"
    return _quantity_text(claim, unit)


_NEGATABLE = (ValueKind.CATEGORICAL, ValueKind.DATE)


def denies_value(claim: Claim) -> bool:
    """A plain negated statement of one exact value ("the notice period is not 30 days").

    Prohibitions and bounds keep their own reading ("must not exceed 30 days" is a limit).
    """
    return (
        claim.kind in (ValueKind.QUANTITY, ValueKind.DATE)
        and claim.polarity is Polarity.NEGATIVE
        and claim.modality in (None, Modality.STATEMENT)
        and claim.bound is Bound.EXACT
    )


CHANGE_DIRECTIONS = ("up", "down")


def change_direction(claim: Claim) -> str:
    """ "up" or "down" for a change ("sales dropped 7%": key "... change", predicate "down")."""
    if claim.predicate in CHANGE_DIRECTIONS and claim.claim_key.endswith("change"):
        return str(claim.predicate)
    return ""


def _quantity_text(claim: Claim, unit: str) -> str:
    if claim.bound is Bound.RANGE and claim.low is not None and claim.high is not None:
        return f"{_number(claim.low)}-{_number(claim.high)}{unit}"
    number = claim.value if isinstance(claim.value, int | float) else claim.low or claim.high
    text = f"{_number(float(number))}{unit}" if number is not None else str(claim.value)
    if claim.precision:
        text = f"{_number(float(number or 0))} ± {_number(claim.precision)}{unit}"
    if claim.approximate:
        text = f"about {text}"
    if claim.bound.value in _BOUND_WORDS:
        text = f"{_BOUND_WORDS[claim.bound.value]} {text}"
    return text


# ----------------------------------------------------------------- intervals


def quantity_interval(
    bound: str,
    value: float | None,
    low: float | None,
    high: float | None,
    tol: float,
) -> tuple[float, float, bool, bool]:
    """(lo, hi, lo_open, hi_open) of the values the claim admits, in canonical units."""
    if bound == "range":
        lo = low if low is not None else -INF
        hi = high if high is not None else INF
        return (min(lo, hi) - tol, max(lo, hi) + tol, False, False)
    v = value if value is not None else (low if low is not None else high)
    if v is None:
        return (-INF, INF, True, True)
    if bound == "at_most":
        return (-INF, v + tol, True, False)
    if bound == "less_than":
        return (-INF, v + tol, True, tol == 0)
    if bound == "at_least":
        return (v - tol, INF, False, True)
    if bound == "more_than":
        return (v - tol, INF, tol == 0, True)
    return (v - tol, v + tol, False, False)


def _canonical_tolerance(claim: Claim) -> float:
    """Stated precision converted to the canonical unit, or the default for "about"."""
    reference = claim.canonical_value
    raw = claim.value if isinstance(claim.value, int | float) else None
    if reference is None or raw is None:
        reference, raw = claim.canonical_high, claim.high
    factor = 1.0
    if reference is not None and raw:
        factor = abs(reference / float(raw))
    if claim.precision:
        return abs(claim.precision) * factor
    if claim.approximate:
        magnitude = max(
            abs(x)
            for x in (claim.canonical_value, claim.canonical_low, claim.canonical_high, 0.0)
            if x is not None
        )
        return magnitude * APPROXIMATE_TOLERANCE
    return 0.0


def date_interval(value: object) -> tuple[float, float]:
    """First and last day ordinal of an ISO date as precise as stated: "1871" is the whole
    year, "1970-05" the month, "1970-05-03" the day, "first/last" a span; anything else is
    unknown (-inf, inf)."""
    text = str(value or "")
    if "/" in text:  # a span; an open end ("1988-01-01/" is "after 1987") is unbounded
        first, _, last = text.partition("/")
        lo = date_interval(first)[0] if first else -INF
        hi = date_interval(last)[1] if last else INF
        return lo, hi
    parts = text.split("-")
    try:
        year = int(parts[0])
        if len(parts) == 1:
            return float(date(year, 1, 1).toordinal()), float(date(year, 12, 31).toordinal())
        month = int(parts[1])
        if len(parts) == 2:
            month_end = date(year + month // 12, month % 12 + 1, 1).toordinal() - 1
            return float(date(year, month, 1).toordinal()), float(month_end)
        day = date(year, month, int(parts[2])).toordinal()
        return float(day), float(day)
    except (ValueError, IndexError):
        return -INF, INF


def _ordinal(day: date | None, default: float) -> float:
    return float(day.toordinal()) if day is not None else default


def facts_from_claim(claim: Claim) -> ClaimFacts:
    """The comparable form of ``claim`` (see module docstring)."""
    kind = claim.kind.value
    bound = claim.bound.value
    tol = 0.0
    lo = hi = 0.0
    lo_open = hi_open = False
    dimension = ""
    if claim.kind is ValueKind.QUANTITY:
        tol = _canonical_tolerance(claim)
        canonical = claim.canonical_value
        if canonical is None and claim.canonical_low is None and claim.canonical_high is None:
            # No normalisation happened (bare number): compare the numbers as written.
            canonical = float(claim.value) if isinstance(claim.value, int | float) else None
            clo, chi = claim.low, claim.high
        else:
            clo, chi = claim.canonical_low, claim.canonical_high
        lo, hi, lo_open, hi_open = quantity_interval(bound, canonical, clo, chi, tol)
        dimension = claim.dimension or ""
        if change_direction(claim) == "down":
            # a fall is a negative change: "dropped 7%" never agrees with "climbed 7%"
            lo, hi, lo_open, hi_open = -hi, -lo, hi_open, lo_open
    elif claim.kind is ValueKind.DATE:
        lo, hi = date_interval(claim.value)
        dimension = "date"
    label = ""
    stance = ""
    if denies_value(claim):
        stance = "is_not"
    if claim.kind in _NEGATABLE:
        label = normalise_label(claim.value) if claim.value is not None else ""
        if claim.polarity is Polarity.NEGATIVE:
            # "is not German law" must never agree with "is German law"
            label = f"not {label}"
    elif claim.kind is ValueKind.POLARITY:
        label = normalise_label(claim.value) if claim.value is not None else ""
        stance = stance_of(claim.modality, claim.polarity)
    return ClaimFacts(
        id=claim.id,
        source_id=claim.source_id or "",
        version_id=claim.source_version_id or "",
        claim_key=claim.claim_key,
        coarse_key=claim.coarse_key or "",
        predicate=normalise_label(claim.predicate or ""),
        kind=kind,
        bound=bound,
        lo=lo,
        hi=hi,
        lo_open=lo_open,
        hi_open=hi_open,
        tol=tol,
        dimension=dimension,
        unit=claim.unit or "",
        shown=shown_value(claim),
        label=label,
        stance=stance,
        scope=scope_items(claim.scope),
        residual=frozenset(normalise_label(w) for w in claim.scope_residual if w.strip()),
        t_start=_ordinal(claim.time.start, -INF),
        t_end=_ordinal(claim.time.end, INF),
        time_known=claim.time.is_known,
        # a line or page break inside the time's words (a PDF paragraph over two pages) is a space
        time_text=" ".join(
            (claim.time.text or _time_words(claim.time.start, claim.time.end)).split()
        ),
        reported=claim.reported_speech,
        quote_norm=normalise_quote(claim.quote),
        entity=normalise_label(getattr(claim, "entity", None) or ""),
        attribute=getattr(claim, "attribute", None) or claim.claim_key,
        **_entity_parts(claim),
    )


def _entity_parts(claim: Claim) -> dict[str, str]:
    """``ClaimFacts``' entity fields from the claim's ``EntityRef`` (a claim without one,
    written before entities were data, names its entity whole)."""
    ref = claim.__dict__.get("entity_ref")
    if ref is None:
        return {"entity_name": normalise_label(claim.__dict__.get("entity") or "")}
    return {
        "entity_name": normalise_label(ref.name),
        "entity_qualifier": normalise_label(ref.qualifier or ""),
        "entity_local_to": ref.local_to or "",
    }


def scope_items(scope: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((normalise_label(k), normalise_label(v)) for k, v in scope.items()))


def _time_words(start: date | None, end: date | None) -> str:
    if start is None and end is None:
        return ""
    if start is None:
        return f"until {end}"
    if end is None:
        return f"from {start}"
    return f"{start} to {end}"


def facts_from_claims(claims: Sequence[Claim]) -> list[ClaimFacts]:
    return [facts_from_claim(c) for c in claims]
