"""Session 19: a claim the ledger holds ambiguous with an answering claim, in another
document naming nothing, is a side of the answer when the scope only one of them states
does not set them apart on what is asked (``retrieval/scope_sides.py``); a value-group
relation ambiguous for another reason than scope (a unit) is a side as its edge is.
Documents written here, through real extraction, edges and a store.

Both directions of the class:

- joined: a condition clause only one document adds ("once the induction ends"); words of
  the question the email states and the table row leaves implied, with a party the table's
  page states of all its rows; "$22 per month" beside a "Monthly price" cell;
- kept apart: a quarter only the other document states and the question does not ask; a
  surface the question asks that only the answering claim states.
"""

from __future__ import annotations

from typing import Any

from retrieval_cases import load_case
from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer

ANYONE = Requester(principal="anyone", groups=[])


def _load(engine: Engine, **documents: str) -> None:
    load_case(
        engine,
        {"documents": [{"id": k, "text": v} for k, v in documents.items()], "supersedes": {}},
    )


def _ask(engine: Engine, question: str) -> tuple[Any, ...]:
    result = answer(engine, question, ANYONE)
    sides = sorted((str(s.value), tuple(sorted(s.source_ids))) for s in result.sides)
    return result.status.value, result.value, sides


def test_a_condition_clause_one_document_adds_joins_the_other_document_as_a_side(
    engine: Engine,
) -> None:
    _load(
        engine,
        site_rules=(
            "# Quayside yard: terms\n\nTerms for crane staff at the Quayside yard, agreed in "
            "May 2026.\n\n- Notice period: 2 weeks\n- Remote working: 1 day per week\n"
        ),
        yard_letter=(
            "Subject: Your terms at the yard\n\nHi Ana,\n\nYour notice period is 2 weeks, and "
            "you can work remotely 2 days per week once your induction ends.\n\nRegards,\n"
            "Yard office\n"
        ),
    )
    status, value, sides = _ask(
        engine, "How many days a week can Quayside crane staff work remotely?"
    )
    assert (status, value) == ("conflict", None)
    assert sides == [("1", ("site_rules",)), ("2", ("yard_letter",))]


def test_asked_words_and_a_party_the_tables_page_states_join_an_email_to_a_table_row(
    engine: Engine,
) -> None:
    _load(
        engine,
        support_levels=(
            "# Support: service levels\n\nThese times apply to clients on a maintenance "
            "plan.\n\n| Severity | First reply | Fix target |\n|---|---|---|\n"
            "| Severity 1 | 3 hours | 2 days |\n| Severity 2 | 6 hours | 5 days |\n"
        ),
        ops_note=(
            "Subject: Weekend cover\n\nAll,\n\nSince the storage fault, a word on what we owe "
            "our clients: Severity 1 incidents must get a first reply within 1 hour. Page the "
            "duty lead if nobody answers.\n\nThanks,\nLee\n"
        ),
    )
    status, value, sides = _ask(engine, "How quickly must a severity 1 incident get a first reply?")
    assert (status, value) == ("conflict", None)
    assert sides == [("1", ("ops_note",)), ("3", ("support_levels",))]
    # the other row stays one answer: the email says nothing of severity 2
    assert _ask(engine, "How quickly must a severity 2 incident get a first reply?")[:2] == (
        "answered",
        6,
    )


def test_a_price_per_month_beside_a_monthly_price_cell_is_a_side(engine: Engine) -> None:
    _load(
        engine,
        plans=(
            "# Backup service: plans\n\nAll prices in US dollars.\n\n"
            "| Plan | Monthly price | Storage |\n|---|---|---|\n"
            "| Standard | $6 | 50 GB |\n| Premium | $18 | 500 GB |\n"
        ),
        sales_mail=(
            "Subject: Spring offers\n\nHi all,\n\nFor the calls this week: the Premium plan "
            "costs $22 per month per seat, and Standard is unchanged.\n\nThanks,\nDana\n"
        ),
    )
    status, value, sides = _ask(engine, "How much is the Premium plan per month?")
    assert (status, value) == ("conflict", None)
    assert sides == [("18", ("plans",)), ("22", ("sales_mail",))]
    assert _ask(engine, "How much is the Standard plan per month?")[:2] == ("answered", 6)


def test_a_quarter_only_the_other_document_states_keeps_one_side(engine: Engine) -> None:
    _load(
        engine,
        rebate_period=(
            "# Interim statement for the third quarter\n\nThe rebate for the period was 8 cents "
            "per litre.\n"
        ),
        rebate_q4="# Rebate notice\n\nThe Q4 rebate was 11 cents per litre.\n",
    )
    status, value, sides = _ask(engine, "What was the rebate for the period?")
    assert (status, value) == ("answered", 8)
    assert sides == [("8", ("rebate_period",))]


def test_a_surface_the_question_asks_and_only_the_answer_states_keeps_one_side(
    engine: Engine,
) -> None:
    _load(
        engine,
        export_interactive=(
            "# Export API: interactive use\n\nInteractive export requests have a 200-row "
            "output limit.\n"
        ),
        service_note="# Note one\n\nThe interactive service has a 400-row output limit.\n",
    )
    status, value, sides = _ask(engine, "What is the interactive export output limit?")
    assert (status, value) == ("answered", 200)
    assert sides == [("200", ("export_interactive",))]
