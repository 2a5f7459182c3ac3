"""Effective time of a claim from the time expressions in its sentence."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from claims.extraction.mention_model import TimeMention
from claims.extraction.time_mentions import _finer
from claims.models import EffectiveTime, TimeGranularity
from claims.trusted import trusted


def effective_time(text: str, times: Sequence[TimeMention]) -> EffectiveTime:
    """An interval from the sentence's time expressions; unknown (no dates) when none is stated.

    Roles come from the words before each expression: "as of" (at), "since"/"effective"
    (from), "after", "until"/"through" (until), "before", or a plain "in 2024" (during).
    Phrases such as "for the period" name a time without dates: only ``text`` is set.
    """
    if not times:
        return _time(None, None, None, None)
    start = end = None
    granularity = None
    dated = False
    for t in times:
        if t.first is None or t.last is None:
            continue
        dated = True
        granularity = _finer(granularity, t.granularity)
        if t.role in ("range", "at", "during"):
            if start is None and end is None:
                start, end = t.first, t.last
        elif t.role == "from":
            start = start or t.first
        elif t.role == "after":
            start = start or (t.last + timedelta(days=1))
        elif t.role == "until":
            end = end or t.last
        elif t.role == "before":
            end = end or (t.first - timedelta(days=1))
    words = "; ".join(text[t.start : t.end] for t in times)
    if not dated:
        return _time(None, None, None, words)
    return _time(start, end, granularity, words)


def _time(
    start: date | None, end: date | None, granularity: TimeGranularity | None, text: str | None
) -> EffectiveTime:
    return trusted(
        EffectiveTime, {"start": start, "end": end, "granularity": granularity, "text": text}
    )
