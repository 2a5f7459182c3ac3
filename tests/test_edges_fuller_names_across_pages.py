"""One entity across pages written with more or fewer words of its name (issue 13, pair
edges): a page cut mid-article names its subject with the full name the title shortens
("Halvard Andreas Rosing" beside the article "Halvard Rosing"), or with a kind word before
the title ("Film Lahore Nights"); the pages are still compared by the facts both state
(claims/edges/entities.py, ``_join_fuller_names``).

Real extraction, a real SQLite store and the real edge recompute; the copies are written
the way scraped pages read (a menu before the first sentence, so no title names them)."""

from __future__ import annotations

from functools import partial

from edge_stores import facts_of as facts_of_any
from edge_stores import live_conflicts as _conflicts
from edge_stores import recompute as _recompute
from edge_stores import recompute_touched
from edge_stores import store_documents as store_documents_any
from sqlalchemy import Engine

from claims.edges.entities import link_candidates, link_entities

# reference articles (encyclopedia pages): read and judged with the reference profile
_facts = partial(facts_of_any, profile="reference")
_store = partial(store_documents_any, profile="reference")

MENU = "Contents Early life Career References External links "
ARTICLE = (
    "Halvard Rosing Halvard Andreas Rosing (2 June 1850 \u2013 9 May 1921) was a Norwegian "
    "shipowner and politician. He was born in Arendal."
)
# the article copied with its death year changed, the page cut before its title
COPY = (
    MENU + "Halvard Andreas Rosing ( 2 June 1850 \u2013 9 May 1931 ) was a Norwegian "
    "shipowner and politician. He was born in Arendal."
)
# a grandson of the full name: another man, who shares nothing telling with the article
GRANDSON = (
    MENU + "Halvard Andreas Rosing ( 14 March 1902 \u2013 9 May 1971 ) was a Norwegian "
    "footballer who played as a striker. He was born in Bergen."
)
FILM = (
    "Lahore Nights (1998 film) Lahore Nights is a 1998 Pakistani Punjabi-language crime "
    "film directed by Saeed Ali Khan and produced by Shahid Rana."
)
FILM_COPY = (
    MENU + "Film Lahore Nights ( Urdu: meaning Nights ) is a 1998 Pakistani Urdu-language "
    "crime film directed by Saeed Ali Khan and produced by Shahid Rana."
)


def test_a_copy_naming_the_full_name_conflicts_with_the_article_on_the_changed_year(
    engine: Engine,
) -> None:
    _store(engine, {"article": ARTICLE, "copy": COPY})
    _recompute(engine)
    conflicts = _conflicts(engine, "article", "copy")
    assert len(conflicts) == 1, conflicts
    assert conflicts[0].startswith("same entity: ")
    assert "1921-05-09" in conflicts[0] and "1931-05-09" in conflicts[0]


def test_a_namesake_of_the_full_name_stays_apart(engine: Engine) -> None:
    _store(engine, {"article": ARTICLE, "copy": COPY, "grandson": GRANDSON})
    _recompute(engine)
    assert _conflicts(engine, "article", "grandson") == []
    assert _conflicts(engine, "copy", "grandson") == []
    assert len(_conflicts(engine, "article", "copy")) == 1


def test_a_copy_naming_the_film_with_a_kind_word_first_conflicts_on_the_language(
    engine: Engine,
) -> None:
    _store(engine, {"film": FILM, "copy": FILM_COPY})
    _recompute(engine)
    conflicts = _conflicts(engine, "film", "copy")
    assert len(conflicts) == 1, conflicts
    assert "director" in conflicts[0] and "producer" in conflicts[0]


def test_names_sharing_only_a_last_word_are_not_candidates() -> None:
    # "Torvald Rosing" is not a fuller or shorter form of "Halvard Rosing"
    other = COPY.replace("Halvard Andreas", "Torvald")
    facts = _facts({"article": ARTICLE, "other": other})
    assert not link_candidates(facts)
    assert not link_entities(facts)
    # while the copy of the full name is one
    assert link_entities(_facts({"article": ARTICLE, "copy": COPY}))


def test_an_incremental_recompute_joins_a_fuller_named_copy_as_a_full_one_does(
    engine: Engine,
) -> None:
    _store(engine, {"article": ARTICLE, "grandson": GRANDSON})
    _recompute(engine)
    versions = _store(engine, {"copy": COPY})
    recompute_touched(engine, versions["copy"])
    incremental = _conflicts(engine, "article", "copy")
    assert len(incremental) == 1
    _recompute(engine)
    assert _conflicts(engine, "article", "copy") == incremental
