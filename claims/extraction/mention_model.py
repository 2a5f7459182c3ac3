"""What the mention scanner finds: quantity, time and label mentions with their character
offsets (``Mentions``), read by the claim readers."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from claims.models import Bound, TimeGranularity


@dataclass(slots=True)
class QuantityMention:
    """A number (or range) with its unit as written; offsets into the original text."""

    start: int  # first character of the value mention (currency symbol, "between", digit)
    end: int  # one past the last character of the unit (or number)
    cue_start: int  # start of a bound/approximation phrase before the value, else == start
    value: float
    low: float | None = None
    high: float | None = None
    bound: Bound = Bound.EXACT
    approximate: bool = False
    unit: str | None = None  # as written
    unit_key: str | None = None  # the lexicon surface to normalise with
    number_word: bool = False
    modifier: tuple[int, int] | None = None  # "vacation" in "1.5 vacation days": content


@dataclass(slots=True)
class TimeMention:
    start: int
    end: int
    first: date | None
    last: date | None
    granularity: TimeGranularity | None
    role: str = "during"  # at / from / after / until / before / during / range / deictic
    scope: tuple[str, str] | None = None  # a quarter also scopes the claim {period: q1}


@dataclass(slots=True)
class LabelMention:
    """An identifier or label containing digits (p50, Section 4.2, FY2024): not a quantity."""

    start: int
    end: int
    scope: tuple[str, str] | None = None


@dataclass(slots=True)
class Mentions:
    quantities: list[QuantityMention] = field(default_factory=list)
    times: list[TimeMention] = field(default_factory=list)
    labels: list[LabelMention] = field(default_factory=list)
