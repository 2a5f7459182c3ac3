"""One answer's readers search the quotes for the same words once
(``claims.store.search.searches_remembered``); nothing is remembered from one answer to the
next, so a document added between two questions is found by the second."""

from __future__ import annotations

from typing import Any

from retrieval_cases import load_case
from sqlalchemy import Engine, select

from claims.models import Requester
from claims.store.search import search_quotes, searches_remembered
from claims.tables import ExtractorGenerationRow
from retrieval.answer import answer

ANYONE = Requester(principal="anyone", groups=[])


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _generation(engine: Engine) -> str:
    with engine.connect() as conn:
        return conn.execute(select(ExtractorGenerationRow.id)).scalar_one()


def test_a_search_asked_twice_in_one_scope_matches_as_the_first(engine: Engine) -> None:
    load_case(engine, _case(("pumps", "The Brantley pump weighs 14 kg.")))
    generation = _generation(engine)
    with engine.connect() as conn:
        alone = search_quotes(conn, ["brantley"], generation=generation, groups=[])
        with searches_remembered():
            first = search_quotes(conn, ["brantley"], generation=generation, groups=[])
            again = search_quotes(conn, ["brantley"], generation=generation, groups=[])
            other_groups = search_quotes(conn, ["brantley"], generation=generation, groups=["x"])
    assert alone == first == again
    assert [m.claim_key for m in first] and all("brantley" in m.claim_key for m in first)
    assert other_groups == first  # the source has no grants: every group sees it


def test_a_document_added_between_two_questions_is_found_by_the_second(
    engine: Engine,
) -> None:
    load_case(engine, _case(("pumps", "The Brantley pump weighs 14 kg.")))
    assert answer(engine, "How heavy is the Corvid pump?", ANYONE).status.value == "not_found"
    load_case(engine, _case(("more-pumps", "The Corvid pump weighs 21 kg.")))
    result = answer(engine, "How heavy is the Corvid pump?", ANYONE)
    assert (result.status.value, result.value, result.citations) == (
        "answered",
        21,
        ["more-pumps"],
    )
