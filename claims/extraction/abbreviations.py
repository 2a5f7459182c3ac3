"""What an abbreviation stands for, where a text defines it: "vibrational circular
dichroism (VCD)", "the sapheno-femoral junction (SFJ)", "Israel Gay Youth (IGY)".

A document that spells a term out before its abbreviation in brackets says what the
abbreviation stands for there; a question "What does VCD refer to?" asks exactly that, and
the sentence parser reads no claim from it (the bracket is an aside). The long form is the
run of words right before the bracket whose initials spell the abbreviation (a hyphen
splits a word: "sapheno-femoral" gives S and F; "of", "and", "the" may stand between
without an initial: "Department of Energy (DOE)"). The claim is keyed by the abbreviation
and the attribute ``expansion``, its value the long form as written. One abbreviation
stands for several things in several fields, so ``expansion`` is a predicate that holds
several values at once (claims/edges/predicates.yaml): two expansions are no conflict,
and an answer lists them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from claims.extraction.phrase_claims import phrase_claim
from claims.ids import stable_id_maker
from claims.models import Claim, ValueKind

ATTRIBUTE = "expansion"
CONFIDENCE = 0.7
# an abbreviation in brackets: two to eight capitals (digits and "&" inside)
_DEFINED = re.compile(r"\(\s*([A-Z][A-Z0-9&]{1,7})\s*\)")
_WORD = re.compile(r"[A-Za-z][\w'\u2019]*(?:-[A-Za-z][\w'\u2019]*)*")
_SKIPPED = frozenset({"of", "and", "the", "for", "in", "on", "to", "&"})
MAX_EXTRA_WORDS = 3  # function words a long form may hold beyond one word per letter


def _initials(word: str) -> list[str]:
    return [part[0].casefold() for part in word.split("-") if part]


def long_form(before: str, abbreviation: str) -> tuple[int, str] | None:
    """(offset in ``before``, words) of the long form ending ``before`` whose initials
    spell ``abbreviation``; None when no run of words does."""
    letters = [c.casefold() for c in abbreviation if c.isalpha()]
    if len(letters) < 2 or len(letters) != len([c for c in abbreviation if c != "&"]):
        return None  # "(A4)", "(B12)": a code, no abbreviation of words
    words = list(_WORD.finditer(before))
    for count in range(1, len(letters) + MAX_EXTRA_WORDS + 1):
        if count > len(words):
            break
        run = words[-count:]
        spelled = [
            letter
            for k, m in enumerate(run)
            if not (k > 0 and m.group().casefold() in _SKIPPED)
            for letter in _initials(m.group())
        ]
        if spelled == letters:
            if run[0].group().casefold() in _SKIPPED:
                return None
            return run[0].start(), before[run[0].start() :].strip()
    return None


def abbreviation_claims(
    text: str,
    sentences: Sequence[tuple[int, int]],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> list[Claim]:
    """One claim for each abbreviation ``text`` defines."""
    if "(" not in text:
        return []
    make_id = stable_id_maker("cl", source_version_id, generation, "expansion")
    claims: list[Claim] = []
    for s0, s1 in sentences:
        seen: set[tuple[str, str]] = set()
        for match in _DEFINED.finditer(text, s0, s1):
            abbreviation = match.group(1)
            found = long_form(text[s0 : match.start()].rstrip(), abbreviation)
            if found is None:
                continue
            offset, words = found
            if (abbreviation, words.casefold()) in seen:
                continue  # defined twice in one sentence: one claim (its id is the sentence's)
            seen.add((abbreviation, words.casefold()))
            claims.append(
                phrase_claim(
                    text,
                    (s0, s1),
                    entity=abbreviation.casefold(),
                    attribute=ATTRIBUTE,
                    kind=ValueKind.CATEGORICAL,
                    value=words,
                    subject=abbreviation,
                    make_id=make_id,
                    provenance=(source_id, source_version_id, generation),
                    confidence=CONFIDENCE,
                )
            )
    return claims
