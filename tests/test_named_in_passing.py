"""A name stated in passing on a page about something else (issue 13, session 13): "The
mill was restored and became the Museum of Rural Life in 1974" on a page cut from the
middle of an article (its first words name "the mill") fits the asked museum no better than
a titled page does, so it cannot answer alone beside the titled article: both sides are
named. A page whose first words name the museum still answers for it alone."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents as load_documents_any  # noqa: E402

# reference articles (encyclopedia pages): read and judged with the reference profile
load_documents = partial(load_documents_any, profile="reference")

ANYONE = Requester(principal="anyone", groups=[])
QUESTION = "When was the Museum of Rural Life established?"
TITLED = (
    "Museum of Rural Life (Harwick) The Museum of Rural Life is a museum in Harwick, Kent. "
    "The mill was restored and became the Museum of Rural Life in {year}, and was opened "
    "to visitors in 1982."
)
CUT = (
    "The mill was restored and became the Museum of Rural Life in {year}, and was opened "
    "to visitors in 1982. Its collection holds ploughs and carts."
)


def test_a_name_in_passing_on_a_cut_page_does_not_answer_alone(engine: Engine) -> None:
    load_documents(engine, {"doc01": TITLED.format(year=1974), "doc02": CUT.format(year=1955)})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.CONFLICT
    assert {str(s.value): s.source_ids for s in result.sides} == {
        "1974": ["doc01"],
        "1955": ["doc02"],
    }


def test_a_page_whose_first_words_name_it_still_answers(engine: Engine) -> None:
    opened = "The Museum of Rural Life was founded in 1955 in a restored mill."
    load_documents(engine, {"doc01": TITLED.format(year=1955), "doc02": opened})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.ANSWERED
    assert result.value == "1955"
