"""Clauses of a sentence: where one statement ends and the next begins ("; ", ", and",
a trailing "which ..."), in token windows that keep the cost linear."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from spacy.tokens import Doc, Span

from claims.extraction.resources import read_yaml
from claims.extraction.roles import MAX_CLAUSE_TOKENS, MODAL, PIVOT, PUNCT, SEP, VALUE, VERB, Roles

if TYPE_CHECKING:
    from claims.extraction.mentions import Mentions
    from claims.models import EffectiveTime


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause as the claim readers read it: where it stands, the sentence's token roles
    and mentions, and what every claim read from it carries (time, provenance)."""

    doc: Doc
    sent: Span
    a: int  # the first token of what the clause states (after an attribution)
    b: int  # the token after the clause
    roles: Roles
    mentions: Mentions
    when: EffectiveTime  # the time each claim of the clause copies
    start: int  # the clause's own first token: a long sentence's evidence window starts here
    reported_at: int | None  # the reported-speech cue ("said", "according to"), if any
    source_id: str | None
    source_version_id: str | None

    @property
    def reported(self) -> bool:
        """Whether the clause reports what someone said."""
        return self.reported_at is not None


def _clauses(doc: Doc, sent: Span, roles: Roles) -> list[tuple[int, int]]:
    """Token ranges of the sentence's clauses: split at ';' and cut to bounded windows."""
    out: list[tuple[int, int]] = []
    start = sent.start
    lower = roles.lower
    if ";" in lower[sent.start : sent.end]:
        for i in range(sent.start, sent.end):
            if lower[i] == ";" and roles.role[i] != VALUE:
                out.append((start, i))
                start = i + 1
    out.append((start, sent.end))
    if "and" in lower[sent.start : sent.end] or "(" in lower[sent.start : sent.end]:
        out = [part for a, b in out for part in _joined_clauses(roles, a, b)]
    if "," in lower[sent.start : sent.end]:
        out = [part for a, b in out for part in _trailing_clause(roles, a, b)]
    bounded: list[tuple[int, int]] = []
    role, info = roles.role, roles.info
    for a, b in out:
        while b - a > MAX_CLAUSE_TOKENS:
            cut = a + MAX_CLAUSE_TOKENS
            # never cut through a value mention ("1,000 ms" must stay in one window)
            while (
                cut < b
                and role[cut] == VALUE
                and role[cut - 1] == VALUE
                and info[cut] == info[cut - 1]
            ):
                cut += 1
            bounded.append((a, cut))
            a = cut
        if b > a:
            bounded.append((a, b))
    return bounded


def _joined_clauses(roles: Roles, a: int, b: int) -> list[tuple[int, int]]:
    """ "The gmina covers an area of 120 km2, and its total population is 15,800 (out of
    which the population of Lesko Dolne amounts to 6,200)": each clause with its own subject
    and copula states its own value; read as one, the first clause's words named every
    value's attribute ("gmina cover area" = 6,200). A clause starts after ", and" when a
    copula or verb comes before the next value, and at a bracket opening "out of which"
    / "of which"."""
    lower, role = roles.lower, roles.role
    parts: list[tuple[int, int]] = []
    start = a
    for i in range(a + 1, b - 2):
        if i < start:
            continue
        if lower[i] == "(" and lower[i + 1 : i + 4] == ["out", "of", "which"]:
            parts.append((start, i))
            start = i + 4  # the bracket's own clause, without its "out of which"
        elif lower[i] == "(" and lower[i + 1 : i + 3] == ["of", "which"]:
            parts.append((start, i))
            start = i + 3
        elif lower[i] == "," and lower[i + 1] == "and" and role[i + 2] not in (VALUE, PIVOT, VERB):
            for k in range(i + 2, min(b, i + 14)):
                if role[k] in (VALUE, SEP, PUNCT, MODAL):
                    break
                if role[k] in (PIVOT, VERB):
                    parts.append((start, i))
                    start = i + 2
                    break
    parts.append((start, b))
    return [(x, y) for x, y in parts if y > x]


@lru_cache(maxsize=1)
def _trailing_openers() -> frozenset[str]:
    return frozenset(str(w) for w in read_yaml("sentences.yaml")["trailing_clauses"])


def _trailing_clause(roles: Roles, a: int, b: int) -> list[tuple[int, int]]:
    """ "Nearly 3,000 people were killed, which did not stop the city's growth": a clause
    after a comma and "which" / "but" / "although" (sentences.yaml) that holds no value of
    its own is cut off: read with the value, its negation denied the value and its words
    keyed it ("kill growth" = not 3,000 people). It is not read as a clause of its own
    either: without its subject ("which", "it") its words make no claim worth keeping."""
    lower, role = roles.lower, roles.role
    openers = _trailing_openers()
    seen_value = False
    for i in range(a, b - 1):
        if role[i] == VALUE:
            seen_value = True
        elif seen_value and lower[i] == "," and lower[i + 1] in openers:
            if any(role[k] == VALUE for k in range(i + 2, b)):
                return [(a, b)]  # the trailing clause states a value: read as before
            return [(a, i)]
    return [(a, b)]


MAX_STATEMENT_CHARS = 200  # a longer unmarked sentence of another script is prose, not a claim


def _plain_statement(sentence: str) -> bool:
    """Whether an unmarked sentence of another script is short enough to state one fact
    (two words or more, ends with a full stop, no question mark)."""
    text = sentence.strip()
    return (
        len(text) <= MAX_STATEMENT_CHARS
        and len(text.split()) >= 2
        and text[-1:] in (".", "\u3002", "\u0964")
        and "?" not in text
        and "\u061f" not in text
    )


def _is_non_latin(text: str) -> bool:
    if text.isascii():
        return False
    latin = other = 0
    for ch in text:
        if ch.isalpha():
            if ch.isascii():
                latin += 1
            elif ord(ch) > 0x24F:
                other += 1
    return other > latin
