"""A number in the text as a quantity mention: its bound ("at least", "up to"), its range
and plus-minus, its unit and magnitude ("3.5 million"), a size ("2 x 3 m") (read for
``MentionScanner``)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from claims.extraction.mention_model import Mentions, QuantityMention, TimeMention
from claims.extraction.mention_tests import (
    _is_count,
    _is_counted_unit,
    _is_hour,
    _lost_exponent_of_size,
)
from claims.extraction.mention_words import (
    _BETWEEN,
    _CLOCK,
    _COUNTED,
    _EXPONENT,
    _GREEK,
    _LABEL_TAILS,
    _LETTERS,
    _LETTERS_END,
    _LIST_MORE,
    _NUMBER,
    _PER,
    _PLUS_MINUS,
    _POWER,
    _POWER_SURFACES,
    _RANGE_SEP,
    _SIZE_SIDES,
    _SUPERSCRIPTS,
    _TIMES_AFTER,
    _TIMES_TEN,
    _range_word,
    phrase_before,
)
from claims.extraction.number_context import (
    counted_after,
    counts_people,
    incidental_span,
    is_name_number,
    label_end,
    lead_name_number,
    month_day_at,
    open_dated_range,
    page_glue,
    rating,
    score_end,
)
from claims.extraction.quantity_units import _apply_power, _parse_number, _unit_after, _unit_at
from claims.extraction.resources import Resources
from claims.models import Bound
from claims.units.lexicon import currency_for_prefix, lookup

if TYPE_CHECKING:
    from claims.extraction.mentions import MentionScanner


def number_mention(
    scanner: MentionScanner, folded: str, m: re.Match[str], occupied: bytearray, out: Mentions
) -> None:
    res = scanner.res
    s, e = m.start(), m.end()
    prev = folded[s - 1] if s else ""
    if _read_as_no_value(scanner, folded, s, e, prev, occupied, out):
        return
    value, start, end, currency = _written_value(res, folded, m, prev)
    if not math.isfinite(value):
        scanner._label(folded, start, end, occupied, out)
        return  # 1e400, 10^10^10: not a usable number; nothing is claimed
    plain = value
    glued_word = page_glue(scanner, folded, s, end)
    if glued_word and prev in ".,;" and s >= 2 and folded[s - 2].isalpha():
        # "... was released.4In 2015": a footnote marker that lost its spaces
        scanner._label(folded, s, end, occupied, out)
        return
    # magnitude glued (32k, 2.5bn, $5M) or spaced (5 million); none across page glue
    end, value, glued_ok = (
        (end, value, True)
        if glued_word
        else magnitude(scanner, folded, end, value, currency is not None)
    )
    if not glued_ok:
        scanner._label(folded, start, label_end(scanner, folded, end), occupied, out)
        return
    low, high, bound, start, cue_start, end = _range_after(
        scanner, folded, start, end, value, plain, currency is not None, occupied
    )
    # unit
    unit_text: str | None = None
    unit_key: str | None = None
    modifier: tuple[int, int] | None = None
    unit = None if glued_word else _unit_after(res, folded, end)
    if (
        unit is not None
        and low is None
        and currency is None
        and _is_counted_unit(unit[1])
        and is_name_number(scanner, folded, start, end)
        and phrase_before(folded, start, res.numbers.bound_cues) is None
    ):
        # "400 million Windows 11 users": a counted noun of the lexicon after a number
        # inside a name counts nothing, as a plain counted noun after one does not
        scanner._label(folded, start, end, occupied, out)
        return
    if unit is not None:
        end, unit_text = unit[0], unit[1]
        unit_key = unit_text
        if currency is not None and lookup(unit_text) is not None:
            entry = lookup(unit_text)
            if entry is not None and not entry.dimension.startswith(currency):
                unit_key = (
                    f"{currency} per {unit_text}" if _is_count(entry.dimension) else unit_text
                )
        elif currency is not None:
            unit_key = currency
        if low is None:
            both = unit_range(scanner, folded, start, end, value, unit_text)
            if both is not None:
                low, high, end, start = both
                bound = Bound.RANGE
                cue_start = min(cue_start, start)
    elif currency is not None:
        unit_key = currency
        unit_text = folded[start:s].strip().lstrip("+-") or currency
        per = _PER.match(folded, end)
        if per is not None and folded[end : per.end()].strip():
            den = _unit_at(res, folded, per.end())
            if den is not None and lookup(f"{currency} per {den.group(0)}") is not None:
                unit_key = f"{currency} per {den.group(0)}"
                unit_text = f"{unit_text} per {den.group(0)}"
                end = den.end()
    else:
        counted = _after_bare_number(scanner, folded, start, end, value, low, glued_word)
        if isinstance(counted, int):  # the number is part of a label ending there
            scanner._label(folded, start, counted, occupied, out)
            return
        end, unit_text, unit_key, modifier = counted
    # bounds and approximations written before the value
    bound, approximate, cue_start = cues_before(scanner, folded, cue_start, bound)
    after = res.bound_after.match(folded, end)
    if after is not None and bound == Bound.EXACT:
        bound = Bound(res.numbers.bounds_after[" ".join(after.group(1).lower().split())])
        end = after.end()
    q = QuantityMention(
        start=start,
        end=end,
        cue_start=cue_start,
        value=value if low is None else low,
        low=low,
        high=high,
        bound=bound,
        approximate=approximate,
        unit=unit_text,
        unit_key=unit_key,
        modifier=modifier,
    )
    out.quantities.append(q)
    occupied[cue_start:end] = b"\x01" * (end - cue_start)


def _after_bare_number(
    scanner: MentionScanner,
    folded: str,
    start: int,
    end: int,
    value: float,
    low: float | None,
    glued_word: bool,
) -> int | tuple[int, str | None, str | None, tuple[int, int] | None]:
    """What follows a number with no unit and no currency: (end, unit as written, unit key,
    describing word) of a counted noun ("12 members", "1.5 vacation days"), or, when the
    number is part of a label ("3rd", "Windows 11"), where that label ends."""
    res = scanner.res
    unit_text: str | None = None
    unit_key: str | None = None
    modifier: tuple[int, int] | None = None
    # letters glued after the number that are no unit: 3rd, 10b, 9001abc -> a label
    if (
        not glued_word
        and end < len(folded)
        and ((folded[end].isascii() and folded[end].isalpha()) or _GREEK.match(folded[end]))
    ):
        return label_end(scanner, folded, end)
    if (
        low is None
        and (
            is_name_number(scanner, folded, start, end)
            or lead_name_number(scanner, folded, start, end, value)
        )
        and phrase_before(folded, start, res.numbers.bound_cues) is None
    ):
        return end
    # "12 members", "2000 widgets": the counted noun is the unit as written (a
    # glued word opens the next piece of text and counts nothing)
    counted = None if glued_word else _COUNTED.match(folded, end)
    if counted is not None:
        noun = counted.group(1)
        described = (
            _unit_after(res, folded, counted.end())
            if folded[counted.end() : counted.end() + 1] == " "
            and noun not in res.stopwords
            and noun not in res.prepositions
            else None
        )
        if described is not None:
            # "1.5 vacation days": the word describes a known unit
            modifier = (counted.start(1), counted.end())
            end, unit_text = described
            unit_key = unit_text
        else:
            what = counted_after(scanner, folded, end, value)
            if what is not None:
                end, unit_text, modifier = what
    return end, unit_text, unit_key, modifier


def _read_as_no_value(
    scanner: MentionScanner,
    folded: str,
    s: int,
    e: int,
    prev: str,
    occupied: bytearray,
    out: Mentions,
) -> bool:
    """Whether the number at ``s:e`` was read as something other than a value (a label, a
    size, a day of the month, a time of day, a score), its mention added."""
    res = scanner.res
    # Glued to Latin letters before: p50, IPv4, FY2024, Q1, COVID-19, ISO-9001 -> a label.
    if prev.isascii() and (prev.isalpha() or prev == "_"):
        word = _LETTERS_END.search(folded, max(0, s - 12), s)
        start = word.start() if word else s - 1
        scanner._label(folded, start, label_end(scanner, folded, e), occupied, out)
        return True
    if prev in "-–" and s >= 2 and occupied[s - 2] and folded[s - 2].isalnum():
        # "TRA-1–60": the rest of a label
        scanner._label(folded, s, label_end(scanner, folded, e), occupied, out)
        return True
    if prev == "-" and s >= 2 and folded[s - 2].isascii() and folded[s - 2].isalpha():
        scanner._label(folded, s, label_end(scanner, folded, e), occupied, out)
        return True
    size = size_mention(scanner, folded, s, e)
    if size is not None:
        out.quantities.append(size)
        occupied[size.cue_start : size.end] = b"\x01" * (size.end - size.cue_start)
        return True
    # "(1)", "alert(1)": an enumeration or an argument, not a measurement
    if prev == "(" and folded[e : e + 1] == ")":
        scanner._label(folded, s, e, occupied, out)
        return True
    # Dotted or timed numbers (4.2.1, 10.0.0.1, 10:30, 3/4): identifiers or times, not values.
    if (
        e < len(folded) - 1
        and folded[e] in ".:/"
        and folded[e + 1].isdigit()
        and not rating(folded, s, e)  # "6.3/10" is a rating, read with its scale
    ):
        scanner._label(folded, s, label_end(scanner, folded, e), occupied, out)
        return True
    day = month_day_at(scanner, folded, s, e)
    if day is not None and occupied[day[1] - 1]:
        # "7 and 8 May 2019": the second day is already a dated time; the first opens it
        if open_dated_range(folded, s, e, out, occupied):
            return True
        day = None
    if day is not None:
        # "on 3 May", "By April 6": a day of the month without a year is a time without
        # dates (it names when, never what); it stays out of values and keys
        role, connective = scanner.times._role(folded, day[0])
        start = day[0] if role == "during" or occupied[connective] else connective
        out.times.append(TimeMention(start, day[1], None, None, None, "deictic"))
        occupied[start : day[1]] = b"\x01" * (day[1] - start)
        return True
    clock = _CLOCK.match(folded, e) if _is_hour(folded[s:e]) else None
    if clock is not None:
        # "at 8 pm", "7.30pm", "4 P.M. EST": a time of day, which says when and never
        # what (a time without dates, like "3 May"), so it stays out of keys and scope
        out.times.append(TimeMention(s, clock.end(), None, None, None, "deictic"))
        occupied[s : clock.end()] = b"\x01" * (clock.end() - s)
        return True
    incidental = incidental_span(scanner, folded, s, e, prev)
    if incidental is not None:
        scanner._label(folded, incidental[0], incidental[1], occupied, out)
        return True
    before = folded[s - 2 : s] if s >= 2 else folded[:s]
    label = (
        phrase_before(folded, s, res.numbers.label_words, 2)
        if before.strip()
        and before.rstrip()[-1:] in _LABEL_TAILS
        and _TIMES_AFTER.match(folded, e) is None  # "won the title 29 times": how often
        else None
    )
    if label is not None:
        # "phases 3, 5, and 7", "Figs. 2 and 3": the whole list is labels
        end = label_end(scanner, folded, e)
        more = _LIST_MORE.match(folded, end)
        while more is not None and not occupied[more.start(1)]:
            end = label_end(scanner, folded, more.end(1))
            more = _LIST_MORE.match(folded, end)
        scanner._label(folded, label[1], end, occupied, out)
        return True
    score = score_end(scanner, folded, s, e)
    if score is not None:
        scanner._label(folded, s, score, occupied, out)
        return True
    return False


def _written_value(
    res: Resources, folded: str, m: re.Match[str], prev: str
) -> tuple[float, int, int, str | None]:
    """(value, start, end, currency) of the number ``m`` with its sign, the currency written
    before it and an exponent or power after it."""
    s, e = m.start(), m.end()
    value = _parse_number(m.group(0))
    end = e
    # sign
    start = s
    if prev and prev in "+-" and (s < 2 or not folded[s - 2].isalnum()):
        start = s - 1
        if prev == "-":
            value = -value
    # currency written before
    currency = None
    cur = res.currency_prefix.search(folded, max(0, start - 5), start)
    if cur is not None:
        currency = currency_for_prefix(cur.group(0).strip())
        if currency is not None:
            start = cur.start()
    # exponent / power
    exp = _EXPONENT.match(folded, end)
    if exp is not None:
        value = float(m.group(0).replace(",", "") + exp.group(0))
        end = exp.end()
    else:
        power = _POWER.match(folded, end)
        if power is not None:
            value = _apply_power(value, power.group(0))
            end = power.end()
        else:
            times_ten = _TIMES_TEN.match(folded, end)
            if times_ten is not None and _lost_exponent_of_size(times_ten, value):
                times_ten = None  # "1920x1080 pixels": a size, not 1920 × 10^80
            if times_ten is not None:
                # "1×10−5", "3.7 × 106" (a superscript lost in copying: 10^6)
                digits = times_ten.group(2).translate(_SUPERSCRIPTS)
                sign = -1 if times_ten.group(1) else 1
                value = value * 10.0 ** (sign * int(digits))
                end = times_ten.end()
    return value, start, end, currency


def _range_after(
    scanner: MentionScanner,
    folded: str,
    start: int,
    end: int,
    value: float,
    plain: float,
    money: bool,
    occupied: bytearray,
) -> tuple[float | None, float | None, Bound, int, int, int]:
    """(low, high, bound, start, cue start, end) of a range the value opens ("24 to 32
    million", "between 5 and 7", "3 ± 0.2"); no range: (None, None, EXACT, ...)."""
    low: float | None = None
    high: float | None = None
    bound = Bound.EXACT
    cue_start = start
    spread = plus_minus(folded, end, value)
    rng = _RANGE_SEP.match(folded, end) if spread is None else None
    if spread is not None:
        low, high, end = spread
        bound = Bound.RANGE
    elif rng is not None:
        sep = _range_word(folded[end : rng.end()])
        between = _BETWEEN.search(folded, max(0, start - 12), start)
        if sep != "and" or (between and between.group(1).lower() == "between"):
            # "−27.2 to −23.1‰": the second number may carry its own sign
            negative = folded[rng.end() : rng.end() + 1] == "-" and sep != "-"
            m2 = _NUMBER.match(folded, rng.end() + negative)
            if m2 is not None and not occupied[m2.start()]:
                hi_raw = _parse_number(m2.group(0)) * (-1 if negative else 1)
                hi_end, scale, _ = magnitude(scanner, folded, m2.end(), 1.0, money)
                hi = hi_raw * scale
                lo = value
                if scale != 1.0 and lo == plain and abs(lo) <= abs(hi_raw):
                    # "24 to 32 million": one scale word for both ends ("500 to 2
                    # million" keeps 500, which is no smaller end of 2)
                    lo = lo * scale
                if lo > hi and lo < 0 and hi < 0:
                    lo, hi = hi, lo  # "−25.9 to −26.5‰" spans the same values
                if lo <= hi and math.isfinite(hi):
                    low, high, bound = lo, hi, Bound.RANGE
                    end = hi_end
                    if between is not None:
                        start = cue_start = between.start()
    return low, high, bound, start, cue_start, end


def cues_before(
    scanner: MentionScanner, folded: str, pos: int, bound: Bound
) -> tuple[Bound, bool, int]:
    """(bound, approximate, cue start) of the bound and approximation words written
    before a value starting at ``pos`` ("more than", "about", "nearly over")."""
    numbers = scanner.res.numbers
    approximate = False
    start = pos
    for _ in range(2):
        cue = phrase_before(folded, pos, numbers.bound_cues)
        if cue is None:
            break
        phrase = cue[0]
        if phrase in numbers.approximations:
            approximate = True
        elif bound == Bound.EXACT and phrase in numbers.bounds_before:
            bound = Bound(numbers.bounds_before[phrase])
        pos = cue[1]
    return bound, approximate, min(start, pos)


def plus_minus(folded: str, end: int, value: float) -> tuple[float, float, int] | None:
    """(low, high, end) of "3.19 ± 0.10": the stated spread around the value."""
    sign = _PLUS_MINUS.match(folded, end)
    if sign is None:
        return None
    spread = _NUMBER.match(folded, sign.end())
    if spread is None:
        return None
    delta = _parse_number(spread.group(0))
    return value - delta, value + delta, spread.end()


def unit_range(
    scanner: MentionScanner, folded: str, start: int, end: int, value: float, unit: str
) -> tuple[float, float, int, int] | None:
    """(low, high, end, start) when the unit is written on both sides: "from 10 °C to
    25 °C", "48.4 MW to 59.0 MW", "43.22% ± 7.13%"; a falling range needs "from" or
    "between" before it."""
    spread = plus_minus(folded, end, value)
    if spread is not None:
        after = _unit_after(scanner.res, folded, spread[2])
        if after is not None and after[1].lower() == unit.lower():
            return spread[0], spread[1], after[0], start
    rng = _RANGE_SEP.match(folded, end)
    if rng is None:
        return None
    sep = _range_word(folded[end : rng.end()])
    between = _BETWEEN.search(folded, max(0, start - 12), start)
    if sep == "and" and not (between and between.group(1).lower() == "between"):
        return None
    negative = folded[rng.end() : rng.end() + 1] == "-" and sep != "-"
    second = _NUMBER.match(folded, rng.end() + negative)
    if second is None:
        return None
    hi = -_parse_number(second.group(0)) if negative else _parse_number(second.group(0))
    after = _unit_after(scanner.res, folded, second.end())
    if after is None or after[1].lower() != unit.lower():
        return None
    if value > hi and between is None:
        return None
    return min(value, hi), max(value, hi), after[0], between.start() if between else start


def size_mention(scanner: MentionScanner, folded: str, s: int, e: int) -> QuantityMention | None:
    """A size written with "x" and a length unit ("a 24x24ft ring", "a 3 x 4 m
    room", "2x2x2 m"): the area or volume the sides make, so a ring changed from
    24x24ft to 20x20ft is one value changed, not two labels. Without a length unit
    ("a 2x4", "1920x1080 pixels") it stays a label."""
    sides = _SIZE_SIDES.match(folded, e)
    if sides is None:
        return None
    ten = _TIMES_TEN.match(folded, e)
    if ten is not None and not _lost_exponent_of_size(ten, _parse_number(folded[s:e])):
        return None  # "1.5×1012 cm−2": a power of ten whose superscript was lost
    unit = _unit_at(scanner.res, folded, sides.end())
    if unit is None:
        return None
    written = unit.group(0)
    entry = lookup(written)
    if entry is None or entry.dimension != "length":
        return None
    numbers = [folded[s:e], sides.group(1)] + ([sides.group(2)] if sides.group(2) else [])
    power = len(numbers)
    key = next(
        (
            name
            for name in _POWER_SURFACES[power](written, entry.surface)
            if lookup(name) is not None
        ),
        None,
    )
    if key is None:
        return None
    value = math.prod(_parse_number(n) for n in numbers)
    bound, approximate, cue_start = cues_before(scanner, folded, s, Bound.EXACT)
    return QuantityMention(
        start=s,
        end=unit.end(),
        cue_start=cue_start,
        value=value,
        bound=bound,
        approximate=approximate,
        unit=key,
        unit_key=key,
    )


def magnitude(
    scanner: MentionScanner, folded: str, end: int, value: float, currency: bool
) -> tuple[int, float, bool]:
    """Apply a glued suffix or a spaced magnitude word; the bool is False for unknown glue."""
    vocab = scanner.res.numbers
    cjk = vocab.cjk_magnitudes.get(folded[end : end + 1])
    if cjk is not None:
        return end + 1, value * cjk, True
    letters = _LETTERS.match(folded, end)
    if letters is not None:
        glued = letters.group(0)
        factor = vocab.magnitude_suffixes.get(glued)
        if factor is None and (currency or counts_people(scanner, folded, letters.end())):
            # "$5m"; "1.2m customers", "3m people": a scale before a plural noun, where
            # "a 5m wall" stays five metres
            factor = vocab.currency_only_suffixes.get(glued)
        if factor is not None:
            value *= factor
            end = letters.end()
        elif _unit_at(scanner.res, folded, end) is None:
            return end, value, False
    word = scanner.res.magnitude_word.match(folded, end)
    if word is not None:
        value *= vocab.magnitude_words[word.group(1).lower()]
        end = word.end()
    return end, value, True
