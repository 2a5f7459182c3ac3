"""Pages about two namesakes are no conflict (issue 13, the same-name guard): two census
sections of two villages of one name, cut from the middle so that no claim names the village,
state every figure of the template differently; two titled pages of two officers of one
surname both say when "Hale" was born. A copy of one page with its value swapped (and what
follows from it) still conflicts with its original (claims/edges/pages.py).

Real extraction and the real edge builder; the census fragments start mid-sentence, the way
a page cut from the middle of an article does."""

from __future__ import annotations

from edge_stores import live_conflicts, recompute, recompute_touched, store_documents
from sqlalchemy import Engine

from claims.edges.builder import build_edges
from claims.edges.facts import ClaimFacts, facts_from_claim
from claims.edges.pages import short_form
from claims.extraction import extract

# two villages of one name, the same census template with their own figures
NORTH = (
    "or older lived alone. The average household size was 2.41 and the average family size "
    "was 2.97. The median age in the village was 39.2 years. For every 100 females there "
    "were 96.5 males. The median income for a household in the village was $41,250."
)
SOUTH = (
    "or older lived alone. The average household size was 2.58 and the average family size "
    "was 3.12. The median age in the village was 44.6 years. For every 100 females there "
    "were 101.3 males. The median income for a household in the village was $38,900."
)
# NORTH copied with its median age changed
NORTH_COPY = NORTH.replace("39.2 years", "27.5 years")
# NORTH copied with its household size changed and the family size that goes with it
NORTH_TWO_CHANGED = NORTH.replace("2.41", "2.75").replace("2.97", "3.30")
# a short cut of a page: one figure tells nothing about which village it is
SHORT = "The median age in the village was 44.6 years."

OFFICER = (
    "Andrew Hale (Royal Navy officer) Andrew Hale was a British naval officer. "
    "Hale was born in 1869 in Portsmouth."
)
BISHOP = (
    "Andrew Hale (bishop) Andrew Hale was an English bishop of the Church of England. "
    "Hale was born in 1822 in Lincoln."
)
# the officer's page copied, its title kept and the year changed
OFFICER_COPY = OFFICER.replace("1869", "1896")


def _facts(documents: dict[str, str]) -> list[ClaimFacts]:
    # a version id per page: a copy's claims sit at the same places as its original's
    return [
        facts_from_claim(c)
        for source_id, text in documents.items()
        for c in extract(text, source_id=source_id, source_version_id=f"v-{source_id}")
    ]


def _edges(documents: dict[str, str]) -> list[tuple[str, str, str, str]]:
    """(kind, rule, left source, right source) of the edges between two pages."""
    facts = _facts(documents)
    source = {f.id: f.source_id for f in facts}
    build = build_edges(facts, generation="g", namesake_sources=set(documents))
    return sorted(
        (e.kind, e.rule, source[e.left_claim_id], source[e.right_claim_id])
        for e in build.edges
        if source[e.left_claim_id] != source[e.right_claim_id]
    )


def _conflicting_pages(documents: dict[str, str]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for kind, _, a, b in _edges(documents) if kind == "conflicts"}


def test_census_sections_of_two_villages_of_one_name_are_no_conflict() -> None:
    edges = _edges({"north": NORTH, "south": SOUTH})
    assert not [e for e in edges if e[0] == "conflicts"]
    assert {rule for kind, rule, _, _ in edges if kind == "compatible"} == {"namesakes"}


def test_a_copy_with_its_median_age_changed_still_conflicts() -> None:
    assert _conflicting_pages({"north": NORTH, "copy": NORTH_COPY}) == {
        frozenset(("north", "copy"))
    }


def test_a_copy_changing_a_value_and_the_one_that_follows_from_it_still_conflicts() -> None:
    assert _conflicting_pages({"north": NORTH, "copy": NORTH_TWO_CHANGED}) == {
        frozenset(("north", "copy"))
    }


def test_a_copy_conflicts_with_its_original_and_not_with_the_other_village() -> None:
    found = _conflicting_pages({"north": NORTH, "copy": NORTH_COPY, "south": SOUTH})
    assert frozenset(("north", "copy")) in found
    assert frozenset(("north", "south")) not in found
    assert frozenset(("copy", "south")) not in found


def test_a_page_with_one_figure_keeps_its_conflict_with_either_village() -> None:
    # nothing on the short page says which village it is about: its figure stays disputed,
    # while the two villages' full sections stay apart from each other
    found = _conflicting_pages({"north": NORTH, "short": SHORT, "south": SOUTH})
    assert frozenset(("north", "short")) in found
    assert frozenset(("north", "south")) not in found


def test_two_officers_titled_apart_are_no_conflict_on_when_hale_was_born() -> None:
    assert _conflicting_pages({"officer": OFFICER, "bishop": BISHOP}) == set()


def test_a_titled_page_copied_with_its_title_keeps_the_conflict() -> None:
    assert _conflicting_pages({"officer": OFFICER, "copy": OFFICER_COPY}) == {
        frozenset(("officer", "copy"))
    }


def test_a_short_form_is_the_titles_words_in_order_or_its_initials() -> None:
    # the title's name, its qualifier apart (EntityRef.name of "andrew hale (bishop)")
    assert short_form("hale", "andrew hale")
    assert short_form("north ridge", "north ridge high school")
    assert short_form("ndm", "national democratic movement")
    assert not short_form("ridge north", "north ridge high school")
    assert not short_form("andrew hale", "andrew hale")  # the name itself
    assert not short_form("brown", "andrew hale")


PAGES = ("north", "south", "short")  # read as reference pages: the namesake judge applies


def test_an_incremental_recompute_tells_the_villages_apart_as_a_full_one_does(
    engine: Engine,
) -> None:
    store_documents(engine, {"north": NORTH, "south": SOUTH})
    recompute(engine, namesake_sources=PAGES)
    versions = store_documents(engine, {"short": SHORT})
    # only the median age block is recomputed: the villages' other figures are the evidence
    recompute_touched(engine, versions["short"], PAGES)
    assert live_conflicts(engine, "north", "south") == []
    assert live_conflicts(engine, "north", "short") != []
    incremental = live_conflicts(engine, "north", "short")
    recompute(engine, namesake_sources=PAGES)
    assert live_conflicts(engine, "north", "short") == incremental
    assert live_conflicts(engine, "north", "south") == []
