"""Person names keep their words: "Maria Costa" keys ``maria costa``, never ``mare costa``.

Key folding lemmatises English words ("grew" -> "grow", "policies" -> "policy"), and names
are not English words: the lookup table reads "Maria" as the plural of "mare", the suffix
rules cut "James", "Thomas" and "Hughes" to "jame", "thoma" and "hughe". While a text is
read, the words of the person names it writes are known (``reading``), and ``lemma`` leaves
them as written, lowercased.

A person name is a capitalised given name (the ``nicknames`` package's table of English
given names, Apache-2.0) or a courtesy title ("Ms", "Dr"), with the capitalised words that
follow it (the surname and middle names, initials between them: "John H. Williams" keys
``john h williams``, as "John Hartley Williams" keys ``john hartley williams``). A given
name alone at the start of a sentence is taken too: the words the rule protects ("thomas",
"charles") are no English words a sentence would open with, and a given name that is also
a word ("Will", "May") folds to itself either way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache

_WORDS: ContextVar[frozenset[str]] = ContextVar("person_name_words", default=frozenset())

_CAPITALISED = re.compile(r"\b[A-Z][a-z]+(?:['\u2019-][A-Za-z]+)?\b(?:['\u2019]s)?")
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "sir", "dame"})
# what may stand between two words of one name: a space, a title's full stop, initials
# ("John H. Williams", "Ada J. K. Obi")
_BETWEEN = re.compile(r"\.? (?:[A-Z]\. )*")


@lru_cache(maxsize=1)
def given_names() -> frozenset[str]:
    """English given names and their familiar forms, lowercase."""
    from nicknames import NickNamer

    namer = NickNamer()
    return frozenset(
        name.lower() for name in [*namer.nickname_lookup, *namer.canonical_lookup] if name
    )


def _bare(word: str) -> str:
    word = word.lower()
    for ending in ("'s", "\u2019s"):
        if word.endswith(ending):
            return word[: -len(ending)]
    return word


def person_words(text: str) -> frozenset[str]:
    """The lowercase words of the person names ``text`` writes (see module)."""
    names = given_names()
    found: set[str] = set()
    previous_end = -2
    in_name = False
    for match in _CAPITALISED.finditer(text):
        word = _bare(match.group())
        follows = _BETWEEN.fullmatch(text[previous_end : match.start()]) is not None
        if word in names or word in _TITLES:
            in_name = True
            if word in names:
                found.add(word)
        elif in_name and follows:
            found.add(word)  # a surname or middle name after a given name or title
        else:
            in_name = False
        previous_end = match.end()
    return frozenset(found)


def name_words() -> frozenset[str]:
    """The person-name words of the text being read (empty outside ``reading``)."""
    return _WORDS.get()


@contextmanager
def reading(text: str) -> Iterator[None]:
    """Within this block, ``identity.lemma`` keeps the words of ``text``'s person names."""
    token = _WORDS.set(person_words(text))
    try:
        yield
    finally:
        _WORDS.reset(token)
