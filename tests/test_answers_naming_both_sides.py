"""Answers name both sides when the ledger holds both (issue 13, session 12).

Each case is a few short pages through real extraction, edges and a real store, both ways:
the shape where the answer now names a second side, and a near miss that stays one answer.

- A sentence naming nothing ("Built in 1895, it was added ...") on a page whose title names
  the asked thing is about that thing.
- A claim the ledger holds in dispute with the answering claim (an ambiguous edge: the
  entity is stated on one side only) is a side, when it names the asked thing or its page
  is a copy of the answering page (shared sentences word for word).
- A bare name on a page with no title fits no better than a titled namesake, so a copy that
  rewrote its title cannot answer alone beside the titled article.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import Answer, AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case as load_case_any  # noqa: E402
from retrieval_cases import load_documents as load_documents_any

from claims.store import make_engine  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
load_documents = partial(load_documents_any, profile="reference")
load_case = partial(load_case_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])
ARCHIVE = Requester(principal="ada", groups=["archive"])


def _sides(result: Answer) -> dict[str, list[str]]:
    return {str(s.value): sorted(s.source_ids) for s in result.sides}


def _courthouse(place: str, built: str, name: str = "Harlow Courthouse") -> str:
    return (
        f"{name} ({place}) The present {name} is located at 1701 Farnam Street in Omaha, "
        f"{place}, United States. Built in {built}, it was added to the National Register "
        "of Historic Places in 1979."
    )


def test_a_sentence_naming_nothing_on_a_page_titled_with_the_asked_name_is_a_side(
    engine: Engine,
) -> None:
    load_documents(
        engine,
        {
            "doc01": _courthouse("Nebraska", "1912"),
            "doc02": _courthouse("Nebraska", "1895"),
            "doc03": (
                "Harlow Courthouse (Illinois) The Harlow Courthouse is a courthouse in "
                "Tuscola, Illinois. The Harlow Courthouse was built in 1913."
            ),
        },
    )
    result = answer(engine, "When was the Harlow Courthouse built?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = _sides(result)
    assert sides["1912"] == ["doc01"]
    assert sides["1895"] == ["doc02"]


def test_an_unnamed_sentence_of_a_titled_page_stating_the_namesake_year_is_one_answer(
    engine: Engine,
) -> None:
    load_documents(
        engine,
        {
            "doc01": _courthouse("Nebraska", "1912"),
            "doc02": (
                "Harlow Courthouse (Illinois) The Harlow Courthouse is a courthouse in "
                "Tuscola, Illinois. The Harlow Courthouse was built in 1912."
            ),
        },
    )
    result = answer(engine, "When was the Harlow Courthouse built?", ANYONE)
    # the Nebraska page's unnamed sentence is about its title, which fits as well as the
    # Illinois page: the same year from both, so one answer citing both
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1912"
    assert sorted(result.citations) == ["doc01", "doc02"]


BEACON = (
    "Beacon Mill, Benenden Beacon Mill is a Grade II listed smock mill in Benenden, Kent, "
    "England. It was also marked on Greenwood's 1821 map of the county. Towards the end of "
    "the nineteenth century, Beacon Mill was run in conjunction with Wandle Mill. The mill "
    "was last worked for trade in 1921 and the sails were removed in 1923."
)
# a copy of the article cut from its middle: no title, the same sentences, another year
BEACON_COPY = (
    "of use since 1923 and is privately owned. It was also marked on Greenwood's 1821 map "
    "of the county. Towards the end of the nineteenth century, Beacon Mill was run in "
    "conjunction with Wandle Mill. The mill was last worked for trade in 1955 and the sails "
    "were removed in 1923."
)


def test_a_claim_held_in_dispute_on_a_copy_of_the_answering_page_is_a_side(
    engine: Engine,
) -> None:
    load_documents(engine, {"doc01": BEACON, "doc02": BEACON_COPY})
    result = answer(engine, "When was Beacon Mill last worked?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    assert _sides(result) == {"1921": ["doc01"], "1955": ["doc02"]}


def test_a_claim_held_in_dispute_on_another_page_mentioning_the_thing_stays_out(
    engine: Engine,
) -> None:
    load_documents(
        engine,
        {
            "doc01": BEACON,
            "doc02": (
                "of use since 1930 and is privately owned. Wandle Mill was run in conjunction "
                "with Beacon Mill for a time. The mill was last worked for trade in 1955 and "
                "the sails were removed in 1930."
            ),
        },
    )
    result = answer(engine, "When was Beacon Mill last worked?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1921"
    assert result.citations == ["doc01"]


def test_a_bare_name_on_an_untitled_page_does_not_outrank_the_titled_article(
    engine: Engine,
) -> None:
    load_documents(
        engine,
        {
            "doc01": (
                "Anna Palaiologina (daughter of Andronikos Angelos Palaiologos) Anna "
                "Palaiologina was a queen-consort of the Despotate of Epirus as wife of John "
                "II Orsini."
            ),
            "doc02": (
                "14th century\nSpouse Manuel II Palaiologos\nHouse Angelos\n\n"
                "Anna Palaiologina was a queen-consort of the Despotate of Epirus as wife of "
                "Manuel II Palaiologos."
            ),
        },
    )
    result = answer(engine, "Who was Anna Palaiologina married to?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = _sides(result)
    assert sides["John II Orsini"] == ["doc01"]
    assert sides["Manuel II Palaiologos"] == ["doc02"]


def test_a_titled_bare_name_still_outranks_a_namesake(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": "Giant Steps Giant Steps is the fifth studio album by John Coltrane.",
            "doc02": (
                "Giant Steps (The Boo Radleys album) Giant Steps is the third studio album "
                "by The Boo Radleys."
            ),
        },
    )
    result = answer(engine, "Who is the artist of Giant Steps?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.citations == ["doc01"]


def _princesses(copy_born: str) -> dict[str, str]:
    return {
        "doc01": (
            "Princess Xenia Andreevna of Russia Princess Xenia Andreevna Romanoff (10 March "
            "1919 \u2013 22 October 2000) was a direct descendant of the House of Romanov. "
            "Princess Xenia was born in Paris, on 10 March 1919."
        ),
        "doc02": (
            "Princess Xenia Georgievna of Russia Princess Xenia Georgievna of Russia (22 "
            "August 1903 \u2013 17 September 1965) was a Russian princess."
        ),
        "doc03": (
            "From Wikipedia, the free encyclopedia\nRussian princess\n\nPrincess Xenia "
            "Andreevna Romanoff, a member of the Russian imperial family, was born on "
            f"{copy_born} in Paris, France."
        ),
    }


def test_one_namesakes_qualifier_words_do_not_set_its_claim_aside(engine: Engine) -> None:
    load_documents(engine, _princesses("15 July 1922"))
    result = answer(engine, "When was Princess Xenia born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = _sides(result)
    assert sides["1922-07-15"] == ["doc03"]
    assert "doc01" in sides["1919-03-10"]


def test_a_namesakes_qualified_claim_of_the_same_date_is_no_new_side(engine: Engine) -> None:
    load_documents(engine, _princesses("10 March 1919"))
    result = answer(engine, "When was Princess Xenia born?", ANYONE)
    sides = _sides(result)
    assert "1922-07-15" not in sides
    assert sides["1919-03-10"] == ["doc01", "doc03"]


def test_a_hidden_page_adds_no_side_and_the_answer_equals_the_visible_corpus(
    engine: Engine, tmp_path: Path
) -> None:
    """The sides read through edges and page subjects come from what the requester may see:
    the answer over the whole corpus equals the answer over the visible corpus."""
    documents = [
        {"id": "doc01", "text": BEACON},
        {"id": "doc02", "text": BEACON_COPY},
        {"id": "doc03", "text": _courthouse("Nebraska", "1912")},
        {"id": "doc04", "text": _courthouse("Nebraska", "1895")},
    ]
    load_case(
        engine,
        {"documents": documents, "supersedes": {}},
        groups={"doc02": ["archive"], "doc04": ["archive"]},
    )
    url = f"sqlite:///{tmp_path / 'visible.db'}"
    upgrade(url)
    visible = make_engine(url)
    load_case(visible, {"documents": [documents[0], documents[2]], "supersedes": {}})
    for question in ("When was Beacon Mill last worked?", "When was the Harlow Courthouse built?"):
        whole = answer(engine, question, ANYONE).model_dump(mode="json")
        assert whole == answer(visible, question, ANYONE).model_dump(mode="json"), question
        assert whole["status"] == "answered"
        assert not {"doc02", "doc04"} & set(whole["citations"])
    assert answer(engine, "When was Beacon Mill last worked?", ARCHIVE).status is (
        AnswerStatus.CONFLICT
    )
