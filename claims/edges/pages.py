"""Pages told apart: claims of one key from two pages about two namesakes are no conflict.

A claim that names no entity ("The average household size was 2.22 and the average family
size was 2.84.") is keyed by its attribute alone, so every page's claims of the attribute
meet in one block. Pages cut from the middle of two articles written from one template (the
census sections of two towns of one name, "Rushford, Minnesota" and "Rushford, New York")
then conflict on every figure they both state, although each is right about its own town.
Likewise a page calls its subject for short ("Ritchie was born in 1869.", "The PDM was
established in 1973."), and two namesakes' pages meet in the key of the short name.

Two pages are told apart when

- both are titled, with two different titles (the one disambiguated name each page's
  claims give: "andrew ritchie (british army officer)" / "archibald ritchie (british army
  officer)"), not joined as one page retitled (``entities.link_entities``): the titles say
  they are two, as the edge linker holds titled subjects apart; or
- the claims both pages state (by claim key, values compared by the edge rules'
  ``compare.compare_values``) differ on at least ``MIN_DIFFERING`` keys and agree on fewer
  than they differ on. A key agrees when every value of each side has an equal on the
  other: a copy of one page with a value swapped states the same figures as its original
  but the swapped one and what follows from it (an age, a span of years); two namesakes'
  pages state the template's attributes with other figures throughout ("household size
  2.22 / 2.83, family size 2.84 / 3.04, median age 45.7 / 37" and nothing alike). A short
  excerpt with one figure tells nothing and keeps its conflict.

Only claims about their page are judged this way: claims naming no entity, and claims naming
their titled page's subject for short (``short_form``: "ritchie", "south hill", "pdm"). A
claim naming an entity of its own says what it is about; its page stays with every page of
the other side. The builder asks this of two disagreeing value groups of one key
(``builder._block``): when every pair of pages across them is told apart the pair is
``compatible`` by rule ``namesakes``; when some are, the claim edges join only the pages
that are not (docs/EDGES.md, "Namesake pages told apart").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from claims.edges.compare import AGREE, compare_values
from claims.edges.entities import Evidence, Stated, page_local, value_key
from claims.edges.facts import ClaimFacts

# Least claim keys two pages must state differently to be told apart: a copy swaps one
# value and what follows from it ("first broadcast on 15 August 1970 ... it ran for 33
# years"), two keys; docs/EDGES.md has the table behind it
MIN_DIFFERING = 3
# Most pairs of pages two disagreeing groups are judged by, page by page; groups spread over
# more pages stay one dispute (the judging must stay linear in the claims)
MAX_PAGE_PAIRS = 64


def unnamed(facts: ClaimFacts) -> bool:
    """A claim that names no entity (keyed by its attribute alone)."""
    return not facts.entity


def evidence_pages(claims: Iterable[ClaimFacts]) -> set[str]:
    """The pages whose claims ``PageEvidence`` may read for ``claims``: those of the builder
    groups (claims of one key with one ``signature``) that can meet a group of another value
    of their key within ``MAX_PAGE_PAIRS`` pairs of pages; groups spread wider stay one
    dispute unread. An incremental recompute loads these pages' other claims as the
    evidence (facts and titles), so it tells pages apart as a full build does."""
    groups: dict[str, dict[tuple[object, ...], set[str]]] = defaultdict(lambda: defaultdict(set))
    for facts in claims:
        if facts.source_id:
            groups[facts.claim_key][facts.signature].add(facts.source_id)
    found: set[str] = set()
    for by_value in groups.values():
        if len(by_value) < 2:
            continue
        sizes = sorted(len(pages) for pages in by_value.values())
        for pages in by_value.values():
            other = sizes[1] if len(pages) == sizes[0] else sizes[0]  # the smallest other
            if len(pages) * other <= MAX_PAGE_PAIRS:
                found |= pages
    return found


def page_facts(claims: Iterable[ClaimFacts]) -> dict[str, Stated]:
    """What each page states: source id -> claim key -> distinct value -> a claim."""
    found: dict[str, Stated] = defaultdict(lambda: defaultdict(dict))
    for facts in claims:
        if facts.source_id:
            found[facts.source_id][facts.claim_key].setdefault(value_key(facts), facts)
    return found


def told_apart(x: Stated, y: Stated) -> Evidence | None:
    """The evidence that two pages are about two things (see module), else None.

    A key agrees when each side's values all have an equal on the other side (a copy
    states the key as its original does, template figures and all); it differs when some
    value has none ("median age 41.9 years" against "40 years", beside the "65 years of
    age" both census sections write)."""
    agreeing: list[str] = []
    differing: list[str] = []
    for key in sorted(x.keys() & y.keys()):
        xs, ys = list(x[key].values()), list(y[key].values())
        if all(any(_equal(a, b) for b in ys) for a in xs) and all(
            any(_equal(a, b) for a in xs) for b in ys
        ):
            agreeing.append(key)
        else:
            differing.append(key)
    if len(differing) >= MIN_DIFFERING and len(agreeing) < len(differing):
        return Evidence(tuple(agreeing), tuple(differing))
    return None


def _equal(a: ClaimFacts, b: ClaimFacts) -> bool:
    return compare_values(a, b).state == AGREE


def page_titles(claims: Iterable[ClaimFacts]) -> dict[str, str]:
    """Each page's title: the one disambiguated name its claims give ("andrew hale (royal
    navy officer)"; not a page mark "(in doc03)"). A page naming two such, or none, has none."""
    found: dict[str, set[str]] = defaultdict(set)
    for facts in claims:
        if facts.entity and facts.entity_qualifier and not page_local(facts):
            found[facts.source_id].add(facts.entity)
    return {source: names.pop() for source, names in found.items() if len(names) == 1}


def short_form(entity: str, title: str) -> bool:
    """Whether ``entity`` is what a page titled ``title`` (the title's name, without its
    qualifier) calls its subject for short: words of the title's name in order ("hale" in
    "andrew hale" of "andrew hale (royal navy officer)", "north ridge" in "north ridge high
    school"), or its initials ("ndm" for "national democratic movement")."""
    words = _WORDS.findall(entity)
    name = _WORDS.findall(title)
    if not words or len(words) >= len(name):
        return False
    rest = iter(name)
    if all(word in rest for word in words):
        return True
    return len(words) == 1 and len(words[0]) >= 2 and words[0] == "".join(w[0] for w in name)


_WORDS = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class GroupPages:
    """The pages a value group's claims come from, and those whose claims are about their
    page (name no entity, or the page's title for short)."""

    pages: tuple[str, ...]
    about_page: frozenset[str]


@dataclass(frozen=True)
class Apart:
    """Two disagreeing groups' pages told apart: why (the first pair told apart), and the
    pairs of pages that are not (the conflict stands between those only)."""

    reason: str
    together: tuple[tuple[str, str], ...]


class PageEvidence:
    """Pages' facts and titles, and which pairs of pages are told apart (each judged once).

    ``one_entity`` names the entity a titled subject is one with (``entities.link_entities``:
    a page retitled with the value it swapped is its original's copy, not a namesake).
    ``judged`` says which pages the judge may tell apart: those of the reference profile
    (encyclopedia pages); office documents about one thing that disagree on many figures are
    never namesakes, so by default no page is judged."""

    def __init__(
        self,
        claims: Iterable[ClaimFacts],
        one_entity: Callable[[str], str] = str,
        judged: Callable[[str], bool] = lambda _source: False,
    ) -> None:
        claims = list(claims)
        self._judged = judged
        self._pages = page_facts(claims)
        self._titles = page_titles(claims)
        self._title_names = {f.entity: f.entity_name for f in claims if f.entity_qualifier}
        self._one_entity = one_entity
        self._apart: dict[tuple[str, str], str | None] = {}

    def apart(self, a: str, b: str) -> str | None:
        """Why pages ``a`` and ``b`` are about two things, or None."""
        pair = (a, b) if a <= b else (b, a)
        if pair not in self._apart:
            self._apart[pair] = self._judge(*pair)
        return self._apart[pair]

    def _judge(self, a: str, b: str) -> str | None:
        if not (self._judged(a) and self._judged(b)):
            return None
        ta, tb = self._titles.get(a), self._titles.get(b)
        if ta and tb and ta != tb and self._one_entity(ta) != self._one_entity(tb):
            return f"namesakes: {a} is titled {ta!r} and {b} {tb!r}"
        x, y = self._pages.get(a), self._pages.get(b)
        found = told_apart(x, y) if x is not None and y is not None else None
        if found is None:
            return None
        return (
            f"namesakes: {a} and {b} state {len(found.differing)} facts differently "
            f"({', '.join(found.differing[:4])}) and {len(found.agreeing)} alike; two pages "
            "of one template, not one page copied"
        )

    def _about_its_page(self, facts: ClaimFacts) -> bool:
        """A claim naming no entity, or its page's subject for short ("hale" on "andrew hale
        (royal navy officer)"): what it is about is what its page is about."""
        if unnamed(facts):
            return True
        title = self._titles.get(facts.source_id)
        return title is not None and short_form(
            facts.entity or "", self._title_names.get(title, title)
        )

    def group_pages(self, claims: Iterable[ClaimFacts]) -> GroupPages | None:
        """The pages of one value group and those of them whose claims here are about their
        page, or None when the group spans more than ``MAX_PAGE_PAIRS`` pages (it then stays
        one dispute with every group). Read once per group of a block."""
        pages: set[str] = set()
        own_name: set[str] = set()
        for facts in claims:
            pages.add(facts.source_id)
            if len(pages) > MAX_PAGE_PAIRS:
                return None
            if facts.source_id not in own_name and not self._about_its_page(facts):
                own_name.add(facts.source_id)
        return GroupPages(tuple(sorted(pages)), frozenset(pages - own_name))

    def namesakes(self, x: GroupPages, y: GroupPages) -> Apart | None:
        """The pages of two disagreeing groups told apart (see module), or None when no pair
        of them is, or when there are more than ``MAX_PAGE_PAIRS`` pairs of pages to judge
        (the groups then stay one dispute). A page whose claim here names an entity of its
        own (not its page's subject for short) is judged by that name: it stays with every
        page of the other side."""
        if len(x.pages) * len(y.pages) > MAX_PAGE_PAIRS:
            return None
        about_page = x.about_page | y.about_page
        reason: str | None = None
        together: list[tuple[str, str]] = []
        for a in x.pages:
            for b in y.pages:
                judged = a != b and a in about_page and b in about_page
                why = self.apart(a, b) if judged and a and b else None
                if why is None:
                    together.append((a, b))
                else:
                    reason = reason or why
        if reason is None:
            return None
        return Apart(reason, tuple(together))
