"""Which visible claims answer a question: the slot, the claims, and the entities it names.

Split from ``retrieval.answer`` (which applies the contract to what is found here). One
``Ask`` carries what every finder needs (the connection, one evidence loader, the parsed
question, the requester, scope and time) instead of ten parameters each. Finders read claim
rows and their sources only (``EvidenceLoader.claims_for_keys``) to choose the keys; the
full evidence of the chosen keys (edges, value groups, reviews) is loaded once, by
``evidence``.

Every read keeps to what the requester may see before anything is ranked, counted or cut
(the view-equivalence rule of docs/RETRIEVAL.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

from sqlalchemy import Connection

from claims.extraction.question_frames import kind_words
from claims.models import EntityRef, Requester
from claims.store.search import search_words
from retrieval.answer_type import AnswerType, dimension_of_unit, value_fits
from retrieval.answering import answering_attributes, counts_what_is_asked, entity_references
from retrieval.candidates import (
    EXACT_ENTITY,
    NAME_PART,
    PARTIAL_ENTITY,
    candidate_keys,
    entity_fit,
    name_words,
    question_fit,
    visible_keys,
)
from retrieval.evidence import AsOf, ClaimFact, EvidenceGroup, EvidenceLoader
from retrieval.status import value_key
from retrieval.subjects import (
    Named,
    as_their_pages_name_them,
    claim_entities,
    is_local,
    local_subjects,
    named_entities,
    named_in_passing,
    text_of,
)

MAX_KEY_WORDS_FOR_NARROWER = 8
MAX_PAGE_NAMED = 20  # page-named namesakes read beside the found slot (bounds the work)


class QuestionFrameLike(Protocol):
    """What the answer needs from ``claims.extraction.parse_question``."""

    @property
    def claim_key(self) -> str | None: ...
    @property
    def scope(self) -> dict[str, str]: ...
    @property
    def time(self) -> Any: ...


@dataclass(frozen=True)
class Ask:
    """One question as the finders read it: where, for whom, and what it asks."""

    conn: Connection
    loader: EvidenceLoader
    as_of: AsOf
    frame: QuestionFrameLike
    asked: AnswerType
    requester: Requester
    key: str
    scope: dict[str, str]
    start: date | None
    end: date | None
    asked_words: frozenset[str]

    @property
    def entity(self) -> str | None:
        return getattr(self.frame, "entity", None)

    @property
    def attribute(self) -> str:
        return getattr(self.frame, "attribute", None) or self.key

    @property
    def text(self) -> str:
        return str(getattr(self.frame, "text", "") or "")

    def visible(self, keys: list[str] | set[str]) -> EvidenceGroup:
        """The claims at ``keys`` the requester may see, at the asked time (rows only)."""
        return self.loader.claims_for_keys(sorted(set(keys))).narrow(self.requester, self.as_of)

    def holds(self, claim: ClaimFact) -> bool:
        """The claim holds in the asked time and does not contradict the asked scope."""
        return in_time(claim, self.start, self.end) and compatible(claim, self.scope)


@dataclass
class Found:
    """The claims that answer, the keys whose evidence decides them, the question's key
    words they state as qualifiers instead, the key they were found at, and the entities
    when the question fits several equally."""

    keys: list[str]
    claims: list[ClaimFact]
    extra: set[str] = field(default_factory=set)
    key: str = ""
    entities: list[EntityRef] = field(default_factory=list)


def evidence(ask: Ask, found: Found) -> tuple[EvidenceGroup, list[ClaimFact]]:
    """The full evidence of the found keys (one load), and the found claims as read there."""
    group = ask.loader.group_for_keys(found.keys).narrow(ask.requester, ask.as_of)
    return group, [group.claims[c.id] for c in found.claims if c.id in group.claims]


def in_time(claim: ClaimFact, start: date | None, end: date | None) -> bool:
    """Claims of unknown time are kept: unknown is not excluded, it is not guessed either."""
    if start is not None and claim.time_end is not None and claim.time_end < start:
        return False
    return not (end is not None and claim.time_start is not None and claim.time_start > end)


def compatible(claim: ClaimFact, scope: dict[str, str]) -> bool:
    """False when the claim states another value for a qualifier the question names."""
    return all(claim.scope.get(dim, value) == value for dim, value in scope.items())


def closest(
    candidates: list[ClaimFact], scope: dict[str, str], asked_words: set[str]
) -> list[ClaimFact]:
    """The candidates whose qualifiers fit the question best.

    A claim stating exactly the asked qualifiers beats one that states fewer (it is more
    specific) or more (it is about a narrower case than was asked); qualifier words that
    fit no dimension (``scope_residual``) count the same way. When no claim fits exactly,
    claims naming each asked qualifier beat claims that are silent about it.
    """
    exact = [
        c for c in candidates if set(c.scope) == set(scope) and set(c.scope_residual) <= asked_words
    ]
    if exact:
        return exact
    # a named qualifier says more than a stray word: "the median age in the town" (scope
    # median, the word "town") beats "65 years of age" for "the median age in Haverly"
    kept = candidates
    for dim, value in sorted(scope.items()):
        if any(c.scope.get(dim) == value for c in kept):
            kept = [c for c in kept if c.scope.get(dim) == value]
    return [c for c in kept if set(c.scope_residual) <= asked_words] or kept


def fitting(asked: AnswerType, claims: list[ClaimFact], attribute: str = "") -> list[ClaimFact]:
    """The claims whose value is of the kind the question asks for (a count for "how
    many", money for "how much does it cost"...): an incidental number never answers; nor
    does a count of something else ("202 households" for a population)."""
    return [
        c
        for c in claims
        if value_fits(asked, kind=c.kind, dimension=dimension_of_unit(c.canonical_unit))
        and (c.kind != "quantity" or counts_what_is_asked(attribute, c.unit))
    ]


# ----------------------------------------------------------------- the question's own key


def narrower_keys(key: str) -> list[str]:
    """Shorter keys made of the question key's words in order ("search output limit" ->
    "output limit", "search limit", ...): a bounded set of exact lookups, never a scan."""
    words = key.split()
    if len(words) < 2 or len(words) > MAX_KEY_WORDS_FOR_NARROWER:
        return []
    found = {
        " ".join(w for i, w in enumerate(words) if mask >> i & 1)
        for mask in range(1, 2 ** len(words) - 1)
    }
    return sorted(found)


def wider_keys(
    loader: EvidenceLoader, key: str, asked_words: set[str] | frozenset[str]
) -> list[str]:
    """Longer keys that name one of the question's qualifier words: "What is Acme's notice
    period?" (key ``notice period``, qualifier ``acme``) is about claims keyed ``acme notice
    period``. Found in the key's coarse block (a bounded indexed read of keys), never by a
    scan; the keys a qualifier word or two put before the key (``acme notice period``,
    ``acme uk notice period``) by an index seek each, so that they are found however many
    claims share the block (the block's read stops at ``MAX_BLOCK_ROWS``)."""
    if not asked_words:
        return []
    words = set(key.split())
    block = set(loader.keys_with_coarse_key(key.split()[-1]))
    block.update(loader.keys_present(_qualified_keys(key, asked_words)))
    return sorted(
        k for k in block if words < set(k.split()) and set(k.split()) - words & asked_words
    )


# qualifier words of a question put before its key one by one, and two by two when there
# are this many or fewer (in either order): a bounded number of index seeks
MAX_WORDS_FOR_PAIRS = 3


def _qualified_keys(key: str, asked_words: set[str] | frozenset[str]) -> set[str]:
    asked = sorted(asked_words - set(key.split()))
    keys = {f"{w} {key}" for w in asked}
    if len(asked) <= MAX_WORDS_FOR_PAIRS:
        keys |= {f"{a} {b} {key}" for a in asked for b in asked if a != b}
    return keys


def naming_most(
    claims: list[ClaimFact],
    key: str,
    asked_words: set[str] | frozenset[str],
    named: Named,
    entity: str | None = None,
) -> list[ClaimFact]:
    """The claims naming most of the asked qualifier words, in their key, qualifiers or
    the entity they are about (a page's subject for a sentence that names none).

    A claim whose entity fits the asked one names it, however many of its words it
    repeats: "Middleton died on 1 January 1787" names Arthur Middleton as much as "Arthur
    Edward Middleton (1891 - 1953)" does, and which name fits better is ``best_named``'s
    to weigh (``entity_fit``), not a count of words. A name fitting by its last word alone,
    or a word the sentence writes as a common noun ("the depot was built in 1929"), names
    only the words it states."""
    key_words = set(key.split())
    asked_entity = set((entity or "").replace(",", " ").split()) - key_words

    def count(claim: ClaimFact) -> int:
        words = set(claim.claim_key.split()) - key_words | set(claim.scope_residual)
        stated = named.get(claim.id)
        words |= set(text_of(stated).replace(",", " ").split())
        if (
            entity
            and stated
            and entity_fit(entity, stated) >= NAME_PART
            and _written_as_a_name(stated.text, claim.quote)
        ):
            words |= asked_entity
        return len(words & asked_words)

    best = max((count(c) for c in claims), default=0)
    return [c for c in claims if count(c) == best]


def addressed(ask: Ask) -> Found:
    """The visible claims at the question's key (or at keys made of its words) that hold
    in the asked scope and time.

    A question may put into its key a word the claims state as a qualifier ("interactive
    search output limit" vs claims keyed "output limit" with the qualifier "search"): when no
    visible claim has the question's key, claims at a shorter key made of its words count
    if they state every missing word as a qualifier. The other way round, a qualifier word
    of the question may be a key word of the claims (``wider_keys``).
    """
    key, loader, asked_words = ask.key, ask.loader, ask.asked_words
    wider = wider_keys(loader, key, asked_words)
    keys = {key, *wider}
    # the slot worded otherwise is the same slot: a population is also a census count
    for other in answering_attributes(key):
        more = wider_keys(loader, other, asked_words)
        keys |= {other, *more}
        wider = [*wider, *more]
    group = ask.visible(keys)
    found = [c for c in group.claims.values() if c.claim_key in keys and ask.holds(c)]
    if ask.entity and found:
        # a claim about another thing never answers, whatever key it shares ("deshon allyn
        # house built" is not the Pemberton House), and it does not outrank one that may
        named = named_entities(ask.conn, found, ask.entity)
        found = [c for c in found if entity_fit(ask.entity, named.get(c.id)) > 0]
        if wider:
            found = naming_most(found, key, asked_words, named, ask.entity)
    elif wider:
        found = naming_most(found, key, asked_words, {})
    if found:
        return Found(sorted(keys), found, set(), key)
    shorter = narrower_keys(key)
    if not shorter:
        return Found(sorted(keys), [], set(), key)
    group = ask.visible(shorter)
    wanted = set(key.split())
    found, extra = [], set()
    for claim in group.claims.values():
        if claim.claim_key not in shorter or not in_time(claim, ask.start, ask.end):
            continue
        missing = wanted - set(claim.claim_key.split())
        stated = set(claim.scope_residual) | {v.lower() for v in claim.scope.values()}
        if missing <= stated and compatible(claim, ask.scope):
            found.append(claim)
            extra |= missing & set(claim.scope_residual)
    if ask.entity and found:
        named = named_entities(ask.conn, found, ask.entity)
        found = [c for c in found if entity_fit(ask.entity, named.get(c.id)) > 0]
    return Found(sorted(shorter), found, extra, key)


def best_named(ask: Ask, claims: list[ClaimFact]) -> tuple[list[ClaimFact], list[EntityRef]]:
    """Among claims that name an entity, those naming the one that fits the asked name best
    ("giant steps" beats "giant steps (the boo radleys album)"), and the entities when
    several fit equally well (two films of one name: the question does not say which).
    Claims that name no entity stay: unknown is not excluded. A claim naming none on a page
    about the asked entity is about that page's subject (``named_entities``)."""
    entity = ask.entity
    if not entity:
        return claims, []
    named = named_entities(ask.conn, claims, entity)
    untitled = as_their_pages_name_them(ask.conn, claims, named)
    untitled |= named_in_passing(ask.conn, claims, named)
    fit = {c.id: entity_fit(entity, named.get(c.id)) for c in claims if named.get(c.id)}
    if not fit:
        return claims, []
    if max(fit.values()) == EXACT_ENTITY:
        # beside a page of the bare name, a titled one whose disambiguation the question
        # states in its words is the asked one too (issue 13: both sides named)
        words = search_words(ask.text)
        fit = {i: question_fit(entity, named.get(i), words) for i in fit}
    for claim_id in untitled & fit.keys():
        fit[claim_id] = min(fit[claim_id], PARTIAL_ENTITY)
    _surnames_fit_as_their_names(fit, named, claims)
    best = max(fit.values())
    _titles_agreeing_with_the_best(fit, named, claims, best)
    kept = [c for c in claims if c.id not in fit or fit[c.id] == best]
    entities = sorted({r for c in kept if c.id in fit and (r := named[c.id])}, key=text_of)
    return kept, entities if len(entities) > 1 else []


def _written_as_a_name(stated: str, quote: str) -> bool:
    """Whether a one-word entity is written as a name in its claim's sentence (capitalised:
    "Middleton died on ...", not "the depot was built"); a longer name always is."""
    words = name_words(stated)
    if len(words) != 1:
        return True
    return any(
        w[0].isupper() and w.casefold().startswith(words[0]) for w in _WRITTEN_WORD.findall(quote)
    )


_WRITTEN_WORD = re.compile(r"[^\W\d_][\w'-]*")


def _surnames_fit_as_their_names(
    fit: dict[str, float], named: Named, claims: list[ClaimFact]
) -> None:
    """A name of one word that ends a fuller name fitting the question fits no better than
    that name (``fit`` updated in place). "Tate was a Republican member of the House" names
    its subject by the surname a text uses after the first mention; beside "Democratic Sen.
    Elena Brandt" the ledger cannot tell whether they are one senator or two, so neither
    outranks the other and the answer names both (a conflict when their values differ, or
    one namesake each when the ledger tells them apart). A longer name never loses to the
    bare surname it ends with, and a name the question states exactly keeps its fit. The
    fuller name must fit by more than its last word (a first name or title the question
    states, ``NAME_PART`` or better): "Gmina Larwice" ends with "Larwice" but names the
    commune around the town, and "Larwice" keeps its own fit beside it."""
    fuller: dict[str, float] = {}  # a last word -> the best fit of a longer name ending so
    for claim_id, value in fit.items():
        own = named.get(claim_id)
        words = name_words(own.name) if own is not None else ()  # its qualifier and page apart
        if len(words) > 1 and value >= NAME_PART:
            fuller[words[-1]] = max(fuller.get(words[-1], 0.0), value)
    if not fuller:
        return
    quotes = {c.id: c.quote for c in claims}
    for claim_id, value in fit.items():
        words = name_words(text_of(named.get(claim_id)))
        if (
            len(words) == 1
            and _written_as_a_name(words[0], quotes.get(claim_id, ""))
            and words[0] in fuller
            and value < EXACT_ENTITY
            and words[0] not in kind_words()  # "the depot" is what it is, not a name
            and words[0] not in entity_references()
        ):
            fit[claim_id] = min(value, fuller[words[0]])


def _titles_agreeing_with_the_best(
    fit: dict[str, float], named: Named, claims: list[ClaimFact], best: float
) -> None:
    """A titled name ("X (disambiguation)") that states the value a best-fitting claim
    states is the same thing under its page's title (``fit`` and ``named`` updated in place):
    its claims fit as well and are named as the best claim's entity. A scraped copy of an
    article reads its subject bare ("KWLT ( 1340 kHz , is an AM station broadcasting a
    Classic Country format") and outranks the article "KWLT (AM)" that states the same
    format; a second copy of that article stating another format is then a side of the
    answer, not a namesake set aside. Only a stored reference made of the best claim's name
    and a qualifier is read so (a titled namesake with a value of its own stays aside, and
    one that agrees on a value names the same thing as far as the ledger can tell); a
    bracket that is part of a name is no qualifier."""
    by_value: dict[tuple[str, ...], EntityRef] = {}  # a value a best claim states -> its entity
    for claim in claims:
        if fit.get(claim.id) == best and (own := named.get(claim.id)) is not None:
            by_value.setdefault(value_key(claim), own)
    same: dict[EntityRef, EntityRef] = {}  # a titled name -> the best entity it agrees with
    for claim in claims:
        name = named.get(claim.id)
        if name is None or fit.get(claim.id, best) >= best:
            continue
        if name.qualifier is None or is_local(name):
            continue
        agreed = by_value.get(value_key(claim))
        if agreed is not None and name_words(agreed.text) == name_words(name.name):
            same[name] = agreed
    for claim in claims:
        name = named.get(claim.id)
        if name is not None and name in same:
            fit[claim.id] = best
            named[claim.id] = same[name]


# ----------------------------------------------------------------- candidate keys


def found_by_candidates(ask: Ask, referring: set[str]) -> Found | None:
    """The best candidate keys of ``retrieval.candidates`` (by entity, attribute similarity
    and quote search, visible claims only) whose visible claims have a value of the asked
    kind. Keys that tie for best and name different entities are read together: the
    question does not say which."""
    generation = ask.loader.generation()
    if generation is None:
        return None
    attribute, entity = ask.attribute, ask.entity
    candidates = candidate_keys(
        ask.conn,
        entity=entity,
        attribute=attribute,
        attribute_class=getattr(ask.frame, "coarse_key", None),
        words=search_words(ask.text),
        asked=ask.asked,
        generation=generation,
        groups=ask.requester.groups,
        qualifiers=ask.asked_words,
    )
    entity_words = set((entity or "").replace(",", " ").split())
    slot = {attribute, *answering_attributes(attribute)}
    for rank, candidate in enumerate(candidates):
        if candidate.claim_key == ask.key:
            continue
        tied = [
            c
            for c in candidates[rank:]
            if c.score == candidate.score and c.entity != candidate.entity
        ]
        keys = [candidate.claim_key, *(c.claim_key for c in tied)]
        # one slot worded two ways ("population" and the census count) is read as one
        if candidate.attribute in slot:
            keys += [
                c.claim_key
                for c in candidates
                if c.attribute in slot and c.entity == candidate.entity
            ]
        group = ask.visible(keys)
        found = fitting(
            ask.asked,
            [c for c in group.claims.values() if c.claim_key in keys and ask.holds(c)],
            attribute,
        )
        if not found:
            continue
        stated = {c.claim_key for c in found}
        entities = sorted(
            {c.ref for c in [candidate, *tied] if c.ref and c.claim_key in stated}, key=text_of
        )
        narrowed = closest(found, ask.scope, set(ask.asked_words) - entity_words | referring)
        return Found(sorted(set(keys)), narrowed, set(), candidate.claim_key, entities)
    return None


def stated_key(ask: Ask) -> Found | None:
    """The claims keyed by the question's own words about its entity, when nothing else
    answered: in "Which storage sizes is the Kestrel K2 available in?" the parse takes
    "kestrel k2 available" for the entity, which is the key of "The Kestrel K2 is available
    in 16 GB, 32 GB and 64 GB versions"; the asked words ("storage sizes") describe the
    values rather than select a slot. One exact lookup of a key of several words; a value
    with no unit and no label (a bare number) never answers this way, nor does a yes/no."""
    entity = ask.entity
    if not entity or len(entity.split()) < 2:
        return None
    group = ask.visible([entity])
    found = [
        c
        for c in group.claims.values()
        if c.claim_key == entity
        and ask.holds(c)
        and (c.kind == "categorical" or (c.kind == "quantity" and c.unit))
    ]
    if not found:
        return None
    return Found([entity], closest(found, ask.scope, set()), set(), entity)


def found_slot(ask: Ask, referring: set[str]) -> Found:
    """The claims that answer: first the question's own key (as before); when no visible
    claim there has a value of the asked kind, the candidate keys, best first; then the
    question's own words as a key."""
    from retrieval.evidence_rank import found_by_evidence  # issue 32: office questions
    from retrieval.table_cells import found_in_table, with_other_documents  # issue 32

    table = found_in_table(ask)
    own = addressed(ask)
    matching = fitting(ask.asked, own.claims, ask.attribute)
    if table is not None:  # the cell, and what other documents say of the same slot
        return with_other_documents(ask, table, own, matching, found_by_evidence(ask))
    if matching:
        kept, entities = best_named(ask, matching)
        return Found(own.keys, kept, own.extra, ask.key, entities)
    return (
        found_by_candidates(ask, referring)
        or stated_key(ask)
        or found_by_evidence(ask)
        or Found(own.keys, [], set(), ask.key)
    )


def find(ask: Ask, referring: set[str]) -> Found:
    """``found_slot``, with the subjects known only as named in one page read beside a
    found slot that names its entity no better than they do.

    A late-read subject ("walter john price (in doc03)": no title tells it from its
    namesakes) is as likely the asked one as a titled namesake or a shortened name
    ("walter brice (footballer, born 1896)", "hale" for "General Hale"): its claim of
    the asked attribute is read beside them, and when the values differ the answer names
    both (issue 13). Beside a claim naming exactly the asked entity it stays out, as a
    titled namesake does. Found in the attribute's block of keys (one indexed read)."""
    found = found_slot(ask, referring)
    entity = ask.entity
    if not entity or not found.claims:
        return found
    named = claim_entities(ask.conn, [c.id for c in found.claims])
    fits = {c.id: entity_fit(entity, named.get(c.id)) for c in found.claims if named.get(c.id)}
    if not fits or max(fits.values()) == EXACT_ENTITY:
        return found
    attribute = ask.attribute
    answering = {c.claim_key for c in found.claims}
    beside: dict[str, EntityRef] = {}  # key -> its page-local entity
    generation = ask.loader.generation()
    for slot in sorted({attribute, *answering_attributes(attribute)}):
        coarse = slot.split()[-1]
        block = set(ask.loader.keys_with_coarse_key(coarse))
        for other, subject in local_subjects(ask.conn, generation, coarse, slot).items():
            if other in block and other not in answering and entity_fit(entity, subject) > 0:
                beside[other] = subject
    # only keys the requester may see are counted toward the bound, so which of them are
    # read never depends on hidden claims (issue 13, point 3)
    shown = visible_keys(ask.conn, beside, generation=generation, groups=ask.requester.groups)
    beside = {k: v for k, v in beside.items() if k in shown}
    if not beside:
        return found
    read = sorted(beside)[:MAX_PAGE_NAMED]
    group = ask.visible(read)
    added = fitting(
        ask.asked,
        [c for c in group.claims.values() if c.claim_key in beside and ask.holds(c)],
        attribute,
    )
    if not added:
        return found
    best = max(fits.values())
    stated = {r for i, fit in fits.items() if fit == best and (r := named[i])} | {
        beside[c.claim_key] for c in added
    }
    return Found(
        sorted({*found.keys, *read}),
        [*found.claims, *added],
        found.extra,
        found.key,
        sorted(stated | set(found.entities), key=text_of),
    )
