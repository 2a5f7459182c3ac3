"""Figures written in words, and amounts stated without a figure, in one revised sentence.

``claims check`` on two versions of one sentence (``alignment``) sees each replaced span as
words. A figure is not always digits: "the seventeenth most visited city" revised to "the
24th", "five stations" to "four stations", "a touchdown" to "2 touchdowns" change a figure
as surely as "17" -> "24", and "thirteen" / "13" is no change at all. Number words are
read by value here (the extractor's own number vocabulary, ``numbers.yaml``), so the
revision rules compare them like digits.

A revision can also drop the figure for a vague amount ("About 600,000 people" -> "Many
people", "10 stations" -> "multiple stations"): no value is left to compare, but the
sentence no longer states the figure, and a reviewer must see that. The vague amounts are
a lexicon (``figure_words.yaml``, with its source).

Only whole changed spans are read: a figure, with the words before it that say how exact
it is ("about", "more than") and one counted noun after it ("people", "%"). Anything
longer is words, not a figure, and stays for the other rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

_DIGITS = re.compile(r"^\d+(?:\.\d+)?$")
_GROUPED = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")  # "600,000", "21,495.5"
_ORDINAL_DIGITS = re.compile(r"^(\d+)(?:st|nd|rd|th)$")
_NOUN = re.compile(r"^[^\W\d_]+$")
_ARTICLES = ("a", "an")
_HYPHENS = ("-", "\u2013")


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure read from a changed span: its value, whether it is an ordinal, whether it
    was written (partly) in words, and the noun it counts ("" when none follows)."""

    value: float
    ordinal: bool
    worded: bool
    noun: str

    def shown(self) -> str:
        number = f"{self.value:g}"
        return f"{number}th" if self.ordinal else number


@dataclass(frozen=True, slots=True)
class NumberWords:
    cardinals: dict[str, int]  # "five" -> 5, "twenty" -> 20
    scales: dict[str, int]  # "hundred", "thousand", "million"
    ordinals: dict[str, int]  # "fifth" -> 5
    phrases: dict[tuple[str, ...], int]  # "a dozen" -> 12
    qualifiers: tuple[tuple[str, ...], ...]  # "more than", longest first
    vague: tuple[tuple[str, ...], ...]  # "a number of", longest first
    vague_times: frozenset[tuple[str, ...]]  # "the following day"
    time_prepositions: frozenset[str]  # "on", "by"


@lru_cache(maxsize=1)
def number_words() -> NumberWords:
    """The extractor's number vocabulary and this module's lexicon of vague amounts."""
    from claims.extraction.resources import read_yaml  # the extractor's own word lists

    numbers = read_yaml("numbers.yaml")
    cardinals = {str(w): int(v) for w, v in (numbers.get("units_words") or {}).items()}
    cardinals.update({str(w): int(v) for w, v in (numbers.get("tens_words") or {}).items()})
    ordinals = {str(w): int(v) for w, v in (numbers.get("ordinal_words") or {}).items()}
    for word, value in list(cardinals.items()):  # "thirtieth", "twenty-first" built below
        if value >= 20 and word.endswith("y"):
            ordinals.setdefault(word[:-1] + "ieth", value)
    text = resources.files("claims.edges").joinpath("figure_words.yaml").read_text("utf-8")
    data = yaml.safe_load(text)

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        listed = {tuple(str(p).lower().split()) for p in data.get(key) or ()}
        return tuple(sorted(listed, key=len, reverse=True))

    return NumberWords(
        cardinals=cardinals,
        scales={str(w): int(v) for w, v in (numbers.get("scale_words") or {}).items()},
        ordinals=ordinals,
        phrases={
            tuple(str(p).lower().split()): int(v)
            for p, v in (numbers.get("dozen_words") or {}).items()
        },
        qualifiers=phrases("figure_qualifiers"),
        vague=phrases("vague_quantities"),
        vague_times=frozenset(phrases("vague_times")),
        time_prepositions=frozenset(str(w).lower() for w in data.get("time_prepositions") or ()),
    )


def _after_prefix(words: list[str], prefixes: Sequence[tuple[str, ...]]) -> tuple[int, int]:
    """(length of the longest listed phrase ``words`` start with, its index) or (0, -1)."""
    for index, phrase in enumerate(prefixes):
        if tuple(words[: len(phrase)]) == phrase:
            return len(phrase), index
    return 0, -1


def _noun(word: str) -> str:
    from claims.extraction.identity import lemma

    return "%" if word == "%" else lemma(word)


def _split_noun(words: list[str]) -> tuple[list[str], str]:
    """The words before a trailing counted noun, and the noun's lemma ("" when none)."""
    vocab = number_words()
    last = words[-1] if words else ""
    if last == "%" or (
        _NOUN.match(last)
        and last not in vocab.cardinals
        and last not in vocab.ordinals
        and last not in vocab.scales
    ):
        return words[:-1], _noun(last)
    return words, ""


def _digits_value(word: str) -> float | None:
    if _DIGITS.match(word):
        return float(word)
    if _GROUPED.match(word):
        return float(word.replace(",", ""))
    return None


def read_figure(words: Sequence[str]) -> Figure | None:
    """The figure a whole changed span states, or ``None`` when it is not one figure.

    ``words`` are the span's tokens, casefolded (``alignment.tokens``)."""
    vocab = number_words()
    kept = [w for w in words if w not in _HYPHENS]
    skip, _ = _after_prefix(kept, vocab.qualifiers)
    whole = vocab.phrases.get(tuple(kept[skip:]))
    if whole is not None:  # "a dozen": its last word is no counted noun
        return Figure(float(whole), False, True, "")
    core, noun = _split_noun(kept[skip:])
    if not core:
        return None
    if len(core) == 1 and core[0] in _ARTICLES:
        # "a touchdown" counts one; a bare article counts nothing
        return Figure(1.0, False, True, noun) if noun else None
    phrase = vocab.phrases.get(tuple(core))
    if phrase is not None:
        return Figure(float(phrase), False, True, noun)
    if len(core) == 1:
        ordinal = _ORDINAL_DIGITS.match(core[0])
        if ordinal:
            return Figure(float(ordinal.group(1)), True, False, noun)
        value = _digits_value(core[0])
        if value is not None:
            return Figure(value, False, False, noun)
    if len(core) == 2 and core[1] in vocab.scales:
        value = _digits_value(core[0])
        if value is not None:  # "2.5 million"
            return Figure(value * vocab.scales[core[1]], False, False, noun)
    return _worded(core, noun)


def _worded(core: list[str], noun: str) -> Figure | None:
    """A number spelled out: "five", "twenty three", "three hundred", "twenty-first"."""
    vocab = number_words()
    total = current = 0
    ordinal = False
    for position, word in enumerate(core):
        if ordinal:
            return None  # nothing follows an ordinal word inside one figure
        if word in vocab.cardinals:
            current += vocab.cardinals[word]
        elif word in vocab.ordinals:
            current += vocab.ordinals[word]
            ordinal = True
        elif word in vocab.scales and position > 0:
            scale = vocab.scales[word]
            if scale < 1000:
                current *= scale
            else:
                total += current * scale
                current = 0
        elif word == "and" and 0 < position < len(core) - 1:
            continue  # "three hundred and twelve"
        else:
            return None
    return Figure(float(total + current), ordinal, True, noun)


def read_vague(words: Sequence[str]) -> tuple[str, str] | None:
    """(the vague amount, its counted noun) when a whole changed span is a vague amount
    ("many", "a number of people", "multiple"), else ``None``."""
    kept = list(words)
    size, index = _after_prefix(kept, number_words().vague)
    if not size:
        return None
    rest = kept[size:]
    if len(rest) > 1:
        return None
    noun = ""
    if rest:
        if not _NOUN.match(rest[0]) and rest[0] != "%":
            return None
        noun = _noun(rest[0])
    return " ".join(number_words().vague[index]), noun


def _nouns_agree(a: str, b: str) -> bool:
    return not a or not b or a == b


def worded_change(left: Sequence[str], right: Sequence[str]) -> tuple[Figure, Figure] | None:
    """Both sides of a change as figures of one kind, at least one written in words, with
    different values ("fifth" / "6th", "five" / "four", "a touchdown" / "2 touchdowns");
    ``None`` otherwise, and for one value written two ways ("thirteen" / "13")."""
    a, b = read_figure(left), read_figure(right)
    if a is None or b is None or not (a.worded or b.worded):
        return None
    if a.ordinal != b.ordinal or not _nouns_agree(a.noun, b.noun) or a.value == b.value:
        return None
    return a, b


def vague_change(left: Sequence[str], right: Sequence[str]) -> tuple[str, Figure, bool] | None:
    """A figure replaced by a vague amount, or the reverse: (the vague amount, the figure,
    whether the figure is on the left), with the counted nouns agreeing when both name
    one ("About 600,000" / "Many", "10" / "multiple", "several stations" / "5 stations")."""
    for figure_words, vague_words, figure_left in ((left, right, True), (right, left, False)):
        vague = read_vague(vague_words)
        figure = read_figure(figure_words)
        if vague is None or figure is None or figure.ordinal:
            continue
        if _nouns_agree(vague[1], figure.noun):
            return vague[0], figure, figure_left
    return None


_MONTHS = frozenset(
    {
        *("january", "february", "march", "april", "may", "june", "july", "august"),
        *("september", "october", "november", "december", "jan", "feb", "mar", "apr"),
        *("jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"),
    }
)
_DAY = re.compile(r"^(?:[12]?\d|3[01])(?:st|nd|rd|th)?$")
_YEAR_OR_DECADE = re.compile(r"^(?:1[0-9]|20)\d\d(?:s)?$")


def _date_words(words: Sequence[str]) -> bool:
    """Whether a whole changed span is a date or a year, with the words that place it
    ("On March 8", "in 2017", "by 13 March", "1980s")."""
    prepositions = number_words().time_prepositions
    kept = [w for w in words if w not in prepositions and w != ","]
    if not kept or not any(_YEAR_OR_DECADE.match(w) or w in _MONTHS for w in kept):
        return False
    return all(w in _MONTHS or _DAY.match(w) or _YEAR_OR_DECADE.match(w) for w in kept)


def _vague_time(words: Sequence[str]) -> str | None:
    """The vague time a whole changed span states ("The following day", "in the near
    future"), or ``None``."""
    vocab = number_words()
    kept = list(words)
    while kept and kept[0] in vocab.time_prepositions:
        kept = kept[1:]
    return " ".join(kept) if tuple(kept) in vocab.vague_times else None


def vague_time_change(left: Sequence[str], right: Sequence[str]) -> tuple[str, bool] | None:
    """A date replaced by a time without one, or the reverse: (the vague time, whether the
    date is on the left) ("On March 8" / "The following day", "the near future" / "2058")."""
    for dated, vague_words, date_left in ((left, right, True), (right, left, False)):
        vague = _vague_time(vague_words)
        if vague is not None and _date_words(dated):
            return vague, date_left
    return None
