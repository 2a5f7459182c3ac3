"""Lexicons and word rules for value kinds beyond quantities (issue 12, point 4).

* event dates: a date after an event predicate ("was established in 1871") is the event's
  value, not the time the sentence holds;
* direction of change: a value after a change verb ("climbed 7%") is a change up or down;
  after "to" it stays a level ("rose to 5%");
* antonymic predicates: "declines" is "accept" with the opposite polarity, "closed" is
  "open" negated, so both sides of a pair share one key.

The data lives in ``data/value_kinds.yaml`` and ``data/antonyms.yaml``; this module only
reads word lists and answers questions about lowercase word sequences, so the assembly can
call it on any clause without spaCy objects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any

from claims.extraction.identity import phrase_tokens
from claims.extraction.keys import fold_word
from claims.extraction.resources import read_yaml
from claims.models import Bound, EffectiveTime, Polarity, TimeGranularity

# The quantity-only fields of a categorical or polarity claim.
NO_QUANTITY: dict[str, Any] = {
    "low": None,
    "high": None,
    "bound": Bound.EXACT,
    "approximate": False,
    "precision": None,
    "unit": None,
    "canonical_value": None,
    "canonical_low": None,
    "canonical_high": None,
    "canonical_unit": None,
    "dimension": None,
    "value_span": None,
}


def plain_statement() -> dict[str, Any]:
    """The fields of a claim stated plainly, as a label or relation read from one phrase:
    positive, no modality, no scope or qualifier words, no effective time, not reported
    speech (a fresh dict each call: the scope and the list are the claim's own)."""
    return {
        "polarity": Polarity.POSITIVE,
        "modality": None,
        "scope": {},
        "scope_residual": [],
        "time": EffectiveTime(),
        "reported_speech": False,
    }


@dataclass(frozen=True, slots=True)
class Lexicon:
    events: dict[tuple[str, ...], str]  # phrase words -> event id
    run_starts: frozenset[tuple[str, ...]]  # event phrases dated by a range's first day
    relative_words: frozenset[str]  # "eight months *later*": a step back or on, no date
    event_adverbs: frozenset[str]  # "It *originally* ran from ...": no part of the subject
    changes: dict[tuple[str, ...], str]  # phrase words -> "up" / "down"
    change_nouns: dict[str, str]
    level_prepositions: frozenset[str]
    verb_antonyms: dict[str, tuple[str, bool]]  # folded form -> (kept pole, flipped)
    adjective_antonyms: dict[str, tuple[str, bool]]  # folded phrase -> (kept pole, flipped)
    verb_forms: frozenset[str]  # lowercase surface forms of the antonym verbs
    longest_event: int
    longest_change: int
    participles: frozenset[str]
    adjective_endings: tuple[str, ...]
    event_firsts: frozenset[str]  # first words of event phrases (a cheap pre-filter)
    change_firsts: frozenset[str]


def _inflections(base: str, irregular: Sequence[str]) -> set[str]:
    """Base, -s, -ed and -ing forms of a regular verb, plus the listed irregular ones."""
    forms = {base, *irregular}
    if base.endswith("e"):
        forms |= {base + "s", base + "d", base[:-1] + "ing"}
    elif base.endswith(("s", "sh", "ch", "x", "z")):
        forms |= {base + "es", base + "ed", base + "ing"}
    elif base.endswith("y") and base[-2:-1] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    else:
        forms |= {base + "s", base + "ed", base + "ing"}
    return forms


def _poles(pairs: Sequence[Sequence[str]]) -> dict[str, tuple[str, bool]]:
    """word -> (kept pole of its group, opposite of it?). Pairs that share a word form one
    group: "reject" is the opposite of "accept" and of "approve", so "approve" sits with
    "accept" and "approved" / "rejected" compare like "accepted" / "rejected". A pair that
    would put a word on both sides of its group is left out."""
    side: dict[str, tuple[str, bool]] = {}
    for first, second in pairs:
        a, b = str(first), str(second)
        if a in side and b in side:
            continue  # both placed already (an agreeing or a contradictory repeat)
        if a in side:
            keep, flipped = side[a]
            side[b] = (keep, not flipped)
        elif b in side:
            keep, flipped = side[b]
            side[a] = (keep, not flipped)
        else:
            side[a], side[b] = (a, False), (a, True)
    return side


def _fold_phrase(phrase: str) -> str:
    return " ".join(fold_word(w) for w in phrase.split())


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    kinds = read_yaml("value_kinds.yaml")
    antonyms = read_yaml("antonyms.yaml")
    events = {
        phrase_tokens(str(p)): str(event)
        for event, phrases in kinds["events"].items()
        for p in phrases
    }
    changes = {
        tuple(str(p).split()): str(direction)
        for direction, phrases in kinds["changes"].items()
        for p in phrases
    }
    change_nouns = {
        str(w): str(direction) for direction, words in kinds["change_nouns"].items() for w in words
    }
    irregular = {str(k): [str(f) for f in v] for k, v in (antonyms.get("forms") or {}).items()}
    verb_antonyms: dict[str, tuple[str, bool]] = {}
    verb_forms: set[str] = set()
    for pole, (keep, flipped) in _poles(antonyms["verbs"]).items():
        forms = _inflections(pole, irregular.get(pole, ()))
        verb_forms |= forms
        for form in forms | {fold_word(f) for f in forms}:
            verb_antonyms.setdefault(form, (keep, flipped))
    adjective_antonyms: dict[str, tuple[str, bool]] = {}
    for keep, other in antonyms["adjectives"]:
        for phrase, flipped in ((str(keep), False), (str(other), True)):
            for form in (phrase, _fold_phrase(phrase)):
                adjective_antonyms.setdefault(form, (_fold_phrase(str(keep)), flipped))
    run_starts = frozenset(tuple(str(p).split()) for p in kinds["run_starts"])
    unlisted = [" ".join(p) for p in run_starts if p not in events]
    if unlisted:
        raise ValueError(f"value_kinds.yaml: run_starts not among the events: {unlisted}")
    return Lexicon(
        events=events,
        run_starts=run_starts,
        relative_words=frozenset(str(w) for w in kinds["relative_words"]),
        event_adverbs=frozenset(str(w) for w in kinds["event_adverbs"]),
        changes=changes,
        change_nouns=change_nouns,
        level_prepositions=frozenset(str(w) for w in kinds["level_prepositions"]),
        verb_antonyms=verb_antonyms,
        adjective_antonyms=adjective_antonyms,
        verb_forms=frozenset(verb_forms),
        longest_event=max(len(k) for k in events),
        longest_change=max(len(k) for k in changes),
        participles=frozenset(str(w) for w in kinds["participles"]),
        adjective_endings=tuple(str(e) for e in kinds["adjective_endings"]),
        event_firsts=frozenset(k[0] for k in events),
        change_firsts=frozenset(k[0] for k in changes),
    )


def is_property_word(word: str) -> bool:
    """Whether a lowercase word after a copula reads as an adjective or participle
    ("transferable", "liable", "graded", "taught") rather than a name ("German", "English")."""
    lex = lexicon()
    return (
        word in lex.participles
        or word in lex.adjective_antonyms
        or fold_word(word) in lex.adjective_antonyms
        or (len(word) > 4 and word.endswith(lex.adjective_endings))
    )


def find_phrase(
    words: Sequence[str],
    table: dict[tuple[str, ...], str],
    longest: int,
    firsts: frozenset[str],
    start: int = 0,
) -> tuple[int, int, str] | None:
    """The first (start, end, id) of a phrase of ``table`` in ``words`` (longest at a start)."""
    for i in range(start, len(words)):
        if words[i] not in firsts:
            continue
        for n in range(min(longest, len(words) - i), 0, -1):
            hit = table.get(tuple(words[i : i + n]))
            if hit is not None:
                return i, i + n, hit
    return None


def normalise_predicate(key_words: list[str]) -> tuple[list[str], bool]:
    """(key words, flipped): an antonym is replaced by the pole the key keeps.

    A predicative adjective is the whole key ("closed" -> "open", flipped). A verb opens
    the action ("declines card payments") and becomes its pole, so "accepts card payments"
    and "declines card payments" share the key "accept card payment".
    """
    lex = lexicon()
    whole = " ".join(key_words)
    if whole in lex.adjective_antonyms:
        keep, flipped = lex.adjective_antonyms[whole]
        return keep.split(), flipped
    phrase = " ".join(key_words[:2])  # a verb with its particle ("switch off the alarm")
    if len(key_words) > 2 and phrase in lex.adjective_antonyms:
        keep, flipped = lex.adjective_antonyms[phrase]
        return [*keep.split(), *key_words[2:]], flipped
    if key_words and key_words[0] in lex.verb_antonyms:
        keep, flipped = lex.verb_antonyms[key_words[0]]
        return [fold_word(keep), *key_words[1:]], flipped
    return key_words, False


def iso_value(first: date, last: date, granularity: TimeGranularity | None) -> str:
    """The date as precise as the text states it: "1871", "1970-05", "1970-05-03", or
    "first/last" for other spans (a quarter, a range)."""
    if granularity is TimeGranularity.YEAR and first.year == last.year:
        return f"{first.year:04d}"
    if granularity is TimeGranularity.MONTH and (first.year, first.month) == (
        last.year,
        last.month,
    ):
        return f"{first.year:04d}-{first.month:02d}"
    if first == last:
        return first.isoformat()
    return f"{first.isoformat()}/{last.isoformat()}"
