"""A subject known only as named in one page, read beside the namesakes a question finds
(issue 13, session 11: the misinfo claim that fits the slot but is not cited).

A scraped page whose subject is read late, with no title ("Walter John Brice (in doc02)"),
cannot be told from the question's other candidates ("Walter Brice" of another page, also
read late): when its value differs, ``conflict`` names both; beside a page about exactly
the asked name, or under another name, it stays out and the answer stays one value."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import MAX_PAGE_NAMED, answer
from retrieval.contract import Answer, AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case, load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
MENU = "Contents Early life Career References External links "


def _page(name: str, born: str, died: str, what: str) -> str:
    """A page cut from an article: its menu, then the opening naming the subject."""
    return f"{MENU}{name} ( {born} \u2013 {died} ) was {what}. He played 12 seasons."


def _sides(result: Answer) -> dict[str, list[str]]:
    return {str(s.value): sorted(s.source_ids) for s in result.sides}


def test_a_page_named_subject_with_a_middle_name_and_another_date_is_a_side(
    engine: Engine,
) -> None:
    load_documents(
        engine,
        {
            "doc01": _page("Walter Brice", "13 August 1896", "1970", "an English footballer"),
            "doc02": _page("Walter John Brice", "15 October 1930", "2001", "an English footballer"),
        },
    )
    result = answer(engine, "When was Walter Brice born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    assert _sides(result) == {"1896-08-13": ["doc01"], "1930-10-15": ["doc02"]}
    assert "walter john brice (in doc02)" in result.reason  # both are named


def test_a_page_named_subject_stating_the_same_date_keeps_one_answer(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": _page("Walter Brice", "13 August 1896", "1970", "an English footballer"),
            "doc02": _page("Walter John Brice", "13 August 1896", "1970", "a footballer"),
        },
    )
    result = answer(engine, "When was Walter Brice born?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1896-08-13"
    assert sorted(result.citations) == ["doc01", "doc02"]


def test_beside_a_page_opening_with_exactly_the_asked_name_it_stays_out(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": "Walter Brice ( 13 August 1896 \u2013 1970 ) was an English footballer.",
            "doc02": _page(
                "Walter John Brice", "15 October 1930", "2001", "a Welsh rugby union player"
            ),
        },
    )
    result = answer(engine, "When was Walter Brice born?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1896-08-13"
    assert result.citations == ["doc01"]


def test_a_page_named_subject_of_another_name_stays_out(engine: Engine) -> None:
    load_documents(
        engine,
        {
            "doc01": _page("Walter Brice", "13 August 1896", "1970", "an English footballer"),
            "doc02": _page("Walter Bryce", "15 October 1930", "2001", "an English footballer"),
        },
    )
    result = answer(engine, "When was Walter Brice born?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1896-08-13"
    assert result.citations == ["doc01"]


# --- the latest value of each namesake the question does not tell apart

OSTROW = (
    "Haverly, Ostrow County, Vermont Haverly is a town in Ostrow County in the U.S. state "
    "of Vermont. The population was 3,917 in the 2010 census, up from 1,206 in the 2000 "
    "census."
)
TAMSIN = (
    "Haverly, Tamsin County, Vermont Haverly is a town in Tamsin County, Vermont, United "
    "States. The population was 318 at the 2000 census."
)


def test_a_namesakes_older_census_is_its_own_latest_value_not_history(engine: Engine) -> None:
    load_documents(engine, {"doc01": OSTROW, "doc02": TAMSIN})
    result = answer(engine, "What is the population of Haverly, Vermont?", ANYONE)
    # two towns the ledger tells apart: each town's own latest value, per town
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None
    assert _sides(result) == {"3917": ["doc01"], "318": ["doc02"]}
    assert "tamsin county" in result.reason and "ostrow county" in result.reason


def test_one_towns_older_census_stays_history_beside_its_newer_one(engine: Engine) -> None:
    load_documents(engine, {"doc01": OSTROW, "doc02": TAMSIN})
    result = answer(engine, "What is the population of Haverly, Ostrow County, Vermont?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == 3917
    assert result.citations == ["doc01"]


def test_hidden_page_named_subjects_never_crowd_a_visible_one_out(engine: Engine) -> None:
    # more hidden page-named namesakes than the answer reads beside a slot, all sorting
    # before the visible one: the bound is counted over what the requester may see, so the
    # answer equals the answer over the visible pages alone (issue 13, point 3)
    hidden = {
        f"doc{n:02d}": _page("Walter Albert Brice", "2 May 1950", "2010", "an English footballer")
        for n in range(2, 2 + MAX_PAGE_NAMED + 2)
    }
    visible = {
        "doc01": _page("Walter Brice", "13 August 1896", "1970", "an English footballer"),
        "doc99": _page("Walter John Brice", "15 October 1930", "2001", "an English footballer"),
    }
    documents = {**visible, **hidden}
    load_case(
        engine,
        {"documents": [{"id": k, "text": v} for k, v in documents.items()], "supersedes": {}},
        groups={doc: ["board"] for doc in hidden},
    )
    result = answer(engine, "When was Walter Brice born?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    assert _sides(result) == {"1896-08-13": ["doc01"], "1930-10-15": ["doc99"]}
    assert "albert" not in result.reason and "1950" not in result.model_dump_json()


def test_visible_keys_leaves_out_keys_whose_claims_are_all_hidden(engine: Engine) -> None:
    from claims.extraction.generation import current_generation
    from retrieval.candidates import visible_keys

    load_case(
        engine,
        {
            "documents": [
                {
                    "id": "open",
                    "text": _page("Walter Brice", "13 August 1896", "1970", "a footballer"),
                },
                {"id": "board", "text": _page("Walter Bell", "2 May 1950", "2010", "a footballer")},
            ],
            "supersedes": {},
        },
        groups={"board": ["board"]},
    )
    generation, _ = current_generation()
    keys = {"walter brice (in open) born", "walter bell (in board) born"}
    with engine.connect() as conn:
        assert visible_keys(conn, keys, generation=generation, groups=[]) == {
            "walter brice (in open) born"
        }
        assert visible_keys(conn, keys, generation=generation, groups=["board"]) == keys
