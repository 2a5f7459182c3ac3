"""Namesakes the ledger tells apart are answered per namesake (issue 13, point 2).

Two entities of one name (a town in two states, two films of one title) are two scopes:
their values are not a conflict. A question that does not say which of them it means gets
``answered`` with ``value`` null and one side per namesake, each side naming the entity it
is about, when the ledger can tell them apart:

- every side is about one named entity, a different one for each side, all of one name
  (their disambiguators aside: "x (1934 film)", "x (1959 film)"), and none of them is
  a subject known only inside one page (its stored ``EntityRef`` is local to that source,
  shown "x (in doc03)"; or a bare name on a page with no title): no title tells such a
  subject from its namesakes; nor is one's name all words of
  another's ("harlan voss" beside "harlan voss (vermont representative)"): the bare name may be
  the disambiguated one;
- no ``conflicts`` or ``ambiguous`` edge among the visible evidence joins claims of two of
  them (the ledger itself holds them to be one thing in dispute);
- a claim of an untitled page (or of a subject stored as local to its source) cited by a
  side rides along with that side's titled claim: it states the same value and names no namesake of
  its own ("Gordon Tate" on a cut copy of the 1968 film's page beside the page "Nightfall
  (1968 film)"), unless an edge disputes it against another side's claim; a side of such
  claims only names no namesake;
- their pages do not look like copies of one article by the shared-facts test of the edge
  linker (``claims.edges.entities.evidence(...).linked()``): a copy that rewrote its title
  agrees on most facts and differs on one, which is a dispute, not a namesake.

Otherwise the answer stays ``conflict`` naming every side. Only visible claims reach this
module (the answer narrows to the requester's view first), and the pages read here are the
cited ones, so a hidden namesake neither changes the status nor appears.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from sqlalchemy import Connection, select

from claims.edges.entities import Stated, evidence, value_key
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.models import EntityRef
from claims.store.batches import batches
from claims.store.claims import CLAIM_COLUMNS, claim_from_row
from claims.tables import ClaimRow
from retrieval.candidates import name_words
from retrieval.contract import Side
from retrieval.disputes import DISPUTES
from retrieval.evidence import ClaimFact, EvidenceGroup
from retrieval.subjects import (
    as_their_pages_name_them,
    is_local,
    is_reference,
    named_entities,
    text_of,
)


def told_apart(
    conn: Connection,
    sides: list[Side],
    claims: list[ClaimFact],
    group: EvidenceGroup,
    asked: str | None,
    generation: str | None,
) -> list[Side] | None:
    """``sides``, each carrying the namesake it is about, when every side is about a distinct
    namesake the ledger tells apart (see module); None when it cannot tell them apart."""
    if len(sides) < 2:
        return None
    by_id = {c.id: c for c in claims}
    named = named_entities(conn, claims, asked)
    untitled = as_their_pages_name_them(conn, claims, named) if asked else set()
    owners: list[EntityRef] = []
    titled_ids: list[set[str]] = []
    riders: set[str] = set()
    for side in sides:
        ids = [c.claim_id for c in side.citations]
        if any(i not in by_id for i in ids):
            return None
        # a claim of an untitled page, or of a subject known only inside its page, rides
        # along with a titled claim stating the same value: it names no namesake of its own
        ride = {i for i in ids if i in untitled or is_local(named.get(i))}
        about = {named.get(i) for i in ids if i not in ride}
        if len(about) != 1:
            return None
        entity = about.pop()
        if entity is None or is_reference(entity) or is_local(entity):
            return None
        owners.append(entity)
        titled_ids.append(set(ids) - ride)
        riders |= ride
    if len(set(owners)) != len(owners):
        return None  # two values for one namesake: a dispute about that one
    if len({_name_of(owner) for owner in owners}) > 1 or _one_within_another(owners):
        return None
    if _disputed_across(conn, group, set(owners), asked):
        return None
    if riders and _rider_disputed(group, riders, sides):
        return None
    pages = {
        owner: {c.version_id for c in side.citations if c.claim_id in ids}
        for owner, side, ids in zip(owners, sides, titled_ids, strict=True)
    }
    if _copies(conn, pages, generation):
        return None
    if riders and _rider_elsewhere(conn, sides, pages, riders, generation):
        return None
    return [
        side.model_copy(update={"entity": owner.text})
        for owner, side in zip(owners, sides, strict=True)
    ]


def _name_of(entity: EntityRef) -> tuple[str, ...]:
    """The name an entity shares with its namesakes: its stored name's words without its
    qualifier ("imitation of life (1934 film)") or the place after a comma ("lawrence, rusk
    county, wisconsin"); a bracket that is part of the name ("router (model b)") stays.
    Things the question names only in part ("c. mayer": Christa and Constant
    Mayer) have two names, not one: they are not namesakes, and stay a conflict."""
    return name_words(entity.name.split(",")[0])


def _one_within_another(owners: list[EntityRef]) -> bool:
    """Whether one namesake's name is all words of another's ("harlan voss" beside "harlan
    voss (vermont representative)"): the shorter name says nothing the longer one does not,
    so the ledger cannot tell that page from its disambiguated namesake. Two names each
    with a word of their own ("(1934 film)", "(1959 film)") tell the two apart."""
    words = [set(name_words(owner.text)) for owner in owners]
    return any(a <= b or b <= a for a, b in combinations(words, 2))


def _disputed_across(
    conn: Connection, group: EvidenceGroup, owners: set[EntityRef], asked: str | None
) -> bool:
    """Whether a visible conflicts or ambiguous edge joins claims of two of ``owners``."""
    disputes = [
        e
        for e in group.edges
        if e.kind in DISPUTES and e.left in group.claims and e.right in group.claims
    ]
    if not disputes:
        return False
    ends = [group.claims[i] for i in sorted({i for e in disputes for i in (e.left, e.right)})]
    named = named_entities(conn, ends, asked)
    if asked:
        as_their_pages_name_them(conn, ends, named)
    for edge in disputes:
        left, right = named.get(edge.left), named.get(edge.right)
        if left in owners and right in owners and left != right:
            return True
    return False


def _rider_disputed(group: EvidenceGroup, riders: set[str], sides: list[Side]) -> bool:
    """Whether a visible conflicts or ambiguous edge joins a riding claim (an untitled
    page's) to a claim of another side: the untitled page is then disputed against a
    namesake (a copy of one namesake's page stating another's value), not one's support."""
    side_of = {c.claim_id: n for n, side in enumerate(sides) for c in side.citations}
    for edge in group.edges:
        if edge.kind not in DISPUTES:
            continue
        for one, other in ((edge.left, edge.right), (edge.right, edge.left)):
            if one in riders and other in side_of and side_of[other] != side_of.get(one):
                return True
    return False


def _stated(conn: Connection, versions: set[str], generation: str | None) -> Stated:
    """What the claims of ``versions`` (of ``generation``) state: attribute -> value -> a claim."""
    found: Stated = defaultdict(dict)
    for chunk in batches(sorted(versions)):
        rows = conn.execute(
            select(*(getattr(ClaimRow, name) for name in CLAIM_COLUMNS)).where(
                ClaimRow.source_version_id.in_(chunk), ClaimRow.generation == generation
            )
        )
        for row in rows:
            facts = facts_from_claim(claim_from_row(tuple(row)))
            found[facts.attribute].setdefault(value_key(facts), facts)
    return found


def _shown(facts: ClaimFacts) -> tuple[object, ...]:
    return (facts.kind, facts.label, facts.lo, facts.hi)


def _rider_elsewhere(
    conn: Connection,
    sides: list[Side],
    pages: dict[EntityRef, set[str]],
    riders: set[str],
    generation: str | None,
) -> bool:
    """Whether a riding claim's page agrees with another side's namesake's page on a
    telling fact besides the one answered ("drama film" with the 1931 film while it names
    the 1958 film's director): a copy of one namesake's page stating another's value is no
    support of that other. A value two namesakes' pages state alike tells nothing."""
    owners = list(pages)
    stated = {owner: _stated(conn, versions, generation) for owner, versions in pages.items()}
    by_value: dict[tuple[str, tuple[object, ...]], int] = defaultdict(int)
    for found in stated.values():
        for attribute, values in found.items():
            for facts in values.values():
                by_value[(attribute, _shown(facts))] += 1

    def telling(attribute: str, value: tuple[object, ...]) -> bool:
        return by_value.get((attribute, value), 0) < 2

    answered = set(conn.scalars(select(ClaimRow.attribute).where(ClaimRow.id.in_(sorted(riders)))))
    for n, side in enumerate(sides):
        for citation in side.citations:
            if citation.claim_id not in riders:
                continue
            page = _stated(conn, {citation.version_id}, generation)
            for m, owner in enumerate(owners):
                if m != n and set(evidence(page, stated[owner], telling).agreeing) - answered:
                    return True
    return False


def _copies(conn: Connection, pages: dict[EntityRef, set[str]], generation: str | None) -> bool:
    """Whether the pages of two of the namesakes state alike what the edge linker takes for
    one entity's facts (enough telling attributes agree, at most one differs). A value
    another of the namesakes states as well tells nothing, as in the linker's block. Only
    the claims of the ``generation`` being answered from are read: an older extractor's
    claims of the same page would add facts the answer never saw."""
    stated = {owner: _stated(conn, versions, generation) for owner, versions in pages.items()}
    by_value: dict[tuple[str, tuple[object, ...]], set[EntityRef]] = defaultdict(set)
    for owner, found in stated.items():
        for attribute, values in found.items():
            for facts in values.values():
                by_value[(attribute, (facts.kind, facts.label, facts.lo, facts.hi))].add(owner)
    for a, b in combinations(sorted(stated, key=text_of), 2):
        pair = {a, b}

        def telling(attribute: str, value: tuple[object, ...]) -> bool:
            return not by_value.get((attribute, value), set()) - pair  # noqa: B023

        if evidence(stated[a], stated[b], telling).linked():
            return True
    return False
