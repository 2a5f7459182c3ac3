"""Character-level mentions: quantities, effective-time expressions and labels.

Numbers are found on a *folded* copy of the text (every decimal digit of any script turned
into ASCII, full-width ASCII turned into ASCII, one code point for one code point), so
"３０日" and "٣٠ يوما" read like "30日" and "30 يوما" while every offset still points into
the original text. This runs at the character level because Japanese and Chinese write
units flush to the number, which a whitespace tokenizer cannot split.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from claims.extraction.misspelt_months import misspelt_month
from claims.extraction.resources import Resources, read_yaml, resources
from claims.models import Bound, TimeGranularity
from claims.units.lexicon import currency_for_prefix, lookup

# "p < .001", "r = .64": a decimal without its leading zero, after a space or a sign. A
# thousands group is three digits and no more: "1989,2013" (two years glued by a comma in
# scraped text) is two numbers, not 1,989,201 and a 3
_NUMBER = re.compile(r"[0-9]+(?:,[0-9]{3}(?![0-9]))*(?:\.[0-9]+)?|(?<=[ =<>~(])\.[0-9]+(?![0-9.])")
_EXPONENT = re.compile(r"[eE][+-]?[0-9]{1,6}(?![A-Za-z0-9])")
_POWER = re.compile(r"(?:\^[0-9]{1,6})+")
_JOINER = re.compile(r"[ \t]{0,2}(?:-[ \t]?)?")
_PER = re.compile(r"\s*(?:\bper\b|/)\s*", re.IGNORECASE)
_RANGE_SEP = re.compile(r"\s*(?:-|–|—|\bto\b|\band\b)\s*(?:US\$|\$|€|£|¥)?", re.IGNORECASE)
_LETTERS = re.compile(r"[A-Za-z]+")
_LETTERS_END = re.compile(r"[A-Za-z_]+$")
_BETWEEN = re.compile(r"(?:^|(?<=[^A-Za-z]))(between|from)\s+$", re.IGNORECASE)


def _range_word(separator: str) -> str:
    """The word of a range separator without the second value's currency sign: "£15 and
    £20" is joined by "and" (two list items, not a range) as much as "15 and 20" is."""
    return separator.strip().lower().rstrip("$€£¥").removesuffix("us").strip()


_WORD = re.compile(r"[A-Za-z]+")
# A label word ends in a letter, "." ("No."), "§" or "#"; anything else before a number
# cannot be one, so the dictionary lookup is skipped.
_LABEL_TAILS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.§#")
_NONSPACE = re.compile(r"\S+")
_OPENERS = "([{\"'\u201c\u2018"


def phrase_before(
    folded: str, pos: int, table: dict[str, str] | frozenset[str], max_words: int = 4
) -> tuple[str, int] | None:
    """The longest phrase of ``table`` that ends right before ``pos`` (only whitespace between),
    with its start offset. A dictionary lookup on the last words: a regex alternation
    searched backwards costs ten times more and this runs for every number."""
    lo = max(0, pos - 8 * max_words - 8)
    # Every phrase ends in one of the table's last words: check the word before ``pos``
    # first (most numbers follow "is" or "of"), and split the window only when it fits.
    last = folded[lo:pos].rsplit(None, 1)[-1:]
    if not last:
        return None
    ends = _last_words(table)
    word = last[0].lower()
    if word not in ends and word.lstrip(_OPENERS) not in ends:
        return None
    words = [(m.group(0), m.start()) for m in _NONSPACE.finditer(folded, lo, pos)]
    if words and lo > 0 and words[0][1] == lo and not folded[lo - 1].isspace():
        words = words[1:]  # the window cut a word in half
    for k in range(min(max_words, len(words)), 0, -1):
        first, start = words[-k]
        stripped = first.lstrip(_OPENERS)
        start += len(first) - len(stripped)
        phrase = " ".join([stripped] + [w for w, _ in words[len(words) - k + 1 :]]).lower()
        if phrase in table:
            return phrase, start
    return None


_LAST_WORDS: dict[int, tuple[object, frozenset[str]]] = {}


def _last_words(table: dict[str, str] | frozenset[str]) -> frozenset[str]:
    """The last words of a phrase table's phrases (cached; the entry keeps the table alive,
    so its id cannot be reused by another table)."""
    entry = _LAST_WORDS.get(id(table))
    if entry is None or entry[0] is not table:
        entry = (table, frozenset(phrase.split()[-1] for phrase in table if phrase.split()))
        _LAST_WORDS[id(table)] = entry
    return entry[1]


# A pattern that cannot match without this character is not run over text lacking it.
_REQUIRED_LITERAL = {"cjk": "年", "iso": "-"}
_WORD_LED = frozenset({"mdy", "my", "q", "qw", "h"})
_DAY_BEFORE = re.compile(r"[0-3]?[0-9](?:st|nd|rd|th)?(?:\s+of)?\s+$", re.IGNORECASE)


def _rank_pattern() -> tuple[re.Pattern[str], dict[str, int]]:
    """A rank after a copula or a ranking verb (numbers.yaml ``ordinal_words``,
    ``rank_copulas``, ``rank_verbs``, ``rank_owners``): group ``ord`` is the ordinal."""
    data = read_yaml("numbers.yaml")
    words = {str(k).lower(): int(v) for k, v in (data.get("ordinal_words") or {}).items()}

    def alt(key: str) -> str:
        return "|".join(re.escape(str(w)) for w in sorted(data.get(key) or [], key=len)[::-1])

    ordinal = rf"[0-9]{{1,3}}(?:st|nd|rd|th)|{alt('ordinal_words') or '(?!)'}"
    adverbs = r"(?:(?:now|currently|also|still|then|officially|jointly|only)\s+)?"
    owner = r"(?:[A-Z][\w.&-]*\s+){0,4}?[A-Za-z][\w.&-]*\s*['’]s?\s+"
    pattern = re.compile(
        rf"(?<![A-Za-z])(?:(?:{alt('rank_copulas')})\s+{adverbs}(?:(?:{alt('rank_owners')})\s+)?"
        rf"(?:{owner})?|(?:{alt('rank_verbs')})\s+(?:(?:at|as|in)\s+)?(?:the\s+)?)"
        rf"(?P<ord>{ordinal})(?![A-Za-z0-9])(?!\s+(?:{alt('rank_not_before') or '(?!)'})\b)",
        re.IGNORECASE,
    )
    return pattern, words


_RANK, _ORDINAL_WORDS = _rank_pattern()


def _chart_pattern() -> tuple[re.Pattern[str], dict[str, int]]:
    """A chart position after a charting verb ("peaked at number 52", "debuted at # 14",
    "is ranked No. 2"; numbers.yaml ``chart_verbs``, ``chart_markers``): group ``ord`` is
    the position, digits or a number word up to nineteen."""
    data = read_yaml("numbers.yaml")
    words = {str(k).lower(): int(v) for k, v in (data.get("units_words") or {}).items()}

    def alt(items: object) -> str:
        return "|".join(re.escape(str(w)) for w in sorted(items or [], key=len)[::-1])  # type: ignore[call-overload]

    adverbs = r"(?:(?:now|currently|also|still|then|later|eventually|officially)\s+)?"
    pattern = re.compile(
        rf"(?<![A-Za-z])(?:{alt(data.get('chart_verbs'))})\s+{adverbs}(?:(?:at|to|in)\s+)?"
        rf"(?:{alt(data.get('chart_markers'))})\s*"
        rf"(?P<ord>[0-9]{{1,3}}|{alt(words)})(?![A-Za-z0-9])(?![.,][0-9])",
        re.IGNORECASE,
    )
    return pattern, words


_CHART, _CHART_WORDS = _chart_pattern()
_CHART_HINT = re.compile(r"#|(?<![a-z])n(?:umber|o\.)", re.IGNORECASE)
_DIGIT_ORDINAL = re.compile(r"[0-9](?:st|nd|rd|th)(?![A-Za-z])")
_ORDINAL_HINT = re.compile(
    r"[0-9](?:st|nd|rd|th)(?![A-Za-z])|(?<![A-Za-z])(?:"
    + "|".join(sorted(_ORDINAL_WORDS, key=len, reverse=True))
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_SCORE = re.compile(r"/(?:100|10|5)(?![0-9/]|[.,][0-9])")
_RATING_WORDS = re.compile(
    r"(?<![A-Za-z])(?:"
    + "|".join(map(re.escape, read_yaml("numbers.yaml").get("rating_words") or []))
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_TIMES_AFTER = re.compile(r"[ \t]+times(?![A-Za-z])")
# A year-like number after these words is an amount ("the cases reached 1888")
_AMOUNT_BEFORE_YEAR = frozenset(
    str(p).lower() for p in read_yaml("numbers.yaml").get("amount_before_year") or []
)
# A result "2-1", "0–3": the second integer of the pair, when no unit follows it
_SCORE_PAIR = re.compile(r"[ \t]?[-–—][ \t]?([0-9]{1,3})(?![0-9]|[.,][0-9]|[ \t]?%)")
_SCORE_WORDS = re.compile(
    r"(?<![A-Za-z-])(?:"
    + "|".join(map(re.escape, read_yaml("numbers.yaml").get("score_words") or []))
    + r")(?![A-Za-z-])",
    re.IGNORECASE,
)
# "8 pm", "7.30pm", "9 a.m.": a time of day after the number
_CLOCK = re.compile(r"[ \t]?(?:[ap]\.m\.|[ap]m(?![A-Za-z]))", re.IGNORECASE)
# "2018–19": a season that runs into the next year ("2024/25" is left as it was: the claim's
# time already spans both years there, and reading it here changed the office corpus edges)
_SEASON = re.compile(r"[-–—]([0-9]{2})(?![0-9A-Za-z])")
# "two and a half million": the half joins the number before its scale word
_AND_A_HALF = re.compile(r"\s+and\s+a\s+half\s+([a-z]+)(?![A-Za-z])", re.IGNORECASE)
_VAGUE_MULTIPLES = {
    str(k).lower(): (float(v[0]), float(v[1]))
    for k, v in (read_yaml("numbers.yaml").get("vague_multiples") or {}).items()
}
_VAGUE_WORDS = frozenset(_VAGUE_MULTIPLES)
_WORD_AFTER = re.compile(r"\s+([A-Za-z]+)")
# A capitalised word glued to a number ("72,251The Ravens", "2017On December 14"): page
# furniture that lost its space, not a unit or a name ("4Real", "2Pac" start their token)
_GLUED_WORD = re.compile(r"[A-Z][a-z]+")
# the other sides of a size after its first number: "x24", " × 4", "x2x2"
_SIZE_SIDES = re.compile(
    r"\s?[x×]\s?([0-9]+(?:\.[0-9]+)?)(?:\s?[x×]\s?([0-9]+(?:\.[0-9]+)?))?\s?(?=[A-Za-zµ])"
)
# the lexicon surfaces an area (two sides) or a volume (three) of a length unit may have
_POWER_SURFACES = {
    2: lambda u, base: (f"{u}2", f"{base}2", f"square {u}", f"sq {u}"),
    3: lambda u, base: (f"{u}3", f"{base}3", f"cubic {u}", f"cu {u}"),
}
# "(Smith, 2019)", "(Smith et al. 2019; ...)", "(Ng and Lee, 2020)": a citation's year
_CITATION_BEFORE = re.compile(
    r"[(;]\s*[A-Z][A-Za-z'’-]+(?:\s+(?:et\s+al\.?|(?:and|&)\s+[A-Z][A-Za-z'’-]+))?,?\s+$"
)
_CITATION_AFTER = re.compile(r"[a-z]?\s*[);,]")
# After a counted-looking word, an object: the word was a verb ("Area 51 covers 2,900 acres")
_VERB_OBJECT = re.compile(
    r"[ \t]+(?:[0-9$€£¥]|(?:the|a|an|its|their|his|her|about|around|nearly|over|more|up|some)"
    r"(?![A-Za-z]))"
)
_DESCRIBED = re.compile(r"[ \t]([A-Za-z][A-Za-z-]{0,31})(?![A-Za-z0-9'])")
_COUNTED = re.compile(r"[ \t]([a-z][a-z-]{2,31})(?![A-Za-z0-9])")
_YEAR_WORDS = frozenset(
    [
        "the",
        "fiscal",
        "calendar",
        "year",
        "fy",
        "cy",
        "its",
        "our",
        "their",
        "a",
        "to",
        "and",
        "or",
        "than",
        "between",
        "end",
        "early",
        "late",
        "mid",
    ]
)
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.'-]*)\s*$")


def _time_words() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """(a dating source after a time, one before it, a month-alone connective before a
    month), from time.yaml's ``dating_sources`` and ``month_connectives``."""
    data = read_yaml("time.yaml")
    sources = "|".join(sorted((str(w) for w in data.get("dating_sources") or []), key=len)[::-1])
    connectives = sorted((str(w) for w in data.get("month_connectives") or []), key=len)[::-1]
    joined = "|".join(r"\s+".join(map(re.escape, c.split())) for c in connectives)
    return (
        re.compile(rf"[ \t]+(?:{sources})(?![A-Za-z])", re.IGNORECASE),
        re.compile(rf"(?<![A-Za-z])(?:{sources})[ \t]+(?:of|in|for)[ \t]+$", re.IGNORECASE),
        re.compile(rf"(?<![A-Za-z])(?:{joined})[ \t]+(?:the[ \t]+)?$", re.IGNORECASE),
    )


_SOURCE_AFTER, _SOURCE_BEFORE, _MONTH_CONNECTIVE = _time_words()
_MONTH_ABBREVIATIONS = frozenset(
    ["jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]
)
_DIGIT_AFTER = re.compile(r"\s*(?:the\s+)?[0-9]")


@dataclass(frozen=True, slots=True)
class _CountedWords:
    plurals: frozenset[str]
    never: frozenset[str]
    describing: frozenset[str]


def _counted_words() -> _CountedWords:
    data = read_yaml("numbers.yaml").get("counted_nouns") or {}
    return _CountedWords(
        frozenset(str(w) for w in data.get("irregular_plurals", [])),
        frozenset(str(w) for w in data.get("never", [])),
        frozenset(str(w) for w in data.get("describing", [])),
    )


_COUNTED_DATA = _counted_words()


@dataclass(frozen=True, slots=True)
class _VagueAmounts:
    amounts: dict[str, tuple[float, float]]  # "hundreds" -> (100, 1000)
    pattern: re.Pattern[str]


def _vague_amounts() -> _VagueAmounts:
    data = read_yaml("numbers.yaml").get("vague_amounts") or {}
    amounts = {str(k): (float(v[0]), float(v[1])) for k, v in data.items()}
    words = "|".join(sorted(amounts, key=len, reverse=True))
    pattern = re.compile(
        rf"(?<![A-Za-z])(?:{words})(?:\s+of\s+(?:{words}))*\s+of\s+(?=[A-Za-z€$£¥])",
        re.IGNORECASE,
    )
    return _VagueAmounts(amounts, pattern)


_VAGUE = _vague_amounts()

# Numbers that are not the asserted value (issue 12 point 5): references, list numbers,
# more labels of a labelled list, days of the month, coordinates, numbers inside names.
_REFERENCE = re.compile(r"\[\s*[0-9]+(?:\s*[-–,;]\s*[0-9]+)*\s*\]")
_PAREN_REFERENCES = re.compile(r"\([0-9]+(?:[-–][0-9]+)?(?:\s*[,;]\s*[0-9]+(?:[-–][0-9]+)?)+\)")
_LIST_MORE = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+|&\s*)?|\s+(?:and|or|&|to|through)\s+|\s*[-–]\s*)"
    r"([0-9]+(?:\.[0-9]+)*[A-Za-z]?)(?![0-9.,]?[0-9])"
)
# a line start, after a Markdown heading mark too ("## 2. Leave")
_LIST_ITEM = re.compile(r"(?:^|\n)[ \t]*(?:#{1,6}[ \t]+)?$")
_LIST_MARK = re.compile(r"[0-9]{1,3}(?:\.|\))(?=[ \t]+\S)")
# "2.1 Leave", "4.10 Expenses" at a line start: a section number before its heading
_SECTION_MARK = re.compile(r"[0-9]{1,2}\.[0-9]{1,2}\.?(?=[ \t]+[A-Z][a-z])")
_COORDINATE = re.compile(
    r"\s?(?:°|º)\s?(?:[0-9.]+\s?['′’]\s?(?:[0-9.]+\s?(?:\"|″|”)\s?)?)?[NSEW](?![A-Za-z])"
)
_MONTH_AFTER = re.compile(r"(?:st|nd|rd|th)?(?:\s+of)?\s+([A-Z][a-z]+)\.?(?![A-Za-z])")
_MONTH_BEFORE = re.compile(r"(?<![A-Za-z])([A-Z][a-z]+)\.?[ \t]+$")
_ORDINAL = re.compile(r"(?:st|nd|rd|th)(?![A-Za-z])")
_DAY_RANGE = re.compile(
    r"\s*(?:-|–|—|to|and|until|till)\s*([0-3]?[0-9])(?:st|nd|rd|th)?(?![0-9A-Za-z]|[.,][0-9])",
    re.IGNORECASE,
)
_SENTENCE_LEAD = re.compile(r"(?:^|[.!?:;\n\u2022*#>-]|\(|\d\.)\s*$")
_NAME_WORD = re.compile(r"([A-Z][A-Za-z&'-]*|[A-Za-z]*[A-Z][A-Za-z]*)[ \t]+$")
_GREEK = re.compile(r"[\u0370-\u03ff]")
_PLUS_MINUS = re.compile(r"\s*(?:±|\+/-|\+/−|\+-)\s*")
_TIMES_TEN = re.compile(
    r"\s*[×x]\s*10(?:\^|\*\*)?([-−⁻]?)([0-9]{1,3}|[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})(?![0-9.,]?[0-9])"
)
# Soft hyphen, zero-width space / joiners, word joiner, byte-order mark: invisible in print,
# so a number or unit is read across them.
_INVISIBLE_CHARS = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


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


# --------------------------------------------------------------------------- dates


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


# --------------------------------------------------------------------------- units


def _unit_at(res: Resources, folded: str, pos: int) -> re.Match[str] | None:
    """The longest lexicon unit starting exactly at ``pos``."""
    a = res.unit_sensitive.match(folded, pos)
    b = res.unit_insensitive.match(folded, pos)
    if a is None:
        return b
    if b is None:
        return a
    return a if a.end() >= b.end() else b


def _unit_after(res: Resources, folded: str, pos: int) -> tuple[int, str] | None:
    """(end, unit surface) of a unit written after a number ending at ``pos``, with "per X"."""
    joiner = _JOINER.match(folded, pos)
    start = joiner.end() if joiner else pos
    m = _unit_at(res, folded, start)
    if m is None:
        return None
    end = m.end()
    surface = folded[start:end]
    powered = _powered_unit(res, folded, start, end)
    if powered is not None:
        return powered
    per = _PER.match(folded, end)
    if per is not None and folded[end : per.end()].strip():
        den = _unit_at(res, folded, per.end())
        # "3% per year" is an annual rate (a period scope), not percent per second
        if den is not None and not (
            (_is_ratio(surface) or _is_time(surface)) and _is_time(den.group(0))
        ):
            combined = f"{surface} per {folded[per.end() : den.end()]}"
            if lookup(combined) is not None:
                return den.end(), folded[start : den.end()]
    return end, surface


_UNIT_EXPONENT = re.compile(r"\^?-?[1-4](?![0-9A-Za-z])|⁻?[¹²³⁴]")


def _powered_unit(res: Resources, folded: str, start: int, end: int) -> tuple[int, str] | None:
    """(end, surface) of a unit written with powers, as science writes it: "cm-3",
    "m s-1", "g cm-3", "Mg ha-1 yr-1" (the minus sign is already folded to "-")."""
    pos = end
    exponent = _UNIT_EXPONENT.match(folded, pos)
    powered = exponent is not None
    if exponent is not None:
        pos = exponent.end()
    for _ in range(3):
        if folded[pos : pos + 1] not in (" ", "·"):
            break
        nxt = _unit_at(res, folded, pos + 1)
        if nxt is None:
            break
        inverse = _UNIT_EXPONENT.match(folded, nxt.end())
        if inverse is None or inverse.group(0).lstrip("^")[:1] not in ("-", "⁻"):
            break
        pos = inverse.end()
        powered = True
    if not powered or lookup(folded[start:pos]) is None:
        return None
    return pos, folded[start:pos]


# --------------------------------------------------------------------------- numbers


def _parse_number(text: str) -> float:
    return float(text.replace(",", ""))


def _apply_power(base: float, chain: str) -> float:
    """Right-associative ``base^a^b`` in floats; anything past float range is ``inf``."""
    exponents = [float(x) for x in chain.split("^") if x]
    value = exponents[-1]
    try:
        for e in reversed(exponents[:-1]):
            value = e**value
        return float(base**value)
    except OverflowError:
        return math.inf


def _number_words_value(res: Resources, text: str) -> float | None:
    vocab = res.numbers
    key = " ".join(text.lower().replace("-", " ").split())
    if key in vocab.dozen_words:
        return float(vocab.dozen_words[key])
    total, current, seen = 0, 0, False
    for word in key.split():
        if word == "and":
            continue
        if word in vocab.units_words:
            current += vocab.units_words[word]
        elif word in vocab.tens_words:
            current += vocab.tens_words[word]
        elif word in vocab.scale_words:
            scale = vocab.scale_words[word]
            if scale == 100:
                current = max(current, 1) * 100
            else:
                total += max(current, 1) * scale
                current = 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


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
            self._number(folded, m, occupied, out)
        self._number_words(folded, occupied, out, number_starts)
        self._vague_amounts(folded, occupied, out)
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
        out.labels.append(LabelMention(start, end, self._label_scope(folded, start, end)))
        occupied[start:end] = b"\x01" * (end - start)

    def _number(self, folded: str, m: re.Match[str], occupied: bytearray, out: Mentions) -> None:
        res = self.res
        s, e = m.start(), m.end()
        prev = folded[s - 1] if s else ""
        # Glued to Latin letters before: p50, IPv4, FY2024, Q1, COVID-19, ISO-9001 -> a label.
        if prev.isascii() and (prev.isalpha() or prev == "_"):
            word = _LETTERS_END.search(folded, max(0, s - 12), s)
            start = word.start() if word else s - 1
            self._label(folded, start, self._label_end(folded, e), occupied, out)
            return
        if prev in "-–" and s >= 2 and occupied[s - 2] and folded[s - 2].isalnum():
            # "TRA-1–60": the rest of a label
            self._label(folded, s, self._label_end(folded, e), occupied, out)
            return
        if prev == "-" and s >= 2 and folded[s - 2].isascii() and folded[s - 2].isalpha():
            self._label(folded, s, self._label_end(folded, e), occupied, out)
            return
        size = self._size(folded, s, e)
        if size is not None:
            out.quantities.append(size)
            occupied[size.cue_start : size.end] = b"\x01" * (size.end - size.cue_start)
            return
        # "(1)", "alert(1)": an enumeration or an argument, not a measurement
        if prev == "(" and folded[e : e + 1] == ")":
            self._label(folded, s, e, occupied, out)
            return
        # Dotted or timed numbers (4.2.1, 10.0.0.1, 10:30, 3/4): identifiers or times, not values.
        if (
            e < len(folded) - 1
            and folded[e] in ".:/"
            and folded[e + 1].isdigit()
            and not self._rating(folded, s, e)  # "6.3/10" is a rating, read with its scale
        ):
            self._label(folded, s, self._label_end(folded, e), occupied, out)
            return
        day = self._month_day(folded, s, e)
        if day is not None and occupied[day[1] - 1]:
            # "7 and 8 May 2019": the second day is already a dated time; the first opens it
            if self._open_dated_range(folded, s, e, out, occupied):
                return
            day = None
        if day is not None:
            # "on 3 May", "By April 6": a day of the month without a year is a time without
            # dates (it names when, never what); it stays out of values and keys
            role, connective = self.times._role(folded, day[0])
            start = day[0] if role == "during" or occupied[connective] else connective
            out.times.append(TimeMention(start, day[1], None, None, None, "deictic"))
            occupied[start : day[1]] = b"\x01" * (day[1] - start)
            return
        clock = _CLOCK.match(folded, e) if _is_hour(folded[s:e]) else None
        if clock is not None:
            # "at 8 pm", "7.30pm", "4 P.M. EST": a time of day, which says when and never
            # what (a time without dates, like "3 May"), so it stays out of keys and scope
            out.times.append(TimeMention(s, clock.end(), None, None, None, "deictic"))
            occupied[s : clock.end()] = b"\x01" * (clock.end() - s)
            return
        incidental = self._incidental(folded, s, e, prev)
        if incidental is not None:
            self._label(folded, incidental[0], incidental[1], occupied, out)
            return
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
            end = self._label_end(folded, e)
            more = _LIST_MORE.match(folded, end)
            while more is not None and not occupied[more.start(1)]:
                end = self._label_end(folded, more.end(1))
                more = _LIST_MORE.match(folded, end)
            self._label(folded, label[1], end, occupied, out)
            return
        score = self._score(folded, s, e)
        if score is not None:
            self._label(folded, s, score, occupied, out)
            return
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
        if not math.isfinite(value):
            self._label(folded, start, end, occupied, out)
            return  # 1e400, 10^10^10: not a usable number; nothing is claimed
        plain = value
        glued_word = self._page_glue(folded, s, end)
        if glued_word and prev in ".,;" and s >= 2 and folded[s - 2].isalpha():
            # "... was released.4In 2015": a footnote marker that lost its spaces
            self._label(folded, s, end, occupied, out)
            return
        # magnitude glued (32k, 2.5bn, $5M) or spaced (5 million); none across page glue
        end, value, glued_ok = (
            (end, value, True)
            if glued_word
            else self._magnitude(folded, end, value, currency is not None)
        )
        if not glued_ok:
            self._label(folded, start, self._label_end(folded, end), occupied, out)
            return
        # range
        low = high = None
        bound = Bound.EXACT
        cue_start = start
        spread = self._plus_minus(folded, end, value)
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
                    hi_end, scale, _ = self._magnitude(folded, m2.end(), 1.0, currency is not None)
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
            and self._is_name_number(folded, start, end)
            and phrase_before(folded, start, res.numbers.bound_cues) is None
        ):
            # "400 million Windows 11 users": a counted noun of the lexicon after a number
            # inside a name counts nothing, as a plain counted noun after one does not
            self._label(folded, start, end, occupied, out)
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
                both = self._unit_range(folded, start, end, value, unit_text)
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
            # letters glued after the number that are no unit: 3rd, 10b, 9001abc -> a label
            if (
                not glued_word
                and end < len(folded)
                and ((folded[end].isascii() and folded[end].isalpha()) or _GREEK.match(folded[end]))
            ):
                self._label(folded, start, self._label_end(folded, end), occupied, out)
                return
            if (
                low is None
                and (
                    self._is_name_number(folded, start, end)
                    or self._lead_name_number(folded, start, end, value)
                )
                and phrase_before(folded, start, res.numbers.bound_cues) is None
            ):
                self._label(folded, start, end, occupied, out)
                return
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
                    what = self._counted_after(folded, end, value)
                    if what is not None:
                        end, unit_text, modifier = what
        # bounds and approximations written before the value
        bound, approximate, cue_start = self._cues_before(folded, cue_start, bound)
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

    def _cues_before(self, folded: str, pos: int, bound: Bound) -> tuple[Bound, bool, int]:
        """(bound, approximate, cue start) of the bound and approximation words written
        before a value starting at ``pos`` ("more than", "about", "nearly over")."""
        numbers = self.res.numbers
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

    @staticmethod
    def _plus_minus(folded: str, end: int, value: float) -> tuple[float, float, int] | None:
        """(low, high, end) of "3.19 ± 0.10": the stated spread around the value."""
        sign = _PLUS_MINUS.match(folded, end)
        if sign is None:
            return None
        spread = _NUMBER.match(folded, sign.end())
        if spread is None:
            return None
        delta = _parse_number(spread.group(0))
        return value - delta, value + delta, spread.end()

    def _unit_range(
        self, folded: str, start: int, end: int, value: float, unit: str
    ) -> tuple[float, float, int, int] | None:
        """(low, high, end, start) when the unit is written on both sides: "from 10 °C to
        25 °C", "48.4 MW to 59.0 MW", "43.22% ± 7.13%"; a falling range needs "from" or
        "between" before it."""
        spread = self._plus_minus(folded, end, value)
        if spread is not None:
            after = _unit_after(self.res, folded, spread[2])
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
        after = _unit_after(self.res, folded, second.end())
        if after is None or after[1].lower() != unit.lower():
            return None
        if value > hi and between is None:
            return None
        return min(value, hi), max(value, hi), after[0], between.start() if between else start

    def _incidental(self, folded: str, s: int, e: int, prev: str) -> tuple[int, int] | None:
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
            return s - 1, self._label_end(folded, e)
        if prev and prev in ")]":
            opener = folded.rfind("(["[")]".index(prev)], max(0, s - 24), s)
            if opener >= 0 and _LETTERS.search(folded, opener, s) is not None:
                return s, self._label_end(folded, e)  # Mg(ClO4)2, Ca10(PO4)6
        if prev and _GREEK.match(prev):
            return s - 1, self._label_end(folded, e)  # σ0, Σ5
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

    def _month_day(self, folded: str, s: int, e: int) -> tuple[int, int] | None:
        """(start, end) of "3 May", "3rd of May", "May 3", "May 3rd" around the number at
        ``s:e`` (the year-less forms; dated ones are already time mentions)."""
        number = folded[s:e]
        if not number.isdigit() or not 1 <= int(number) <= 31:
            return None
        months = self.res.months
        after = _MONTH_AFTER.match(folded, e)
        if after is not None and after.group(1).lower() in months:
            return s, after.end(1)
        suffix = _ORDINAL.match(folded, e)
        second = self._second_day(folded, suffix.end() if suffix else e)
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
            return before.start(1), self._second_day(folded, end) or end
        return None

    @staticmethod
    def _open_dated_range(folded: str, s: int, e: int, out: Mentions, occupied: bytearray) -> bool:
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

    @staticmethod
    def _second_day(folded: str, pos: int) -> int | None:
        """End of the second day of a range of days ("-7", " to 7th") right after ``pos``."""
        m = _DAY_RANGE.match(folded, pos)
        if m is None or not 1 <= int(m.group(1)) <= 31:
            return None
        return m.end()

    def _counted_after(
        self, folded: str, pos: int, value: float
    ) -> tuple[int, str, tuple[int, int] | None] | None:
        """(end, counted noun, describing word) of what a number ending at ``pos`` counts:
        "12 members", "274 elderly participants" (one describing word is allowed)."""
        counted = _COUNTED.match(folded, pos)
        if counted is None:
            return None
        noun = counted.group(1)
        if self._counted_noun(noun, value):
            return counted.end(), noun, None
        res = self.res
        if noun in res.prepositions or noun in _COUNTED_DATA.never:
            return None
        if noun in res.stopwords and noun not in _COUNTED_DATA.describing:
            return None
        second = _COUNTED.match(folded, counted.end())
        if second is None or not self._counted_noun(second.group(1), value):
            return None
        if value == 1 and not second.group(1).endswith("s"):
            return None
        return second.end(), second.group(1), (counted.start(1), counted.end())

    def _counted_further(
        self, folded: str, pos: int, value: float
    ) -> tuple[int, str, tuple[int, int] | None] | None:
        """What a number *word* counts across up to four describing words, names
        included: "Nine African countries", "fourteen home Premier League games". Only for
        number words: a written-out number is a count far more often than a digit is, and
        a digit before a name is often part of the name ("Windows 11 users")."""
        res = self.res
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
            if k and self._counted_noun(low, value):
                nxt = _DESCRIBED.match(folded, m.end())
                if not (word[0].isupper() and nxt is not None and nxt.group(1)[0].isupper()):
                    # "UEFA Champions League seasons": a name goes on to its last word.
                    # The describing words join the value span: "Premier League" names no
                    # attribute of what is counted
                    return m.end(), word, None
            end = m.end()
        return None

    def _counted_noun(self, word: str, value: float) -> bool:
        """Whether ``word`` after a number is what it counts: a plural noun ("12 members"),
        a singular after one ("1 ticket"), or an irregular plural ("40 people"); never a
        stopword, preposition, verb or adverb ("5 to", "10 in", "3 more", "100 fell")."""
        res = self.res
        if word in res.stopwords or word in res.prepositions or word in _COUNTED_DATA.never:
            return False
        if word in _COUNTED_DATA.plurals:
            return True
        if word.endswith("s") and not word.endswith(("ss", "us", "is", "ous")):
            return True
        return value == 1 and not word.endswith(("ly", "ed", "ing", "est", "er"))

    @staticmethod
    def _rating(folded: str, s: int, e: int) -> bool:
        """Whether the number at ``s:e`` is a rating on a scale ("an average rating of
        6.3/10"): a /5, /10 or /100 after a rating word earlier in the sentence."""
        if _SCORE.match(folded, e) is None:
            return False
        lead = max(folded.rfind(".", 0, max(0, s - 1)), s - 160, 0)
        return _RATING_WORDS.search(folded, lead, s) is not None

    def _lead_name_number(self, folded: str, s: int, e: int, value: float) -> bool:
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
        res = self.res
        if (
            word in res.stopwords
            or word in res.prepositions
            or word in res.months
            or word in res.connectives
            or word in res.numbers.bound_cues
            or word in _ORDINAL_WORDS
        ):
            return False
        what = self._counted_after(folded, e, value)
        if what is None:
            counted = _COUNTED.match(folded, e)
            # "Allow 30 working days": a describing word before a unit
            return counted is None or _unit_after(res, folded, counted.end()) is None
        noun = what[1]
        if value == 1 and noun.endswith("s") and noun not in _COUNTED_DATA.plurals:
            return True  # "Formula 1 teams": one never counts a plural
        return _VERB_OBJECT.match(folded, what[0]) is not None  # "Area 51 covers 2,900 acres"

    def _score(self, folded: str, s: int, e: int) -> int | None:
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
        unit = _unit_after(self.res, folded, end)
        if unit is not None and _SCORE_WORDS.fullmatch(unit[1]) is None:
            return None  # "2-3 mg" ("a 10-6 record" is a result: records are no unit here)
        if self._counted_after(folded, end, 2.0) is not None:
            return None
        if _BETWEEN.search(folded, max(0, s - 12), s) is not None:
            return None  # "from 2 to 1", "between 3 and 5" are ranges
        if int(folded[s:e]) > int(pair.group(1)):
            return end
        window = _SCORE_WORDS.search(folded, max(0, s - 60), min(len(folded), end + 40))
        return end if window is not None else None

    def _size(self, folded: str, s: int, e: int) -> QuantityMention | None:
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
        unit = _unit_at(self.res, folded, sides.end())
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
        bound, approximate, cue_start = self._cues_before(folded, s, Bound.EXACT)
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

    def _page_glue(self, folded: str, s: int, end: int) -> bool:
        """Whether the number ``s:end`` is glued to a capitalised word that starts the next
        piece of text ("72,251The Ravens", "2017On December 14", "82At the request"): a
        number of three or more characters, or a function word or month glued on. "4Real"
        and "2Pac" (names written so), "100Mb" and "5Hz" (units) are not."""
        glued = _GLUED_WORD.match(folded, end)
        if glued is None:
            return False
        if _unit_at(self.res, folded, end) is not None:
            return False
        return end - s >= 3 or self._glued_lead(folded, end)

    def _is_name_number(self, folded: str, s: int, e: int) -> bool:
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

    def _magnitude(
        self, folded: str, end: int, value: float, currency: bool
    ) -> tuple[int, float, bool]:
        """Apply a glued suffix or a spaced magnitude word; the bool is False for unknown glue."""
        vocab = self.res.numbers
        cjk = vocab.cjk_magnitudes.get(folded[end : end + 1])
        if cjk is not None:
            return end + 1, value * cjk, True
        letters = _LETTERS.match(folded, end)
        if letters is not None:
            glued = letters.group(0)
            factor = vocab.magnitude_suffixes.get(glued)
            if factor is None and (currency or self._counts_people(folded, letters.end())):
                # "$5m"; "1.2m customers", "3m people": a scale before a plural noun, where
                # "a 5m wall" stays five metres
                factor = vocab.currency_only_suffixes.get(glued)
            if factor is not None:
                value *= factor
                end = letters.end()
            elif _unit_at(self.res, folded, end) is None:
                return end, value, False
        word = self.res.magnitude_word.match(folded, end)
        if word is not None:
            value *= vocab.magnitude_words[word.group(1).lower()]
            end = word.end()
        return end, value, True

    def _counts_people(self, folded: str, pos: int) -> bool:
        """Whether a plural counted noun (no unit) follows ``pos``: "1.2m customers"."""
        counted = _COUNTED.match(folded, pos)
        if counted is None or _unit_at(self.res, folded, counted.start(1)) is not None:
            return False
        noun = counted.group(1)
        return (noun.endswith("s") or noun in _COUNTED_DATA.plurals) and self._counted_noun(
            noun, 2.0
        )

    def _label_scope(self, folded: str, start: int, end: int) -> tuple[str, str] | None:
        """p99 -> (metric, p99), Q1 -> (period, q1), FY2024 -> (period, fy2024)."""
        text = folded[start:end].lower()
        known = self.res.label_scope.get(text)
        if known is not None:
            return known
        for pattern, dim in self.res.label_scope_patterns:
            if pattern.match(text):
                return dim, text
        return None

    def _label_end(self, folded: str, pos: int) -> int:
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
                and self._glued_lead(folded, pos)
            ):
                break  # "ISBN 0-7627-7340-4In 2015": the next sentence lost its space
            pos += 1
        return pos

    def _glued_lead(self, folded: str, pos: int) -> bool:
        """Whether a function word or a month that opens a sentence starts at ``pos``."""
        glued = _GLUED_WORD.match(folded, pos)
        if glued is None:
            return False
        word, res = glued.group(0).lower(), self.res
        return (
            word in res.stopwords
            or word in res.prepositions
            or word in res.months
            or word in res.connectives
        )

    def _number_words(
        self, folded: str, occupied: bytearray, out: Mentions, starts: list[int] | None = None
    ) -> None:
        res = self.res
        if starts is None:
            first_words = res.number_first_words
            starts = [
                word.start()
                for word in _WORD.finditer(folded)
                if word.group(0).lower() in first_words
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
                    what = self._counted_after(folded, word_end, value) or self._counted_further(
                        folded, word_end, value
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

    def _vague_amounts(self, folded: str, occupied: bytearray, out: Mentions) -> None:
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
            unit = _unit_after(self.res, folded, end)
            unit_key: str | None = None
            if unit is not None:
                end, unit_text = unit
                unit_key = unit_text
            else:
                counted = _COUNTED.match(folded, end - 1)
                if counted is None or not self._counted_noun(counted.group(1), 2.0):
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


def _is_hour(number: str) -> bool:
    """Whether a number can be a time of day before "am"/"pm": 1-12, with minutes ("7.30"):
    "1600 AM" is a radio frequency."""
    hours, _, minutes = number.partition(".")
    return (
        hours.isdigit()
        and 1 <= int(hours) <= 12
        and (not minutes or (len(minutes) == 2 and int(minutes) < 60))
    )


def _lost_exponent_of_size(times_ten: re.Match[str], value: float) -> bool:
    """Whether "x10NN" after ``value`` is a size's other side, not a power of ten whose
    superscript was lost: scientific notation writes a mantissa below ten ("3.7 × 106"),
    so "1920x1080" and "24x100" are sizes; a caret or superscript digits keep the power."""
    written = times_ten.group(0)
    plain = "^" not in written and "**" not in written and times_ten.group(2).isascii()
    return plain and abs(value) >= 10


def _is_counted_unit(surface: str) -> bool:
    """Whether a lexicon unit is a counted noun ("users", "staff"): a word whose dimension
    is what it counts, not a measure ("km", "GB", "percent" have other canonical units or
    symbols)."""
    entry = lookup(surface)
    return (
        entry is not None
        and surface[:1].islower()
        and surface.isalpha()
        and entry.dimension == entry.canonical_unit
        and entry.dimension not in ("percent", "dosage")
    )


def _is_count(dimension: str) -> bool:
    return "/" not in dimension and not dimension.isupper()


def _is_ratio(surface: str) -> bool:
    entry = lookup(surface)
    return entry is not None and entry.dimension in ("percent", "dosage")


def _is_time(surface: str) -> bool:
    entry = lookup(surface)
    return entry is not None and entry.dimension == "time"
