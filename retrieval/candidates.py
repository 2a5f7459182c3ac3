"""Which claim keys may answer a question: by entity, by attribute similarity, by quote text.

A question rarely repeats a document's words ("How many people live in Lakeview?" against
"Lakeview had 4,210 residents"). So the keys a question may be about come from indexed
reads, never from a scan, run from the most selective to the broadest; the first that yields
a candidate decides:

1. claims whose entity is the question's entity, exactly or as the start of a longer name
   ("springfield" finds "springfield, illinois"), or is a word or word pair the parser left
   among the attribute words;
2. claims whose attribute equals the question's;
3. claims of the same attribute class (the attribute's head word);
4. a full-text search over claim quotes with the question's content words
   (``claims.store.search``).

Every read keeps only claims of sources the requester may see *before* anything is scored,
ranked or cut, so a hidden claim never takes a rank (the view-equivalence rule of
docs/RETRIEVAL.md), and which read decides depends on visible claims only. Each key is then
scored: attribute similarity (the edges' scoring, ``claims.edges.similarity``) times how well
the entity fits; a key about another entity, an attribute in the ``different`` band, or
values of a kind the question does not ask for (``retrieval.answer_type``) are
dropped: an incidental number never answers.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from sqlalchemy import Connection, TextClause

from claims.edges.similarity import DIFFERENT, SAME, match_attributes
from claims.extraction.identity import GENERIC_ACRONYMS, is_dictionary_word, model_name
from claims.extraction.question_frames import honorifics, kind_words, name_suffixes
from claims.models import EntityRef
from claims.store.batches import batches
from claims.store.claims import entity_ref_of
from claims.store.search import search_quotes, statement_text, visible_claims_condition
from claims.units.counted import singular
from claims.units.lexicon import lookup as unit_lookup
from retrieval.answer_type import AnswerType, value_fits
from retrieval.answering import answering_attributes, entity_references, standing_in_for
from retrieval.name_forms import name_forms

# how many rows each indexed read may return (bounds the work per question)
MAX_ROWS = 400
MAX_KEYS = 20
MAX_NAMED = 12  # words and word pairs of an attribute looked up as entity names
# entity fit: exact, a longer name that starts with the asked one, one side silent
EXACT_ENTITY = 1.0
PARTIAL_ENTITY = 0.9
ENTITY_NOT_ASKED = 0.8  # the claim names one, the question none
ENTITY_NOT_STATED = 0.7  # the question names one, the claim none
SHORT_NAME = 0.85  # the claim names it by a shorter form ("bryan" for "general bryan")
NAME_PART = 0.8  # the question names it by part of its full name ("justice dunn")
LAST_NAME = 0.75  # the question names it by the last word of its name alone ("marcoux")
MAX_NAME_WORDS_FOR_LAST = 3
# an attribute whose claims answer the asked one (a census count for a population)
ANSWERING_ATTRIBUTE = 0.9
# an attribute that answers it when nothing states it ("opened" for "founded"): below any
# claim of the asked attribute
STANDING_IN_ATTRIBUTE = 0.6
# what may follow a name that a longer name starts with ("springfield, illinois"); a
# stored disambiguator is read from the claim's ``EntityRef``, never from a bracket
_NAME_SEPARATORS = (" ", ",")
_NAME_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class KeyCandidate:
    """A claim key a question may be about, with why and how well."""

    claim_key: str
    entity: str | None
    attribute: str
    score: float
    attribute_score: float
    entity_fit: float
    found_by: str  # "attribute", "entity" or "quote search"
    ref: EntityRef | None = None  # ``entity`` as stored: name, qualifier, source it is local to

    def describe(self) -> str:
        entity = f", entity {self.entity!r}" if self.entity else ""
        return (
            f"{self.claim_key!r} (score {self.score:.2f}: attribute {self.attribute_score:.2f}"
            f" x entity {self.entity_fit:.2f}{entity}; found by {self.found_by})"
        )


@lru_cache(maxsize=1)
def _function_words() -> frozenset[str]:
    from claims.extraction.resources import resources

    res = resources()
    return res.stopwords | res.question_words


def _phrases(attribute: str) -> list[str]:
    """Words and adjacent word pairs of an attribute, at most ``MAX_NAMED`` of them."""
    words = attribute.split()
    pairs = [" ".join(pair) for pair in zip(words, words[1:], strict=False)]
    found = dict.fromkeys([*words, *pairs])
    return list(found)[:MAX_NAMED]


def unknown_names(attribute: str) -> list[str]:
    """The words of an attribute that can only be a name the parser left there: no
    dictionary, unit or function word ("zorbex" in "zorbex token limit"). A claim that
    answers the question names one of them (in its entity, attribute or quote)."""
    return [
        word
        for word in attribute.split()
        if len(word) > 1
        and word.isalpha()
        and word not in _function_words()
        and word not in kind_words()
        and word not in GENERIC_ACRONYMS
        and not is_dictionary_word(word)
        and unit_lookup(word) is None
    ]


def _holds_phrase(attribute: str, phrase: str) -> bool:
    return f" {phrase} " in f" {attribute} "


def _without_phrase(attribute: str, phrase: str) -> str:
    return " ".join(f" {attribute} ".replace(f" {phrase} ", " ").split())


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _starts_with(conn: Connection, params: dict[str, object], mark: str, prefix: str) -> str:
    """SQL: ``c.entity`` starts with ``prefix``. SQLite reads it as a range of the
    (generation, entity) index (its LIKE never uses an index of the default collation, so a
    LIKE is a scan of every claim); other dialects keep LIKE, whose collation may order
    punctuation apart from the bytes a range would assume."""
    if conn.dialect.name == "sqlite" and prefix and ord(prefix[-1]) < sys.maxunicode:
        params[f"{mark}_lo"] = prefix
        params[f"{mark}_hi"] = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        return f"(c.entity >= :{mark}_lo AND c.entity < :{mark}_hi)"
    params[mark] = _like_escape(prefix) + "%"
    return f"c.entity LIKE :{mark} ESCAPE '\\'"


def name_words(name: str) -> tuple[str, ...]:
    """The words of an entity name, punctuation aside ("springfield, illinois",
    "christy o'connor" -> ("christy", "o", "connor"))."""
    return tuple(_NAME_WORD.findall(name.casefold()))


def entity_fit(asked: str | None, stated: str | EntityRef | None) -> float:
    """How well a claim's entity fits the asked one; 0 when they are different things.

    ``stated`` is the claim's stored ``EntityRef`` (its name, the qualifier that tells it
    from namesakes, the source it is local to); a plain string is a name and nothing else:
    a bracket in it is part of the name ("router (model b)"), never read as a qualifier.

    Exact; a longer name starting with the asked one ("springfield" -> "springfield,
    illinois", "harry parke" -> "harry parke footballer"); a shorter reference made of the
    asked name's words and ending with its last word ("general bryan" -> "bryan", the way a
    text names its subject after the first mention). A name spelt otherwise in Latin letters
    ("devatha" for "devata (1941 film)", the reference profile's ``NameForms``) fits as well
    as its spelling would, at most as part of the name.
    """
    given = as_ref(stated)
    fit = _entity_fit(asked, given)
    if fit or not asked or given is None:
        return fit
    spelling_keys = name_forms().spelling_keys
    keyed, stated_keyed = spelling_keys(asked), spelling_keys(given.name)
    if keyed == asked and stated_keyed == given.name:
        return fit
    spelt = EntityRef(name=stated_keyed, qualifier=given.qualifier, local_to=given.local_to)
    return min(_entity_fit(keyed, spelt), NAME_PART)


def as_ref(stated: str | EntityRef | None) -> EntityRef | None:
    """``stated`` as a reference: a plain string is a name with no qualifier, local to no
    source (its brackets are its own words)."""
    if stated is None or isinstance(stated, EntityRef):
        return stated
    return EntityRef(name=stated) if stated else None


def _entity_fit(asked: str | None, given: EntityRef | None) -> float:
    if not asked:
        return ENTITY_NOT_ASKED if given else EXACT_ENTITY
    if not given:
        return ENTITY_NOT_STATED
    stated = given.text
    if asked == stated:
        return EXACT_ENTITY
    if stated in entity_references():
        # "The club was founded in 1968" on a page cut from its article names its subject
        # only by what it is: as good as a claim naming none, never a name of its own
        return ENTITY_NOT_STATED
    # a subject known as named in one source (no title tells it from its namesakes) fits
    # no better than a titled namesake ("kind hush (album)"): the reference says so as data
    if given.local_to is not None:
        titled = EntityRef(name=given.name, qualifier=given.qualifier)
        return min(PARTIAL_ENTITY, entity_fit(asked, titled))
    if any(stated.startswith(asked + sep) for sep in _NAME_SEPARATORS):
        return PARTIAL_ENTITY
    want, have = name_words(asked), name_words(stated)
    if not want or not have:
        return 0.0
    if want == have:
        return EXACT_ENTITY
    if have[: len(want)] == want:
        return PARTIAL_ENTITY
    if stated == _model_of(asked):
        # "the P-9 router" asked, "p-9" stated: a document titled "P-9 Router" names the
        # model without its kind word (claims.extraction.identity.model_name)
        return PARTIAL_ENTITY
    if len(have) < len(want) and set(have) <= set(want) and have[-1] == want[-1]:
        return SHORT_NAME
    named = _without_trailing_kinds(want)
    if named and named != want and named == have:
        # "washington street station" for "washington street", "the Night Owls TV
        # series" for "night owls": the words after the name say what kind of thing it is
        return NAME_PART
    return _name_part(want, given)


def _without_trailing_kinds(words: tuple[str, ...]) -> tuple[str, ...]:
    """A name without the kind words it ends with ("danger mouse tv series" -> "danger
    mouse"); the name itself when nothing but kind words would be left."""
    kinds = kind_words()
    end = len(words)
    while end > 1 and words[end - 1] in kinds:
        end -= 1
    return words[:end]


def question_fit(
    asked: str | None, stated: str | EntityRef | None, question_words: Collection[str]
) -> float:
    """``entity_fit``, but a titled entity whose disambiguation the question states in its
    own words is the asked one as much as the bare name: "When was Harlan Voss elected to the
    Vermont House of Representatives?" asks about "harlan voss (vermont representative)" as
    much as about a page's bare "harlan voss", so neither outranks the other and both are named. A
    disambiguation the question does not state ("long shadows (the tin herons album)") keeps
    its lower fit. The disambiguation is the stored reference's qualifier (a subject local
    to one source has none that tells it apart; a plain string has none)."""
    fit = entity_fit(asked, stated)
    if fit == 0.0 or fit == EXACT_ENTITY or not asked or not isinstance(stated, EntityRef):
        return fit
    if stated.qualifier is None or stated.local_to is not None:
        return fit
    if entity_fit(asked, EntityRef(name=stated.name)) != EXACT_ENTITY:
        return fit  # the name before the qualifier must be the asked one
    words = [w for w in name_words(stated.qualifier) if w not in _function_words()]
    if not words or any(w.isdigit() for w in words):
        return fit
    asked_words = {w for q in question_words for w in name_words(q)}
    if all(any(q.startswith(w) for q in asked_words) for w in words):
        return EXACT_ENTITY
    return fit


def _name_part(want: tuple[str, ...], given: EntityRef) -> float:
    """A person or place named by part of its full name: "justice dunn" for "charles j
    dunn", "horace rumbold" for "sir horace rumbold, 8th baronet", "john williams" for "john
    hartley williams", "blue lake township, michigan" for "blue lake township, kalkaska
    county, michigan". Titles aside, the names agree on their head (the words before a comma,
    qualifier apart) and every asked word is in the stated name: the same head, the same first
    and last word, or a surname after a title ("General Bryan"). A longer head that merely
    ends with the asked name ("north harlow mill" for "harlow mill") is another thing."""
    titles = honorifics()
    asked = [w for w in want if w not in titles] or list(want)
    titled = len(asked) < len(want)
    # the head: the stored name before its place, its qualifier and source apart
    head = [w for w in name_words(given.name.split(",")[0]) if w not in titles]
    while len(head) > 1 and head[-1] in name_suffixes():
        head.pop()  # "henry sturgis morgan jr" is named "morgan"
    words = set(name_words(given.text))
    initials = {w[0] for w in words}
    same_given_name = name_forms().same_given_name
    if len(asked) > 1 and head and asked[0] not in words and same_given_name(asked[0], head[0]):
        # "rick leach" for "richard leach": the page writes the given name in a familiar form
        asked = [head[0], *asked[1:]]
    if (
        not head
        or not asked
        or not all(w in words or (len(w) == 1 and w in initials) for w in asked)
    ):
        return 0.0  # every asked word is in the stated name ("h" the initial of "hartley")
    if asked[: len(head)] == head:
        return NAME_PART  # the same head, the rest among the stated name's wider parts
    if _named_after_a_person(asked, head):
        return NAME_PART  # "short house" for "george w short house"
    named = [w for w in head if w not in kind_words()]
    if named and asked == named:
        return NAME_PART  # "maryborough" for "city maryborough (queensland)"
    first = asked[0] == head[0] or (len(asked[0]) == 1 and head[0].startswith(asked[0]))
    if len(asked) > 1 and first and asked[-1] == head[-1]:
        return NAME_PART  # first (or its initial) and last name, middle names left out
    if titled and asked[-1] == head[-1]:
        return NAME_PART  # a title and a surname
    if (
        len(asked) == 1
        and 1 < len(head) <= MAX_NAME_WORDS_FOR_LAST
        and asked[0] == head[-1]
        and _only_a_name(asked[0])
    ):
        # a word no dictionary knows, the last of a short name: "Marcoux" for "yvon
        # marcoux", "Gunbus" for "burgess gunbus" (a common noun, "mill", names no one
        # thing; a long run of page furniture ending with the name is no name of it)
        return LAST_NAME
    return 0.0


def _named_after_a_person(asked: list[str], head: list[str]) -> bool:
    """Whether ``head`` is the asked name with a person's given name (and initials) before it:
    a building or a firm named after its owner ("george w short house" for "short house",
    "john mason house" for "mason house"). Another word before it makes another thing
    ("north harlow mill" is not "harlow mill"). The asked name must end with a common noun
    (what the thing is), so "smith" alone never takes every "john smith"."""
    n = len(asked)
    if n < 2 or len(head) <= n or head[-n:] != asked or not is_dictionary_word(asked[-1]):
        return False
    before = head[:-n]
    return name_forms().is_given_name(before[0]) and all(len(w) == 1 for w in before[1:])


def _only_a_name(word: str) -> bool:
    return word not in kind_words() and not is_dictionary_word(word) and word.isalpha()


def _model_of(entity: str) -> str | None:
    """The model code an entity names with its kind words ("p-9 router" -> "p-9"), or None."""
    words = entity.split(" ")
    kept = model_name(words)
    return " ".join(words[:kept]) if kept < len(words) else None


def _short_names(entity: str) -> list[str]:
    """The shorter names a text may use for ``entity`` after the first mention: its
    trailing words ("general bryan" -> "bryan"); exact lookups, at most ``MAX_NAMED``."""
    words = name_words(entity)
    return [" ".join(words[i:]) for i in range(1, len(words))][:MAX_NAMED]


_ROW_COLUMNS = (
    "SELECT DISTINCT c.claim_key, c.entity, c.attribute, c.kind, c.dimension, "
    "c.entity_name, c.entity_qualifier, c.entity_local_to "
    "FROM claims c JOIN sources s ON s.id = c.source_id "
)
# ordered before the limit, so the rows kept depend only on the visible claims
_ROW_ORDER = " ORDER BY c.claim_key, c.entity, c.attribute, c.kind, c.dimension LIMIT :limit"
# a read row: (claim key, entity, attribute, kind, dimension) -> found by
Rows = dict[tuple[str, str | None, str, str, str | None], str]


def candidate_keys(
    conn: Connection,
    *,
    entity: str | None,
    attribute: str,
    attribute_class: str | None,
    words: Sequence[str],
    asked: AnswerType,
    generation: str,
    groups: Collection[str],
    qualifiers: Collection[str] = (),
) -> list[KeyCandidate]:
    """The keys a question may be about, best first (at most ``MAX_KEYS``).

    ``qualifiers`` are the question's words that fit no scope (a name the parser did not
    read as the entity, "lakeview"): a claim naming an entity none of them names is about
    something else.
    """
    rows: Rows = {}
    refs: dict[str, EntityRef | None] = {}  # a readable entity -> its stored reference
    params: dict[str, object] = {"generation": generation, "limit": MAX_ROWS}
    visible = visible_claims_condition(groups, params)
    select = _ROW_COLUMNS + f"WHERE c.generation = :generation AND {visible} AND "
    # a name the parser left among the attribute words ("zorbex" in "zorbex token limit")
    names = [] if entity else unknown_names(attribute)
    rank = partial(
        _rank,
        refs=refs,
        entity=entity,
        attribute=attribute,
        asked=asked,
        qualifiers=qualifiers,
        names=names,
    )
    # Reads from the most selective to the broadest; the first that yields a candidate
    # decides (each depends on visible claims only, so the choice does too).
    stages = [
        _by_entity(conn, params, entity, attribute),
        *_by_attribute(params, attribute, attribute_class, names),
    ]
    ranked: list[KeyCandidate] = []
    for stage in stages:
        for found_by, condition in stage:
            if found_by == "attribute" and not _any_claim(conn, condition, params):
                continue  # nothing holds it, visible or not: no ordered read of the store
            _read_rows(
                conn, statement_text(select + condition + _ROW_ORDER), params, found_by, rows, refs
            )
        ranked = rank(rows)
        if ranked:
            return ranked
    if names:
        # the quote of a claim about the named thing holds the name: searched for the name
        # alone, a few postings, never every quote holding "limit"
        words = names
    if not words:
        return ranked
    _by_quote_search(conn, words, generation, groups, rows, refs)
    return rank(rows)


def _read_rows(
    conn: Connection,
    sql: TextClause,
    params: dict[str, object],
    found_by: str,
    rows: Rows,
    refs: dict[str, EntityRef | None],
) -> None:
    """Add the rows ``sql`` reads to ``rows`` (the first way each was found kept), and the
    stored reference of each entity to ``refs``."""
    for row in conn.execute(sql, params):
        rows.setdefault((row[0], row[1], row[2] or row[0], row[3], row[4]), found_by)
        if row[1]:
            refs.setdefault(row[1], entity_ref_of(row))


def _by_entity(
    conn: Connection, params: dict[str, object], entity: str | None, attribute: str
) -> list[tuple[str, str]]:
    """The first stage: (found by, SQL condition) reads of claims by the asked entity, its
    shorter and familiar forms, and the attribute's words read as names."""
    by_entity = []
    if entity:
        params["entity"] = entity
        longer = _starts_with(conn, params, "entity_prefix", entity)
        by_entity.append(("entity", f"(c.entity = :entity OR {longer})"))
        shorter = _short_names(entity)
        model = _model_of(entity)
        if model is not None:
            shorter.append(model)
        familiar = [" ".join(form) for form in name_forms().name_forms(name_words(entity))]
        if familiar:
            # "nick hill" for "nicholas hill": the given name in its other forms, exact or
            # as the start of a longer name ("rick leach (baseball)")
            forms = _bind_list(params, "form", familiar)
            longer_forms = " OR ".join(
                _starts_with(conn, params, f"form_prefix{i}", form + " (")
                for i, form in enumerate(familiar)
            )
            by_entity.append(("entity", f"(c.entity IN ({forms}) OR {longer_forms})"))
        if shorter:
            shorts = _bind_list(params, "short", shorter)
            by_entity.append(("entity", f"c.entity IN ({shorts})"))
    # the parser may leave a name among the attribute words ("the zorbex token limit"):
    # each word and word pair of the attribute is also looked up as an entity (exact,
    # indexed; a bounded number of reads)
    named = _phrases(attribute)
    if named:
        phrases = _bind_list(params, "named", named)
        by_entity.append(("entity", f"c.entity IN ({phrases})"))
        # an article's subject keeps its place or disambiguation ("beacon mill, benenden",
        # "death at funeral (2007 film)"): word pairs are also looked up as its start
        pairs = [p for p in named if " " in p]
        likes = []
        for i, pair in enumerate(pairs):
            comma = _starts_with(conn, params, f"pair_comma{i}", pair + ",")
            bracket = _starts_with(conn, params, f"pair_bracket{i}", pair + " (")
            likes.append(f"{comma} OR {bracket}")
        if likes:
            by_entity.append(("entity", "(" + " OR ".join(likes) + ")"))
    return by_entity


def _by_attribute(
    params: dict[str, object], attribute: str, attribute_class: str | None, names: list[str]
) -> list[list[tuple[str, str]]]:
    """The later stages: claims of the asked attribute (or one answering it), then of its
    attribute class."""
    params["attribute"] = attribute
    answering = (*answering_attributes(attribute), *standing_in_for(attribute))
    marks = [":attribute"]
    for i, other in enumerate(answering):
        params[f"answering{i}"] = other
        marks.append(f":answering{i}")
    stages = [[("attribute", f"c.attribute IN ({', '.join(marks)})")]]
    if attribute_class:
        # a name the parser left among the attribute words ("zorbex" in "zorbex token
        # limit"): a claim of the class naming another entity is about something else, and
        # the claims naming it were read by entity above; of the class only claims naming
        # no entity (or naming it by what it is, "the club") remain, an indexed read, not
        # the whole class
        params["attribute_class"] = attribute_class
        by_class = "c.coarse_key = :attribute_class"
        if names:
            references = _bind_list(params, "reference", sorted(entity_references()))
            by_class += f" AND (c.entity IS NULL OR c.entity IN ({references}))"
        stages.append([("attribute", by_class)])
    return stages


def _by_quote_search(
    conn: Connection,
    words: Sequence[str],
    generation: str,
    groups: Collection[str],
    rows: Rows,
    refs: dict[str, EntityRef | None],
) -> None:
    """The fallback when entity and attribute found nothing: the keys of the claims whose
    quotes the full-text index finds for ``words``, visible claims only."""
    matches = search_quotes(conn, words, generation=generation, groups=groups, limit=MAX_ROWS // 2)
    keys = sorted({m.claim_key for m in matches})
    if not keys:
        return
    params: dict[str, object] = {"generation": generation, "limit": MAX_ROWS}
    visible = visible_claims_condition(groups, params)
    marks = _bind_list(params, "k", keys)
    sql = (
        _ROW_COLUMNS + f"WHERE c.generation = :generation AND {visible} "
        f"AND c.claim_key IN ({marks})" + _ROW_ORDER
    )
    _read_rows(conn, statement_text(sql), params, "quote search", rows, refs)


def _any_claim(conn: Connection, condition: str, params: dict[str, object]) -> bool:
    """Whether any claim of the generation meets ``condition``, visible or not: one probe of
    an index, so an attribute no claim holds costs no ordered read (which the planner may
    make by claim key over the whole store, when every claim shares one attribute). Hidden
    claims only spare a read that would find nothing visible, so no answer depends on them."""
    sql = f"SELECT 1 FROM claims c WHERE c.generation = :generation AND {condition} LIMIT 1"
    return conn.execute(statement_text(sql), params).first() is not None


def _rank(
    rows: Rows,
    *,
    refs: dict[str, EntityRef | None],
    entity: str | None,
    attribute: str,
    asked: AnswerType,
    qualifiers: Collection[str] = (),
    names: Collection[str] = (),
) -> list[KeyCandidate]:
    best: dict[str, KeyCandidate] = {}
    named = {w for q in qualifiers for w in q.replace(",", " ").split()}
    for (claim_key, stated, claim_attribute, kind, dimension), found_by in rows.items():
        if not value_fits(asked, kind=kind, dimension=dimension):
            continue
        asked_entity, asked_attribute = entity, attribute
        ref = refs.get(stated) if stated else None
        # the name before its place ("springfield, illinois") is read off the stored name,
        # its disambiguation and page apart
        head = (ref.name if ref else stated or "").split(",")[0]
        if not entity and stated and _holds_phrase(attribute, stated):
            # the name the parser left among the attribute words is the claim's entity
            asked_entity = stated
            asked_attribute = _without_phrase(attribute, stated) or attribute
        elif not entity and head and head != stated and _holds_phrase(attribute, head):
            # ... or the head of it, before its place or disambiguation
            asked_entity = head
            asked_attribute = _without_phrase(attribute, head) or attribute
        # "the zorbex token limit" of a claim in tokens: the unit word says what the value
        # is measured in, not which slot; it is no attribute word of the claim's "limit"
        for word in _unit_words(asked_attribute, dimension):
            asked_attribute = _without_phrase(asked_attribute, word) or asked_attribute
        fit = entity_fit(asked_entity, ref or stated)
        if (
            not asked_entity
            and stated
            and named
            and not named & set(stated.replace(",", " ").split())
        ):
            fit = 0.0  # the question names something, and not this
        if (
            not asked_entity
            and stated
            and names
            and stated not in entity_references()
            and not set(names) & set(name_words(stated))
            and not set(names) & set(claim_attribute.split())
        ):
            fit = 0.0  # the name left among the attribute words is not this claim's
        if fit == 0.0:
            continue  # a claim about another entity never answers the question
        match = match_attributes(asked_attribute, claim_attribute)
        attribute_score = match.score
        if claim_attribute in answering_attributes(asked_attribute):
            attribute_score = max(attribute_score, ANSWERING_ATTRIBUTE)
        elif claim_attribute in standing_in_for(asked_attribute):
            attribute_score = max(attribute_score, STANDING_IN_ATTRIBUTE)
        elif match.band == DIFFERENT:
            continue
        elif asked is AnswerType.ANY and match.band != SAME:
            # the question says nothing of the value's kind, so only the attribute vouches
            # for it: a merely similar one ("format" for "broadcast format") may hold any
            # stray number ("the 1990s")
            continue
        candidate = KeyCandidate(
            claim_key=claim_key,
            entity=stated,
            attribute=claim_attribute,
            score=round(attribute_score * fit, 4),
            attribute_score=attribute_score,
            entity_fit=fit,
            found_by=found_by,
            ref=ref,
        )
        current = best.get(claim_key)
        if current is None or candidate.score > current.score:
            best[claim_key] = candidate
    ranked = sorted(best.values(), key=lambda c: (-c.score, c.claim_key))
    return ranked[:MAX_KEYS]


def _unit_words(attribute: str, dimension: str | None) -> list[str]:
    """The words of an asked attribute that name the unit of a claim's value: "token" in
    "token limit" for a claim in tokens, "day" in "day limit" for one in a time unit. A word
    naming another unit ("byte" against tokens) stays an attribute word."""
    if not dimension:
        return []
    # the numerator decides ("USD/share" is money); a dimension may be written "[token]"
    stated = dimension.split("/")[0].strip("[]")
    named = []
    for word in attribute.split():
        entry = unit_lookup(word)
        unit = entry.dimension.split("/")[0] if entry is not None else None
        if unit == stated or f"count:{singular(word)}" == stated:
            named.append(word)
    return named


def visible_keys(
    conn: Connection, keys: Collection[str], *, generation: str | None, groups: Collection[str]
) -> set[str]:
    """The ``keys`` of ``generation`` at which some claim is visible to ``groups``: what a
    caller may count, rank or truncate over without the result depending on hidden claims."""
    if generation is None or not keys:
        return set()
    found: set[str] = set()
    for chunk in batches(sorted(set(keys))):
        params: dict[str, object] = {"generation": generation}
        visible = visible_claims_condition(groups, params)
        marks = _bind_list(params, "k", chunk)
        sql = (
            "SELECT DISTINCT c.claim_key FROM claims c JOIN sources s ON s.id = c.source_id "
            f"WHERE c.generation = :generation AND c.claim_key IN ({marks}) AND {visible}"
        )
        found.update(row[0] for row in conn.execute(statement_text(sql), params))
    return found


def _bind_list(params: dict[str, object], prefix: str, values: Sequence[str]) -> str:
    """Bind ``values`` as ``:prefix0, :prefix1, ...`` in ``params``; the marks for an IN list."""
    marks = []
    for i, value in enumerate(values):
        params[f"{prefix}{i}"] = value
        marks.append(f":{prefix}{i}")
    return ", ".join(marks)
