"""Relations a reference article states in running prose, about the page's subject or a
person it names.

The sentence parser reads claims from values (numbers, dates, a label after a copula); the
opening reader (``opening``) reads what an article's first sentence says its subject is.
Biographies and articles on buildings and films state more in passing, in shapes neither
reads:

* a family tie: "He was born at Vellmar Palace, the son of Osric II", "Irena was a
  Veskarian princess, daughter of Bertran, wife of Rainald", "He married Mary Smith"
  (``parent``, ``spouse``);
* a birthplace: "Born in Lorne County, Ohio, Hale lived ...", "He was born in
  Marston, Vermont", "A native of Galway, she ..." (``birthplace``);
* a sport: "Halden played semi-professional rugby league", "he was a member of the
  Ridgeport Owls football teams" (``sport``);
* a maker or a cast: "It was designed by architect Edith Marlow Crane", "a comedy film
  directed by Nora Quill and starring Ansel Ware" (``designer``, ``star``);
* a player's position: "A defender, he began his career ...", "He played as a goalkeeper"
  (``position``); a station's format: "a daytime station broadcasting a Caribbean Gospel
  format" (``format``); a rank reached: "was promoted to lieutenant general" (``rank``).

Each tie must be stated *of the sentence's subject*: the family noun follows the subject's
copula (or a comma of the same list of what the subject is), the verb follows the subject.
"He married Mary, the daughter of John" gives the spouse, not a parent; "His brother is
married to ..." gives nothing (the subject is not a name or a pronoun).

The subject is the page's subject for "he"/"she"/"it" and for a name whose capitalised
words all stand in the page's opening (its title and first sentence): such a claim names no
entity here and ``opening.opening_claims`` gives it the page's subject (as it does for
"It has a population of 4,411"). Another name is its own entity. A claim is categorical,
its value the name as written. Words live in ``data/prose_relations.yaml``; sport names
and nationalities are those of ``data/opening.yaml``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any

import numpy
from spacy.attrs import SENT_START
from spacy.tokens import Doc

from claims.extraction.identity import fold_name, name_tokens
from claims.extraction.resources import resources
from claims.extraction.value_kinds import NO_QUANTITY, plain_statement
from claims.ids import stable_id_maker
from claims.models import Claim, ValueKind
from claims.models import Span as CharSpan
from claims.reference.prose_relation_reader import (
    _Reader,
)
from claims.reference.prose_relation_words import (
    CONFIDENCE,
    Relation,
    _Sent,
    _words,
)
from claims.trusted import trusted


def military_ranks() -> tuple[tuple[str, ...], ...]:
    """The military ranks of ``prose_relations.yaml`` as lowercase word tuples, longest
    first ("rear admiral", "admiral"); the opening reads them in an occupation too."""
    return _words().ranks


def _at(lower: Sequence[str], k: int, phrase: Sequence[str]) -> bool:
    return tuple(lower[k : k + len(phrase)]) == tuple(phrase)


def prose_relations(
    doc: Doc, text: str, lower: Sequence[str], idx: Sequence[int], ends: Sequence[int]
) -> list[Relation]:
    """Every tie of the shapes above in ``doc`` (its tokens' lowercase forms and character
    offsets into ``text`` given), in document order (one per attribute and sentence: the
    first)."""
    words = _words()
    if words.triggers.isdisjoint(lower) and words.position_firsts.isdisjoint(lower):
        return []
    positions = words.position_firsts
    hits = [
        i
        for i, w in enumerate(lower)
        if w in words.triggers or (w in positions and i and lower[i - 1] in ("a", "an"))
    ]
    if not hits:
        return []
    # sentence bounds from the parser's sentence starts, without a Span per sentence
    flags = doc.to_array(SENT_START)
    starts = [int(x) for x in numpy.flatnonzero(flags == 1)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    bounds = [*starts[1:], len(doc)]

    def sentence(j: int) -> _Sent:
        a, b = starts[j], bounds[j]
        return _Sent(a, b, idx[a], ends[b - 1])

    reader = _Reader(sentence(0), words, lower, idx, ends, text)
    found: list[Relation] = []
    seen: set[tuple[int, str]] = set()
    done = -1
    for hit in hits:
        j = bisect_right(starts, hit) - 1
        if j == done:
            continue
        done = j
        sent = sentence(j)
        lo, hi = bisect_left(hits, sent.start), bisect_left(hits, sent.end)
        subject = reader.sentence_subject(sent)
        for k in hits[lo:hi]:
            for relation in _read_at(reader, sent, k, subject):
                if relation.subject is None and not reader.has_opening:
                    continue  # of a subject this page never names
                if (sent.start, relation.attribute) not in seen:
                    seen.add((sent.start, relation.attribute))
                    found.append(relation)
    return found


def _read_at(
    reader: _Reader,
    sent: _Sent,
    k: int,
    subject: tuple[str | None, int] | None,
) -> list[Relation]:
    w, lower = reader.w, reader.lower
    word = lower[k]
    found: list[Relation | None] = []
    if word in w.family and subject is not None:
        found.append(reader.family(sent, k, subject))
    if word in w.spouse_verbs:
        found.append(reader.married(sent, k))
    if word in w.birth_verbs:
        found.append(reader.born(sent, k))
    if word == "native":
        for phrase in w.natives:
            n, at = len(phrase), k - phrase.index("native")
            if at >= sent.start and _at(lower, at, phrase):
                found.append(reader.native(sent, at + n - 1, n))
                break
    if (word in w.sport_verbs or word in w.sport_firsts) and not reader.opening_sport():
        # an opening that states the subject's sport ("a former American football
        # linebacker") says it better than a phrase in passing ("played college football")
        if word in w.sport_verbs:
            found.append(reader.sport(sent, k))
        for phrase in w.sport_joins:
            if word == phrase[0] and _at(lower, k, phrase):
                found.append(reader.team_sport(sent, k, len(phrase)))
                break
    if word in w.position_verbs:
        found.append(reader.played_as(sent, k))
    if k == sent.start + 1:
        found.append(reader.position(sent, k))
    for phrase in w.rank_verbs:
        if word == phrase[0] and _at(lower, k, phrase):
            found.append(reader.rank(sent, k, len(phrase)))
            break
    if word in w.format_verbs:
        found.append(reader.broadcast_format(sent, k))
    if word in w.roles:
        found.append(reader.role(sent, k))
    if word in w.located_verbs:
        found.append(reader.located(sent, k))
    if word in w.career_verbs:
        found.append(reader.career(sent, k))
    for phrase, attribute in w.makers:
        if word == phrase[0] and _at(lower, k, phrase):
            found.append(reader.maker(sent, k, len(phrase), attribute))
            break
    for phrase in w.team_phrases:
        if word == phrase[0] and _at(lower, k, phrase):
            found.append(reader.current_team(sent, k, len(phrase)))
            break
    return [r for r in found if r is not None]


def relation_claims(
    doc: Doc,
    text: str,
    lower: Sequence[str],
    idx: Sequence[int],
    ends: Sequence[int],
    source_id: str | None,
    source_version_id: str | None,
    generation: str,
) -> list[Claim]:
    """The relations of ``doc`` as categorical claims: of the page's subject (no entity
    here; the opening reader names it) or of the name the sentence opens with."""
    relations = prose_relations(doc, text, lower, idx, ends)
    if not relations:
        return []
    make_id = stable_id_maker("cl", source_version_id, generation, "prose")
    stopwords = resources().stopwords
    claims: list[Claim] = []
    for relation in relations:
        entity = fold_name(name_tokens(relation.subject), stopwords) if relation.subject else None
        entity = entity or None
        key = f"{entity} {relation.attribute}" if entity else relation.attribute
        s0, s1 = relation.sentence
        while s0 < s1 and text[s0].isspace():
            s0 += 1
        while s1 > s0 and text[s1 - 1].isspace():
            s1 -= 1
        value = text[relation.start : relation.end]
        fields: dict[str, Any] = {
            "id": make_id(s0, s1, relation.start, key, value),
            "source_version_id": source_version_id,
            "source_id": source_id,
            "generation": generation,
            "subject": relation.subject,
            "predicate": relation.attribute,
            "claim_key": key,
            "coarse_key": relation.attribute.split()[-1],
            "entity": entity,
            "attribute": relation.attribute,
            "kind": ValueKind.CATEGORICAL,
            "value": value,
            **NO_QUANTITY,
            "value_span": trusted(CharSpan, {"start": relation.start, "end": relation.end}),
            **plain_statement(),
            "span": trusted(CharSpan, {"start": s0, "end": s1}),
            "quote": text[s0:s1],
            "confidence": CONFIDENCE,
            "created_at": None,
        }
        claims.append(trusted(Claim, fields))
    return claims


def with_relations(claims: list[Claim], extra: list[Claim]) -> list[Claim]:
    """``claims`` with ``extra`` placed in document order (by where each quote starts)."""
    out = list(claims)
    for claim in extra:
        at = next((k for k, c in enumerate(out) if c.span.start > claim.span.start), len(out))
        out.insert(at, claim)
    return out
