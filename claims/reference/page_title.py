"""The page a text is cut from, named by its title: what its sentences are about.

A sentence taken out of a reference article ("The film has a rating of 85% on Rotten
Tomatoes", "There are 88 active cases") names neither the thing it is about nor the place
its figure counts in: the page's title does. The register gives that title (``title:``, the
extractor's ``document_subject``); under the reference profile it is read here as a page
title, so a sentence of the page states what the page's other sentences state:

* a title that names **one entity** ("Harbour Lights (2011 film)", "Anna Kovacs") is the
  subject of every claim that names none, as an opening would be (``opening.py``). Its
  bracketed disambiguation gives the nouns the page uses for it ("the film", "the movie"),
  and a person's name gives "he"/"she" and the surname alone. A claim whose subject is
  such a noun is about the page's subject even when the sentence reader took another name
  of the sentence for its entity ("On Screen Digest the film has a rating of 85%": the
  rating is the film's, on that site); the noun itself qualifies nothing;
* a title that names **a topic in a place** ("2020 measles outbreak in Portugal", "Education
  in Ruritania") scopes every sentence of the page: its place and its topic words hold for
  "There were 88 cases" as they do for "Portugal had 88 measles cases", so they are added to
  each claim that does not state its own (a claim stating another place keeps it).

Nothing here reads the text: only the title the register gives, so two pages' sentences
are told apart by their titles, never by lending one page's words to another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from claims.extraction import person_names
from claims.extraction.identity import fold_name, lemma, name_tokens, title_entity
from claims.extraction.resources import resources
from claims.models import Claim
from claims.models import Span as CharSpan
from claims.reference.given_names import is_given_name
from claims.reference.opening import _kinds
from claims.reference.opening_subject import _titled
from claims.reference.opening_words import Opening, _words

# a person's name in a title: a given name and one to three more capitalised words
_PERSON_NAME = re.compile(r"^[A-Z][a-z]+(?: [A-Z][A-Za-z'\-]+){1,3}$")
_WORDS = re.compile(r"\w[\w'\-]*")  # a subject's words, its quotes and marks aside


@dataclass(frozen=True)
class PageTitle:
    """What a page's title says about every sentence of the page."""

    opening: Opening | None = None  # the entity the page is about, when it names one
    scope: tuple[tuple[str, str], ...] = ()  # a topic page's known place ("region", "germany")
    words: tuple[str, ...] = ()  # a topic page's topic words, as qualifiers are folded
    place: str | None = None  # a topic page's place read as a name ("portugal")
    # the nouns of the page's kind, from its disambiguation ("film", "movie"; "state" of
    # "New York (state)"): they qualify no claim of the page
    kind_words: frozenset[str] = frozenset()


def page_title(title: str | None) -> PageTitle | None:
    """The page ``title`` names (None: no title, or one that names nothing)."""
    if not title or not title.strip():
        return None
    title = title.strip()
    # the title read with its own person names kept, whatever the text's are: one page's
    # texts key its subject alike ("The House That Jack Built" in one text only)
    with person_names.reading(title):
        return _read(title)


def _read(title: str) -> PageTitle | None:
    name, _, aside = title.partition("(")
    name = name.strip()
    if not name:
        return None
    inner = aside.rsplit(")", 1)[0].replace(",", " ").split() if aside else []
    head = inner[-1].casefold() if inner else ""
    kinds = _kinds(head, _words()) if head else frozenset()
    if _topic(name):
        return replace(_topic_page(name), kind_words=kinds)
    # not cached: the qualified subject's reference is made anew in each text's reading
    opening = _titled(title, 0, 0)  # stated in no sentence of the text
    if opening is None:
        return None
    person = (
        head in _words().occupations
        if head
        else bool(_PERSON_NAME.match(name)) and is_given_name(name.split()[0].casefold())
    )
    # the core's reading of the title ("it" in a sentence names this): one more alias
    core = title_entity(name, resources().stopwords)
    folded = fold_name(name_tokens(name), resources().stopwords)
    aliases = opening.aliases | {a for a in (core, folded) if a}
    return PageTitle(
        opening=replace(opening, kinds=kinds, person=person, aliases=frozenset(aliases)),
        kind_words=kinds,
    )


@lru_cache(maxsize=1024)
def _topic_page(name: str) -> PageTitle:
    """ "2020 measles outbreak in Portugal": a topic (in a place), not a thing's name. The
    place is read as a sentence's subject would be: a place the core knows is a region
    scope ("Germany has 88 cases": region germany), another a name ("portugal")."""
    from claims.extraction.readers.table_phrases import read_phrase

    topic, place = name, ""
    found = _IN_PLACE.match(name)
    if found is not None:
        topic, place = found.group("topic"), found.group("place")
    reading = read_phrase(topic)
    words = tuple(w for w in reading.attribute_words if w and not w.isdigit())
    if not place:
        return PageTitle(scope=tuple(sorted(reading.scope.items())), words=words)
    where = read_phrase(place)
    if where.scope.get("region"):
        return PageTitle(scope=(("region", where.scope["region"]),), words=words)
    return PageTitle(words=words, place=" ".join(where.entity_words) or None)


# "<topic> in <Place>": the place's words capitalised (an article before it aside)
_IN_PLACE = re.compile(r"^(?P<topic>.+?)\s+in\s+(?P<place>(?:the\s+)?[A-Z][^()]*?)\s*$")


def _topic(name: str) -> bool:
    """Whether a title names a topic rather than a thing: a word after the first that is
    neither capitalised nor a function word ("2020 measles outbreak in Portugal", "Disc
    brake"; not "Men in Black", "The Night Before")."""
    stopwords = resources().stopwords
    return (
        any(
            w[:1].islower() and w.casefold() not in stopwords
            for w in re.findall(r"[^\W\d_][\w'\-]*", name)[1:]
        )
        or name[:1].isdigit()
    )


def described_claims(claims: list[Claim], page: PageTitle) -> list[Claim]:
    """``claims`` of a page whose subject a noun of the page's kind names ("the film") keyed
    by the page's subject, the noun dropped from their attribute and qualifiers."""
    opening = page.opening
    if opening is None:
        return claims
    if not opening.kinds:
        return [_without_name_words(c, opening) for c in claims]
    out = [_without_name_words(_described(c, opening), opening) for c in claims]
    # "..., based on 13 reviews": the sentence's other claims of the name it displaced
    displaced = [
        (c.entity, o.span) for c, o in zip(claims, out, strict=True)
        if c.entity != o.entity and c.entity is not None and c.entity not in opening.kinds
    ]  # fmt: skip
    if not displaced:
        return out
    return [
        _rekeyed(o, opening, o.entity)
        if any(o.entity == e and _overlap(o.span, s) for e, s in displaced)
        else o
        for o in out
    ]


def _without_name_words(claim: Claim, opening: Opening) -> Claim:
    """A claim about the page's subject without its name's words (or a stray quote mark)
    among its qualifiers ("Harbour Lights has a rating of 64% on Screen Digest": "harbour",
    "light" qualify nothing, they name what the rating is of)."""
    if claim.entity != opening.entity or not claim.scope_residual:
        return claim
    names = {w for alias in opening.aliases for w in alias.replace(",", " ").split()}
    # a quote mark read as a word ("`` Harbour Lights ''") qualifies nothing either
    kept = [w for w in claim.scope_residual if w not in names and _WORDS.search(w)]
    if len(kept) == len(claim.scope_residual):
        return claim
    return claim.model_copy(update={"scope_residual": kept})


def _overlap(a: CharSpan, b: CharSpan) -> bool:
    return a.start < b.end and b.start < a.end


def _described(claim: Claim, opening: Opening) -> Claim:
    kinds = opening.kinds
    entity, attribute = claim.entity, claim.attribute or ""
    first, _, rest = attribute.partition(" ")
    if entity == opening.entity and rest and lemma(first) in kinds:
        attribute = rest  # "the film score" read as one attribute: the score
    elif entity is not None and entity != opening.entity and rest and lemma(first) in kinds:
        attribute = rest  # "On Screen Digest, the film holds a rating": "film hold rate"
    elif entity is not None and entity != opening.entity and entity in kinds:
        pass  # "The film's rating": the noun read as a name
    elif entity is not None and entity != opening.entity and _subject_is_kind(claim, kinds):
        pass  # "On Screen Digest the film has a rating": the site read as the entity
    elif entity is not None and entity != opening.entity and _subject_names(claim, opening):
        pass  # "Harbour Lights has a rating of 64% on Screen Digest": the same
    elif entity == opening.entity and any(lemma(w) in kinds for w in claim.scope_residual):
        pass  # already the page's subject: only the noun to drop from the qualifiers
    else:
        return claim
    return _rekeyed(claim, opening, entity, attribute)


def _rekeyed(
    claim: Claim, opening: Opening, entity: str | None, attribute: str | None = None
) -> Claim:
    """``claim`` keyed by the page's subject; the noun of its kind dropped from its
    qualifiers, the name it displaced (``entity``) added to them."""
    kinds = opening.kinds
    attribute = attribute if attribute is not None else claim.attribute or ""
    residual = [w for w in claim.scope_residual if lemma(w) not in kinds]
    if entity is not None and entity != opening.entity and entity not in kinds:
        # the other name the sentence states qualifies the claim ("on Screen Digest")
        residual += [w for w in entity.split() if w not in residual]
    key = f"{opening.entity} {attribute}" if attribute else opening.entity
    return claim.model_copy(
        update={
            "entity": opening.entity,
            "attribute": attribute or claim.attribute,
            "claim_key": key,
            "scope_residual": residual,
        }
    )


def _subject_names(claim: Claim, opening: Opening) -> bool:
    """Whether the sentence's subject is the page's subject by name."""
    words = frozenset(lemma(w) for w in _WORDS.findall((claim.subject or "").casefold()))
    return bool(words) and any(words == frozenset(a.split()) for a in opening.aliases)


def _subject_is_kind(claim: Claim, kinds: frozenset[str]) -> bool:
    """Whether the sentence's subject ends in a noun of the page's kind ("the film")."""
    words = (claim.subject or "").casefold().split()
    return bool(words) and lemma(words[-1]) in kinds


def titled_scope(claims: list[Claim], page: PageTitle) -> list[Claim]:
    """``claims`` with a topic page's place and topic words added where a claim states none
    of its own for that dimension (the page's words hold for each of its sentences), and
    without the nouns of the page's kind among their qualifiers."""
    if not page.scope and not page.words and not page.place and not page.kind_words:
        return claims
    out = []
    for claim in claims:
        if page.kind_words and any(lemma(w) in page.kind_words for w in claim.scope_residual):
            kept = [w for w in claim.scope_residual if lemma(w) not in page.kind_words]
            claim = claim.model_copy(update={"scope_residual": kept})
        if page.place and claim.entity is None and not claim.scope.get("region"):
            # "There are 88 cases" on the page of an outbreak in Portugal: Portugal's
            attribute = claim.attribute or claim.claim_key
            claim = claim.model_copy(
                update={"entity": page.place, "claim_key": f"{page.place} {attribute}"}
            )
        scope = dict(claim.scope)
        for dim, value in page.scope:
            scope.setdefault(dim, value)
        residual = list(claim.scope_residual)
        key_words = set(claim.claim_key.split())
        residual += [w for w in page.words if w not in residual and w not in key_words]
        if scope == dict(claim.scope) and residual == list(claim.scope_residual):
            out.append(claim)
            continue
        out.append(claim.model_copy(update={"scope": scope, "scope_residual": residual}))
    return out


__all__ = ["PageTitle", "described_claims", "page_title", "titled_scope"]
