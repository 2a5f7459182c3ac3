"""The extraction data files, loaded once per process and compiled into matchers."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from claims.units.lexicon import is_non_latin, lexicon, surfaces

DATA_DIR = Path(__file__).parent / "data"
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(name: str, directory: Path | None = None) -> dict[str, Any]:
    """A data file (of ``directory``, the extractor's by default), refusing YAML 1.1
    booleans: an unquoted ``on`` or ``no`` in a word list would silently become True/False
    and drop out of the vocabulary."""
    path = (directory or DATA_DIR) / name
    # the C loader when PyYAML has it: these files are read at every start, and the pure
    # Python loader cost more than a second of each `claims run` (profiled)
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping at the top level")
    _refuse_booleans(data, str(path), [])
    return data


def _refuse_booleans(node: object, where: str, trail: list[str]) -> None:
    if isinstance(node, bool):
        raise ValueError(
            f"{where}: {'.'.join(trail)} is the boolean {node}; quote words such as "
            '"on", "no", "yes" and "off"'
        )
    if isinstance(node, dict):
        for key, value in node.items():
            _refuse_booleans(key, where, trail)
            _refuse_booleans(value, where, [*trail, str(key)])
    elif isinstance(node, list):
        for number, value in enumerate(node):
            _refuse_booleans(value, where, [*trail, str(number)])


def _alternation(phrases: list[str]) -> str:
    """A regex alternation of literal phrases, longest first, spaces matching any whitespace."""
    ordered = sorted({p for p in phrases if p}, key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in ordered)


def _fold_table() -> dict[int, int]:
    """Same-length folding: every decimal digit to ASCII, full-width ASCII to ASCII, odd spaces.

    One code point always maps to one code point, so offsets in the folded text are offsets
    in the original text.
    """
    table: dict[int, int] = {}
    # ``\d`` matches exactly the characters with a decimal value; the regex engine finds
    # the few hundred among 200k code points in C (a Python loop over them cost 0.1 s/start)
    for match in re.finditer(r"\d", "".join(map(chr, range(0x80, 0x30000)))):
        digit = unicodedata.decimal(match.group(), None)
        if digit is not None:
            table[ord(match.group())] = ord("0") + digit
    for code in range(0xFF01, 0xFF5F):  # full-width ASCII block
        table[code] = code - 0xFF01 + 0x21
    for code in (0x00A0, 0x2007, 0x202F, 0x2009, 0x200A, 0x3000, 0x2002, 0x2003):
        table[code] = 0x20
    table[0x2212] = ord("-")  # minus sign
    table[0x066B] = ord(".")  # Arabic decimal separator
    table[0x066C] = ord(",")  # Arabic thousands separator
    table[0x3002] = 0x3002  # ideographic full stop stays itself
    return table


@dataclass(frozen=True)
class NumberVocabulary:
    units_words: dict[str, int]
    tens_words: dict[str, int]
    scale_words: dict[str, int]
    dozen_words: dict[str, int]
    magnitude_words: dict[str, float]
    magnitude_suffixes: dict[str, float]
    currency_only_suffixes: dict[str, float]
    cjk_magnitudes: dict[str, float]
    bounds_before: dict[str, str]  # phrase -> bound
    bounds_after: dict[str, str]
    approximations: frozenset[str]
    label_words: frozenset[str]
    bound_cues: frozenset[str]  # bounds_before + approximations


@dataclass(frozen=True)
class Resources:
    """Everything compiled from the data files."""

    fold: dict[int, int]
    numbers: NumberVocabulary
    months: dict[str, int]
    quarter_words: dict[str, int]
    connectives: dict[str, str]  # phrase -> role
    deictic: tuple[str, ...]
    unit_insensitive: UnitMatcher
    unit_sensitive: UnitMatcher
    currency_prefix: re.Pattern[str]
    bound_after: re.Pattern[str]
    magnitude_word: re.Pattern[str]
    number_words: re.Pattern[str]
    connective_before: re.Pattern[str]
    deictic_ending: re.Pattern[str]  # same phrases, ending at the end of the searched window
    number_first_words: frozenset[str]
    stopwords: frozenset[str]
    prepositions: frozenset[str]
    separators: frozenset[str]
    generic_heads: frozenset[str]
    question_words: frozenset[str]
    subordinators: frozenset[str]
    non_latin_trim: tuple[str, ...]
    non_latin_scope: tuple[tuple[str, str, str], ...]  # (phrase, dim, value)
    unit_words: frozenset[str]  # single-word unit surfaces, lowercased
    non_latin_modal: tuple[tuple[str, str], ...]  # (marker, modality id), longest first
    non_latin_trailing: tuple[str, ...]
    label_scope: dict[str, tuple[str, str]]  # one-word scope label ("p99", "q1") -> (dim, value)
    label_scope_patterns: tuple[tuple[re.Pattern[str], str], ...]  # regex -> dim
    ranked_levels: frozenset[str]  # "priority", "tier": "Priority 1" scopes {priority: 1}


class UnitMatcher:
    """``match(text, pos)``: the first lexicon unit surface (longest first) at ``pos``, as
    one regex alternation of every surface would find it.

    That alternation tries its thousand-odd surfaces one by one at every position it is
    asked about (a few percent of the whole extraction, profiled in session 7), so each
    character gets its own alternation of only the surfaces whose first character can
    match it, in the same order and with the same word-boundary rule: the same surface
    wins, since a surface whose first character fails could never have matched.
    """

    def __init__(self, surfaces: list[str], flags: int = 0) -> None:
        self.surfaces = surfaces
        self.flags = flags
        self._by_char: dict[str, re.Pattern[str] | None] = {}

    def match(self, text: str, pos: int) -> re.Match[str] | None:
        char = text[pos : pos + 1]
        pattern = self._by_char.get(char, _UNSET)
        if pattern is _UNSET:
            pattern = self._by_char[char] = self._pattern_for(char)
        return pattern.match(text, pos) if pattern is not None else None

    def _pattern_for(self, char: str) -> re.Pattern[str] | None:
        if not char:
            return None
        kept = [s for s in self.surfaces if s and _first_matches(s[0], char, self.flags)]
        return re.compile(_unit_alternation(kept), self.flags) if kept else None


_UNSET: Any = object()


@lru_cache(maxsize=65536)
def _first_matches(first: str, char: str, flags: int) -> bool:
    """Whether a surface starting with ``first`` can match at a ``char`` (spaces in a
    surface match any whitespace)."""
    return re.match(re.escape(first).replace(r"\ ", r"\s+"), char, flags) is not None


def _unit_alternation(items: list[str]) -> str:
    latin = [s for s in items if not is_non_latin(s)]
    other = [s for s in items if is_non_latin(s)]
    parts = []
    if latin:
        # A Latin unit ends at a word boundary: "5 mice" is not "5 m".
        parts.append(rf"(?:{_alternation(latin)})(?![A-Za-z0-9_])")
    if other:
        parts.append(f"(?:{_alternation(other)})")
    return "|".join(parts)


def _unit_patterns() -> tuple[UnitMatcher, UnitMatcher]:
    insensitive, sensitive = surfaces()
    # One- or two-letter Latin symbols ("m", "s", "L") are case-sensitive: "M" is not a metre.
    short = [s for s in insensitive if len(s) <= 1 and s.isascii() and s.isalpha()]
    insensitive = [s for s in insensitive if s not in short]
    sensitive = sorted(set(sensitive) | set(short), key=lambda s: (-len(s), s))
    return UnitMatcher(insensitive, re.IGNORECASE), UnitMatcher(sensitive)


# A number glued to a sentence's first word ("72,251The club", "ISBN 0-7627-7340-4In
# 2015", "2017On December 14"): page text that lost its full stop and space. Three
# characters of number at least, so an isotope ("3He", "10Be") or a label ("3A") stays whole.
_GLUE_NUMBER = r"(?<=[0-9,\-][0-9,\-][0-9])"


@lru_cache(maxsize=1)
def glued_opener_pattern() -> str:
    """A zero-width regex at the seam between a number and a glued sentence opener: a
    function word or time connective of two letters or more, capitalised (the tokenizer's
    infix and the sentence splitter's start)."""
    res = resources()
    # months are no opener here: "245March 2020", "5May" are dates that lost a space (a
    # typo inside the sentence) far more often than a new sentence starting with a month
    words = (res.stopwords | res.prepositions) - frozenset(res.months)
    words |= frozenset(c for c in res.connectives if c.isalpha())
    openers = [w.capitalize() for w in words if len(w) >= 2 and w.isalpha()]
    return rf"{_GLUE_NUMBER}(?=(?:{_alternation(openers)})(?![A-Za-z]))"


def _number_vocabulary(numbers: dict[str, Any]) -> NumberVocabulary:
    """Number words, magnitudes and bound phrases of data/numbers.yaml."""
    bounds_before = {
        str(p).lower(): bound for bound, ps in numbers["bounds_before"].items() for p in ps
    }
    bounds_after = {
        str(p).lower(): bound for bound, ps in numbers["bounds_after"].items() for p in ps
    }
    approximations = frozenset(str(p).lower() for p in numbers["approximations"])
    return NumberVocabulary(
        units_words=dict(numbers["units_words"]),
        tens_words=dict(numbers["tens_words"]),
        scale_words=dict(numbers["scale_words"]),
        dozen_words=dict(numbers["dozen_words"]),
        magnitude_words={k: float(v) for k, v in numbers["magnitude_words"].items()},
        magnitude_suffixes={str(k): float(v) for k, v in numbers["magnitude_suffixes"].items()},
        currency_only_suffixes={
            str(k): float(v) for k, v in numbers["currency_only_suffixes"].items()
        },
        cjk_magnitudes={str(k): float(v) for k, v in numbers["cjk_magnitudes"].items()},
        bounds_before=bounds_before,
        bounds_after=bounds_after,
        approximations=approximations,
        label_words=frozenset(str(w).lower() for w in numbers["label_words"]),
        bound_cues=frozenset(bounds_before) | approximations,
    )


@lru_cache(maxsize=1)
def resources() -> Resources:
    """The compiled data files (cached per process)."""
    numbers = read_yaml("numbers.yaml")
    time = read_yaml("time.yaml")
    words = read_yaml("words.yaml")
    scope = read_yaml("scope.yaml")

    vocab = _number_vocabulary(numbers)
    bounds_after = vocab.bounds_after
    connectives = {str(p).lower(): role for role, ps in time["connectives"].items() for p in ps}
    unit_insensitive, unit_sensitive = _unit_patterns()
    prefixes = list(lexicon().currency_prefixes)
    word_prefixes = [p for p in prefixes if p[0].isalpha()]
    symbol_prefixes = [p for p in prefixes if not p[0].isalpha()]
    currency_prefix = re.compile(
        rf"(?:(?<![A-Za-z])(?:{_alternation(word_prefixes)})\s?|(?:{_alternation(symbol_prefixes)})\s?)$"
    )
    bound_after = re.compile(rf"\s+({_alternation(list(bounds_after))})(?![A-Za-z])", re.IGNORECASE)
    magnitude_word = re.compile(
        rf"\s+({_alternation(list(vocab.magnitude_words))})(?![A-Za-z])", re.IGNORECASE
    )
    number_word_list = list(vocab.units_words) + list(vocab.tens_words) + list(vocab.scale_words)
    nw = _alternation(number_word_list)
    number_words = re.compile(
        rf"(?<![A-Za-z])(?:{_alternation(list(vocab.dozen_words))}|(?:{nw})(?:(?:\s+and\s+|[\s-]+)(?:{nw}))*)(?![A-Za-z])",
        re.IGNORECASE,
    )
    connective_before = re.compile(
        rf"(?:^|(?<=[^A-Za-z]))({_alternation(list(connectives))})\s+(?:the\s+)?$", re.IGNORECASE
    )
    deictic = tuple(str(d).lower() for d in time["deictic"])
    non_latin_scope = tuple(
        (str(phrase), str(dim), str(value))
        for dim, values in (scope.get("non_latin") or {}).items()
        for value, phrases in values.items()
        for phrase in phrases
    )
    unit_words = frozenset(s for s in lexicon().folded if " " not in s and s.isalpha())
    cues = read_yaml("cues.yaml")
    non_latin_modal = tuple(
        sorted(
            ((str(m), str(kind)) for kind, ms in cues["NON_LATIN_MODAL"].items() for m in ms),
            key=lambda pair: -len(pair[0]),
        )
    )
    label_scope = {
        str(phrase).lower(): (str(dim), str(value))
        for dim, values in scope["dimensions"].items()
        for value, phrases in values.items()
        for phrase in phrases
        if " " not in str(phrase) and any(ch.isdigit() for ch in str(phrase))
    }
    label_scope_patterns = tuple(
        (re.compile(str(pattern[0]["LOWER"]["REGEX"])), str(dim))
        for dim, patterns in (scope.get("token_patterns") or {}).items()
        for pattern in patterns
    )
    return Resources(
        fold=_fold_table(),
        numbers=vocab,
        months={str(k): int(v) for k, v in time["months"].items()},
        quarter_words={str(k): int(v) for k, v in time["quarter_words"].items()},
        connectives=connectives,
        deictic=deictic,
        unit_insensitive=unit_insensitive,
        unit_sensitive=unit_sensitive,
        currency_prefix=currency_prefix,
        bound_after=bound_after,
        magnitude_word=magnitude_word,
        number_words=number_words,
        connective_before=connective_before,
        deictic_ending=re.compile(
            rf"(?<![A-Za-z])(?:{_alternation(list(deictic))})$", re.IGNORECASE
        ),
        number_first_words=frozenset(
            w.split()[0] for w in number_word_list + list(vocab.dozen_words)
        ),
        stopwords=frozenset(str(w) for w in words["stopwords"]),
        prepositions=frozenset(str(w) for w in words["prepositions"]),
        separators=frozenset(str(w) for w in words["separators"]),
        generic_heads=frozenset(str(w) for w in words["generic_heads"]),
        question_words=frozenset(str(w) for w in words["question_words"]),
        subordinators=frozenset(str(w) for w in words["subordinators"]),
        non_latin_trim=tuple(
            sorted((str(w) for w in words["non_latin_trim"]), key=len, reverse=True)
        ),
        non_latin_scope=tuple(sorted(non_latin_scope, key=lambda t: -len(t[0]))),
        unit_words=unit_words,
        non_latin_modal=non_latin_modal,
        non_latin_trailing=tuple(str(t) for t in cues["NON_LATIN_TRAILING"]),
        label_scope=label_scope,
        label_scope_patterns=label_scope_patterns,
        ranked_levels=frozenset(str(w).lower() for w in scope.get("ranked_levels") or ()),
    )
