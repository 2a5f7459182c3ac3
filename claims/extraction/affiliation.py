"""A person's political party, stated anywhere in an article.

The opening reader (``opening``) takes the party from an article's first sentence ("a
Republican member of the Vermont House"). Biographies state it later as often: "Humphrey
was elected as a Republican to the Thirty-sixth Congress", "He was a Liberal by
background", "He became a member of the UK Labour Party in 1977", "Graham joined the
Liberal Party in 1991". The sentence parser reads these as events or nothing; here each
sentence whose subject is a name or "he"/"she" and that has one of these shapes gives a
``political party`` label:

* ``as a/an <Party>`` ("elected as a Democrat");
* ``is/was a/an <Party>`` ("was a Conservative by background", "is a Republican member");
* ``member of the <Party>``, ``joined the <Party>`` (capitalised words before the party
  word belong to its name: "the Quebec Liberal Party");
* ``<Party> <title> <Name>`` anywhere in a sentence, as news prose writes it ("Democratic
  Sen. Jack Tate", "Labour MP Jo Reed"; titles of ``party_titles``): of that name.

The party is written with a capital ("a liberal thinker" names none) and must be a party
word of ``data/opening.yaml`` (``parties``). A name as subject is the claim's entity
(folded like every entity; the article's subject when it is that subject's name or
surname); "he"/"she" is the article's subject, and without one the sentence says nothing
this reader can place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from spacy.tokens import Doc, Span

from claims.extraction.identity import fold_name, name_tokens
from claims.extraction.resources import read_yaml, resources

MAX_SUBJECT_WORDS = 5
_PRONOUNS = frozenset({"he", "she"})
_ARTICLES = frozenset({"a", "an"})
_COPULAS = frozenset({"is", "was"})
_JOINS = frozenset({"joined", "rejoined"})


@dataclass(frozen=True)
class PartyMention:
    """One sentence's statement of its subject's party."""

    subject: str | None  # the subject's name as written; None for "he"/"she"
    entity: str | None  # the subject in key form; None for a pronoun
    party: str  # as written ("Quebec Liberal Party")
    start: int  # the party's characters
    end: int
    sentence: tuple[int, int]


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _subject(sent: Span) -> tuple[str | None, int] | None:
    """The sentence's subject: ("he"/"she" -> None, index after it) or (name, index after
    it) for a run of capitalised words at its start, after a lead-in phrase ("Also that
    year, Dailey was ..."); None otherwise."""
    first = sent[0]
    if first.lower_ in resources().stopwords and first.lower_ not in _PRONOUNS:
        comma = next((t for t in sent[:8] if t.text == ","), None)
        if comma is None or comma.i + 1 >= sent.end:
            return None
        first = sent.doc[comma.i + 1]
        if first.lower_ in resources().stopwords and first.lower_ not in _PRONOUNS:
            return None
    if first.lower_ in _PRONOUNS:
        return None, first.i + 1
    end = first.i
    while end < sent.end and end - first.i < MAX_SUBJECT_WORDS and _capitalised(sent.doc[end].text):
        end += 1
    if end == first.i or end >= sent.end or _capitalised(sent.doc[end].text):
        return None
    if not sent.doc[end].text[:1].isalpha():
        return None  # "Tate, of Centennial, ...": an aside, not the verb
    return sent.doc[first.i : end].text, end


def _party_at(doc: Doc, k: int, end: int, parties: tuple[tuple[str, ...], ...]) -> int | None:
    """The index after the party name starting at word ``k`` (a trailing "Party" kept)."""
    if not _capitalised(doc[k].text):
        return None
    for party in parties:
        n = len(party)
        if k + n <= end and tuple(t.lower_ for t in doc[k : k + n]) == party:
            after = k + n
            if after < end and doc[after].lower_ == "party":
                after += 1
            return after
    return None


def party_mentions(doc: Doc, text: str, parties: tuple[tuple[str, ...], ...]) -> list[PartyMention]:
    """Every sentence's statement of its subject's party, in document order. ``text`` is
    ``doc``'s text, passed in: ``doc.text`` joins every token anew on each read (profiled:
    most of this reader's time on long pages)."""
    stopwords = resources().stopwords
    found: list[PartyMention] = []
    for sent in doc.sents:
        subject = _subject(sent)
        if subject is None:
            continue
        name, after = subject
        for k in range(after + 2, sent.end):
            party_end = _party_at(doc, k, sent.end, parties)
            if party_end is None:
                continue
            start = k
            before = [t.lower_ for t in doc[max(sent.start, k - 2) : k]]
            if len(before) == 2 and before[1] in _ARTICLES and before[0] in ("as", *_COPULAS):
                pass  # "elected as a Republican", "was a Conservative by background"
            elif before[-1:] == ["as"]:
                pass  # "was elected as Republican to the Illinois House"
            else:
                j = k - 1
                while j > after and _capitalised(doc[j].text):
                    j -= 1  # "the Quebec Liberal Party", "the UK Labour Party"
                if doc[j].lower_ != "the":
                    continue
                lead = [t.lower_ for t in doc[max(sent.start, j - 2) : j]]
                if not (lead[-1:] and lead[-1] in _JOINS or lead == ["member", "of"]):
                    continue
                start = j + 1
            entity = fold_name(name_tokens(name), stopwords) if name else None
            found.append(
                PartyMention(
                    subject=name,
                    entity=entity or None,
                    party=doc[start:party_end].text,
                    start=doc[start].idx,
                    end=doc[party_end - 1].idx + len(doc[party_end - 1].text),
                    sentence=(sent.start_char, sent.end_char),
                )
            )
            break
    found.extend(_titled_mentions(text, parties))
    found.sort(key=lambda m: m.start)
    return found


@lru_cache(maxsize=1)
def _party_titles() -> tuple[str, ...]:
    return tuple(str(t) for t in read_yaml("opening.yaml").get("party_titles") or ())


@lru_cache(maxsize=4)
def _titled_pattern(parties: tuple[tuple[str, ...], ...]) -> re.Pattern[str]:
    titles = _party_titles()
    # written with capitals, as a party is ("a liberal senator" names none)
    names = sorted((" ".join(w.capitalize() for w in p) for p in parties), key=len, reverse=True)
    return re.compile(
        r"(?<![\w-])(?P<party>(?:" + "|".join(re.escape(n) for n in names) + r")(?: Party)?)"
        r"\s+(?:" + "|".join(re.escape(t) for t in sorted(titles, key=len, reverse=True)) + r")"
        r"\s+(?P<name>[A-Z][\w'’-]+(?:\s+(?:[A-Z]\.|[A-Z][\w'’-]+)){0,3})"
    )


def _titled_mentions(text: str, parties: tuple[tuple[str, ...], ...]) -> list[PartyMention]:
    """ "Democratic Sen. Jack Tate": the party a title's holder is named with."""
    if not parties or not any(f"{t} " in text for t in _party_titles()):
        return []  # most pages name no office title: skipped at substring speed
    stopwords = resources().stopwords
    found: list[PartyMention] = []
    for match in _titled_pattern(parties).finditer(text):
        party, name = match.group("party"), match.group("name")
        words = name.split()
        if len(words) < 2:
            continue  # a surname alone ("Sen. Tate") names no one a reader can tell
        entity = fold_name(name_tokens(name), stopwords)
        if not entity:
            continue
        found.append(
            PartyMention(
                subject=name,
                entity=entity,
                party=party,
                start=match.start("party"),
                end=match.end("party"),
                sentence=(match.start(), match.end()),
            )
        )
    return found
