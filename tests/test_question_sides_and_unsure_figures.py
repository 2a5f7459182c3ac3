"""Issue 32, session 18: a conflict cites both sides the ledger holds in dispute, and a
reading that cannot tell which figure is asked gives no figure (a wrong figure is worse than
no answer). Reports and messages written here, through real extraction, edges and a store.

- Two documents stating one slot with values the ledger holds in dispute: the answer cites
  both, whether the disagreement is stored as an edge or read from the key's value groups,
  and when neither document names an entity, only if the ledger holds them in conflict or
  ambiguous by a scope that does not set them apart on what is asked (the bundled
  known-conflict probes, run by tests/test_pipeline_cli.py, hold that a figure of another
  period is not a side; tests/test_sides_joined_by_scope.py the class).
- A figure in another currency is another body's accounts: not a side.
- A sentence pairing figures with things "respectively" gives no list answer.
- A sentence of the report saying every asked word that the named table row lacks, with
  another figure, is a side beside the cell.
"""

from __future__ import annotations

from typing import Any

from retrieval_cases import answer_sides, load_documents
from sqlalchemy import Engine

from claims.models import Requester
from retrieval.answer import answer

ANYONE = Requester(principal="anyone", groups=[])


def _load(engine: Engine, **documents: str) -> None:
    load_documents(engine, documents)


def _ask(engine: Engine, question: str) -> tuple[Any, ...]:
    return answer_sides(engine, question, ANYONE)


def test_a_label_line_and_a_sales_email_on_one_products_price_are_a_conflict(
    engine: Engine,
) -> None:
    _load(
        engine,
        brochure="# Heater range 2026\n\n## H-40\n\nOutput: 4 kW\nPrice: $640\n",
        memo=(
            "Subject: H-40 pricing\n\nFrom 1 June the H-40 will retail for $590 in every "
            "store, so please update the shelf labels.\n"
        ),
    )
    status, value, sides = _ask(engine, "How much does the H-40 heater cost?")
    assert status == "conflict" and value is None
    assert sides == [("590", ("memo",)), ("640", ("brochure",))]


def test_a_figure_in_another_currency_is_not_a_side(engine: Engine) -> None:
    _load(
        engine,
        accounts=(
            "# Annual accounts\n\n| (in millions) | 2025 | 2024 |\n|---|---|---|\n"
            "| Revenue | $52.0 | $47.5 |\n"
        ),
        press=(
            "# Press note\n\nAnnual revenue for the 2025/26 financial year reached £3.1bn, "
            "in line with the plan.\n"
        ),
    )
    status, value, _ = _ask(engine, "What was the revenue in 2024?")
    assert (status, value) == ("answered", 47500000)


HALF_YEAR = (
    "# Half-year note\n\nThe gain on disposal in the first half and the second half of 2024 "
    "was $6.0 million and $4.5 million, respectively.\n\nIn the garden division, sales "
    "increased by 6.1% (4.0% adjusted) to $2.3 billion with like-for-like sales increasing "
    "1.9%.\n"
)


def test_figures_paired_respectively_with_things_are_no_list_answer(engine: Engine) -> None:
    _load(engine, report=HALF_YEAR)
    result = answer(engine, "What was the gain on disposal in 2024?", ANYONE)
    assert result.status.value == "not_found" and result.values is None
    assert "respectively" in result.reason


def test_a_sentence_saying_every_asked_word_the_named_row_lacks_is_a_side(
    engine: Engine,
) -> None:
    _load(
        engine,
        report=(
            "# Annual report\n\n| | 2024 | 2023 |\n|---|---|---|\n| Stores | 1,240 | 1,180 |\n"
            "| Employees | 9,100 | 8,700 |\n\nThe group opened eight new coastal stores during "
            "the year, and the coastal network reached 310 stores in 2024.\n"
        ),
    )
    # the row "Stores" is named, but only the sentence says "coastal": both are sides
    status, value, sides = _ask(engine, "How many coastal stores were there in 2024?")
    assert (status, value) == ("conflict", None)
    assert {"1240", "310"} <= {v for v, _ in sides}
    # the row says all that is asked: the cell answers
    assert _ask(engine, "How many stores were there in 2024?")[:2] == ("answered", 1240)
