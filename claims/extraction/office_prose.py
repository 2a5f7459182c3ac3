"""Office prose: wording of sales copy, deadlines and generic verbs (data/office_prose.yaml).

- A currency value after a sales phrase is a price: "will retail for $1,299", "is priced at",
  "starts at $9 per month" key ``price`` (with the entity the sentence names), so they meet
  "costs USD 1,499.00".
- A date without a year ("by March 31", "on 4 May") takes the year of the document's own
  date (a "Date:" line, a year in its title) or, failing that, the register's effective
  date; the claim's time is then marked ``year_inferred``.
- A claim keyed by a generic verb alone ("change") takes the noun phrase the verb begins
  ("change ticket"), and a direction of change ("revenue change") is its own attribute
  class, so "revenue grew 18%" and "a change ticket is required" are never one class.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from claims.documents.model import BlockKind, Document
from claims.extraction.keys import fold_word
from claims.extraction.resources import read_yaml
from claims.models import Claim, EffectiveTime, TimeGranularity

_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d|21\d\d)\b")
_PARTIAL_DATE = re.compile(r"^--(\d\d)-(\d\d)$")
_WORD = re.compile(r"[a-z][a-z-]*")


@dataclass(frozen=True)
class _Words:
    sales: re.Pattern[str]
    sales_words: frozenset[str]
    generic: frozenset[str]
    stops: frozenset[str]
    date_labels: frozenset[str]
    months: dict[str, int]  # the mention scanner's month names (data/time.yaml)
    month_day: re.Pattern[str]  # "31 March", "March 31st", "4th of May"


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("office_prose.yaml")
    phrases = "|".join(f"(?:{p})" for p in data["sales_phrases"])
    months = {str(name): int(number) for name, number in read_yaml("time.yaml")["months"].items()}
    month = "|".join(sorted(months, key=len, reverse=True))
    th = "(?:st|nd|rd|th)?"
    return _Words(
        months=months,
        month_day=re.compile(
            rf"\b(?:(?P<d1>\d{{1,2}}){th}\s+(?:of\s+)?(?P<m1>{month})\.?"
            rf"|(?P<m2>{month})\.?\s+(?P<d2>\d{{1,2}}){th})\b",
            re.IGNORECASE,
        ),
        sales=re.compile(rf"\b(?:{phrases})\s+(?:just\s+|only\s+|around\s+|about\s+)?$"),
        sales_words=frozenset(str(w) for w in data["sales_words"]),
        generic=frozenset(str(w) for w in data["generic_verbs"]),
        stops=frozenset(str(w) for w in data["phrase_stops"]),
        date_labels=frozenset(str(w) for w in data["date_labels"]),
    )


def document_year(document: Document) -> int | None:
    """The year the document dates itself by: a "Date:" / "Last updated:" line, else a year
    in its first heading; None when it states neither."""
    words = _words()
    text = document.text
    for block in document.blocks:
        if (
            block.kind is BlockKind.LABEL_LINE
            and block.label
            and block.label.lower() in words.date_labels
        ):
            found = _YEAR.search(text, block.start, block.end)
            if found:
                return int(found.group(1))
    for block in document.blocks:
        if block.kind is BlockKind.HEADING:
            found = _YEAR.search(text, block.start, block.end)
            return int(found.group(1)) if found else None
    return None


def office_claims(
    claims: list[Claim], document: Document, register_date: date | None = None
) -> list[Claim]:
    """``claims`` with sales prices, inferred years and generic verbs read as above."""
    year = document_year(document)
    if year is None and register_date is not None:
        year = register_date.year
    words = _words()
    out: list[Claim] = []
    for claim in claims:
        update: dict[str, object] = {}
        _sales_price(claim, document.text, words, update)
        _generic_verb(claim, words, update)
        if year is not None:
            _year_inferred(claim, year, words, update)
        if "attribute" in update or "entity" in update:
            entity = update.get("entity", claim.entity)
            attribute = str(update.get("attribute", claim.attribute))
            update["claim_key"] = f"{entity} {attribute}" if entity else attribute
        out.append(claim.model_copy(update=update) if update else claim)
    return out


def _is_currency(claim: Claim) -> bool:
    dimension = (claim.dimension or "").partition("/")[0]  # "USD", or "USD/[time]" per month
    return len(dimension) == 3 and dimension.isalpha() and dimension.isupper()


def _sales_price(claim: Claim, text: str, words: _Words, update: dict[str, object]) -> None:
    if claim.value_span is None or not _is_currency(claim):
        return
    before = text[max(claim.span.start, claim.value_span.start - 60) : claim.value_span.start]
    if not words.sales.search(before.lower()):
        return
    kept = [w for w in claim.attribute.split() if w not in words.sales_words and w != "price"]
    update["attribute"] = " ".join([*kept, "price"]) if kept else "price"
    update["coarse_key"] = "price"


def _generic_verb(claim: Claim, words: _Words, update: dict[str, object]) -> None:
    attribute = claim.attribute.split()
    if not attribute or attribute[-1] not in words.generic:
        return
    verb = attribute[-1]
    if len(attribute) > 1:
        if claim.value_span is not None:
            update["coarse_key"] = claim.attribute  # "revenue change": its own class
        return
    lowered = claim.quote.lower()
    for found in re.finditer(rf"\b{re.escape(verb)}\w*\b", lowered):
        phrase: list[str] = []
        for word in _WORD.findall(lowered[found.end() : found.end() + 60])[:3]:
            if word in words.stops:
                break
            phrase.append(fold_word(word))
        if phrase:
            update["attribute"] = " ".join([verb, *phrase])
            update["coarse_key"] = phrase[-1]
            return


def _year_inferred(claim: Claim, year: int, words: _Words, update: dict[str, object]) -> None:
    when = claim.time
    if when.is_known:
        return
    month_day: tuple[int, int] | None = None
    stated_words = when.text
    partial = _PARTIAL_DATE.match(str(claim.value)) if isinstance(claim.value, str) else None
    if partial:
        month_day = int(partial.group(1)), int(partial.group(2))
        stated = words.month_day.search(claim.quote)
        stated_words = stated.group(0) if stated else stated_words
    elif when.text:
        found = words.month_day.search(when.text)
        if found and not _YEAR.search(when.text):
            month = found.group("m1") or found.group("m2")
            day = found.group("d1") or found.group("d2")
            month_day = words.months[month.lower().rstrip(".")], int(day)
    if month_day is None:
        return
    try:
        day_date = date(year, *month_day)
    except ValueError:
        return  # "February 30": no date in any year
    update["time"] = EffectiveTime(
        start=day_date,
        end=day_date,
        granularity=TimeGranularity.DAY,
        text=stated_words,
        year_inferred=True,
    )
