"""The side of a question that a copied page rewrote: the claims its page states, and the
answer that names both sides (issue 13, session 11).

Each class is checked both ways: the shape that now gives a claim or names both sides, and a
near miss that must stay apart (a lead-in sentence, a namesake told apart by the question)."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract
from claims.models import Claim, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _claims(text: str, source_id: str = "doc") -> list[Claim]:
    return extract(text, source_id=source_id)


def _load(engine: Engine, documents: dict[str, str]) -> None:
    load_case(
        engine,
        {"documents": [{"id": k, "text": v} for k, v in documents.items()], "supersedes": {}},
    )


def _label(claims: list[Claim], attribute: str) -> list[tuple[str | None, str]]:
    return [(c.entity, str(c.value)) for c in claims if c.attribute == attribute]


# --- a page title that starts with a word lead-ins also start with ("Down", "Both", "Every")


def test_a_title_starting_with_a_function_word_and_written_twice_is_the_subject() -> None:
    claims = _claims(
        "Down Home (Maple Ridge Trio album) Down Home is the fourteenth studio album by "
        "Canadian bluegrass group Maple Ridge Trio. It was recorded in a barn near Guelph."
    )
    assert ("home (maple ridge trio album)", "Maple Ridge Trio") in _label(claims, "artist")
    assert ("home (maple ridge trio album)", "album") in _label(claims, "medium")
    # the ordinal says which album, not what kind: no genre "fourteenth album"
    assert not any("fourteenth" in value for _, value in _label(claims, "genre"))


def test_a_sentence_opening_with_such_a_word_is_still_no_title() -> None:
    claims = _claims(
        "Down by the harbour the old mill is a museum now. Both halls were rebuilt in 1921 "
        "after the fire."
    )
    assert not _label(claims, "medium")
    assert all(c.entity is None or "harbour" not in c.entity for c in claims)


def test_two_albums_of_one_title_by_different_artists_are_both_named(engine: Engine) -> None:
    _load(
        engine,
        {
            "first": "Both Sides Now (Willa Hart album) Both Sides Now is the third studio "
            "album by American singer Willa Hart. It was released in 2003.",
            "second": "Both Sides Now (Tom Eddery album) Both Sides Now is the second studio "
            "album by British singer Tom Eddery. It was released in 2011.",
        },
    )
    result = answer(engine, 'Who is the artist of the album "Both Sides Now"?', ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = {str(side.value): side.source_ids for side in result.sides}
    assert sides == {"Willa Hart": ["first"], "Tom Eddery": ["second"]}
