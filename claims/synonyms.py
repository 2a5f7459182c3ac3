"""Taught synonyms: what a reviewer's "these two attributes are one thing" (or "two things")
does to a claim's key.

A teaching is data (``Teaching``); ``taught_key`` gives the key, coarse key and attribute a
claim has under the active teachings, from the ones the extractor gave it and its quote:

* ``same``: claims whose attribute is ``from_attribute`` take ``to_attribute`` ("heft" is
  the "weight"): "z-70 blower heft" becomes "z-70 blower weight", so both blocks are one.
  Teachings chain ("tare" -> "heft" -> "weight").
* ``different``: two phrases the extractor folds to one attribute ("holiday" and
  "vacation", both ``leave``) are told apart: a claim of that attribute whose quote says
  ``split_words`` and not ``kept_words`` gets ``to_attribute`` (the split phrase) instead.
  ``different`` applies first, to the extracted attribute, then ``same``.

Only keys that are the attribute, or the entity followed by it, are rewritten (the other
forms, listed slots and non-Latin text keys, stay as extracted). Quote words are compared
folded (``quote_words``: casefolded, a plain plural made singular), so this module needs
no language model and the claim writer can apply it to every row.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

SAME = "same"
DIFFERENT = "different"
RELATIONS = (SAME, DIFFERENT)
_WORD = re.compile(r"[^\W_]+(?:['][^\W_]+)*")
_MAX_CHAIN = 32  # longer than any chain the refusals let a store build


@dataclass(frozen=True, slots=True)
class Teaching:
    """One active teaching, as the rewrite needs it."""

    id: int
    relation: str
    from_attribute: str
    to_attribute: str
    split_words: tuple[str, ...] = ()
    kept_words: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TaughtKey:
    claim_key: str
    coarse_key: str | None
    attribute: str


def fold_quote_word(word: str) -> str:
    """A word as teachings compare it: casefolded, a plain English plural made singular."""
    w = word.casefold()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def quote_words(text: str) -> tuple[str, ...]:
    """The folded words of ``text`` (hyphens split words: "full-time" is two)."""
    return tuple(fold_quote_word(w) for w in _WORD.findall(text))


def says(words: Sequence[str], phrase: Sequence[str]) -> bool:
    """Whether ``phrase`` (folded words) stands in ``words`` as a run."""
    if not phrase:
        return False
    size = len(phrase)
    first = phrase[0]
    return any(
        words[i] == first and tuple(words[i : i + size]) == tuple(phrase)
        for i in range(len(words) - size + 1)
    )


class Teachings:
    """The active teachings, indexed for the claim writer's hot path."""

    def __init__(self, teachings: Sequence[Teaching]) -> None:
        self.all = tuple(teachings)
        self.same = {t.from_attribute: t for t in self.all if t.relation == SAME}
        self.different: dict[str, list[Teaching]] = {}
        for t in self.all:
            if t.relation == DIFFERENT:
                self.different.setdefault(t.from_attribute, []).append(t)
        # every attribute a teaching may move a claim away from
        self.attributes = frozenset(self.same) | frozenset(self.different)

    def __bool__(self) -> bool:
        return bool(self.all)

    def attribute_for(self, attribute: str, quote: str | None) -> str:
        """The attribute ``attribute`` (as extracted) stands for under the teachings."""
        for told in self.different.get(attribute, ()):
            if quote is None:
                break
            words = quote_words(quote)
            if says(words, told.split_words) and not (
                told.kept_words and says(words, told.kept_words)
            ):
                attribute = told.to_attribute
                break
        return self.resolve(attribute)

    def resolve(self, attribute: str) -> str:
        """``attribute`` through the ``same`` teachings, chains followed."""
        for _ in range(_MAX_CHAIN):
            taught = self.same.get(attribute)
            if taught is None:
                return attribute
            attribute = taught.to_attribute
        return attribute

    def key_for(
        self,
        claim_key: str,
        entity: str | None,
        attribute: str | None,
        coarse_key: str | None,
        quote: str | None,
    ) -> TaughtKey | None:
        """The claim's key under the teachings, from its extracted one; None: unchanged."""
        if not attribute or attribute not in self.attributes:
            return None
        taught = self.attribute_for(attribute, quote)
        if taught == attribute:
            return None
        if claim_key == attribute:
            key = taught
        elif entity and claim_key == f"{entity} {attribute}":
            key = f"{entity} {taught}"
        else:
            return None  # a key of another form: left as extracted
        return TaughtKey(claim_key=key, coarse_key=taught.split(" ")[-1], attribute=taught)
