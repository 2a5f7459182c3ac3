"""One entity across pages, session 13 (issue 13, pair edges): what counts as agreeing.

A page-local subject joins another page's subject of its name when their pages agree on
enough telling facts (claims/edges/entities.py). Two agreements were needed; now

- one date agreed to the day (a death date: "17 August 1930" on both pages) is worth two:
  two namesakes do not share a birth or death day, so a copy that states only its dates,
  one of them swapped, is the article it copies;
- a year against a day inside it ("released in 1976" / "released on 11 June 1976") is an
  agreement as far as the year goes, not nothing;
- two titles of one name are one page retitled when the pages agree on three telling facts
  (a date or an amount among them), differ on one, and each title writes its own page's
  value of that one ("(died 1677)" / "(died 1777)").

Real extraction, a real SQLite store and the real edge recompute; the copies open with a
menu, as scraped pages do, so no title names their subject.
"""

from __future__ import annotations

from edge_stores import facts_of as _facts
from edge_stores import live_conflicts, recompute, store_documents
from sqlalchemy import Engine

from claims.edge_refresh import keys_touched_by_version, recompute_edges
from claims.edges.entities import link_entities
from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, SourceRepository, transaction

MENU = "Contents Early life Career References External links "
ARTICLE = (
    "Ingrid Holmvik Ingrid Holmvik (4 March 1861 \u2013 17 August 1930) was born in Odense "
    "and studied painting in Copenhagen."
)
# the article's dates with the birth year swapped, and nothing else the article states
COPY = MENU + "Ingrid Holmvik ( 4 March 1871 \u2013 17 August 1930 ) was a Danish painter."
# the copy with its death date read to the month only: no day is shared
COPY_BY_MONTH = MENU + "Ingrid Holmvik ( 4 March 1871 \u2013 August 1930 ) was a Danish painter."
# a namesake who died on the same day, but was born elsewhere on another day
NAMESAKE = (
    MENU + "Ingrid Holmvik ( 9 June 1871 \u2013 17 August 1930 ) was a Swedish singer. "
    "She was born in Lund."
)

ALBUM_MENU = "Contents Background Track listing Personnel References External links "
ALBUM = (
    "Quiet Harbour (album) Quiet Harbour is the third studio album by the English folk band "
    "The Lanterns. It was released on 11 June 1976 by Marlow Records."
)
# a copy naming another artist, with the release year of the article's release day
ALBUM_COPY = ALBUM_MENU + "Quiet Harbour is an album by Neil Young. It was released in 1976."
# another album of the name, by that artist, released years later
ALBUM_NAMESAKE = ALBUM_MENU + "Quiet Harbour is an album by Neil Young. It was released in 1983."


def _conflicts_between(engine: Engine, documents: dict[str, str], a: str, b: str) -> list[str]:
    """Store ``documents``, recompute every edge; the reasons of the live conflicts
    between sources ``a`` and ``b``."""
    store_documents(engine, documents)
    recompute(engine)
    return live_conflicts(engine, a, b)


def test_a_copy_sharing_only_a_death_day_conflicts_with_the_article_on_the_birth_date(
    engine: Engine,
) -> None:
    reasons = _conflicts_between(engine, {"article": ARTICLE, "copy": COPY}, "article", "copy")
    assert len(reasons) == 1, reasons
    assert reasons[0].startswith(
        "same entity: 'ingrid holmvik' and 'ingrid holmvik (in copy)', pages agree on died"
    )
    assert "1861-03-04" in reasons[0] and "1871-03-04" in reasons[0]


def test_a_death_date_shared_to_the_month_only_is_not_enough() -> None:
    links = link_entities(_facts({"article": ARTICLE, "copy": COPY_BY_MONTH}))
    assert not links


def test_a_namesake_sharing_the_death_day_but_differing_on_two_facts_stays_apart() -> None:
    facts = _facts({"article": ARTICLE, "namesake": NAMESAKE})
    assert {"ingrid holmvik", "ingrid holmvik (in namesake)"} <= {f.entity for f in facts}
    # the same death day, but another birth date and another birthplace
    assert not link_entities(facts)


def test_an_album_copy_stating_the_release_year_conflicts_on_the_artist(engine: Engine) -> None:
    reasons = _conflicts_between(engine, {"album": ALBUM, "copy": ALBUM_COPY}, "album", "copy")
    assert len(reasons) == 1, reasons
    assert "pages agree on launched, medium" in reasons[0]
    assert "lanterns" in reasons[0].lower() and "neil young" in reasons[0].lower()


def test_an_album_of_the_name_released_in_another_year_stays_apart() -> None:
    facts = _facts({"album": ALBUM, "namesake": ALBUM_NAMESAKE})
    assert "quiet harbour (in namesake)" in {f.entity for f in facts}
    # "album" alone is one agreement, and the years differ beside the artist
    assert not link_entities(facts)


# A page copied and retitled with the value it swapped: "(died 1677)" became "(died 1777)".
FENWICK = (
    "Harold Fenwick (died 1677) Harold Fenwick (1610 \u2013 1677) was an English barrister and "
    "member of parliament for a borough seat. He was the son of Sir Robert Fenwick of "
    "Hexley. He was called to the bar in 1633."
)
FENWICK_RETITLED = FENWICK.replace("1677", "1777")
# a namesake of the same trade: another father, another call to the bar, another death
FENWICK_NAMESAKE = (
    "Harold Fenwick (died 1920) Harold Fenwick (1851 \u2013 1920) was an English barrister and "
    "member of parliament for a borough seat. He was the son of Thomas Fenwick of Corbury. "
    "He was called to the bar in 1879."
)
# two films of one title: both Tamil-language drama films, released in the years their
# titles say
FILM_1941 = (
    "Kaveri Deepam (1941 film) Kaveri Deepam is a 1941 Indian Tamil-language drama film. "
    "It was released on 14 April 1941."
)
FILM_1978 = (
    "Kaveri Deepam (1978 film) Kaveri Deepam is a 1978 Indian Tamil-language drama film. "
    "It was released on 2 June 1978."
)


def test_a_page_retitled_with_its_swapped_value_conflicts_with_the_article(
    engine: Engine,
) -> None:
    reasons = _conflicts_between(
        engine, {"article": FENWICK, "copy": FENWICK_RETITLED}, "article", "copy"
    )
    assert len(reasons) == 1, reasons
    assert reasons[0].startswith(
        "same entity: 'harold fenwick (died 1677)' and 'harold fenwick (died 1777)', "
        "pages agree on born, called_to_bar, occupation, parent"  # "(1610 - 1677)" read
    )
    assert "1677 vs 1777" in reasons[0]


def test_a_titled_namesake_of_the_same_trade_stays_apart() -> None:
    facts = _facts({"article": FENWICK, "namesake": FENWICK_NAMESAKE})
    assert {"harold fenwick (died 1677)", "harold fenwick (died 1920)"} <= {f.entity for f in facts}
    assert not link_entities(facts)


def test_two_films_of_one_title_agreeing_on_labels_only_stay_apart() -> None:
    # medium, language and genre agree and the release years differ as the titles say, but
    # no date or amount is shared: every film of the name may be a Tamil drama
    facts = _facts({"first": FILM_1941, "second": FILM_1978})
    assert {"kaveri deepam (1941 film)", "kaveri deepam (1978 film)"} <= {f.entity for f in facts}
    assert not link_entities(facts)


def test_a_retitled_copy_between_two_articles_joins_neither() -> None:
    # two pages the copy fits as well: which one it copies cannot be told
    twin = FENWICK.replace("1677", "1707")
    facts = _facts({"article": FENWICK, "twin": twin, "copy": FENWICK_RETITLED})
    assert not link_entities(facts)


def test_an_incremental_recompute_keeps_a_retitled_copy_linked(engine: Engine) -> None:
    # a later page touching only "died" re-evaluates that block: the link's evidence (the
    # other facts of both titles) must still be read, or the conflict would be retired
    assert len(_conflicts_between(engine, {"a": FENWICK, "b": FENWICK_RETITLED}, "a", "b")) == 1
    generation, _ = current_generation()
    with transaction(engine) as session:
        version, _ = SourceRepository(session).add_version("c", "Agnes Moor died in 1790.")
        ClaimRepository(session).add_all(
            extract("Agnes Moor died in 1790.", source_id="c", source_version_id=version.id)
        )
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, version.id, generation)
        recompute_edges(session, generation, touched)
    assert len(live_conflicts(engine, "a", "b")) == 1


def test_a_year_holds_a_day_for_a_page_local_subject_only() -> None:
    # two titled pages are held to equal dates: a remake's page naming "the 1976 album"
    # must not agree with the first album's release day (the answer's namesake test reads
    # the same evidence)
    from claims.edges.entities import _by_attribute, evidence

    facts = _facts({"album": ALBUM, "copy": ALBUM_COPY})
    x = _by_attribute(f for f in facts if f.source_id == "album")
    y = _by_attribute(f for f in facts if f.source_id == "copy")
    assert "launched" in evidence(x, y, coarse_dates=True).agreeing
    assert "launched" not in evidence(x, y).agreeing
