"""Lead-ins a clause opens with that say nothing of its subject ("According to the report,",
"Dear all:"): their tokens are dropped before the frame is read."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from claims.extraction.identity import (
    identity_words,
)
from claims.extraction.resources import read_yaml
from claims.extraction.roles import (
    _SUBJECT_PRONOUNS,
    CONTENT,
    MODAL,
    NEG,
    PIVOT,
    POSS,
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


def drop_lead_ins(roles: Roles, first: int, end: int) -> None:
    """Greetings and lead-ins never name a claim: "Hi all, the notice period ..." and
    "Friendly note ahead of the holidays: contractors are paid ..." lose their opening
    words in the sentence of tokens [first, end) (scope, label and time words stay)."""
    lower, role = roles.lower, roles.role
    while first < end and role[first] == PUNCT:
        first += 1
    if first == end:
        return
    salutations = identity_words().salutations
    if lower[first] in salutations:
        _drop_salutation(roles, first, end, salutations[lower[first]])
    opening = first
    if ":" in lower[first:end]:
        _drop_colon_lead_in(roles, first, end)
        # what follows the colon may open with its own time phrase
        opening = lower.index(":", first, end) + 1
    if opening < end:
        _drop_fronted_time(roles, opening, end)
    if "," in lower[first:end]:
        _drop_comma_lead_in(roles, first, end)
        _drop_fronted_before_pronoun(roles, first, end)


@dataclass(frozen=True)
class _LeadIns:
    openers: tuple[tuple[str, ...], ...]
    source_openers: tuple[tuple[str, ...], ...]
    sources: frozenset[str]
    firsts: frozenset[str]


@lru_cache(maxsize=1)
def _lead_ins() -> _LeadIns:
    data = read_yaml("lead_ins.yaml")

    def phrases(name: str) -> tuple[tuple[str, ...], ...]:
        try:
            found = tuple(tuple(str(w).casefold() for w in p) for p in data.get(name) or ())
        except TypeError as error:
            raise ValueError(
                f"lead_ins.yaml: {name}: each entry is a list of words ({error})"
            ) from error
        return tuple(sorted(found, key=len, reverse=True))

    openers, source_openers = phrases("openers"), phrases("source_openers")
    return _LeadIns(
        openers=openers,
        source_openers=source_openers,
        sources=frozenset(str(w).casefold() for w in data.get("sources") or ()),
        firsts=frozenset(p[0] for p in openers + source_openers),
    )


def _drop_comma_lead_in(roles: Roles, first: int, end: int) -> None:
    """ "Born in Lorne County, Ohio, Hale attended ...", "A graduate of Marston
    College, he was elected ...", "As of the 1991 census, Larwice had ...": the opening
    (lead_ins.yaml) runs to the last comma before the first verb, copula or value, and is
    not the subject; its dates and scope words stay."""
    lower, role = roles.lower, roles.role
    lead = _lead_ins()
    if lower[first] not in lead.firsts:
        return
    words = tuple(lower[first : min(end, first + 6)])
    opener = next((p for p in lead.openers if words[: len(p)] == p), None)
    needs_source = False
    if opener is None:
        opener = next((p for p in lead.source_openers if words[: len(p)] == p), None)
        needs_source = True
    if opener is None:
        return
    comma = -1
    for k in range(first + len(opener), end):
        if lower[k] == "," and role[k] in (SEP, PUNCT):
            comma = k
        elif role[k] in _CLAIMING:
            break
    if comma < 0 or comma + 1 >= end or role[comma + 1] in _CLAIMING:
        return  # no subject between the opening and what the sentence claims
    if needs_source and lead.sources.isdisjoint(lower[first:comma]):
        return
    for j in range(first, comma + 1):
        if role[j] in _LEAD_IN_WORDS:
            role[j] = STOP


def _drop_fronted_before_pronoun(roles: Roles, first: int, end: int) -> None:
    """ "The Parish Ledger in 2011, it had an estimated total population of 4,800",
    "Beside Kellmoor Field, it is one of just two public airfields": a
    phrase fronted before a comma and a subject pronoun that acts ("it had", "he served")
    describes or places the pronoun, which is the sentence's subject (the page's); the
    phrase's nouns are not. Its dates, values and scope words stay. A fronted part with its
    own copula, modal or negation ("The town is small, it has ...") is a clause of its own
    and keeps its words."""
    lower, role = roles.lower, roles.role
    for k in range(first + 1, end - 2):
        if lower[k] != "," or role[k] not in (SEP, PUNCT):
            continue
        if lower[k + 1] not in _SUBJECT_PRONOUNS or role[k + 2] not in _ACTING:
            continue
        if not _OWN_CLAUSE.isdisjoint(role[first:k]):
            return
        for j in range(first, k + 1):
            if role[j] in _LEAD_IN_WORDS:
                role[j] = STOP
        return


def _drop_fronted_time(roles: Roles, first: int, end: int) -> None:
    """ "From next week the nightly backup window is 90 minutes", "Starting in May the
    monthly fee is ...": a time phrase fronted without a comma runs into the subject's
    determiner; it says when, not what, so its words leave the subject (its dates stay)."""
    lower, role = roles.lower, roles.role
    if lower[first] not in _TIME_OPENERS:
        return
    for k in range(first + 1, min(end - 1, first + 6)):
        if lower[k] in _DETERMINERS:
            if k == first + 1 or _CLAIMING.isdisjoint(role[k + 1 : end]):
                return
            for j in range(first, k):
                if role[j] in _LEAD_IN_WORDS:
                    role[j] = STOP
            return
        if not (role[k] in (TIME, PREP) or lower[k] in _TIME_WORDS):
            return


_CLAIMING = frozenset({PIVOT, MODAL, VERB, NEG, VALUE})
_ACTING = frozenset({PIVOT, MODAL, VERB, NEG})  # "it had", "he was", "she did not"
_OWN_CLAUSE = frozenset({PIVOT, MODAL, NEG})  # a fronted part stating its own claim
_STATING = frozenset({VALUE, MODAL, NEG})  # a figure, an obligation or a denial
_TIME_OPENERS = frozenset({"from", "starting", "beginning", "effective", "until"})
_DETERMINERS = frozenset({"the", "all", "each", "every", "our", "your", "its", "their", "any"})
_TIME_WORDS = frozenset(
    {"next", "this", "last", "coming", "week", "month", "quarter", "year", "today",
     "tomorrow", "now", "then", "monday", "tuesday", "wednesday", "thursday", "friday",
     "spring", "summer", "autumn", "fall", "winter", "q1", "q2", "q3", "q4"}
)  # fmt: skip
# what a greeting or lead-in loses (its scope, label and time words are kept)
_LEAD_IN_WORDS = frozenset({CONTENT, VERB, PIVOT, STOP, POSS, PREP, SEP})


def _drop_salutation(
    roles: Roles, first: int, end: int, phrases: tuple[tuple[str, ...], ...]
) -> None:
    lower, role = roles.lower, roles.role
    for phrase in phrases:
        if tuple(lower[first : first + len(phrase)]) != phrase:
            continue
        stop = first + len(phrase)
        # "Hi all," / "Dear team," : the addressee runs to the first comma or line break
        for k in range(stop, min(end, stop + 6)):
            if lower[k] == "," or "\n" in lower[k]:
                stop = k + 1
                break
        for k in range(first, stop):
            if role[k] in _LEAD_IN_WORDS or role[k] == SCOPE:
                role[k] = STOP
        return


def _drop_colon_lead_in(roles: Roles, first: int, end: int) -> None:
    """ "Friendly note ahead of the holidays: ...", and a lead-in that tells why the rest
    is said ("After last week's outage, a reminder of what we promised our customers:
    Priority 1 tickets must get ... within 2 hours"): words before a colon that state no
    figure, obligation or negation, before a clause that states a figure of its own."""
    lower, role = roles.lower, roles.role
    for k in range(first, end):
        if lower[k] != ":" or role[k] not in (PUNCT, SEP):
            continue
        before, after = role[first:k], role[k + 1 : end]
        telling = _STATING.isdisjoint(before) and VALUE in after and not _ACTING.isdisjoint(after)
        if (_CLAIMING.isdisjoint(before) and not _CLAIMING.isdisjoint(after)) or telling:
            for j in range(first, k):
                if role[j] in _LEAD_IN_WORDS:
                    role[j] = STOP  # "ahead *of* the holidays:" must not start a qualifier
        return
