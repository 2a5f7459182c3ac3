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

from claims.extraction.assembly import PUNCT, assign_roles, read_frame
from claims.extraction.effective_time import effective_time
from claims.extraction.identity import lemma
from claims.extraction.mentions import Mentions
from claims.extraction.pipeline import get_pipeline
from claims.extraction.resources import resources
from claims.models import EffectiveTime
from claims.settings import get_settings

_FOOTNOTE = re.compile(r"\s*(?:\(\d{1,2}\)|\[\d{1,2}\]|\*+)\s*$")
_GLUED_FOOTNOTE = re.compile(r"(?<=[a-z\)])\d$")  # "gains1": a footnote number glued on
_WORD = re.compile(r"[^\W_][\w'\-./&]*")


# words of a header that only say how its numbers are written, never what they are
_UNIT_WORDS = re.compile(
    r"\([^()]*\)|(?:us\$|[$€£¥])\s?'?\s?(?:000s?|m|mn|bn|k)?(?![\w])|'000s?|%"
    r"|\b(?:in\s+)?(?:thousands?|millions?|billions?|percent|per cent)\b",
    re.IGNORECASE,
)


def named_part(header: str) -> str:
    """A header without the words that only say how its figures are written ("(in
    millions)", "%", "$'000"): what the figures are, and when."""
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
    # one stated time only: "2019 vs. 2018" compares two years and dates neither
    time = effective_time(text, mentions.times) if len(mentions.times) == 1 else None
    if not entity and not attribute and not frame.scope:
        # "Other", "Granted": words the frame reader keeps for no key are still the row's name
        stop = res.stopwords
        attribute = [lemma(w) for w in _WORD.findall(text.lower()) if w not in stop]
        attribute = [w for w in attribute if w and not w.isdigit()]
        if not attribute and time is None:
            attribute = [w for w in raw_words(text) if not w.isdigit()]
    return PhraseReading(tuple(entity), tuple(attribute), dict(frame.scope), time)


def raw_words(text: str) -> tuple[str, ...]:
    """The lowercase words of a header as written (an entity's name: "p-200", "basic")."""
    return tuple(w for w in _WORD.findall(clean_header(text).lower()))
