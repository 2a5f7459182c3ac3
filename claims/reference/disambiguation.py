"""The entries of a disambiguation page: one line about each titled article of a name.

"Quiet Harbour may refer to: - Quiet Harbour (1958 film), an Indian Marathi-language film
- Quiet Harbour (2016 TV series), a 2016-2017 Indian Assamese-language television series ..."
Each entry whose title has a bracketed disambiguation names that article's subject (the
key the article's own title gives: "quiet harbour (2016 tv series)") and describes it in a
phrase: its medium (a work kind of ``data/opening.yaml``), its language ("Assamese-
language") and its maker ("a 2004 EP by Saltmarsh Choir": artist). An entry with no bracket
("Quiet Harbour, a 1999 album by Neil Brand") is the bare name, which no reader tells
from its namesakes: it gives nothing. Words live in ``data/page_footer.yaml``
(``disambiguation``) and ``data/opening.yaml``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.identity import _TITLE_WORD, _YEARISH, clean, lemma
from claims.reference.resources import read_yaml

MAX_NAME_WORDS = 6
_WORD = re.compile(r"[\w'’.&-]+")

_EDITION_WORDS = frozenset(
    {"edition", "ed", "version", "revision", "rev", "revised", "update", "updated", "issue",
     "release", "draft", "amended", "amendment", "final", "new", "current", "of", "the", "as"}
)  # fmt: skip
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th)$")
# a span of two years and nothing else: a life or a term ("1848\u20131912"), which tells
# two people of one name apart; an edition is dated once ("2024", "2023\u201324 edition")
_YEAR_SPAN = re.compile(r"^\s*(?:19|20|1[0-8])\d\d\s*[-\u2013\u2014]\s*(?:19|20|1[0-8])\d\d\s*$")


def is_edition(aside: str) -> bool:
    """Whether a title's bracketed aside dates or numbers an edition of one document ("2023",
    "2024 edition", "rev. 3", "March 2024 update", "v2.1") rather than telling two things of
    one name apart ("1941 film", a life's "1848-1912"): an edition is the same thing again,
    never a second entity."""
    if _YEAR_SPAN.match(clean(aside)):
        return False
    words = [w.strip(".").lower() for w in _TITLE_WORD.findall(clean(aside))]
    dated = [w for w in words if _YEARISH.match(w) or _ORDINAL.match(w)]
    return bool(dated) and all(w in _EDITION_WORDS or w in dated for w in words)


@dataclass(frozen=True)
class EntryLabel:
    """One fact an entry states of its title: attribute, value, the value's characters;
    the title and the entry line's characters."""

    title: str
    attribute: str
    value: str
    start: int
    end: int
    line_start: int
    line_end: int


@dataclass(frozen=True)
class _Words:
    markers: tuple[str, ...]
    entry: re.Pattern[str]
    name_ends: frozenset[str]
    works: dict[str, tuple[str, str]]
    languages: frozenset[str]


@lru_cache(maxsize=1)
def _words() -> _Words:
    spec = read_yaml("page_footer.yaml")["disambiguation"]
    opening = read_yaml("opening.yaml")
    bullets = "".join(re.escape(str(b)) for b in spec["bullets"])
    entry = re.compile(
        rf"^[ \t]*[{bullets}][ \t]*(?P<title>[^,\n]{{2,120}}?\([^()\n]{{2,60}}\))[ \t]*,[ \t]*"
        rf"(?P<desc>(?:an?|the)\s[^\n]{{2,300}})$",
        re.MULTILINE | re.IGNORECASE,
    )
    return _Words(
        markers=tuple(str(m) for m in spec["markers"]),
        entry=entry,
        name_ends=frozenset(str(w).casefold() for w in spec["name_ends"]),
        works={
            str(head): (str(e["medium"]), str(e["maker"]))
            for head, e in (opening.get("works") or {}).items()
        },
        languages=frozenset(str(w).casefold() for w in opening.get("languages") or ()),
    )


def entry_labels(text: str) -> list[EntryLabel]:
    """The facts the entries of a disambiguation list state of their titled articles."""
    if "refer" not in text:
        return []  # every marker says "refer to"
    w = _words()
    at = min((k for k in (text.find(m) for m in w.markers) if k >= 0), default=-1)
    if at < 0:
        return []
    found: list[EntryLabel] = []
    for match in w.entry.finditer(text, at):
        title = " ".join(match.group("title").split())
        d0 = match.start("desc")
        desc = match.group("desc")
        found.extend(_described(title, desc, d0, match.start(), match.end(), w))
    return found


def _described(title: str, desc: str, d0: int, l0: int, l1: int, w: _Words) -> list[EntryLabel]:
    words = list(_WORD.finditer(desc))
    out: list[EntryLabel] = []
    for k, word in enumerate(words):
        lower = word.group().casefold()
        head = lemma(lower)
        if lower.endswith("-language") and lower[: -len("-language")] in w.languages:
            value = word.group()[: -len("-language")]
            out.append(EntryLabel(title, "language", value, d0 + word.start(),
                                  d0 + word.start() + len(value), l0, l1))  # fmt: skip
        elif head in w.works:
            medium, maker = w.works[head]
            out.append(EntryLabel(title, "medium", medium, d0 + word.start(), d0 + word.end(),
                                  l0, l1))  # fmt: skip
            if k + 1 < len(words) and words[k + 1].group() == "by":
                name = []
                for nxt in words[k + 2 :]:
                    token = nxt.group()
                    if token.casefold() in w.name_ends or not (
                        token[:1].isupper() or token.casefold() in {"of", "the", "and", "&"}
                    ):
                        break
                    name.append(nxt)
                if 1 <= len(name) <= MAX_NAME_WORDS:
                    a = d0 + name[0].start()
                    value = desc[name[0].start() : name[-1].end()].rstrip(".")
                    out.append(EntryLabel(title, maker, value, a, a + len(value), l0, l1))
            break  # the first work noun is the entry's kind
    return out
