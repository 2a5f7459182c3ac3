"""A name and a unit word the question parser leaves among the attribute words (issue 13).

"What is the Vantrix token limit?" parses to no entity and the attribute "vantrix token
limit", while the release notes say "The Vantrix limit is 4,096 tokens per request." (entity
"vantrix", attribute "limit", a value in tokens). The name is looked up as an entity and the
unit word is read as the value's unit, so the question is answered; a question naming another
unit, or a name no claim carries, is not answered by a neighbour's figure. Real extraction,
edges and routing over notes written for this test, in a real SQLite store.
"""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer
from retrieval.contract import AnswerStatus
from retrieval.explain import explain

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_documents  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])

VANTRIX_NOTES = """# Vantrix API: release notes

Version 3 reaches every customer this week.

The Vantrix limit is 4,096 tokens per request. Longer prompts are cut at that point.
"""

QUILLON_MEMO = """Subject: Quillon rollout

Hi all,

For the pilot teams: the Quillon limit is 8,192 tokens per request, twice the old one.

Thanks,
Marta
"""


def _load(engine: Engine) -> None:
    load_documents(engine, {"vantrix-notes": VANTRIX_NOTES, "quillon-memo": QUILLON_MEMO})


def test_a_name_and_a_unit_word_among_the_attribute_words_find_the_claim(
    engine: Engine,
) -> None:
    _load(engine)
    result = answer(engine, "What is the Vantrix token limit?", ANYONE)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value == 4096
    assert result.citations == ["vantrix-notes"]
    why = explain(engine, "What is the Quillon token limit?", ANYONE)
    assert why.frame.entity is None  # the parser left the name among the attribute words
    assert why.candidates[0].entity == "quillon"
    assert why.candidates[0].found_by == "entity"
    assert why.answer.status is AnswerStatus.ANSWERED and why.answer.value == 8192


def test_another_unit_or_an_unknown_name_is_not_answered_by_a_neighbour(
    engine: Engine,
) -> None:
    _load(engine)
    # bytes are not tokens: "byte limit" is another slot than the token "limit"
    other_unit = answer(engine, "What is the Vantrix byte limit?", ANYONE)
    assert other_unit.status is AnswerStatus.NOT_FOUND, other_unit.reason
    # no claim is about a "Ferrow": neither product's figure answers for it
    unknown = explain(engine, "What is the Ferrow token limit?", ANYONE)
    assert unknown.candidates == []
    assert unknown.answer.status is AnswerStatus.NOT_FOUND, unknown.answer.reason
