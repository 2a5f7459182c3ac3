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
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from sqlalchemy import Connection, Engine

from claims.edges.compare import multi_valued_predicates
from claims.errors import InputError
from claims.models import ConflictStatus, EntityRef, Requester
from claims.profiles import name_forms_for
from claims.store.search import searches_remembered
from claims.store.sources import profiles_in_use
from retrieval.answer_type import AnswerType, expected_answer_type
from retrieval.answering import answering_attributes, counted_by, entity_references
from retrieval.contract import Answer, AnswerStatus, AsOfOut, Side
from retrieval.disputes import edge_held
from retrieval.evidence import (
    NOW,
    AsOf,
    ClaimFact,
    EvidenceGroup,
    EvidenceLoader,
    ResolutionFact,
)
from retrieval.finding import (
    MAX_PAGE_NAMED,
    Ask,
    Found,
    QuestionFrameLike,
    closest,
    evidence,
    find,
)
from retrieval.listed import Statement, list_sides, statements
from retrieval.name_forms import names_read_as
from retrieval.namesakes import told_apart
from retrieval.sentence_figures import paired_by_respectively
from retrieval.signals import Decision, decision, with_signals
from retrieval.status import sides_of, value_key
from retrieval.subjects import entities_about
from retrieval.taught_questions import with_taught_synonyms
from retrieval.verdicts import Verdict, evaluate

__all__ = ["MAX_PAGE_NAMED", "answer", "answer_frame", "asked_type", "check_question"]

MAX_QUESTION_CHARS = 1000
CLONE_RULE = "clone"  # claims.edges.verdict.Rule.CLONE: one sentence under several source ids


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
    profile: str | None = None,
) -> Answer:
    """Answer ``question`` for ``requester`` from the claims it may see (seed-004 contract).
    ``profile``: whose name forms to match names by (None: the profiles of the store's
    sources, ``claims.profiles``)."""
    text = check_question(question, max_chars)
    from claims.extraction import parse_question  # the same extraction that read the sources

    frame = parse_question(text)
    return answer_frame(store, frame, requester, question=text, as_of=as_of, profile=profile)


def _interval(frame: QuestionFrameLike) -> tuple[date | None, date | None]:
    time = getattr(frame, "time", None)
    if time is None:
        return None, None
    return getattr(time, "start", None), getattr(time, "end", None)


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
    profile: str | None = None,
) -> Answer:
    """The answer for an already parsed question (the part of ``answer`` after parsing)."""
    if isinstance(store, Engine):
        with store.connect() as conn:
            return answer_frame(
                conn, frame, requester, question=question, as_of=as_of, profile=profile
            )
    frame = with_taught_synonyms(store, frame)  # the words reviewers taught (issue 32.4)
    profiles = {profile} if profile else profiles_in_use(store)
    # one answer's readers search the quotes for the same words: each search is made once
    with names_read_as(name_forms_for(profiles)), searches_remembered():
        return _answer_frame(store, frame, requester, question=question, as_of=as_of)


@dataclass
class _Reply:
    """Makes the ``Answer`` of one question (its question, key and time), with the signals of
    the resolution that decided it and the surface clones among its claims."""

    conn: Connection
    question: str
    key: str | None
    as_of: AsOfOut
    deciding: Decision | None = None
    clones: list[tuple[str, str]] = field(default_factory=list)  # surface-clone edges

    def __call__(self, status: AnswerStatus, reason: str, **fields: Any) -> Answer:
        made = Answer(
            question=self.question,
            status=status,
            value=fields.pop("value", None),
            unit=fields.pop("unit", None),
            citations=fields.pop("citations", []),
            reason=reason,
            claim_key=self.key,
            as_of=self.as_of,
            **fields,
        )
        if status is AnswerStatus.NOT_FOUND:
            return made
        made = with_signals(self.conn, made, self.deciding, self.clones)
        if made.status is not AnswerStatus.ANSWERED and made.values is not None:
            made = made.model_copy(update={"values": None})  # too few origins: no list
        return made


@dataclass
class _Answering:
    """The claims that answer a question after supersession, resolutions and disputes, with
    their verdicts among themselves (``remaining``) and over the whole evidence."""

    group: EvidenceGroup
    addressed: list[ClaimFact]
    verdicts: dict[str, Verdict]
    claims: list[ClaimFact]
    remaining: list[Verdict]


def _answer_frame(
    conn: Connection,
    frame: QuestionFrameLike,
    requester: Requester,
    *,
    question: str,
    as_of: AsOf,
) -> Answer:
    start, end = _interval(frame)
    if as_of.effective is None and (start or end):
        # "... in 2019": which versions replace which, and which register entries are in
        # force, as at the end of the asked period; claims are matched by overlap instead.
        as_of = replace(as_of, reference=end or start)
    as_of_out = AsOfOut(effective=as_of.effective or as_of.reference, known_at=as_of.known_at)
    result = _Reply(conn, question, frame.claim_key, as_of_out)
    ask, referring = _ask(conn, frame, requester, question, as_of, (start, end))
    if ask.key:
        found = find(ask, referring)
    else:
        # a question whose words name a table's row and column needs no key of its own
        from retrieval.table_cells import found_in_table

        in_table = found_in_table(ask)
        if in_table is None:
            return result(AnswerStatus.NOT_FOUND, "the question names no subject and predicate")
        found = in_table
    result.key = found.key
    if not found.claims:
        return result(
            AnswerStatus.NOT_FOUND,
            f"no visible claim addresses {frame.claim_key!r} with a {ask.asked.value} value",
        )
    answering = _answering(ask, found, referring)
    if isinstance(answering, str):
        return result(AnswerStatus.NOT_FOUND, answering)
    policy = _policy(answering.remaining)
    result.clones = [(e.left, e.right) for e in answering.group.edges if e.rule == CLONE_RULE]
    applied = _deciding(answering.remaining)
    if applied is not None:
        result.deciding = decision(conn, applied.id)
    return _decided(ask, frame, found, answering, policy, result)


def _ask(
    conn: Connection,
    frame: QuestionFrameLike,
    requester: Requester,
    question: str,
    as_of: AsOf,
    interval: tuple[date | None, date | None],
) -> tuple[Ask, set[str]]:
    """The question as the finders read it, and the words that refer to the asked entity or
    slot rather than qualify it."""
    asked_words = set(getattr(frame, "scope_residual", None) or [])
    # "the median age in the town": the town is the asked entity, not a qualifier
    referring = set(entity_references()) if getattr(frame, "entity", None) else set()
    attribute = getattr(frame, "attribute", None) or frame.claim_key or ""
    # "as of the census of 2010, there were 5,000 people": the census is the asked slot
    referring |= {w for other in answering_attributes(attribute) for w in other.split()}
    ask = Ask(
        conn=conn,
        loader=EvidenceLoader(conn, as_of),
        as_of=as_of,
        frame=frame,
        asked=asked_type(frame, question),
        requester=requester,
        key=frame.claim_key or "",
        scope=dict(frame.scope or {}),
        start=interval[0],
        end=interval[1],
        asked_words=frozenset(asked_words),
    )
    return ask, referring


def _answering(ask: Ask, found: Found, referring: set[str]) -> _Answering | str:
    """The claims that answer, read from the found keys' evidence (one full read): live,
    closest to the asked scope, not decided against, the latest when no time is asked, with
    the claims the ledger holds in dispute with them; or why none does."""
    key, entities, scope = found.key, found.entities, ask.scope
    asked_words = set(ask.asked_words) | found.extra
    group, addressed = evidence(ask, found)  # the one full read of the evidence
    verdicts = evaluate(group)
    live = [c for c in addressed if verdicts[c.id].superseded_by is None]
    if not live:
        return f"every visible claim about {key!r} is superseded by a version that states no value"
    chosen = _closest_of_each(ask.conn, live, entities, ask.entity, scope, asked_words | referring)
    if ask.asked is AnswerType.STANCE:
        chosen += _opposite_stances(chosen, live)
    chosen += _disputed_beside(chosen, live, verdicts)
    remaining_claims = [c for c in chosen if not _decided_against(verdicts[c.id], group.claims)]
    if not remaining_claims:
        return f"the visible claims about {key!r} lost a resolution to claims that no longer hold"
    if ask.start is None and ask.end is None:
        remaining_claims = _latest_of_each(ask.conn, remaining_claims, entities, ask.entity)
    # what the ledger holds in dispute with an answering claim is a side too (issue 13:
    # "the ledger holds both"), whatever key or page it was read under
    remaining_claims += [
        c
        for c in edge_held(ask, group, remaining_claims, verdicts)
        if not _decided_against(verdicts[c.id], group.claims)
    ]
    remaining_claims = [_as_stated(_as_asked_count(c, ask.attribute)) for c in remaining_claims]
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
    return _Answering(group, addressed, verdicts, remaining_claims, remaining)


def _decided(
    ask: Ask,
    frame: QuestionFrameLike,
    found: Found,
    answering: _Answering,
    policy: str | None,
    result: _Reply,
) -> Answer:
    """The answer the answering claims' verdicts decide: a list, namesakes answered apart,
    a conflict, several values at once, or one value."""
    conn, key, entities = ask.conn, found.key, found.entities
    group, addressed, verdicts = answering.group, answering.addressed, answering.verdicts
    remaining_claims, remaining = answering.claims, answering.remaining
    deciding = result.deciding
    listed = statements(conn, remaining_claims)
    if listed is not None and paired_by_respectively(remaining_claims):
        return result(
            AnswerStatus.NOT_FOUND,
            f"the sentence pairs its figures for {key!r} with as many things (respectively); "
            "the question does not say which",
        )
    if listed is not None:
        apart = (
            told_apart(
                conn,
                list_sides(listed),
                remaining_claims,
                group,
                ask.entity,
                ask.loader.generation(),
            )
            if len(entities) > 1
            else None
        )
        if apart is not None:
            return _per_namesake(apart, frame, entities, policy, result, "list")
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
    if len(sides) > 1 and _several_hold(remaining_claims):
        # "What does VCD refer to?": an abbreviation stands for several things at once, so
        # its expansions are the answer, each with its sources, not a conflict
        items = [s.value for s in sides]
        joined = "; ".join(str(v) for v in items)
        return result(
            AnswerStatus.ANSWERED,
            f"{key!r} holds several values at once: {joined}",
            value=joined,
            values=items,
            citations=unique_citations,
            sides=sides,
            policy_version=policy,
        )
    if len(sides) > 1 and len(entities) > 1:
        apart = told_apart(
            conn, sides, remaining_claims, group, ask.entity, ask.loader.generation()
        )
        if apart is not None:
            return _per_namesake(apart, frame, entities, policy, result, "value")
        return result(
            AnswerStatus.CONFLICT,
            "the question does not say which it means: "
            + " or ".join(repr(e.text) for e in entities)
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


def _several_hold(claims: list[ClaimFact]) -> bool:
    """Whether every claim states a label of a predicate that holds several labels at once
    (claims/edges/predicates.yaml ``multi_valued``: an abbreviation's ``expansion``)."""
    several = multi_valued_predicates()
    return bool(claims) and all(
        c.kind == "categorical" and not several.isdisjoint(c.claim_key.split()) for c in claims
    )


def _per_namesake(
    sides: list[Side],
    frame: QuestionFrameLike,
    entities: list[EntityRef],
    policy: str | None,
    result: Callable[..., Answer],
    what: str,
) -> Answer:
    """Namesakes the ledger tells apart, each answered on its own side (issue 13: two
    things of one name are two scopes, their values no conflict): ``value`` null, each side
    naming its entity, the reason giving every namesake's value."""
    name = getattr(frame, "entity", None) or entities[0].name
    each = "; ".join(f"{side.entity!r}: {_describe([(side.value, side.unit)])}" for side in sides)
    return result(
        AnswerStatus.ANSWERED,
        f"{len(sides)} things are called {name!r}; each has its own {what}: {each}; "
        "name one to get its " + what,
        citations=list(dict.fromkeys(sid for side in sides for sid in side.source_ids)),
        sides=sides,
        policy_version=policy,
    )


def _listed_answer(
    found: list[Statement],
    key: str,
    entities: list[EntityRef],
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
            + " or ".join(repr(e.text) for e in entities)
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


def _closest_of_each(
    conn: Connection,
    claims: list[ClaimFact],
    entities: list[EntityRef],
    asked: str | None,
    scope: dict[str, str],
    asked_words: set[str],
) -> list[ClaimFact]:
    """``closest`` for each of the namesakes a question does not tell apart: a qualifier
    one page states ("a member of the Varsenian royal family, was born on 3 September 1921")
    narrows that page's claims, not its namesake's, whose plain "was born in Lyon, on 10
    March 1919" would otherwise set it aside across two things. Claims naming none of them
    are read together."""
    if len(entities) < 2:
        return closest(claims, scope, asked_words)
    named = entities_about(conn, claims, asked)
    kept: set[str] = set()
    for entity in [*entities, None]:
        own = [
            c
            for c in claims
            if (named.get(c.id) == entity if entity else named.get(c.id) not in entities)
        ]
        kept |= {c.id for c in closest(own, scope, asked_words)} if own else set()
    return [c for c in claims if c.id in kept]


def _latest_of_each(
    conn: Connection, claims: list[ClaimFact], entities: list[EntityRef], asked: str | None
) -> list[ClaimFact]:
    """``_latest`` for each of the namesakes a question does not tell apart: a township's
    2010 count says nothing of its namesake's, whose own latest value is still a side
    ("young america township, edgar county, illinois" 726 in 2010 does not make the Carver
    County township's 838 and 1,200 history). Claims naming none of them are read together."""
    if len(entities) < 2:
        return _latest(claims)
    named = entities_about(conn, claims, asked)
    by_entity: dict[EntityRef | None, list[ClaimFact]] = {}
    for claim in claims:
        by_entity.setdefault(named.get(claim.id), []).append(claim)
    unnamed = [c for c in claims if named.get(c.id) not in entities]
    kept = {c.id for c in _latest(unnamed)} if unnamed else set()
    for entity in entities:
        kept |= {c.id for c in _latest(by_entity.get(entity, []))}
    return [c for c in claims if c.id in kept]


def _latest(claims: list[ClaimFact]) -> list[ClaimFact]:
    """A question that names no time asks about now. When the claims state different values
    at different known times ("3,917 in the 2010 census, up from 1,206 in the 2000 census"),
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
