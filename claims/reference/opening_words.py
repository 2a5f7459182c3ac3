"""The words, labels and tokens the opening reader shares (``claims.reference.opening``):
the vocabulary of ``data/opening.yaml``, what an opening says about its subject, and the
limits of what is read as a name or a phrase."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from claims.extraction.identity import lemma
from claims.models import (
    ValueKind,
)
from claims.reference.resources import read_yaml

MAX_SUBJECT_TOKENS = 40  # a name before the copula longer than this is not a name


MAX_PHRASE_TOKENS = 14  # the noun phrase after the copula


MAX_NAME_TOKENS = 8  # a maker's or place's name


MAX_OPENING_CHARS = 600  # a first "sentence" longer than this is a run of page furniture


# how far down a page its opening may come after the page's furniture
MAX_LATE_SENTENCES = 12


MAX_LATE_CHARS = 2500


MAX_LATE_NAME_WORDS = 8  # a longer capitalised run before a late copula is page furniture


CONFIDENCE = 0.7


FIELD_CONFIDENCE = 0.75  # a box field names its attribute outright


_OPEN, _CLOSE = "([", ")]"


_DASHES = frozenset({"-", "\u2013", "\u2014"})


_ARTICLES = frozenset({"the", "a", "an"})


# rank words an occupation uses for a kind of officer, not a rank: "a German general", "the
# commanding general", "a sea captain", "a naval commander"
_GENERIC_RANKS = frozenset(
    {("general",), ("admiral",), ("marshal",), ("commander",), ("captain",), ("major",),
     ("private",)}
)  # fmt: skip


# what ends one part of an occupation ("a rear admiral and maritime lawyer")
_PART_ENDS = frozenset({"and", ",", "&", "/", ";"})


_SUBJECT_PRONOUNS = frozenset({"it", "he", "she", "they"})


_SPACE_BEFORE_MARK = re.compile(r"\s+([,.;:!?)\]])")


_SPACE_AFTER_BRACKET = re.compile(r"([(\[])\s+")


_QUOTES = frozenset({'"', "'", "`", "``", "''", "\u201c", "\u201d"})


@dataclass(frozen=True)
class _Words:
    copulas: frozenset[str]
    connectors: frozenset[str]
    phrase_ends: frozenset[str]
    not_genre: frozenset[str]
    genre_heads: frozenset[str]
    works: dict[str, tuple[str, str]]  # head lemma -> (medium, maker attribute)
    agents: dict[str, str]
    located: frozenset[str]
    sports: tuple[tuple[tuple[str, ...], str], ...]  # phrase -> sport, longest first
    instruments: tuple[tuple[tuple[str, ...], str], ...]  # phrase -> instrument, longest first
    languages: frozenset[str]
    nationalities: tuple[tuple[str, ...], ...]
    occupations: frozenset[str]
    parties: tuple[tuple[str, ...], ...]
    chrome_lines: tuple[str, ...] = ()


@lru_cache(maxsize=1)
def _words() -> _Words:
    data = read_yaml("opening.yaml")

    def words(name: str) -> frozenset[str]:
        return frozenset(str(w).casefold() for w in data.get(name) or ())

    sports: list[tuple[tuple[str, ...], str]] = []
    for sport, phrases in (data.get("sports") or {}).items():
        for phrase in [sport, *phrases]:
            sports.append((tuple(lemma(w) for w in str(phrase).split()), str(sport)))
    instruments: list[tuple[tuple[str, ...], str]] = []
    for instrument, agents in (data.get("instruments") or {}).items():
        # "a tabla player", "a pianist": the instrument is named with "player" or by its agent
        for phrase in [f"{instrument} player", *(agents or ())]:
            instruments.append((tuple(lemma(w) for w in str(phrase).split()), str(instrument)))
    try:
        works = {
            str(head): (str(entry["medium"]), str(entry["maker"]))
            for head, entry in (data.get("works") or {}).items()
        }
    except (KeyError, TypeError) as error:
        raise ValueError(
            f"opening.yaml: works: {error}; each work kind needs a medium and a maker"
        ) from error
    return _Words(
        copulas=words("copulas"),
        connectors=words("name_connectors"),
        phrase_ends=words("phrase_ends"),
        not_genre=words("not_genre"),
        genre_heads=words("genre_heads"),
        works=works,
        agents={str(k): str(v) for k, v in (data.get("agents") or {}).items()},
        located=words("located"),
        sports=tuple(sorted(set(sports), key=lambda s: len(s[0]), reverse=True)),
        instruments=tuple(sorted(set(instruments), key=lambda s: len(s[0]), reverse=True)),
        languages=words("languages"),
        nationalities=tuple(
            sorted(
                {tuple(str(n).split()) for n in data.get("nationalities") or ()},
                key=len,
                reverse=True,
            )
        ),
        occupations=words("occupations"),
        parties=tuple(
            sorted(
                {tuple(str(p).split()) for p in data.get("parties") or ()}, key=len, reverse=True
            )
        ),
        chrome_lines=tuple(str(c) for c in data.get("chrome_lines") or ()),
    )


@dataclass
class Label:
    """One label of the opening: attribute, value as written, the value's characters."""

    attribute: str
    value: str
    start: int
    end: int
    kind: ValueKind = ValueKind.CATEGORICAL


@dataclass
class Opening:
    """What a document's opening sentence says about its subject."""

    entity: str  # the subject in key form ("death at funeral (2007 film)")
    name: str  # the subject as written
    sentence: tuple[int, int]  # characters of the opening sentence
    labels: list[Label] = field(default_factory=list)
    aliases: frozenset[str] = frozenset()  # other key forms of the subject's names
    late: bool = False  # read further down a page: its labels, and the claims referring back
    kinds: frozenset[str] = frozenset()  # nouns that refer back to it ("the album")
    person: bool = False  # a life's dates or an occupation: "he"/"she" refer back to it


@dataclass(frozen=True)
class _Tok:
    text: str
    lower_: str
    idx: int

    @property
    def end(self) -> int:
        return self.idx + len(self.text)


def _is_capitalised(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit()


def _text_of(text: str, toks: Sequence[_Tok], a: int, b: int) -> str:
    """The characters of words a..b-1 as written."""
    return text[toks[a].idx : toks[b - 1].end]


_PERSONAL = frozenset({"he", "she", "his", "her"})


_IMPERSONAL = frozenset({"it", "its"})


_CIRCA = frozenset({"c.", "c", "ca.", "ca", "circa"})


_YEAR_DIGITS = re.compile(r"^[12][0-9]{3}$")


_NAME_ENDS = frozenset({"and", "released", "is", "was", "as"})


MAX_PLACE_GAP = 8  # words between "located" and its "in" ("along the coast of X in")


# the first line of a page written as a title: a few capitalised words, no full stop
_HEADING = re.compile(r"\s*#*\s*(?P<title>[^\n.:]{2,80})\n")


# "A Hold of Light ( album ) - Wikipedia": a saved page's title names its subject
_PAGE_TITLE = re.compile(
    r"\s*(?P<title>[^\n]{2,120}?)\s+[-\u2013|]\s+(?:Simple English )?"
    r"(?:Wikipedia|Wikiwand|Wikidata|Wikimedia Commons)\b"
)
