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
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import Answer, AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case, load_documents  # noqa: E402

from claims.store import make_engine  # noqa: E402
from claims.store.migrate import upgrade  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
ARCHIVE = Requester(principal="ada", groups=["archive"])


def _sides(result: Answer) -> dict[str, list[str]]:
    return {str(s.value): sorted(s.source_ids) for s in result.sides}


def _courthouse(place: str, built: str, name: str = "Harlow Courthouse") -> str:
    return (
        f"{name} ({place}) The present {name} is located at 240 Keller Avenue in Marston, "
        f"{place}, United States. Built in {built}, it was added to the county roll of "
        "protected buildings in 1979."
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
    "Corran Mill, Haddleby Corran Mill is a Grade II listed tower mill in Haddleby, Suffolk, "
    "England. It was also drawn on Pellow's 1824 survey of the shire. Near the close of "
    "the nineteenth century, Corran Mill was worked together with Fenwick Mill. The mill "
    "was last worked commercially in 1921 and its sails came off in 1923."
)
# a copy of the article cut from its middle: no title, the same sentences, another year
BEACON_COPY = (
    "of service after 1923 and stays in private hands. It was also drawn on Pellow's 1824 "
    "survey of the shire. Near the close of the nineteenth century, Corran Mill was worked "
    "together with Fenwick Mill. The mill was last worked commercially in 1955 and its sails "
    "came off in 1923."
)


def test_a_claim_held_in_dispute_on_a_copy_of_the_answering_page_is_a_side(
    engine: Engine,
) -> None:
    load_documents(engine, {"doc01": BEACON, "doc02": BEACON_COPY})
    result = answer(engine, "When was Corran Mill last worked?", ANYONE)
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
                "of service after 1930 and stays in private hands. Fenwick Mill was worked "
                "together with Corran Mill for a time. The mill was last worked commercially "
                "in 1955 and its sails came off in 1930."
            ),
        },
    )
    result = answer(engine, "When was Corran Mill last worked?", ANYONE)
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
                "Irena Valdoro (daughter of Bertran Aster Valdoro) Irena Valdoro was a "
                "queen-consort of the Duchy of Veskar as wife of Rainald II Corvin."
            ),
            "doc02": (
                "14th century\nSpouse Tomas II Valdoro\nHouse Aster\n\n"
                "Irena Valdoro was a queen-consort of the Duchy of Veskar as wife of "
                "Tomas II Valdoro."
            ),
        },
    )
    result = answer(engine, "Who was Irena Valdoro married to?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = _sides(result)
    assert sides["Rainald II Corvin"] == ["doc01"]
    assert sides["Tomas II Valdoro"] == ["doc02"]


def test_a_titled_bare_name_still_outranks_a_namesake(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": "Long Shadows Long Shadows is the fifth studio album by Mara Quill.",
            "doc02": (
                "Long Shadows (The Tin Herons album) Long Shadows is the third studio album "
                "by The Tin Herons."
            ),
        },
    )
    result = answer(engine, "Who is the artist of Long Shadows?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.citations == ["doc01"]


def _princesses(copy_born: str) -> dict[str, str]:
    return {
        "doc01": (
            "Princess Mirela Antonovna of Varsenia Princess Mirela Antonovna Derevko (10 March "
            "1919 \u2013 4 June 1998) was a direct descendant of the House of Derevko. "
            "Princess Mirela was born in Lyon, on 10 March 1919."
        ),
        "doc02": (
            "Princess Mirela Petrovna of Varsenia Princess Mirela Petrovna of Varsenia (22 "
            "August 1903 \u2013 17 September 1965) was a Varsenian princess."
        ),
        "doc03": (
            "From Wikipedia, the free encyclopedia\nVarsenian princess\n\nPrincess Mirela "
            "Antonovna Derevko, a member of the Varsenian royal family, was born on "
            f"{copy_born} in Lyon, France."
        ),
    }


def test_one_namesakes_qualifier_words_do_not_set_its_claim_aside(engine: Engine) -> None:
    load_documents(engine, _princesses("3 September 1921"))
    result = answer(engine, "When was Princess Mirela born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    sides = _sides(result)
    assert sides["1921-09-03"] == ["doc03"]
    assert "doc01" in sides["1919-03-10"]


def test_a_namesakes_qualified_claim_of_the_same_date_is_no_new_side(engine: Engine) -> None:
    load_documents(engine, _princesses("10 March 1919"))
    result = answer(engine, "When was Princess Mirela born?", ANYONE)
    sides = _sides(result)
    assert "1921-09-03" not in sides
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
    for question in ("When was Corran Mill last worked?", "When was the Harlow Courthouse built?"):
        whole = answer(engine, question, ANYONE).model_dump(mode="json")
        assert whole == answer(visible, question, ANYONE).model_dump(mode="json"), question
        assert whole["status"] == "answered"
        assert not {"doc02", "doc04"} & set(whole["citations"])
    assert answer(engine, "When was Corran Mill last worked?", ARCHIVE).status is (
        AnswerStatus.CONFLICT
    )
