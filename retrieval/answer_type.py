"""What kind of value a question asks for, and whether a claim's value is of that kind.

"How many ..." asks for a count, "how much does ... cost" for money, "when" for a date,
"how long" for a duration, "what percentage" for a percent, "is / does ..." for a stance
(yes or no), "who" for a label, "what" for whatever the attribute holds. A "what" or
generic question whose attribute names what is measured takes the attribute's type ("what
is the battery life" asks for a duration).
The words live in ``data/answer_types.yaml``.

A retrieval service keeps only the claims whose value fits the question, so a reference
count, a list number or a road's number never answers "how many people live in X".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources

import yaml

_CURRENCY = re.compile(r"^[A-Z]{3}$")
_WORD = re.compile(r"[\w'-]+")
_TIME_DIMENSIONS = frozenset({"time"})
_PREPOSITIONS = frozenset({"per", "of", "for", "in", "on", "at", "by", "from", "to", "with"})
_PERCENT_DIMENSIONS = frozenset({"percent", "percentage_point"})
# measured (not counted) dimensions of claims/units/data/lexicon.yaml; every other
# dimension is a countable thing (token, request, seat, employee, ...)
_MEASURED_DIMENSIONS = frozenset(
    {
        "time", "data", "percent", "mass", "length", "volume", "area", "temperature",
        "frequency", "power", "dosage", "angle", "pressure", "voltage", "current", "energy",
        "substance", "concentration", "magnetic_field", "speed", "bitrate",
        "percentage_point", "index_point", "fold",
    }
)  # fmt: skip


class AnswerType(StrEnum):
    COUNT = "count"
    MONEY = "money"
    DATE = "date"
    DURATION = "duration"
    PERCENT = "percent"
    QUANTITY = "quantity"  # some measured amount, of no particular dimension
    STANCE = "stance"  # yes or no: a polarity claim
    LABEL = "label"  # a name or category
    ANY = "any"  # "what is ...": whatever the attribute holds


@dataclass(frozen=True)
class _Lexicon:
    rules: tuple[tuple[AnswerType, tuple[tuple[str, ...], ...]], ...]
    lead_ins: tuple[tuple[str, ...], ...]
    attribute_types: dict[str, AnswerType]
    money_words: frozenset[str]


@lru_cache(maxsize=1)
def _lexicon() -> _Lexicon:
    raw = yaml.safe_load(
        resources.files("retrieval").joinpath("data/answer_types.yaml").read_text("utf-8")
    )
    rules = tuple(
        (
            AnswerType(rule["type"]),
            tuple(sorted((tuple(s.split()) for s in rule["starts"]), key=len, reverse=True)),
        )
        for rule in raw["question_words"]
    )
    lead_ins = tuple(sorted((tuple(s.split()) for s in raw["lead_ins"]), key=len, reverse=True))
    attribute_types = {
        word: AnswerType(kind) for kind, words in raw["attribute_types"].items() for word in words
    }
    return _Lexicon(rules, lead_ins, attribute_types, frozenset(raw["money_words"]))


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")
    return _WORD.findall(text)


def expected_answer_type(question: str, attribute: str | None = None) -> AnswerType:
    """The kind of value ``question`` asks for (``attribute`` refines label questions)."""
    lexicon = _lexicon()
    words = _words(question)
    for lead in lexicon.lead_ins:
        if tuple(words[: len(lead)]) == lead:
            words = words[len(lead) :]
            break
    asked = AnswerType.ANY
    for kind, starts in lexicon.rules:
        if any(tuple(words[: len(start)]) == start for start in starts):
            asked = kind
            break
    if asked is AnswerType.QUANTITY and lexicon.money_words.intersection(words):
        return AnswerType.MONEY
    if asked is AnswerType.ANY and _asks_for_a_named_thing(words, lexicon):
        return AnswerType.LABEL
    if asked in (AnswerType.ANY, AnswerType.QUANTITY) and attribute:
        attribute_words = _words(attribute)
        cut = next((i for i, w in enumerate(attribute_words) if w in _PREPOSITIONS), None)
        head_phrase = attribute_words[:cut] if cut else attribute_words
        # the head noun speaks first: "dividend per share" is money, not a share
        for word in [*reversed(head_phrase), *attribute_words]:
            refined = lexicon.attribute_types.get(word)
            if refined is not None:
                return refined
    return asked


_AUXILIARIES = frozenset(
    {"is", "was", "are", "were", "did", "does", "do", "has", "have", "had", "will", "can"}
)


def _asks_for_a_named_thing(words: list[str], lexicon: _Lexicon) -> bool:
    """ "What war did the agreement end?", "Which city is the station in?": a question word,
    one noun and a verb ask for a named thing of that kind, unless the noun names a
    measure ("what price", "which year" are read by their own rules)."""
    if len(words) < 3 or words[0] not in ("what", "which"):
        return False
    noun = words[1]
    return (
        noun not in _AUXILIARIES
        and words[2] in _AUXILIARIES
        and noun not in lexicon.attribute_types
        and noun not in _NOT_A_KIND
    )


# words after "what" that do not name a kind of thing ("what else is", "what kind of")
_NOT_A_KIND = frozenset({"else", "kind", "sort", "type", "time", "amount", "number", "size"})


def dimension_of_unit(canonical_unit: str | None) -> str | None:
    """The dimension of a canonical unit as claims show it ("s" -> time, "USD/share" ->
    USD/share); None for a unit as written ("residents") or no unit."""
    if not canonical_unit:
        return None
    from claims.units.lexicon import lexicon

    by_display = _dimension_by_display(id(lexicon()))
    parts = [by_display.get(part, part) for part in canonical_unit.split("/")]
    return "/".join(parts)


@lru_cache(maxsize=1)
def _dimension_by_display(_lexicon_id: int) -> dict[str, str]:
    from claims.units.lexicon import lexicon

    return {display: name for name, (_pint, display) in lexicon().dimensions.items()}


def value_fits(
    asked: AnswerType, *, kind: str, dimension: str | None, unit: str | None = None
) -> bool:
    """Whether a claim with this value kind, dimension and unit can answer ``asked``."""
    if asked is AnswerType.ANY:
        return True
    if asked is AnswerType.STANCE:
        return kind == "polarity"
    if asked is AnswerType.LABEL:
        # a name or category: a yes/no stance ("agreed") or a date names nothing
        return kind == "categorical"
    if asked is AnswerType.DATE:
        return kind == "date"
    if kind != "quantity":
        return False
    # "USD/share" is money, "s" per request a duration: the numerator decides
    dimension = dimension.split("/")[0] if dimension else dimension
    currency = bool(dimension and _CURRENCY.match(dimension))
    if asked is AnswerType.MONEY:
        return currency
    if asked is AnswerType.DURATION:
        return dimension in _TIME_DIMENSIONS
    if asked is AnswerType.PERCENT:
        return dimension in _PERCENT_DIMENSIONS
    if asked is AnswerType.COUNT:
        # a count is a bare number, a counted noun ("4,210 residents") or a countable unit
        return not currency and dimension not in _MEASURED_DIMENSIONS
    return True
