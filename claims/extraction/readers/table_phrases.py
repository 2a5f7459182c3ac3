"""Header phrases read with the sentence reader's own key machinery.

A table header ("Monthly price", "Total sales", "Nonvested as of December 31, 2018") is
read as the noun phrase it is: the same tokenizer, roles and frame reader as a prose
sentence, so "Monthly price" gives the attribute "price" and the scope {period: monthly}
exactly as "the Pro plan's monthly price is $29" does, and a date in a row header is the
claim's time. Readings are cached per phrase: a report repeats its headers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from claims.extraction.effective_time import effective_time
from claims.extraction.frames import read_frame
from claims.extraction.identity import lemma
from claims.extraction.mentions import Mentions
from claims.extraction.pipeline import get_pipeline
from claims.extraction.resources import resources
from claims.extraction.roles import PUNCT, assign_roles
from claims.models import EffectiveTime
from claims.settings import get_settings
from claims.units.normalize import conversion

_FOOTNOTE = re.compile(r"\s*(?:\(\d{1,2}\)|\[\d{1,2}\]|\*+)\s*$")
_GLUED_FOOTNOTE = re.compile(r"(?<=[a-z\)])\d$")  # "gains1": a footnote number glued on
_WORD = re.compile(r"[^\W_][\w'\-./&]*")


# words of a header that only say how its numbers are written, never what they are
_UNIT_WORDS = re.compile(
    r"(?:us\$|hk\$|[$€£¥]|\b(?:usd|eur|gbp|rmb|cny|chf|jpy|aud|cad|inr)\b)\s?['‘’]?\s?"
    r"(?:000s?|m|mn|bn|k|millions?|thousands?|billions?)?(?![\w])|['‘’]000s?|%"
    r"|\b(?:in\s+)?(?:thousands?|millions?|billions?|percent|per cent)\b",
    re.IGNORECASE,
)
_BRACKET = re.compile(r"\(([^()]*)\)")
_LETTER_SPACED = re.compile(r"\b\d(?: \d){2,}\b")  # "2 0 1 8": a PDF's letter-spaced year


def _unit_bracket(match: re.Match[str]) -> str:
    """A bracket that states a unit, scale or footnote goes; other words in it stay."""
    inner = match.group(1)
    rest = _UNIT_WORDS.sub(" ", inner).strip(" ,.;:-")
    if not rest or rest.isdigit() or conversion(rest) is not None or rest.lower() in ("in", "of"):
        return " "
    return f" {inner} "


def named_part(header: str) -> str:
    """A header without the words that only say how its figures are written ("(in
    millions)", "%", "$'000", "(kg)"): what the figures are, and when."""
    header = _LETTER_SPACED.sub(lambda m: m.group().replace(" ", ""), header)
    header = _BRACKET.sub(_unit_bracket, header)
    return " ".join(_UNIT_WORDS.sub(" ", header).split())


@dataclass(frozen=True)
class PhraseReading:
    """What a header phrase names, in claim-key terms."""

    entity_words: tuple[str, ...] = ()
    attribute_words: tuple[str, ...] = ()
    scope: dict[str, str] = field(default_factory=dict)
    time: EffectiveTime | None = None  # a date or year the phrase states

    @property
    def words(self) -> tuple[str, ...]:
        """Entity and attribute words in order, without repeats."""
        seen: list[str] = []
        for w in self.entity_words + self.attribute_words:
            if w not in seen:
                seen.append(w)
        return tuple(seen)


def clean_header(text: str) -> str:
    """A header without footnote marks and trailing colons ("Revenue:", "Leasehold (1)")."""
    text = _FOOTNOTE.sub("", text.strip())
    text = _GLUED_FOOTNOTE.sub("", text)
    return text.rstrip(":").strip()


@lru_cache(maxsize=8192)
def read_phrase(text: str) -> PhraseReading:
    """The entity words, attribute words (qualifier words included), scope and time that
    ``text`` names, folded as claim keys are."""
    text = clean_header(text)
    if not text:
        return PhraseReading()
    res = resources()
    nlp = get_pipeline(get_settings().spacy_model)
    with nlp.select_pipes(disable=["claim_assembler"]):
        doc = nlp(text)
    mentions: Mentions = doc._.mentions or Mentions()
    roles = assign_roles(doc, mentions, res, text)
    idxs = [i for i in range(len(doc)) if roles.role[i] != PUNCT]
    frame = read_frame(doc, roles, idxs, res, mentions.times)
    attribute = [w for w in frame.attribute_words if w]
    attribute += [w for w in frame.residual if w and w not in attribute]
    entity = [w for w in frame.entity_words if w]
    # one dated time only: "2019 vs. 2018" compares two years and dates neither
    dated = [t for t in mentions.times if t.first is not None and t.last is not None]
    time = effective_time(text, dated) if len(dated) == 1 else None
    stop = res.stopwords
    content = [lemma(w) for w in _WORD.findall(text.lower()) if w not in stop]
    content = [w for w in content if w and not w.isdigit()]
    kept = set(entity) | set(attribute)
    kept |= {w for v in frame.scope.values() for w in str(v).replace("_", " ").split()}
    kept |= {dim for dim in frame.scope if dim in res.ranked_levels}  # "Priority 1"
    kept |= set(raw_words(time.text or "")) if time is not None else set()
    if content and 2 * sum(1 for w in content if w in kept) < len(content):
        # "Other", "Member aged 65 (...)": the frame reader kept too few of the header's
        # words for a key; the header's own content words name the row
        attribute = [w for w in content if w not in entity and w not in kept or w in attribute]
        if not attribute and time is None:
            attribute = [w for w in raw_words(text) if not w.isdigit()]
    elif not entity and not attribute and not frame.scope and time is None:
        attribute = [w for w in raw_words(text) if not w.isdigit()]
    return PhraseReading(tuple(entity), tuple(attribute), dict(frame.scope), time)


def raw_words(text: str) -> tuple[str, ...]:
    """The lowercase words of a header as written (an entity's name: "p-200", "basic")."""
    return tuple(w for w in _WORD.findall(clean_header(text).lower()))
