"""Pages that copy one article, told by the sentences they share (issue 13, pair edges):
a page retitled with the value it changed shares a sentence word for word with the article
("It teaches about 75 pupils in grades 7-12."), and a cut copy writes the article's
sentence with only its value changed ("It was built about 1835, and it is a two-story brick
dwelling ..." / "... about 1935, ..."). Either tells the two pages are one entity's when the
facts they state are too few to (claims/edges/entities.py).

Real extraction and the real linker over the extracted claims; the copies read the way
scraped pages do (a menu before the first sentence, so no title names the subject)."""

from __future__ import annotations

from claims.edges.builder import build_edges
from claims.edges.entities import link_entities
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.extraction import extract

MENU = "Contents History Architecture References External links "
FULTON = (
    "Larkspur Academy (Ashby) Larkspur Academy is a private high school located in Ashby, "
    "Illinois, USA. It teaches about 75 pupils in grades 7-12."
)
# the same page retitled with the town it swapped
MIAMI = (
    "Larkspur Academy (Corvale) Larkspur Academy is a private high school located in Corvale, "
    "Florida, USA. It teaches about 75 pupils in grades 7-12."
)
# another school of the name: the same kind of page, no sentence in common
DAYTON = (
    "Larkspur Academy (Wrenfield) Larkspur Academy is a private high school located in Wrenfield, "
    "Ohio, USA. It teaches about 120 pupils in grades 9-12."
)
HOUSE = (
    "Pemberton House (Alder Creek, Virginia) Pemberton House is a historic home located at Alder "
    "Creek, Lomax County, Virginia. It was built about 1835, and it is a two-story brick "
    "dwelling with a low kitchen wing and a rear porch."
)
HOUSE_COPY = (
    MENU + "Pemberton House is a historic home located at Alder Creek, Lomax County, "
    "Virginia. It was built about 1935, and it is a two-story brick dwelling with a low kitchen "
    "wing and a rear porch."
)
# a page of the same town stating another building year in its own words
HOUSE_OTHER = (
    MENU + "Pemberton House is a historic home located at Alder Creek, Lomax County, "
    "Virginia. It was built in 1935 by a local merchant for his family."
)


def _facts(documents: dict[str, str]) -> list[ClaimFacts]:
    return [
        facts_from_claim(c)
        for source_id, text in documents.items()
        for c in extract(text, source_id=source_id)
    ]


def _conflicts(facts: list[ClaimFacts]) -> list[str]:
    build = build_edges(facts, generation="g")
    return [e.reason for e in build.edges if e.kind == "conflicts"]


def test_a_page_retitled_with_its_swapped_town_sharing_a_sentence_is_one_entity() -> None:
    facts = _facts({"ashby": FULTON, "corvale": MIAMI})
    links = link_entities(facts)
    assert links.name_of("larkspur academy (corvale)") == links.name_of("larkspur academy (ashby)")
    conflicts = _conflicts(facts)
    assert len(conflicts) == 1 and conflicts[0].startswith("same entity: ")
    assert "Ashby" in conflicts[0] and "Corvale" in conflicts[0]


def test_two_schools_of_one_name_sharing_no_sentence_stay_apart() -> None:
    facts = _facts({"ashby": FULTON, "wrenfield": DAYTON})
    assert not link_entities(facts)
    assert _conflicts(facts) == []


def test_a_copy_writing_the_building_year_into_the_same_sentence_conflicts() -> None:
    facts = _facts({"house": HOUSE, "copy": HOUSE_COPY})
    conflicts = _conflicts(facts)
    assert len(conflicts) == 1, conflicts
    assert "the sentence of built" in conflicts[0]
    assert "1835" in conflicts[0] and "1935" in conflicts[0]


def test_a_page_stating_the_year_in_its_own_words_is_not_a_copy() -> None:
    # one telling fact in common (the place) and a year in another sentence: not enough
    facts = _facts({"house": HOUSE, "other": HOUSE_OTHER})
    assert not link_entities(facts)
    assert _conflicts(facts) == []
