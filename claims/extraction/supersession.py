"""Sentences in which a text says it replaces another document.

They become reviewer candidates (``SupersessionCandidate``), never applied edges: text can
never appoint itself the authority.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.resources import read_yaml
from claims.models import Span


@dataclass(frozen=True, slots=True)
class SupersessionMention:
    """ "This policy replaces the 2019 travel policy": span/quote of the sentence, the target."""

    span: Span
    quote: str
    target_text: str
    target_span: Span


def _alt(phrases: list[str]) -> str:
    ordered = sorted({p.lower() for p in phrases}, key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in ordered)


@lru_cache(maxsize=1)
def _cue() -> re.Pattern[str]:
    """Any replacing verb: a sentence without one cannot match (the full patterns are slow
    on ordinary sentences, since the passive one tries every start of its target)."""
    data = read_yaml("supersession.yaml")
    verbs = [*data["active_verbs"], *data["passive_verbs"]]
    return re.compile(rf"(?<![A-Za-z])(?:{_alt(verbs)})", re.IGNORECASE)


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    data = read_yaml("supersession.yaml")
    active = re.compile(
        rf"(?<![A-Za-z])(?:{_alt(data['active_verbs'])})\s+(?P<target>[^.;:!?\n]{{2,200}})",
        re.IGNORECASE,
    )
    passive = re.compile(
        rf"(?P<target>[^.;:!?\n]{{2,200}}?)\s+(?:{_alt(data['passive_verbs'])})\s+(?:{_alt(data['self_references'])})(?![A-Za-z])",
        re.IGNORECASE,
    )
    tails = re.compile(
        rf"(?:,?\s+(?:{_alt(data['target_tails'])})(?![A-Za-z]).*|,.*)$", re.IGNORECASE
    )
    return active, passive, tails


_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]?")


def find_supersession_mentions(text: str) -> list[SupersessionMention]:
    """Every sentence that names a document it replaces, with the target as written."""
    if _cue().search(text) is None:
        return []
    active, passive, tails = _patterns()
    cue = _cue()
    out: list[SupersessionMention] = []
    for sent in _SENTENCE.finditer(text):
        s0, s1 = sent.start(), sent.end()
        sentence = sent.group(0)
        if cue.search(sentence) is None:
            continue
        m = active.search(sentence)
        if m is not None:
            t0, t1 = m.start("target"), m.end("target")
        else:
            m = passive.search(sentence)
            if m is None:
                continue
            t0, t1 = m.start("target"), m.end("target")
        target = sentence[t0:t1]
        tail = tails.search(target)
        if tail is not None:
            target = target[: tail.start()]
        stripped = target.strip()
        if not stripped:
            continue
        t0 += target.find(stripped)
        t1 = t0 + len(stripped)
        while s0 < s1 and text[s0].isspace():
            s0 += 1
        out.append(
            SupersessionMention(
                span=Span(start=s0, end=s1),
                quote=text[s0:s1],
                target_text=stripped,
                target_span=Span(start=sent.start() + t0, end=sent.start() + t1),
            )
        )
    return out
