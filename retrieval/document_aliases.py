"""Aliases a document defines itself: "Annual leave (vacation)", "paid time off (PTO)".

A name followed by another in brackets says both name one thing in that document. An
acronym in brackets takes as many words before it as it has letters, when their initials
spell it; another word or phrase in brackets takes the (at most three) words before it on
its line or in its sentence. Read from the first ``MAX_CHARS`` of a version's text.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import bindparam, text

from retrieval.glossary import words

MAX_CHARS = 200_000  # of a version's text read for aliases
MAX_VERSIONS = 8  # versions read per question
_BRACKETED = re.compile(r"([^\n.;:()]{1,80}?)\s*\(([A-Za-z][\w -]{0,30})\)")
_NOT_ALIAS = {
    "see",
    "eg",
    "e",
    "ie",
    "i",
    "including",
    "for",
    "from",
    "in",
    "at",
    "as",
    "with",
    "per",
}
_FUNCTION = {"the", "a", "an", "of", "our", "your", "their", "its", "is", "are", "get", "gets"}

Alias = tuple[frozenset[str], frozenset[str]]


def aliases_in(document: str) -> list[Alias]:
    """The (name, alias) word sets ``document`` defines."""
    out: list[Alias] = []
    for match in _BRACKETED.finditer(document):
        before = [w for w in re.findall(r"[\w-]+", match.group(1))]
        inside = match.group(2).strip()
        if inside.split()[0].casefold().rstrip(".") in _NOT_ALIAS:
            continue
        if inside.isupper() and 2 <= len(inside) <= 6:
            named = before[-len(inside) :]
            if len(named) != len(inside) or "".join(w[0] for w in named).upper() != inside:
                continue
        else:
            named = [w for w in before if w.casefold() not in _FUNCTION][-3:]
            if not named or len(inside.split()) > 3:
                continue
        name, alias = frozenset(words(" ".join(named))), frozenset(words(inside))
        if name and alias and name != alias:
            out.append((name, alias))
    return out


def version_aliases(conn: Any, version_ids: list[str]) -> dict[str, list[Alias]]:
    """The aliases each version defines (one read of at most MAX_VERSIONS texts)."""
    ids = sorted(set(version_ids))[:MAX_VERSIONS]
    if not ids:
        return {}
    query = text(
        "SELECT id, substr(text, 1, :chars) FROM source_versions WHERE id IN :ids"
    ).bindparams(bindparam("ids", expanding=True))
    return {
        version: aliases_in(body or "")
        for version, body in conn.execute(query, {"ids": ids, "chars": MAX_CHARS})
    }


def with_aliases(said: set[str], aliases: list[Alias]) -> set[str]:
    """``said`` and the words of every alias of a name it holds (both ways)."""
    out = set(said)
    for name, alias in aliases:
        if name <= said:
            out |= alias
        elif alias <= said:
            out |= name
    return out
