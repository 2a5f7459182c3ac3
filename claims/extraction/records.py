"""Records and superlatives as claims: the record is the slot, its holder the value.

"In the valley the largest seed bank is Kernwood" and "Grainvault is the largest seed
bank" name two holders of one record; "Lind had more clean sheets than any other
goalkeeper" and "Van Der Berg had more clean sheets than any other goalkeeper" too. The
sentence reader keys such sentences by their subject, so the two versions never met. Here a
record is read in three shapes (data/records.yaml lists the words):

* holder after: "<the|its|Name's> [ordinal] <superlative> <noun phrase> <copula> <Name>"
  ("the most recent final was between Ashby Town and Corvale Rovers");
* holder before: "<Name> <copula> [also] <the|its|Name's> [X and] [ordinal] <superlative>
  <noun phrase>" ("Marlow is the capital and largest town of Eastmarch");
* "<Name> <verb> more <what> than any other <who>": the record "most <what> of any <who>".

The holder is a name (capitalised words; a pronoun is none), the noun phrase runs to a
comma, a bracket or a word that opens another clause (``phrase_ends``). The claim is
categorical: ``attribute`` the record ("second largest city of catalonia"), ``value`` the
holder, so two different holders of one record conflict by the categorical rule and one
holder restated corroborates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from claims.extraction.resources import read_yaml
from claims.extraction.value_kinds import NO_QUANTITY, plain_statement
from claims.models import Claim, ValueKind
from claims.models import Span as CharSpan
from claims.trusted import trusted

CONFIDENCE = 0.6  # a record read from the shape of one sentence, below an opening's labels
# the predicate of every record claim: claims/edges/compare.py relates a record only to
# another record (a record and a quantity of similar words are two slots)
RECORD_PREDICATE = "record holder"
MAX_RECORD_WORDS = 10
_TOKEN = re.compile(r"['’]s\b|[A-Za-z0-9](?:[\w&'’-]|\.(?=\w))*|[^\w\s]")
_NAME_JOINERS = frozenset({"of", "de", "la", "del", "van", "von", "der", "&", "and", "the"})
_FILLERS = frozenset({"also", "now", "still", "currently", "officially", "arguably", "by far"})
_DETERMINERS = frozenset({"the", "its", "their", "his", "her", "our"})
_DROPPED = frozenset({"the", "a", "an", "ever", "to"})


@dataclass(frozen=True)
class _Words:
    superlatives: frozenset[str]
    ordinals: frozenset[str]
    copulas: tuple[tuple[str, ...], ...]
    phrase_ends: frozenset[str]
    not_holders: frozenset[str]


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("records.yaml")

    def words(name: str) -> frozenset[str]:
        return frozenset(str(w).lower() for w in data[name])

    copulas = sorted((tuple(str(c).lower().split()) for c in data["copulas"]), key=len)
    return _Words(
        superlatives=words("superlatives"),
        ordinals=words("ordinals"),
        copulas=tuple(reversed(copulas)),
        phrase_ends=words("phrase_ends"),
        not_holders=words("not_holders"),
    )


@dataclass(frozen=True)
class Record:
    """One record read from a sentence: offsets into the text."""

    attribute: str
    holder: str
    holder_start: int
    holder_end: int


def _is_capital(word: str) -> bool:
    return word[:1].isupper()


class _Sentence:
    def __init__(self, text: str, s0: int, s1: int) -> None:
        self.tokens = [(m.group(), m.start() + s0, m.end() + s0) for m in _TOKEN.finditer(text)]
        self.lower = [t[0].lower() for t in self.tokens]
        self.w = _words()

    def copula_at(self, i: int) -> int:
        """The number of tokens of a copula starting at token ``i`` (0: none)."""
        for copula in self.w.copulas:
            if tuple(self.lower[i : i + len(copula)]) == copula:
                return len(copula)
        return 0

    def copula_ending_at(self, i: int) -> int:
        """The start of a copula whose last token is ``i - 1`` (-1: none)."""
        for copula in self.w.copulas:
            k = len(copula)
            if i - k >= 0 and tuple(self.lower[i - k : i]) == copula:
                return i - k
        return -1

    def name_after(self, i: int) -> tuple[int, int] | None:
        """Token range [i, j) of a name starting at token ``i``."""
        if i < len(self.tokens) and self.lower[i] == "between":
            i += 1
        if i >= len(self.tokens) or not _is_capital(self.tokens[i][0]):
            return None
        j = i + 1
        while j < len(self.tokens):
            word = self.tokens[j][0]
            if _is_capital(word) or (self.lower[j] in _NAME_JOINERS and j + 1 < len(self.tokens)
                                     and _is_capital(self.tokens[j + 1][0])):  # fmt: skip
                j += 1
            else:
                break
        return i, j

    def name_before(self, i: int) -> tuple[int, int] | None:
        """Token range [k, i) of a name ending just before token ``i`` (a bracket after
        the name is skipped: "Barcelona ( , ) is")."""
        if i > 0 and self.tokens[i - 1][0] == ")":
            depth = i - 1
            while depth >= 0 and self.tokens[depth][0] != "(":
                depth -= 1
            i = depth
        k = i
        while k > 0:
            word = self.tokens[k - 1][0]
            if _is_capital(word) or (
                self.lower[k - 1] in _NAME_JOINERS and k - 2 >= 0
                and _is_capital(self.tokens[k - 2][0]) and k < i
            ):  # fmt: skip
                k -= 1
            else:
                break
        while (
            k < i
            and self.lower[k] in _NAME_JOINERS
            and (not _is_capital(self.tokens[k][0]) or self.lower[k] == "the")
        ):
            k += 1  # "Van Der Berg" keeps its particles; "The Tin Herons" is "Tin Herons"
        return (k, i) if k < i else None

    def holder(self, span: tuple[int, int] | None) -> tuple[str, int, int] | None:
        if span is None:
            return None
        i, j = span
        while (
            j > i and self.lower[j - 1] in _NAME_JOINERS and not _is_capital(self.tokens[j - 1][0])
        ):
            j -= 1
        if j <= i or self.lower[i] in self.w.not_holders:
            return None
        if i == 0 and j - i == 1 and self.lower[i] in _DETERMINERS | {"in", "on", "at"}:
            return None
        text = " ".join(t[0] for t in self.tokens[i:j])
        return text, self.tokens[i][1], self.tokens[j - 1][2]

    def phrase(self, i: int) -> int:
        """The end (token index) of a record's noun phrase starting at ``i``."""
        j = i
        while j < len(self.tokens) and j - i < MAX_RECORD_WORDS:
            word = self.lower[j]
            if not word[:1].isalnum() or word in self.w.phrase_ends or self.copula_at(j):
                break
            j += 1
        return j


def records_in(text: str, s0: int, s1: int) -> list[Record]:
    """The records stated in the sentence text[s0:s1]."""
    sentence = _Sentence(text[s0:s1], s0, s1)
    w = sentence.w
    lower, tokens = sentence.lower, sentence.tokens
    found: list[Record] = []
    for i, word in enumerate(lower):
        if word == "more":
            record = _more_than_any(sentence, i)
            if record is not None:
                found.append(record)
            continue
        if word not in w.superlatives:
            continue
        start = i - 1 if i and lower[i - 1] in w.ordinals else i
        if start == 0:
            continue
        det = start - 1
        if det >= 2 and lower[det] == "and" and lower[det - 2] in _DETERMINERS:
            det -= 2  # "the capital and largest city": one determiner for two labels
        owner = ""
        if (
            lower[det].endswith(("'s", "’s"))
            and lower[det] not in ("'s", "’s")
            and not _is_capital(tokens[det][0])
            and det
            and lower[det - 1] in _DETERMINERS
        ):
            owner = lower[det][:-2]  # "the region's busiest": the region's record
            det -= 1
        elif lower[det] in ("'s", "’s") or lower[det].endswith(("'s", "’s")):
            name = sentence.name_before(det if lower[det] in ("'s", "’s") else det + 1)
            if name is None:
                continue
            owner = " ".join(lower[name[0] : name[1]]).removesuffix("'s").removesuffix("’s")
            det = name[0]
        elif lower[det] not in _DETERMINERS:
            continue
        end = sentence.phrase(i + 1)
        if end <= i + 1 and word in ("most", "least"):
            continue
        if end <= i + 1:
            continue  # "BBX is the largest": a record of no named kind
        words = [owner] + [x for x in lower[start:end] if x not in _DROPPED]
        attribute = " ".join(x for x in words if x)
        after = sentence.copula_at(end)
        holder = sentence.holder(sentence.name_after(end + after)) if after else None
        if holder is None:
            before = det
            while before and lower[before - 1] in _FILLERS:
                before -= 1
            cop = sentence.copula_ending_at(before)
            if cop < 0:
                continue
            holder = sentence.holder(sentence.name_before(cop))
        if holder is None:
            continue
        found.append(Record(attribute, *holder))
    return found


def _more_than_any(sentence: _Sentence, i: int) -> Record | None:
    """ "<Name> had more clean sheets than any other goalkeeper" at the "more" of ``i``."""
    lower = sentence.lower
    j = i + 1
    while j < len(lower) and j - i <= 6 and lower[j] != "than":
        if not lower[j][:1].isalnum():
            return None
        j += 1
    if j >= len(lower) or lower[j] != "than" or j == i + 1:
        return None
    if lower[j + 1 : j + 3] != ["any", "other"] or j + 3 >= len(lower):
        return None
    who = lower[j + 3]
    what = " ".join(lower[i + 1 : j])
    k = i
    while (
        k > 0
        and k > i - 4
        and lower[k - 1].isalpha()
        and not _is_capital(sentence.tokens[k - 1][0])
    ):
        k -= 1  # the verb before "more": "kept", "has scored"
    holder = sentence.holder(sentence.name_before(k))
    if holder is None:
        return None
    return Record(f"most {what} of any {who}", *holder)


def record_claims(
    text: str,
    sentences: list[tuple[int, int]],
    make_id: Callable[..., str],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> list[Claim]:
    """A categorical claim for every record of every sentence (see the module docstring)."""
    out: list[Claim] = []
    for s0, s1 in sentences:
        if not _may_hold_record(text, s0, s1):
            continue
        for record in records_in(text, s0, s1):
            out.append(
                _claim(text, s0, s1, record, make_id, source_id, source_version_id, generation)
            )
    return out


def with_records(claims: list[Claim], records: list[Claim]) -> list[Claim]:
    """``claims`` with ``records`` in document order, each replacing the sentence reader's
    categorical claim of the same sentence that names the same holder ("Its largest
    employer is Harbin Mills" read as "large: harbin mills"): one statement, read once,
    under the record's key."""
    if not records:
        return claims
    held = {(r.span.start, r.span.end, str(r.value).casefold()) for r in records}
    kept = [
        c
        for c in claims
        if c.kind is not ValueKind.CATEGORICAL
        or (c.span.start, c.span.end, str(c.value).casefold()) not in held
    ]
    return sorted(kept + records, key=_span_start)


def _span_start(claim: Claim) -> int:
    return claim.span.start


_CUE = re.compile(r"\b(?:[a-z]+est|most|least|first|last|only|top|leading|sole|than any)\b")


def _may_hold_record(text: str, s0: int, s1: int) -> bool:
    """A cheap test before the token walk: most sentences hold no superlative."""
    return _CUE.search(text, s0, s1) is not None


def _claim(
    text: str,
    s0: int,
    s1: int,
    record: Record,
    make_id: Callable[..., str],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> Claim:
    while s0 < s1 and text[s0].isspace():
        s0 += 1
    while s1 > s0 and text[s1 - 1].isspace():
        s1 -= 1
    fields: dict[str, Any] = {
        "id": make_id(s0, s1, record.holder_start, "record", record.attribute, record.holder),
        "source_version_id": source_version_id,
        "source_id": source_id,
        "generation": generation,
        "subject": None,
        "predicate": RECORD_PREDICATE,
        "claim_key": record.attribute,
        "coarse_key": record.attribute.split()[-1],
        "entity": None,
        "attribute": record.attribute,
        "kind": ValueKind.CATEGORICAL,
        "value": record.holder,
        **NO_QUANTITY,
        **plain_statement(),
        "span": trusted(CharSpan, {"start": s0, "end": s1}),
        "value_span": trusted(CharSpan, {"start": record.holder_start, "end": record.holder_end}),
        "quote": text[s0:s1],
        "confidence": CONFIDENCE,
        "created_at": None,
    }
    return trusted(Claim, fields)
