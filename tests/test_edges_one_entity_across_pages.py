"""One entity across pages (issue 13, pair edges): a subject named only inside its page
("torvald prine (in copy)") is compared with a namesake's page when the two pages agree on
other facts, and stays apart when they do not (claims/edges/entities.py).

Real extraction, a real SQLite store and the real edge recompute; the pages are written the
way scraped reference pages read (a menu before the first sentence, so no title names the
subject)."""

from __future__ import annotations

from functools import partial

from edge_stores import recompute as _recompute
from edge_stores import recompute_touched
from edge_stores import store_documents as store_documents_any
from sqlalchemy import Engine, select
from sqlalchemy.orm import aliased

from claims.edge_refresh import keys_touched_by_version
from claims.edges.entities import link_entities
from claims.edges.facts import facts_from_claim
from claims.extraction import current_generation
from claims.extraction import extract as extract_any
from claims.store import transaction
from claims.tables import ClaimRow, EdgeRow

# reference articles (encyclopedia pages): read and judged with the reference profile
_store = partial(store_documents_any, profile="reference")
extract = partial(extract_any, profile="reference")

MENU = "Contents Early life Career References External links "
ARTICLE = (
    "Torvald Prine Torvald Prine (2 June 1850 \u2013 9 May 1921) was a Norwegian shipowner "
    "and politician. He was born in Arendal."
)
# a copy of the article with its death year swapped, read from a scraped page
COPY = (
    MENU + "Torvald Prine ( 2 June 1850 \u2013 9 May 1931 ) was a Norwegian shipowner and "
    "politician. He was born in Arendal."
)
# a namesake: another man of the name, who shares a death date with the copy and little else
NAMESAKE = (
    MENU + "Torvald Prine ( 14 March 1862 \u2013 9 May 1931 ) was a Swedish footballer who "
    "played as a striker. He was born in Malmo."
)
# the copy's facts on a page that names no subject at all
UNNAMED = (
    "Early life. The shipowner was born on 2 June 1850. He died on 9 May 1941. "
    "He worked as a shipowner and politician."
)


def _edges(engine: Engine) -> list[tuple[str, str, str, str]]:
    """Live edges between two sources: (left source, right source, kind, reason)."""
    left, right = aliased(ClaimRow), aliased(ClaimRow)
    with transaction(engine) as session:
        rows = session.execute(
            select(left.source_id, right.source_id, EdgeRow.kind, EdgeRow.reason)
            .join(left, left.id == EdgeRow.left_claim_id)
            .join(right, right.id == EdgeRow.right_claim_id)
            .where(EdgeRow.retired_at.is_(None), left.source_id != right.source_id)
        ).all()
    return sorted((a, b, kind, reason) for a, b, kind, reason in rows)


def _between(edges: list[tuple[str, str, str, str]], a: str, b: str) -> list[tuple[str, str]]:
    return [(kind, reason) for x, y, kind, reason in edges if {x, y} == {a, b}]


def test_a_copy_agreeing_on_other_facts_conflicts_with_the_article_on_the_swapped_one(
    engine: Engine,
) -> None:
    _store(engine, {"article": ARTICLE, "copy": COPY})
    _recompute(engine)
    joined = _between(_edges(engine), "article", "copy")
    conflicts = [reason for kind, reason in joined if kind == "conflicts"]
    assert len(conflicts) == 1, joined
    # the reason names the link and the facts the pages agree on, then the values
    assert conflicts[0].startswith(
        "same entity: 'torvald prine' and 'torvald prine (in copy)', pages agree on "
    )
    assert "birthplace" in conflicts[0] and "1921-05-09" in conflicts[0]
    assert "1931-05-09" in conflicts[0]
    # the agreeing facts of the two pages corroborate one another across the pages
    assert any(kind == "corroborates" for kind, _ in joined)


def test_a_namesake_sharing_one_date_stays_apart(engine: Engine) -> None:
    _store(engine, {"article": ARTICLE, "copy": COPY, "namesake": NAMESAKE})
    _recompute(engine)
    edges = _edges(engine)
    assert _between(edges, "article", "namesake") == []
    assert _between(edges, "copy", "namesake") == []
    # the copy still joins the article beside the namesake
    assert [k for k, _ in _between(edges, "article", "copy")].count("conflicts") == 1


def test_a_page_naming_no_subject_is_joined_to_nothing(engine: Engine) -> None:
    _store(engine, {"article": ARTICLE, "unnamed": UNNAMED})
    _recompute(engine)
    between = _between(_edges(engine), "article", "unnamed")
    # at most what a claim naming no entity always gets beside a named one: ambiguous
    assert between and {kind for kind, _ in between} == {"ambiguous"}
    assert not any(reason.startswith("same entity") for _, reason in between)


def test_a_page_local_subject_between_two_equally_fitting_namesakes_joins_neither() -> None:
    # two titled articles of one name that the copy agrees with equally: which one it
    # copies cannot be told, so it is linked to neither
    first = (
        "Torvald Prine (politician) Torvald Prine (2 June 1850 \u2013 9 May 1921) was a "
        "Norwegian shipowner and politician. He was born in Arendal."
    )
    second = (
        "Torvald Prine (shipowner) Torvald Prine (2 June 1850 \u2013 9 May 1911) was a "
        "Norwegian shipowner and politician. He was born in Arendal."
    )
    facts = [
        facts_from_claim(c)
        for source_id, text in (("first", first), ("second", second), ("copy", COPY))
        for c in extract(text, source_id=source_id)
    ]
    entities = {f.entity for f in facts}
    assert {"torvald prine (politician)", "torvald prine (shipowner)"} <= entities
    assert "torvald prine (in copy)" in entities
    assert not link_entities(facts)
    # with one of them alone, the copy is that one
    alone = link_entities([f for f in facts if f.source_id != "second"])
    assert alone.name_of("torvald prine (in copy)") == "torvald prine (politician)"


def test_an_incremental_recompute_joins_a_copy_as_a_full_one_does(engine: Engine) -> None:
    _store(engine, {"article": ARTICLE, "namesake": NAMESAKE})
    _recompute(engine)
    versions = _store(engine, {"copy": COPY})
    recompute_touched(engine, versions["copy"])
    incremental = _edges(engine)
    assert [k for k, _ in _between(incremental, "article", "copy")].count("conflicts") == 1
    _recompute(engine)
    assert _edges(engine) == incremental


def test_a_later_page_touching_one_attribute_keeps_the_link_its_evidence_made(
    engine: Engine,
) -> None:
    # the link rests on facts outside the block a later page touches: an incremental
    # recompute of that block must still see them, or the conflict would be retired
    _store(engine, {"article": ARTICLE, "copy": COPY, "namesake": NAMESAKE})
    _recompute(engine)
    before = _edges(engine)
    assert [k for k, _ in _between(before, "article", "copy")].count("conflicts") == 1
    versions = _store(engine, {"obituary": "Harald Vik died on 3 May 1931."})
    generation, _ = current_generation()
    with transaction(engine) as session:
        touched = keys_touched_by_version(session, versions["obituary"], generation)
    _recompute(engine, touched)
    incremental = _edges(engine)
    assert [k for k, _ in _between(incremental, "article", "copy")].count("conflicts") == 1
    _recompute(engine)
    assert _edges(engine) == incremental
