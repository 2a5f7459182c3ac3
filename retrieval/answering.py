"""What answers a question besides a claim of the asked attribute itself: other attributes
whose claims answer it (a census count answers a population question), attributes that stand
in only when no claim states the asked one, what a count answering it counts, and the nouns
a text refers back to its subject with. The lists live in ``data/answering.yaml``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from claims.extraction.identity import lemma
from claims.extraction.resources import read_yaml

DATA_DIR = Path(__file__).parent / "data"


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return read_yaml("answering.yaml", DATA_DIR)


@lru_cache(maxsize=1)
def _answered_by() -> dict[str, tuple[str, ...]]:
    data = _data()
    return {
        str(asked): tuple(str(a) for a in answering)
        for asked, answering in (data.get("answered_by") or {}).items()
    }


def answering_attributes(attribute: str) -> tuple[str, ...]:
    """Other attributes whose claims answer a question about ``attribute`` (a census
    count answers a population question); empty for most attributes."""
    return _answered_by().get(attribute, ())


@lru_cache(maxsize=1)
def _standing_in() -> dict[str, tuple[str, ...]]:
    data = _data()
    return {
        str(asked): tuple(str(a) for a in answering)
        for asked, answering in (data.get("answered_when_missing") or {}).items()
    }


def standing_in_for(attribute: str) -> tuple[str, ...]:
    """Attributes whose claims answer a question about ``attribute`` only when no claim
    states it (a school "opened" in 1961 answers "when was it established" when no page
    gives its founding); empty for most attributes."""
    return _standing_in().get(attribute, ())


@lru_cache(maxsize=1)
def _counted() -> dict[str, frozenset[str]]:
    data = _data()
    return {
        str(attribute): frozenset(lemma(str(w)) for w in words)
        for attribute, words in (data.get("counted") or {}).items()
    }


def counts_what_is_asked(attribute: str, unit: str | None) -> bool:
    """Whether a count stated with ``unit`` (as written: "people", "families") can answer a
    question about ``attribute``; a count that names nothing it counts can."""
    nouns = _counted().get(attribute)
    if nouns is None or not unit:
        return True
    return lemma(unit.split()[-1]) in nouns or unit.casefold() in nouns


def counted_by(attribute: str, unit: str) -> bool:
    """Whether ``unit`` (as written) names what ``attribute`` counts ("people" for a
    population)."""
    nouns = _counted().get(attribute)
    return bool(nouns) and counts_what_is_asked(attribute, unit)


@lru_cache(maxsize=1)
def entity_references() -> frozenset[str]:
    """Nouns a text uses for the thing it is about ("the town"), as lemmas."""
    data = _data()
    return frozenset(lemma(str(w)) for w in data.get("entity_references") or ())
