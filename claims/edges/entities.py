"""One entity across pages: a subject named only inside its page joins a namesake it agrees with.

The extractor names a page's subject "<name> (in <source>)" when nothing tells it from its
namesakes: no title, the name read late in the page (``claims/extraction/opening.py``). Such
a subject conflicts with no other page, which keeps two footballers of one name apart, but
it also keeps apart a copy of an article and the article itself ("kind hush (in doc03)" and
"kind hush (album)"), so a swapped value between them is never seen.

Record linkage by shared facts decides which it is. Candidates are blocked by base name
(the name without its "(in <source>)" mark or its "(album)" disambiguator), so only entities
of one name are ever compared, never all pairs. A page-local subject ``L`` and another
page's subject ``E`` of the same base name are one entity when their pages

- agree on at least ``MIN_AGREEING`` attributes (both state the attribute and one value of
  each side is equal by the edge rules' value comparison), counting only values that tell
  the two apart from the named namesakes of the block: a value another titled or plain
  subject of the name states as well ("album", "football") says nothing about which
  namesake this is (other page-local subjects are candidates, not namesakes, and do not
  count here); and
- disagree on at most ``MAX_DIFFERING`` attributes (every value of one side cannot hold with
  every value of the other).

When the pages agree on one telling attribute only and differ on one, they are one entity
still if they state the differing one in a sentence written word for word but for the value
("It was built about 1835, and is a two-story frame dwelling ..." / "... about 1935, ..."):
the copy wrote its value into the article's sentence.

An agreement on one calendar day (both pages: died 17 August 1930) weighs ``DAY_WEIGHT``
agreements: namesakes do not share a birth or death day. A year or a month against a day
inside it ("released in 1976" / "on 11 June 1976") is an agreement as far as the coarser
value goes, for a page-local subject only (``evidence(coarse_dates=True)``).

Two namesakes (two towns, two footballers) share few telling facts and differ on several,
so they stay apart. A page-local subject that qualifies with two differently named entities
equally well is linked to neither (the pages cannot tell which namesake it is). Titled
entities are joined to one another only when one is the other's page retitled: the pages
agree on at least ``MIN_RETITLED_AGREEING`` telling facts (a date or an amount among them)
or write one long sentence alike, value and all (``MIN_SHARED_WORDS``), differ on one
attribute, and each title's disambiguator writes its own page's value of it ("george horner
(died 1677)" / "george horner (died 1777)"); otherwise their titles say they are two
(docs/EDGES.md, "One entity across pages", has the figures behind the thresholds).

A page-local subject is also compared with the subjects of the names it writes more or less
fully ("film choorian (in doc02)" beside "choorian (1998 film)", "edmund maurice burke
roche, 4th baron fermoy (in doc03)" beside "maurice roche, 4th baron fermoy"): one name's
words stand in the other's in order and both end with one word (``_join_fuller_names``).

The links only widen which claims the builder compares (``builder._linked_block``): the
stored claims keep their keys, and each edge between linked subjects says so in its reason.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from claims.edges.compare import AGREE, INCOMPATIBLE, compare_values
from claims.edges.facts import ClaimFacts

# Least number of telling attributes two pages must agree on, and most they may differ on,
# for a page-local subject to be the other page's subject (docs/EDGES.md has the table).
MIN_AGREEING = 2
MAX_DIFFERING = 1
# An agreement on one calendar day (a birth or a death date to the day) tells two people
# apart from their namesakes on its own: it counts as this many agreements.
DAY_WEIGHT = 2
# Least weight of agreement for two titled subjects that are one page retitled
MIN_RETITLED_AGREEING = 3
# A block of one base name holding more entities than this is a common name ("john smith"):
# not searched, which keeps the work linear (the pairs of a block grow with its square).
MAX_BLOCK_ENTITIES = 32
# Least words of a sentence two titled pages write alike, value and all, for it to tell that
# one copies the other ("It educates around 75 students in grades 7-12.")
MIN_SHARED_WORDS = 8
# Most words a copy may change in a sentence it otherwise writes as the article does (the
# value: "28 September 1981" / "1 April 1975")
MAX_SWAPPED_WORDS = 6
_A_YEAR = 366  # days, the widest date span that agrees with a day inside it

_DISAMBIGUATOR = re.compile(r"^(.+?) \([^()]*\)$")


def page_local(facts: ClaimFacts) -> bool:
    """Whether the claim's subject is named only inside its own page ("x (in doc03)")."""
    return bool(facts.source_id) and facts.entity_local_to == facts.source_id


def base_name(entity: str) -> str:
    """The name without its page mark or disambiguator ("kind hush (album)" -> "kind hush"),
    for retrieval, which reads entities as readable text; the edges read ``ClaimFacts``'
    entity fields instead."""
    found = _DISAMBIGUATOR.match(entity)
    return found.group(1) if found else entity


@dataclass(frozen=True, slots=True)
class Evidence:
    """What two subjects' pages state alike and differently (attributes, sorted)."""

    agreeing: tuple[str, ...]
    differing: tuple[str, ...]
    # the agreeing attributes whose shared value is one calendar day
    on_a_day: tuple[str, ...] = ()

    def weight(self) -> int:
        return len(self.agreeing) + (DAY_WEIGHT - 1) * len(self.on_a_day)

    def linked(self) -> bool:
        return self.weight() >= MIN_AGREEING and len(self.differing) <= MAX_DIFFERING

    def strength(self) -> tuple[int, int]:
        return self.weight() - len(self.differing), self.weight()


@dataclass
class EntityLinks:
    """Subjects found to be one entity: each linked entity's canonical name and evidence."""

    canonical: dict[str, str] = field(default_factory=dict)
    # (local entity, entity it was linked to) -> the evidence of the link
    evidence: dict[tuple[str, str], Evidence] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.canonical)

    def name_of(self, entity: str) -> str:
        return self.canonical.get(entity, entity)

    def reason(self, a: str, b: str) -> str:
        """Why the claims of ``a`` and ``b`` are compared as one entity's (for edge reasons)."""
        found = self.evidence.get((a, b)) or self.evidence.get((b, a))
        if found is None:  # both joined through a third subject: cite the local side's link
            found = next(
                (e for (x, _), e in sorted(self.evidence.items()) if x in (a, b)),
                Evidence((), ()),
            )
        agreed = ", ".join(found.agreeing) or "-"
        return f"same entity: {a!r} and {b!r}, pages agree on {agreed}"


# What ``compare.compare_values`` reads of a claim: claims equal in these compare alike, so
# each subject's attribute is compared once per distinct value, not once per claim.
def value_key(facts: ClaimFacts) -> tuple[object, ...]:
    return (
        facts.kind, facts.label, facts.stance, facts.bound, facts.lo, facts.hi,
        facts.lo_open, facts.hi_open, facts.tol, facts.dimension, facts.predicate, facts.unit,
    )  # fmt: skip


def _shown(facts: ClaimFacts) -> tuple[object, ...]:
    """The value as the telling test sees it (one label, one interval)."""
    return (facts.kind, facts.label, facts.lo, facts.hi)


Stated = dict[str, dict[tuple[object, ...], ClaimFacts]]  # attribute -> value -> a claim


def _by_attribute(facts: Iterable[ClaimFacts]) -> Stated:
    found: Stated = defaultdict(dict)
    for facts_ in facts:
        found[facts_.attribute].setdefault(value_key(facts_), facts_)
    return found


def evidence(
    x: Stated,
    y: Stated,
    telling: Callable[[str, tuple[object, ...]], bool] | None = None,
    *,
    coarse_dates: bool = False,
) -> Evidence:
    """The attributes both subjects' claims state alike (telling ones) and differently.

    ``telling(attribute, value)`` says whether a shared value tells the two apart from the
    block's named namesakes (every album of the name is an album: not telling).
    ``coarse_dates``: a year or a month holding the other side's day agrees too; only for a
    page-local subject, whose page may state its date coarser than the article (a copy's
    box "1976"). Two titled pages are held to equal dates: a remake's page names the year
    of the film it remakes ("the 1934 film"), which would make two films of one title agree.
    """
    agreeing: list[str] = []
    differing: list[str] = []
    on_a_day: list[str] = []
    for attribute in sorted(x.keys() & y.keys()):
        xs, ys = x[attribute].values(), y[attribute].values()
        states = {compare_values(a, b).state for a in xs for b in ys}
        if AGREE in states:
            shared = {_shown(a) for a in xs} & {_shown(b) for b in ys}
            told = [v for v in shared if telling is None or telling(attribute, v)]
            if told:
                agreeing.append(attribute)
                if any(_one_day(v) for v in told):
                    on_a_day.append(attribute)
        elif states == {INCOMPATIBLE}:
            differing.append(attribute)
        elif coarse_dates:
            # a year or a month against a day inside it ("1976" / "11 June 1976"): the
            # two pages agree as far as the coarser one says (both values telling)
            inside = [
                (a, b) for a in xs for b in ys if a.kind == b.kind == "date" and _within(a, b)
            ]
            if (
                inside
                and INCOMPATIBLE not in states
                and any(
                    telling is None
                    or (telling(attribute, _shown(a)) and telling(attribute, _shown(b)))
                    for a, b in inside
                )
            ):
                agreeing.append(attribute)
    return Evidence(tuple(agreeing), tuple(differing), tuple(on_a_day))


def _one_day(value: tuple[object, ...]) -> bool:
    """A shown date value that is one calendar day."""
    kind, _, lo, hi = value
    return kind == "date" and lo == hi


def _within(a: ClaimFacts, b: ClaimFacts) -> bool:
    """One date's days lie inside the other's, the wider one a year at most ("1976" holds
    "1976-06-11"; a decade or an open span holds too much to tell anything)."""
    wide, narrow = (a, b) if a.hi - a.lo >= b.hi - b.lo else (b, a)
    if not wide.hi - wide.lo <= _A_YEAR:  # also false for an unbounded (infinite) span
        return False
    return wide.lo <= narrow.lo and narrow.hi <= wide.hi


def _blocks(
    claims: Iterable[ClaimFacts],
) -> tuple[dict[str, dict[str, list[ClaimFacts]]], set[str]]:
    """Claims by base name and entity, and the page-local entities among them."""
    blocks: dict[str, dict[str, list[ClaimFacts]]] = defaultdict(lambda: defaultdict(list))
    local: set[str] = set()
    for facts in claims:
        if not facts.entity:
            continue
        if page_local(facts):
            local.add(facts.entity)
        # the name without its qualifier or page mark (the entity's own name)
        blocks[facts.entity_name or facts.entity][facts.entity].append(facts)
    _join_fuller_names(blocks, local)
    return blocks, local


def _join_fuller_names(blocks: dict[str, dict[str, list[ClaimFacts]]], local: set[str]) -> None:
    """Put each page-local subject also into the blocks of the names it writes more or less
    fully: a page cut elsewhere names its subject with a kind word or furniture before the
    title ("film choorian (in doc02)" beside "choorian (1998 film)"), with the full name of
    which the title is the short form ("edmund maurice burke roche, 4th baron fermoy (in
    doc03)" beside "maurice roche, 4th baron fermoy"), or shorter ("walter price (in doc05)"
    beside "walter john price (in doc03)"). The two names end with one word and the words of
    the shorter one stand in the longer one in order; the link still rests on the facts both
    pages state. Candidates are found through the last word, so no two names of different
    last words are ever compared."""
    by_last: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for name in blocks:
        words = tuple(_WORDS.findall(name.casefold()))
        if words:
            by_last[words[-1]].append((name, words))
    for name in list(blocks):
        entities = blocks[name]
        mine = [e for e in entities if e in local]
        if not mine:
            continue
        words = tuple(_WORDS.findall(name.casefold()))
        if not words or len(by_last[words[-1]]) > MAX_BLOCK_ENTITIES:
            continue
        for other, other_words in by_last[words[-1]]:
            if other == name or not (
                _in_order(words, other_words) or _in_order(other_words, words)
            ):
                continue
            for entity in mine:
                blocks[other].setdefault(entity, entities[entity])


def _in_order(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether the words of ``short`` stand in ``long`` in the same order."""
    rest = iter(long)
    return len(short) < len(long) and all(word in rest for word in short)


def link_candidates(claims: Iterable[ClaimFacts]) -> set[str]:
    """The entities among ``claims`` that ``link_entities`` may join: those of a base-name
    block holding a page-local subject or two disambiguated titles. An incremental recompute
    loads their other claims, the evidence a link rests on, beside the blocks it evaluates."""
    blocks, local = _blocks(claims)
    return {
        entity
        for entities in blocks.values()
        if 2 <= len(entities) <= MAX_BLOCK_ENTITIES
        and (local & entities.keys() or len(_disambiguated(entities, entities.keys() - local)) >= 2)
        for entity in entities
    }


def link_entities(claims: Iterable[ClaimFacts]) -> EntityLinks:
    """The page-local subjects among ``claims`` that are another page's subject (see module)."""
    blocks, local = _blocks(claims)
    links = EntityLinks()
    chosen: list[tuple[tuple[int, int], str, str]] = []
    copies: list[tuple[str, str, Evidence]] = []
    for entities in blocks.values():
        if len(entities) < 2 or len(entities) > MAX_BLOCK_ENTITIES:
            continue
        retitled = _disambiguated(entities, entities.keys() - local)
        if not local & entities.keys() and len(retitled) < 2:
            continue
        attributes = {name: _by_attribute(facts) for name, facts in entities.items()}
        sources = {name: {f.source_id for f in facts} for name, facts in entities.items()}
        # attribute -> value -> the named (not page-local) subjects of the block stating it
        named: dict[tuple[str, tuple[object, ...]], set[str]] = defaultdict(set)
        for subject, stated in attributes.items():
            if subject not in local:
                for attribute, values in stated.items():
                    for facts in values.values():
                        named[(attribute, _shown(facts))].add(subject)
        for name in sorted(local & entities.keys()):
            qualified: list[tuple[tuple[int, int], str, Evidence]] = []
            for other in sorted(entities):
                if other == name or sources[other] <= sources[name]:
                    continue
                pair = {name, other}

                def telling(attribute: str, value: tuple[object, ...]) -> bool:
                    return not named.get((attribute, value), set()) - pair  # noqa: B023

                found = evidence(attributes[name], attributes[other], telling, coarse_dates=True)
                if (
                    not found.linked()
                    and len(found.differing) == 1
                    and found.weight() == MIN_AGREEING - 1
                    and _copied_sentence(entities[name], entities[other], found.differing[0])
                ):
                    # the one differing value written into the other page's sentence
                    found = Evidence(
                        (*found.agreeing, f"the sentence of {found.differing[0]}"),
                        found.differing,
                        found.on_a_day,
                    )
                if found.linked():
                    qualified.append((found.strength(), other, found))
            if not qualified:
                continue
            qualified.sort(key=lambda q: (q[0], q[1]), reverse=True)
            best_strength, best, found = qualified[0]
            titled = [q for q in qualified if q[1] not in local]
            if len(titled) > 1 and titled[0][0] == titled[1][0]:
                continue  # two namesakes fit as well: the page does not say which it is
            links.evidence[(name, best)] = found
            chosen.append((best_strength, name, best))
        if len(retitled) >= 2:
            sentences = {name: _long_sentences(entities[name]) for name in retitled}
            copies.extend(_retitled_copies(retitled, attributes, named, sentences))
    _join(links, chosen, local)
    for a, b, found in copies:
        if a in links.canonical or b in links.canonical:
            continue  # already one with a page-local copy: one link per title is enough
        links.evidence[(a, b)] = found
        links.canonical[a] = links.canonical[b] = min(a, b)
    return links


def _copied_sentence(x: list[ClaimFacts], y: list[ClaimFacts], attribute: str) -> bool:
    """Whether two subjects' pages state ``attribute`` in one sentence written word for word
    but for the value ("It was built about 1835, and is a two-story frame dwelling with a
    one-story wing ..." / "... about 1935, ..."): at least ``MIN_SHARED_WORDS`` words alike
    around at most ``MAX_SWAPPED_WORDS`` that differ on each side. Only the few claims of
    one attribute of two subjects are compared."""
    xs = {f.quote_norm for f in x if f.attribute == attribute}
    ys = {f.quote_norm for f in y if f.attribute == attribute}
    for a in xs:
        ta = _WORDS_ANY.findall(a)
        for b in ys:
            tb = _WORDS_ANY.findall(b)
            shorter = min(len(ta), len(tb))
            head = 0
            while head < shorter and ta[head] == tb[head]:
                head += 1
            tail = 0
            while tail < shorter - head and ta[-1 - tail] == tb[-1 - tail]:
                tail += 1
            if (
                head + tail >= MIN_SHARED_WORDS
                and 0 < len(ta) - head - tail <= MAX_SWAPPED_WORDS
                and 0 < len(tb) - head - tail <= MAX_SWAPPED_WORDS
            ):
                return True
    return False


_WORDS_ANY = re.compile(r"\w+")


def _disambiguated(
    entities: Mapping[str, list[ClaimFacts]], names: Iterable[str]
) -> dict[str, set[str]]:
    """The names with a qualifier, and its words ("war music (jay z album)" -> {jay, z,
    album})."""
    found: dict[str, set[str]] = {}
    for name in names:
        qualifier = entities[name][0].entity_qualifier
        if qualifier:
            found[name] = set(_WORDS.findall(qualifier.casefold()))
    return found


_WORDS = re.compile(r"[a-z0-9]+")


def _value_words(facts: ClaimFacts) -> set[str]:
    """The words a title would write a value with: a label's words, a date's year."""
    if facts.kind == "date" and abs(facts.lo) < 1e9:
        return {str(date.fromordinal(int(facts.lo)).year)}
    return set(_WORDS.findall(str(facts.label or facts.shown).casefold()))


def _title_writes(title: set[str], facts: ClaimFacts) -> bool:
    """Whether a disambiguator's words write the value of ``facts``: all the value's words
    ("(jay z album)": Jay-Z), or the value holds all the disambiguator's ("(fulton)":
    "Fulton, Illinois, USA")."""
    value = _value_words(facts)
    return bool(value and title) and (value <= title or title <= value)


def _long_sentences(facts: Iterable[ClaimFacts]) -> set[str]:
    """The sentences of ``facts`` long enough to tell a copy (``MIN_SHARED_WORDS``)."""
    return {f.quote_norm for f in facts if len(f.quote_norm.split()) >= MIN_SHARED_WORDS}


def _agree_on_a_figure(x: Stated, y: Stated, agreeing: Iterable[str]) -> bool:
    """Whether one of the ``agreeing`` attributes agrees on a date or an amount, not only
    on a label (two films of one name are both Tamil-language drama films)."""
    return any(
        a.kind in _FIGURES and b.kind == a.kind and compare_values(a, b).state == AGREE
        for attribute in agreeing
        for a in x[attribute].values()
        for b in y[attribute].values()
    )


_FIGURES = frozenset({"date", "quantity"})


def _retitled_copies(
    retitled: dict[str, set[str]],
    attributes: dict[str, Stated],
    named: dict[tuple[str, tuple[object, ...]], set[str]],
    sentences: dict[str, set[str]],
) -> list[tuple[str, str, Evidence]]:
    """Two titled subjects of one name that are one page copied and retitled: their pages
    agree on at least ``MIN_RETITLED_AGREEING`` telling facts, one of them a date or an
    amount, or write one sentence of ``MIN_SHARED_WORDS`` words alike (``sentences``: "It
    educates around 75 students in grades 7-12." on both pages, where every other fact is a
    label or the swapped value); they differ on one attribute only, and each title's
    disambiguator writes its own page's value of that attribute ("george horner (died 1677)"
    / "(died 1777)"; "war music (slim the mobster album)" / "(jay z album)"), or the value
    begins with it ("grace academy (fulton)" located in "Fulton, Illinois, USA"): the copy
    rewrote its title with the value it swapped."""
    found: list[tuple[str, str, Evidence]] = []
    names = sorted(retitled)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            pair = {a, b}

            def telling(attribute: str, value: tuple[object, ...]) -> bool:
                return not named.get((attribute, value), set()) - pair  # noqa: B023

            evidence_ = evidence(attributes[a], attributes[b], telling)
            if len(evidence_.differing) != 1:
                continue
            shared = sentences[a] & sentences[b]
            if not shared and (
                evidence_.weight() < MIN_RETITLED_AGREEING
                or not _agree_on_a_figure(attributes[a], attributes[b], evidence_.agreeing)
            ):
                continue  # "film", "Tamil-language", "drama": every film of the name may be
            (attribute,) = evidence_.differing
            if all(
                any(_title_writes(retitled[x], f) for f in attributes[x][attribute].values())
                for x in (a, b)
            ):
                found.append((a, b, evidence_))
    # a title that would be the copy of two others: which one it copies cannot be told
    count = Counter(name for a, b, _ in found for name in (a, b))
    return [(a, b, e) for a, b, e in found if count[a] == count[b] == 1]


def _join(
    links: EntityLinks, chosen: list[tuple[tuple[int, int], str, str]], local: set[str]
) -> None:
    """Union the chosen links, strongest first; a component never holds two titled entities
    (a page-local subject between two namesakes does not make them one)."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.get(name, name) != name:
            name = parent[name]
        return name

    titled_of: dict[str, str | None] = {}
    for _, a, b in sorted(chosen, key=lambda c: (c[0], c[1], c[2]), reverse=True):
        ra, rb = root(a), root(b)
        if ra == rb:
            continue
        ta = titled_of.get(ra, None if ra in local else ra)
        tb = titled_of.get(rb, None if rb in local else rb)
        if ta is not None and tb is not None:
            links.evidence.pop((a, b), None)
            continue
        # the titled entity (if any) names the component
        keep, drop = (rb, ra) if ta is None else (ra, rb)
        parent[drop] = keep
        titled_of[keep] = ta if ta is not None else tb
    for name in {n for pair in links.evidence for n in pair}:
        top = root(name)
        titled = titled_of.get(top)
        links.canonical[name] = titled if titled is not None else top
