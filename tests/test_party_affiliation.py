"""A person's political party stated later in an article (claims.extraction.affiliation),
read by the real extraction and asked through ``answer``."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])


def _parties(text: str) -> list[tuple[str | None, object]]:
    return [
        (c.entity, c.value)
        for c in extract(text, source_id="doc")
        if c.attribute == "political party"
    ]


def test_elected_as_a_party_member_is_the_articles_subjects_party() -> None:
    text = (
        "Orrin Vale (Ohio politician) Orrin Vale (May 2, 1820 \u2013 June 1, 1881) was a "
        "U.S. Representative from Ohio. He moved to Dayton in 1845. Vale was elected as a "
        "Whig to the Thirty-first Congress."
    )
    assert _parties(text) == [("orrin vale (ohio politician)", "Whig")]


def test_a_member_of_a_named_party_keeps_the_partys_whole_name() -> None:
    text = (
        "Lise Arcand Lise Arcand (born 3 May 1950) is a politician in Ontario. She sat for "
        "Kingsmere from 1998 to 2008, as a member of the Ontario Liberal Party."
    )
    assert _parties(text) == [("lise arcand", "Ontario Liberal Party")]


def test_a_name_after_a_lead_in_and_joined_the_party() -> None:
    assert _parties("Also that year, Brannock was elected as Republican to the Senate.") == [
        ("brannock", "Republican")
    ]
    assert _parties("Keane joined the Labour Party in 1991. He taught maths.") == [
        ("keane", "Labour Party")
    ]


def test_no_party_without_a_subject_a_capital_or_a_party_word() -> None:
    # "he" on a page whose subject is unknown, a lowercase word, a capitalised non-party
    assert _parties("He was a Liberal by background and a teacher.") == []
    assert _parties("Dana Pell was a liberal economist and author.") == []
    assert _parties("Moss was elected as a Fellow of the Royal Society in 1990.") == []


def test_two_articles_stating_two_parties_of_one_politician_conflict(engine: Engine) -> None:
    load_case(
        engine,
        {
            "documents": [
                {
                    "id": "article",
                    "text": "Orrin Vale Orrin Vale (May 2, 1820 \u2013 June 1, 1881) was a U.S. "
                    "Representative from Ohio. Vale was elected as a Whig to Congress.",
                },
                {
                    "id": "copy",
                    "text": "Orrin Vale Orrin Vale (May 2, 1820 \u2013 June 1, 1881) was a U.S. "
                    "Representative from Ohio. Vale was elected as a Democrat to Congress.",
                },
            ],
            "supersedes": {},
        },
    )
    result = answer(engine, "What political party was Orrin Vale affiliated with?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert sorted(str(side.value) for side in result.sides) == ["Democrat", "Whig"]
