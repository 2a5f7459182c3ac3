"""Questions reach claims worded otherwise: candidates by entity and attribute, type-checked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sqlalchemy import Engine, update
from typer.testing import CliRunner

from claimledger.cli.app import app as cli_app
from claims.extraction.question import QuestionFrame
from claims.models import Requester
from claims.settings import get_settings
from claims.store import make_engine
from claims.tables import ClaimRow
from retrieval.answer import answer, answer_frame
from retrieval.contract import AnswerStatus
from tests.retrieval_corpus import Corpus
from tests.store_template import upgrade  # a copy of a store migrated once

sys.path.insert(0, str(Path(__file__).parent))
from retrieval_cases import load_case  # noqa: E402

ANYONE = Requester(principal="anyone", groups=[])
PLANNERS = Requester(principal="pat", groups=["planning"])


def _towns(engine: Engine) -> None:
    corpus = Corpus()
    corpus.source("atlas", ())
    corpus.source("gazette", ())
    corpus.source("memo", ("planning",))
    atlas = corpus.version("atlas", "Springfield, Illinois had 114,394 residents in 2020.")
    gazette = corpus.version("gazette", "Springfield, Massachusetts is home to 155,929 people.")
    memo = corpus.version("memo", "Lakeview had 4,210 residents; Route 66 runs through it.")
    rows = {
        corpus.claim(atlas, "springfield, illinois population", 114394, None): (
            "springfield, illinois",
            "population",
        ),
        corpus.claim(gazette, "springfield, massachusetts population", 155929, None): (
            "springfield, massachusetts",
            "population",
        ),
        corpus.claim(memo, "lakeview population", 4210, None): ("lakeview", "population"),
        corpus.claim(memo, "lakeview route", 66, "USD"): ("lakeview", "route"),
    }
    corpus.write(engine)
    with engine.begin() as conn:
        for claim_id, (entity, attribute) in rows.items():
            conn.execute(
                update(ClaimRow)
                .where(ClaimRow.id == claim_id)
                .values(entity=entity, attribute=attribute, coarse_key=attribute)
            )


def _frame(question: str, entity: str | None) -> QuestionFrame:
    # what the question parser gives: the key is the attribute, the entity rides alongside
    return QuestionFrame(
        text=question,
        claim_key="population",
        coarse_key="population",
        entity=entity,
        attribute="population",
        scope_residual=(entity or "").replace(",", "").split(),
    )


def test_a_battery_question_worded_otherwise_is_answered(engine: Engine) -> None:
    load_case(
        engine,
        {
            "documents": [
                {
                    "id": "p9-spec",
                    "text": "# P-9 router\n\nThe P-9 router's battery lasts 11 hours per charge.",
                }
            ],
            "supersedes": {},
        },
    )
    for question in (
        "How long does the P-9 router's battery last?",
        "What is the P-9 router's battery life?",
    ):
        result = answer(engine, question, ANYONE)
        assert result.status is AnswerStatus.ANSWERED, result.reason
        assert (result.value, result.citations) == (11, ["p9-spec"])


def test_a_name_shared_by_two_towns_is_answered_for_each_town(engine: Engine) -> None:
    # two towns of one name are two scopes (issue 13): each town's value, none picked
    _towns(engine)
    question = "What is the population of Springfield?"
    result = answer_frame(engine, _frame(question, "springfield"), ANYONE, question=question)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert result.value is None
    assert "2 things are called 'springfield'" in result.reason
    assert "'springfield, illinois': 114394" in result.reason
    assert "'springfield, massachusetts': 155929" in result.reason
    assert sorted((s.entity, s.value, s.source_ids[0]) for s in result.sides) == [
        ("springfield, illinois", 114394, "atlas"),
        ("springfield, massachusetts", 155929, "gazette"),
    ]
    assert sorted(result.citations) == ["atlas", "gazette"]
    assert result.signals is not None and result.signals.conflicts_detected == 0


def test_the_full_name_answers_for_one_town(engine: Engine) -> None:
    _towns(engine)
    question = "What is the population of Springfield, Illinois?"
    frame = _frame(question, "springfield, illinois")
    result = answer_frame(engine, frame, ANYONE, question=question)
    assert result.status is AnswerStatus.ANSWERED, result.reason
    assert (result.value, result.citations) == (114394, ["atlas"])


def test_an_incidental_number_of_the_entity_never_answers(engine: Engine) -> None:
    _towns(engine)
    question = "How many people live in Lakeview?"
    frame = _frame(question, "lakeview")
    # the memo is the planners' only: for everyone else nothing answers, not Route 66
    hidden = answer_frame(engine, frame, ANYONE, question=question)
    assert hidden.status is AnswerStatus.NOT_FOUND
    seen = answer_frame(engine, frame, PLANNERS, question=question)
    assert seen.status is AnswerStatus.ANSWERED, seen.reason
    assert seen.value == 4210
    assert seen.citations == ["memo"]


def test_a_value_of_another_kind_is_not_an_answer(engine: Engine) -> None:
    _towns(engine)
    question = "How much does it cost to live in Lakeview?"
    frame = QuestionFrame(
        text=question,
        claim_key="lakeview route",
        coarse_key="route",
        entity="lakeview",
        attribute="route",
    )
    # the only claim at the key is 66 USD, money: fits. A count question at the same key
    # does not take it.
    assert answer_frame(engine, frame, PLANNERS, question=question).value == 66
    count = "How many routes run through Lakeview?"
    result = answer_frame(
        engine,
        QuestionFrame(
            text=count,
            claim_key="lakeview route",
            coarse_key="route",
            entity="lakeview",
            attribute="route",
        ),
        PLANNERS,
        question=count,
    )
    assert result.status is AnswerStatus.NOT_FOUND


def test_explain_prints_the_frame_and_ranked_candidates(cli_env: Path) -> None:
    cli_env.mkdir(parents=True, exist_ok=True)
    (cli_env / "access.yaml").write_text(
        "default_principal: anyone\nprincipals:\n  anyone:\n    groups: []\n"
        "  pat:\n    groups: [planning]\n",
        encoding="utf-8",
    )
    url = get_settings().resolved_database_url
    upgrade(url)
    store = make_engine(url)
    try:
        _towns(store)
    finally:
        store.dispose()
    question = "What is the population of Springfield, Illinois?"
    run = CliRunner().invoke(cli_app, ["ask", question, "--explain", "--json"])
    assert run.exit_code == 0, run.output
    why = json.loads(run.output)
    assert why["frame"]["attribute"] == "population"
    assert why["frame"]["answer_type"] == "count"
    ranked = [(c["rank"], c["claim_key"]) for c in why["candidates"]]
    assert ranked[0] == (1, "springfield, illinois population")
    # hidden claims never take a rank: the planners' Lakeview memo is not listed for anyone
    assert all("lakeview" not in key for _, key in ranked)
    assert why["answer"]["status"] == "answered" and why["answer"]["value"] == 114394
    human = CliRunner().invoke(cli_app, ["ask", question, "--explain"])
    assert human.exit_code == 0
    assert "candidate 1: 'springfield, illinois population' score" in human.output
    assert "asks for count" in human.output


def test_a_name_the_parser_left_as_a_qualifier_still_excludes_other_entities(
    engine: Engine,
) -> None:
    _towns(engine)
    question = "How many people live in Ogdenville?"
    # the parser read no entity, only the qualifier word "ogdenville"
    frame = QuestionFrame(
        text=question,
        claim_key="population",
        coarse_key="population",
        entity=None,
        attribute="population",
        scope_residual=["ogdenville"],
    )
    result = answer_frame(engine, frame, ANYONE, question=question)
    # Springfield's figures are about something else: nothing answers, nothing is picked
    assert result.status is AnswerStatus.NOT_FOUND, result.reason
    named = QuestionFrame(
        text="How many people live in Springfield, Illinois?",
        claim_key="population",
        coarse_key="population",
        entity=None,
        attribute="population",
        scope_residual=["springfield", "illinois"],
    )
    found = answer_frame(engine, named, ANYONE, question=named.text)
    assert (found.status, found.value) == (AnswerStatus.ANSWERED, 114394), found.reason
