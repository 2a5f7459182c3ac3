"""What an occupation says beside the occupation (issue 12/13, session 15): "was a United
States Navy rear admiral and maritime lawyer" states a rank, and so does the title before a
person's name in the opening ("Brigadier General Paul Keane (1908 - 1987) was ...");
"was an Indian tabla player" and "is a singer, pianist and organist" state the instruments
played (claims/extraction/opening.py, ``_rank_and_instruments``, ``_title_rank``). A rank
word inside a part of the occupation ("a major league pitcher", "a general manager") or one
that names a kind of officer ("a German general") is no rank; a musician's several
instruments are no conflict."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine

from claims.check import check_texts
from claims.extraction import extract
from claims.models import Relation, Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _labels(text: str, attribute: str) -> list[str]:
    return sorted(
        str(c.value) for c in extract(text, source_id="doc01") if c.attribute == attribute
    )


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        (
            "Walter Brennan Hale Walter Brennan Hale (March 3, 1921 – June 9, 2002) was a "
            "United States Navy rear admiral and maritime lawyer.",
            ["rear admiral"],
        ),
        ("Dora Keane (born 1958) is a retired Vice Admiral of the Royal Navy.", ["Vice Admiral"]),
        ("Otto Brandl (1891 – 1966) was a German general during the Second World War.", []),
        ("Ted Marlow (born 1950) is a former major league pitcher and general manager.", []),
    ],
)
def test_a_rank_ending_a_part_of_the_occupation(text: str, ranks: list[str]) -> None:
    assert _labels(text, "rank") == ranks


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        (
            "Paul R. Keane Brigadier General Paul Robert Keane (1908 – 1987) was the "
            "commanding general of the 4th Infantry Division.",
            ["Brigadier General"],
        ),
        ("Captain Ellen Marsh (1840 – 1901) was a British explorer.", ["Captain"]),
        # a company is no person; a word of a name is no title
        ("General Motors Company is an American carmaker.", []),
        ("Lee Major Smith (1891 – 1966) was a German officer.", []),
    ],
)
def test_a_rank_written_as_the_title_before_a_persons_name(text: str, ranks: list[str]) -> None:
    assert _labels(text, "rank") == ranks


def test_the_instruments_a_musician_plays() -> None:
    tabla = "Anil Varma (1931 – 2004) was an Indian tabla player and teacher."
    assert _labels(tabla, "instrument") == ["tabla"]
    several = "Mara Quist (born 1962) is an American singer, pianist and organist."
    assert _labels(several, "instrument") == ["organ", "piano"]
    # a player of a game is no musician
    assert _labels("Ted Marlow (born 1950) is a former baseball player.", "instrument") == []


def test_several_instruments_of_one_musician_are_no_conflict() -> None:
    result = check_texts(
        "Mara Quist (born 1962) is an American singer and pianist.",
        "Mara Quist (born 1962) is an American singer and organist.",
    )
    played = [
        p
        for p in result.pairs
        if p.left.attribute == "instrument" and p.right.attribute == "instrument"
    ]
    assert [(p.left.value, p.right.value) for p in played] == [("piano", "organ")]
    assert played[0].relation is Relation.COMPATIBLE, played[0].reason


def test_a_question_about_a_rank_is_answered(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": (
                "Walter Brennan Hale Walter Brennan Hale (March 3, 1921 – June 9, 2002) was a "
                "United States Navy rear admiral and maritime lawyer."
            )
        },
    )
    result = answer(engine, "What was the rank of Walter Hale?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert str(result.value).lower() == "rear admiral"


def test_a_question_about_an_instrument_is_answered(engine: Engine) -> None:
    load_documents(
        engine, {"doc01": "Anil Varma (1931 – 2004) was an Indian tabla player and teacher."}
    )
    result = answer(engine, "What is the primary instrument played by Anil Varma?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "tabla"


def test_the_service_after_the_name_in_a_rank_question_is_not_the_name() -> None:
    from claims.extraction import parse_question

    frame = parse_question("What was the rank of Walter Hale in the United States Navy?")
    # before: the entity was "walter hale unite state navy" and fitted no page
    assert (frame.entity, frame.attribute) == ("walter hale", "rank")
    frame = parse_question("What was the rank of Dora Keane in the Royal Navy?")
    assert frame.entity == "dora keane"
    # a place after "in" stays part of the name it tells apart
    assert parse_question("What is the population of Springfield in Illinois?").entity == (
        "springfield illinois"
    )
