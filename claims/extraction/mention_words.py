"""The word lists and patterns the mention scanner reads numbers, ranks, chart positions,
times, counted words and vague amounts with (data/numbers.yaml, data/time.yaml), compiled
once per process."""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.extraction.resources import read_yaml

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
# "7\." too: a converter's escaped number (a paragraph of HTML or Word opening "7. ")
_LIST_MARK = re.compile(r"[0-9]{1,3}\\?(?:\.|\))(?=[ \t]+\S)")
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
