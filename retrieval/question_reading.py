"""What a question asks, read from its words: the kind and dimension of value it expects,
the entity, the time and the scope (issue 32, point 1).

The cue phrases are data (``data/value_cues.yaml``); the entity, time and scope are the
question frame's (``claims.extraction.parse_question``). The content words left once cue
phrases and function words are set aside are what the evidence ranker matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from retrieval.glossary import fold, words

_CUES = Path(__file__).parent / "data" / "value_cues.yaml"
_GAP = 4  # "..." in a cue phrase: up to this many other words


@dataclass(frozen=True)
class Cue:
    phrase: tuple[str, ...]
    kind: str
    dimensions: tuple[str, ...]
    words: frozenset[str]


@dataclass(frozen=True)
class Reading:
    """The question as the evidence ranker reads it."""

    kind: str | None  # quantity, count, money, percent, date; None: whatever fits
    dimensions: tuple[str, ...]
    dimension_words: frozenset[str]
    cue: str | None
    entity: str | None
    time: str | None
    scope: dict[str, str] = field(default_factory=dict)
    terms: tuple[str, ...] = ()  # the content words, folded, in question order

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "dimensions": list(self.dimensions),
            "cue": self.cue,
            "entity": self.entity,
            "time": self.time,
            "scope": dict(self.scope),
            "terms": list(self.terms),
        }


@lru_cache(maxsize=1)
def _cues() -> tuple[tuple[Cue, ...], frozenset[str]]:
    data = yaml.safe_load(_CUES.read_text(encoding="utf-8"))
    cues = tuple(
        Cue(
            tuple(fold(w) if w != "..." else w for w in str(c["phrase"]).split()),
            str(c["kind"]),
            tuple(c["dimensions"]),
            frozenset(fold(w) for w in c.get("words", [])),
        )
        for c in data["cues"]
    )
    return cues, frozenset(fold(str(w)) for w in data["function_words"])


def _match(phrase: tuple[str, ...], said: list[str]) -> list[int] | None:
    """The positions of ``phrase``'s words in ``said`` ("..." skips up to _GAP words)."""
    for start in range(len(said)):
        at, hits, ok = start, [], True
        gap = 0
        for word in phrase:
            if word == "...":
                gap = _GAP
                continue
            window = said[at : at + gap + 1]
            if word not in window:
                ok = False
                break
            at += window.index(word)
            hits.append(at)
            at += 1
            gap = 0
        if ok:
            return hits
    return None


def read_question(question: str, frame: Any) -> Reading:
    """The question's value kind, dimension, entity, time, scope and content words."""
    said = words(question)
    cues, function = _cues()
    best: tuple[Cue, list[int]] | None = None
    for cue in cues:
        hits = _match(cue.phrase, said)
        # the longest cue wins; of equally long ones, the tightest ("how many PTO days
        # do employees get" asks for days, not employees)
        if hits is not None and (best is None or _tighter(hits, best[1])):
            best = (cue, hits)
    used = set(best[1]) if best else set()
    # the cue's own words stay content when they name the thing ("flow rate", "population")
    kept_cue = best is not None and best[0].kind in ("money", "count") and len(best[1]) == 1
    terms = tuple(
        dict.fromkeys(
            w
            for i, w in enumerate(said)
            if w not in function
            and (i not in used or kept_cue or not _is_question_word(w))
            and not w.isdigit()
        )
    )
    time = getattr(frame, "time", None)
    return Reading(
        kind=best[0].kind if best else None,
        dimensions=best[0].dimensions if best else (),
        dimension_words=best[0].words if best else frozenset(),
        cue=" ".join(best[0].phrase) if best else None,
        entity=getattr(frame, "entity", None),
        time=getattr(time, "text", None) if time else None,
        scope=dict(getattr(frame, "scope", None) or {}),
        terms=terms,
    )


def _tighter(hits: list[int], than: list[int]) -> bool:
    if len(hits) != len(than):
        return len(hits) > len(than)
    return hits[-1] - hits[0] < than[-1] - than[0]


def _is_question_word(word: str) -> bool:
    return word in ("how", "heavy", "tall", "wide", "far", "long", "many", "much", "when")
