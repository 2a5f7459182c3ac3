"""A question that names its subject with the kind of thing after the name (session 14):
"When was the Harbour Mouse TV series released?" asks about "harbour mouse"; the words "TV
series" say what it is. A copy of the article cut above its title knows the subject only as
"harbour mouse (in doc02)", which fit the asked "harbour mouse tv series" not at all, so its
other date was never a side (retrieval/candidates.py ``entity_fit``)."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import EntityRef, Requester
from retrieval.answer import answer
from retrieval.candidates import NAME_PART, entity_fit
from retrieval.contract import AnswerStatus

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
TITLED = (
    "Harbour Mouse (1985 TV series) Harbour Mouse is a British animated television series "
    "made by Tidewater Films. It originally ran from 3 May 1985 to 2 June 1990 on the ITV "
    "network."
)
CUT = (
    "Mouse television series. For the 2016 series, see Harbour Mouse (2016 TV series). "
    "Harbour Mouse is a British animated television series made by Tidewater Films. It "
    "originally ran from {start} to 2 June 1990 on the ITV network."
)


def test_kind_words_after_the_asked_name_are_not_part_of_it() -> None:
    assert entity_fit("harbour mouse tv series", "harbour mouse") == NAME_PART
    local = EntityRef(name="harbour mouse", local_to="doc02")
    assert entity_fit("harbour mouse tv series", local) == NAME_PART
    assert entity_fit("washington street station", "washington street") == NAME_PART
    # the name itself must match: another mouse is another series
    assert entity_fit("harbour mouse tv series", "field mouse") == 0.0


def test_a_cut_copy_with_another_start_date_is_a_side(engine: Engine) -> None:
    load_documents(engine, {"doc01": TITLED, "doc02": CUT.format(start="1 April 1979")})
    result = answer(engine, "When was the Harbour Mouse TV series released?", ANYONE)
    assert result.status is AnswerStatus.CONFLICT, result.reason
    assert {str(s.value): s.source_ids for s in result.sides or []} == {
        "1985-05-03": ["doc01"],
        "1979-04-01": ["doc02"],
    }


def test_near_miss_a_cut_copy_with_the_same_date_agrees(engine: Engine) -> None:
    load_documents(engine, {"doc01": TITLED, "doc02": CUT.format(start="3 May 1985")})
    result = answer(engine, "When was the Harbour Mouse TV series released?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == "1985-05-03"
