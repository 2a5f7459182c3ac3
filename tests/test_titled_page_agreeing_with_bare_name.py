"""A titled page that agrees with a bare name is the same thing (issue 13, session 15): a
scraped copy of an article reads its subject bare ("KWLT ( 1340 kHz , is an AM radio
station ..."), the article itself under its title "KWLT (AM)". The bare name fits the
question exactly and outranked the title, so a second copy of the article stating another
format was set aside as a namesake's and the answer quoted one value. When the titled page
states the value the bare one does, its claims are read as the bare name's
(retrieval/finding.py, ``best_named``); a titled namesake with values of its own stays
aside."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
QUESTION = "What is the broadcast format of KWLT?"

SCRAPED = (
    "Public file Listen Live Website kwltradio.com KWLT ( 1340 kHz , is an AM station "
    "broadcasting a Classic Country format . Licensed to Medford , Oregon , it serves the "
    "Rogue Valley ."
)
ARTICLE = (
    "KWLT (AM) KWLT (1340 AM) is a daytime station broadcasting a Classic Country format. "
    "Licensed to Medford, Oregon, it serves the Rogue Valley."
)
ARTICLE_OTHER_FORMAT = ARTICLE.replace("Classic Country", "Sports Talk")
NAMESAKE = (
    "KWLT (FM) KWLT (98.5 FM) is a daytime station broadcasting a Sports Talk format. "
    "Licensed to Ashland, Oregon, it serves the Rogue Valley."
)


def _sides(result: object) -> dict[str, list[str]]:
    return {str(s.value): s.source_ids for s in result.sides or []}  # type: ignore[attr-defined]


def test_a_copy_of_the_titled_article_with_another_value_is_a_side(engine: Engine) -> None:
    load_documents(engine, {"doc01": SCRAPED, "doc02": ARTICLE, "doc03": ARTICLE_OTHER_FORMAT})
    result = answer(engine, QUESTION, ANYONE)
    # before: the bare name of the scraped page answered alone (Classic Country, doc01)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert _sides(result) == {
        "Classic Country": ["doc01", "doc02"],
        "Sports Talk": ["doc03"],
    }


def test_near_miss_a_titled_namesake_with_its_own_value_stays_aside(engine: Engine) -> None:
    load_documents(engine, {"doc01": SCRAPED, "doc02": NAMESAKE})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "Classic Country"
    assert result.citations == ["doc01"]


def test_near_miss_only_the_agreeing_title_joins_the_bare_name(engine: Engine) -> None:
    load_documents(engine, {"doc01": SCRAPED, "doc02": ARTICLE, "doc03": NAMESAKE})
    result = answer(engine, QUESTION, ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "Classic Country"
    assert result.citations == ["doc01", "doc02"]
