"""The claims of a sentence already read, replayed when the same sentence comes again.

Policies, filings, runbooks and notes repeat sentences word for word (boilerplate, facts
restated in every document about a subject), and the assembler's rules cost far more per
sentence than the tokenizer (docs/PIPELINE.md, "Session 7: extraction speed"). The cache is
per process and bounded; a hit gives the same claims a cold run gives, which
tests/test_extraction_sentence_cache.py checks against an assembler without the cache.

The key is everything the assembly of one sentence reads: the sentence's text, its tokens'
offsets from the sentence start, each token's role and role data (a mention index made
relative to the sentence's first mention), the sentence's quantity, time and label mentions
(their offsets relative), and the document's entity (what "it" or "the company" names).
Only fields known to be character offsets or mention indices are made relative; any other
field stays as it is in the key, so a field added to a mention later can only cost hits,
never give a wrong claim. A role whose data indexes a mention list must be made relative in
``SentenceCache.key`` (today: values and times).

A replay moves the stored claims to the sentence's place: spans shifted, the id made again
from the document's own source version (every int the id is made of is a character offset;
a sentence whose claims break that is never stored), source ids set, and every mutable part
(scope, residual words, time, spans) copied, so a caller may edit the claims it gets.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections.abc import Callable, Hashable, Sequence
from dataclasses import fields
from typing import Any

from pydantic import BaseModel

from claims.models import Claim
from claims.models import Span as CharSpan
from claims.trusted import trusted

MAX_SENTENCES = 16384  # distinct sentences kept: about 3.5 KB each at the bench's sentence length
SEEN_LIMIT = 1 << 18  # text hashes of sentences met once (8 MB), forgotten all at once
_OFFSETS = frozenset({"start", "end", "cue_start"})
_OFFSET_PAIRS = frozenset({"modifier"})
_SPANS = ("span", "value_span")
_IDS = ("id", "source_id", "source_version_id")


class IdRecorder:
    """A claim-id maker that remembers the parts each id was made from, so a stored claim
    can get the id the same parts at another offset give."""

    __slots__ = ("maker", "parts")

    def __init__(self, maker: Callable[..., str]) -> None:
        self.maker = maker
        self.parts: dict[str, tuple[object, ...]] = {}

    def __call__(self, *rest: object) -> str:
        made = self.maker(*rest)
        self.parts[made] = rest
        return made


class _Template:
    """One stored claim: its fields as they are at any offset, the names of the fields to
    copy for each replay, its spans and id parts counted from the sentence start."""

    __slots__ = ("fields", "mutable", "spans", "parts")

    def __init__(
        self,
        fields_: dict[str, Any],
        mutable: tuple[str, ...],
        spans: tuple[tuple[str, int, int], ...],
        parts: tuple[object, ...],
    ) -> None:
        self.fields = fields_
        self.mutable = mutable
        self.spans = spans
        self.parts = parts


def _field_names(obj: object) -> tuple[str, ...]:
    return tuple(f.name for f in fields(obj))  # type: ignore[arg-type]


def _relative(mention: object, s0: int, s1: int, names: tuple[str, ...]) -> tuple[object, ...]:
    """A mention's fields with its character offsets counted from ``s0``; raises
    ``_Outside`` for a mention reaching outside the sentence."""
    out: list[object] = []
    for name in names:
        value = getattr(mention, name)
        if name in _OFFSETS and type(value) is int:
            if not s0 <= value <= s1:
                raise _Outside
            value -= s0
        elif name in _OFFSET_PAIRS and value is not None:
            value = tuple(v - s0 for v in value)
        out.append(value)
    return tuple(out)


class _Outside(Exception):
    """A mention or role reaches outside the sentence: its claims are not cached."""


class SentenceCache:
    """Claims by sentence key (see the module docstring); safe to share between threads."""

    def __init__(self, value_role: int, time_role: int, size: int = MAX_SENTENCES) -> None:
        self.value_role = value_role
        self.time_role = time_role
        self.size = size
        self._entries: dict[Hashable, list[_Template]] = {}
        # hashes of the sentence texts met once: a sentence read for the first time pays
        # for no key (a collision only makes one key too many)
        self._seen: set[int] = set()
        self._lock = threading.Lock()
        self._names: dict[type, tuple[str, ...]] = {}
        self.hits = 0
        self.misses = 0

    def clear(self) -> None:
        """Forget every stored sentence (a benchmark's cold pass)."""
        with self._lock:
            self._entries.clear()
            self._seen.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def _names_of(self, mention: object) -> tuple[str, ...]:
        names = self._names.get(type(mention))
        if names is None:
            names = self._names[type(mention)] = _field_names(mention)
        return names

    def key(
        self,
        text: str,
        s0: int,
        s1: int,
        token_range: tuple[int, int],
        roles: Any,
        mentions: Any,
        q_range: tuple[int, int],
        t_starts: Sequence[int],
        entity: str | None,
    ) -> Hashable | None:
        """The key of the sentence of characters [s0, s1) and tokens ``token_range``
        (``roles`` as assigned, before lead-ins are dropped), or None when something it
        reads lies outside it, or when its text comes for the first time: most sentences
        of a text come once, and building their keys would cost more than the hits they
        never get."""
        seen = hash(text[s0:s1])
        if seen not in self._seen:
            with self._lock:
                if len(self._seen) >= SEEN_LIMIT:
                    self._seen.clear()
                self._seen.add(seen)
            return None
        first, last = token_range
        qlo, qhi = q_range
        tlo, thi = bisect_left(t_starts, s0), bisect_left(t_starts, s1)
        role = roles.role[first:last]
        info = roles.info[first:last]
        value_role, time_role = self.value_role, self.time_role
        data: list[object] = []
        try:
            for r, d in zip(role, info, strict=True):
                if r == value_role:
                    if not qlo <= d < qhi:
                        return None
                    d = d - qlo
                elif r == time_role:
                    if not tlo <= d < thi:
                        return None
                    d = d - tlo
                data.append(d)
            found: list[tuple[object, ...]] = []
            for group in (mentions.quantities[qlo:qhi], mentions.times[tlo:thi]):
                for mention in group:
                    found.append(_relative(mention, s0, s1, self._names_of(mention)))
            found.append(())
            for label in mentions.labels:  # few per document
                if s0 <= label.start < s1:
                    found.append(_relative(label, s0, s1, self._names_of(label)))
            key = (
                text[s0:s1],
                tuple([i - s0 for i in roles.idx[first:last]]),
                tuple([i - s0 for i in roles.end[first:last]]),
                tuple(role),
                tuple(data),
                tuple(found),
                entity,
            )
            hash(key)
        except (_Outside, TypeError):
            return None
        return key

    def replay(
        self,
        key: Hashable,
        s0: int,
        make_id: Callable[..., str],
        source_id: str | None,
        source_version_id: str | None,
        generation: str | None = None,
    ) -> list[Claim] | None:
        """The stored claims of ``key`` placed at ``s0`` (in ``generation`` when given), or
        None on a miss."""
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        self.hits += 1
        if isinstance(make_id, IdRecorder):
            make_id = make_id.maker  # a replayed id needs no recording
        out: list[Claim] = []
        for template in entry:
            fields_ = template.fields.copy()
            for name in template.mutable:
                fields_[name] = _copied(fields_[name])
            for name, start, end in template.spans:
                fields_[name] = trusted(CharSpan, {"start": start + s0, "end": end + s0})
            fields_["id"] = make_id(*[p + s0 if type(p) is int else p for p in template.parts])
            fields_["source_id"] = source_id
            fields_["source_version_id"] = source_version_id
            if generation is not None:
                fields_["generation"] = generation
            out.append(trusted(Claim, fields_))
        return out

    def store(
        self, key: Hashable, s0: int, s1: int, claims: Sequence[Claim], ids: IdRecorder
    ) -> None:
        """Keep the claims the sentence [s0, s1) gave (before anyone edits them); ``key``
        only gives a key from a sentence's second sighting on."""
        templates: list[_Template] = []
        for claim in claims:
            parts = ids.parts.get(claim.id)
            if parts is None or type(claim) is not Claim:
                return  # an id made some other way cannot be made again here
            if any(type(p) is int and not s0 <= p <= s1 for p in parts):
                return
            template: dict[str, Any] = {}
            mutable: list[str] = []
            spans: list[tuple[str, int, int]] = []
            for name, value in claim.__dict__.items():
                if name in _IDS:
                    template[name] = None  # set at replay; kept here for the field order
                elif name in _SPANS and value is not None:
                    if not s0 <= value.start <= value.end <= s1:
                        return
                    template[name] = None
                    spans.append((name, value.start - s0, value.end - s0))
                else:
                    copied = _copied(value)
                    template[name] = copied
                    if copied is not value:
                        mutable.append(name)
            relative = tuple(p - s0 if type(p) is int else p for p in parts)
            templates.append(_Template(template, tuple(mutable), tuple(spans), relative))
        with self._lock:
            if len(self._entries) >= self.size:
                # the oldest entry goes (dicts keep insertion order)
                self._entries.pop(next(iter(self._entries)), None)
            self._entries[key] = templates


def _copied(value: object) -> object:
    """A copy of a claim field deep enough that editing one claim never edits another:
    dicts, lists and models one level down (their own fields are immutable values)."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    if isinstance(value, BaseModel):
        return trusted(type(value), dict(value.__dict__))
    return value
