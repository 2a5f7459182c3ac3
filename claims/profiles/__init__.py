"""Profiles: the extra readers and judges a kind of document needs.

Public surface:

- ``Profile``: the protocol every profile meets (its name, the spaCy components it adds over
  the one tokenization, the sentence seams it knows, the stance reading the sentence reader
  asks of it, the judges it lends the edge builder and the name forms it lends retrieval);
- ``profile_named(name) -> Profile``: a profile by name, its package imported on first use;
- ``DEFAULT_PROFILE`` (``office``) and ``PROFILE_NAMES``;
- ``StanceReading``, ``EdgeJudges``, ``NameForms``: what a profile contributes, as data.

The office profile is the default and adds nothing: ordinary office documents (policies,
contracts, reports, notes) are read by the core alone. The ``reference`` profile
(``claims/reference``) adds the readers and judges of reference articles (encyclopedia
pages). General code never imports a profile's package: ``profile_named`` resolves it
lazily by importlib from the registry below.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

# the edge builder's claim facts (claims.edges.facts.ClaimFacts): named here only as data,
# so that this package imports nothing of the edges (they import it)
ClaimFacts = Any

DEFAULT_PROFILE = "office"
# profile name -> "module:attribute" of its Profile object, imported on first use
_REGISTRY: Mapping[str, str] = {
    "office": "claims.profiles.office:OFFICE",
    "reference": "claims.reference.profile:REFERENCE",
}
PROFILE_NAMES: tuple[str, ...] = tuple(_REGISTRY)


class UnknownProfile(ValueError):
    """A profile name no registry entry has."""


@dataclass(frozen=True, slots=True)
class Stance:
    value: str  # "positive", "negative", "mixed"
    rest: list[str]  # the action's other words (the verb), minus the stance and its noun


class StanceReading(Protocol):
    """How a work was received ("received mixed reviews"): read inside the sentence reader."""

    attribute: str  # the attribute a stance claim is keyed by ("reception")

    def poles(self) -> Mapping[str, str]:
        """Folded evaluative word -> its pole ("favourable" -> positive)."""
        ...

    def evaluators(self) -> frozenset[str]:
        """Folded words of who evaluated ("critics"), dropped from the claim's qualifiers."""
        ...

    def stance_of(self, words: Sequence[str]) -> Stance | None:
        """The stance the folded words of an action state, or None."""
        ...


class NamesakeJudge(Protocol):
    """Tells pages of two disagreeing value groups apart (two namesakes, no conflict)."""

    def group_pages(self, claims: Iterable[ClaimFacts]) -> Any: ...

    def namesakes(self, x: Any, y: Any) -> Any:
        """None, or what tells the pages apart: ``.together`` (page pairs not told apart)
        and ``.reason``."""
        ...


@dataclass(frozen=True)
class EdgeJudges:
    """What a profile lends the edge builder. ``namesake_pages(claims, name_of, judged)``
    builds the judge of one edge build (``judged``: whether a source is a page it may
    judge); ``evidence_pages(claims)`` names the sources whose other claims an incremental
    rebuild must read for it; ``counterparts`` judges two claim keys of one attribute class
    (the builder's near-miss blocks) for claims of the sources read with the profile."""

    namesake_pages: (
        Callable[[list[ClaimFacts], Callable[[str], str], Callable[[str], bool]], NamesakeJudge]
        | None
    ) = None
    evidence_pages: Callable[[Iterable[ClaimFacts]], set[str]] | None = None
    # ``counterparts(x, y)``: why two claims of one entity under two claim keys of one
    # attribute class state one attribute (compared as one key), or None
    counterparts: Callable[[ClaimFacts, ClaimFacts], str | None] | None = None

    def __bool__(self) -> bool:
        return self.namesake_pages is not None


NO_JUDGES = EdgeJudges()


def _same(one: str, other: str) -> bool:
    return one == other


def _no_forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    return []


def _not_given(word: str) -> bool:
    return False


def _as_written(name: str) -> str:
    return name


@dataclass(frozen=True)
class NameForms:
    """How retrieval matches a person's or a thing's name beyond its exact words. The core
    knows no familiar forms and no other spellings: a name fits as written."""

    is_given_name: Callable[[str], bool] = _not_given
    same_given_name: Callable[[str, str], bool] = _same
    name_forms: Callable[[tuple[str, ...]], list[tuple[str, ...]]] = _no_forms
    spelling_keys: Callable[[str], str] = _as_written


AS_WRITTEN = NameForms()


class Profile(Protocol):
    """The readers and judges one kind of document adds to the core."""

    name: str
    # spaCy factories (registered when the profile's module is imported) added after the
    # sentence reader, before the core's abbreviation reader: claims of their own
    claim_components: tuple[str, ...]
    # ... and after every claim is read: readers of the page as a whole (its subject)
    page_components: tuple[str, ...]
    stance: StanceReading | None
    edge_judges: EdgeJudges
    name_forms: NameForms

    def sentence_seams(self, text: str) -> list[int]:
        """Character offsets where a sentence starts that the core's rules do not see."""
        ...


@dataclass(frozen=True)
class PlainProfile:
    """A profile made of data; ``office`` is one with nothing added."""

    name: str
    claim_components: tuple[str, ...] = ()
    page_components: tuple[str, ...] = ()
    stance: StanceReading | None = None
    edge_judges: EdgeJudges = NO_JUDGES
    name_forms: NameForms = AS_WRITTEN
    seams: tuple[Callable[[str], list[int]], ...] = field(default=())

    def sentence_seams(self, text: str) -> list[int]:
        return [offset for seam in self.seams for offset in seam(text)]


def known_profile(name: str) -> bool:
    return name in _REGISTRY


@cache
def profile_named(name: str | None = None) -> Profile:
    """The profile called ``name`` (None or "": the default), its module imported now."""
    name = name or DEFAULT_PROFILE
    target = _REGISTRY.get(name)
    if target is None:
        raise UnknownProfile(f"unknown profile {name!r}; use one of: {', '.join(PROFILE_NAMES)}")
    module, _, attribute = target.partition(":")
    profile: Profile = getattr(importlib.import_module(module), attribute)
    return profile


def judges_for(names: Iterable[str | None]) -> EdgeJudges:
    """The edge judges of the profiles ``names`` (the profiles a corpus's sources are read
    with): a profile's judges apply when any source uses it."""
    for name in sorted({n or DEFAULT_PROFILE for n in names}):
        judges = profile_named(name).edge_judges
        if judges:
            return judges
    return NO_JUDGES


def name_forms_for(names: Iterable[str | None]) -> NameForms:
    """The name forms of the profiles ``names`` (as ``judges_for``)."""
    for name in sorted({n or DEFAULT_PROFILE for n in names}):
        forms = profile_named(name).name_forms
        if forms is not AS_WRITTEN:
            return forms
    return AS_WRITTEN


__all__ = [
    "AS_WRITTEN",
    "DEFAULT_PROFILE",
    "NO_JUDGES",
    "PROFILE_NAMES",
    "EdgeJudges",
    "NameForms",
    "NamesakeJudge",
    "PlainProfile",
    "Profile",
    "Stance",
    "StanceReading",
    "UnknownProfile",
    "judges_for",
    "known_profile",
    "name_forms_for",
    "profile_named",
]
