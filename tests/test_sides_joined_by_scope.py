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

import pytest
from retrieval_cases import answer_sides, load_documents
from sqlalchemy import Engine

from claims.models import Requester


def _ask(engine: Engine, question: str) -> tuple[Any, ...]:
    """(status, value, sides) of the answer to a reader of every document."""
    return answer_sides(engine, question, Requester(principal="reader", groups=[]))


def _load(engine: Engine, **documents: str) -> None:
    load_documents(engine, documents)


JOINED = {
    # a condition clause only the letter adds, not asked
    "condition clause": (
        {
            "site_rules": (
                "# Quayside yard: terms\n\nTerms for crane staff at the Quayside yard, agreed "
                "in May 2026.\n\n- Notice period: 2 weeks\n- Remote working: 1 day per week\n"
            ),
            "yard_letter": (
                "Subject: Your terms at the yard\n\nHi Ana,\n\nYour notice period is 2 weeks, "
                "and you can work remotely 2 days per week once your induction ends.\n\n"
                "Regards,\nYard office\n"
            ),
        },
        "How many days a week can Quayside crane staff work remotely?",
        [("1", ("site_rules",)), ("2", ("yard_letter",))],
        None,
    ),
    # words of the question the email states and the row leaves implied, and a party the
    # table's page states of all its rows; the other row stays one answer
    "asked words and a party of the page": (
        {
            "support_levels": (
                "# Support: service levels\n\nThese times apply to clients on a maintenance "
                "plan.\n\n| Severity | First reply | Fix target |\n|---|---|---|\n"
                "| Severity 1 | 3 hours | 2 days |\n| Severity 2 | 6 hours | 5 days |\n"
            ),
            "ops_note": (
                "Subject: Weekend cover\n\nAll,\n\nSince the storage fault, a word on what we "
                "owe our clients: Severity 1 incidents must get a first reply within 1 hour. "
                "Page the duty lead if nobody answers.\n\nThanks,\nLee\n"
            ),
        },
        "How quickly must a severity 1 incident get a first reply?",
        [("1", ("ops_note",)), ("3", ("support_levels",))],
        ("How quickly must a severity 2 incident get a first reply?", 6),
    ),
    # "$22 per month" beside a "Monthly price" cell: ambiguous by unit, not by scope
    "price per month": (
        {
            "plans": (
                "# Backup service: plans\n\nAll prices in US dollars.\n\n"
                "| Plan | Monthly price | Storage |\n|---|---|---|\n"
                "| Standard | $6 | 50 GB |\n| Premium | $18 | 500 GB |\n"
            ),
            "sales_mail": (
                "Subject: Spring offers\n\nHi all,\n\nFor the calls this week: the Premium "
                "plan costs $22 per month per seat, and Standard is unchanged.\n\nThanks,\n"
                "Dana\n"
            ),
        },
        "How much is the Premium plan per month?",
        [("18", ("plans",)), ("22", ("sales_mail",))],
        ("How much is the Standard plan per month?", 6),
    ),
}


@pytest.mark.parametrize("case", sorted(JOINED))
def test_a_scope_that_does_not_set_the_two_apart_joins_both_as_sides(
    engine: Engine, case: str
) -> None:
    documents, question, expected_sides, one_answer = JOINED[case]
    _load(engine, **documents)
    assert _ask(engine, question) == ("conflict", None, expected_sides)
    if one_answer is not None:
        other_question, value = one_answer
        assert _ask(engine, other_question)[:2] == ("answered", value)


APART = {
    # a quarter only the other document states, not asked
    "quarter": (
        {
            "rebate_period": (
                "# Interim statement for the third quarter\n\nThe rebate for the period was "
                "8 cents per litre.\n"
            ),
            "rebate_q4": "# Rebate notice\n\nThe Q4 rebate was 11 cents per litre.\n",
        },
        "What was the rebate for the period?",
        ("8", "rebate_period"),
    ),
    # a surface the question asks that only the answering claim states
    "asked surface": (
        {
            "export_interactive": (
                "# Export API: interactive use\n\nInteractive export requests have a 200-row "
                "output limit.\n"
            ),
            "service_note": ("# Note one\n\nThe interactive service has a 400-row output limit.\n"),
        },
        "What is the interactive export output limit?",
        ("200", "export_interactive"),
    ),
}


@pytest.mark.parametrize("case", sorted(APART))
def test_a_scope_that_sets_the_two_apart_on_what_is_asked_keeps_one_side(
    engine: Engine, case: str
) -> None:
    documents, question, (value, source) = APART[case]
    load_documents(engine, documents)
    status, answered, sides = _ask(engine, question)
    assert (status, str(answered)) == ("answered", value)
    assert sides == [(value, (source,))]
