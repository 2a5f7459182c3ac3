"""What stands around a number that makes it no quantity or another one: a citation, a
month day, a score, a rating, a name's number, a counted noun after it, a label's scope
(read for ``MentionScanner``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from claims.extraction.mention_model import Mentions
from claims.extraction.mention_words import (
    _BETWEEN,
    _COORDINATE,
    _COUNTED,
    _COUNTED_DATA,
    _DAY_RANGE,
    _DESCRIBED,
    _GLUED_WORD,
    _GREEK,
    _LETTERS,
    _LIST_ITEM,
    _LIST_MARK,
    _MONTH_AFTER,
    _MONTH_BEFORE,
    _NAME_WORD,
    _ORDINAL,
    _ORDINAL_WORDS,
    _PAREN_REFERENCES,
    _RATING_WORDS,
    _REFERENCE,
    _SCORE,
    _SCORE_PAIR,
    _SCORE_WORDS,
    _SECTION_MARK,
    _SENTENCE_LEAD,
    _TIMES_AFTER,
    _VERB_OBJECT,
)
from claims.extraction.quantity_units import _unit_after, _unit_at
from claims.extraction.time_mentions import _safe_date, is_citation
from claims.models import TimeGranularity

if TYPE_CHECKING:
    from claims.extraction.mentions import MentionScanner


def incidental_span(
    scanner: MentionScanner, folded: str, s: int, e: int, prev: str
) -> tuple[int, int] | None:
    """(start, end) of the label when the number at ``s:e`` is not a measured value:
    a reference ("[12]", "[9,12]", "(26,29)", "word^3"), a chemical or symbol subscript
    ("(OH)2", "σ0"), a list item number at a line start ("1. ", "2) "), a coordinate
    ("51.5°N"), or a day of the month ("3 May")."""
    if prev == "[" or prev == "," or prev == " " or prev == "–" or prev == "-":
        opener = folded.rfind("[", max(0, s - 40), s)
        if opener >= 0:
            ref = _REFERENCE.match(folded, opener)
            if ref is not None and ref.end() > s:
                return opener, ref.end()
    if prev == "(" or prev == "," or prev == " ":
        opener = folded.rfind("(", max(0, s - 40), s)
        if opener >= 0:
            ref = _PAREN_REFERENCES.match(folded, opener)
            if ref is not None and ref.end() > s:
                return opener, ref.end()
    if prev == "^" and s >= 2 and (folded[s - 2].isalpha() or folded[s - 2] in ")]"):
        return s - 1, label_end(scanner, folded, e)
    if prev and prev in ")]":
        opener = folded.rfind("(["[")]".index(prev)], max(0, s - 24), s)
        if opener >= 0 and _LETTERS.search(folded, opener, s) is not None:
            return s, label_end(scanner, folded, e)  # Mg(ClO4)2, Ca10(PO4)6
    if prev and _GREEK.match(prev):
        return s - 1, label_end(scanner, folded, e)  # σ0, Σ5
    if prev in ("", "\n", " ", "\t"):
        mark = _LIST_MARK.match(folded, s) or _SECTION_MARK.match(folded, s)
        if mark is not None and (s == 0 or _LIST_ITEM.search(folded, max(0, s - 12), s)):
            return s, mark.end()
        if e - s == 4 and is_citation(folded, s, e):
            return s, e  # "(Smith, 2019)": a cited work, not a figure of the claim
    coordinate = _COORDINATE.match(folded, e)
    if coordinate is not None:
        return s, coordinate.end()
    return None


def month_day_at(scanner: MentionScanner, folded: str, s: int, e: int) -> tuple[int, int] | None:
    """(start, end) of "3 May", "3rd of May", "May 3", "May 3rd" around the number at
    ``s:e`` (the year-less forms; dated ones are already time mentions)."""
    number = folded[s:e]
    if not number.isdigit() or not 1 <= int(number) <= 31:
        return None
    months = scanner.res.months
    after = _MONTH_AFTER.match(folded, e)
    if after is not None and after.group(1).lower() in months:
        return s, after.end(1)
    suffix = _ORDINAL.match(folded, e)
    second = second_day(folded, suffix.end() if suffix else e)
    if second is not None:
        # "3-7 May", "from 3 to 7 May", "between 10 and 14 June": days of one month
        after = _MONTH_AFTER.match(folded, second)
        if after is not None and after.group(1).lower() in months:
            between = _BETWEEN.search(folded, max(0, s - 12), s)
            first = s
            if between is not None and between.group(1).lower() == "between":
                first = between.start()
            return first, after.end(1)
    before = _MONTH_BEFORE.search(folded, max(0, s - 12), s)
    if before is not None and before.group(1).lower() in months:
        suffix = _ORDINAL.match(folded, e)
        end = suffix.end() if suffix else e
        # "May 3-7", "June 10 to 14"
        return before.start(1), second_day(folded, end) or end
    return None


def open_dated_range(folded: str, s: int, e: int, out: Mentions, occupied: bytearray) -> bool:
    """Make the dated day after "7 and" / "7-" ("7 and 8 May 2019") start at day 7."""
    for t in out.times:
        if t.start > e and t.first is not None and t.granularity == TimeGranularity.DAY:
            if folded[e : t.start].strip(" \t-–—").lower() not in ("", "and", "to"):
                return False
            first = _safe_date(t.first.year, t.first.month, int(folded[s:e]))
            if first is None or first > t.first:
                return False
            occupied[s : t.start] = b"\x01" * (t.start - s)
            t.start, t.first = s, first
            return True
    return False


def second_day(folded: str, pos: int) -> int | None:
    """End of the second day of a range of days ("-7", " to 7th") right after ``pos``."""
    m = _DAY_RANGE.match(folded, pos)
    if m is None or not 1 <= int(m.group(1)) <= 31:
        return None
    return m.end()


def counted_after(
    scanner: MentionScanner, folded: str, pos: int, value: float
) -> tuple[int, str, tuple[int, int] | None] | None:
    """(end, counted noun, describing word) of what a number ending at ``pos`` counts:
    "12 members", "274 elderly participants" (one describing word is allowed)."""
    counted = _COUNTED.match(folded, pos)
    if counted is None:
        return None
    noun = counted.group(1)
    if counted_noun(scanner, noun, value):
        return counted.end(), noun, None
    res = scanner.res
    if noun in res.prepositions or noun in _COUNTED_DATA.never:
        return None
    if noun in res.stopwords and noun not in _COUNTED_DATA.describing:
        return None
    second = _COUNTED.match(folded, counted.end())
    if second is None or not counted_noun(scanner, second.group(1), value):
        return None
    if value == 1 and not second.group(1).endswith("s"):
        return None
    return second.end(), second.group(1), (counted.start(1), counted.end())


def counted_further(
    scanner: MentionScanner, folded: str, pos: int, value: float
) -> tuple[int, str, tuple[int, int] | None] | None:
    """What a number *word* counts across up to four describing words, names
    included: "Nine African countries", "fourteen home Premier League games". Only for
    number words: a written-out number is a count far more often than a digit is, and
    a digit before a name is often part of the name ("Windows 11 users")."""
    res = scanner.res
    end = pos
    for k in range(5):
        m = _DESCRIBED.match(folded, end)
        if m is None:
            return None
        word = m.group(1)
        low = word.lower()
        if low in res.prepositions or low in _COUNTED_DATA.never or low in res.months:
            return None
        if low in res.stopwords and low not in _COUNTED_DATA.describing:
            return None
        if k and counted_noun(scanner, low, value):
            nxt = _DESCRIBED.match(folded, m.end())
            if not (word[0].isupper() and nxt is not None and nxt.group(1)[0].isupper()):
                # "UEFA Champions League seasons": a name goes on to its last word.
                # The describing words join the value span: "Premier League" names no
                # attribute of what is counted
                return m.end(), word, None
        end = m.end()
    return None


def counted_noun(scanner: MentionScanner, word: str, value: float) -> bool:
    """Whether ``word`` after a number is what it counts: a plural noun ("12 members"),
    a singular after one ("1 ticket"), or an irregular plural ("40 people"); never a
    stopword, preposition, verb or adverb ("5 to", "10 in", "3 more", "100 fell")."""
    res = scanner.res
    if word in res.stopwords or word in res.prepositions or word in _COUNTED_DATA.never:
        return False
    if word in _COUNTED_DATA.plurals:
        return True
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ous")):
        return True
    return value == 1 and not word.endswith(("ly", "ed", "ing", "est", "er"))


def rating(folded: str, s: int, e: int) -> bool:
    """Whether the number at ``s:e`` is a rating on a scale ("an average rating of
    6.3/10"): a /5, /10 or /100 after a rating word earlier in the sentence."""
    if _SCORE.match(folded, e) is None:
        return False
    lead = max(folded.rfind(".", 0, max(0, s - 1)), s - 160, 0)
    return _RATING_WORDS.search(folded, lead, s) is not None


def lead_name_number(scanner: MentionScanner, folded: str, s: int, e: int, value: float) -> bool:
    """A name that opens the sentence ("Apollo 11 carried 3 astronauts", "Windows 11
    requires 4 GB", "Area 51 covers 2,900 acres", "Formula 1 teams spend ..."): an
    integer after a capitalised first word that is no function word, when the number
    counts nothing after it ("Allow 30 working days", "Expect 40 guests" still count)."""
    if not folded[s:e].isdigit() or _TIMES_AFTER.match(folded, e):
        return False
    name = _NAME_WORD.search(folded, max(0, s - 30), s)
    if name is None or name.end() != s:
        return False
    if _SENTENCE_LEAD.search(folded, max(0, name.start() - 4), name.start()) is None:
        return False  # inside a sentence: _is_name_number's case
    word = name.group(1).lower()
    res = scanner.res
    if (
        word in res.stopwords
        or word in res.prepositions
        or word in res.months
        or word in res.connectives
        or word in res.numbers.bound_cues
        or word in _ORDINAL_WORDS
    ):
        return False
    what = counted_after(scanner, folded, e, value)
    if what is None:
        counted = _COUNTED.match(folded, e)
        # "Allow 30 working days": a describing word before a unit
        return counted is None or _unit_after(res, folded, counted.end()) is None
    noun = what[1]
    if value == 1 and noun.endswith("s") and noun not in _COUNTED_DATA.plurals:
        return True  # "Formula 1 teams": one never counts a plural
    return _VERB_OBJECT.match(folded, what[0]) is not None  # "Area 51 covers 2,900 acres"


def score_end(scanner: MentionScanner, folded: str, s: int, e: int) -> int | None:
    """End of a result written "2-1", "0–3", "a 1-1 draw", "52-48" (a match, a vote, a
    win-loss record) at the number ``s:e``: two integers joined by a dash with no unit
    or counted noun after them, falling, or near a word of a result. Not a range and
    not a negative number."""
    if e - s > 3 or not folded[s:e].isdigit():
        return None
    pair = _SCORE_PAIR.match(folded, e)
    if pair is None:
        return None
    end = pair.end()
    unit = _unit_after(scanner.res, folded, end)
    if unit is not None and _SCORE_WORDS.fullmatch(unit[1]) is None:
        return None  # "2-3 mg" ("a 10-6 record" is a result: records are no unit here)
    if counted_after(scanner, folded, end, 2.0) is not None:
        return None
    if _BETWEEN.search(folded, max(0, s - 12), s) is not None:
        return None  # "from 2 to 1", "between 3 and 5" are ranges
    if int(folded[s:e]) > int(pair.group(1)):
        return end
    window = _SCORE_WORDS.search(folded, max(0, s - 60), min(len(folded), end + 40))
    return end if window is not None else None


def page_glue(scanner: MentionScanner, folded: str, s: int, end: int) -> bool:
    """Whether the number ``s:end`` is glued to a capitalised word that starts the next
    piece of text ("72,251The Ravens", "2017On December 14", "82At the request"): a
    number of three or more characters, or a function word or month glued on. "4Real"
    and "2Pac" (names written so), "100Mb" and "5Hz" (units) are not."""
    glued = _GLUED_WORD.match(folded, end)
    if glued is None:
        return False
    if _unit_at(scanner.res, folded, end) is not None:
        return False
    return end - s >= 3 or glued_lead(scanner, folded, end)


def is_name_number(scanner: MentionScanner, folded: str, s: int, e: int) -> bool:
    """A number inside a name ("Route 66", "Windows 11", "FTSE 100", "Voyager 1"): an
    integer after a capitalised word that does not start the sentence (or after an
    all-capitals word)."""
    if not folded[s:e].isdigit() or _TIMES_AFTER.match(folded, e):
        return False  # "won the Bundesliga 28 times": how often, not a name
    name = _NAME_WORD.search(folded, max(0, s - 30), s)
    if name is None:
        return False
    word = name.group(1)
    if len(word) >= 2 and word.isupper():
        return True
    return _SENTENCE_LEAD.search(folded, max(0, name.start() - 4), name.start()) is None


def counts_people(scanner: MentionScanner, folded: str, pos: int) -> bool:
    """Whether a plural counted noun (no unit) follows ``pos``: "1.2m customers"."""
    counted = _COUNTED.match(folded, pos)
    if counted is None or _unit_at(scanner.res, folded, counted.start(1)) is not None:
        return False
    noun = counted.group(1)
    return (noun.endswith("s") or noun in _COUNTED_DATA.plurals) and counted_noun(
        scanner, noun, 2.0
    )


# the code of a ranked level: a number or a single letter ("Priority 1", "Band B")
_LEVEL_CODE = re.compile(r"^(?:\d{1,2}|[a-z])$")


def label_scope(
    scanner: MentionScanner, folded: str, start: int, end: int
) -> tuple[str, str] | None:
    """p99 -> (metric, p99), Q1 -> (period, q1), FY2024 -> (period, fy2024), a ranked
    level "Priority 1" -> (priority, 1)."""
    text = folded[start:end].lower()
    known = scanner.res.label_scope.get(text)
    if known is not None:
        return known
    words = text.split()
    if len(words) == 2 and words[0] in scanner.res.ranked_levels and _LEVEL_CODE.match(words[1]):
        return words[0], words[1]
    for pattern, dim in scanner.res.label_scope_patterns:
        if pattern.match(text):
            return dim, text
    return None


def label_end(scanner: MentionScanner, folded: str, pos: int) -> int:
    n = len(folded)
    while pos < n and (
        folded[pos].isalnum()
        or (folded[pos] in ".-:/" and pos + 1 < n and folded[pos + 1].isalnum())
    ):
        if not folded[pos].isascii() and folded[pos].isalpha():
            break
        if (
            folded[pos].isupper()
            and pos
            and folded[pos - 1].isdigit()
            and glued_lead(scanner, folded, pos)
        ):
            break  # "ISBN 0-7627-7340-4In 2015": the next sentence lost its space
        pos += 1
    return pos


def glued_lead(scanner: MentionScanner, folded: str, pos: int) -> bool:
    """Whether a function word or a month that opens a sentence starts at ``pos``."""
    glued = _GLUED_WORD.match(folded, pos)
    if glued is None:
        return False
    word, res = glued.group(0).lower(), scanner.res
    return (
        word in res.stopwords
        or word in res.prepositions
        or word in res.months
        or word in res.connectives
    )
