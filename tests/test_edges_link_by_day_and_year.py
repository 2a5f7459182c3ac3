"""One entity across pages, two kinds of agreement (issue 13, pair edges, session 13).

A page-local subject joins another page's subject of its name when their pages agree on
enough telling facts (claims/edges/entities.py). Two agreements were needed; now

- one date agreed to the day (a death date: "17 August 1930" on both pages) is worth two:
  two namesakes do not share a birth or death day, so a copy that states only its dates,
  one of them swapped, is the article it copies;
- a year against a day inside it ("released in 1976" / "released on 11 June 1976") is an
  agreement as far as the year goes, not nothing.

Real extraction, a real SQLite store and the real edge recompute; the copies open with a
menu, as scraped pages do, so no title names their subject.
"""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlalchemy.orm import aliased

from claims.edge_refresh import recompute_edges
from claims.edges.entities import link_entities
from claims.edges.facts import facts_from_claim
from claims.extraction import current_generation, extract
from claims.store import ClaimRepository, GenerationRepository, SourceRepository, transaction
from claims.tables import ClaimRow, EdgeRow

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


def _facts(documents: dict[str, str]) -> list:  # type: ignore[type-arg]
    return [
        facts_from_claim(claim)
        for source_id, text in documents.items()
        for claim in extract(text, source_id=source_id)
    ]


def _conflicts_between(engine: Engine, documents: dict[str, str], a: str, b: str) -> list[str]:
    """Store ``documents``, recompute every edge; the reasons of the live conflicts
    between sources ``a`` and ``b``."""
    generation, label = current_generation()
    with transaction(engine) as session:
        GenerationRepository(session).ensure(generation, label)
        for source_id, text in documents.items():
            version, _ = SourceRepository(session).add_version(source_id, text)
            ClaimRepository(session).add_all(
                extract(text, source_id=source_id, source_version_id=version.id)
            )
    with transaction(engine) as session:
        recompute_edges(session, generation, None)
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with transaction(engine) as session:
        rows = session.execute(
            select(left.source_id, right.source_id, EdgeRow.reason)
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None), EdgeRow.kind == "conflicts")
        ).all()
    return [reason for x, y, reason in rows if {x, y} == {a, b}]


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
