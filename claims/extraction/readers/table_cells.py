"""What a table cell states: a number with its sign, unit and currency, or no value.

Cells are written the way reports write them: ``$  1,452.4``, ``(3.1)`` for -3.1 in a
financial table, ``12%``, ``1.2 kg``, ``—`` or ``n/a`` for nothing. Scale ("in millions",
``$'000``, ``€m``) and currency stated for a whole table or one header are read here too,
from header, caption and surrounding text; ``claims.extraction.readers.tables`` decides
which of them applies to which cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.mentions import MentionScanner, QuantityMention
from claims.extraction.resources import read_yaml, resources
from claims.models import Bound


@dataclass(frozen=True)
class TableWords:
    value_headers: frozenset[str]
    entity_kinds: frozenset[str]
    total_words: frozenset[str]
    not_money: frozenset[str]
    money: frozenset[str]
    time_words: frozenset[str]
    no_value: frozenset[str]
    scales: dict[str, float]
    currencies: dict[str, str]


@lru_cache(maxsize=1)
def table_words() -> TableWords:
    data = read_yaml("tables.yaml")

    def words(name: str) -> frozenset[str]:
        return frozenset(str(w).lower() for w in data[name])

    return TableWords(
        value_headers=words("value_headers"),
        entity_kinds=words("entity_kinds"),
        total_words=words("total_words"),
        not_money=words("not_money_words"),
        money=words("money_words"),
        time_words=words("time_header_words"),
        no_value=words("no_value"),
        scales={str(k).lower(): float(v) for k, v in data["scales"].items()},
        currencies={str(k).lower(): str(v) for k, v in data["currencies"].items()},
    )


@dataclass(frozen=True)
class CellValue:
    """A number read from a cell; offsets are into the cell's own text."""

    value: float
    low: float | None
    high: float | None
    bound: Bound
    unit: str | None  # as written in the cell ("$", "%", "kg"), None for a plain number
    unit_key: str | None  # the lexicon surface to normalise with
    start: int
    end: int
    negative_brackets: bool  # "(3.1)": negative in a financial table


_BRACKETED = re.compile(r"^\(\s*([^()]*\d[^()]*)\s*\)$")
# a currency symbol parted from its number by spaces ("$  1,452.4"), or before a bracket
_BRACKETED_PERCENT = re.compile(r"^\(\s*[\d.,]+\s*\)\s*%$")
_SPACED_SYMBOL = re.compile(r"([$€£¥])\s+(?=[\d(])")
# a footnote mark after a figure ("1,200 (1)", "35[2]", "12*"), never the figure itself ("(7)")
_FOOTNOTE = re.compile(r"(?<=[\d%)])\s*(?:\(\d\)|\[\d+\]|\*+)$")
_LETTER_SPACED = re.compile(r"^\d(?: \d){2,}$")  # "2 0 1 8": a PDF's letter-spaced year
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_WORDY = re.compile(r"[^\W\d_]{2,}")  # a word of two letters or more


@lru_cache(maxsize=1)
def _scanner() -> MentionScanner:
    return MentionScanner(resources())


def no_value(text: str) -> bool:
    """The cell states nothing: empty, a dash, ``n/a``."""
    return text.strip().lower() in table_words().no_value


@lru_cache(maxsize=65536)
def read_cell(text: str) -> CellValue | None:
    """The number a cell states, or None (no value, words, a bare year)."""
    raw = text.strip()
    if no_value(raw) or not any(c.isdigit() for c in raw):
        return None
    lead = text.index(raw[0])
    if _LETTER_SPACED.match(raw):
        raw_digits = raw.replace(" ", "")
        return None if _YEAR.match(raw_digits) else read_cell(raw_digits)
    body = _FOOTNOTE.sub("", raw)
    bracketed = False
    symbol = ""
    if body[:1] in "$€£¥" and body[1:].lstrip().startswith("("):
        symbol, body = body[0], body[1:].lstrip()  # "$(1,200)"
    match = _BRACKETED.match(body)
    if match:
        body, bracketed = match.group(1), True
    elif _BRACKETED_PERCENT.match(body):
        body, bracketed = body[1:].replace(")", "", 1), True  # "(38)%"
    body = symbol + body
    cleaned = _SPACED_SYMBOL.sub(r"\1", body)
    if _YEAR.match(cleaned):
        return None  # a year in a cell is a time, not a figure
    quantities = _scanner().scan(cleaned).quantities
    if not quantities:
        return None
    q: QuantityMention = quantities[0]
    rest = cleaned[: q.cue_start] + " " + cleaned[q.end :]
    if _WORDY.search(rest) or any(c.isdigit() for c in rest):
        return None  # words or numbers beside it: a label ("Member aged 65", "2019 over 2018")
    sign = -1.0 if bracketed and q.value > 0 else 1.0
    low = q.low * sign if q.low is not None else None
    high = q.high * sign if q.high is not None else None
    if sign < 0 and low is not None and high is not None:
        low, high = high, low
    return CellValue(
        value=q.value * sign,
        low=low,
        high=high,
        bound=q.bound,
        unit=q.unit,
        unit_key=q.unit_key,
        start=lead,
        end=lead + len(raw),
        negative_brackets=bracketed,
    )


# ----------------------------------------------------------------------- scale, currency

_SCALE_WORD = r"(thousands?|millions?|billions?|trillions?)"
_CURRENCY_MARK = r"(?:us\$|[$€£¥]|usd|eur|gbp|rmb|cny|chf|jpy|cad|aud|inr)"
# stated for a table in its text: "(in millions)", "in thousands of dollars", "$ in millions",
# "amounts in millions", "(euros in millions)", "($ millions)"
_TEXT_SCALE = re.compile(
    rf"\bin\s+(?:{_CURRENCY_MARK}\s*|(?:us\s+)?\w+\s+of\s+)?{_SCALE_WORD}\b"
    rf"|\(\s*{_CURRENCY_MARK}\s*'?\s*{_SCALE_WORD}\s*\)"
    rf"|\({_SCALE_WORD}(?:\s+of\s+[\w. ]+)?\)",
    re.IGNORECASE,
)
# in a header or caption any scale word counts ("US$ million", "Number of shares (thousands)")
_HEADER_SCALE = re.compile(rf"\b{_SCALE_WORD}\b", re.IGNORECASE)
_ABBREVIATED_SCALE = re.compile(
    rf"(?:{_CURRENCY_MARK})\s?['‘’]?\s?(000s?|m|mn|mio|bn|k)(?![\w])|['‘’]000s?\b|\(000s?\)|\b000s\b",
    re.IGNORECASE,
)
_ABBREVIATIONS = {"000": 1e3, "000s": 1e3, "k": 1e3, "m": 1e6, "mn": 1e6, "mio": 1e6, "bn": 1e9}


def scale_in(text: str, *, header: bool) -> float | None:
    """The factor a scale statement in ``text`` sets ("in millions" -> 1e6), or None.

    ``header``: the text is a header or caption, where a bare "millions" or "€m" counts;
    in running text only an "in millions" phrase or a bracketed "(in thousands)" does.
    """
    scales = table_words().scales
    match = (_HEADER_SCALE if header else _TEXT_SCALE).search(text)
    if match:
        word = next(g for g in match.groups() if g)
        return scales.get(word.lower())
    abbreviated = _ABBREVIATED_SCALE.search(text)
    if abbreviated and (header or any(mark in text for mark in "('‘’")):
        unit = (abbreviated.group(1) or "000").lower()
        return _ABBREVIATIONS.get(unit, 1e3)
    return None


_CURRENCY_SYMBOL = re.compile(r"(?:US\$|[$€£¥])")


def currency_in(text: str) -> str | None:
    """The currency a header, caption or sentence names for a table ("All prices in US
    dollars", "€m", "($ in thousands)"), as a unit surface, or None."""
    lowered = text.lower()
    symbol = _CURRENCY_SYMBOL.search(text)
    if symbol:
        return table_words().currencies.get(symbol.group().lower())
    words = re.findall(r"[a-z.]+", lowered)
    joined = " " + " ".join(words) + " "
    for name, code in sorted(table_words().currencies.items(), key=lambda kv: -len(kv[0])):
        if name[:1].isalpha() and f" {name} " in joined:
            return code
    return None


def percent_in(text: str) -> bool:
    """A header stating that its numbers are percentages ("%", "(%)", "in percent")."""
    lowered = text.lower()
    return "%" in lowered or bool(re.search(r"\b(?:percent|per cent|percentage)\b", lowered))


def not_money(text: str) -> bool:
    """A header whose numbers count or compare rather than price (see tables.yaml)."""
    lowered = text.lower()
    words = set(re.findall(r"[a-z%]+", lowered))
    return any((w in words) if " " not in w else (w in lowered) for w in table_words().not_money)


def per_item(text: str) -> bool:
    """A header of figures per share or per unit: money, but never scaled ("in millions,
    except per share data")."""
    return bool(re.search(r"\bper\s+(?:share|unit|employee|person|member|user|seat)\b", text, re.I))


def names_money(text: str) -> bool:
    """A header naming money ("Monthly price", "Revenue", "Fees")."""
    return bool(set(re.findall(r"[a-z]+", text.lower())) & table_words().money)
