"""Claims the ledger holds in dispute with an answering claim, read as sides of the answer.

Split from ``retrieval.finding``: a live ``conflicts`` or ``ambiguous`` edge joins a claim
read under another key or page to an answering claim; it is a side when it answers the
question too (see ``edge_held``). Who each claim is about is read from its stored
``EntityRef`` (``retrieval.subjects``).
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Connection, select

from claims.models import EntityRef
from claims.store.batches import batches
from claims.tables import SourceVersionRow
from retrieval.answer_type import dimension_of_unit
from retrieval.candidates import entity_fit, name_words
from retrieval.evidence import ClaimFact, EvidenceGroup
from retrieval.finding import Ask, fitting
from retrieval.scope_sides import PageScopes, scope_apart
from retrieval.status import value_key
from retrieval.subjects import (
    claim_attributes,
    claim_entities,
    named_entities,
    names_something,
    page_subjects,
)

DISPUTES = ("conflicts", "ambiguous")


def edge_held(
    ask: Ask, group: EvidenceGroup, chosen: list[ClaimFact], verdicts: dict[str, Any]
) -> list[ClaimFact]:
    """Claims the ledger holds in dispute with an answering claim (a live conflicts or
    ambiguous edge) that answer the question too: the same attribute as the claim they
    dispute, a value of the asked kind, in the asked scope and time, not superseded, and
    about the asked entity as far as the ledger knows (naming it, naming nothing, or on a
    page about it). They were read under another key or page ("The mill was last worked
    commercially in 1955" on a page cut from an article, with no title, that mentions Corran
    Mill, beside "Corran Mill, Haddleby" of 1921): the answer names them as sides instead of
    answering one value the ledger itself holds in doubt. Only edges among the visible
    claims are read (``group`` is narrowed), so a hidden claim never adds a side."""
    ids = {c.id for c in chosen}
    joined: dict[str, set[str]] = {}
    conflicting: set[str] = set()  # joined by a conflict, not only by an ambiguous relation
    by_scope: dict[str, set[str]] = {}  # joined by an ambiguous relation by scope: to whom
    for edge in group.edges:
        if edge.kind not in DISPUTES or (edge.left in ids) == (edge.right in ids):
            continue
        answering, other = (edge.left, edge.right) if edge.left in ids else (edge.right, edge.left)
        joined.setdefault(other, set()).add(answering)
        if _conflicting(edge.kind, edge.rule):
            conflicting.add(other)
        else:
            by_scope.setdefault(other, set()).add(answering)
    # a disagreement inside one key's value groups is read from the groups, not the edges;
    # between documents that do not each state both values (a page stating "a median age of
    # 42.7" and "65 years of age or older" says two things, and so does its copy)
    stated_values = {(c.source_id, c.claim_key, value_key(c)) for c in group.claims.values()}
    rules = _relation_rules(group)
    for claim in chosen:
        verdict = verdicts.get(claim.id)
        for other in (verdict.contested_with | verdict.ambiguous_with) if verdict else ():
            held = group.claims.get(other)
            if (
                other not in ids
                and held is not None
                and (held.source_id, claim.claim_key, value_key(claim)) not in stated_values
                and (claim.source_id, held.claim_key, value_key(held)) not in stated_values
            ):
                joined.setdefault(other, set()).add(claim.id)
                pair = frozenset((group.value_groups.get(claim.id), group.value_groups.get(other)))
                if other in verdict.contested_with:  # a value group in dispute
                    conflicting.add(other)
                elif _conflicting("ambiguous", rules.get(pair, "scope")):
                    conflicting.add(other)  # "$35 per month" beside a "Monthly price" cell
                else:
                    by_scope.setdefault(other, set()).add(claim.id)
    others = [
        group.claims[i]
        for i in sorted(joined)
        if i in group.claims
        and ask.holds(group.claims[i])
        and i in verdicts
        and verdicts[i].superseded_by is None
    ]
    others = fitting(ask.asked, others, ask.attribute)
    if not others:
        return []
    attributes = claim_attributes(ask.conn, sorted({c.id for c in others} | ids))
    others = [
        c for c in others if any(attributes.get(c.id) == attributes.get(j) for j in joined[c.id])
    ]
    if not others:
        return []
    # who each is about: the entity it names, else its page's subject (any, not only one
    # fitting the asked name: a page about a namesake is about the namesake)
    stated = claim_entities(ask.conn, sorted({c.id for c in others} | ids))
    subjects = page_subjects(ask.conn, [c for c in others if not names_something(stated.get(c.id))])
    about: dict[str, EntityRef | None] = {}
    for claim in others:
        own = stated.get(claim.id)
        about[claim.id] = subjects.get(claim.id) or (own if names_something(own) else None)
    asked_names = (
        [ask.entity]
        if ask.entity
        else sorted(
            {e.text for i in ids if (e := stated.get(i)) is not None and names_something(e)}
        )
    )
    if not asked_names:
        # with no name asked or answered ("What was the Q1 dividend?"), a claim naming a
        # company is about a narrower thing than the answer; one naming nothing either, at
        # the key of the claim it disputes, in another document, of its currency or
        # dimension, states the same slot (an email's "the Pro plan costs $35 per month"
        # beside the price list's cell; a figure in pounds is another body's accounts). Only
        # a conflict counts, an ambiguous relation not by scope, or one by a scope that does
        # not set the two apart on what is asked (``scope_apart``): "Q2" beside an unscoped
        # figure is another case, and so is the assistant's limit beside the search's
        by_id = {c.id: c for c in chosen}
        same_slot = [
            c
            for c in others
            if not names_something(stated.get(c.id))
            and any(_same_slot_elsewhere(by_id[j], c) for j in joined[c.id] if j in by_id)
        ]
        return _disputing(ask, by_id, same_slot, conflicting, by_scope)

    def fit(name: EntityRef | None) -> float:
        return max(entity_fit(n, name) for n in asked_names) if name else 0.0

    # a namesake the answer set aside stays aside: only what fits the asked name as well as
    # the answering claims do
    chosen_subjects = named_entities(ask.conn, chosen, asked_names[0])
    floor = max((fit(chosen_subjects.get(c.id)) for c in chosen), default=0.0)
    # a claim about nothing the ledger can name (a sentence naming nothing on a page naming
    # nothing; or, beside an answer naming nothing, any claim) counts only when its page is a
    # copy of the page it disputes (they share sentences word for word, numbers included):
    # "The mill was last worked commercially in 1955" in a copy of the Corran Mill article is
    # about the mill; "there were 3,292 people" on another town's page of one name is not,
    # nor is "The Q1 dividend was 15 cents" beside Moallu's dividend
    unsure = [c for c in others if not about[c.id] or floor == 0.0]
    copied = copies(ask.conn, unsure, {c.id: c for c in chosen}, joined)
    return [
        c
        for c in others
        if (c.id in copied) or (about[c.id] and floor > 0.0 and fit(about[c.id]) >= floor)
    ]


def _conflicting(kind: str, rule: str) -> bool:
    """A conflict, or an ambiguous relation for another reason than a scope one side states
    and the other does not (a "Q2" figure beside an unscoped one may be another case)."""
    return kind == "conflicts" or rule != "scope"


def _disputing(
    ask: Ask,
    chosen: dict[str, ClaimFact],
    others: list[ClaimFact],
    conflicting: set[str],
    by_scope: dict[str, set[str]],
) -> list[ClaimFact]:
    """``others`` the ledger holds in conflict with an answering claim, or ambiguous by a
    scope that does not set them apart on what is asked (``scope_apart``; each page read
    once)."""
    pages = PageScopes(ask.conn, ask.loader.generation())
    return [
        c
        for c in others
        if c.id in conflicting
        or any(
            not scope_apart(ask, chosen[j], c, pages) for j in by_scope.get(c.id, ()) if j in chosen
        )
    ]


def _relation_rules(group: EvidenceGroup) -> dict[frozenset[str | None], str]:
    """The rule of each disagreement between two value groups, by the pair of groups."""
    return {frozenset((r.left_group, r.right_group)): r.rule for r in group.relations}


def _same_slot_elsewhere(chosen: ClaimFact, other: ClaimFact) -> bool:
    """``other`` states ``chosen``'s slot in another document: the same key, and the same
    currency or dimension ("$35 per month" beside a "$29" cell; not "£1.2bn" beside USD)."""

    def base(claim: ClaimFact) -> str | None:
        dimension = dimension_of_unit(claim.canonical_unit)
        return dimension.split("/")[0] if dimension else None

    return (
        chosen.claim_key == other.claim_key
        and chosen.source_id != other.source_id
        and base(chosen) == base(other)
    )


MIN_SHARED_SENTENCES = 2  # sentences two pages must share word for word to be copies
MIN_SENTENCE_WORDS = 6  # shorter sentences ("See also.") say nothing of a copy


def _sentences(text: str) -> set[tuple[str, ...]]:
    """A page's sentences as folded words (numbers kept), the short ones left out."""
    found = set()
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        words = name_words(sentence)
        if len(words) >= MIN_SENTENCE_WORDS:
            found.add(words)
    return found


def copies(
    conn: Connection,
    claims: list[ClaimFact],
    chosen: dict[str, ClaimFact],
    joined: dict[str, set[str]],
) -> set[str]:
    """The ids of ``claims`` whose page is a copy of the page of a chosen claim it is joined
    to: the two texts share at least ``MIN_SHARED_SENTENCES`` sentences word for word. Reads
    the text of those pages only (each page's own version: what the requester sees)."""
    if not claims:
        return set()
    versions = {c.version_id for c in claims}
    versions |= {chosen[j].version_id for c in claims for j in joined[c.id] if j in chosen}
    texts: dict[str, set[tuple[str, ...]]] = {}
    for chunk in batches(sorted(versions)):
        rows = conn.execute(
            select(SourceVersionRow.id, SourceVersionRow.text).where(SourceVersionRow.id.in_(chunk))
        )
        texts.update((version, _sentences(text or "")) for version, text in rows)
    found = set()
    for claim in claims:
        own = texts.get(claim.version_id, set())
        for other in joined[claim.id]:
            if other not in chosen or chosen[other].version_id == claim.version_id:
                continue
            if len(own & texts.get(chosen[other].version_id, set())) >= MIN_SHARED_SENTENCES:
                found.add(claim.id)
    return found
