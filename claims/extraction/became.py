"""A thing that became a named institution on a date: when the institution began.

"The building was restored and became the Museum of the Macedonian Struggle in 1980" says
when the museum was founded, although its verb is no founding verb and its subject is the
building: the sentence parser reads the date as the building's (or no one's). This reader
takes the name after the verb ("became", "was converted into", ...) as the claim's entity
when the name is an institution's (its words before any "of" end with "Museum",
"School"...: "Museum of X", "Leeds School of Art", "Kastoria Folk Museum") and a dated time
expression follows it at once ("in 1980", ", on 4 May 1982"). The claim is a date, keyed
like "When was the Museum of X established?" (``founded``). "He became the Director of the
British Museum in 1990" names a post, not an institution ("Director" is no institution),
and gives nothing. The quote starts at the verb ("became the Museum of X in 1980, ..."):
the name stands there, not in the sentence's first words, which a page's subject is read
from (``retrieval.finding.page_subjects``). Words live in ``data/became.yaml``.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.identity import fold_name, name_tokens
from claims.extraction.mentions import TimeMention
from claims.extraction.phrase_claims import phrase_claim
from claims.extraction.resources import read_yaml, resources
from claims.extraction.value_kinds import iso_value
from claims.ids import stable_id_maker
from claims.models import Claim, ValueKind

CONFIDENCE = 0.65  # read from a phrase in passing, as the prose relations
MAX_NAME_WORDS = 10
_WORD = re.compile(r"[\w'\u2019-]+")


@dataclass(frozen=True)
class _Words:
    verbs: re.Pattern[str]
    heads: frozenset[str]
    joins: frozenset[str]
    attribute: str
    max_gap: int


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("became.yaml")
    phrases = sorted((str(p) for p in data["verbs"]), key=len, reverse=True)
    alternation = "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in phrases)
    return _Words(
        verbs=re.compile(rf"\b(?:{alternation})\s+(?:the\s+)?", re.IGNORECASE),
        heads=frozenset(str(w) for w in data["heads"]),
        joins=frozenset(str(w) for w in data["joins"]),
        attribute=str(data["attribute"]),
        max_gap=int(data["max_gap"]),
    )


def _name_end(text: str, start: int, end: int, joins: frozenset[str]) -> tuple[int, list[str]]:
    """(end offset, words) of the capitalised name starting at ``start``: capitalised words
    and the joins between them, ending on a capitalised word."""
    words: list[str] = []
    last_end = start
    kept = 0
    at = start
    while at < end and len(words) < MAX_NAME_WORDS:
        match = _WORD.match(text, at)
        if match is None:
            break
        word = match.group()
        if word[:1].isupper():
            words.append(word)
            kept = len(words)
            last_end = match.end()
        elif word.lower() in joins and words:
            words.append(word)
        else:
            break
        at = match.end()
        while at < end and text[at] == " ":
            at += 1
    return last_end, words[:kept]


def _institution(words: Sequence[str], heads: frozenset[str]) -> bool:
    lower = [w.lower() for w in words]
    before_of = lower[: lower.index("of")] if "of" in lower else lower
    # "Museum of the Macedonian Struggle", "Leeds School of Art", "Kastoria Folk Museum";
    # not "Director of the British Museum" (a post at an institution)
    return bool(before_of) and before_of[-1] in heads


def became_claims(
    text: str,
    sentences: Sequence[tuple[int, int]],
    times: Sequence[TimeMention],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> list[Claim]:
    """Date claims of the institutions that ``text``'s sentences say something became."""
    lowered = text.lower()
    if "became" not in lowered and " into " not in lowered and "reopened" not in lowered:
        return []  # most documents say no such thing: a substring test first
    w = _words()
    starts = [t.start for t in times]
    make_id = stable_id_maker("cl", source_version_id, generation, "became")
    stopwords = resources().stopwords
    claims: list[Claim] = []
    for s0, s1 in sentences:
        for verb in w.verbs.finditer(text, s0, s1):
            name_end, words = _name_end(text, verb.end(), s1, w.joins)
            if not _institution(words, w.heads):
                continue
            gap = re.match(r",?\s+(?:in|on)\s+", text[name_end : name_end + w.max_gap + 4])
            if gap is None or gap.end() > w.max_gap:
                continue
            k = bisect_left(starts, name_end + gap.end())
            if k >= len(times) or times[k].start != name_end + gap.end():
                continue
            t = times[k]
            if t.first is None or t.last is None or t.role == "deictic":
                continue
            entity = fold_name(name_tokens(" ".join(words)), stopwords)
            if not entity:
                continue
            value = iso_value(t.first, t.last, t.granularity)
            claims.append(
                phrase_claim(
                    text,
                    (verb.start(), s1),
                    entity=entity,
                    attribute=w.attribute,
                    kind=ValueKind.DATE,
                    value=value,
                    subject=" ".join(words),
                    make_id=make_id,
                    provenance=(source_id, source_version_id, generation),
                    confidence=CONFIDENCE,
                )
            )
    return claims
