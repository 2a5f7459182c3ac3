"""How a work was received: "received positive reviews" is the value `positive` of the
attribute `reception` (data/stance.yaml), so "mixed reviews" on another side conflicts and
"generally favourable reviews" agrees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.keys import fold_word
from claims.profiles import Stance
from claims.reference.resources import read_yaml

ATTRIBUTE = "reception"


@dataclass(frozen=True, slots=True)
class StanceLexicon:
    poles: dict[str, str]  # folded evaluative word -> pole
    nouns: frozenset[str]  # folded evaluation nouns
    degree: frozenset[str]  # folded degree words
    evaluators: frozenset[str]  # folded words of who evaluated ("critics")


@lru_cache(maxsize=1)
def stance_lexicon() -> StanceLexicon:
    data = read_yaml("stance.yaml")
    poles: dict[str, str] = {}
    for pole, words in (data.get("poles") or {}).items():
        for word in words:
            for form in (str(word).lower(), " ".join(fold_word(w) for w in str(word).split())):
                poles.setdefault(form, str(pole))
    fold = lambda words: frozenset(  # noqa: E731
        f for w in words for f in (str(w).lower(), fold_word(str(w).lower()))
    )
    return StanceLexicon(
        poles,
        fold(data.get("nouns") or []),
        fold(data.get("degree") or []),
        fold(w for phrase in data.get("evaluators") or [] for w in str(phrase).split()),
    )


def stance_of(words: Sequence[str]) -> Stance | None:
    """The stance the folded ``words`` of an action state ("receive", "mix", "review"), or
    None when no evaluative word describes an evaluation noun."""
    lex = stance_lexicon()
    noun = next((k for k, w in enumerate(words) if w in lex.nouns), -1)
    if noun < 0:
        return None
    found: list[str] = []
    for w in words[:noun]:
        pole = lex.poles.get(w)
        if pole is not None and pole not in found:
            found.append(pole)
    if not found and noun + 1 < len(words) and words[noun] in ("acclaim",):
        found.append("positive")
    if len(found) != 1:
        # "mixed to positive" spans two poles: it agrees with either, so it is no single
        # value to compare (the clause keeps its plain polarity claim)
        return None
    skip = set(lex.poles) | lex.degree | lex.nouns | lex.evaluators | {"to", "and", "or"}
    rest = [w for w in words if w not in skip]
    return Stance("-".join(found), rest)


class StanceWords:
    """The stance reading the reference profile lends the sentence reader
    (``claims.profiles.StanceReading``)."""

    attribute = ATTRIBUTE

    def poles(self) -> Mapping[str, str]:
        return stance_lexicon().poles

    def evaluators(self) -> frozenset[str]:
        return stance_lexicon().evaluators

    def stance_of(self, words: Sequence[str]) -> Stance | None:
        return stance_of(words)
