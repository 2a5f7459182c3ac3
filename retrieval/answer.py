"""The answer contract (seed 004): ``answer(question, requester)``.

1. The question is parsed by the same extraction that reads sources
   (``claims.extraction.parse_question``) into a claim key, scope and time.
2. The claims at that key the requester may see, holding in the asked scope and time, are
   the candidates. A scope the question names excludes claims stating another value for
   that qualifier; a claim that states the asked qualifier beats one that states none.
3. Superseded claims drop out (register and lineage supersession, as of the asked date),
   then claims a visible resolution decided against.
4. An unresolved material conflict or an ambiguous relation among what remains gives
   ``conflict`` with every side cited and ``value`` null; several values with no recorded
   relation also give ``conflict`` (we never pick one). One value left: ``answered``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, select

from claims.errors import InputError
from claims.extraction.answer_type import (
    AnswerType,
    dimension_of_unit,
    expected_answer_type,
    value_fits,
)
from claims.extraction.question_frames import (
    answering_attributes,
    counted_by,
    counts_what_is_asked,
    entity_references,
)
from claims.models import ConflictStatus, Requester
from claims.store.search import search_words
from claims.tables import ClaimRow
from retrieval.candidates import (
    _NAMED_IN_PAGE,
    EXACT_ENTITY,
    candidate_keys,
    entity_fit,
    question_fit,
    visible_keys,
)
from retrieval.contract import Answer, AnswerStatus, AsOfOut
from retrieval.evidence import NOW, AsOf, ClaimFact, EvidenceGroup, EvidenceLoader, ResolutionFact
from retrieval.listed import Statement, list_sides, statements
from retrieval.signals import Decision, decision, with_signals
from retrieval.status import sides_of, value_key
from retrieval.verdicts import Verdict, evaluate

MAX_QUESTION_CHARS = 1000
CLONE_RULE = "clone"  # claims.edges.verdict.Rule.CLONE: one sentence under several source ids


class QuestionFrameLike(Protocol):
    """What the answer needs from ``claims.extraction.parse_question``."""

    @property
    def claim_key(self) -> str | None: ...
    @property
    def scope(self) -> dict[str, str]: ...
    @property
    def time(self) -> Any: ...


def check_question(question: str, limit: int = MAX_QUESTION_CHARS) -> str:
    """The question, stripped; InputError if it is empty, huge or not readable text.

    Any script is accepted (the extractor reads Japanese, Arabic, Tamil... claims by folded
    text); control, private-use and unassigned characters are refused.
    """
    text = question.strip()
    if not text:
        raise InputError("the question is empty; ask e.g. 'What is the output limit?'")
    if len(text) > limit:
        raise InputError(f"the question has {len(text)} characters; the limit is {limit}")
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Co", "Cn", "Cs"):
            raise InputError(
                f"the question contains U+{ord(char):04X} ({category}), which is not text; "
                "remove it"
            )
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise InputError("the question has no words; ask e.g. 'What is the output limit?'")
    return text


def answer(
    store: Engine | Connection,
    question: str,
    requester: Requester,
    as_of: AsOf = NOW,
    *,
    max_chars: int = MAX_QUESTION_CHARS,
) -> Answer:
    """Answer ``question`` for ``requester`` from the claims it may see (seed-004 contract)."""
    text = check_question(question, max_chars)
    from claims.extraction import parse_question  # the same extraction that read the sources

    return answer_frame(store, parse_question(text), requester, question=text, as_of=as_of)


def _interval(frame: QuestionFrameLike) -> tuple[date | None, date | None]:
    time = getattr(frame, "time", None)
    if time is None:
        return None, None
    return getattr(time, "start", None), getattr(time, "end", None)


def _in_time(claim: ClaimFact, start: date | None, end: date | None) -> bool:
    """Claims of unknown time are kept: unknown is not excluded, it is not guessed either."""
    if start is not None and claim.time_end is not None and claim.time_end < start:
        return False
    return not (end is not None and claim.time_start is not None and claim.time_start > end)


def _compatible(claim: ClaimFact, scope: dict[str, str]) -> bool:
    """False when the claim states another value for a qualifier the question names."""
    return all(claim.scope.get(dim, value) == value for dim, value in scope.items())


def _closest(
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
    # median, the word "town") beats "65 years of age" for "the median age in Fort Kent"
    kept = candidates
    for dim, value in sorted(scope.items()):
        if any(c.scope.get(dim) == value for c in kept):
            kept = [c for c in kept if c.scope.get(dim) == value]
    return [c for c in kept if set(c.scope_residual) <= asked_words] or kept


MAX_KEY_WORDS_FOR_NARROWER = 8


def _narrower_keys(key: str) -> list[str]:
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


def _wider_keys(loader: EvidenceLoader, key: str, asked_words: set[str]) -> list[str]:
    """Longer keys that name one of the question's qualifier words: "What is Acme's notice
    period?" (key ``notice period``, qualifier ``acme``) is about claims keyed ``acme notice
    period``. Found in the key's coarse block (one indexed read of keys), never by a scan."""
    if not asked_words:
        return []
    words = set(key.split())
    return [
        k
        for k in loader.keys_with_coarse_key(key.split()[-1])
        if words < set(k.split()) and set(k.split()) - words & asked_words
    ]


def _naming_most(claims: list[ClaimFact], key: str, asked_words: set[str]) -> list[ClaimFact]:
    """The claims naming most of the asked qualifier words, in their key or qualifiers."""

    def named(claim: ClaimFact) -> int:
        words = set(claim.claim_key.split()) - set(key.split()) | set(claim.scope_residual)
        return len(words & asked_words)

    best = max((named(c) for c in claims), default=0)
    return [c for c in claims if named(c) == best]


def _addressed(
    conn: Connection,
    as_of: AsOf,
    requester: Requester,
    key: str,
    scope: dict[str, str],
    start: date | None,
    end: date | None,
    asked_words: set[str],
    entity: str | None = None,
) -> tuple[EvidenceGroup, list[ClaimFact], set[str]]:
    """The narrowed group, the visible claims the question addresses, and the question's
    key words those claims state as qualifiers instead (when the key itself has none).

    A question may put into its key a word the claims state as a qualifier ("interactive
    search output limit" vs claims keyed "output limit" with the qualifier "search"): when no
    visible claim has the question's key, claims at a shorter key made of its words count
    if they state every missing word as a qualifier. The other way round, a qualifier word
    of the question may be a key word of the claims (``_wider_keys``).
    """
    loader = EvidenceLoader(conn, as_of)
    wider = _wider_keys(loader, key, asked_words)
    keys = {key, *wider}
    # the slot worded otherwise is the same slot: a population is also a census count
    for other in answering_attributes(key):
        keys |= {other, *_wider_keys(loader, other, asked_words)}
        wider = [*wider, *_wider_keys(loader, other, asked_words)]
    group = loader.group_for_keys(sorted(keys)).narrow(requester, as_of)
    addressed = [
        c
        for c in group.claims.values()
        if c.claim_key in keys and _in_time(c, start, end) and _compatible(c, scope)
    ]
    if entity and addressed:
        # a claim about another thing never answers, whatever key it shares ("deshon allyn
        # house built" is not the Allyn House), and it does not outrank one that may
        named = _claim_entities(conn, [c.id for c in addressed])
        addressed = [c for c in addressed if entity_fit(entity, named.get(c.id)) > 0]
    if wider:
        addressed = _naming_most(addressed, key, asked_words)
    if addressed:
        return group, addressed, set()
    shorter = _narrower_keys(key)
    if not shorter:
        return group, [], set()
    group = loader.group_for_keys(shorter).narrow(requester, as_of)
    wanted = set(key.split())
    addressed, extra = [], set()
    for claim in group.claims.values():
        if claim.claim_key not in shorter or not _in_time(claim, start, end):
            continue
        missing = wanted - set(claim.claim_key.split())
        stated = set(claim.scope_residual) | {v.lower() for v in claim.scope.values()}
        if missing <= stated and _compatible(claim, scope):
            addressed.append(claim)
            extra |= missing & set(claim.scope_residual)
    if entity and addressed:
        named = _claim_entities(conn, [c.id for c in addressed])
        addressed = [c for c in addressed if entity_fit(entity, named.get(c.id)) > 0]
    return group, addressed, extra


def _best_named(
    conn: Connection, entity: str | None, claims: list[ClaimFact], question: str = ""
) -> tuple[list[ClaimFact], list[str]]:
    """Among claims that name an entity, those naming the one that fits the asked name best
    ("giant steps" beats "giant steps (the boo radleys album)"), and the entities when
    several fit equally well (two films of one name: the question does not say which).
    Claims that name no entity stay: unknown is not excluded."""
    if not entity:
        return claims, []
    named = _claim_entities(conn, [c.id for c in claims])
    fit = {c.id: entity_fit(entity, named.get(c.id)) for c in claims if named.get(c.id)}
    if not fit:
        return claims, []
    if max(fit.values()) == EXACT_ENTITY:
        # beside a page of the bare name, a titled one whose disambiguation the question
        # states in its words is the asked one too (issue 13: both sides named)
        words = search_words(question)
        fit = {i: question_fit(entity, named.get(i), words) for i in fit}
    best = max(fit.values())
    kept = [c for c in claims if c.id not in fit or fit[c.id] == best]
    entities = sorted({str(named[c.id]) for c in kept if c.id in fit})
    return kept, entities if len(entities) > 1 else []


def _claim_entities(conn: Connection, ids: list[str]) -> dict[str, str | None]:
    """The entity each claim names (one indexed read by primary key)."""
    found: dict[str, str | None] = {}
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = conn.execute(select(ClaimRow.id, ClaimRow.entity).where(ClaimRow.id.in_(chunk)))
        found.update({row[0]: row[1] for row in rows})
    return found


def _fitting(asked: AnswerType, claims: list[ClaimFact], attribute: str = "") -> list[ClaimFact]:
    """The claims whose value is of the kind the question asks for (a count for "how
    many", money for "how much does it cost"...): an incidental number never answers; nor
    does a count of something else ("202 households" for a population)."""
    return [
        c
        for c in claims
        if value_fits(asked, kind=c.kind, dimension=dimension_of_unit(c.canonical_unit))
        and (c.kind != "quantity" or counts_what_is_asked(attribute, c.unit))
    ]


def _found(
    conn: Connection,
    as_of: AsOf,
    frame: QuestionFrameLike,
    asked: AnswerType,
    requester: Requester,
    key: str,
    scope: dict[str, str],
    start: date | None,
    end: date | None,
    asked_words: set[str],
) -> tuple[EvidenceGroup, list[ClaimFact], set[str], str, list[str]]:
    """The group and claims that answer the question, the extra qualifier words, the key
    they were found at, and the entities when the question fits several equally.

    First the question's own key (as before); when no visible claim there has a value of the
    asked kind, the candidate keys of ``retrieval.candidates`` (by entity, attribute
    similarity and quote search, visible claims only), best first. Keys that tie for best
    and name different entities are read together: the question does not say which.
    """
    entity = getattr(frame, "entity", None)
    group, addressed, extra = _addressed(
        conn, as_of, requester, key, scope, start, end, asked_words, entity
    )
    attribute = getattr(frame, "attribute", None) or key
    fitting = _fitting(asked, addressed, attribute)
    if fitting:
        fitting, entities = _best_named(
            conn, entity, fitting, str(getattr(frame, "text", "") or "")
        )
        return group, fitting, extra, key, entities
    loader = EvidenceLoader(conn, as_of)
    generation = loader.generation()
    if generation is None:
        return group, [], set(), key, []
    candidates = candidate_keys(
        conn,
        entity=entity,
        attribute=attribute,
        attribute_class=getattr(frame, "coarse_key", None),
        words=search_words(str(getattr(frame, "text", "") or "")),
        asked=asked,
        generation=generation,
        groups=requester.groups,
        qualifiers=asked_words,
    )
    entity_words = set((entity or "").replace(",", " ").split())
    referring = set(entity_references()) if entity else set()
    referring |= {w for other in answering_attributes(attribute) for w in other.split()}
    for rank, candidate in enumerate(candidates):
        if candidate.claim_key == key:
            continue
        tied = [
            c
            for c in candidates[rank:]
            if c.score == candidate.score and c.entity != candidate.entity
        ]
        keys = [candidate.claim_key, *(c.claim_key for c in tied)]
        # one slot worded two ways ("population" and the census count) is read as one
        slot = {attribute, *answering_attributes(attribute)}
        if candidate.attribute in slot:
            keys += [
                c.claim_key
                for c in candidates
                if c.attribute in slot and c.entity == candidate.entity
            ]
        group = loader.group_for_keys(sorted(set(keys))).narrow(requester, as_of)
        addressed = _fitting(
            asked,
            [
                c
                for c in group.claims.values()
                if c.claim_key in keys and _in_time(c, start, end) and _compatible(c, scope)
            ],
            attribute,
        )
        if not addressed:
            continue
        stated = {c.claim_key for c in addressed}
        entities = sorted(
            {c.entity for c in [candidate, *tied] if c.entity and c.claim_key in stated}
        )
        narrowed = _closest(addressed, scope, asked_words - entity_words | referring)
        return group, narrowed, set(), candidate.claim_key, entities
    own_words = _stated_key(loader, requester, as_of, entity, scope, start, end)
    if own_words is not None:
        return own_words
    return group, [], set(), key, []


MAX_PAGE_NAMED = 20  # page-named namesakes read beside the found slot (bounds the work)


def _beside_page_named(
    conn: Connection,
    as_of: AsOf,
    frame: QuestionFrameLike,
    asked: AnswerType,
    requester: Requester,
    key: str,
    scope: dict[str, str],
    start: date | None,
    end: date | None,
    asked_words: set[str],
) -> tuple[EvidenceGroup, list[ClaimFact], set[str], str, list[str]]:
    """``_found``, with the subjects known only as named in one page read beside a found
    slot that names its entity no better than they do.

    A late-read subject ("walter john price (in doc03)": no title tells it from its
    namesakes) is as likely the asked one as a titled namesake or a shortened name
    ("walter price (footballer, born 1896)", "schultz" for "General Schultz"): its claim of
    the asked attribute is read beside them, and when the values differ the answer names
    both (issue 13). Beside a claim naming exactly the asked entity it stays out, as a
    titled namesake does. Found in the attribute's block of keys (one indexed read)."""
    found = _found(conn, as_of, frame, asked, requester, key, scope, start, end, asked_words)
    group, addressed, extra, found_key, entities = found
    entity = getattr(frame, "entity", None)
    if not entity or not addressed:
        return found
    named = _claim_entities(conn, [c.id for c in addressed])
    fits = {c.id: entity_fit(entity, named.get(c.id)) for c in addressed if named.get(c.id)}
    if not fits or max(fits.values()) == EXACT_ENTITY:
        return found
    attribute = getattr(frame, "attribute", None) or key
    loader = EvidenceLoader(conn, as_of)
    held = {c.claim_key for c in group.claims.values()}
    answering = {c.claim_key for c in addressed}
    beside: dict[str, str] = {}  # key -> its page-named entity
    for slot in sorted({attribute, *answering_attributes(attribute)}):
        for other in loader.keys_with_coarse_key(slot.split()[-1]):
            subject = other[: -len(slot) - 1] if other.endswith(" " + slot) else ""
            if (
                other not in answering
                and _NAMED_IN_PAGE.search(subject)
                and entity_fit(entity, subject) > 0
            ):
                beside[other] = subject
    # only keys the requester may see are counted toward the bound, so which of them are
    # read never depends on hidden claims (issue 13, point 3)
    shown = visible_keys(conn, beside, generation=loader.generation(), groups=requester.groups)
    beside = {k: v for k, v in beside.items() if k in shown}
    if not beside:
        return found
    keys = sorted({*held, *sorted(beside)[:MAX_PAGE_NAMED]})
    wider = loader.group_for_keys(keys).narrow(requester, as_of)
    added = _fitting(
        asked,
        [
            c
            for c in wider.claims.values()
            if c.claim_key in beside and _in_time(c, start, end) and _compatible(c, scope)
        ],
        attribute,
    )
    if not added:
        return found
    best = max(fits.values())
    stated = {str(named[i]) for i, fit in fits.items() if fit == best} | {
        beside[c.claim_key] for c in added
    }
    return wider, [*addressed, *added], extra, found_key, sorted(stated | set(entities))


def _stated_key(
    loader: EvidenceLoader,
    requester: Requester,
    as_of: AsOf,
    entity: str | None,
    scope: dict[str, str],
    start: date | None,
    end: date | None,
) -> tuple[EvidenceGroup, list[ClaimFact], set[str], str, list[str]] | None:
    """The claims keyed by the question's own words about its entity, when nothing else
    answered: in "Which storage sizes is the Kestrel K2 available in?" the parse takes
    "kestrel k2 available" for the entity, which is the key of "The Kestrel K2 is available
    in 16 GB, 32 GB and 64 GB versions"; the asked words ("storage sizes") describe the
    values rather than select a slot. One exact lookup of a key of several words; a value
    with no unit and no label (a bare number) never answers this way, nor does a yes/no."""
    if not entity or len(entity.split()) < 2:
        return None
    group = loader.group_for_keys([entity]).narrow(requester, as_of)
    addressed = [
        c
        for c in group.claims.values()
        if c.claim_key == entity
        and _in_time(c, start, end)
        and _compatible(c, scope)
        and (c.kind == "categorical" or (c.kind == "quantity" and c.unit))
    ]
    if not addressed:
        return None
    return group, _closest(addressed, scope, set()), set(), entity, []


def asked_type(frame: QuestionFrameLike, question: str) -> AnswerType:
    """The answer type a question frame set ("when was X born": date), else the one its
    question word and attribute ask for."""
    framed = getattr(frame, "answer_type", None)
    if framed:
        return AnswerType(framed)
    return expected_answer_type(question, getattr(frame, "attribute", None) or frame.claim_key)


def _describe(side_values: list[tuple[Any, str | None]]) -> str:
    return " vs ".join(
        f"{value} {unit}".strip() if unit else f"{value}" for value, unit in side_values
    )


def answer_frame(
    store: Engine | Connection,
    frame: QuestionFrameLike,
    requester: Requester,
    *,
    question: str,
    as_of: AsOf = NOW,
) -> Answer:
    """The answer for an already parsed question (the part of ``answer`` after parsing)."""
    start, end = _interval(frame)
    key = frame.claim_key
    if as_of.effective is None and (start or end):
        # "... in 2019": which versions replace which, and which register entries are in
        # force, as at the end of the asked period; claims are matched by overlap instead.
        as_of = replace(as_of, reference=end or start)
    as_of_out = AsOfOut(effective=as_of.effective or as_of.reference, known_at=as_of.known_at)

    deciding: Decision | None = None
    clones: list[tuple[str, str]] = []  # surface-clone edges among the visible claims

    def result(status: AnswerStatus, reason: str, **fields: Any) -> Answer:
        made = Answer(
            question=question,
            status=status,
            value=fields.pop("value", None),
            unit=fields.pop("unit", None),
            citations=fields.pop("citations", []),
            reason=reason,
            claim_key=key,
            as_of=as_of_out,
            **fields,
        )
        if status is AnswerStatus.NOT_FOUND:
            return made
        if isinstance(store, Engine):
            with store.connect() as conn:
                made = with_signals(conn, made, deciding, clones)
        else:
            made = with_signals(store, made, deciding, clones)
        if made.status is not AnswerStatus.ANSWERED and made.values is not None:
            made = made.model_copy(update={"values": None})  # too few origins: no list
        return made

    if not key:
        return result(AnswerStatus.NOT_FOUND, "the question names no subject and predicate")
    scope = dict(frame.scope or {})
    asked_words = set(getattr(frame, "scope_residual", None) or [])
    # "the median age in the town": the town is the asked entity, not a qualifier
    referring = set(entity_references()) if getattr(frame, "entity", None) else set()
    asked = asked_type(frame, question)
    attribute = getattr(frame, "attribute", None) or key
    # "as of the census of 2010, there were 5,000 people": the census is the asked slot
    referring |= {w for other in answering_attributes(attribute) for w in other.split()}
    ask = (requester, key, scope, start, end, asked_words)
    if isinstance(store, Engine):
        with store.connect() as conn:
            found = _beside_page_named(conn, as_of, frame, asked, *ask)
    else:
        found = _beside_page_named(store, as_of, frame, asked, *ask)
    group, addressed, extra, key, entities = found
    if not addressed:
        return result(
            AnswerStatus.NOT_FOUND,
            f"no visible claim addresses {frame.claim_key!r} with a {asked.value} value",
        )
    asked_words |= extra
    verdicts = evaluate(group)
    live = [c for c in addressed if verdicts[c.id].superseded_by is None]
    if not live:
        return result(
            AnswerStatus.NOT_FOUND,
            f"every visible claim about {key!r} is superseded by a version that states no value",
        )
    chosen = _closest(live, scope, asked_words | referring)
    if asked is AnswerType.STANCE:
        chosen += _opposite_stances(chosen, live)
    chosen += _disputed_beside(chosen, live, verdicts)
    remaining_claims = [c for c in chosen if not _decided_against(verdicts[c.id], group.claims)]
    if not remaining_claims:
        return result(
            AnswerStatus.NOT_FOUND,
            f"the visible claims about {key!r} lost a resolution to claims that no longer hold",
        )
    if start is None and end is None:
        if isinstance(store, Engine):
            with store.connect() as conn:
                remaining_claims = _latest_of_each(conn, remaining_claims, entities)
        else:
            remaining_claims = _latest_of_each(store, remaining_claims, entities)
    remaining_claims = [_as_stated(_as_asked_count(c, attribute)) for c in remaining_claims]
    # Only relations among the claims that answer this question decide it: an edge to a
    # claim of another scope or key says nothing about the asked case.
    ids = {c.id for c in remaining_claims}
    local = evaluate(
        replace(
            group,
            edges=[e for e in group.edges if e.left in ids and e.right in ids],
            value_groups={c: g for c, g in group.value_groups.items() if c in ids},
        )
    )
    remaining = [local[c.id] for c in remaining_claims]
    for verdict in remaining:
        verdict.resolution = verdict.resolution or verdicts[verdict.claim.id].resolution
    policy = _policy(remaining)
    clones = [(e.left, e.right) for e in group.edges if e.rule == CLONE_RULE]
    applied = _deciding(remaining)
    if applied is not None:
        if isinstance(store, Engine):
            with store.connect() as conn:
                deciding = decision(conn, applied.id)
        else:
            deciding = decision(store, applied.id)
    if isinstance(store, Engine):
        with store.connect() as conn:
            listed = statements(conn, remaining_claims)
    else:
        listed = statements(store, remaining_claims)
    if listed is not None:
        return _listed_answer(listed, key, entities, policy, result)
    sides = sides_of(remaining_claims)  # as the question counts them ("428 people": 428)
    citations = [sid for side in sides for sid in side.source_ids]
    unique_citations = list(dict.fromkeys(citations))
    values = _describe([(s.value, s.unit) for s in sides])
    unresolved = [
        v for v in remaining if v.status in (ConflictStatus.CONTESTED, ConflictStatus.UNDER_REVIEW)
    ]
    if unresolved:
        in_review = any(v.status is ConflictStatus.UNDER_REVIEW for v in unresolved)
        return result(
            AnswerStatus.CONFLICT,
            f"unresolved conflict about {key!r}: {values}"
            + ("; a reviewer is deciding it" if in_review else "; no resolution applies"),
            citations=unique_citations,
            sides=sides,
            policy_version=policy,
        )
    if any(v.status is ConflictStatus.AMBIGUOUS for v in remaining):
        return result(
            AnswerStatus.CONFLICT,
            f"the evidence about {key!r} is ambiguous (units or scope cannot be reconciled): "
            f"{values}",
            citations=unique_citations,
            sides=sides,
            policy_version=policy,
        )
    if len(sides) > 1 and len(entities) > 1:
        return result(
            AnswerStatus.CONFLICT,
            "the question does not say which it means: "
            + " or ".join(repr(e) for e in entities)
            + f" ({values}); name one to get its value",
            citations=unique_citations,
            sides=sides,
            policy_version=policy,
        )
    if len(sides) > 1:
        return result(
            AnswerStatus.CONFLICT,
            f"the visible claims about {key!r} state different values ({values}) and no "
            "resolution or qualifier in the question separates them",
            citations=unique_citations,
            sides=sides,
            policy_version=policy,
        )
    side = sides[0]
    how = deciding.wording() if deciding else ("resolved by review" if policy else "one value")
    if any(v.superseded_by is not None for v in (verdicts[c.id] for c in addressed)):
        how += ", older versions superseded"
    return result(
        AnswerStatus.ANSWERED,
        f"{how}: {_describe([(side.value, side.unit)])} from {len(side.citations)} claim(s)",
        value=side.value,
        unit=side.unit,
        citations=side.source_ids,
        sides=sides,
        policy_version=policy,
    )


def _listed_answer(
    found: list[Statement],
    key: str,
    entities: list[str],
    policy: str | None,
    result: Callable[..., Answer],
) -> Answer:
    """The answer when a sentence lists several values for the asked slot: the list when
    every statement states the same set, else a conflict with each set as a side. Items
    of one list never conflict with each other, so the edges among them do not decide."""
    sides = list_sides(found)
    citations = list(dict.fromkeys(sid for side in sides for sid in side.source_ids))
    values = _describe([(s.value, s.unit) for s in sides])
    if len(sides) > 1:
        which = (
            "the question does not say which it means: "
            + " or ".join(repr(e) for e in entities)
            + f" ({values}); name one to get its list"
            if len(entities) > 1
            else f"the visible sources list different values for {key!r} ({values}) and no "
            "resolution or qualifier in the question separates them"
        )
        return result(
            AnswerStatus.CONFLICT, which, citations=citations, sides=sides, policy_version=policy
        )
    side = sides[0]
    return result(
        AnswerStatus.ANSWERED,
        f"one list of {len(side.values or [])} values: {_describe([(side.value, side.unit)])} "
        f"from {len(side.citations)} claim(s)",
        value=side.value,
        unit=side.unit,
        values=side.values,
        citations=side.source_ids,
        sides=sides,
        policy_version=policy,
    )


def _disputed_beside(
    chosen: list[ClaimFact], live: list[ClaimFact], verdicts: dict[str, Verdict]
) -> list[ClaimFact]:
    """Claims set aside only for stray words ("went up in May, mostly in the support team")
    that the edges hold to disagree with a chosen claim: same scope, same slot, so the
    disagreement is the answer. A claim of another scope (the Q1 dividend beside the
    dividend for the period) stays aside, and so does a number: a word beside a number
    often narrows what is counted ("residents under the age of 18"), where beside a stated
    direction or label it is a trailing remark."""
    ids = {c.id for c in chosen}
    scopes = [c.scope for c in chosen]
    return [
        c
        for c in live
        if c.id not in ids
        and c.kind in ("categorical", "polarity")
        and c.scope in scopes
        and (verdicts[c.id].contested_with | verdicts[c.id].ambiguous_with) & ids
    ]


def _opposite_stances(chosen: list[ClaimFact], live: list[ClaimFact]) -> list[ClaimFact]:
    """For a yes/no question, claims of the other polarity that the closest-qualifier rule
    set aside: "permits are not transferable" denies "permits are transferable between
    employees" as much as the unqualified "permits are transferable" (a general no holds
    in every narrower case), so both stay and the answer names both sides."""
    stances = {c.polarity for c in chosen if c.kind == "polarity"}
    if not stances:
        return []
    return [
        c for c in live if c not in chosen and c.kind == "polarity" and c.polarity not in stances
    ]


def _as_stated(claim: ClaimFact) -> ClaimFact:
    """A negated claim shows its negation: "not transferable", never a bare
    "transferable" quoted from "parking permits are not transferable"."""
    if claim.kind != "polarity" or claim.polarity != "negative" or not claim.value_text:
        return claim
    return replace(claim, value_text=f"not {claim.value_text}")


def _as_asked_count(claim: ClaimFact, attribute: str) -> ClaimFact:
    """ "428 people" answers "what is the population" as the number 428: the noun says what
    the question's attribute already counts, so it is not a unit that sets a value apart
    from a bare "the population was 428"."""
    if (
        claim.kind != "quantity"
        or not claim.unit
        or not answering_attributes(attribute)
        or not counted_by(attribute, claim.unit)
    ):
        return claim
    return replace(claim, unit=None, canonical_unit=None, canonical_value=None)


def _latest_of_each(
    conn: Connection, claims: list[ClaimFact], entities: list[str]
) -> list[ClaimFact]:
    """``_latest`` for each of the namesakes a question does not tell apart: a township's
    2010 count says nothing of its namesake's, whose own latest value is still a side
    ("young america township, edgar county, illinois" 726 in 2010 does not make the Carver
    County township's 838 and 1,200 history). Claims naming none of them are read together."""
    if len(entities) < 2:
        return _latest(claims)
    named = _claim_entities(conn, [c.id for c in claims])
    by_entity: dict[str, list[ClaimFact]] = {}
    for claim in claims:
        by_entity.setdefault(str(named.get(claim.id)), []).append(claim)
    unnamed = [c for c in claims if str(named.get(c.id)) not in entities]
    kept = {c.id for c in _latest(unnamed)} if unnamed else set()
    for entity in entities:
        kept |= {c.id for c in _latest(by_entity.get(entity, []))}
    return [c for c in claims if c.id in kept]


def _latest(claims: list[ClaimFact]) -> list[ClaimFact]:
    """A question that names no time asks about now. When the claims state different values
    at different known times ("1,066 at the 2010 census, up from 630 at the 2000 census"),
    the values of the latest known time speak for now; the older ones are history, not a
    disagreement. Claims of unknown time are kept (unknown is not excluded)."""
    if len({value_key(c) for c in claims}) < 2:
        return claims
    dated = [c for c in claims if c.time_start is not None or c.time_end is not None]
    ends = {c.time_end or c.time_start for c in dated}
    if len(ends) < 2:
        return claims
    newest = max(dated, key=lambda c: (c.time_end or c.time_start, c.time_start or c.time_end))
    since = newest.time_start or newest.time_end
    assert since is not None
    return [c for c in claims if c not in dated or (c.time_end or c.time_start) >= since]  # type: ignore[operator]


def _decided_against(verdict: Verdict, claims: dict[str, ClaimFact]) -> bool:
    """A resolution decides a value: claims stating a winner's value are not losers.

    Whatever the claim's overall status: a loser that also has an unrelated ambiguous edge
    (the Q2 dividend, another scope) is still decided against by its conflict set's
    resolution (issue 14.8).
    """
    resolution = verdict.resolution
    if resolution is None or resolution.outcome != "resolved" or not resolution.winners:
        return False
    winning = {value_key(claims[w]) for w in resolution.winners if w in claims}
    return value_key(verdict.claim) not in winning


def _deciding(verdicts: list[Verdict]) -> ResolutionFact | None:
    """The newest resolution applied to the answering claims, if any."""
    applied = [v.resolution for v in verdicts if v.resolution is not None]
    if not applied:
        return None
    return max(applied, key=lambda r: (r.decided_at, r.id))


def _policy(verdicts: list[Verdict]) -> str | None:
    applied = _deciding(verdicts)
    return applied.policy_version if applied else None
