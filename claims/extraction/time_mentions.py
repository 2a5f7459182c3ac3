"""Time expressions: dates, months, years, quarters and ranges of them, with what each
dates (``TimeScanner``), read on the folded text."""

from __future__ import annotations

import re
from datetime import date, timedelta

from claims.extraction.mention_model import Mentions, TimeMention
from claims.extraction.mention_words import (
    _AMOUNT_BEFORE_YEAR,
    _CITATION_AFTER,
    _CITATION_BEFORE,
    _DAY_BEFORE,
    _DIGIT_AFTER,
    _JOINER,
    _LETTERS,
    _MONTH_ABBREVIATIONS,
    _MONTH_CONNECTIVE,
    _REQUIRED_LITERAL,
    _SEASON,
    _SOURCE_AFTER,
    _SOURCE_BEFORE,
    _WORD,
    _WORD_BEFORE,
    _WORD_LED,
    _YEAR_WORDS,
    phrase_before,
)
from claims.extraction.misspelt_months import misspelt_month
from claims.extraction.quantity_units import _unit_at
from claims.extraction.resources import Resources
from claims.models import TimeGranularity


def _month_end(year: int, month: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    return nxt - timedelta(days=1)


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def months_lower(res: Resources) -> list[str]:
    return [m.lower() for m in res.months]


class _TimeScanner:
    """Dates, months, quarters, halves and years, in that order of precedence."""

    def __init__(self, res: Resources) -> None:
        self.res = res
        months = "|".join(sorted(res.months, key=len, reverse=True))
        qwords = "|".join(sorted(res.quarter_words, key=len, reverse=True))
        year = r"(1[89][0-9]{2}|20[0-9]{2}|2100)"
        # a day and a month name make the number after them a year whatever its century
        # ("27 April 1699 - 8 February 1774", "December 1, 1737"); a bare year before 1800
        # stays a number ("founded in 1542" is read by the event-date reader instead)
        dated_year = r"(1[0-9]{3}|20[0-9]{2}|2100)"
        day = r"([0-3]?[0-9])(?:st|nd|rd|th)?"
        flags = re.IGNORECASE
        self.patterns: list[tuple[str, re.Pattern[str]]] = [
            ("cjk", re.compile(rf"{year}年(?:([01]?[0-9])月(?:([0-3]?[0-9])日)?)?")),
            ("iso", re.compile(rf"(?<![0-9]){year}-([01][0-9])-([0-3][0-9])(?![0-9])")),
            # "November 25, 2015" and "November 25 , 2015" (text tokenised before it reached us)
            (
                "mdy",
                # "January 23,2013": a comma without its space still parts day and year
                re.compile(
                    rf"(?<![A-Za-z])({months})\.?\s+{day}(?:\s?,\s*|\s+){dated_year}(?![0-9])",
                    flags,
                ),
            ),
            (
                "dmy",
                re.compile(
                    rf"(?<![0-9]){day}(?:\s+of)?\s+({months})\.?\s?,?\s+{dated_year}(?![0-9])",
                    flags,
                ),
            ),
            ("my", re.compile(rf"(?<![A-Za-z])({months})\.?,?\s+{year}(?![0-9])", flags)),
            # a misspelt month next to a day and a year or a year ("7 Jume 2019",
            # "Febuary 3, 2021", "Abril 2020"): misspelt_months.py decides whether it is one
            (
                "dmy_typo",
                re.compile(rf"(?<![0-9]){day}\s+([A-Z][a-z]{{2,9}})\.?\s?,?\s+{year}(?![0-9])"),
            ),
            (
                "mdy_typo",
                re.compile(
                    rf"(?<![A-Za-z])([A-Z][a-z]{{2,9}})\.?\s+{day}(?:\s?,\s*|\s+){year}(?![0-9])"
                ),
            ),
            ("my_typo", re.compile(rf"(?<![A-Za-z])([A-Z][a-z]{{2,9}})\.?,?\s+{year}(?![0-9])")),
            (
                "q",
                re.compile(
                    rf"(?<![A-Za-z])Q([1-4])(?:\s+|\s*(?:of\s+)?(?:FY|CY)?\s*)'?{year}(?![0-9])",
                    flags,
                ),
            ),
            (
                "qw",
                re.compile(
                    rf"(?<![A-Za-z])(?:the\s+)?({qwords})\s+quarter\s+(?:of\s+)?(?:fiscal\s+|FY\s*)?{year}(?![0-9])",
                    flags,
                ),
            ),
            ("h", re.compile(rf"(?<![A-Za-z])H([12])\s+(?:of\s+)?{year}(?![0-9])", flags)),
            # a capitalised word glued after it is page furniture ("2017On December 14")
            (
                "year",
                re.compile(rf"(?<![0-9A-Za-z.,$€£¥]){year}(?![0-9a-z%]|[A-Z](?![a-z])|[.,][0-9])"),
            ),
        ]

        # Word-led patterns are only tried where a trigger word starts: an alternation of
        # month names tried at every character costs more than the whole claim assembly.
        self.word_led = {kind: pattern for kind, pattern in self.patterns if kind in _WORD_LED}
        self.digit_led = [
            (kind, pattern) for kind, pattern in self.patterns if kind not in _WORD_LED
        ]
        triggers: dict[str, list[str]] = {}
        for month in res.months:
            triggers.setdefault(month, []).extend(["mdy", "my"])
        for word in res.quarter_words:
            triggers.setdefault(word, []).append("qw")
        triggers.setdefault("q", []).append("q")
        triggers.setdefault("h", []).append("h")
        self.triggers = triggers
        # deictic phrases are found from their last word ("for the *period*"): first words
        # such as "for", "in" and "the" are everywhere
        self.deictic_last = frozenset(d.split()[-1] for d in res.deictic)
        self.dmy = next(p for k, p in self.patterns if k == "dmy")
        self.trigger_words = frozenset(triggers) | frozenset(months_lower(res)) | self.deictic_last
        self._finders: dict[str, re.Pattern[str]] = {}

    def _word_finder(self, word: str) -> re.Pattern[str]:
        finder = self._finders.get(word)
        if finder is None:
            finder = re.compile(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", re.IGNORECASE)
            self._finders[word] = finder
        return finder

    def _trigger_hits(self, folded: str) -> list[tuple[str, int, int]]:
        """(lowercase trigger word, start, end) of every word that can start a time
        expression, in no particular order (the caller sorts what it builds)."""
        triggers = self.trigger_words
        if folded.isascii():
            # ASCII text: the maximal letter runs are exactly the finder's matches, so one
            # pass over the words finds them all
            hits = []
            for word in _WORD.finditer(folded):
                lower = word.group().lower()
                if lower in triggers:
                    hits.append((lower, word.start(), word.end()))
            return hits
        # Otherwise case-insensitive matching has Unicode cases ("ſ" is an "s"): find which
        # trigger words occur at all (one C-level pass), then locate each with its finder.
        present = triggers.intersection(map(str.lower, _WORD.findall(folded)))
        return [
            (lower, word.start(), word.end())
            for lower in present
            for word in self._word_finder(lower).finditer(folded)
        ]

    def scan(
        self,
        folded: str,
        occupied: bytearray,
        out: Mentions,
        hits: list[tuple[str, int, int]] | None = None,
    ) -> None:
        """Adds the time expressions of ``folded`` to ``out``; ``hits`` are the trigger
        words if the caller already found them (see ``_trigger_hits``)."""
        candidates: dict[str, list[re.Match[str]]] = {kind: [] for kind, _ in self.patterns}
        for kind, pattern in self.digit_led:
            literal = _REQUIRED_LITERAL.get(kind)
            if kind != "dmy" and (literal is None or literal in folded):
                candidates[kind] = list(pattern.finditer(folded))
        deictic_at: list[int] = []
        months = self.res.months
        for lower, start, end in self._trigger_hits(folded) if hits is None else hits:
            for kind in self.triggers.get(lower, ()):
                m = self.word_led[kind].match(folded, start)
                if m is not None:
                    candidates[kind].append(m)
            if lower in months:
                day = _DAY_BEFORE.search(folded, max(0, start - 14), start)
                if day is not None:
                    m = self.dmy.match(folded, day.start())
                    if m is not None:
                        candidates["dmy"].append(m)
            if lower in self.deictic_last:
                deictic_at.append(end)
        for kind in candidates:
            candidates[kind].sort(key=lambda m: m.start())
        deictic_at.sort()
        found: list[TimeMention] = []
        for kind, _ in self.patterns:
            for m in candidates[kind]:
                if occupied[m.start()] or occupied[m.end() - 1]:
                    continue
                mention = self._build(kind, m, folded)
                if mention is None:
                    continue
                found.append(mention)
                occupied[mention.start : mention.end] = b"\x01" * (mention.end - mention.start)
        found.sort(key=lambda t: t.start)
        for t in found:
            self._dating_source(folded, t, occupied)
        found.extend(self._lone_months(folded, occupied, hits))
        found.sort(key=lambda t: t.start)
        for t in found:
            t.role, connective = self._role(folded, t.start)
            if t.role != "during" and not occupied[connective]:
                # "Starting January 1, 2026": the connective belongs to the time expression
                occupied[connective : t.start] = b"\x01" * (t.start - connective)
                t.start = connective
        out.times.extend(_merge_ranges(found, folded))
        deictic = self.res.deictic_ending
        for end in deictic_at:
            m = deictic.search(folded, max(0, end - 40), end)
            if m is not None and not occupied[m.start()] and not occupied[m.end() - 1]:
                out.times.append(TimeMention(m.start(), m.end(), None, None, None, "deictic"))
                occupied[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
        out.times.sort(key=lambda t: t.start)

    @staticmethod
    def _dating_source(folded: str, t: TimeMention, occupied: bytearray) -> None:
        """A census, survey or estimate that dates a figure ("the 2010 census", "the census
        of 2000", "the 2019 estimate") joins its time expression: it never names the
        attribute."""
        if t.first is None:
            return
        after = _SOURCE_AFTER.match(folded, t.end)
        if after is not None and not occupied[after.end() - 1]:
            occupied[t.end : after.end()] = b"\x01" * (after.end() - t.end)
            t.end = after.end()
            return
        before = _SOURCE_BEFORE.search(folded, max(0, t.start - 24), t.start)
        if before is not None and not occupied[before.start()]:
            occupied[before.start() : t.start] = b"\x01" * (t.start - before.start())
            t.start = before.start()

    def _lone_months(
        self, folded: str, occupied: bytearray, hits: list[tuple[str, int, int]] | None
    ) -> list[TimeMention]:
        """A capitalised month name alone after a time word ("In October, ...", "since
        March") is a time without dates (it says when, never what the claim is about). A day
        after it ("May 3") is read with the number; abbreviations ("Mar") are left alone."""
        months = self.res.months
        out: list[TimeMention] = []
        for lower, start, end in self._trigger_hits(folded) if hits is None else hits:
            if lower not in months or lower in _MONTH_ABBREVIATIONS:
                continue
            if not folded[start].isupper() or occupied[start] or occupied[end - 1]:
                continue
            if _DIGIT_AFTER.match(folded, end) or _DAY_BEFORE.search(
                folded, max(0, start - 14), start
            ):
                continue  # "May 3", "3 May": the number scanner reads the day
            if _MONTH_CONNECTIVE.search(folded, max(0, start - 16), start) is None:
                continue
            out.append(TimeMention(start, end, None, None, None, "deictic"))
            occupied[start:end] = b"\x01" * (end - start)
        return out

    def _role(self, folded: str, start: int) -> tuple[str, int]:
        """(role, start of the connective) of a time expression starting at ``start``."""
        m = self.res.connective_before.search(folded, max(0, start - 40), start)
        if m is None:
            return "during", start
        role = self.res.connectives.get(" ".join(m.group(1).lower().split()), "during")
        return role, m.start(1)

    def _build(self, kind: str, m: re.Match[str], folded: str) -> TimeMention | None:
        months = self.res.months
        if kind == "cjk":
            y = int(m.group(1))
            if m.group(3):
                d = _safe_date(y, int(m.group(2)), int(m.group(3)))
                return TimeMention(m.start(), m.end(), d, d, TimeGranularity.DAY) if d else None
            if m.group(2):
                mo = int(m.group(2))
                if not 1 <= mo <= 12:
                    return None
                return TimeMention(
                    m.start(), m.end(), date(y, mo, 1), _month_end(y, mo), TimeGranularity.MONTH
                )
            return TimeMention(
                m.start(), m.end(), date(y, 1, 1), date(y, 12, 31), TimeGranularity.YEAR
            )
        if kind == "iso":
            d = _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            return TimeMention(m.start(), m.end(), d, d, TimeGranularity.DAY) if d else None
        if kind == "mdy":
            d = _safe_date(int(m.group(3)), months[m.group(1).lower()], int(m.group(2)))
            return TimeMention(m.start(), m.end(), d, d, TimeGranularity.DAY) if d else None
        if kind == "dmy":
            d = _safe_date(int(m.group(3)), months[m.group(2).lower()], int(m.group(1)))
            return TimeMention(m.start(), m.end(), d, d, TimeGranularity.DAY) if d else None
        if kind in ("dmy_typo", "mdy_typo"):
            name_at, day_at = (2, 1) if kind == "dmy_typo" else (1, 2)
            typo = misspelt_month(m.group(name_at))
            d = _safe_date(int(m.group(3)), typo, int(m.group(day_at))) if typo else None
            return TimeMention(m.start(), m.end(), d, d, TimeGranularity.DAY) if d else None
        if kind == "my_typo":
            typo = misspelt_month(m.group(1))
            if typo is None:
                return None
            y = int(m.group(2))
            return TimeMention(
                m.start(), m.end(), date(y, typo, 1), _month_end(y, typo), TimeGranularity.MONTH
            )
        if kind == "my":
            word = m.group(1).lower()
            if word == "may" and not m.group(1)[0].isupper():
                return None  # "may 2024 ..." in lower case is the modal verb far more often
            y, mo = int(m.group(2)), months[word]
            return TimeMention(
                m.start(), m.end(), date(y, mo, 1), _month_end(y, mo), TimeGranularity.MONTH
            )
        if kind in ("q", "qw"):
            q = int(m.group(1)) if kind == "q" else self.res.quarter_words[m.group(1).lower()]
            y = int(m.group(2))
            first = date(y, 3 * q - 2, 1)
            return TimeMention(
                m.start(),
                m.end(),
                first,
                _month_end(y, 3 * q),
                TimeGranularity.QUARTER,
                scope=("period", f"q{q}"),
            )
        if kind == "h":
            h, y = int(m.group(1)), int(m.group(2))
            first = date(y, 1 if h == 1 else 7, 1)
            last = _month_end(y, 6 if h == 1 else 12)
            return TimeMention(
                m.start(), m.end(), first, last, TimeGranularity.MONTH, scope=("period", f"h{h}")
            )
        # a bare year: only when nothing says it is a count ("2000 widgets", "2019 employees")
        if not self._reads_as_year(folded, m.start(), m.end()):
            return None
        y = int(m.group(1))
        season = _SEASON.match(folded, m.end())
        if season is not None and int(season.group(1)) == (y + 1) % 100:
            # "the 2018–19 season": both years, not the first alone
            return TimeMention(
                m.start(), season.end(), date(y, 1, 1), date(y + 1, 12, 31), TimeGranularity.YEAR
            )
        return TimeMention(m.start(), m.end(), date(y, 1, 1), date(y, 12, 31), TimeGranularity.YEAR)

    def _reads_as_year(self, folded: str, start: int, end: int) -> bool:
        res = self.res
        if phrase_before(folded, start, res.numbers.bound_cues) is not None:
            return False
        if phrase_before(folded, start, _AMOUNT_BEFORE_YEAR, 2) is not None:
            return False  # "the confirmed cases reached 1888": a count ("in 1888" is a year)
        if is_citation(folded, start, end):
            return False  # "(Smith, 2019)": the year of a cited work, not of the claim
        if res.currency_prefix.search(folded, max(0, start - 5), start):
            return False
        after = folded[end : end + 40]
        joiner = _JOINER.match(after)
        pos = end + (joiner.end() if joiner else 0)
        if _unit_at(res, folded, pos) is not None and folded[pos : pos + 1] != "年":
            return False
        if res.magnitude_word.match(folded, end):
            return False
        before = _WORD_BEFORE.search(folded, max(0, start - 30), start)
        if before is None:
            return True  # sentence start, after punctuation or a digit-free symbol
        word = before.group(1).lower()
        if word in res.connectives or word in _YEAR_WORDS:
            return True
        nxt = _LETTERS.match(after.lstrip())
        return not (nxt and nxt.group(0).islower())


def is_citation(folded: str, start: int, end: int) -> bool:
    """Whether the year at ``start:end`` is inside a citation ("(Smith, 2019)", "(Ng and
    Lee 2020a; ...)"): an author's name before it right after the bracket or a semicolon."""
    return (
        _CITATION_BEFORE.search(folded, max(0, start - 48), start) is not None
        and _CITATION_AFTER.match(folded, end) is not None
    )


def _merge_ranges(found: list[TimeMention], folded: str) -> list[TimeMention]:
    """ "from 2019 to 2021", "between March 2024 and June 2024", "2019-2021" -> one range."""
    out: list[TimeMention] = []
    i = 0
    while i < len(found):
        a = found[i]
        if i + 1 < len(found):
            b = found[i + 1]
            gap = folded[a.end : b.start]
            if re.fullmatch(
                r"\s*(?:-|–|—|to|until|till|through|thru|and)\s*", gap, re.IGNORECASE
            ) and (gap.strip().lower() != "and" or a.role == "during"):
                out.append(
                    TimeMention(
                        a.start,
                        b.end,
                        a.first,
                        b.last,
                        _finer(a.granularity, b.granularity),
                        "range",
                    )
                )
                i += 2
                continue
        out.append(a)
        i += 1
    return out


_ORDER = {
    TimeGranularity.DAY: 0,
    TimeGranularity.MONTH: 1,
    TimeGranularity.QUARTER: 2,
    TimeGranularity.YEAR: 3,
}


def _finer(a: TimeGranularity | None, b: TimeGranularity | None) -> TimeGranularity | None:
    if a is None or b is None:
        return a or b
    return a if _ORDER[a] <= _ORDER[b] else b
