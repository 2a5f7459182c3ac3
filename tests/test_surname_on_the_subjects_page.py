"""A biography names its subject by the surname after the first mention (issue 13, session
15): on the page of "Tom Ledbury (cricketer, born 1875)", "Ledbury made his first-class
debut in 1898" is about that Ledbury, whom the title tells from his namesakes
(claims/reference/opening.py, ``_ends_the_name``); so is a middle name the person is
known by ("Reinhold married ..." on the page of Carl Reinhold Asch). Before, both
namesakes' pages keyed the claim "ledbury debut" and a question about either got a
conflict of the two."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from claims.extraction import extract as extract_any
from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_documents_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
extract = partial(extract_any, profile="reference")
load_documents = partial(load_documents_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])

ELDER = (
    "Tom Ledbury (cricketer, born 1875) Tom Ledbury (2 May 1875 – 9 June 1931) was an "
    "English cricketer. Ledbury made his first-class debut for Kent in 1898. His brother "
    "Walter Ledbury died in 1940."
)
YOUNGER = (
    "Tom Ledbury (cricketer, born 1902) Thomas Ledbury (1902 – 1977) was an English "
    "cricketer. Ledbury made his first-class debut in a 1924 County Match against Surrey."
)


def _claims(text: str) -> dict[str, tuple[str | None, object]]:
    return {c.attribute: (c.entity, c.value) for c in extract(text, source_id="doc01")}


def test_the_surname_on_a_persons_page_is_the_pages_subject() -> None:
    read = _claims(ELDER)
    assert read["debut"] == ("tom ledbury (cricketer, born 1875)", "1898")
    # another person of the family keeps a name of their own
    assert read["died"] == ("walter ledbury", "1940")


def test_a_middle_name_the_person_is_known_by_is_the_pages_subject() -> None:
    text = (
        "Carl Reinhold Asch Carl Reinhold Asch (12 May 1880 – 3 June 1950) was a German "
        "painter. Reinhold married Anna Weiss in 1905. Carl, his son, died in 1960."
    )
    read = {(c.entity, c.attribute): c.value for c in extract(text, source_id="doc01")}
    assert read[("carl reinhold asch", "married")] == "1905"
    # the first name alone may be a son's or a father's
    assert read[("carl", "died")] == "1960"
    assert read[("carl reinhold asch", "died")] == "1950-06-03"


def test_near_miss_a_place_is_no_person() -> None:
    text = "Upper Lakeview Upper Lakeview is a town in Ohio. Lakeview was founded in 1850."
    assert _claims(text)["founded"] == ("lakeview", "1850")


def test_two_namesakes_debuts_are_answered_per_namesake(engine: Engine) -> None:
    load_documents(engine, {"doc01": ELDER, "doc02": YOUNGER})
    result = answer(engine, "When did Tom Ledbury begin his career in cricket?", ANYONE)
    # before: one key "ledbury debut" for both pages, and a conflict 1898 vs 1924
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert "1898" in result.reason and "1924" in result.reason, result.reason
