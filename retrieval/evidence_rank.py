"""Candidates by entity and kind, ranked by the whole evidence (issue 32, point 2).

When no key the question names reaches a claim, the question's content words (and their
synonyms: ``retrieval.glossary``) are searched in the visible claims' quotes (one bounded
full-text read that joins the requester's visible sources: nothing hidden is ranked or
counted), the claims of those keys are read through the same visible-only loader as every
answer, and kept when

- their value fits the asked kind and dimension (a mass for "how heavy"; a number with no
  unit fits when its evidence names the dimension: "a population of 812");
- they name the asked entity (the frame's entity, or a question word holding a digit such as
  a model number) in their key, quote or locator;
- they hold at the asked time and do not state another value for an asked scope.

Each kept claim is scored by the IDF-weighted question words (over the kept claims) found in
everything it carries: key, quote, heading path and table row and column headers. A claim
alone in its entity's store with the asked dimension needs nothing more. The best value
group answers when it stands clearly above the next (``MARGIN``); otherwise the top groups
go on together and the answer contract calls their disagreement a conflict.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, text

from claims.store.search import search_quotes, visible_claims_condition
from retrieval.answer_type import dimension_of_unit, value_fits
from retrieval.document_aliases import version_aliases, with_aliases
from retrieval.evidence import ClaimFact
from retrieval.finding import Ask, Found
from retrieval.glossary import expand, words
from retrieval.question_reading import Reading, read_question
from retrieval.subjects import claim_entities, text_of

MARGIN = 1.5  # the best value group's score over the next one's, to answer alone
MIN_WHOLE = 2  # question words a claim must all carry to answer a question with no cue
CLOSE = 0.8  # groups scoring this share of the best one go on together


@dataclass(frozen=True)
class Ranked:
    claim: ClaimFact
    score: float
    matched: tuple[str, ...]


def _dimension_fits(reading: Reading, claim: ClaimFact, said: set[str]) -> bool:
    if not reading.dimensions:
        return claim.kind == "quantity" or reading.kind is None
    if reading.kind == "date":
        return claim.kind == "date"
    if claim.kind != "quantity":
        return False
    dimension = dimension_of_unit(claim.canonical_unit) or claim.unit
    if dimension:
        if "currency" in reading.dimensions:
            return len(dimension) == 3 and dimension.isupper()
        return dimension in reading.dimensions or claim.unit in reading.dimensions
    # a bare number: its evidence names the asked dimension or the asked thing itself
    return bool(said & reading.dimension_words) or bool(said & set(reading.terms))


def _locators(conn: Any, ids: list[str]) -> dict[str, dict[str, Any]]:
    if not ids:
        return {}
    query = text("SELECT id, locator FROM claims WHERE id IN :ids").bindparams(
        bindparam("ids", expanding=True)
    )
    out: dict[str, dict[str, Any]] = {}
    for claim_id, locator in conn.execute(query, {"ids": ids}):
        if isinstance(locator, str):
            locator = json.loads(locator)
        out[claim_id] = locator or {}
    return out


def _evidence_words(claim: ClaimFact, locator: dict[str, Any]) -> set[str]:
    carried = [claim.claim_key, claim.quote, *(locator.get("heading_path") or [])]
    carried += [str(locator.get("row_header") or ""), str(locator.get("column_header") or "")]
    return set(words(" ".join(carried)))


MAX_SECTION_CLAIMS = 2000  # claims of one version read to find a thing's section


def _name_phrases(reading: Reading, said: list[str]) -> list[str]:
    """How the asked thing may be named as a claim's entity: the frame's entity, else the
    runs of question words from a word holding a digit ("z-70", "z-70 blower")."""
    if reading.entity:
        return [reading.entity]
    out: list[str] = []
    for i, word in enumerate(said):
        if any(ch.isdigit() for ch in word) and not word.isdigit():
            out += [" ".join(said[i : i + n]) for n in (1, 2, 3) if i + n <= len(said)]
    return out


def _entity_keys(ask: Ask, reading: Reading, generation: str) -> list[str]:
    """The keys of the visible claims about the asked thing, and of the claims under the
    same heading in those documents ("## Z-70 blower" then "It moves 60 litres per
    minute"): indexed reads by entity, then by version (bounded)."""
    phrases = _name_phrases(reading, [w.casefold() for w in ask.text.replace("?", " ").split()])
    if not phrases:
        return []
    params: dict[str, object] = {"generation": generation}
    visible = visible_claims_condition(ask.requester.groups, params)
    query = text(
        "SELECT DISTINCT c.claim_key, c.source_version_id FROM claims c "
        "JOIN sources s ON s.id = c.source_id "
        f"WHERE c.generation = :generation AND c.entity IN :names AND {visible}"
    ).bindparams(bindparam("names", expanding=True))
    rows = list(ask.conn.execute(query, {**params, "names": phrases}))
    keys = {key for key, _ in rows}
    names = set(words(" ".join(phrases[:1]) if reading.entity else phrases[0]))
    for version in sorted({v for _, v in rows})[:8]:
        section = text(
            "SELECT claim_key, locator FROM claims WHERE source_version_id = :version "
            "AND generation = :generation LIMIT :limit"
        )
        for key, locator in ask.conn.execute(
            section,
            {"version": version, "generation": generation, "limit": MAX_SECTION_CLAIMS},
        ):
            loaded = json.loads(locator) if isinstance(locator, str) else (locator or {})
            heading = set(words(" ".join(loaded.get("heading_path") or [])))
            if names <= heading:
                keys.add(key)
    return sorted(keys)


def _names(reading: Reading, question: str) -> list[str]:
    """The words naming the asked thing, which a claim must carry: the frame's entity,
    else the question's words holding a digit ("Z-70") or written as a name (a capital
    after the first word, not an acronym: "Ogdenville", not "PTO")."""
    if reading.entity:
        return words(reading.entity)
    said = re.findall(r"[^\W_]+(?:[-'][^\W_]+)*", question)[1:]
    named = [
        w
        for w in said
        if (any(ch.isdigit() for ch in w) and not w.isdigit())
        or (w[0].isupper() and not w.isupper())
    ]
    return words(" ".join(named))


def rank(ask: Ask, reading: Reading) -> tuple[list[Ranked], list[str]]:
    """The visible claims that fit the reading, best first, and the keys they were read at."""
    generation = ask.loader.generation()
    # only a question that says what kind of value it wants is read this way: without a
    # cue any number of the thing would do, and an incidental one would answer; unless
    # a claim carries every word the question asks with, and the question asks a figure
    # of the organization's own, naming no entity ("What is the daily meal allowance?" of
    # "Daily meal allowance: £45 per day"; "the height of the Ostrava tower" is no such)
    whole = not reading.dimensions
    if whole and (
        reading.entity
        or len(reading.terms) < MIN_WHOLE
        or words(ask.text)[:1] != ["what"]  # "where", "who": a place, a person
    ):
        return [], []
    if generation is None or not reading.terms:
        return [], []
    expanded = expand(list(reading.terms))
    matches = search_quotes(
        ask.conn, sorted(expanded), generation=generation, groups=ask.requester.groups
    )
    keys = sorted({m.claim_key for m in matches} | set(_entity_keys(ask, reading, generation)))
    if not keys:
        return [], []
    group = ask.visible(keys)
    claims = [c for c in group.claims.values() if c.claim_key in keys and ask.holds(c)]
    locators = _locators(ask.conn, [c.id for c in claims])
    names = _names(reading, ask.text)
    aliases = version_aliases(ask.conn, [c.version_id for c in claims])
    # what is asked beside the thing's name and the dimension's own words ("established"
    # in "When was the X school established?"): a claim must carry one of them (or a
    # synonym), so a date or number merely beside the name never answers
    topic = set(reading.terms) - set(names) - reading.dimension_words
    entities = claim_entities(ask.conn, [c.id for c in claims]) if topic else {}
    kept: list[tuple[ClaimFact, set[str]]] = []
    for claim in claims:
        said = _evidence_words(claim, locators.get(claim.id, {}))
        said = with_aliases(said, aliases.get(claim.version_id, []))
        if names and not all(n in said for n in names):
            continue
        # a question word that is part of the claim's own entity name names the thing
        asked = topic - set(words(text_of(entities.get(claim.id))))
        if asked and not any(expanded[w] in asked for w in expanded if w in said):
            continue
        # a figure, and of the kind the question's words ask ("where" asks for a place)
        if whole and (
            claim.kind != "quantity"
            or not value_fits(
                ask.asked, kind=claim.kind, dimension=dimension_of_unit(claim.canonical_unit)
            )
        ):
            continue
        if whole and not all(
            any(expanded[w] == t for w in said if w in expanded) for t in reading.terms
        ):
            continue
        if _dimension_fits(reading, claim, said):
            kept.append((claim, said))
    if not kept:
        return [], keys
    # a question term is found in a claim when it or one of its synonyms is
    found = [(claim, {expanded[w] for w in expanded if w in said}) for claim, said in kept]
    frequency = {t: sum(1 for _, hit in found if t in hit) for t in reading.terms}
    total = len(found)
    ranked = []
    for claim, hit in found:
        score = sum(math.log(1 + total / frequency[t]) + 1.0 for t in hit if frequency.get(t))
        ranked.append(Ranked(claim, round(score, 4), tuple(sorted(hit))))
    ranked.sort(key=lambda r: (-r.score, r.claim.id))
    return ranked, keys


def _value(claim: ClaimFact) -> object:
    return (claim.canonical_value, claim.canonical_unit, claim.value_text)


def winners(ranked: list[Ranked], reading: Reading) -> tuple[list[ClaimFact], str]:
    """The claims that answer and why: the one value group above the rest, or the top
    groups when none stands clearly above (the contract then reports the conflict)."""
    if not ranked:
        return [], "no visible claim fits the asked kind, entity and time"
    with_dimension = [r for r in ranked if r.claim.canonical_unit]
    if reading.dimensions and len({_value(r.claim) for r in with_dimension}) == 1:
        value = _value(with_dimension[0].claim)
        return (
            [r.claim for r in ranked if _value(r.claim) == value],
            f"the only value with the asked dimension ({', '.join(reading.dimensions)})",
        )
    scores: dict[object, float] = {}
    topics: dict[object, set[str]] = {}
    for r in ranked:
        value = _value(r.claim)
        scores[value] = max(scores.get(value, 0.0), r.score)
        # what the claim is about: its matched words beside those naming the dimension
        topics.setdefault(value, set()).update(set(r.matched) - reading.dimension_words)
    order = sorted(scores, key=lambda v: -scores[v])
    best = scores[order[0]]
    same_slot = {v for v in order[1:] if topics[v] >= topics[order[0]] and topics[v]}
    if same_slot:  # the same thing said in other words with another value: a disagreement
        values = {order[0], *same_slot}
        return (
            [r.claim for r in ranked if _value(r.claim) in values],
            f"{len(values)} values name the same thing with the asked dimension",
        )
    if len(order) == 1 or best >= MARGIN * scores[order[1]]:
        return (
            [r.claim for r in ranked if _value(r.claim) == order[0]],
            f"best evidence score {best:g}"
            + (f", next value {scores[order[1]]:g}" if len(order) > 1 else ""),
        )
    close = {v for v in order if scores[v] >= CLOSE * best}
    return (
        [r.claim for r in ranked if _value(r.claim) in close],
        f"{len(close)} values score within {CLOSE:.0%} of the best ({best:g})",
    )


def _one_sentence_several_figures(ask: Ask, chosen: list[ClaimFact]) -> bool:
    """Figures of one sentence that carries every word of a question with no cue ("a fee
    of £40, after a discount of £5"): the words do not say which figure is asked. A table
    row's cells are told apart by their columns and time instead."""
    by_quote: dict[tuple[str, str], set[object]] = {}
    for claim in chosen:
        by_quote.setdefault((claim.version_id, claim.quote), set()).add(_value(claim))
    several = {q for q, values in by_quote.items() if len(values) > 1}
    if not several:
        return False
    locators = _locators(ask.conn, [c.id for c in chosen])
    return any(
        (c.version_id, c.quote) in several and locators.get(c.id, {}).get("table") is None
        for c in chosen
    )


def found_by_evidence(ask: Ask) -> Found | None:
    """The claims of the asked entity whose value is of the asked kind and dimension, ranked
    by the question's words against everything they carry (``retrieval.evidence_rank``)."""
    reading = read_question(ask.text, ask.frame)
    ranked, keys = rank(ask, reading)
    chosen, _ = winners(ranked, reading)
    if not chosen or (not reading.dimensions and _one_sentence_several_figures(ask, chosen)):
        return None
    # the ranker chose among the qualifiers already: the words they state stay with them
    stated = {w for c in chosen for w in c.scope_residual}
    return Found(keys, chosen, stated, chosen[0].claim_key)
