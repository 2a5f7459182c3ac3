"""Amounts written in words: "twenty-five", "two dozen", "a few hundred", and vague
amounts ("several", "dozens of") (read for ``MentionScanner``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claims.extraction.mention_model import Mentions, QuantityMention
from claims.extraction.mention_words import (
    _AND_A_HALF,
    _COUNTED,
    _VAGUE,
    _VAGUE_MULTIPLES,
    _VAGUE_WORDS,
    _WORD,
    _WORD_AFTER,
    phrase_before,
)
from claims.extraction.number_context import counted_after, counted_further, counted_noun
from claims.extraction.quantity_units import _number_words_value, _unit_after
from claims.models import Bound

if TYPE_CHECKING:
    from claims.extraction.mentions import MentionScanner


def worded_numbers(
    scanner: MentionScanner,
    folded: str,
    occupied: bytearray,
    out: Mentions,
    starts: list[int] | None = None,
) -> None:
    res = scanner.res
    if starts is None:
        first_words = res.number_first_words
        starts = [
            word.start() for word in _WORD.finditer(folded) if word.group(0).lower() in first_words
        ]
    for start in starts:
        if occupied[start]:
            continue
        m = res.number_words.match(folded, start)
        if m is None or occupied[m.end() - 1]:
            continue
        value = _number_words_value(res, m.group(0))
        if value is None:
            continue
        word_start, word_end = m.start(), m.end()
        after = _WORD_AFTER.match(folded, word_end)
        if after is not None and after.group(1).lower() in res.numbers.scale_words:
            continue  # "a couple of hundred staff": the scale word reads it
        low: float | None = None
        high: float | None = None
        half = _AND_A_HALF.match(folded, word_end)
        if half is not None and half.group(1).lower() in res.numbers.scale_words:
            # "two and a half million viewers"
            value = (value + 0.5) * res.numbers.scale_words[half.group(1).lower()]
            word_end = half.end()
        elif m.group(0).lower() in res.numbers.scale_words:
            few = phrase_before(folded, word_start, _VAGUE_WORDS, 3)
            if few is not None:
                # "several hundred people": an approximate range, as "hundreds of"
                multiples = _VAGUE_MULTIPLES[few[0]]
                low, high = multiples[0] * value, multiples[1] * value
                word_start = few[1]
        unit = _unit_after(res, folded, word_end)
        unit_key: str | None = None
        modifier: tuple[int, int] | None = None
        if unit is not None:
            end, unit_text = unit
            unit_key = unit_text
        else:
            # "two beaches", "three hundred people"; never "one of the", "no one"
            what = None
            if value != 1:
                what = counted_after(scanner, folded, word_end, value) or counted_further(
                    scanner, folded, word_end, value
                )
            if what is None:
                continue
            end, unit_text, modifier = what
        cue_start = word_start
        bound = Bound.EXACT if low is None else Bound.RANGE
        approximate = low is not None
        cue = phrase_before(folded, word_start, res.numbers.bound_cues)
        if cue is not None:
            phrase = cue[0]
            if phrase in res.numbers.approximations:
                approximate = True
            elif phrase in res.numbers.bounds_before and bound == Bound.EXACT:
                bound = Bound(res.numbers.bounds_before[phrase])
            cue_start = cue[1]
        out.quantities.append(
            QuantityMention(
                start=word_start,
                end=end,
                cue_start=cue_start,
                value=value if low is None else low,
                low=low,
                high=high,
                bound=bound,
                approximate=approximate,
                unit=unit_text,
                unit_key=unit_key,
                number_word=True,
                modifier=modifier,
            )
        )
        occupied[cue_start:end] = b"\x01" * (end - cue_start)


def vague_amounts(scanner: MentionScanner, folded: str, occupied: bytearray, out: Mentions) -> None:
    """ "hundreds of millions of euros" (1e8..1e9 EUR), "dozens of staff", "thousands of
    people": an approximate range from the named order of magnitude to the next one."""
    if " of " not in folded:
        return
    vague = _VAGUE.amounts
    for m in _VAGUE.pattern.finditer(folded):
        if occupied[m.start()] or occupied[m.end() - 1]:
            continue
        words = [w.lower() for w in _WORD.findall(m.group(0)) if w.lower() != "of"]
        low, high = vague[words[0]]
        for word in words[1:]:
            scale = vague[word][0]
            low, high = low * scale, high * scale
        end = m.end()
        unit = _unit_after(scanner.res, folded, end)
        unit_key: str | None = None
        if unit is not None:
            end, unit_text = unit
            unit_key = unit_text
        else:
            counted = _COUNTED.match(folded, end - 1)
            if counted is None or not counted_noun(scanner, counted.group(1), 2.0):
                continue
            end, unit_text = counted.end(), counted.group(1)
        out.quantities.append(
            QuantityMention(
                start=m.start(),
                end=end,
                cue_start=m.start(),
                value=low,
                low=low,
                high=high,
                bound=Bound.RANGE,
                approximate=True,
                unit=unit_text,
                unit_key=unit_key,
                number_word=True,
            )
        )
        occupied[m.start() : end] = b"\x01" * (end - m.start())
