"""Questions that name a table's row and column, answered by the cell (issue 32, table
questions: "What was the X in 2019?", "What is the amount of X?", group rows, "as of"),
from real extraction of reports written here."""

from __future__ import annotations

from typing import Any

import pytest
from retrieval_cases import load_case
from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer

ANYONE = Requester(principal="anyone", groups=[])

RESULTS = (
    "# Harbour Freight annual report\n\n"
    "The tables below set out the group's results for the last two years.\n\n"
    "| (in thousands) | 2023 | 2022 |\n|---|---|---|\n"
    "| Net sales | | |\n"
    "| Northern routes | 4,210 | 3,980 |\n"
    "| Southern routes | 2,705 | 2,640 |\n"
    "| Total net sales | 6,915 | 6,620 |\n"
    "| Cost of goods sold | 3,120 | 2,990 |\n"
    "| Gross profit | 3,795 | 3,630 |\n\n"
    "Freight volumes rose on both routes during the year.\n"
)
SEGMENTS = (
    "# Segment note\n\n"
    "| Segment | Amount | % of total |\n|---|---|---|\n"
    "| Haulage | 5,000 | 62.5% |\n"
    "| Storage | 3,000 | 37.5% |\n"
)
AWARDS = (
    "# Share awards\n\n"
    "| Share awards | Shares |\n|---|---|\n"
    "| Outstanding at 31 December 2022 | 12,400 |\n"
    "| Awarded | 3,100 |\n"
    "| Lapsed | 450 |\n"
    "| Outstanding at 31 December 2023 | 15,050 |\n"
)
BOARD_NOTE = "# Board note\n\nGross profit for 2023 was $3.5 million.\n"


def _case(*documents: tuple[str, str]) -> dict[str, Any]:
    return {"documents": [{"id": i, "text": t} for i, t in documents], "supersedes": {}}


def _ask(engine: Engine, question: str) -> tuple[Any, ...]:
    result = answer(engine, question, ANYONE)
    return result.status.value, result.value, sorted(result.citations)


@pytest.fixture
def reports(engine: Engine) -> Engine:
    load_case(engine, _case(("results", RESULTS), ("segments", SEGMENTS), ("awards", AWARDS)))
    return engine


def test_a_row_and_a_year_column_answer_that_years_figure(reports: Engine) -> None:
    assert _ask(reports, "What was the gross profit in 2022?") == (
        "answered",
        3630000,
        ["results"],
    )
    assert _ask(reports, "What was the cost of goods sold in 2023?")[:2] == ("answered", 3120000)


def test_the_amount_of_a_row_is_the_row(reports: Engine) -> None:
    # "the amount of" gives the question no key of its own; the row's words still name it
    assert _ask(reports, "What was the amount of cost of goods sold in 2022?")[:2] == (
        "answered",
        2990000,
    )


def test_a_row_under_a_group_row_is_named_with_the_group(reports: Engine) -> None:
    assert _ask(reports, "What were the net sales of the Southern routes in 2022?")[:2] == (
        "answered",
        2640000,
    )
    # the total row, not one of the rows it adds up
    assert _ask(reports, "What were the total net sales in 2023?")[:2] == ("answered", 6915000)


def test_a_question_naming_no_year_gets_the_latest_column(reports: Engine) -> None:
    assert _ask(reports, "What was the gross profit?")[:2] == ("answered", 3795000)


def test_a_year_the_table_has_no_column_for_is_not_found(reports: Engine) -> None:
    assert _ask(reports, "What was the gross profit in 2019?")[0] == "not_found"


def test_a_percentage_question_gets_the_percent_cell_and_an_amount_question_the_amount(
    reports: Engine,
) -> None:
    assert _ask(reports, "What percentage of the total was storage?")[:2] == ("answered", 37.5)
    assert _ask(reports, "What was the amount of storage?")[:2] == ("answered", 3000)


def test_an_undated_row_of_a_roll_forward_holds_for_the_year_it_spans(reports: Engine) -> None:
    assert _ask(reports, "How many share awards were awarded in 2023?")[:2] == ("answered", 3100)


def test_a_name_the_table_never_says_is_not_answered_from_it(reports: Engine) -> None:
    result = _ask(reports, "What was the Kestrel division's gross profit in 2022?")
    assert result[0] != "answered" or result[1] != 3630000


def test_another_documents_value_for_the_same_row_and_year_stays_a_side(engine: Engine) -> None:
    load_case(engine, _case(("results", RESULTS), ("board-note", BOARD_NOTE)))
    status, _, citations = _ask(engine, "What was the gross profit in 2023?")
    assert status == "conflict"
    assert citations == ["board-note", "results"]
