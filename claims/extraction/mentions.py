"""Character-level mentions: quantities, effective-time expressions and labels.

Numbers are found on a *folded* copy of the text (every decimal digit of any script turned
into ASCII, full-width ASCII turned into ASCII, one code point for one code point), so
"３０日" and "٣٠ يوما" read like "30日" and "30 يوما" while every offset still points into
the original text. This runs at the character level because Japanese and Chinese write
units flush to the number, which a whitespace tokenizer cannot split.
"""

from __future__ import annotations

from claims.extraction.mention_model import LabelMention, Mentions, QuantityMention, TimeMention
from claims.extraction.mention_words import (
    _CHART,
    _CHART_HINT,
    _CHART_WORDS,
    _DIGIT_ORDINAL,
    _INVISIBLE,
    _INVISIBLE_CHARS,
    _NUMBER,
    _ORDINAL_HINT,
    _ORDINAL_WORDS,
    _RANK,
    _WORD,
)
from claims.extraction.number_context import label_scope
from claims.extraction.number_mentions import number_mention
from claims.extraction.resources import Resources, resources
from claims.extraction.time_mentions import _TimeScanner
from claims.extraction.worded_amounts import vague_amounts, worded_numbers


class MentionScanner:
    """Finds every quantity, time expression and label in a text, in one left-to-right pass each."""

    def __init__(self, res: Resources | None = None) -> None:
        self.res = res or resources()
        self.times = _TimeScanner(self.res)
        self._located = self.times.trigger_words | self.res.number_first_words
        self._wanted = self._located | frozenset(_ORDINAL_WORDS)

    def scan(self, text: str) -> Mentions:
        if _INVISIBLE.search(text) is None:
            return self._scan(text)
        # "1\u00ad000", "30\u200b days": read the text without its invisible characters,
        # then point every offset back into the original
        kept = [i for i, ch in enumerate(text) if ch not in _INVISIBLE_CHARS]
        out = self._scan("".join(text[i] for i in kept))
        kept.append(len(text))

        def at(pos: int) -> int:
            return kept[pos]

        def after(pos: int) -> int:
            return kept[pos - 1] + 1 if pos > 0 else 0

        for q in out.quantities:
            q.start, q.cue_start, q.end = at(q.start), at(q.cue_start), after(q.end)
            if q.modifier is not None:
                q.modifier = (at(q.modifier[0]), after(q.modifier[1]))
        for t in out.times:
            t.start, t.end = at(t.start), after(t.end)
        for lab in out.labels:
            lab.start, lab.end = at(lab.start), after(lab.end)
        return out

    def _scan(self, text: str) -> Mentions:
        res = self.res
        folded = text.translate(res.fold)
        out = Mentions()
        occupied = bytearray(len(folded) + 1)
        time_hits: list[tuple[str, int, int]] | None = None
        number_starts: list[int] | None = None
        ordinal_seen = False
        if folded.isascii():
            time_hits, number_starts, ordinal_seen = self._word_hits(folded)
        self.times.scan(folded, occupied, out, time_hits)
        if (
            (time_hits is None and _ORDINAL_HINT.search(folded) is not None)
            or ordinal_seen
            or _DIGIT_ORDINAL.search(folded) is not None
        ):
            self._ranks(folded, occupied, out)
        if _CHART_HINT.search(folded) is not None:
            self._charts(folded, occupied, out)
        for m in _NUMBER.finditer(folded):
            if occupied[m.start()]:
                continue
            number_mention(self, folded, m, occupied, out)
        worded_numbers(self, folded, occupied, out, number_starts)
        vague_amounts(self, folded, occupied, out)
        out.times.sort(key=lambda t: t.start)
        out.quantities.sort(key=lambda q: q.start)
        out.labels.sort(key=lambda lab: lab.start)
        return out

    def _word_hits(self, folded: str) -> tuple[list[tuple[str, int, int]], list[int], bool]:
        """One pass over the words of ASCII text: (time trigger words as
        ``_TimeScanner._trigger_hits`` gives them, starts of possible number words, whether
        an ordinal word occurs)."""
        triggers, first_words = self.times.trigger_words, self.res.number_first_words
        time_hits: list[tuple[str, int, int]] = []
        number_starts: list[int] = []
        # Which wanted words occur at all is one C-level pass; each is then located with
        # str.find (ASCII: lowercasing keeps offsets, and a letter run is [A-Za-z]+).
        lowered = folded.lower()
        n = len(lowered)
        present = self._wanted.intersection(_WORD.findall(lowered))
        for word in present.intersection(self._located):
            size = len(word)
            pos = lowered.find(word)
            while pos >= 0:
                end = pos + size
                if (pos == 0 or not lowered[pos - 1].isalpha()) and (
                    end >= n or not lowered[end].isalpha()
                ):
                    if word in triggers:
                        time_hits.append((word, pos, end))
                    if word in first_words:
                        number_starts.append(pos)
                pos = lowered.find(word, pos + 1)
        number_starts.sort()
        return time_hits, number_starts, not present.isdisjoint(_ORDINAL_WORDS)

    def _ranks(self, folded: str, occupied: bytearray, out: Mentions) -> None:
        """A rank stated as the predicate is a value ("Prague is the fourth most visited
        city", "Baggio placed second", "the site's 15th most-watched video") (a bare number,
        so "ranked 13" and "the 15th" compare); other ordinals stay words."""
        for m in _RANK.finditer(folded):
            start, end = m.start("ord"), m.end("ord")
            if occupied[start] or occupied[end - 1]:
                continue
            word = m.group("ord").lower()
            value = _ORDINAL_WORDS.get(word)
            if value is None:
                value = int(word[:-2])
            out.quantities.append(
                QuantityMention(start=start, end=end, cue_start=start, value=float(value))
            )
            occupied[start:end] = b"\x01" * (end - start)

    def _charts(self, folded: str, occupied: bytearray, out: Mentions) -> None:
        """A chart position after a charting verb is a rank ("peaked at number 52",
        "debuted at # 14"): a bare number, as "placed fifth" is."""
        for m in _CHART.finditer(folded):
            start, end = m.start("ord"), m.end("ord")
            if occupied[start] or occupied[end - 1]:
                continue
            word = m.group("ord").lower()
            position = _CHART_WORDS[word] if word in _CHART_WORDS else int(word)
            if position < 1:
                continue
            out.quantities.append(
                QuantityMention(start=start, end=end, cue_start=start, value=float(position))
            )
            occupied[start:end] = b"\x01" * (end - start)

    # -- labels
    def _label(self, folded: str, start: int, end: int, occupied: bytearray, out: Mentions) -> None:
        out.labels.append(LabelMention(start, end, label_scope(self, folded, start, end)))
        occupied[start:end] = b"\x01" * (end - start)


__all__ = ["LabelMention", "MentionScanner", "Mentions", "QuantityMention", "TimeMention"]
