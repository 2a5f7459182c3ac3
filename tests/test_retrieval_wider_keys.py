"""Questions that name the subject as a qualifier ("Moallu's notice period") find claims
whose key carries it ("The Moallu notice period is ..."), from real extraction."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from retrieval_cases import load_case
from sqlalchemy import Engine

from claims.models import Requester
from claims.store import make_engine
from retrieval.answer import answer
from tests.store_template import upgrade  # a copy of a store migrated once

ANYONE = Requester(principal="anyone", groups=[])
FINANCE = Requester(principal="fay", groups=["finance"])
MOALLU = (
    "The Moallu notice period is 30 days. "
    "The Moallu board declared a dividend of 12 cents per share for Q1 2024."
)
GLOBEX = (
    "The Moallu notice period is 60 days. "
    "The Globex board declared a dividend of 18 cents per share for Q1 2024."
)
GENERIC = "The Q1 dividend was 15 cents per share."


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _ask(engine: Engine, question: str, requester: Requester = ANYONE) -> dict[str, Any]:
    return answer(engine, question, requester).model_dump(mode="json")


@pytest.fixture
def corpus(engine: Engine) -> Engine:
    load_case(engine, _case(("moallu", MOALLU), ("globex", GLOBEX), ("generic", GENERIC)))
    return engine


def test_a_possessive_subject_finds_claims_keyed_with_it(corpus: Engine) -> None:
    result = _ask(corpus, "What is Moallu's notice period?")
    assert result["status"] == "conflict"
    assert sorted(side["value"] for side in result["sides"]) == [30, 60]
    assert sorted(result["citations"]) == ["globex", "moallu"]


def test_the_named_company_beats_a_claim_that_names_none(corpus: Engine) -> None:
    moallu = _ask(corpus, "What was Moallu's Q1 dividend?")
    assert (moallu["status"], moallu["value"], moallu["citations"]) == ("answered", 12, ["moallu"])
    globex = _ask(corpus, "What was Globex's dividend in Q1 2024?")
    assert (globex["status"], globex["value"], globex["citations"]) == ("answered", 18, ["globex"])


def test_a_question_without_qualifiers_still_reads_only_its_own_key(corpus: Engine) -> None:
    result = _ask(corpus, "What was the Q1 dividend?")
    assert (result["status"], result["value"], result["citations"]) == ("answered", 15, ["generic"])


def test_a_hidden_longer_key_changes_nothing_for_who_cannot_see_it(
    engine: Engine, tmp_path: Path
) -> None:
    load_case(
        engine,
        _case(("moallu", MOALLU), ("globex", GLOBEX), ("generic", GENERIC)),
        groups={"moallu": ["finance"]},
    )
    url = f"sqlite:///{tmp_path / 'visible.db'}"
    upgrade(url)
    visible = make_engine(url)
    load_case(visible, _case(("globex", GLOBEX), ("generic", GENERIC)))
    for question in ("What was Moallu's Q1 dividend?", "What is Moallu's notice period?"):
        hidden = _ask(engine, question)
        assert hidden == _ask(visible, question), question
        assert "moallu" not in hidden["citations"]
    assert _ask(engine, "What was Moallu's Q1 dividend?", FINANCE)["citations"] == ["moallu"]
