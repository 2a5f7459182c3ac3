"""Given names and their familiar forms: "Rick Leach" is how a page names the Richard Leach a
question asks about, "Nick Hill" the Nicholas Hill.

A question, a register or another page often writes a person's given name in full while the
page about them uses the familiar form it is known by (or the other way round). The pairs
come from the ``nicknames`` package (a hand-curated table of English given names and their
nicknames, Apache-2.0), not from our examples.

Only a name and its own familiar form are one name: "Rick" is a form of "Richard" and of
"Frederick", but "Rick" and "Fred" are not one name because both are forms of "Frederick".
A familiar form is shorter than the name or starts as it does; the few pairs of the table
that are neither ("bill" -> "robert") are left out.
"""

from __future__ import annotations

from functools import lru_cache

from nicknames import NickNamer

# a given name's forms looked up per question (bounds the reads of the candidate index)
MAX_FORMS = 12


@lru_cache(maxsize=1)
def _forms_table() -> dict[str, frozenset[str]]:
    """Each given name in key form (lowercase, never lemmatised: ``person_names``; as an
    entity's words are) -> its other forms in key form."""
    namer = NickNamer()
    table: dict[str, set[str]] = {}
    for name, familiar in namer.nickname_lookup.items():
        for form in familiar:
            if not _familiar(name, form):
                continue
            a, b = name.lower(), form.lower()
            if a != b:
                table.setdefault(a, set()).add(b)
                table.setdefault(b, set()).add(a)
    return {name: frozenset(forms) for name, forms in table.items()}


def _familiar(name: str, form: str) -> bool:
    """Whether ``form`` is a familiar form of ``name`` as people shorten names: shorter than
    the name ("richard" -> "rick", "william" -> "bill") or starting as it does ("jim" ->
    "jimmy"). The table also lists a few pairs the other way round or between two full
    names ("bill" -> "robert", "bill" -> "fred"), which would make one person of two."""
    return len(form) < len(name) or form[:2] == name[:2]


def forms_of(name: str) -> frozenset[str]:
    """The other forms of given name ``name`` (in key form): its familiar forms and, for a
    familiar form, the full names it stands for ("nicholas" -> {"nick", "nicky", ...};
    "rick" -> {"richard", "eric", "frederick", ...})."""
    return _forms_table().get(name.lower(), frozenset())


def is_given_name(word: str) -> bool:
    """Whether ``word`` (in key form) is a given name the table knows ("george", "nicholas")."""
    return word.lower() in _forms_table()


def same_given_name(one: str, other: str) -> bool:
    """Whether two given names name one person's given name: equal, or one the other's
    familiar form."""
    a, b = one.lower(), other.lower()
    return a == b or b in forms_of(a)


def name_forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The name ``words`` (a given name first) with its given name in its other forms, at
    most ``MAX_FORMS``, in a stable order ("nicholas hill" -> "nic hill", "nick hill", ...)."""
    if len(words) < 2:
        return []
    return [(form, *words[1:]) for form in sorted(forms_of(words[0]))[:MAX_FORMS]]
