"""Small tests of a clause's shape the claim readers share (label-shaped, passive, a
fronted place, comparison phrases, list qualifiers...)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, cast

from claims.extraction.clauses import _trailing_openers
from claims.extraction.frames import _WORDLESS, Frame, _joined
from claims.extraction.keys import basis_count, fold_word
from claims.extraction.mentions import Mentions, QuantityMention, TimeMention
from claims.extraction.resources import read_yaml
from claims.extraction.roles import (
    CONTENT,
    LABEL,
    MODAL,
    NEG,
    PIVOT,
    PREP,
    PUNCT,
    SCOPE,
    SEP,
    STOP,
    TIME,
    VALUE,
    VERB,
    Roles,
)
from claims.extraction.value_kinds import (
    is_property_word,
    iso_value,
    lexicon,
)
from claims.models import (
    Claim,
    EffectiveTime,
    TimeGranularity,
    ValueKind,
)
from claims.trusted import trusted
from claims.units.counted import counted_unit

_UNCOUNTED = ("time", "data", "percent", "mass", "length", "volume", "area", "temperature")


def _counts_things(dimension: str | None) -> bool:
    """True for counted units (tokens, API calls, "members"), not measures or money."""
    if dimension is None:
        return True
    head = dimension.split("/")[0]
    return (
        head not in _UNCOUNTED
        and not head.isupper()
        and head not in ("frequency", "power", "dosage")
    )


def _list_item_unit(q: QuantityMention) -> str | None:
    """The unit that makes values items of one list ("16 GB, 32 GB and 64 GB": GB; a
    scale word is part of the number, so "£950m and £1.2bn" share £)."""
    return (q.unit_key or q.unit or "").casefold() or None


def _words_only_after(roles: Roles, idxs: Sequence[int], qi: int) -> bool:
    """Whether a list item's context has words after its value and none before it (the
    item starts at its separator: "and 64 GB versions"), so whatever it names is the
    list's shared noun."""
    role, info = roles.role, roles.info
    at = next((k for k, i in enumerate(idxs) if role[i] == VALUE and info[i] == qi), None)
    if at is None or at == len(idxs) - 1:
        return False
    if _states_own_predicate(roles, idxs, qi):
        return False  # "and 5,000 are men": the item states its own predicate
    before = idxs[:at]
    if before and (before[-1] != idxs[at] - 1 or any(role[i] not in _WORDLESS for i in before)):
        return False
    start = (before[0] if before else idxs[at]) - 1
    while start >= 0 and role[start] == PUNCT:
        start -= 1
    # the item follows a separator ("," "and" "or"), so it is not the list's first
    return start >= 0 and role[start] == SEP


def _states_own_predicate(roles: Roles, idxs: Sequence[int], qi: int) -> bool:
    """Whether a list item's value is followed by a copula ("13,665 are men"): the item
    says what it counts, so its words name no noun shared with the list's other items."""
    role, info = roles.role, roles.info
    at = next((k for k, i in enumerate(idxs) if role[i] == VALUE and info[i] == qi), None)
    if at is None:
        return False
    while at < len(idxs) and role[idxs[at]] == VALUE and info[idxs[at]] == qi:
        at += 1
    return at < len(idxs) and role[idxs[at]] == PIVOT


# What stands between two items of one list: a comma, semicolon or slash and a
# coordinating "and" / "or" ("£12, £15 and £20"; a currency sign is in the value's span).
_LIST_JOINER = re.compile(r"\s*(?:[,;/]\s*)?(?:(?:and|or)\s+)?", re.IGNORECASE)


def _share_list_qualifiers(claims: list[Claim], text: str) -> list[Claim]:
    """Items of one list share what the sentence says once for all of them: "Parking
    permits at the Leeds office cost £12, £15 and £20 a month" states the office and the
    month for every price, not the office for the first and the month for the last.
    A run of claims with one key and one unit whose values only list joiners separate
    gets the union of their qualifiers; a run whose items name different values of one
    qualifier ("£10 for adults, £5 for children") is left as it is."""
    if len(claims) < 2:
        return claims
    runs: list[list[Claim]] = [[claims[0]]]
    for claim in claims[1:]:
        last = runs[-1][-1]
        joined = (
            claim.claim_key == last.claim_key
            and claim.kind is ValueKind.QUANTITY
            and last.kind is ValueKind.QUANTITY
            and (claim.unit or "").casefold() == (last.unit or "").casefold()
            and claim.value_span is not None
            and last.value_span is not None
            and last.value_span.end <= claim.value_span.start
            and _LIST_JOINER.fullmatch(text[last.value_span.end : claim.value_span.start])
            is not None
        )
        if joined:
            runs[-1].append(claim)
        else:
            runs.append([claim])
    for run in runs:
        if len(run) < 2 or _contrasted_pair(run, text):
            continue
        scope: dict[str, str] = {}
        if any(scope.setdefault(dim, v) != v for c in run for dim, v in c.scope.items()):
            continue
        residual = list(dict.fromkeys(w for c in run for w in c.scope_residual))
        for claim in run:
            claim.scope = dict(scope)
            claim.scope_residual = list(residual)
    return claims


def _contrasted_pair(run: list[Claim], text: str) -> bool:
    """Two values joined by a comma and a conjunction are two statements, not a list of
    two ("The notice period is 30 days, and 60 days in the first year": the year is the
    second value's scope alone); a list of two is written without the comma ("£12 and £15
    a month"), and a comma before the last of three or more items is a list's."""
    if len(run) != 2:
        return False
    first, second = run[0].value_span, run[1].value_span
    assert first is not None and second is not None
    between = text[first.end : second.start]
    return "," in between and re.search(r"\b(?:and|or)\b", between, re.IGNORECASE) is not None


@lru_cache(maxsize=1)
def _comparison_phrases() -> dict[str, list[tuple[str, ...]]]:
    """The comparison idioms of ``data/comparisons.yaml`` by first word, longest first."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for number, phrase in enumerate(read_yaml("comparisons.yaml")["phrases"], start=1):
        words = phrase if isinstance(phrase, list) else []
        if not words or not all(isinstance(w, str) for w in words):
            raise ValueError(
                f"comparisons.yaml: phrases[{number}] must be a list of lower-case words"
            )
        by_first.setdefault(phrase[0], []).append(tuple(phrase))
    for phrases in by_first.values():
        phrases.sort(key=len, reverse=True)
    return by_first


def _without_comparisons(roles: Roles, idxs: list[int], qi: int) -> list[int]:
    """A value's context without a comparison idiom after the value and its benchmark
    ("£1.2bn, in line with the plan": the plan is no scope of the revenue), up to the
    next separator; kept when another value follows first ("compared with £4m")."""
    by_first = _comparison_phrases()
    lower, role, info = roles.lower, roles.role, roles.info
    seen_value = False
    for k, i in enumerate(idxs):
        if role[i] == VALUE and info[i] == qi:
            seen_value = True
            continue
        if not seen_value or lower[i] not in by_first:
            continue
        for phrase in by_first[lower[i]]:
            n = len(phrase)
            if tuple(lower[j] for j in idxs[k : k + n]) != phrase or idxs[k + n - 1] != i + n - 1:
                continue
            end = k + n
            stops = (SEP, VALUE)
            while end < len(idxs) and role[idxs[end]] not in stops and lower[idxs[end]] != ";":
                end += 1
            if end < len(idxs) and role[idxs[end]] == VALUE:
                return idxs
            return idxs[:k] + idxs[end:]
    return idxs


def _fronted_place(role: list[int], lead: Sequence[int]) -> bool:
    """A lead-in that is one prepositional phrase naming a place or a source ("On Rotten
    Tomatoes", "In the United States"): no time, value or verb in it, a content word."""
    if not lead or role[lead[0]] != PREP:
        return False
    kinds = {role[i] for i in lead}
    return CONTENT in kinds and not kinds & {TIME, VALUE, VERB, PIVOT, MODAL, NEG}


def _has_subject(roles: Roles, own: Sequence[int]) -> bool:
    """Whether an item's own words before its value include a content word (a subject);
    a relative clause (", which assigns a rating out of 100") has none of its own."""
    role = roles.role
    if own and roles.lower[own[0]] in _trailing_openers():
        return False
    for i in own:
        if role[i] == VALUE:
            return False
        if role[i] == CONTENT:
            return True
    return False


def _basis_counts(
    roles: Roles, a: int, values: Sequence[int], mentions: Mentions, contexts: list[list[int]]
) -> dict[int, str]:
    """The values of a clause that count what another figure rests on ("a rating of 23%
    based on 123 reviews"), each with the noun it counts; the basis phrase ("based on",
    "based on reviews from") leaves every context, so it is in no value's key."""
    out: dict[int, str] = {}
    for qi in values:
        q = mentions.quantities[qi]
        at = bisect_left(roles.idx, q.cue_start)
        basis = basis_count(roles.lower, at, a)
        if basis is None or not (basis.counted or _counted_dimension(q)):
            continue  # "based on 2019 figures": a year, no count
        out[qi] = fold_word(basis.counted or cast(str, q.unit))
        phrase = range(basis.start, at)
        for idxs in contexts:
            idxs[:] = [i for i in idxs if i not in phrase]
    return out


def _key_basis_count(frame: Frame, counted: str, figure: Frame | None) -> None:
    """A basis count is keyed by what it counts, under the entity of the figure it rests
    on (the value before it), never as that figure ("123 reviews" is no rating)."""
    frame.attribute_words = [counted]
    # the words around it (the figure's verb, its site) qualify the figure, not the count
    frame.scope = {dim: v for dim, v in frame.scope.items() if dim == "period"}
    frame.residual = []
    if figure is not None and figure.entity_words:
        frame.entity_words = list(figure.entity_words)
        frame.entity_ref = figure.entity_ref
    frame.key_words = _joined(frame.entity_words, frame.attribute_words)


def _counted_dimension(q: QuantityMention) -> str | None:
    """``count:<noun>`` when a value counts a plain noun ("200 households"), else None."""
    if q.unit_key or not q.unit:
        return None
    entry = counted_unit(q.unit)
    return entry.dimension if entry is not None else None


def _claim(**fields: Any) -> Claim:
    """A ``Claim`` from every one of its fields (see ``claims.trusted``); a claim that names
    no entity or attribute (other scripts: the key is the folded text) states its key."""
    fields.setdefault("entity", None)
    fields.setdefault("attribute", fields["claim_key"])
    return trusted(Claim, fields)


_UNKNOWN_TIME = EffectiveTime()


def _copy_time(when: EffectiveTime) -> EffectiveTime:
    """A claim's own copy of its sentence's time (claims are mutable models)."""
    return trusted(
        EffectiveTime,
        {"start": when.start, "end": when.end, "granularity": when.granularity, "text": when.text},
    )


def _hyphen_compound(roles: Roles, i: int) -> bool:
    """Whether token ``i`` ends a hyphenated word ("Irish-born", "state-owned")."""
    return (
        i >= 2
        and roles.lower[i - 1] == "-"
        and roles.end[i - 1] == roles.idx[i]
        and roles.end[i - 2] == roles.idx[i - 1]
    )


def _name_ends(roles: Roles, previous: int, i: int) -> bool:
    """A lowercase word right after a capitalised one ends a name ("Choir gave")."""
    return roles.word(previous)[:1].isupper() and not roles.word(i)[:1].isupper()


def _month_day(words: Sequence[str], months: dict[str, int]) -> str:
    """ISO 8601 month-day ("--04-13") of a time expression naming a month and a day
    ("April 13", "13th April"), else ""."""
    month = next((months[w] for w in words if w in months), 0)
    days = [int(d) for w in words if (d := w.rstrip("stndrh")).isdigit() and 1 <= int(d) <= 31]
    if not month or len(days) != 1:
        return ""
    try:
        date(2000, month, days[0])  # a leap year: "February 29" is a day
    except ValueError:
        return ""
    return f"--{month:02d}-{days[0]:02d}"


def _after_name_bracket(roles: Roles, a: int, i: int) -> bool:
    """Whether token ``i`` sits in brackets opened right after a capitalised word ("Anna
    Pavlova (January 23, 1885)", "Mira (born Mira Dastur; 5 August 1974)")."""
    for k in range(i - 1, max(a, i - 12) - 1, -1):
        if roles.lower[k] in (")", "]"):
            return False
        if roles.lower[k] in ("(", "["):
            return k > a and roles.word(k - 1)[:1].isupper()
    return False


def _first_pivot_acts(roles: Roles, a: int, b: int) -> bool:
    """Whether the clause's first pivot is a possession or action verb (not a copula)."""
    first = next(i for i in range(a, b) if roles.role[i] == PIVOT)
    return roles.info[first] != "copula"


def _label_shaped(roles: Roles, a: int, b: int, allow_time: bool = False) -> bool:
    """Whether a copula clause has the shape "X is <label>" (a short subject, a few
    content words after the verb, no value, time or comparison). ``allow_time``: a
    statement verb's clause may say when ("announced the fixtures in June 2014")."""
    role = roles.role
    late = (LABEL, VALUE) if allow_time else (LABEL, VALUE, TIME)
    pivot_at = _pivot_char(roles, a, b)
    before = [i for i in range(a, b) if roles.idx[i] < pivot_at]
    after = [i for i in range(a, b) if roles.idx[i] > pivot_at]
    return not (
        len(before) > 8
        or any(role[i] in (SEP, LABEL, VALUE) for i in before)
        or any(role[i] in late for i in after)
        or not 1 <= sum(role[i] in (CONTENT, VERB) for i in after) <= 5
        or any(
            roles.lower[i] in ("too", "very", "than")
            or (roles.lower[i] == "to" and role[i] != STOP)
            for i in after
        )
    )


_COPULAS = frozenset({"is", "are", "was", "were", "be", "been", "being"})
# "the 1994 Miss Universe pageant", "their 2019 acquisition": a year after these words
# begins a name or describes a noun; "in 2009 Smith joined" dates the act
_NAME_DETERMINERS = frozenset({"the", "a", "an", "its", "his", "her", "their", "our"})
_ITEM_LEADS = frozenset({"with", "including", "plus"})  # ", with a total of 24 million"


def _event_value(t: TimeMention, month: int, day: int) -> str:
    """The ISO value of an event's date; "after 1987" is open-ended ("1988-01-01/")."""
    assert t.first is not None and t.last is not None
    first, last, granularity = t.first, t.last, t.granularity
    if month and granularity is TimeGranularity.YEAR:
        try:  # a month and day the time expression left out ("October 18 , 1984")
            first = last = date(first.year, month, day) if day else date(first.year, month, 1)
            granularity = TimeGranularity.DAY if day else TimeGranularity.MONTH
            if not day:
                last = date(first.year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
        except ValueError:
            first, last = t.first, t.last
    if t.role == "after":
        return f"{(last + timedelta(days=1)).isoformat()}/"
    if t.role == "from":
        return f"{first.isoformat()}/"
    if t.role == "before":
        return f"/{(first - timedelta(days=1)).isoformat()}"
    if t.role == "until":
        return f"/{last.isoformat()}"
    return iso_value(first, last, granularity)


def _passive_action(roles: Roles, idxs: Sequence[int]) -> tuple[list[str], list[str]] | None:
    """(verb + object, agent words) of "X is [not] <participle> by Y", else None."""
    role, lower = roles.role, roles.lower
    for k, i in enumerate(idxs[:-1]):
        if lower[idxs[k + 1]] != "by" or not (
            role[i] == VERB or (role[i] == PIVOT and roles.info[i] == "action")
        ):
            continue
        before = [lower[j] for j in idxs[:k]]
        if not _COPULAS.intersection(before):
            return None  # "the council approved by a vote": no passive
        copula = next(j for j in idxs[:k] if lower[j] in _COPULAS)
        subject = [
            fold_word(lower[j]) for j in idxs[:k] if j < copula and role[j] in (CONTENT, VERB)
        ]
        agent = [
            fold_word(lower[j])
            for j in idxs[k + 2 :]
            if role[j] in (CONTENT, SCOPE) and lower[j] not in _COPULAS
        ]
        if not agent or not subject:
            return None
        return [fold_word(lower[i]), *subject], agent
    return None


_CONTRAST_WORDS = frozenset({"other", "remaining"})
_PARTICLE_WORDS = frozenset({"on", "off"})


def _with_particle(roles: Roles, idxs: Sequence[int], action: list[str]) -> list[str]:
    """ "switched off" keeps its particle when the pair is in the antonym lexicon, so it
    is "switch on" denied rather than "switch" affirmed."""
    if not action:
        return action
    for k, i in enumerate(idxs[:-1]):
        if fold_word(roles.lower[i]) == action[0] and roles.lower[idxs[k + 1]] in _PARTICLE_WORDS:
            phrase = f"{action[0]} {roles.lower[idxs[k + 1]]}"
            if phrase in lexicon().adjective_antonyms:
                return [*phrase.split(), *action[1:]]
            break
    return action


def _action_with_verb(roles: Roles, idxs: Sequence[int], frame: Frame) -> list[str]:
    """The action words of a polarity claim, led by its verb however the clause was split:
    "approved the extension", "did not approve the extension" and "rejected the
    extension" all become "approve extension" (the antonym's pole is applied later)."""
    words = list(frame.action_words)
    if not words:
        return words
    at = [k for k, i in enumerate(idxs) if fold_word(roles.lower[i]) == words[0]]
    for i in reversed(idxs[: at[-1] + 1] if at else ()):
        r = roles.role[i]
        if r == VERB or (r == PIVOT and roles.info[i] in ("action", "possession")):
            verb = fold_word(roles.lower[i])
            if verb not in words[:1]:
                words.insert(0, verb)
            break
        if r in (NEG, MODAL, PIVOT, SEP):
            break  # the verb is right before the action; the subject lies beyond these
    return words


def _predicate_shape(roles: Roles, a: int, b: int) -> str:
    """What a copula's predicate states: "property" (an adjective or participle: "is
    transferable", "is taught in English"), "class" (an indefinite noun: "is a
    prerequisite", both a label of the subject and a property) or "label" ("is German
    law": the subject names the attribute, the predicate its value)."""
    pivot_at = _pivot_char(roles, a, b)
    role, lower = roles.role, roles.lower
    after = [i for i in range(a, b) if roles.idx[i] > pivot_at]
    for k, i in enumerate(after):
        if role[i] not in (CONTENT, VERB):
            continue
        if k and lower[after[k - 1]] in ("a", "an"):
            return "class"
        if roles.word(i)[:1].isupper():
            return "label"  # a name ("English", "Delaware") after the copula
        return "property" if is_property_word(lower[i]) else "label"
    return "label"


def _pivot_char(roles: Roles, a: int, b: int) -> int:
    for i in range(a, b):
        if roles.role[i] in (PIVOT, MODAL):
            return roles.idx[i]
    return roles.idx[b - 1] + 1
